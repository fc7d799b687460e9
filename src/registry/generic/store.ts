// The generic store turns verbs into storage operations through a type's strategy,
// after k8s.io/apiserver's registry/generic/registry/store.go. It never parses HTTP:
// handlers hand it decoded objects and options; it hands back bytes and objects.
//
// Reads come from the node's watch cache (read.ts); writes go through the kind's actor in
// kube's fixed step order (write.ts); deletion marks or removes (delete.ts). This class
// holds one kind's state and wires them.

import { KindActor } from '../../actors/kind-actor.js';
import { WatchCache, type CacheEntry } from '../../cache/watch-cache.js';
import { OPTIMISTIC_LOCK_MESSAGE, StatusError, conflict, invalid, type GroupResource } from '../../machinery/errors.js';
import { corruptReason } from '../../machinery/corrupt.js';
import { type ActionStore, type HookEnv, type ResourceDef, type SubresourceREST, type WriteHooks } from '../types.js';
import { storedFormOf } from './stored-form.js';
import { apiVersionOf } from '../../machinery/api-resource.js';
import { type KObject } from '../../machinery/object.js';
import { decodeObject } from '../../machinery/stored-bytes.js';
import { clone } from '../../machinery/meta.js';
import { parseResourceVersion } from '../../machinery/resource-version.js';
import { SCHEMAS, rootDefinition } from '../../schema/types/index.js';
import { FieldManager } from '../../patch/ssa/field-manager.js';
import { WAIT_FOR_RV_MS, type StoreContext, type StoreDeps } from './context.js';
import { getEntry, listObjects, type ListOptions, type ListResult } from './read.js';
import { checkCreatable, createObject, guaranteedUpdate, updateObject, type WriteOwner, type WriteResult } from './write.js';
import { deleteCollection, deleteObject, type DeleteOptions, type DeleteResult } from './delete.js';
import { ScaleREST } from './scale.js';
import type { Watch } from '../../machinery/watch.js';
import { watchStore, type WatchOptions } from './watch.js';

export type { StoreDeps } from './context.js';
export type { ListOptions, ListResult } from './read.js';
export type { WriteOwner } from './write.js';
export type { DeleteOptions, DeleteResult } from './delete.js';

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

  /** What read.ts, write.ts and delete.ts see of this store. */
  private readonly ctx: StoreContext;
  /** Subresources served by objects of their own (/scale), by name. */
  private readonly subresourceRESTs = new Map<string, SubresourceREST>();
  private hooksMade = false;
  private hooksValue?: WriteHooks;

  constructor(
    readonly def: ResourceDef,
    private readonly deps: StoreDeps,
  ) {
    const stored = storedFormOf(def);
    this.prefix = `${deps.storagePrefix}/${stored.group || 'core'}/${stored.resource}/`;
    this.gr = { group: def.group, resource: def.resource };
    this.apiVersion = apiVersionOf(def);
    this.definition = rootDefinition(def.group, def.version, def.kind);
    this.fieldManager = new FieldManager(
      { group: def.group, version: def.version, kind: def.kind, definition: this.definition, hasStatus: Boolean(def.subresources?.status) },
      SCHEMAS,
    );
    this.cache = new WatchCache(this.prefix, def.namespaced, { historyMs: deps.historyMs, maxHistory: 1_000_000, transform: stored.cacheTransform });
    deps.registryWatch.add(this.cache);
    this.actor = new KindActor(deps.storage, (key) => {
      const e = this.cache.get(key);
      if (!e) {
        // An unreadable value is still the key's current state: writes decide on it (and fail).
        const c = this.cache.corruptAt(key);
        return c ? { key, value: c.value, modRevision: c.rv, createRevision: c.createRevision, readError: c.readError } : null;
      }
      // The cache holds bytes with the revision spliced in; the actor wants the stored form.
      return stored.kvOf(e);
    });
    const store = this;
    this.ctx = {
      def,
      deps,
      cache: this.cache,
      actor: this.actor,
      prefix: this.prefix,
      gr: this.gr,
      apiVersion: this.apiVersion,
      definition: this.definition,
      fieldManager: this.fieldManager,
      get cacheRevision() {
        return store.cacheRevision;
      },
      keyFor: (namespace, name) => this.keyFor(namespace, name),
      listPrefix: (namespace) => this.listPrefix(namespace),
      freshen: (resourceVersion) => this.freshen(resourceVersion),
      stored,
      get hooks() {
        return store.hooks;
      },
    };
    if (def.scale) this.subresourceRESTs.set('scale', new ScaleREST(this, def.scale));
    // Made now, before the node's watch loads the store: what the hooks watch (the node-port
    // keys) must be in the first load. Other stores are reached only when the hooks run.
    if (def.writeHooks) {
      this.hooksMade = true;
      this.hooksValue = def.writeHooks(this.hookEnv());
    }
  }

  /** The type's write hooks, made on first use (they reach other stores, which exist by then). */
  private get hooks(): WriteHooks | undefined {
    if (!this.hooksMade) {
      this.hooksMade = true;
      if (this.def.writeHooks) this.hooksValue = this.def.writeHooks(this.hookEnv());
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

  /** Starts what the type's hooks do on their own (repairs of allocations); after the node's first load. */
  startHooks(): void {
    this.hooks?.start?.();
  }

  stopHooks(): void {
    this.hooks?.stop?.();
  }

  /** The object that serves `subresource` when it has one of its own (kube's ScaleREST). */
  subresourceREST(subresource: string): SubresourceREST | undefined {
    return subresource ? this.subresourceRESTs.get(subresource) : undefined;
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
  // get and list, by kube's resourceVersion x resourceVersionMatch x limit rules, are in
  // read.ts; a watch (watch.ts) brings the cache to the freshness it asks for here.

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

  // ---- watch ----

  /** A watch of a namespace's objects ('' for every namespace), served by the cache (watch.ts). */
  watch(namespace: string, opts: WatchOptions): Promise<Watch> {
    return watchStore(this, namespace, opts);
  }

  // ---- the verbs, in read.ts, write.ts and delete.ts ----

  async get(namespace: string, name: string, resourceVersion?: string): Promise<CacheEntry> {
    return getEntry(this.ctx, namespace, name, resourceVersion);
  }

  async getObject(namespace: string, name: string): Promise<KObject> {
    return decodeObject((await this.get(namespace, name)).bytes);
  }

  async currentObjects(namespace: string): Promise<KObject[]> {
    await this.freshen(undefined);
    return this.cache.list(this.listPrefix(namespace)).map((e) => decodeObject(e.bytes));
  }

  peer(group: string, resource: string): ActionStore {
    const st = this.deps.storeFor?.(group, resource);
    if (!st) throw new Error(`no store for ${resource}.${group}`);
    return st;
  }

  async list(namespace: string, opts: ListOptions): Promise<ListResult> {
    return listObjects(this.ctx, namespace, opts);
  }

  async create(namespace: string, input: KObject, dryRun = false, owner?: WriteOwner): Promise<WriteResult> {
    return createObject(this.ctx, namespace, input, dryRun, owner);
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
  ): Promise<WriteResult & { created: boolean }> {
    return updateObject(this.ctx, namespace, name, input, subresource, dryRun, owner);
  }

  /** Refuses a create into a missing or terminating namespace (for writes that may create). */
  async checkCreatable(namespace: string, name: string): Promise<void> {
    return checkCreatable(this.ctx, namespace, name);
  }

  /**
   * The one update loop (kube's GuaranteedUpdate): `tryUpdate` turns the current object
   * into the desired one and may throw; it runs again on a fresh object when another
   * writer got there first. See write.ts.
   */
  async guaranteedUpdate(
    namespace: string,
    name: string,
    subresource: string,
    tryUpdate: (old: KObject) => KObject,
    createIfMissing?: () => KObject,
    dryRun = false,
    owner?: WriteOwner,
  ): Promise<WriteResult & { created: boolean }> {
    return guaranteedUpdate(this.ctx, namespace, name, subresource, tryUpdate, createIfMissing, dryRun, owner);
  }

  async delete(namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    return deleteObject(this.ctx, namespace, name, opts);
  }

  /** Deletes every object a list would return; answers the deleted objects as a list. */
  async deleteCollection(namespace: string, list: ListOptions, opts: DeleteOptions): Promise<ListResult> {
    return deleteCollection(this.ctx, namespace, list, opts);
  }

  /**
   * The force delete of an unreadable object (kube's corrupt object deleter): the key is
   * removed from the store as it is, without admission, preconditions or finalizers. Refused
   * (kube's 422) when the object reads fine, or is not there.
   */
  async unsafeDelete(namespace: string, name: string): Promise<void> {
    const key = this.keyFor(namespace, name);
    // Read from the store itself, as kube does: the cache may be behind.
    const kv = await this.deps.storage.get(key);
    if (!kv || !corruptReason(kv)) {
      throw invalid(this.def.resource, this.def.group, name, [
        {
          type: 'FieldValueInvalid',
          field: 'ignoreStoreReadErrorWithClusterBreakingPotential',
          badValue: true,
          detail: 'is exclusively used to delete corrupt object(s), try again by removing this option',
        },
      ]);
    }
    this.deps.log.info({ key, namespace, name }, 'Going to perform unsafe object deletion');
    const res = await this.deps.storage.txn({ key, expectModRevision: kv.modRevision, op: { type: 'delete' } });
    if (!res.succeeded && res.current) {
      // Rewritten meanwhile: whatever it is now is for a normal delete to handle.
      throw conflict(this.gr, name, OPTIMISTIC_LOCK_MESSAGE);
    }
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
