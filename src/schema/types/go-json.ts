// What an object looks like after kube decodes it into its Go struct and encodes it
// again (which is what kube-apiserver stores and returns), driven by the registry's
// pointer/omitempty facts:
//
//  - a field Go always writes appears even when absent: non-pointer structs as {}
//    (filled in the same way), metav1.Time/MicroTime/RawExtension/FieldsV1 as null,
//    Quantity as "0", IntOrString as 0, scalars without omitempty as their zero value,
//    pointers/slices/maps/[]byte without omitempty as null;
//  - a field Go's omitempty leaves out disappears: "", 0, false, null, empty lists
//    and maps (pointers only when null: a pointer to a zero value is kept).
//
// Unknown fields are left alone (rejecting or pruning them is the decoder's job).

import type { FieldSchema, SchemaRegistry } from '../model.js';
import { isGoEmpty } from '../go-zero.js';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON Go writes for a field whose value is Go's zero value. */
function zeroJson(f: FieldSchema): unknown {
  if (f.pointer) return null;
  switch (f.type.kind) {
    case 'string':
      return '';
    case 'int32':
    case 'int64':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'intOrString':
      return 0;
    case 'quantity':
      return '0';
    case 'ref':
      return {};
    default:
      // bytes, arrays, maps (nil), time/microTime/any/fieldsV1 (custom marshallers write null)
      return null;
  }
}

/** Go types whose omitempty has no effect: structs (including the custom-marshalled ones). */
function alwaysWritten(f: FieldSchema): boolean {
  if (f.pointer) return false;
  switch (f.type.kind) {
    case 'ref':
    case 'time':
    case 'microTime':
    case 'quantity':
    case 'intOrString':
    case 'fieldsV1':
    case 'any':
      return true;
    default:
      return false;
  }
}

const SCALAR_KINDS = new Set(['string', 'int32', 'int64', 'number', 'boolean']);

function isEmptyForOmit(v: unknown, f: FieldSchema): boolean {
  if (v === null || v === undefined) return true;
  return !f.pointer && isGoEmpty(v, f.type);
}

/** Rewrites `obj` (of registry definition `definition`) in place to Go's round-trip form. */
export function goRoundTrip(obj: unknown, definition: string, registry: SchemaRegistry): void {
  if (isObj(obj)) visit(obj, definition, registry);
}

function visit(obj: Obj, def: string, registry: SchemaRegistry): void {
  const schema = registry[def];
  if (!schema) return;
  for (const f of schema.fields) {
    let v = obj[f.name];
    const has = Object.prototype.hasOwnProperty.call(obj, f.name);
    if (alwaysWritten(f)) {
      if (v === undefined || v === null) {
        v = zeroJson(f);
        obj[f.name] = v;
      }
    } else if (f.omitempty) {
      if (has && isEmptyForOmit(v, f)) {
        delete obj[f.name];
        continue;
      }
    } else if (v === undefined || (v === null && !f.pointer && SCALAR_KINDS.has(f.type.kind))) {
      v = zeroJson(f);
      obj[f.name] = v;
    }
    const t = f.type;
    if (t.kind === 'ref' && isObj(v)) visit(v, t.name, registry);
    else if (t.kind === 'array' && t.items.kind === 'ref' && Array.isArray(v)) {
      for (const item of v) if (isObj(item)) visit(item, t.items.name, registry);
    } else if (t.kind === 'map' && t.values.kind === 'ref' && isObj(v)) {
      for (const item of Object.values(v)) if (isObj(item)) visit(item, t.values.name, registry);
    }
  }
}
