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
import { goZeroJson, isGoEmpty } from '../go-zero.js';
import { isObj, type Obj } from '../../machinery/json-view.js';

/** The JSON Go writes for a field whose value is Go's zero value (a nil pointer is null). */
function zeroJson(f: FieldSchema): unknown {
  return f.pointer ? null : goZeroJson(f.type);
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

interface Plan {
  /** Fields Go always writes (structs, custom marshallers) or writes without omitempty: filled when absent. */
  fill: FieldSchema[];
  /** Every field by JSON name, for the keys an object has. */
  byName: Map<string, FieldSchema>;
}

const plans = new WeakMap<SchemaRegistry, Map<string, Plan | null>>();

/** What the round trip does at one definition, worked out once (null for an unknown one). */
function planOf(def: string, registry: SchemaRegistry): Plan | null {
  let byDef = plans.get(registry);
  if (!byDef) plans.set(registry, (byDef = new Map()));
  let plan = byDef.get(def);
  if (plan === undefined) {
    const schema = registry[def];
    plan = schema
      ? { fill: schema.fields.filter((f) => alwaysWritten(f) || !f.omitempty), byName: new Map(schema.fields.map((f) => [f.name, f])) }
      : null;
    byDef.set(def, plan);
  }
  return plan;
}

/** Descends into a field's value when its type holds structs. */
function descend(v: unknown, f: FieldSchema, registry: SchemaRegistry): void {
  const t = f.type;
  if (t.kind === 'ref' && isObj(v)) visit(v, t.name, registry);
  else if (t.kind === 'array' && t.items.kind === 'ref' && Array.isArray(v)) {
    for (const item of v) if (isObj(item)) visit(item, t.items.name, registry);
  } else if (t.kind === 'map' && t.values.kind === 'ref' && isObj(v)) {
    for (const item of Object.values(v)) if (isObj(item)) visit(item, t.values.name, registry);
  }
}

/**
 * One struct: the fields Go writes are filled in when absent (in the schema's order, as Go
 * writes them), then each key the object has is dropped when omitempty leaves it out or
 * visited. Only the object's own keys and the written fields are looked at, not every field.
 */
function visit(obj: Obj, def: string, registry: SchemaRegistry): void {
  const plan = planOf(def, registry);
  if (!plan) return;
  for (const f of plan.fill) {
    const v = obj[f.name];
    if (alwaysWritten(f) ? v === undefined || v === null : v === undefined || (v === null && !f.pointer && SCALAR_KINDS.has(f.type.kind))) {
      obj[f.name] = zeroJson(f);
    }
  }
  for (const k of Object.keys(obj)) {
    const f = plan.byName.get(k);
    if (!f) continue;
    const v = obj[k];
    // An empty managedFields list is a request (a reset) to the field manager, which removes it.
    if (k === 'managedFields' && Array.isArray(v)) continue;
    if (!alwaysWritten(f) && f.omitempty && isEmptyForOmit(v, f)) {
      delete obj[k];
      continue;
    }
    descend(v, f, registry);
  }
}

/**
 * What kube's storage does to an object it writes: built-in types are stored as protobuf, in
 * which an empty list or map is no list at all, so they come back nil: `containers: []`
 * reads back as `containers: null` (and an empty omitempty one disappears). In place.
 */
export function storageRoundTrip(obj: unknown, definition: string, registry: SchemaRegistry): void {
  if (isObj(obj)) visitStored(obj, definition, registry);
}

function visitStored(obj: Obj, def: string, registry: SchemaRegistry): void {
  const plan = planOf(def, registry);
  if (!plan) return;
  for (const k of Object.keys(obj)) {
    const f = plan.byName.get(k);
    if (!f) continue;
    const v = obj[k];
    const kind = f.type.kind;
    if ((kind === 'array' && Array.isArray(v) && v.length === 0) || (kind === 'map' && isObj(v) && isGoEmpty(v, f.type))) {
      if (f.omitempty) delete obj[k];
      else obj[k] = null;
      continue;
    }
    descendStored(v, f, registry);
  }
}

function descendStored(v: unknown, f: FieldSchema, registry: SchemaRegistry): void {
  const t = f.type;
  if (t.kind === 'ref' && isObj(v)) visitStored(v, t.name, registry);
  else if (t.kind === 'array' && t.items.kind === 'ref' && Array.isArray(v)) {
    for (const item of v) if (isObj(item)) visitStored(item, t.items.name, registry);
  } else if (t.kind === 'map' && t.values.kind === 'ref' && isObj(v)) {
    for (const item of Object.values(v)) if (isObj(item)) visitStored(item, t.values.name, registry);
  }
}
