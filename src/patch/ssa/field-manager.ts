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
import { RawJson } from '../../machinery/raw-json.js';
import { deepEqual } from '../../machinery/json-view.js';
import { nowTimestamp } from '../../machinery/meta.js';

/** kube's DefaultMaxUpdateManagers: older Update entries merge into "ancient-changes" beyond it. */
const MAX_UPDATE_MANAGERS = 10;

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

/** A managedFields list that asks for a reset: one empty entry. (An empty list does not reset.) */
function isReset(mf: unknown): boolean {
  return Array.isArray(mf) && mf.length === 1 && mf[0] !== null && typeof mf[0] === 'object' && Object.keys(mf[0] as object).length === 0;
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
    // Only compared, never changed.
    const liveObj = live ?? this.zeroRef();
    const sent = obj.metadata.managedFields;
    let managed: Managed;
    let reset = false;
    if (sub !== '') {
      managed = this.decodeOrEmpty(live?.metadata.managedFields, true);
    } else if (isReset(sent)) {
      managed = new Map();
      reset = true;
    } else {
      try {
        managed = decodeManagedFields(sent);
      } catch {
        managed = new Map();
      }
      if (managed.size === 0) managed = this.decodeOrEmpty(live?.metadata.managedFields, true);
    }
    // skipNonApplied: an existing object nobody tracks stays untracked (until an apply); a
    // reset is the exception, so the writer owns what it changed, as the spec asks.
    if (managed.size === 0 && live && !reset) {
      delete obj.metadata.managedFields;
      return;
    }
    const ignored = this.ignoredFields(sub);
    if (!live && sub === '' && managed.size === 0) {
      this.trackCreate(obj, owner.manager || 'unknown', ignored, opts.rawFields === true);
      return;
    }
    const id = managerId(owner.manager || 'unknown', 'Update', this.apiVersion, sub || undefined);
    const c = changes(this.resolver, this.root, liveObj, obj);
    const changed = c.changed.withoutTopLevel(ignored);
    const removed = c.removed.withoutTopLevel(ignored);
    // Every other manager loses what this write changed or removed (an update never conflicts).
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
    const current = changed.difference(removed);
    if (!current.isEmpty()) {
      const prev = managed.get(id);
      const set = prev ? current.union(prev.set) : current;
      managed.set(id, {
        manager: owner.manager || 'unknown',
        operation: 'Update',
        apiVersion: this.apiVersion,
        ...(sub ? { subresource: sub } : {}),
        set,
        time: nowTimestamp(),
      });
    }
    this.strip(managed);
    capUpdateManagers(managed, MAX_UPDATE_MANAGERS);
    this.encode(obj, managed);
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
    const managed = this.decodeOrFail(live?.metadata.managedFields);
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
    let obj: KObject;
    if (res.object) {
      obj = res.object as KObject;
      out.set(id, { ...out.get(id)!, time: nowTimestamp() });
    } else {
      obj = structuredClone(liveObj);
    }
    this.strip(out);
    if (owner.manager === KUBECTL_MANAGER) updateLastApplied(obj, config);
    obj.metadata ??= {};
    this.encode(obj, out);
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

  private strip(managed: Managed): void {
    for (const [id, e] of managed) {
      if (!e.set.overlaps(STRIP)) continue;
      const next = e.set.difference(STRIP);
      if (next.isEmpty()) managed.delete(id);
      else managed.set(id, { ...e, set: next });
    }
  }

  private encode(obj: KObject, managed: Managed): void {
    const enc = encodeManagedFields(managed);
    if (enc) obj.metadata.managedFields = enc;
    else delete obj.metadata.managedFields;
  }
}

