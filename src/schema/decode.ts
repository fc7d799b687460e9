// Typed decoding: the schema (model.ts) decides what a request body means, the way kube-apiserver's
// JSON serializer (sigs.k8s.io/json, case-sensitive, over kube's Go types) does:
//
//  - unknown fields (not in the struct; matching is case-sensitive, so `Replicas` is unknown) are
//    dropped and reported with kube's path (`spec.template.spec.containers[0].unknownNested`),
//    each once, nothing inside them is looked at;
//  - duplicate fields are reported where Go meets them (interleaved with unknown fields, in
//    document order); a field both unknown and repeated is only unknown; keys repeated inside
//    maps (labels) are duplicates too; at most 100 strict errors, as sigs.k8s.io/json;
//  - a wrong type is fatal: DecodeError with Go's message for the first one
//    (`json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type
//    int32`); errors raised by a type's own UnmarshalJSON (Quantity, Time, IntOrString) stop
//    decoding at once and win over an earlier saved type error, as in encoding/json;
//  - values come out as kube writes them back: quantities canonical ("1000m" -> "1"), times in
//    UTC RFC 3339, bytes re-encoded base64, struct fields in the struct's order, map keys sorted.
//
// For JSON text use decodeJsonBody (scanJson + decodeTyped); for YAML decodeYamlBody.

import { sortAlongside } from '../machinery/sort-alongside.js';
import type { FieldSchema, SchemaRegistry, StructSchema, TypeRef } from './model.js';
import { JsonNumber, goQuote, scanJson, type JsonDuplicate, type JsonScanOptions } from '../machinery/json-scan.js';
import { exactIntText, recordExactInt } from '../machinery/raw-json.js';
import { goFloatString, parseQuantity, QUANTITY_FORMAT_MESSAGE, recordQuantitySource } from './quantity.js';
import { parseYamlWithDuplicates, type YamlDuplicate, type YamlParseOptions } from './yaml-dups.js';
import { goZeroJson, isGoEmpty } from './go-zero.js';

export type { YamlDuplicate } from './yaml-dups.js';

/** sigs.k8s.io/json keeps at most this many strict errors. */
export const MAX_STRICT_ERRORS = 100;

/** A fatal decoding error; the message is what kube puts after `<Kind> in version "v" cannot be handled as a <Kind>: `. */
export class DecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeError';
  }
}

export interface DecodeTypedOptions {
  /**
   * Duplicate keys of the body: JsonDuplicate records from scanJson are placed where Go meets them
   * and kept only where Go reports them (known struct fields, map keys); plain paths are taken as
   * already found (for instance by a patch's own pass) and listed first.
   */
  duplicates?: readonly (string | JsonDuplicate)[];
  /**
   * Visit object keys in sorted order, as kube does for YAML bodies (converted to JSON with
   * sorted keys before decoding), so unknown fields are listed in kube's order.
   */
  sortKeys?: boolean;
  /**
   * Quantities from numbers (`storage: 5`), as Quantity.UnmarshalJSON takes them. CBOR bodies
   * set false: Quantity.UnmarshalCBOR takes only a string (anything else is a type error
   * naming Go type `string`).
   */
  quantityNumbers?: boolean;
  /**
   * The document is the caller's to give away: parts of it that decoding leaves as they are
   * (objects and lists already typed and in kube's order) become parts of the result, rather
   * than copies. Only for a document nothing else reads afterwards.
   */
  reuse?: boolean;
  /**
   * 'unstructured': integers convert as kube's DefaultUnstructuredConverter converts a map into
   * a typed object (what a strategic merge patch goes through): an int64 wraps into an int32
   * field, a whole float converts, a fraction is `cannot convert float64 to int32`, a string
   * `unrecognized type: int32`. Default 'json': encoding/json's rules and errors. 'any': any
   * number passes (the check of an apply configuration, whose integers convert only after the
   * merge, as kube's structured-merge-diff takes any number for an integer field).
   */
  integers?: 'json' | 'unstructured' | 'any';
  /**
   * Go type names for messages where the schema cannot tell (named string types):
   * key `<definition>.<field>`, e.g. `io.k8s.api.core.v1.Container.imagePullPolicy` -> `v1.PullPolicy`.
   * A `goType` property on a FieldSchema is honoured too.
   */
  goTypes?: Readonly<Record<string, string>>;
}

export interface DecodeTypedResult {
  /** The decoded object: unknown fields removed, values normalized as kube writes them. */
  object: Record<string, unknown>;
  /** Paths of unknown fields, e.g. `spec.template.spec.containers[0].unknownNested`. */
  unknownFields: string[];
  /** Paths of duplicate fields, e.g. `spec.paused`. */
  duplicateFields: string[];
  /** kube's strict decoding errors, in kube's order: `unknown field "spec.foo"`, `duplicate field "spec.paused"`. */
  strictErrors: string[];
}

// ---------------------------------------------------------------------------------------------
// Compiled schema

interface CField {
  name: string;
  type: TypeRef;
  pointer: boolean;
  /** Go's omitempty on a kind it affects: an empty value is not written, so not kept. */
  omitEmpty: boolean;
  /** Index in the struct's output order. */
  index: number;
  /** Definition declaring the field (for goTypes). */
  owner: string;
  goType?: string;
}

interface CStruct {
  /** Go's Type.Name(), e.g. StatefulSetSpec. */
  goName: string;
  /** Go's Type.String(), e.g. v1.StatefulSetSpec. */
  goType: string;
  fields: Map<string, CField>;
  order: CField[];
}

const compiledByRegistry = new WeakMap<SchemaRegistry, Map<string, CStruct>>();
const refsByRegistry = new WeakMap<SchemaRegistry, Map<TypeRef, CStruct>>();

function compile(registry: SchemaRegistry, name: string): CStruct {
  let byName = compiledByRegistry.get(registry);
  if (!byName) compiledByRegistry.set(registry, (byName = new Map()));
  const hit = byName.get(name);
  if (hit) return hit;
  const schema = registry[name];
  if (!schema) throw new Error(`schema: no definition ${name}`);
  const cs: CStruct = { goName: goTypeName(name), goType: goRefType(name), fields: new Map(), order: [] };
  byName.set(name, cs);
  const add = (s: StructSchema, seen: Set<string>): void => {
    for (const f of s.fields) {
      if (f.inline && f.type.kind === 'ref') {
        const inner = registry[f.type.name];
        if (!inner) throw new Error(`schema: no definition ${f.type.name}`);
        if (!seen.has(inner.name)) add(inner, new Set([...seen, inner.name]));
        continue;
      }
      if (cs.fields.has(f.name)) continue;
      const cf: CField = {
        name: f.name,
        type: f.type,
        pointer: f.pointer === true,
        omitEmpty: f.omitempty === true && f.pointer !== true,
        index: cs.order.length,
        owner: s.name,
        goType: (f as FieldSchema & { goType?: string }).goType,
      };
      cs.fields.set(f.name, cf);
      cs.order.push(cf);
    }
  };
  add(schema, new Set([schema.name]));
  return cs;
}

/** Type.Name(): the last segment of an OpenAPI definition name. */
function goTypeName(definition: string): string {
  const i = definition.lastIndexOf('.');
  return i < 0 ? definition : definition.slice(i + 1);
}

/** Type.String(): package name and type name, e.g. io.k8s.api.apps.v1.StatefulSetSpec -> v1.StatefulSetSpec. */
function goRefType(definition: string): string {
  const parts = definition.split('.');
  return parts.length < 2 ? definition : `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

function goTypeOf(t: TypeRef): string {
  switch (t.kind) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'int32':
      return 'int32';
    case 'int64':
      return 'int64';
    case 'number':
      return 'float64';
    case 'bytes':
      return '[]uint8';
    case 'ref':
      return goRefType(t.name);
    case 'array':
      return `[]${goTypeOf(t.items)}`;
    case 'map':
      return `map[string]${goTypeOf(t.values)}`;
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'quantity':
      return 'resource.Quantity';
    case 'time':
      return 'v1.Time';
    case 'microTime':
      return 'v1.MicroTime';
    case 'any':
      return 'runtime.RawExtension';
    case 'fieldsV1':
      return 'v1.FieldsV1';
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding

interface Ctx {
  registry: SchemaRegistry;
  /** Compiled structs by ref TypeRef (per registry). */
  refs: Map<TypeRef, CStruct>;
  goTypes: Readonly<Record<string, string>> | undefined;
  sortKeys: boolean;
  quantityNumbers: boolean;
  reuse: boolean;
  unstructuredIntegers: boolean;
  anyNumbers: boolean;
  dupIndex: Map<object, JsonDuplicate[]> | null;
  /** kube strict path of the value being decoded: field names and array indices. */
  segs: (string | number)[];
  /** Go's errorContext.FieldStack: struct field names only. */
  fieldStack: string[];
  /** Go's errorContext.Struct name. */
  structName: string;
  saved: DecodeError | null;
  strictErrors: string[];
  unknownFields: string[];
  duplicateFields: string[];
  seenStrict: Set<string>;
}

function pathWith(segs: readonly (string | number)[], last: string): string {
  let p = '';
  for (const s of segs) p += typeof s === 'number' ? `[${s}]` : p === '' ? s : `.${s}`;
  return p === '' ? last : `${p}.${last}`;
}

function addStrict(ctx: Ctx, kind: 'unknown' | 'duplicate', path: string): void {
  if (ctx.strictErrors.length >= MAX_STRICT_ERRORS) return;
  const id = `${kind}\0${path}`;
  if (ctx.seenStrict.has(id)) return;
  ctx.seenStrict.add(id);
  ctx.strictErrors.push(`${kind} field ${goQuote(path)}`);
  (kind === 'unknown' ? ctx.unknownFields : ctx.duplicateFields).push(path);
}

/** Go's name for a JSON value in `cannot unmarshal <x>`. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || v instanceof JsonNumber) return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/** The literal of a number as Go's decoder sees it. */
const numberText = (v: number | JsonNumber): string => (v instanceof JsonNumber ? v.raw : goFloatString(v));

function typeErrorMessage(ctx: Ctx, what: string, goType: string): string {
  // The unstructured converter hands a json.Unmarshaler its value alone: no struct field to name.
  if (!ctx.unstructuredIntegers && (ctx.structName !== '' || ctx.fieldStack.length > 0)) {
    return `json: cannot unmarshal ${what} into Go struct field ${ctx.structName}.${ctx.fieldStack.join('.')} of type ${goType}`;
  }
  return `json: cannot unmarshal ${what} into Go value of type ${goType}`;
}

/** A saved type error (decoding goes on; the first one is reported). */
function saveTypeError(ctx: Ctx, what: string, goType: string): undefined {
  if (!ctx.saved) ctx.saved = new DecodeError(typeErrorMessage(ctx, what, goType));
  return undefined;
}

function saveError(ctx: Ctx, message: string): undefined {
  if (!ctx.saved) ctx.saved = new DecodeError(message);
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** strconv.ParseInt(literal, 10, bits) of a JSON number, or undefined. */
function intOf(v: number | JsonNumber, bits: 32 | 64): number | undefined {
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return undefined;
    if (bits === 32) return v >= INT32_MIN && v <= INT32_MAX ? v : undefined;
    if (Number.isSafeInteger(v)) return v;
    const b = BigInt(v);
    return b >= INT64_MIN && b <= INT64_MAX ? v : undefined;
  }
  if (!/^-?[0-9]+$/.test(v.raw)) return undefined;
  const b = BigInt(v.raw);
  if (bits === 32 ? b < BigInt(INT32_MIN) || b > BigInt(INT32_MAX) : b < INT64_MIN || b > INT64_MAX) return undefined;
  return Number(b);
}

/**
 * An integer field's value as runtime.DefaultUnstructuredConverter sets it from a map decoded
 * with k8s.io/apimachinery's json (integer literals as int64, the rest float64): reflect's
 * Convert, which wraps out-of-range integers and truncates whole floats.
 */
function unstructuredInt(v: unknown, bits: 32 | 64, ctx: Ctx): number | undefined {
  const goType = bits === 32 ? 'int32' : 'int64';
  if (typeof v !== 'number' && !(v instanceof JsonNumber)) return saveError(ctx, `unrecognized type: ${goType}`);
  const raw = v instanceof JsonNumber ? v.raw : String(v);
  let i64: bigint;
  if (/^-?[0-9]+$/.test(raw) && BigInt(raw) >= INT64_MIN && BigInt(raw) <= INT64_MAX) {
    i64 = BigInt(raw);
  } else {
    const f = Number(v);
    if (!Number.isFinite(f) || Math.trunc(f) !== f) return saveError(ctx, `cannot convert float64 to ${goType}`);
    // A whole float64 outside int64: the conversion's "indefinite" result on amd64.
    i64 = f >= 9223372036854775808 || f < -9223372036854775808 ? INT64_MIN : BigInt(f);
  }
  const n = Number(bits === 32 ? BigInt.asIntN(32, i64) : i64);
  if (!Number.isSafeInteger(n) && (v instanceof JsonNumber || i64 === INT64_MIN)) exactPending = i64.toString();
  return n;
}

/** reflect.Kind of a value of a map decoded by kube's json (integers int64, other numbers float64). */
function unstructuredKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'number' || v instanceof JsonNumber) {
    const raw = v instanceof JsonNumber ? v.raw : String(v);
    return /^-?[0-9]+$/.test(raw) && BigInt(raw) >= INT64_MIN && BigInt(raw) <= INT64_MAX ? 'int64' : 'float64';
  }
  return 'map';
}

/**
 * A scalar of the wrong kind for a scalar field, as DefaultUnstructuredConverter says it: Go
 * converts an int64 to a string type but JSON does not (`cannot convert int64 to string`);
 * the rest are not convertible at all (`unrecognized type: bool`).
 */
function unstructuredScalarError(ctx: Ctx, v: unknown, goType: string, kind: string): undefined {
  const from = unstructuredKind(v);
  if (from === 'int64' && kind === 'string') return saveError(ctx, `cannot convert int64 to ${goType}`);
  if (from === 'int64' && kind === 'float64') return undefined;
  return saveError(ctx, `unrecognized type: ${kind}`);
}

function fieldGoType(ctx: Ctx, field: CField | null, t: TypeRef): string {
  if (field) {
    if (field.goType) return field.goType;
    const named = ctx.goTypes?.[`${field.owner}.${field.name}`];
    if (named) return named;
  }
  return goTypeOf(t);
}

/**
 * Decodes one value. `field` is set for a struct field's own value (null inside arrays and maps).
 * Returns undefined for "absent" (null, or a value not set because of a saved error).
 */
function decodeValue(v: unknown, t: TypeRef, field: CField | null, ctx: Ctx): unknown {
  if (v === null || v === undefined) {
    if (!field) return goZeroJson(t);
    // A struct field: pointers and nil-able kinds become absent; Unmarshalers get their zero value.
    if (field.pointer) return undefined;
    if (t.kind === 'intOrString') return 0;
    if (t.kind === 'quantity') return '0';
    return undefined;
  }
  switch (t.kind) {
    case 'string':
      if (typeof v === 'string') return v;
      if (ctx.unstructuredIntegers) return unstructuredScalarError(ctx, v, fieldGoType(ctx, field, t), 'string');
      return saveTypeError(ctx, jsonKind(v), fieldGoType(ctx, field, t));
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (ctx.unstructuredIntegers) return unstructuredScalarError(ctx, v, 'bool', 'bool');
      return saveTypeError(ctx, jsonKind(v), fieldGoType(ctx, field, t));
    case 'int32':
    case 'int64': {
      if (ctx.unstructuredIntegers) return unstructuredInt(v, t.kind === 'int32' ? 32 : 64, ctx);
      if (ctx.anyNumbers && (typeof v === 'number' || v instanceof JsonNumber)) return v;
      if (typeof v !== 'number' && !(v instanceof JsonNumber)) return saveTypeError(ctx, jsonKind(v), fieldGoType(ctx, field, t));
      const n = intOf(v, t.kind === 'int32' ? 32 : 64);
      if (n === undefined) return saveTypeError(ctx, `number ${numberText(v)}`, fieldGoType(ctx, field, t));
      // An int64 a JS number rounds: its struct records the exact value (raw-json.ts).
      if (!Number.isSafeInteger(n) && v instanceof JsonNumber) exactPending = BigInt(v.raw).toString();
      return n;
    }
    case 'number': {
      if (typeof v === 'number') return v;
      if (ctx.unstructuredIntegers && !(v instanceof JsonNumber)) return unstructuredScalarError(ctx, v, 'float64', 'float64');
      if (v instanceof JsonNumber) {
        if (ctx.anyNumbers) return v;
        return Number.isFinite(v.value) ? v.value : saveTypeError(ctx, `number ${v.raw}`, fieldGoType(ctx, field, t));
      }
      return saveTypeError(ctx, jsonKind(v), fieldGoType(ctx, field, t));
    }
    case 'bytes': {
      if (typeof v !== 'string') return saveTypeError(ctx, jsonKind(v), '[]uint8');
      const r = goBase64(v);
      return typeof r === 'number' ? saveError(ctx, `illegal base64 data at input byte ${r}`) : r;
    }
    case 'ref': {
      let cs = ctx.refs.get(t);
      if (cs === undefined) ctx.refs.set(t, (cs = compile(ctx.registry, t.name)));
      return decodeStruct(v, cs, ctx);
    }
    case 'array': {
      if (!Array.isArray(v)) {
        if (ctx.unstructuredIntegers) return saveError(ctx, `cannot restore slice from ${unstructuredKind(v)}`);
        return saveTypeError(ctx, jsonKind(v), fieldGoType(ctx, field, t));
      }
      const out = new Array<unknown>(v.length);
      const items = t.items;
      let same = ctx.reuse;
      for (let i = 0; i < v.length; i++) {
        ctx.segs.push(i);
        const r = decodeValue(v[i], items, null, ctx);
        ctx.segs.pop();
        if (r !== v[i]) same = false;
        out[i] = r;
      }
      return same ? v : out;
    }
    case 'map':
      if (!isObject(v)) {
        if (ctx.unstructuredIntegers) return saveError(ctx, `cannot restore map from ${unstructuredKind(v)}`);
        return saveTypeError(ctx, jsonKind(v), fieldGoType(ctx, field, t));
      }
      return decodeMap(v, t.values, ctx);
    case 'intOrString': {
      if (typeof v === 'string') return v;
      // IntOrString.UnmarshalJSON: anything but a string is json.Unmarshal'd into its int32.
      if (typeof v === 'number' || v instanceof JsonNumber) {
        const n = intOf(v, 32);
        if (n !== undefined) return n;
        throw new DecodeError(typeErrorMessage(ctx, `number ${numberText(v)}`, 'int32'));
      }
      throw new DecodeError(typeErrorMessage(ctx, jsonKind(v), 'int32'));
    }
    case 'quantity': {
      // Quantity.UnmarshalJSON: the text between the quotes (or the number's literal), trimmed.
      let text: string;
      if (typeof v === 'string') text = v.trim();
      else if (!ctx.quantityNumbers && !ctx.unstructuredIntegers) {
        throw new DecodeError(typeErrorMessage(ctx, typeof v === 'number' || v instanceof JsonNumber ? `number ${numberText(v)}` : jsonKind(v), 'string'));
      } else if (typeof v === 'number' || v instanceof JsonNumber) text = numberText(v);
      else throw new DecodeError(QUANTITY_FORMAT_MESSAGE);
      const q = parseQuantity(text);
      if (!q.ok) throw new DecodeError(q.error);
      return q.canonical;
    }
    case 'time':
    case 'microTime': {
      if (typeof v !== 'string') throw new DecodeError(typeErrorMessage(ctx, jsonKind(v), 'string'));
      const r = parseGoTime(v, t.kind === 'microTime' ? RFC3339_MICRO : RFC3339);
      if (typeof r !== 'string') throw new DecodeError(r.error);
      if (r === ZERO_TIME) return field ? undefined : null;
      return r;
    }
    case 'any':
    case 'fieldsV1':
      // RawExtension / FieldsV1 keep the raw JSON; nothing inside is checked.
      return plainJson(v);
  }
}

/** The exact text of the int64 the last decodeValue rounded, for its struct to record. */
let exactPending: string | undefined;

/**
 * A struct field's exact int64 text, if its decoding left one, or if the input already held
 * the field's number with a record of its exact value (an object read back from storage and
 * patched).
 */
function takeExact(exacts: [string, string][] | undefined, name: string, holder: object, e: unknown): [string, string][] | undefined {
  let text = exactPending;
  exactPending = undefined;
  if (text === undefined && typeof e === 'number' && !Number.isSafeInteger(e)) text = exactIntText(holder, name);
  if (text === undefined) return exacts;
  (exacts ??= []).push([name, text]);
  return exacts;
}

function recordExacts(out: unknown, exacts: [string, string][] | undefined): unknown {
  if (exacts && out !== null && typeof out === 'object') for (const [k, t] of exacts) recordExactInt(out, k, t);
  return out;
}

function decodeStruct(v: unknown, cs: CStruct, ctx: Ctx): unknown {
  if (v === null || v === undefined) return {};
  if (!isObject(v)) {
    if (ctx.unstructuredIntegers) return saveError(ctx, `cannot restore struct from: ${unstructuredKind(v)}`);
    return saveTypeError(ctx, jsonKind(v), cs.goType);
  }
  const dups = ctx.dupIndex?.get(v);
  // for-in reads each value through V8's enum cache; sorted keys and duplicates need the key list.
  if (ctx.sortKeys || dups) return decodeStructKeys(v, cs, ctx, dups);
  const fields: CField[] = [];
  const values: unknown[] = [];
  // The input itself is the result when it may be (reuse) and decoding changed nothing in it.
  let same = ctx.reuse;
  let exacts: [string, string][] | undefined;
  for (const key in v) {
    const f = cs.fields.get(key);
    if (f === undefined) {
      addStrict(ctx, 'unknown', pathWith(ctx.segs, key));
      same = false;
      continue;
    }
    const e = v[key];
    exactPending = undefined;
    const r = decodeField(e, key, f, cs, ctx);
    exacts = takeExact(exacts, f.name, v, e);
    if (r === undefined) {
      same = false;
      continue;
    }
    if (r !== e) same = false;
    fields.push(f);
    values.push(r);
  }
  return same && inOrder(fields) ? v : recordExacts(structObject(fields, values), exacts);
}

/** Decoding with the key list: sorted keys (YAML) or duplicates to report where Go meets them. */
function decodeStructKeys(v: Record<string, unknown>, cs: CStruct, ctx: Ctx, dups: JsonDuplicate[] | undefined): unknown {
  const keys = Object.keys(v);
  if (ctx.sortKeys) keys.sort();
  let d = 0;
  const fields: CField[] = [];
  const values: unknown[] = [];
  let exacts: [string, string][] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (dups) {
      for (; d < dups.length && dups[d].index <= i; d++) {
        if (cs.fields.has(dups[d].key)) addStrict(ctx, 'duplicate', dups[d].path);
      }
    }
    const f = cs.fields.get(key);
    if (f === undefined) {
      addStrict(ctx, 'unknown', pathWith(ctx.segs, key));
      continue;
    }
    exactPending = undefined;
    const r = decodeField(v[key], key, f, cs, ctx);
    exacts = takeExact(exacts, f.name, v, v[key]);
    if (r === undefined) continue;
    fields.push(f);
    values.push(r);
  }
  if (dups) for (; d < dups.length; d++) if (cs.fields.has(dups[d].key)) addStrict(ctx, 'duplicate', dups[d].path);
  return recordExacts(structObject(fields, values), exacts);
}

/** One struct field's decoded value; undefined when it is not kept (absent, or empty under omitempty). */
function decodeField(e: unknown, key: string, f: CField, cs: CStruct, ctx: Ctx): unknown {
  const outerStruct = ctx.structName;
  ctx.segs.push(key);
  ctx.fieldStack.push(key);
  ctx.structName = cs.goName;
  const r = decodeValue(e, f.type, f, ctx);
  ctx.segs.pop();
  ctx.fieldStack.pop();
  ctx.structName = outerStruct;
  if (r === undefined) return undefined;
  // An empty managedFields list is kept: it is not nil to kube, and asks the field manager
  // for a reset (which then leaves the field out).
  if (f.omitEmpty && isGoEmpty(r, f.type) && !(key === 'managedFields' && Array.isArray(r))) return undefined;
  return r;
}

const fieldIndexOf = (f: CField): number => f.index;

function inOrder(fields: CField[]): boolean {
  for (let i = 1; i < fields.length; i++) if (fields[i].index < fields[i - 1].index) return false;
  return true;
}

/**
 * A struct's decoded fields as one object, its keys added in declaration order (kube's
 * field order, and objects of a type then share their shapes).
 */
function structObject(fields: CField[], values: unknown[]): Record<string, unknown> {
  if (!inOrder(fields)) sortAlongside(fields, values, fieldIndexOf);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) out[fields[i].name] = values[i];
  return out;
}

function decodeMap(v: Record<string, unknown>, valueType: TypeRef, ctx: Ctx): Record<string, unknown> {
  if (ctx.reuse && !ctx.sortKeys && !ctx.dupIndex?.has(v) && unchangedStringMap(v, valueType)) return v;
  const keys = Object.keys(v);
  if (ctx.sortKeys) keys.sort();
  const dups = ctx.dupIndex?.get(v);
  let d = 0;
  // Go maps have no order; kube writes them with sorted keys.
  let out: Record<string, unknown> = {};
  let sorted = true;
  let prev = '';
  // Quantities written otherwise than canonically, by key (recorded on the list returned).
  let sources: [string, string][] | undefined;
  for (let i = 0; i < keys.length; i++) {
    if (dups) for (; d < dups.length && dups[d].index <= i; d++) addStrict(ctx, 'duplicate', dups[d].path);
    const key = keys[i];
    const e = v[key];
    let r: unknown;
    if (typeof e === 'string' && valueType.kind === 'string') r = e;
    else {
      ctx.segs.push(key);
      r = decodeValue(e, valueType, null, ctx);
      ctx.segs.pop();
      if (valueType.kind === 'quantity' && e !== r) {
        const text = typeof e === 'string' ? e.trim() : typeof e === 'number' || e instanceof JsonNumber ? numberText(e) : undefined;
        if (text !== undefined && text !== r) (sources ??= []).push([key, text]);
      }
    }
    if (key === '__proto__') Object.defineProperty(out, key, { value: r, enumerable: true, writable: true, configurable: true });
    else out[key] = r;
    if (i > 0 && key < prev) sorted = false;
    prev = key;
  }
  if (dups) for (; d < dups.length; d++) addStrict(ctx, 'duplicate', dups[d].path);
  if (!sorted) {
    const unsorted = out;
    out = {};
    for (const k of keys.slice().sort()) {
      if (k === '__proto__') Object.defineProperty(out, k, { value: unsorted[k], enumerable: true, writable: true, configurable: true });
      else out[k] = unsorted[k];
    }
  }
  if (sources) for (const [k, text] of sources) recordQuantitySource(out, k, text);
  return out;
}

/** A map of strings already as decoding leaves it: string values, keys in sorted order. */
function unchangedStringMap(v: Record<string, unknown>, valueType: TypeRef): boolean {
  if (valueType.kind !== 'string') return false;
  let prev: string | undefined;
  for (const k in v) {
    if (typeof v[k] !== 'string' || (prev !== undefined && k < prev) || k === '__proto__') return false;
    prev = k;
  }
  return true;
}

/** Replaces JsonNumber wrappers by numbers (iteratively; `any` values may be 10,000 deep). */
function plainJson(v: unknown): unknown {
  // A RawExtension's numbers are its bytes to kube (`1.0`, `1e3` and 2^53+1 stay so): each
  // literal a JS number would write otherwise is recorded where it sits (raw-json.ts).
  if (v instanceof JsonNumber) {
    if (literalDiffers(v)) exactPending = v.raw;
    return v.value;
  }
  if (typeof v !== 'object' || v === null) return v;
  const work: (Record<string, unknown> | unknown[])[] = [v as Record<string, unknown>];
  while (work.length > 0) {
    const c = work.pop()!;
    if (Array.isArray(c)) {
      for (let i = 0; i < c.length; i++) {
        const e = c[i];
        if (e instanceof JsonNumber) {
          c[i] = e.value;
          if (literalDiffers(e)) recordExactInt(c, String(i), e.raw);
        } else if (Object.is(e, -0)) recordExactInt(c, String(i), '-0');
        else if (typeof e === 'object' && e !== null) work.push(e as Record<string, unknown>);
      }
    } else {
      for (const k of Object.keys(c)) {
        const e = c[k];
        if (e instanceof JsonNumber) {
          c[k] = e.value;
          if (literalDiffers(e)) recordExactInt(c, k, e.raw);
        } else if (Object.is(e, -0)) recordExactInt(c, k, '-0');
        else if (typeof e === 'object' && e !== null) work.push(e as Record<string, unknown>);
      }
    }
  }
  return v;
}

/** A number literal JSON.stringify would not write back as it is (and can write at all). */
const literalDiffers = (n: JsonNumber): boolean => Number.isFinite(n.value) && String(n.value) !== n.raw;

/**
 * Decodes a parsed body against a definition of the registry. Throws DecodeError (Go's message)
 * for the first fatal error; unknown and duplicate fields come back as strict errors.
 */
export function decodeTyped(
  doc: unknown,
  definition: string,
  registry: SchemaRegistry,
  opts: DecodeTypedOptions = {},
): DecodeTypedResult {
  let refs = refsByRegistry.get(registry);
  if (!refs) refsByRegistry.set(registry, (refs = new Map()));
  const ctx: Ctx = {
    registry,
    refs,
    goTypes: opts.goTypes,
    sortKeys: opts.sortKeys === true,
    quantityNumbers: opts.quantityNumbers !== false,
    unstructuredIntegers: opts.integers === 'unstructured',
    anyNumbers: opts.integers === 'any',
    reuse: opts.reuse === true,
    dupIndex: null,
    segs: [],
    fieldStack: [],
    structName: '',
    saved: null,
    strictErrors: [],
    unknownFields: [],
    duplicateFields: [],
    seenStrict: new Set(),
  };
  for (const dup of opts.duplicates ?? []) {
    if (typeof dup === 'string') addStrict(ctx, 'duplicate', dup);
    else {
      ctx.dupIndex ??= new Map();
      const list = ctx.dupIndex.get(dup.parent);
      if (list) list.push(dup);
      else ctx.dupIndex.set(dup.parent, [dup]);
    }
  }
  if (ctx.dupIndex) for (const list of ctx.dupIndex.values()) list.sort((a, b) => a.index - b.index);
  const cs = compile(registry, definition);
  let object: unknown;
  try {
    object = decodeStruct(doc, cs, ctx);
  } catch (e) {
    if (e instanceof RangeError) throw new DecodeError('json: exceeded max depth');
    throw e;
  }
  if (ctx.saved) throw ctx.saved;
  return {
    object: object as Record<string, unknown>,
    unknownFields: ctx.unknownFields,
    duplicateFields: ctx.duplicateFields,
    strictErrors: ctx.strictErrors,
  };
}

/**
 * JSON text to a typed object, as kube's strict JSON serializer does: Go's syntax errors
 * (JsonSyntaxError, raised before anything else), then decodeTyped with the duplicates in place.
 */
export function decodeJsonBody(
  text: string,
  definition: string,
  registry: SchemaRegistry,
  opts: Omit<DecodeTypedOptions, 'duplicates' | 'sortKeys'> & Pick<JsonScanOptions, 'maxDepth'> = {},
): DecodeTypedResult {
  const scanned = scanJson(text, { numbers: 'literal', duplicateObjects: 'merge', maxDepth: opts.maxDepth });
  return decodeTyped(scanned.value, definition, registry, { ...opts, duplicates: scanned.duplicates });
}

export interface YamlDecodeResult extends DecodeTypedResult {
  /** goyaml.v2's duplicate keys (they come first in kube's strict error list, as one error). */
  yamlDuplicates: YamlDuplicate[];
}

/**
 * YAML text to a typed object, as kube does: YAML 1.1 to JSON (sorted keys, last duplicate wins),
 * goyaml.v2's duplicate keys, then the typed decode. Throws YamlDecodeError or DecodeError.
 */
export function decodeYamlBody(
  text: string,
  definition: string,
  registry: SchemaRegistry,
  opts: Omit<DecodeTypedOptions, 'duplicates' | 'sortKeys'> & YamlParseOptions = {},
): YamlDecodeResult {
  const parsed = parseYamlWithDuplicates(text, opts);
  const r = decodeTyped(parsed.value, definition, registry, { ...opts, sortKeys: true });
  return { ...r, yamlDuplicates: parsed.duplicates };
}

// ---------------------------------------------------------------------------------------------
// Field validation messages

export type FieldValidationLevel = 'Ignore' | 'Warn' | 'Strict';

export interface StrictIssues {
  /** From DecodeTypedResult. */
  strictErrors: readonly string[];
  /** From a YAML body. */
  yamlDuplicates?: readonly YamlDuplicate[];
}

/** goyaml.v2's strict error: `yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 12: ...`. */
export function yamlDuplicatesError(dups: readonly YamlDuplicate[]): string {
  return `yaml: unmarshal errors:\n  ${dups.map((d) => d.message).join('\n  ')}`;
}

/** kube's list of strict decoding errors: the YAML duplicates (one error), then unknown/duplicate fields. */
export function strictDecodingErrors(issues: StrictIssues): string[] {
  const out: string[] = [];
  if (issues.yamlDuplicates && issues.yamlDuplicates.length > 0) out.push(yamlDuplicatesError(issues.yamlDuplicates));
  out.push(...issues.strictErrors);
  return out;
}

/** Warn: one warning per field (`unknown field "spec.foo"`, `line 14: key "paused" already set in map`). */
export function fieldValidationWarnings(issues: StrictIssues): string[] {
  return [...(issues.yamlDuplicates ?? []).map((d) => d.message), ...issues.strictErrors];
}

/** runtime.NewStrictDecodingError(...).Error(): `strict decoding error: unknown field "spec.foo", duplicate field "x"`. */
export function strictDecodingMessage(issues: StrictIssues): string {
  return `strict decoding error: ${strictDecodingErrors(issues).join(', ')}`;
}

/** transformDecodeError: `<Kind> in version "<v>" cannot be handled as a <TargetKind>: <cause>`. */
export function cannotBeHandledMessage(kind: string, version: string, targetKind: string, cause: string): string {
  return `${kind} in version ${goQuote(version)} cannot be handled as a ${targetKind}: ${cause}`;
}

/**
 * transformDecodeError when the body's kind could not be read (JSON syntax errors, YAML that
 * does not convert): `the object provided is unrecognized (must be of type StatefulSet):
 * couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion": ...)`.
 */
export function unrecognizedObjectMessage(targetKind: string, cause: string, body: string | Uint8Array): string {
  return `the object provided is unrecognized (must be of type ${targetKind}): ${cause} (${summarizeData(body, 30)})`;
}

/** The cause kube gives for a JSON syntax error (meta.Interpret runs first). */
export const jsonSyntaxCause = (message: string): string => `couldn't get version/kind; json parse error: ${message}`;

const TYPE_META_GO_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * kube's first look at a body (json.SimpleMetaFactory.Interpret, with encoding/json: keys match
 * case-insensitively, the last one wins), then schema.ParseGroupVersion. Throws DecodeError with
 * kube's message (`couldn't get version/kind; json parse error: json: cannot unmarshal array into
 * Go value of type struct { ... }`, `unexpected GroupVersion string: a/b/c`); kube reports these
 * as `the object provided is unrecognized (must be of type X): <message> (<body summary>)`.
 */
export function interpretTypeMeta(doc: unknown): { group: string; version: string; kind: string } {
  if (doc !== null && !isObject(doc)) {
    throw new DecodeError(jsonSyntaxCause(`json: cannot unmarshal ${jsonKind(doc)} into Go value of type ${TYPE_META_GO_TYPE}`));
  }
  let apiVersion = '';
  let kind = '';
  let saved: string | null = null;
  for (const key of Object.keys(doc ?? {})) {
    const lower = key.toLowerCase();
    const name = lower === 'apiversion' ? 'apiVersion' : lower === 'kind' ? 'kind' : null;
    if (name === null) continue;
    const v = (doc as Record<string, unknown>)[key];
    if (v === null) continue;
    if (typeof v !== 'string') {
      saved ??= `json: cannot unmarshal ${jsonKind(v)} into Go struct field .${name} of type string`;
      continue;
    }
    if (name === 'apiVersion') apiVersion = v;
    else kind = v;
  }
  if (saved !== null) throw new DecodeError(jsonSyntaxCause(saved));
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes > 1) throw new DecodeError(`unexpected GroupVersion string: ${apiVersion}`);
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  const i = apiVersion.indexOf('/');
  return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1), kind };
}

function summarizeData(body: string | Uint8Array, max: number): string {
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, max);
  const more = data.length > max ? ' ...' : '';
  return data[0] === 0x7b ? head.toString('latin1') + more : head.toString('hex') + more;
}

export interface FieldValidationTarget {
  /** The body's kind (defaults to targetKind). */
  kind?: string;
  /** The body's version, e.g. `v1` (not `apps/v1`). */
  version: string;
  /** The endpoint's kind. */
  targetKind: string;
}

/**
 * What a field validation level makes of the strict issues: Ignore nothing; Warn one warning per
 * field; Strict, when there is any issue, the 400 message
 * `StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: ...`.
 */
export function fieldValidationMessage(
  level: FieldValidationLevel,
  target: FieldValidationTarget,
  issues: StrictIssues,
): { warnings: string[]; error?: string } {
  const any = issues.strictErrors.length > 0 || (issues.yamlDuplicates?.length ?? 0) > 0;
  if (level === 'Ignore' || !any) return { warnings: [] };
  if (level === 'Warn') return { warnings: fieldValidationWarnings(issues) };
  return {
    warnings: [],
    error: cannotBeHandledMessage(target.kind ?? target.targetKind, target.version, target.targetKind, strictDecodingMessage(issues)),
  };
}

// ---------------------------------------------------------------------------------------------
// Go's time.Parse for metav1.Time (RFC 3339) and metav1.MicroTime (RFC 3339 with microseconds)

interface Layout {
  text: string;
  /** [prefix, std, layout element] */
  chunks: [string, Std, string][];
  fracDigits: number;
}
type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac' | 'tz';

const RFC3339: Layout = {
  text: '2006-01-02T15:04:05Z07:00',
  chunks: [
    ['', 'year', '2006'],
    ['-', 'month', '01'],
    ['-', 'day', '02'],
    ['T', 'hour', '15'],
    [':', 'minute', '04'],
    [':', 'second', '05'],
    ['', 'tz', 'Z07:00'],
  ],
  fracDigits: 0,
};
const RFC3339_MICRO: Layout = {
  text: '2006-01-02T15:04:05.000000Z07:00',
  chunks: [
    ['', 'year', '2006'],
    ['-', 'month', '01'],
    ['-', 'day', '02'],
    ['T', 'hour', '15'],
    [':', 'minute', '04'],
    [':', 'second', '05'],
    ['', 'frac', '.000000'],
    ['', 'tz', 'Z07:00'],
  ],
  fracDigits: 6,
};

/** Returned for Go's zero time (0001-01-01T00:00:00Z), which kube writes as null. */
const ZERO_TIME = '\0zero';

/** The time package's quote(): ASCII as is (escaping " and \), other bytes as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    if (b >= 0x80 || b < 0x20) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else {
      if (b === 0x22 || b === 0x5c) out += '\\';
      out += String.fromCharCode(b);
    }
  }
  return `${out}"`;
}

const digitAt = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | null {
  if (!digitAt(s, 0)) return null;
  if (!digitAt(s, 1)) return fixed ? null : [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

/** Go's time.atoi. */
function timeAtoi(s: string): number | null {
  let neg = false;
  if (s.length > 0 && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (!/^[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return neg ? -n : n;
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, w: number): string => (n < 0 ? `-${String(-n).padStart(w, '0')}` : String(n).padStart(w, '0'));

/**
 * time.Parse(layout, value) then the UTC form kube writes (MarshalJSON); Go's ParseError message
 * on failure, e.g. `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`.
 */
function parseGoTime(input: string, layout: Layout): string | { error: string } {
  const fail = (layoutElem: string, valueElem: string): { error: string } => ({
    error: `parsing time ${timeQuote(input)} as ${timeQuote(layout.text)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
  });
  const rangeFail = (what: string): { error: string } => ({ error: `parsing time ${timeQuote(input)}: ${what} out of range` });
  let value = input;
  let year = 0;
  let month = -1;
  let day = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let offset = 0;
  const chunks = layout.chunks;
  for (let c = 0; c < chunks.length; c++) {
    const [prefix, std, elem] = chunks[c];
    for (let k = 0; k < prefix.length; k++) {
      if (value.length === 0 || value[0] !== prefix[k]) return fail(prefix.slice(k), value);
      value = value.slice(1);
    }
    const hold = value;
    let range = '';
    let bad = false;
    switch (std) {
      case 'year': {
        if (value.length < 4 || !digitAt(value, 0)) bad = true;
        else {
          const y = timeAtoi(value.slice(0, 4));
          value = value.slice(4);
          if (y === null) bad = true;
          else year = y;
        }
        break;
      }
      case 'month': {
        const r = getnum(value, true);
        if (!r) bad = true;
        else {
          [month, value] = r;
          if (month <= 0 || month > 12) range = 'month';
        }
        break;
      }
      case 'day': {
        const r = getnum(value, true);
        if (!r) bad = true;
        else [day, value] = r;
        break;
      }
      case 'hour': {
        const r = getnum(value, false);
        if (!r) bad = true;
        else {
          [hour, value] = r;
          if (hour < 0 || hour >= 24) range = 'hour';
        }
        break;
      }
      case 'minute': {
        const r = getnum(value, true);
        if (!r) bad = true;
        else {
          [min, value] = r;
          if (min < 0 || min >= 60) range = 'minute';
        }
        break;
      }
      case 'second': {
        const r = getnum(value, true);
        if (!r) {
          bad = true;
          break;
        }
        [sec, value] = r;
        if (sec < 0 || sec >= 60) {
          range = 'second';
          break;
        }
        // A fraction the layout does not have is accepted anyway.
        if (layout.fracDigits === 0 && value.length >= 2 && (value[0] === '.' || value[0] === ',') && digitAt(value, 1)) {
          let n = 2;
          while (n < value.length && digitAt(value, n)) n++;
          const r2 = parseNanos(value, n);
          if (typeof r2 === 'string') range = r2;
          else if (r2 === null) bad = true;
          else nsec = r2;
          value = value.slice(n);
        }
        break;
      }
      case 'frac': {
        const ndigit = 1 + layout.fracDigits;
        if (value.length < ndigit) {
          bad = true;
          break;
        }
        const r2 = parseNanos(value, ndigit);
        if (typeof r2 === 'string') range = r2;
        else if (r2 === null) bad = true;
        else nsec = r2;
        value = value.slice(ndigit);
        break;
      }
      case 'tz': {
        if (value.length >= 1 && value[0] === 'Z') {
          value = value.slice(1);
          offset = 0;
          break;
        }
        if (value.length < 6 || value[3] !== ':') {
          bad = true;
          break;
        }
        const sign = value[0];
        const hh = getnum(value.slice(1, 3), true);
        const mm = hh ? getnum(value.slice(4, 6), true) : null;
        value = value.slice(6);
        if (!hh || !mm) {
          bad = true;
          break;
        }
        if (hh[0] > 24) range = 'time zone offset hour';
        if (mm[0] > 60) range = 'time zone offset minute';
        offset = (hh[0] * 60 + mm[0]) * 60;
        if (sign === '-') offset = -offset;
        else if (sign !== '+') bad = true;
        break;
      }
    }
    if (range !== '') return rangeFail(range);
    if (bad) return fail(elem, hold);
  }
  if (value.length !== 0) return { error: `parsing time ${timeQuote(input)}: extra text: ${timeQuote(value)}` };
  if (day < 1 || day > daysIn(month, year)) return rangeFail('day');

  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec - offset;
  const days = Math.floor(seconds / 86400);
  const rem = seconds - days * 86400;
  const [y, m, d] = civilFromDays(days);
  if (y === 1 && m === 1 && d === 1 && rem === 0 && nsec === 0) return ZERO_TIME;
  const base = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(Math.floor(rem / 3600), 2)}:${pad(Math.floor(rem / 60) % 60, 2)}:${pad(rem % 60, 2)}`;
  return layout.fracDigits === 0 ? `${base}Z` : `${base}.${pad(Math.floor(nsec / 1000), 6)}Z`;
}

/** Go's parseNanoseconds: null for errBad, a string for a range error. */
function parseNanos(value: string, nbytes: number): number | string | null {
  if (value[0] !== '.' && value[0] !== ',') return null;
  if (nbytes > 10) nbytes = 10;
  const ns = timeAtoi(value.slice(1, nbytes));
  if (ns === null) return null;
  if (ns < 0) return 'fractional second';
  return ns * 10 ** (10 - nbytes);
}

// ---------------------------------------------------------------------------------------------
// Go's base64.StdEncoding.Decode (what []byte fields accept)

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** The canonical (re-encoded) base64, or the offset of Go's CorruptInputError. */
function goBase64(s: string): string | number {
  const len = s.length;
  const out: number[] = [];
  const isNl = (c: number): boolean => c === 10 || c === 13;
  let si = 0;
  for (;;) {
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let end = false;
    for (; j < 4; j++) {
      if (si === len) {
        if (j === 0) return Buffer.from(out).toString('base64');
        return si - j;
      }
      const c = s.charCodeAt(si++);
      const v = c < 128 ? B64[c] : -1;
      if (v >= 0) {
        buf[j] = v;
        continue;
      }
      if (isNl(c)) {
        j--;
        continue;
      }
      if (c !== 61) return si - 1;
      // Padding.
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < len && isNl(s.charCodeAt(si))) si++;
        if (si === len) return len;
        if (s.charCodeAt(si) !== 61) return si - 1;
        si++;
      }
      while (si < len && isNl(s.charCodeAt(si))) si++;
      if (si < len) return si;
      dlen = j;
      end = true;
      break;
    }
    const val = (buf[0] << 18) | (buf[1] << 12) | (buf[2] << 6) | buf[3];
    if (dlen >= 2) out.push((val >> 16) & 0xff);
    if (dlen >= 3) out.push((val >> 8) & 0xff);
    if (dlen >= 4) out.push(val & 0xff);
    if (end) return Buffer.from(out).toString('base64');
  }
}
