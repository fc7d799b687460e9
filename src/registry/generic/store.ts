// The generic store turns verbs into storage operations through a type's strategy,
// after k8s.io/apiserver's registry/generic/registry/store.go. It never parses HTTP:
// handlers hand it decoded objects and options; it hands back bytes and objects.
//
// Reads come from the node's watch cache; writes go through the kind's actor.

import type { Logger } from 'pino';
import type { KeyValue, Storage } from '../../storage/interface.js';
import { KindActor, type Decision, type Mutation, type Outcome } from '../../actors/kind-actor.js';
import type { RegistryWatch } from '../../cache/registry-watch.js';
import { WatchCache, type CacheEntry } from '../../cache/watch-cache.js';
import { decodeContinue, encodeContinue, encodeContinueToken } from '../../machinery/continue-token.js';
import {
  OPTIMISTIC_LOCK_MESSAGE,
  StatusError,
  alreadyExists,
  badRequest,
  conflict,
  gone,
  invalid,
  notFound,
  type FieldError,
  type GroupResource,
  qualifiedResource,
} from '../../machinery/errors.js';
import { isStorageError } from '../../storage/errors.js';
import { type HookEnv, type RegistryOptions, type ResourceDef, type Strategy, type WriteHooks, type WriteTxn } from '../types.js';
import { apiVersionOf } from '../../machinery/api-resource.js';
import { type KObject } from '../../machinery/object.js';
import { decodeObject, encodeForStorage, storedLengthsDiffer, stripResourceVersion, withResourceVersion, type VersionedBytes } from '../../machinery/stored-bytes.js';
import { clone, generateName, hasPendingFinalizers, newUID, nowTimestamp } from '../../machinery/meta.js';
import { deepEqual } from '../../machinery/json-view.js';
import { parseResourceVersion } from '../../machinery/resource-version.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../machinery/validation/object-meta.js';
import { planDeletion } from './delete-plan.js';
import type { PropagationOptions } from './deletion.js';
import { checkStoredSize, isStorageTooLarge, objectTooLarge } from './object-size.js';
import { SCHEMAS, applySchemaDefaults, goRoundTrip, rootDefinition, storageRoundTrip } from '../../schema/types/index.js';
import { FieldManager, type FieldOwner } from '../../patch/ssa/field-manager.js';
import type { Watch } from '../../machinery/watch.js';
import { watchStore, type WatchOptions } from './watch.js';

/**
 * Who a write is for, so managedFields follow it. `apply` marks a Server-Side Apply, whose
 * handler already computed the object's managedFields.
 */
export interface WriteOwner extends FieldOwner {
  apply?: boolean;
}

export interface StoreDeps {
  storage: Storage;
  registryWatch: RegistryWatch;
  /** e.g. `/registry` (kube's --etcd-prefix). */
  storagePrefix: string;
  log: Logger;
  historyMs: number;
  /**
   * Looks up a namespace's current state; used by create to refuse missing or terminating
   * namespaces. The object is for reading only (it may be shared with other readers).
   */
  namespaceOf: (name: string) => Promise<Readonly<KObject> | undefined>;
  admissionList: (group: string, resource: string) => Promise<KObject[]>;
  /** Another served resource's store, for types whose writes reach other objects (hooks). */
  storeFor?: (group: string, resource: string) => GenericStore | undefined;
  /** The server's settings the types read (service ranges). */
  options?: RegistryOptions;
}

export interface ListOptions {
  resourceVersion?: string;
  /** 'Exact', 'NotOlderThan' or ''/unset (validated by the handler). */
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  /** Keeps the entries a selector matches. */
  filter?: (e: CacheEntry) => boolean;
}

export interface ListResult {
  items: VersionedBytes[];
  resourceVersion: number;
  continue?: string;
  remainingItemCount?: number;
}

export interface DeleteOptions extends PropagationOptions {
  dryRun?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

export type DeleteResult =
  | { kind: 'marked'; object: VersionedBytes }
  | { kind: 'deleted'; object: VersionedBytes; obj: KObject };


const WAIT_FOR_RV_MS = 3000;

/** Thrown inside an attempt of a hooked update whose state changed under it: the attempt starts over. */
const STALE_ATTEMPT = new Error('stale update attempt');

/** kube's etcd3 store grows a selector-thinned page's reads up to this batch size. */
const MAX_STORE_BATCH = 10_000;

// Texts of k8s.io/apiserver/pkg/storage/etcd3 (errors.go) for a compacted list revision.
const EXPIRED_LIST = 'The resourceVersion for the provided list is too old.';
const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * storage.NewTooLargeResourceVersionError as the etcd3 store raises it for a revision ahead
 * of the store (no retry hint, unlike the watch cache's wait).
 */
function tooLargeResourceVersion(rv: number, current: number): StatusError {
  return new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  });
}

/** A list's resourceVersion, parsed as storage.ValidateListOptions words its failure. */
function parseListResourceVersion(rv: string): number {
  try {
    return parseResourceVersion(rv);
  } catch (e) {
    if (e instanceof StatusError) throw badRequest(`invalid resource version: ${e.status.message ?? ''}`);
    throw e;
  }
}

export class GenericStore {
  readonly cache: WatchCache;
  private readonly actor: KindActor;
  readonly prefix: string;
  readonly gr: GroupResource;
  readonly apiVersion: string;
  /** The type's schema definition name (io.k8s.api.apps.v1.StatefulSet). */
  readonly definition: string;
  /** managedFields upkeep and Server-Side Apply for this kind. */
  readonly fieldManager: FieldManager;
  /** The schema definition of what is stored: the type's own, or the stored resource's (storedAs). */
  private readonly storedDefinition: string;
  private hooksMade = false;
  private hooksValue?: WriteHooks;

  constructor(
    readonly def: ResourceDef,
    private readonly deps: StoreDeps,
  ) {
    const stored = def.storedAs ?? def;
    this.prefix = `${deps.storagePrefix}/${stored.group || 'core'}/${stored.resource}/`;
    this.gr = { group: def.group, resource: def.resource };
    this.apiVersion = apiVersionOf(def);
    this.definition = rootDefinition(def.group, def.version, def.kind);
    this.storedDefinition = def.storedAs ? rootDefinition(def.storedAs.group, 'v1', def.kind) : this.definition;
    this.fieldManager = new FieldManager(
      { group: def.group, version: def.version, kind: def.kind, definition: this.definition, hasStatus: Boolean(def.subresources?.status) },
      SCHEMAS,
    );
    const view = def.storedAs;
    this.cache = new WatchCache(this.prefix, def.namespaced, {
      historyMs: deps.historyMs,
      maxHistory: 1_000_000,
      transform: view ? (value) => encodeForStorage(view.fromStored(decodeObject(value))) : undefined,
    });
    deps.registryWatch.add(this.cache);
    this.actor = new KindActor(deps.storage, (key) => {
      const e = this.cache.get(key);
      if (!e) return null;
      // The cache holds bytes with the revision spliced in; the actor wants the stored form.
      const value = view ? encodeForStorage(view.toStored(decodeObject(stripResourceVersion(e)))) : stripResourceVersion(e);
      return { key, value, modRevision: e.rv, createRevision: e.createRevision };
    });
  }

  /** The stored value decoded in this type's shape, with metadata.resourceVersion set from the store's revision. */
  private decodeKv(kv: KeyValue): KObject {
    let obj = decodeObject(kv.value);
    if (this.def.storedAs) obj = this.def.storedAs.fromStored(obj);
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  }

  /** Stored bytes (without a resourceVersion) in this type's shape. */
  private viewOf(value: Buffer): Buffer {
    const view = this.def.storedAs;
    return view ? encodeForStorage(view.fromStored(decodeObject(value))) : value;
  }

  /** The bytes to store for an object of this type, without the storage round trip. */
  private encodeStored(obj: KObject): Buffer {
    return encodeForStorage(this.def.storedAs ? this.def.storedAs.toStored(obj) : obj);
  }

  /** The type's write hooks, made on first use (they reach other stores, which exist by then). */
  private get hooks(): WriteHooks | undefined {
    if (!this.hooksMade) {
      this.hooksMade = true;
      const make = this.def.writeHooks;
      if (make) this.hooksValue = make(this.hookEnv());
    }
    return this.hooksValue;
  }

  private hookEnv(): HookEnv {
    const deps = this.deps;
    return {
      store: (group, resource) => {
        const st = deps.storeFor?.(group, resource);
        if (!st) throw new Error(`no store for ${resource}.${group}`);
        return st;
      },
      storage: deps.storage,
      registryWatch: deps.registryWatch,
      storagePrefix: deps.storagePrefix,
      historyMs: deps.historyMs,
      options: deps.options ?? { serviceClusterIPRange: '10.96.0.0/12', serviceNodePortRange: '30000-32767' },
      log: deps.log,
    };
  }

  /** AfterDelete: once an object is gone (never for a dry run). */
  private async afterDelete(obj: KObject, dryRun: boolean): Promise<void> {
    const hooks = this.hooks;
    if (!hooks || dryRun) return;
    try {
      await hooks.afterDelete(obj);
    } catch (e) {
      // As in kube, a failed cleanup leaves the deletion standing; the repair loops catch up.
      this.deps.log.warn({ err: (e as Error).message, resource: this.def.resource, name: obj.metadata.name }, 'after-delete hook failed');
    }
  }

  /** The revision this node's caches reflect. */
  get cacheRevision(): number {
    return this.deps.registryWatch.revision;
  }

  keyFor(namespace: string, name: string): string {
    return this.def.namespaced ? `${this.prefix}${namespace}/${name}` : `${this.prefix}${name}`;
  }

  /** The key prefix of a list: one namespace, or everything. */
  listPrefix(namespace: string): string {
    return this.def.namespaced && namespace ? `${this.prefix}${namespace}/` : this.prefix;
  }

  // ---- reads ----
  //
  // kube 1.33's semantics for get and list (apiserver storage/cacher delegator and etcd3 store):
  //   resourceVersion unset  Most Recent: the cache once it reached the store's current
  //                          revision (a consistent read); the store itself when the cache
  //                          does not catch up in time.
  //   "0"                    Any: the cache as it is, without a store round trip.
  //   N (Not older than)     the cache once it reached N; 504 after 3 s.
  //   N, Exact               the store at exactly revision N: 410 when compacted, 504 when N
  //                          is ahead of the store.
  // First pages come from wherever the list was served, at one revision; continue tokens
  // carry that revision and later pages read the store at it, so all pages are one snapshot.

  /**
   * Brings the cache to the freshness a resourceVersion asks for: unset is Most Recent
   * (a consistent read), "0" is Any, anything else is Not older than.
   */
  async freshen(resourceVersion: string | undefined): Promise<number> {
    const rw = this.deps.registryWatch;
    if (resourceVersion === undefined || resourceVersion === '') return rw.consistentRevision(WAIT_FOR_RV_MS);
    if (resourceVersion === '0') return rw.revision;
    const rv = parseResourceVersion(resourceVersion);
    await rw.waitFor(rv, WAIT_FOR_RV_MS);
    return rw.revision;
  }

  async get(namespace: string, name: string, resourceVersion?: string): Promise<CacheEntry> {
    const key = this.keyFor(namespace, name);
    if (resourceVersion === undefined || resourceVersion === '') {
      // Most Recent. kube reads the store; the cache serves once it is provably current.
      const caughtUp = await this.consistentCache();
      if (!caughtUp) {
        const kv = await this.deps.storage.get(key);
        if (!kv) throw notFound(this.gr, name);
        return this.entryOf(key, withResourceVersion(this.viewOf(kv.value), kv.modRevision), kv);
      }
    } else {
      await this.freshen(resourceVersion);
    }
    const e = this.cache.get(key);
    if (!e) throw notFound(this.gr, name);
    return e;
  }

  /**
   * Waits until the cache reflects the store's current revision. False when it does not get
   * there in time (the caller reads the store instead, as kube's consistent reads fall back
   * to etcd when the watch cache lags).
   */
  private async consistentCache(): Promise<boolean> {
    try {
      await this.deps.registryWatch.consistentRevision(WAIT_FOR_RV_MS);
      return true;
    } catch (e) {
      if (e instanceof StatusError && e.code === 504) return false;
      throw e;
    }
  }

  async getObject(namespace: string, name: string): Promise<KObject> {
    return decodeObject((await this.get(namespace, name)).bytes);
  }

  async list(namespace: string, opts: ListOptions): Promise<ListResult> {
    const prefix = this.listPrefix(namespace);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const rvParam = opts.resourceVersion ?? '';
    const match = opts.resourceVersionMatch ?? '';
    if (opts.continue) return this.listContinue(prefix, opts.continue, rvParam, limit, opts.filter);
    if (rvParam === '') {
      // Most Recent.
      if (!(await this.consistentCache())) return this.listFromStore(prefix, 0, prefix, limit, opts.filter);
      return this.listFromCache(prefix, limit, opts.filter);
    }
    const rv = parseListResourceVersion(rvParam);
    // Exact: asked for, or the legacy meaning of a resourceVersion with a limit.
    if (rv > 0 && (match === 'Exact' || (match === '' && limit > 0))) {
      return this.listFromStore(prefix, rv, prefix, limit, opts.filter);
    }
    // Any: the cache as it is. kube's watch cache ignores the limit of such a list.
    if (rv === 0) return this.listFromCache(prefix, 0, opts.filter);
    // Not older than.
    await this.deps.registryWatch.waitFor(rv, WAIT_FOR_RV_MS);
    return this.listFromCache(prefix, limit, opts.filter);
  }

  /**
   * One page from the cache at the revision it reflects. Synchronous, so the items and the
   * revision (the one later pages read the store at) belong to one state.
   */
  private listFromCache(prefix: string, limit: number, filter?: (e: CacheEntry) => boolean, from?: { key: string; rev: number }): ListResult {
    const rev = from ? from.rev : this.cacheRevision;
    if (!limit) {
      const all = this.cache.list(prefix, from?.key);
      return { items: filter ? all.filter(filter) : all, resourceVersion: rev };
    }
    const page = this.cache.page(prefix, from?.key, limit, filter);
    const out: ListResult = { items: page.items, resourceVersion: rev };
    // An entry past a full page means a next page (kube does not look further).
    if (page.more) {
      const lastKey = page.items.length > 0 ? page.items[page.items.length - 1].key : '';
      out.continue = encodeContinue(rev, lastKey.slice(prefix.length));
      // With selectors the count of later matches is unknown, so kube leaves it out.
      if (!filter) out.remainingItemCount = page.total - page.items.length;
    }
    return out;
  }

  /** A later page: the token's revision and start key; a token minted by a 410 reads the latest state. */
  private async listContinue(
    prefix: string,
    token: string,
    resourceVersion: string,
    limit: number,
    filter?: (e: CacheEntry) => boolean,
  ): Promise<ListResult> {
    // storage.ValidateListOptions: the token is checked first, then the resourceVersion.
    const tok = decodeContinue(token);
    if (resourceVersion !== '' && resourceVersion !== '0') {
      throw badRequest('specifying resource version is not allowed when using continue');
    }
    // Nothing of this resource changed since the token's revision: the cache holds that very
    // snapshot, so the page comes from memory instead of the store's history.
    // (The store must still hold that revision: a compacted token expires all the same.)
    if (
      tok.rv > 0 &&
      tok.rv <= this.cacheRevision &&
      this.cache.eventsAfter(tok.rv)?.length === 0 &&
      tok.rv >= (await this.deps.storage.compactedRevision())
    ) {
      return this.listFromCache(prefix, limit, filter, { key: prefix + tok.start, rev: tok.rv });
    }
    return this.listFromStore(prefix, tok.rv > 0 ? tok.rv : 0, prefix + tok.start, limit, filter, tok.start);
  }

  /**
   * A list read from the store at revision `rev` (0: the current one) from `fromKey`, after
   * kube's etcd3 store: with selectors, reads further (in doubling batches) until the page is
   * full or the keys run out. `tokenStart` marks a continuation, for the 410 it may answer.
   */
  private async listFromStore(
    prefix: string,
    rev: number,
    fromKey: string,
    limit: number,
    filter?: (e: CacheEntry) => boolean,
    tokenStart?: string,
  ): Promise<ListResult> {
    const storage = this.deps.storage;
    const items: VersionedBytes[] = [];
    let at = rev;
    let from = fromKey;
    let batch = limit;
    let lastKey = '';
    let more = false;
    let remaining = 0;
    try {
      for (;;) {
        const res = await storage.range(prefix, { fromKey: from, limit: batch, revision: at || undefined });
        if (!at) at = res.revision;
        more = res.more;
        remaining = res.remaining;
        for (let i = 0; i < res.kvs.length; i++) {
          if (limit && items.length >= limit) {
            more = true;
            break;
          }
          const kv = res.kvs[i];
          lastKey = kv.key;
          const vb = withResourceVersion(this.viewOf(kv.value), kv.modRevision);
          if (!filter || filter(this.entryOf(kv.key, vb, kv))) items.push(vb);
        }
        if (!more || !limit || items.length >= limit || res.kvs.length === 0) break;
        from = `${lastKey}\u0000`;
        if (batch < MAX_STORE_BATCH) batch = Math.min(batch * 2, MAX_STORE_BATCH);
      }
    } catch (e) {
      if (isStorageError(e, 'Compacted')) {
        if (tokenStart === undefined) throw gone(EXPIRED_LIST);
        // kube answers with a token that continues at the latest revision from the same key.
        const err = gone(INCONSISTENT_CONTINUE);
        (err.status as unknown as { metadata: Record<string, string> }).metadata = {
          continue: encodeContinueToken(-1, tokenStart),
        };
        throw err;
      }
      if (isStorageError(e, 'FutureRevision')) {
        throw tooLargeResourceVersion(at, await storage.currentRevision());
      }
      throw e;
    }
    const out: ListResult = { items, resourceVersion: at };
    if (more && lastKey) {
      out.continue = encodeContinue(at, lastKey.slice(prefix.length));
      if (!filter) out.remainingItemCount = remaining;
    }
    return out;
  }

  private entryOf(key: string, vb: VersionedBytes, kv: KeyValue): CacheEntry {
    const rest = key.slice(this.prefix.length);
    const i = this.def.namespaced ? rest.indexOf('/') : -1;
    return {
      ...vb,
      key,
      namespace: i >= 0 ? rest.slice(0, i) : '',
      name: i >= 0 ? rest.slice(i + 1) : rest,
      rv: kv.modRevision,
      createRevision: kv.createRevision,
    };
  }

  // ---- watch ----

  /** A watch of a namespace's objects ('' for every namespace), served by the cache (watch.ts). */
  watch(namespace: string, opts: WatchOptions): Promise<Watch> {
    return watchStore(this, namespace, opts);
  }

  // ---- writes ----

  /**
   * Runs a mutation through the kind's actor, or, for a dry run, on the store's current
   * state without writing: every step runs but the commit, and no revision is consumed.
   */
  private async commit(key: string, mutate: Mutation, dryRun: boolean): Promise<Outcome> {
    if (!dryRun) {
      // The stored-object size limit, for every backend, before anything is written.
      const sized: Mutation = (cur) => {
        const d = mutate(cur);
        if (d.kind === 'put') checkStoredSize(key, d.value);
        return d;
      };
      try {
        return await this.actor.submit(key, sized);
      } catch (e) {
        if (isStorageTooLarge(e)) throw objectTooLarge();
        throw e;
      }
    }
    const cur = await this.deps.storage.get(key);
    const d = mutate(cur);
    if (d.kind === 'put') {
      // A dry-run create has no resourceVersion yet; a dry-run update keeps the current one.
      const rev = cur?.modRevision ?? 0;
      return { decision: 'put', revision: rev, current: { key, value: d.value, modRevision: rev, createRevision: cur?.createRevision ?? 0 }, previous: cur };
    }
    return { decision: d.kind, revision: cur?.modRevision ?? 0, current: d.kind === 'delete' ? null : cur, previous: cur };
  }

  private invalid(obj: KObject, errs: FieldError[]): StatusError {
    // kube names the kind it validates: the stored (internal) one, for a resource served from another's storage.
    return invalid(this.def.kind, this.def.storedAs ? this.def.storedAs.group : this.def.group, obj.metadata?.name ?? '', errs);
  }

  private async checkNamespace(namespace: string, name = ''): Promise<void> {
    if (!this.def.namespaced) return;
    const ns = await this.deps.namespaceOf(namespace);
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') {
      throw new StatusError(
        403,
        'Forbidden',
        `${qualifiedResource(this.gr)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          name,
          group: this.def.group,
          kind: this.def.resource,
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
        },
      );
    }
  }

  /** Aligns the object's namespace with the request's: set it when empty, refuse a mismatch. */
  private alignNamespace(obj: KObject, namespace: string): void {
    if (!this.def.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    if (!obj.metadata.namespace) obj.metadata.namespace = namespace;
    else if (obj.metadata.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
  }

  /**
   * kube's rest.BeforeCreate, in its order. `afterDefaults` runs where kube's field manager
   * does: on the defaulted object, before the strategy prepares it.
   */
  private prepareCreate(obj: KObject, namespace: string, afterDefaults?: () => void): void {
    obj.apiVersion = this.apiVersion;
    obj.kind = this.def.kind;
    this.alignNamespace(obj, namespace);
    const meta = obj.metadata;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    delete meta.resourceVersion;
    this.applyDefaults(obj, this.def.strategy);
    afterDefaults?.();
    this.def.strategy.prepareForCreate(obj);
    meta.uid = newUID();
    meta.creationTimestamp = nowTimestamp();
    if (this.def.strategy.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
  }

  private validateCreate(obj: KObject): void {
    const errs = validateObjectMeta(obj.metadata, this.def.namespaced, this.def.nameValidator);
    errs.push(...this.def.strategy.validate(obj));
    if (errs.length) throw this.invalid(obj, errs);
  }

  async create(namespace: string, input: KObject, dryRun = false, owner?: WriteOwner): Promise<{ bytes: Buffer; obj: KObject; warnings: string[] }> {
    const obj = input;
    this.alignNamespace(obj, namespace);
    await this.checkNamespace(namespace, obj.metadata.name ?? '');
    this.prepareCreate(obj, namespace, this.trackFields(null, obj, this.def.strategy, owner));
    const base = obj.metadata.generateName && !obj.metadata.name ? obj.metadata.generateName : undefined;
    if (base) obj.metadata.name = generateName(base);
    this.def.strategy.canonicalize?.(obj);
    const hooks = this.hooks;
    // kube's BeginCreate: after the name is known, before validation; undone if the create fails.
    let txn: WriteTxn | undefined = hooks ? await hooks.beginCreate(obj, dryRun) : undefined;
    try {
      this.validateCreate(obj);
      const warnings = this.def.strategy.warningsOnCreate?.(obj) ?? [];
      await this.def.admission?.admitCreate?.(obj, { list: (r) => this.deps.admissionList(r.group, r.resource) });
      // A generated name can collide; try a few fresh names before giving up, as kube does.
      for (let attempt = 0; ; attempt++) {
        try {
          const created = await this.commitCreate(obj, dryRun);
          const done = txn;
          txn = undefined;
          await done?.commit();
          return { ...created, warnings };
        } catch (e) {
          if (base && attempt < 7 && e instanceof StatusError && e.reason === 'AlreadyExists') {
            obj.metadata.name = generateName(base);
            this.def.strategy.canonicalize?.(obj);
            if (hooks && txn) {
              const undo = txn;
              txn = undefined;
              await undo.revert();
              txn = await hooks.beginCreate(obj, dryRun);
            }
            continue;
          }
          throw e;
        }
      }
    } catch (e) {
      await txn?.revert();
      throw e;
    }
  }

  /** The bytes stored for a validated object, after what kube's protobuf storage does to it. */
  private storedForm(obj: KObject): Buffer {
    const view = this.def.storedAs;
    if (!view) {
      storageRoundTrip(obj, this.definition, SCHEMAS);
      return encodeForStorage(obj);
    }
    const stored = view.toStored(obj);
    storageRoundTrip(stored, this.storedDefinition, SCHEMAS);
    return encodeForStorage(stored);
  }

  /** The answer's bytes before a revision is spliced in: the stored form, or the object's own for a view. */
  private answerSource(obj: KObject, stored: Buffer | undefined): Buffer {
    if (this.def.storedAs) return encodeForStorage(this.def.storedAs.fromStored(decodeObject(stored ?? this.encodeStored(obj))));
    return stored ?? encodeForStorage(obj);
  }

  private async commitCreate(obj: KObject, dryRun: boolean): Promise<{ bytes: Buffer; obj: KObject }> {
    const name = obj.metadata.name!;
    const value = this.storedForm(obj);
    const out = await this.commit(
      this.keyFor(obj.metadata.namespace ?? '', name),
      (cur) => {
        if (cur) throw alreadyExists(this.gr, name);
        return { kind: 'put', value };
      },
      dryRun,
    );
    if (out.revision > 0) obj.metadata.resourceVersion = String(out.revision);
    return { bytes: this.answerBytes(obj, this.answerSource(obj, value), out.revision, dryRun), obj };
  }

  /**
   * PUT: update (or create, where the type allows) `name`. `subresource` selects the
   * strategy: '' for the main resource, 'status' for /status.
   */
  async update(
    namespace: string,
    name: string,
    input: KObject,
    subresource = '',
    dryRun = false,
    owner?: WriteOwner,
  ): Promise<{ bytes: Buffer; obj: KObject; created: boolean; warnings: string[] }> {
    const strategy = this.strategyFor(subresource);
    if (!input.metadata.name) {
      throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
    }
    if (input.metadata.name !== name) {
      throw badRequest(`the name of the object (${input.metadata.name}) does not match the name on the URL (${name})`);
    }
    this.alignNamespace(input, namespace);
    const wantRv = input.metadata.resourceVersion;
    if (subresource === '') {
      await this.def.admission?.admitUpdate?.(input, { list: (r) => this.deps.admissionList(r.group, r.resource) });
    }
    const canCreate = strategy.allowCreateOnUpdate && subresource === '';
    if (canCreate && !this.cache.get(this.keyFor(namespace, name))) {
      // Create-on-update must respect namespace lifecycle like a POST does.
      await this.checkNamespace(namespace, name);
    }
    return this.guaranteedUpdate(
      namespace,
      name,
      subresource,
      (old) => {
        const obj = clone(input);
        // A uid in the body is a precondition, as kube treats it.
        if (obj.metadata.uid && obj.metadata.uid !== old.metadata.uid) {
          throw conflict(this.gr, name, `Precondition failed: UID in precondition: ${obj.metadata.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
        }
        if (wantRv && wantRv !== old.metadata.resourceVersion) throw conflict(this.gr, name, OPTIMISTIC_LOCK_MESSAGE);
        if (!wantRv && !strategy.allowUnconditionalUpdate) {
          throw this.invalid(obj, [
            { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', badValue: 0, detail: 'must be specified for an update' },
          ]);
        }
        return obj;
      },
      canCreate
        ? () => {
            if (wantRv) throw conflict(this.gr, name, OPTIMISTIC_LOCK_MESSAGE);
            return clone(input);
          }
        : undefined,
      dryRun,
      owner,
    );
  }

  /** Refuses a create into a missing or terminating namespace (for writes that may create). */
  async checkCreatable(namespace: string, name: string): Promise<void> {
    if (!this.cache.get(this.keyFor(namespace, name))) await this.checkNamespace(namespace, name);
  }

  /**
   * The one update loop (kube's GuaranteedUpdate): `tryUpdate` turns the current object
   * into the desired one and may throw; it runs again on a fresh object when another
   * writer got there first, so a patch or a scale change re-applies to the latest state.
   * `tryUpdate` must return a new object and leave its argument as it was: the old object
   * is compared with the result afterwards (one decode per attempt, not two).
   */
  async guaranteedUpdate(
    namespace: string,
    name: string,
    subresource: string,
    tryUpdate: (old: KObject) => KObject,
    createIfMissing?: () => KObject,
    dryRun = false,
    owner?: WriteOwner,
  ): Promise<{ bytes: Buffer; obj: KObject; created: boolean; warnings: string[] }> {
    const hooks = subresource === '' ? this.hooks : undefined;
    if (hooks) return this.hookedUpdate(hooks, namespace, name, tryUpdate, createIfMissing, dryRun, owner);
    return this.updateLoop(namespace, name, subresource, tryUpdate, createIfMissing, dryRun, owner);
  }

  /**
   * The update loop of a type with write hooks. A hook works outside the store (it allocates
   * through other objects, asynchronously), so each attempt is prepared here, on the state
   * read first, and committed only if that state is still current: kube's BeginUpdate per
   * attempt of GuaranteedUpdate, with the attempt's allocations undone when it loses.
   */
  private async hookedUpdate(
    hooks: WriteHooks,
    namespace: string,
    name: string,
    tryUpdate: (old: KObject) => KObject,
    createIfMissing: (() => KObject) | undefined,
    dryRun: boolean,
    owner: WriteOwner | undefined,
  ): Promise<{ bytes: Buffer; obj: KObject; created: boolean; warnings: string[] }> {
    const strategy = this.def.strategy;
    const key = this.keyFor(namespace, name);
    for (let attempt = 0; ; attempt++) {
      const cur = await this.currentKv(key, attempt > 0);
      let prepared: KObject;
      let txn: WriteTxn;
      if (!cur) {
        if (!createIfMissing) throw notFound(this.gr, name);
        prepared = createIfMissing();
        this.prepareCreate(prepared, namespace, this.trackFields(null, prepared, strategy, owner));
        strategy.canonicalize?.(prepared);
        txn = await hooks.beginCreate(prepared, dryRun);
      } else {
        const old = this.decodeKv(cur);
        prepared = tryUpdate(old);
        this.prepareUpdate(prepared, old, strategy, this.trackFields(old, prepared, strategy, owner));
        strategy.canonicalize?.(prepared);
        txn = await hooks.beginUpdate(prepared, old, dryRun);
      }
      const expected = cur ? String(cur.modRevision) : '';
      const onStale = (): never => {
        throw STALE_ATTEMPT;
      };
      try {
        // managedFields were tracked above, before the hook: what it allocates is no manager's.
        const res = await this.updateLoop(
          namespace,
          name,
          '',
          (now) => (now.metadata.resourceVersion === expected ? clone(prepared) : onStale()),
          cur ? (createIfMissing ? onStale : undefined) : () => clone(prepared),
          dryRun,
          owner?.apply ? owner : undefined,
        );
        await txn.commit();
        return res;
      } catch (e) {
        await txn.revert();
        if (e === STALE_ATTEMPT && attempt < 16) continue;
        if (e === STALE_ATTEMPT) throw conflict(this.gr, name, OPTIMISTIC_LOCK_MESSAGE);
        throw e;
      }
    }
  }

  /** The current stored state of a key: the cache's (cheap, maybe stale) or the store's. */
  private async currentKv(key: string, fromStore: boolean): Promise<KeyValue | null> {
    if (fromStore) return this.deps.storage.get(key);
    const e = this.cache.get(key);
    if (!e) return this.deps.storage.get(key);
    const value = this.def.storedAs ? this.encodeStored(decodeObject(stripResourceVersion(e))) : stripResourceVersion(e);
    return { key, value, modRevision: e.rv, createRevision: e.createRevision };
  }

  private async updateLoop(
    namespace: string,
    name: string,
    subresource: string,
    tryUpdate: (old: KObject) => KObject,
    createIfMissing: (() => KObject) | undefined,
    dryRun: boolean,
    owner: WriteOwner | undefined,
  ): Promise<{ bytes: Buffer; obj: KObject; created: boolean; warnings: string[] }> {
    const strategy = this.strategyFor(subresource);
    const key = this.keyFor(namespace, name);
    let created = false;
    let warnings: string[] = [];
    let result: KObject | undefined;
    // The stored form of `result`, kept for the answer (encoding twice costs a stringify).
    let stored: Buffer | undefined;
    const out = await this.commit(key, (cur): Decision => {
      stored = undefined;
      if (!cur) {
        if (!createIfMissing) throw notFound(this.gr, name);
        const obj = createIfMissing();
        this.prepareCreate(obj, namespace, this.trackFields(null, obj, strategy, owner));
        strategy.canonicalize?.(obj);
        this.validateCreate(obj);
        warnings = strategy.warningsOnCreate?.(obj) ?? [];
        created = true;
        result = obj;
        stored = this.storedForm(obj);
        return { kind: 'put', value: stored };
      }
      created = false;
      const old = this.decodeKv(cur);
      const obj = tryUpdate(old);
      this.prepareUpdate(obj, old, strategy, this.trackFields(old, obj, strategy, owner));
      strategy.canonicalize?.(obj);
      const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
      errs.push(...strategy.validateUpdate(obj, old));
      if (errs.length) throw this.invalid(obj, errs);
      warnings = strategy.warningsOnUpdate?.(obj, old) ?? [];
      result = obj;
      this.fieldManager.keepTimesOfNoop(old, obj, (a, b) => deepEqual(canonical(a), canonical(b)));
      if (obj.metadata.deletionTimestamp && !hasPendingFinalizers(obj) && !this.hasTypeFinalizers(obj) && !((old.metadata.deletionGracePeriodSeconds ?? 0) > 0)) {
        // The last finalizer is gone (and no grace period runs): the update completes the deletion.
        return { kind: 'delete' };
      }
      const value = this.storedForm(obj);
      // Most updates change something: their length alone shows it, without the deep compare.
      if (value.equals(cur.value) || (!storedLengthsDiffer(cur.value, value) && deepEqual(canonical(obj), canonical(old)) && sameManagedFieldsText(obj, old))) {
        return { kind: 'none' };
      }
      stored = value;
      return { kind: 'put', value };
    }, dryRun);
    if (!result) throw new Error('update produced no object');
    if (out.decision === 'delete') await this.afterDelete(result, dryRun);
    if (out.decision === 'none' && out.current) {
      const obj = this.decodeKv(out.current);
      return { bytes: withResourceVersion(this.viewOf(out.current.value), out.current.modRevision).bytes, obj, created: false, warnings };
    }
    if (out.revision > 0) result.metadata.resourceVersion = String(out.revision);
    return { bytes: this.answerBytes(result, this.answerSource(result, stored), out.revision, dryRun), obj: result, created, warnings };
  }

  /**
   * Response bytes for a value this store just wrote at `revision` (0: a dry-run create, which
   * has no resourceVersion yet). The watch cache usually holds them already: the embedded
   * store feeds it before the write is acknowledged, and its bytes are the same. A dry run
   * wrote nothing: its revision is the current object's, whose bytes are not the answer.
   */
  private answerBytes(obj: KObject, value: Buffer, revision: number, dryRun: boolean): Buffer {
    if (revision <= 0) return value;
    const hit = dryRun ? undefined : this.cache.get(this.keyFor(obj.metadata.namespace ?? '', obj.metadata.name!));
    if (hit && hit.rv === revision) return hit.bytes;
    return withResourceVersion(value, revision).bytes;
  }

  /**
   * The managedFields step of a non-apply write: on the defaulted object (canonical names
   * included, as kube's defaulting sets them), before the strategy's own changes.
   */
  private trackFields(live: KObject | null, obj: KObject, strategy: Strategy, owner?: WriteOwner): (() => void) | undefined {
    if (!owner || owner.apply) return undefined;
    return () => {
      strategy.canonicalize?.(obj);
      try {
        this.fieldManager.update(live, obj, owner, { rawFields: true });
      } catch {
        // kube's UpdateNoErrors: a non-apply write never fails on field tracking (an object
        // validation will refuse, e.g. a list item without its key, cannot be tracked); it
        // goes on with its managedFields removed.
        delete obj.metadata.managedFields;
      }
    };
  }

  private hasTypeFinalizers(obj: KObject): boolean {
    return this.def.pendingTypeFinalizers?.(obj) ?? false;
  }

  private strategyFor(subresource: string): Strategy {
    if (subresource === '') return this.def.strategy;
    const s = this.def.subresources?.[subresource] ?? this.def.actions?.[subresource]?.strategy;
    if (!s) throw notFound(this.gr, '');
    return s;
  }

  /**
   * The schema's defaults (kube's SetDefaults_* as data), then what only the type knows; then
   * the object as Go's struct holds it (a struct that is present has all its non-omitempty
   * fields, e.g. `ordinals: {}` is `{start: 0}`), which is what managedFields see in kube.
   */
  private applyDefaults(obj: KObject, strategy: Strategy): void {
    applySchemaDefaults(obj, this.definition, SCHEMAS);
    strategy.applyDefaults(obj);
    goRoundTrip(obj, this.definition, SCHEMAS);
  }

  /** kube's rest.BeforeUpdate: what an update may never change, then the strategy's rules. */
  private prepareUpdate(obj: KObject, old: KObject, strategy: Strategy, afterDefaults?: () => void): void {
    obj.apiVersion = this.apiVersion;
    obj.kind = this.def.kind;
    const meta = obj.metadata;
    const om = old.metadata;
    this.applyDefaults(obj, strategy);
    afterDefaults?.();
    if (om.generation !== undefined) meta.generation = om.generation;
    else delete meta.generation;
    strategy.prepareForUpdate(obj, old);
    if (!meta.uid) meta.uid = om.uid;
    meta.creationTimestamp = om.creationTimestamp;
    if (om.deletionTimestamp) meta.deletionTimestamp = om.deletionTimestamp;
    else delete meta.deletionTimestamp;
    if (om.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    else delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (om.deletionTimestamp) {
      const had = new Set(om.finalizers ?? []);
      const added = (meta.finalizers ?? []).filter((f) => !had.has(f));
      if (added.length) {
        throw this.invalid(obj, [
          {
            type: 'FieldValueForbidden',
            field: 'metadata.finalizers',
            detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
          },
        ]);
      }
    }
  }

  /**
   * DELETE, after kube's Store.Delete: the options' GC finalizers are set first; an object
   * left with finalizers (or, for graceful types, a grace period) is marked for deletion
   * and stays, anything else is removed.
   */
  async delete(namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const key = this.keyFor(namespace, name);
    let marked: KObject | undefined;
    let thenDelete = false;
    const out = await this.commit(key, (cur): Decision => {
      if (!cur) throw notFound(this.gr, name);
      const obj = this.decodeKv(cur);
      this.checkDeletePreconditions(obj, opts);
      const plan = planDeletion(this.def, obj, opts);
      thenDelete = plan === 'mark-then-delete';
      if (plan === 'delete') {
        marked = undefined;
        return { kind: 'delete' };
      }
      marked = obj;
      if (deepEqual(canonical(obj), canonical(this.decodeKv(cur)))) return { kind: 'none' };
      return { kind: 'put', value: this.encodeStored(obj) };
    }, opts.dryRun === true);
    if (thenDelete && marked) return this.deleteMarked(key, name, marked, out.revision, opts.dryRun === true);
    if (out.decision === 'delete') {
      const obj = this.decodeKv(out.previous!);
      obj.metadata.resourceVersion = String(out.revision);
      await this.afterDelete(obj, opts.dryRun === true);
      return { kind: 'deleted', object: withResourceVersion(this.viewOf(out.previous!.value), out.revision), obj };
    }
    if (out.decision === 'none' && out.current) {
      return { kind: 'marked', object: withResourceVersion(this.viewOf(out.current.value), out.current.modRevision) };
    }
    if (!marked) throw notFound(this.gr, name);
    return { kind: 'marked', object: withResourceVersion(encodeForStorage(marked), out.revision) };
  }

  /**
   * The second step of a graceful deletion whose period is 0: the marked object (just
   * written) is removed. Someone else removing it first is fine; a dry run stops at the mark.
   */
  private async deleteMarked(key: string, name: string, marked: KObject, revision: number, dryRun: boolean): Promise<DeleteResult> {
    const markedBytes = withResourceVersion(encodeForStorage(marked), revision);
    if (dryRun) return { kind: 'deleted', object: markedBytes, obj: marked };
    try {
      const out = await this.commit(key, (cur): Decision => {
        if (!cur) throw notFound(this.gr, name);
        return { kind: 'delete' };
      }, false);
      const obj = this.decodeKv(out.previous!);
      obj.metadata.resourceVersion = String(out.revision);
      await this.afterDelete(obj, false);
      return { kind: 'deleted', object: withResourceVersion(this.viewOf(out.previous!.value), out.revision), obj };
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return { kind: 'deleted', object: markedBytes, obj: marked };
      throw e;
    }
  }

  /** kube's storage preconditions, worded as its etcd3 store words them. */
  private checkDeletePreconditions(obj: KObject, opts: DeleteOptions): void {
    const pre = opts.preconditions;
    const kindGr = { group: this.def.group, resource: this.def.kind };
    const name = obj.metadata.name ?? '';
    if (this.def.ownDeletion) {
      // The namespace registry checks the preconditions itself, in its own words.
      if (pre?.uid && pre.uid !== obj.metadata.uid) {
        throw conflict(this.gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
        throw conflict(this.gr, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
      }
      return;
    }
    if (pre?.uid && pre.uid !== obj.metadata.uid) {
      throw conflict(
        kindGr,
        name,
        `the UID in the precondition (${pre.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
      );
    }
    if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
      throw conflict(
        kindGr,
        name,
        `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`,
      );
    }
  }

  /** Deletes every object a list would return; answers the deleted objects as a list. */
  async deleteCollection(namespace: string, list: ListOptions, opts: DeleteOptions): Promise<ListResult> {
    const { items, resourceVersion } = await this.list(namespace, { ...list, limit: 0, continue: undefined });
    const deleted: VersionedBytes[] = [];
    await Promise.all(
      items.map(async (item) => {
        const o = decodeObject(item.bytes);
        try {
          const r = await this.delete(o.metadata.namespace ?? '', o.metadata.name!, opts);
          deleted.push(r.object);
        } catch (e) {
          // Someone else deleted it first: that is what we wanted.
          if (!(e instanceof StatusError && e.code === 404)) throw e;
        }
      }),
    );
    return { items: deleted, resourceVersion };
  }

  /** Writes objects the server must have from its first start (idempotent). */
  async ensure(obj: KObject): Promise<void> {
    const key = this.keyFor(obj.metadata.namespace ?? '', obj.metadata.name!);
    if (this.cache.get(key)) return;
    try {
      // kube-apiserver writes these itself, so they are its fields.
      await this.create(obj.metadata.namespace ?? '', clone(obj), false, { manager: 'kube-apiserver', subresource: '' });
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  }
}

/**
 * Whether two objects' managedFields are the same text: kube compares the bytes it stores,
 * and FieldsV1 written in another key order (as its /scale writes leave it) is a change.
 */
function sameManagedFieldsText(a: KObject, b: KObject): boolean {
  return JSON.stringify(a.metadata.managedFields) === JSON.stringify(b.metadata.managedFields);
}

/** The parts of an object a no-op check compares (resourceVersion is not content). */
function canonical(obj: KObject): KObject {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  void _rv;
  return { ...obj, metadata: meta };
}
