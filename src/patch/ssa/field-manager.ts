// One kind's field manager: maintains metadata.managedFields on every write and merges
// Server-Side Apply configurations, after apimachinery's managedfields chain
// (versionCheck → lastAppliedUpdater → lastAppliedManager → skipNonApplied → capManagers →
// buildManagerInfo → managedFieldsUpdater → stripMeta → structured merge).

import { StatusError, badRequest } from '../../api/status-error.js';
import type { KObject } from '../../registry/types.js';
import type { SchemaRegistry } from '../../schema/model.js';
import { FieldSet, fieldPE } from './fieldpath.js';
import { applyConfig } from './apply.js';
import {
  ManagedFieldsError,
  conflictError,
  decodeManagedFields,
  encodeManagedFields,
  managerId,
  type Conflict,
  type Managed,
} from './managed-fields.js';
import { TypeResolver, compare, toFieldSet, zeroObject, type TypeNode } from './typed.js';
import { nowTimestamp } from '../../registry/generic/meta.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

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
  s.members.add('f:apiVersion');
  s.members.add('f:kind');
  s.members.add('f:metadata');
  const meta = s.child('f:metadata');
  for (const f of ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']) {
    meta.members.add(fieldPE(f));
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

/** kube's prefixFromUserAgent: the part before the first '/', printable, at most 128 bytes. */
export function managerFromUserAgent(ua: string | undefined): string {
  const head = (ua ?? '').split('/')[0];
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    // Go's unicode.IsPrint: no control, format or separator characters but the ASCII space.
    if (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > 128) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The name of a non-apply writer: fieldManager, else the User-Agent's prefix (managerOrUserAgent). */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : managerFromUserAgent(userAgent);
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
   */
  update(live: KObject | null, obj: KObject, owner: FieldOwner): void {
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
    const id = managerId(owner.manager || 'unknown', 'Update', this.apiVersion, sub || undefined);
    const ignored = this.ignoredFields(sub);
    const c = compare(this.resolver, this.root, liveObj, obj);
    const added = c.added.withoutTopLevel(ignored);
    const modified = c.modified.withoutTopLevel(ignored);
    const removed = c.removed.withoutTopLevel(ignored);
    const changed = added.union(modified);
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
    this.capUpdateManagers(managed);
    this.encode(obj, managed);
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
    if (res.conflicts && owner.manager === 'kubectl') {
      // Upgrading from client-side apply: conflicts on fields the last-applied annotation
      // still describes as they are live are the client-side applier's, and are taken over.
      const allowed = this.allowedFromLastApplied(liveObj);
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
    if (owner.manager === 'kubectl') this.updateLastApplied(obj, config);
    obj.metadata ??= {};
    this.encode(obj, out);
    return obj;
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
      if (e instanceof ManagedFieldsError) throw new StatusError(500, 'InternalError', `failed to decode managed fields: ${e.message}`);
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

  /** capManagers: beyond 10 Update entries, the oldest merge into one "ancient-changes" entry per apiVersion. */
  private capUpdateManagers(managed: Managed): void {
    const updaters = [...managed.entries()].filter(([, e]) => e.operation === 'Update');
    if (updaters.length <= MAX_UPDATE_MANAGERS) return;
    const secs = (t?: string) => (t ? Math.floor(Date.parse(t) / 1000) : 0);
    updaters.sort(([ia, a], [ib, b]) => secs(a.time) - secs(b.time) || (ia < ib ? -1 : ia > ib ? 1 : 0));
    const firstByVersion = new Map<string, string>();
    let length = updaters.length;
    for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
      const [mid, e] = updaters[i];
      const bucket = managerId('ancient-changes', 'Update', e.apiVersion);
      const first = firstByVersion.get(e.apiVersion);
      if (first === undefined) {
        firstByVersion.set(e.apiVersion, mid);
        continue;
      }
      if (!managed.has(bucket)) {
        const f = managed.get(first)!;
        managed.delete(first);
        managed.set(bucket, { ...f, manager: 'ancient-changes', operation: 'Update', subresource: undefined });
      }
      const b = managed.get(bucket)!;
      managed.set(bucket, { ...b, set: e.set.union(b.set), time: e.time });
      managed.delete(mid);
      length--;
    }
  }

  private encode(obj: KObject, managed: Managed): void {
    const enc = encodeManagedFields(managed);
    if (enc) obj.metadata.managedFields = enc;
    else delete obj.metadata.managedFields;
  }

  /** lastAppliedManager: the fields the client-side annotation owns as they are live. */
  private allowedFromLastApplied(live: KObject): FieldSet | undefined {
    const raw = live.metadata.annotations?.[LAST_APPLIED];
    if (!raw) return undefined;
    let last: unknown;
    try {
      last = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (last === null || typeof last !== 'object' || (last as { apiVersion?: unknown }).apiVersion !== this.apiVersion) return undefined;
    try {
      const set = toFieldSet(this.resolver, this.root, last);
      const c = compare(this.resolver, this.root, last, live);
      return set.difference(c.modified).difference(c.added).difference(c.removed);
    } catch {
      return undefined;
    }
  }

  /** lastAppliedUpdater: kubectl's annotation follows server-side applies by "kubectl" once it exists. */
  private updateLastApplied(obj: KObject, config: Record<string, unknown>): void {
    const ann = obj.metadata.annotations;
    if (!ann || !ann[LAST_APPLIED]) return;
    const copy = structuredClone(config) as { metadata?: { annotations?: Record<string, string> } };
    if (copy.metadata?.annotations) delete copy.metadata.annotations[LAST_APPLIED];
    obj.metadata.annotations = { ...ann, [LAST_APPLIED]: `${sortedJson(copy)}\n` };
  }
}

/** Go's encoding of an unstructured object: map keys sorted. */
function sortedJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
    .join(',')}}`;
}

export type { Conflict };
