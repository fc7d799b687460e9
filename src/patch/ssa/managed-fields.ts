// metadata.managedFields: the wire entries to managers (identifier → field set) and back,
// after apimachinery's managedfields internals (managedfields.go, conflict.go).

import { StatusError } from '../../machinery/errors.js';
import { FieldSet, pathString, type PathElement } from './fieldpath.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource?: string;
  set: FieldSet;
  time?: string;
  /** The wire fieldsV1 `set` was decoded from, reused while the set is that same object. */
  raw?: { set: FieldSet; fieldsV1: unknown };
}

/** Managers by identifier (kube's BuildManagerIdentifier: the entry without time, fields and, for Apply, apiVersion). */
export type Managed = Map<string, ManagerEntry>;

export function managerId(manager: string, operation: Operation, apiVersion: string, subresource?: string): string {
  // JSON of {manager, operation, apiVersion?, subresource?}, in that order.
  let s = `{"manager":${JSON.stringify(manager)},"operation":"${operation}"`;
  if (operation === 'Update' && apiVersion) s += `,"apiVersion":${JSON.stringify(apiVersion)}`;
  if (subresource) s += `,"subresource":${JSON.stringify(subresource)}`;
  return `${s}}`;
}

export class ManagedFieldsError extends Error {}

/**
 * Decodes wire entries; throws ManagedFieldsError on anything kube would refuse to decode.
 * `keepRaw` (for entries this server wrote, in canonical form) lets unchanged entries be
 * written back without re-encoding.
 */
export function decodeManagedFields(entries: unknown, keepRaw = false): Managed {
  const out: Managed = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((e, i) => {
    if (e === null || typeof e !== 'object') throw new ManagedFieldsError('invalid entry');
    const x = e as Record<string, unknown>;
    if (x.operation !== 'Apply' && x.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (typeof x.apiVersion !== 'string' || x.apiVersion === '') throw new ManagedFieldsError('apiVersion must not be empty');
    if (x.fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsError(x.fieldsType ? `invalid fieldsType ${JSON.stringify(x.fieldsType)} in managed fields entry ${i}` : `missing fieldsType in managed fields entry ${i}`);
    }
    const manager = typeof x.manager === 'string' ? x.manager : '';
    const subresource = typeof x.subresource === 'string' && x.subresource ? x.subresource : undefined;
    let set: FieldSet;
    let canonical: boolean;
    try {
      ({ set, canonical } = FieldSet.readFieldsV1(x.fieldsV1));
    } catch (err) {
      throw new ManagedFieldsError(`error decoding set: ${(err as Error).message}`);
    }
    const entry: ManagerEntry = { manager, operation: x.operation, apiVersion: x.apiVersion, set };
    // FieldsV1 in another order (as kube's /scale writes leave it) is written anew, as kube does.
    if (keepRaw && canonical) entry.raw = { set, fieldsV1: x.fieldsV1 };
    if (subresource) entry.subresource = subresource;
    if (typeof x.time === 'string') entry.time = x.time;
    out.set(managerId(manager, x.operation, x.apiVersion, subresource), entry);
  });
  return out;
}

const seconds = (t?: string): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);

/**
 * Wire entries in kube's order: operation, time (seconds), manager, apiVersion, subresource.
 * `goMapOrder`: FieldsV1 keys sorted as strings, as kube's /scale handler writes every entry
 * (it passes them through an unstructured object, which Go's JSON writes in map order).
 */
export function encodeManagedFields(m: Managed, goMapOrder = false): Record<string, unknown>[] | undefined {
  if (m.size === 0) return undefined;
  const entries = [...m.values()];
  entries.sort((p, q) => {
    if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
    const ps = seconds(p.time);
    const qs = seconds(q.time);
    if (ps !== qs) return ps - qs;
    if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1;
    if (p.apiVersion !== q.apiVersion) return p.apiVersion < q.apiVersion ? -1 : 1;
    const pr = p.subresource ?? '';
    const qr = q.subresource ?? '';
    return pr < qr ? -1 : pr > qr ? 1 : 0;
  });
  return entries.map((e) => {
    const o: Record<string, unknown> = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time) o.time = e.time;
    o.fieldsType = 'FieldsV1';
    o.fieldsV1 = goMapOrder ? e.set.toFieldsV1GoMapOrder() : e.raw && e.raw.set === e.set ? e.raw.fieldsV1 : e.set.toFieldsV1();
    if (e.subresource) o.subresource = e.subresource;
    return o;
  });
}

export interface Conflict {
  id: string;
  path: PathElement[];
}

/** How a conflict names its manager (conflict.go printManager; identifiers carry no time). */
export function printManager(e: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion}`;
  return s;
}

/** The 409 kube answers for apply conflicts (errors.NewApplyConflict). */
export function conflictError(conflicts: Conflict[], managed: Managed): StatusError {
  const name = (id: string) => {
    const e = managed.get(id);
    return e ? printManager(e) : JSON.stringify(id);
  };
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${name(c.id)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${name(conflicts[0].id)}: ${pathString(conflicts[0].path)}`;
  } else {
    // Grouped by manager, the managers in the order of their identifiers (the JSON kube
    // sorts), each with its paths in the order they were found.
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const list = byManager.get(c.id) ?? [];
      list.push(pathString(c.path));
      byManager.set(c.id, list);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${name(id)}:`);
      for (const p of byManager.get(id)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}

/** capManagers: beyond `max` Update entries, the oldest merge into one "ancient-changes" entry per apiVersion. */
export function capUpdateManagers(managed: Managed, max: number): void {
  const updaters = [...managed.entries()].filter(([, e]) => e.operation === 'Update');
  if (updaters.length <= max) return;
  const secs = (t?: string) => (t ? Math.floor(Date.parse(t) / 1000) : 0);
  updaters.sort(([ia, a], [ib, b]) => secs(a.time) - secs(b.time) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
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
