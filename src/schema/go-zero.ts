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

/**
 * The JSON of a non-pointer value of type `t` at Go's zero value: what kube writes for a null
 * list element or map value, and for a field Go always writes. Structs are `{}`, Quantity is
 * "0", IntOrString 0; slices, maps, []byte and the custom-marshalled kinds are null.
 */
export function goZeroJson(t: TypeRef): unknown {
  switch (t.kind) {
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'int32':
    case 'int64':
    case 'number':
    case 'intOrString':
      return 0;
    case 'quantity':
      return '0';
    case 'ref':
      return {};
    default:
      return null;
  }
}
