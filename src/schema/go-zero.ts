// Go's zero values as JSON shows them, which decide what omitempty leaves out and which
// defaults are no-ops.

import type { TypeRef } from './model.js';

/** A scalar at Go's zero value: "", 0 or false. */
export function isGoZeroScalar(v: unknown, t: TypeRef): boolean {
  switch (t.kind) {
    case 'string':
      return v === '';
    case 'int32':
    case 'int64':
    case 'number':
      return v === 0;
    case 'boolean':
      return v === false;
    default:
      return false;
  }
}

/** What Go's omitempty leaves out of a non-pointer field: zero scalars, "" bytes, empty slices and maps. */
export function isGoEmpty(v: unknown, t: TypeRef): boolean {
  switch (t.kind) {
    case 'bytes':
      return v === '';
    case 'array':
      return Array.isArray(v) && v.length === 0;
    case 'map':
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      for (const _ in v) return false;
      return true;
    default:
      return isGoZeroScalar(v, t);
  }
}
