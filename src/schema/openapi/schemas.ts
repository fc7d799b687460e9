// StructSchema -> OpenAPI schema objects, in kube's v2 (swagger) or v3 style.
//
// The two styles differ the way kube-apiserver's documents do:
//   v3: a $ref with siblings (description, default, x-kubernetes-*) is wrapped as
//       `allOf: [{$ref}]`; `default` values are present (explicit ones, and the zero
//       values kube's generator adds for non-pointer fields and list/map elements);
//       IntOrString and Quantity use oneOf.
//   v2: siblings sit next to $ref; no `default` anywhere (kube prunes them from v2);
//       IntOrString is {type: string, format: int-or-string}, Quantity {type: string}.

import type { FieldSchema, SchemaRegistry, StructSchema, TypeRef } from '../model.js';
import { EVERY_GROUP_VERSION_KINDS, FALLBACK_STRUCTS, SPECIAL, isSpecial, specialSchema } from './builtins.js';
import { goZeroJson } from '../go-zero.js';

export type Json = Record<string, unknown>;

export interface GroupVersion {
  group: string;
  version: string;
}

export interface SchemaContext {
  v3: boolean;
  /** Looks a struct up: the registry first, then synthetic and built-in fallbacks. */
  lookup(name: string): StructSchema | undefined;
  /** Served group versions (core "" first), for DeleteOptions/WatchEvent group-version-kind lists. */
  groupVersions: GroupVersion[];
}

export const refPrefix = (v3: boolean): string => (v3 ? '#/components/schemas/' : '#/definitions/');

/** A lookup over the registry, then `extra` (synthetic lists and placeholders), then the built-ins. */
export function makeLookup(registry: SchemaRegistry, extra: ReadonlyMap<string, StructSchema>): (name: string) => StructSchema | undefined {
  return (name) => (Object.prototype.hasOwnProperty.call(registry, name) ? registry[name] : undefined) ?? extra.get(name) ?? FALLBACK_STRUCTS.get(name);
}

function specialName(t: TypeRef): string | undefined {
  switch (t.kind) {
    case 'intOrString':
      return SPECIAL.intOrString;
    case 'quantity':
      return SPECIAL.quantity;
    case 'time':
      return SPECIAL.time;
    case 'microTime':
      return SPECIAL.microTime;
    case 'any':
      return SPECIAL.any;
    case 'fieldsV1':
      return SPECIAL.fieldsV1;
    default:
      return undefined;
  }
}

/** The definition a type refers to, if any. */
export function referencedName(t: TypeRef): string | undefined {
  return t.kind === 'ref' ? t.name : specialName(t);
}

/**
 * kube's zero-value default for a list item or map value (v3 only): Go's zero value, except
 * that the generator shows none for Quantity and IntOrString, nor for the kinds whose zero is null.
 */
function elementZero(t: TypeRef): unknown {
  if (t.kind === 'quantity' || t.kind === 'intOrString') return undefined;
  return goZeroJson(t) ?? undefined;
}

/** The `default` kube's v3 document shows for a field: the declared one, else the Go zero value kube's generator enforces. */
function fieldDefault(field: FieldSchema): unknown {
  if (field.default !== undefined) return field.default;
  if (field.pointer) return undefined;
  switch (field.type.kind) {
    case 'ref':
      // Non-pointer structs are always decoded into a zero struct.
      return {};
    case 'string':
    case 'boolean':
    case 'int32':
    case 'int64':
    case 'number':
      return field.omitempty ? undefined : elementZero(field.type);
    default:
      return undefined;
  }
}

export class SchemaConverter {
  /** Definition names referenced since the last clear (reachable() drains it per definition). */
  readonly referenced = new Set<string>();

  constructor(private readonly ctx: SchemaContext) {}

  private ref(name: string): Json {
    this.referenced.add(name);
    return { $ref: `${refPrefix(this.ctx.v3)}${name}` };
  }

  /** A $ref with siblings, in the document's style. */
  private withSiblings(base: Json, extra: Json): Json {
    if (Object.keys(extra).length === 0) return base;
    if (this.ctx.v3 && typeof base.$ref === 'string') return { allOf: [base], ...extra };
    return { ...base, ...extra };
  }

  typeSchema(t: TypeRef): Json {
    switch (t.kind) {
      case 'string': {
        const out: Json = { type: 'string' };
        if (t.format) out.format = t.format;
        if (t.enum && t.enum.length > 0) out.enum = [...t.enum];
        return out;
      }
      case 'boolean':
        return { type: 'boolean' };
      case 'int32':
        return { type: 'integer', format: 'int32' };
      case 'int64':
        return { type: 'integer', format: 'int64' };
      case 'number':
        return { type: 'number', format: 'double' };
      case 'bytes':
        return { type: 'string', format: 'byte' };
      case 'ref':
        return this.ref(t.name);
      case 'array':
        return { type: 'array', items: this.elementSchema(t.items) };
      case 'map':
        return { type: 'object', additionalProperties: this.elementSchema(t.values) };
      default: {
        const name = specialName(t);
        if (!name) throw new Error(`openapi: unknown type kind ${(t as { kind: string }).kind}`);
        return this.ref(name);
      }
    }
  }

  /** A list item or map value: in v3, with kube's zero default where the element type has one. */
  private elementSchema(t: TypeRef): Json {
    const base = this.typeSchema(t);
    if (!this.ctx.v3) return base;
    // map[string]Quantity and friends keep a bare $ref; structs get `default: {}`.
    if (t.kind === 'map' || t.kind === 'array') return base;
    const zero = elementZero(t);
    return zero === undefined ? base : this.withSiblings(base, { default: zero });
  }

  fieldSchema(field: FieldSchema): Json {
    const base = this.typeSchema(field.type);
    const extra: Json = {};
    if (this.ctx.v3) {
      const d = fieldDefault(field);
      if (d !== undefined) extra.default = d;
    }
    if (field.description) extra.description = field.description;
    if (field.listType) extra['x-kubernetes-list-type'] = field.listType;
    if (field.listMapKeys && field.listMapKeys.length > 0) extra['x-kubernetes-list-map-keys'] = [...field.listMapKeys];
    if (field.mapType) extra['x-kubernetes-map-type'] = field.mapType;
    if (field.patchMergeKey) extra['x-kubernetes-patch-merge-key'] = field.patchMergeKey;
    if (field.patchStrategy) extra['x-kubernetes-patch-strategy'] = field.patchStrategy;
    return this.withSiblings(base, extra);
  }

  /** The fields of a struct with embedded (inline) structs spliced in, as kube's generator does. */
  private flatten(s: StructSchema, seen = new Set<string>()): FieldSchema[] {
    const out: FieldSchema[] = [];
    for (const field of s.fields) {
      if (field.inline && field.type.kind === 'ref') {
        if (seen.has(field.type.name)) continue;
        const inner = this.ctx.lookup(field.type.name);
        if (inner) out.push(...this.flatten(inner, new Set([...seen, s.name, field.type.name])));
        continue;
      }
      out.push(field);
    }
    return out;
  }

  structSchema(s: StructSchema): Json {
    const out: Json = {};
    if (s.description) out.description = s.description;
    const properties: Json = {};
    const required: string[] = [];
    for (const field of this.flatten(s)) {
      properties[field.name] = this.fieldSchema(field);
      if (field.required && !required.includes(field.name)) required.push(field.name);
    }
    if (Object.keys(properties).length > 0) out.properties = properties;
    if (required.length > 0) out.required = required;
    out.type = 'object';
    const everyKind = EVERY_GROUP_VERSION_KINDS.get(s.name);
    if (everyKind) {
      out['x-kubernetes-group-version-kind'] = this.ctx.groupVersions.map((gv) => ({ group: gv.group, kind: everyKind, version: gv.version }));
    } else if (s.gvk) {
      out['x-kubernetes-group-version-kind'] = [{ group: s.gvk.group, kind: s.gvk.kind, version: s.gvk.version }];
    }
    if (s.structType) out['x-kubernetes-map-type'] = s.structType;
    for (const [k, v] of Object.entries(s.extensions ?? {})) out[k] = v;
    return out;
  }

  /** The schema of one named definition; a missing struct becomes an open object. */
  definition(name: string): Json {
    const special = isSpecial(name) ? specialSchema(name, this.ctx.v3) : undefined;
    if (special) return special;
    const s = this.ctx.lookup(name);
    if (s) return this.structSchema(s);
    return { description: `${name} (no schema is registered for this type).`, type: 'object' };
  }

  /** Every definition reachable from `roots`, by name. */
  reachable(roots: Iterable<string>): Record<string, Json> {
    const out: Record<string, Json> = {};
    const seen = new Set<string>(roots);
    const queue = [...seen];
    while (queue.length > 0) {
      const name = queue.shift()!;
      this.referenced.clear();
      out[name] = this.definition(name);
      for (const n of this.referenced) {
        if (seen.has(n)) continue;
        seen.add(n);
        queue.push(n);
      }
    }
    return out;
  }
}

/** Sorts object keys at every level (as Go's encoding/json does for maps); arrays keep their order. */
export function sortKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => sortKeys(x)) as T;
  if (v && typeof v === 'object') {
    const out: Json = {};
    for (const k of Object.keys(v as Json).sort()) out[k] = sortKeys((v as Json)[k]);
    return out as T;
  }
  return v;
}
