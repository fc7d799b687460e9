// JSON Patch (RFC 6902) with the semantics of the library kube-apiserver applies it with
// (evanphx/json-patch v4), which differ from the RFC in a few places clients rely on:
// `replace` of a missing object member adds it, `test` of a missing member passes when the
// value is null, negative array indices count from the end, and a member holding null
// reads as missing. fast-json-patch follows the RFC strictly, so it cannot stand in here.
//
// Failures throw JsonPatchError; kube answers every one of them with the same 422 and
// keeps the library's text to itself, so the texts below only help our logs and tests.

import { JsonNumber } from '../machinery/json-scan.js';
import { copyExactInts, exactBigInt } from '../machinery/raw-json.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Container = Json[] | { [k: string]: Json };

export class JsonPatchError extends Error {}

/** A decoded operation: whatever the client sent, checked lazily as the library does. */
export type Operation = Record<string, unknown>;

function isContainer(v: unknown): v is Container {
  return v !== null && typeof v === 'object' && !(v instanceof JsonNumber);
}

function decodeKey(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A deep copy; numbers kept as literals stay so (they are immutable). */
function clone<T>(v: T): T {
  if (v === null || typeof v !== 'object' || v instanceof JsonNumber) return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = clone(x);
  copyExactInts(v, out);
  return out as T;
}

/** The container holding the path's last segment, or null when a parent is missing. */
function findParent(doc: Container, path: string): { con: Container; key: string } | null {
  const split = path.split('/');
  if (split.length < 2) return null;
  let cur: Container = doc;
  for (const raw of split.slice(1, -1)) {
    const part = decodeKey(raw);
    let next: unknown;
    if (Array.isArray(cur)) {
      const idx = arrayIndex(cur.length, part, false);
      if (idx === null) return null;
      next = cur[idx];
    } else {
      next = Object.prototype.hasOwnProperty.call(cur, part) ? cur[part] : undefined;
    }
    if (!isContainer(next)) return null;
    cur = next;
  }
  return { con: cur, key: decodeKey(split[split.length - 1]) };
}

/** Go's strconv.Atoi plus the library's negative-index rule; null when out of range. */
function arrayIndex(len: number, key: string, forInsert: boolean): number | null {
  if (!/^[+-]?[0-9]+$/.test(key)) return null;
  let idx = Number(key);
  const size = forInsert ? len + 1 : len;
  if (idx >= size) return null;
  if (idx < 0) {
    if (idx < -size) return null;
    idx += size;
  }
  return idx;
}

/** The value at `key` (undefined when missing or null, as the library reads both), or an error. */
function get(con: Container, key: string): { value: Json | undefined } | Error {
  if (Array.isArray(con)) {
    const idx = arrayIndex(con.length, key, false);
    if (idx === null) return new JsonPatchError(`Unable to access invalid index: ${key}: invalid index referenced`);
    return { value: con[idx] ?? undefined };
  }
  const v = Object.prototype.hasOwnProperty.call(con, key) ? con[key] : undefined;
  return { value: v === null ? undefined : v };
}

function add(con: Container, key: string, value: Json): void {
  if (!Array.isArray(con)) {
    con[key] = value;
    return;
  }
  if (key === '-') {
    con.push(value);
    return;
  }
  const idx = arrayIndex(con.length, key, true);
  if (idx === null) throw new JsonPatchError(`Unable to access invalid index: ${key}: invalid index referenced`);
  con.splice(idx, 0, value);
}

function remove(con: Container, key: string, path: string): void {
  if (Array.isArray(con)) {
    const idx = arrayIndex(con.length, key, false);
    if (idx === null) throw new JsonPatchError(`error in remove for path: '${path}': Unable to access invalid index: ${key}: invalid index referenced`);
    con.splice(idx, 1);
    return;
  }
  if (!Object.prototype.hasOwnProperty.call(con, key)) {
    throw new JsonPatchError(`error in remove for path: '${path}': Unable to remove nonexistent key: ${key}: missing value`);
  }
  delete con[key];
}

function pathOf(op: Operation, field: 'path' | 'from', verb: string): string {
  const p = op[field];
  if (typeof p !== 'string') throw new JsonPatchError(`${verb} operation failed to decode ${field}`);
  return p;
}

function parentOrThrow(doc: Container, path: string, what: string): { con: Container; key: string } {
  const found = findParent(doc, path);
  if (!found) throw new JsonPatchError(`${what}: ${path}: missing value`);
  return found;
}

/** Deep equality as the library compares JSON values. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Numbers compare by value, whether kept as a literal or not (the library compares decoded values).
  if (a instanceof JsonNumber || b instanceof JsonNumber || typeof a === 'number' || typeof b === 'number') {
    return (typeof a === 'number' || a instanceof JsonNumber) && (typeof b === 'number' || b instanceof JsonNumber) && Number(a) === Number(b);
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isContainer(a) && isContainer(b) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal((a as Record<string, unknown>)[k], b[k]));
  }
  return false;
}

function applyOne(doc: Container, op: Operation): Container {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const value = (op.value ?? null) as Json;
  switch (kind) {
    case 'add': {
      const path = pathOf(op, 'path', 'add');
      const { con, key } = parentOrThrow(doc, path, 'add operation does not apply: doc is missing path');
      add(con, key, clone(value));
      return doc;
    }
    case 'remove': {
      const path = pathOf(op, 'path', 'remove');
      const { con, key } = parentOrThrow(doc, path, 'remove operation does not apply: doc is missing path');
      remove(con, key, path);
      return doc;
    }
    case 'replace': {
      const path = pathOf(op, 'path', 'replace');
      if (path === '') {
        if (!isContainer(value)) throw new JsonPatchError('replace operation value must be object or array');
        return clone(value);
      }
      const { con, key } = parentOrThrow(doc, path, 'replace operation does not apply: doc is missing path');
      if (Array.isArray(con)) {
        const idx = arrayIndex(con.length, key, false);
        if (idx === null) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
        con[idx] = clone(value);
      } else {
        con[key] = clone(value);
      }
      return doc;
    }
    case 'move': {
      const from = pathOf(op, 'from', 'move');
      const src = parentOrThrow(doc, from, 'move operation does not apply: doc is missing from path');
      const got = get(src.con, src.key);
      if (got instanceof Error) throw got;
      remove(src.con, src.key, from);
      const path = pathOf(op, 'path', 'move');
      const dst = parentOrThrow(doc, path, 'move operation does not apply: doc is missing destination path');
      add(dst.con, dst.key, got.value ?? null);
      return doc;
    }
    case 'copy': {
      const from = pathOf(op, 'from', 'copy');
      const src = parentOrThrow(doc, from, 'copy operation does not apply: doc is missing from path');
      const got = get(src.con, src.key);
      if (got instanceof Error) throw got;
      const path = pathOf(op, 'path', 'copy');
      const dst = parentOrThrow(doc, path, 'copy operation does not apply: doc is missing destination path');
      add(dst.con, dst.key, clone(got.value ?? null));
      return doc;
    }
    case 'test': {
      const path = pathOf(op, 'path', 'test');
      if (path === '') {
        if (equal(doc, value)) return doc;
        throw new JsonPatchError(`testing value ${path} failed: test failed`);
      }
      const { con, key } = parentOrThrow(doc, path, 'test operation does not apply: is missing path');
      const got = get(con, key);
      if (got instanceof Error) throw got;
      const want = op.value ?? null;
      // An int64 beyond 2^53 compares by its exact value, as kube compares it.
      const exact = Array.isArray(con) ? undefined : exactBigInt(con, key);
      if (exact !== undefined && want instanceof JsonNumber && /^-?[0-9]+$/.test(want.raw)) {
        if (exact === BigInt(want.raw)) return doc;
        throw new JsonPatchError(`testing value ${path} failed: test failed`);
      }
      if (got.value === undefined ? want === null : want !== null && equal(got.value, want)) return doc;
      throw new JsonPatchError(`testing value ${path} failed: test failed`);
    }
    default:
      throw new JsonPatchError(`Unexpected kind: ${kind}`);
  }
}

/** Applies `ops` in order to a copy of `doc`; the first failing operation aborts the whole patch. */
export function applyJsonPatch(doc: unknown, ops: Operation[]): unknown {
  let cur = clone(doc) as Container;
  for (const op of ops) cur = applyOne(cur, op);
  return cur;
}
