// One kind's field manager: maintains metadata.managedFields on every write and merges
// Server-Side Apply configurations, after apimachinery's managedfields chain
// (versionCheck → lastAppliedUpdater → lastAppliedManager → skipNonApplied → capManagers →
// buildManagerInfo → managedFieldsUpdater → stripMeta → structured merge).

import { badRequest } from '../../machinery/errors.js';
import { plainError } from './plain-error.js';
import type { KObject } from '../../machinery/object.js';
import type { SchemaRegistry } from '../../schema/model.js';
import { FieldSet, fieldPE } from './fieldpath.js';
import { applyConfig } from './apply.js';
import { KUBECTL_MANAGER, allowedFromLastApplied, updateLastApplied } from './last-applied.js';
import {
  ManagedFieldsError,
  capUpdateManagers,
  conflictError,
  decodeManagedFields,
  encodeManagedFields,
  managerId,
  type Managed,
} from './managed-fields.js';
import { TypeResolver, changedFieldsV1Json, changes, zeroObject, type TypeNode } from './typed.js';
import { SCALE_API_VERSION, toParent, toSubresource } from './scale-fields.js';
import type { PathElement } from './fieldpath.js';
import { RawJson } from '../../machinery/raw-json.js';
import { deepEqual } from '../../machinery/json-view.js';
import { nowTimestamp } from '../../machinery/meta.js';

/** kube's DefaultMaxUpdateManagers: older Update entries merge into "ancient-changes" beyond it. */
const MAX_UPDATE_MANAGERS = 10;

/** The Update manager that takes over the fields of an object nobody tracks, at its first apply. */
export const BEFORE_FIRST_APPLY = 'before-first-apply';

const SCALE_DEFINITION = 'io.k8s.api.autoscaling.v1.Scale';

/** Who writes: the manager name and the subresource the write went through. */
export interface FieldOwner {
  manager: string;
  /** '' for the main resource, 'status', 'scale', ... */
  subresource: string;
}

export interface KindInfo {
  group: string;
  version: string;
  kind: string;
  definition: string;
  /** Whether the type has a /status subresource (its main resource then ignores status, and /status ignores spec). */
  hasStatus: boolean;
  /** For types with /scale: where replicas are (default spec.replicas). */
  replicasPath?: PathElement[];
}

/** stripMeta: paths no manager ever owns. */
const STRIP = (() => {
  const s = new FieldSet();
  s.addMember('f:apiVersion');
  s.addMember('f:kind');
  s.addMember('f:metadata');
  const meta = s.child('f:metadata');
  for (const f of ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']) {
    meta.addMember(fieldPE(f));
  }
  return s;
})();

const resolvers = new WeakMap<SchemaRegistry, TypeResolver>();

export function resolverFor(registry: SchemaRegistry): TypeResolver {
  let r = resolvers.get(registry);
  if (!r) {
    r = new TypeResolver(registry);
    resolvers.set(registry, r);
  }
  return r;
}

/** A managedFields list that asks for a reset (kube's isResetManagedFields): an empty list, or one empty entry. */
function isReset(mf: unknown): boolean {
  if (!Array.isArray(mf)) return false;
  if (mf.length === 0) return true;
  return mf.length === 1 && mf[0] !== null && typeof mf[0] === 'object' && Object.keys(mf[0] as object).length === 0;
}

export class FieldManager {
  readonly resolver: TypeResolver;
  readonly root: TypeNode;
  readonly apiVersion: string;
  private zero?: KObject;

  constructor(
    readonly info: KindInfo,
    readonly registry: SchemaRegistry,
  ) {
    this.resolver = resolverFor(registry);
    this.root = this.resolver.root(info.definition);
    this.apiVersion = info.group ? `${info.group}/${info.version}` : info.version;
  }

  /** The empty object of the kind, as the live side of a create (shared: never mutate it). */
  private zeroRef(): KObject {
    if (!this.zero) this.zero = zeroObject(this.registry, this.info.definition) as KObject;
    return this.zero;
  }

  /** A copy of the empty object of the kind. */
  zeroObject(): KObject {
    return structuredClone(this.zeroRef());
  }

  /** Fields a write through `subresource` never owns (the strategy resets them). */
  ignoredFields(subresource: string): string[] {
    if (!this.info.hasStatus) return [];
    if (subresource === 'status') return ['f:spec'];
    return ['f:status'];
  }

  /**
   * A non-apply write (create, update, patch, status update, scale): `obj` is the object about to
   * be stored (defaults applied), `live` the stored one (null on create). Sets obj's managedFields.
   * `rawFields`: a create's entry may hold its FieldsV1 as RawJson text, for a caller that only
   * encodes the object with encodeForStorage next (the store); otherwise it is plain JSON.
   */
  update(live: KObject | null, obj: KObject, owner: FieldOwner, opts: { rawFields?: boolean } = {}): void {
    const sub = owner.subresource;
    if (sub === 'scale' && live) {
      this.updateThroughScale(live, obj, owner);
      return;
    }
    const sent = obj.metadata.managedFields;
    let managed: Managed;
    if (sub !== '') {
      // A subresource write never sets managedFields: the live ones are kept.
      managed = this.decodeOrEmpty(live?.metadata.managedFields, true);
    } else if (isReset(sent)) {
      managed = new Map();
    } else {
      try {
        managed = decodeManagedFields(sent);
      } catch {
        managed = new Map();
      }
      // A client that does not know managedFields (sends none, or ones that do not decode) keeps the live ones.
      if (managed.size === 0) managed = this.decodeOrEmpty(live?.metadata.managedFields, true);
    }
    // skipNonApplied: an existing object nobody tracks (or whose writer reset its entries)
    // stays untracked, until an apply.
    if (managed.size === 0 && live) {
      delete obj.metadata.managedFields;
      return;
    }
    if (!live && sub === '' && managed.size === 0) {
      this.trackCreate(obj, owner.manager || 'unknown', this.ignoredFields(sub), opts.rawFields === true);
      return;
    }
    this.encode(obj, this.updateManaged(live ?? this.zeroRef(), obj, managed, owner));
  }

  /**
   * The entries after a non-apply write from `liveObj` to `newObj` (structured-merge-diff's
   * Update with kube's managedFieldsUpdater and stripMeta): every other manager loses what
   * the write changed or removed (an update never conflicts); the writer's entry gains what
   * it changed, and its time moves, only when that is more than metadata kube never tracks.
   */
  private updateManaged(liveObj: KObject, newObj: KObject, managedIn: Managed, owner: FieldOwner): Managed {
    const sub = owner.subresource;
    const ignored = this.ignoredFields(sub);
    const managed: Managed = this.withoutForeignManagers(managedIn);
    const manager = owner.manager || 'unknown';
    const id = managerId(manager, 'Update', this.apiVersion, sub || undefined);
    const c = changes(this.resolver, this.root, liveObj, newObj);
    const changed = c.changed.withoutTopLevel(ignored);
    const removed = c.removed.withoutTopLevel(ignored);
    for (const [mid, e] of managed) {
      const hitC = e.set.overlaps(changed);
      const hitR = e.set.overlaps(removed);
      if (!hitC && !hitR) continue;
      let next = e.set;
      if (hitC) next = next.difference(changed);
      if (hitR) next = next.difference(removed);
      if (next.isEmpty()) managed.delete(mid);
      else managed.set(mid, { ...e, set: next });
    }
    const current = changed.difference(removed).difference(STRIP);
    if (!current.isEmpty()) {
      const prev = managed.get(id);
      managed.set(id, {
        manager,
        operation: 'Update',
        apiVersion: this.apiVersion,
        ...(sub ? { subresource: sub } : {}),
        set: prev ? current.union(prev.set) : current,
        time: nowTimestamp(),
      });
    }
    capUpdateManagers(managed, MAX_UPDATE_MANAGERS);
    return managed;
  }


  /**
   * The entries whose apiVersion this resource's field manager can convert to: those of its own
   * group. An entry of another group (an Event written through events.k8s.io/v1, then through
   * core/v1: one object, two groups) is a missing version to structured-merge-diff's updater,
   * which drops that manager on the next update or apply, as kube does.
   */
  private withoutForeignManagers(managedIn: Managed): Managed {
    const managed: Managed = new Map(managedIn);
    for (const [mid, e] of managed) {
      const slash = e.apiVersion.indexOf('/');
      if ((slash < 0 ? '' : e.apiVersion.slice(0, slash)) !== this.info.group) managed.delete(mid);
    }
    return managed;
  }

  /**
   * update() of a create with nothing tracked yet: the writer owns everything the object sets,
   * written straight as FieldsV1 (the general path's sets and their algebra give the same entry).
   */
  private trackCreate(obj: KObject, manager: string, ignored: string[], raw: boolean): void {
    const fields = changedFieldsV1Json(this.resolver, this.root, this.zeroRef(), obj, STRIP, ignored);
    if (fields === undefined) {
      delete obj.metadata.managedFields;
      return;
    }
    const fieldsV1 = raw ? new RawJson(fields) : (JSON.parse(fields) as unknown);
    obj.metadata.managedFields = [{ manager, operation: 'Update', apiVersion: this.apiVersion, time: nowTimestamp(), fieldsType: 'FieldsV1', fieldsV1 }];
  }

  /**
   * Server-Side Apply of `config` (already decoded JSON) onto `live` (null: the object is
   * missing). Answers the merged object (before defaulting) with its managedFields, or
   * throws a StatusError (400 for a bad config, 409 for conflicts).
   */
  apply(live: KObject | null, config: Record<string, unknown>, owner: FieldOwner, force: boolean): KObject {
    this.checkConfig(config);
    const liveObj = live ?? this.zeroObject();
    const res = this.applyManaged(live, liveObj, config, this.decodeOrFail(live?.metadata.managedFields), owner, force);
    const obj = res.object ?? structuredClone(liveObj);
    if (owner.manager === KUBECTL_MANAGER) updateLastApplied(obj, config);
    obj.metadata ??= {};
    this.encode(obj, res.managed);
    return obj;
  }

  /**
   * The apply itself on decoded entries: before-first-apply for an object nobody tracks,
   * the merge and its ownership, the client-side-apply upgrade for kubectl, the applier's
   * time (moved only when the object changes) and kube's stripMeta of the applier's set.
   */
  private applyManaged(
    live: KObject | null,
    liveObj: KObject,
    config: Record<string, unknown>,
    managedIn: Managed,
    owner: FieldOwner,
    force: boolean,
  ): { object?: KObject; managed: Managed } {
    let managed = this.withoutForeignManagers(managedIn);
    if (live && managed.size === 0) {
      // kube's skipNonApplied: the fields of an object nobody tracked are recorded as
      // before-first-apply's first, so the apply conflicts with them as with any owner.
      managed = this.updateManaged(this.zeroRef(), liveObj, managed, { manager: BEFORE_FIRST_APPLY, subresource: owner.subresource });
    }
    const id = managerId(owner.manager, 'Apply', this.apiVersion, owner.subresource || undefined);
    const run = (f: boolean) =>
      applyConfig(this.resolver, this.root, liveObj, config, managed, {
        id,
        manager: owner.manager,
        apiVersion: this.apiVersion,
        subresource: owner.subresource,
        force: f,
        ignored: this.ignoredFields(owner.subresource),
      });
    let res = run(force);
    if (res.conflicts && owner.manager === KUBECTL_MANAGER) {
      // Upgrading from client-side apply: conflicts on fields the last-applied annotation
      // still describes as they are live are the client-side applier's, and are taken over.
      const allowed = allowedFromLastApplied(this.resolver, this.root, this.apiVersion, liveObj);
      if (allowed) {
        const left = res.conflicts.filter((c) => !allowed.has(c.path));
        if (left.length === 0) res = run(true);
        else res = { ...res, conflicts: left };
      }
    }
    if (res.conflicts) throw conflictError(res.conflicts, managed);
    const out = res.managed;
    if (res.object && out.has(id)) out.set(id, { ...out.get(id)!, time: nowTimestamp() });
    this.stripOne(out, id);
    return { object: res.object as KObject | undefined, managed: out };
  }

  private scaleFm?: FieldManager;

  /** The field manager of the autoscaling/v1 Scale this kind's /scale serves. */
  private scaleManager(): FieldManager {
    this.scaleFm ??= new FieldManager({ group: 'autoscaling', version: 'v1', kind: 'Scale', definition: SCALE_DEFINITION, hasStatus: false }, this.registry);
    return this.scaleFm;
  }

  private get replicasPath(): PathElement[] {
    return this.info.replicasPath ?? ['f:spec', 'f:replicas'];
  }

  /** The Scale kube derives from the object (scaleFromStatefulSet), as its field manager sees it. */
  private scaleView(obj: KObject): KObject {
    const replicas = readPath(obj, this.replicasPath);
    const status = (obj as { status?: { replicas?: unknown } }).status;
    const m = obj.metadata;
    const metadata: Record<string, unknown> = { name: m.name };
    if (m.namespace) metadata.namespace = m.namespace;
    if (m.uid) metadata.uid = m.uid;
    if (m.resourceVersion) metadata.resourceVersion = m.resourceVersion;
    metadata.creationTimestamp = m.creationTimestamp ?? null;
    return {
      apiVersion: SCALE_API_VERSION,
      kind: 'Scale',
      metadata,
      // ScaleSpec.replicas is omitempty: 0 is absent.
      spec: typeof replicas === 'number' && replicas !== 0 ? { replicas } : {},
      status: { replicas: typeof status?.replicas === 'number' ? status.replicas : 0 },
    } as KObject;
  }

  /** A non-apply write through /scale: the Scale's Update, folded back into the parent's entries. */
  private updateThroughScale(live: KObject, obj: KObject, owner: FieldOwner): void {
    const parent = this.decodeOrEmpty(live.metadata.managedFields, true);
    const onScale = toSubresource(parent, this.replicasPath);
    // skipNonApplied on the Scale: when no entry owns replicas, the write is not tracked.
    const after = onScale.size === 0 ? onScale : this.scaleManager().updateManaged(this.scaleView(live), this.scaleView(obj), onScale, owner);
    this.encode(obj, toParent(parent, after, this.replicasPath, this.apiVersion), true);
  }

  /**
   * Server-Side Apply of an autoscaling/v1 Scale to /scale: the Scale's apply (conflicts name
   * autoscaling/v1 owners), folded back into the parent. Answers a copy of `live` with the
   * replicas the applied Scale holds and the parent's new managedFields.
   */
  applyScale(live: KObject, config: Record<string, unknown>, owner: FieldOwner, force: boolean): KObject {
    const sfm = this.scaleManager();
    sfm.checkConfig(config);
    const parent = this.decodeOrFail(live.metadata.managedFields);
    const oldScale = this.scaleView(live);
    const res = sfm.applyManaged(live, oldScale, config, toSubresource(parent, this.replicasPath), owner, force);
    const scale = res.object ?? oldScale;
    const obj = structuredClone(live);
    const replicas = readPath(scale, SCALE_REPLICAS_PATH);
    writePath(obj, this.replicasPath, typeof replicas === 'number' ? replicas : replicas === undefined ? 0 : replicas);
    this.encode(obj, toParent(parent, res.managed, this.replicasPath, this.apiVersion), true);
    return obj;
  }

  /**
   * kube's IgnoreManagedFieldsTimestampsTransformer: when a write changes nothing but
   * managedFields times, the old times are kept, so the write is a no-op (no new
   * resourceVersion). `sameObject` compares the rest of the objects.
   */
  keepTimesOfNoop(old: KObject, obj: KObject, sameObject: (a: KObject, b: KObject) => boolean): void {
    const a = old.metadata.managedFields as Record<string, unknown>[] | undefined;
    const b = obj.metadata.managedFields as Record<string, unknown>[] | undefined;
    if (!a || !b || a === b || a.length !== b.length) return;
    let timesDiffer = false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x.manager !== y.manager || x.operation !== y.operation || x.apiVersion !== y.apiVersion || x.subresource !== y.subresource) return;
      if (x.time !== y.time) timesDiffer = true;
    }
    if (!timesDiffer) return;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i].fieldsV1, b[i].fieldsV1) || a[i].fieldsType !== b[i].fieldsType) return;
    const { managedFields: _a, ...ma } = old.metadata;
    const { managedFields: _b, ...mb } = obj.metadata;
    void _a;
    void _b;
    if (sameObject({ ...old, metadata: ma }, { ...obj, metadata: mb })) obj.metadata.managedFields = a;
  }

  /** versionCheck and the managedFields rule of an apply configuration. */
  checkConfig(config: Record<string, unknown>): void {
    const av = typeof config.apiVersion === 'string' ? config.apiVersion : '';
    const kind = typeof config.kind === 'string' ? config.kind : '';
    const slash = av.indexOf('/');
    const group = slash >= 0 ? av.slice(0, slash) : '';
    const version = slash >= 0 ? av.slice(slash + 1) : av;
    if (group !== this.info.group || version !== this.info.version || kind !== this.info.kind) {
      throw badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
    }
    const meta = config.metadata as Record<string, unknown> | undefined;
    if (meta && typeof meta === 'object' && Array.isArray(meta.managedFields)) {
      throw badRequest('metadata.managedFields must be nil');
    }
  }

  private decodeOrEmpty(mf: unknown, keepRaw = false): Managed {
    try {
      return decodeManagedFields(mf, keepRaw);
    } catch {
      return new Map();
    }
  }

  private decodeOrFail(mf: unknown): Managed {
    try {
      return decodeManagedFields(mf, true);
    } catch (e) {
      if (e instanceof ManagedFieldsError) throw plainError(`failed to decode managed fields: ${e.message}`);
      throw e;
    }
  }

  /** kube's stripMeta: the writer's set never holds the metadata kube does not track. */
  private stripOne(managed: Managed, id: string): void {
    const e = managed.get(id);
    if (!e || !e.set.overlaps(STRIP)) return;
    const next = e.set.difference(STRIP);
    if (next.isEmpty()) managed.delete(id);
    else managed.set(id, { ...e, set: next });
  }

  private encode(obj: KObject, managed: Managed, goMapOrder = false): void {
    const enc = encodeManagedFields(managed, goMapOrder);
    if (enc) obj.metadata.managedFields = enc;
    else delete obj.metadata.managedFields;
  }
}


const SCALE_REPLICAS_PATH: readonly PathElement[] = ['f:spec', 'f:replicas'];

/** The value at a path of `f:` elements; undefined when missing. */
function readPath(obj: unknown, path: readonly PathElement[]): unknown {
  let v: unknown = obj;
  for (const pe of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[pe.slice(2)];
  }
  return v;
}

/** Sets the value at a path of `f:` elements, creating the objects on the way. */
function writePath(obj: unknown, path: readonly PathElement[], value: unknown): void {
  let v = obj as Record<string, unknown>;
  for (const pe of path.slice(0, -1)) {
    const k = pe.slice(2);
    if (v[k] === null || typeof v[k] !== 'object') v[k] = {};
    v = v[k] as Record<string, unknown>;
  }
  v[path[path.length - 1].slice(2)] = value;
}
