// Protobuf messages derived from the one schema source: every struct of
// src/schema/types/generated.ts is a message whose fields carry the numbers generated from the
// Go types' `protobuf:"..."` tags; the wire type follows from the field's TypeRef (integers and
// booleans are varints, everything else is length-delimited), which scripts/schema-gen checks
// against the tags. A struct embedded with `json:",inline"` is flattened in the schema but stays
// a nested message on the wire (INLINED gives its number). Plans are built on first use, per
// message, so start-up pays nothing for them.

import type { FieldSchema, StructSchema, TypeRef } from '../../schema/model.js';
import { EMBEDDED, GENERATED, INLINED } from '../../schema/types/index.js';
import { WIRE_BYTES, WIRE_VARINT, tagOf } from './wire.js';

/** What one value is on the wire. */
export type ValueKind =
  | 'string'
  | 'bool'
  | 'int32'
  | 'int64'
  | 'bytes'
  | 'message'
  | 'time'
  | 'microTime'
  | 'quantity'
  | 'intOrString'
  | 'fieldsV1'
  | 'rawExtension';

export type Cardinality = 'one' | 'list' | 'map';

export interface Field {
  /** The JSON name. */
  name: string;
  /** Position in MessagePlan.fields. */
  index: number;
  card: Cardinality;
  /** The value's kind (a list's items, a map's values). */
  kind: ValueKind;
  /** For kind 'message': the definition name. */
  ref?: string;
  /** A Go pointer: on the wire and in JSON only when set. */
  pointer: boolean;
  omitempty: boolean;
  /** A List kind's `items`: kube writes [] for none. */
  emptyList: boolean;
  /** Wire tag of the field (0: not on the wire, as TypeMeta's kind and apiVersion). */
  tag: number;
  /** Wire type of one value. */
  wire: number;
  /**
   * What Go's JSON encoder writes for the field at its zero value, with kube's nulls left out:
   * undefined (nothing), a scalar, or ABSENT_LIST / ABSENT_MESSAGE (a fresh [] / zero struct).
   */
  absent: unknown;
  /** Scalars (no nested path needed to read them). */
  scalar: boolean;
}

export const ABSENT_LIST = Symbol('[]');
export const ABSENT_MESSAGE = Symbol('{}');

export interface Embed {
  num: number;
  tag: number;
  /** The embedded struct's definition. */
  definition: string;
  /** For each field of the embedded message, the index of the parent's field it fills. */
  toParent: number[];
}

/** One wire field in Go's marshal order (by number): a field of the struct, or an embedded struct. */
export type WireEntry = { num: number; field: Field; embed?: undefined } | { num: number; field?: undefined; embed: Embed };

export interface MessagePlan {
  name: string;
  /** The JSON fields in declaration order (embedded structs' fields flattened in). */
  fields: Field[];
  /** What goes on the wire, sorted by field number. */
  wire: WireEntry[];
  /** Wire entries by field number (a dense array: kube's numbers are small). */
  byNum: Array<WireEntry | undefined>;
  /** The JSON names of `fields`. */
  keys: Set<string>;
}

function valueKind(t: TypeRef, where: string): { kind: ValueKind; ref?: string } {
  switch (t.kind) {
    case 'string':
      return { kind: 'string' };
    case 'boolean':
      return { kind: 'bool' };
    case 'int32':
      return { kind: 'int32' };
    case 'int64':
      return { kind: 'int64' };
    case 'bytes':
      return { kind: 'bytes' };
    case 'ref':
      return { kind: 'message', ref: t.name };
    case 'time':
      return { kind: 'time' };
    case 'microTime':
      return { kind: 'microTime' };
    case 'quantity':
      return { kind: 'quantity' };
    case 'intOrString':
      return { kind: 'intOrString' };
    case 'fieldsV1':
      return { kind: 'fieldsV1' };
    case 'any':
      // The only `any` with a protobuf number is runtime.RawExtension (ControllerRevision.data).
      return { kind: 'rawExtension' };
    default:
      throw new Error(`${where}: no protobuf form for a ${t.kind} value`);
  }
}

const isVarint = (k: ValueKind): boolean => k === 'bool' || k === 'int32' || k === 'int64';

/** Go's JSON of a field left at its zero value (see Field.absent). */
function absentJson(card: Cardinality, kind: ValueKind, pointer: boolean, omitempty: boolean, emptyList: boolean): unknown {
  if (pointer || card === 'map') return undefined;
  if (card === 'list') return emptyList ? ABSENT_LIST : undefined;
  switch (kind) {
    case 'string':
      return omitempty ? undefined : '';
    case 'bool':
      return omitempty ? undefined : false;
    case 'int32':
    case 'int64':
      return omitempty ? undefined : 0;
    case 'message':
      return ABSENT_MESSAGE;
    case 'quantity':
      return '0';
    case 'intOrString':
      return 0;
    default:
      // []byte, Time, MicroTime, FieldsV1, RawExtension: null
      return undefined;
  }
}

function definition(name: string): StructSchema {
  const s = GENERATED[name] ?? EMBEDDED[name];
  if (!s) throw new Error(`protobuf: no schema definition ${name}`);
  return s;
}

function buildField(s: StructSchema, f: FieldSchema, index: number): Field {
  const where = `${s.name}.${f.name}`;
  const t = f.type;
  let card: Cardinality = 'one';
  let item = t;
  if (t.kind === 'array') {
    card = 'list';
    item = t.items;
  } else if (t.kind === 'map') {
    card = 'map';
    item = t.values;
  }
  const { kind, ref } = valueKind(item, where);
  const wire = isVarint(kind) ? WIRE_VARINT : WIRE_BYTES;
  // A map field's entries are messages, whatever their values are.
  const tag = f.protobuf === undefined ? 0 : tagOf(f.protobuf, card === 'map' ? WIRE_BYTES : wire);
  const pointer = f.pointer === true;
  const omitempty = f.omitempty === true;
  const emptyList = card === 'list' && f.name === 'items' && s.gvk?.kind.endsWith('List') === true;
  return {
    name: f.name,
    index,
    card,
    kind,
    ref,
    pointer,
    omitempty,
    emptyList,
    tag,
    wire,
    absent: absentJson(card, kind, pointer, omitempty, emptyList),
    scalar: card === 'one' && (isVarint(kind) || kind === 'string' || kind === 'bytes'),
  };
}

function buildPlan(name: string): MessagePlan {
  const s = definition(name);
  const fields = s.fields.map((f, i) => buildField(s, f, i));
  const index = new Map(fields.map((f) => [f.name, f.index]));
  const wire: WireEntry[] = [];
  const fromEmbeds = new Set<string>();
  for (const e of INLINED[name] ?? []) {
    for (const n of e.fields) fromEmbeds.add(n);
    // An embed without a number (TypeMeta) has no protobuf form: its fields travel elsewhere.
    if (e.protobuf === undefined) continue;
    const inner = definition(e.definition);
    const toParent = inner.fields.map((f) => (e.fields.includes(f.name) ? (index.get(f.name) ?? -1) : -1));
    wire.push({ num: e.protobuf, embed: { num: e.protobuf, tag: tagOf(e.protobuf, WIRE_BYTES), definition: e.definition, toParent } });
  }
  for (const f of fields) {
    const schema = s.fields[f.index]!;
    if (schema.protobuf !== undefined) wire.push({ num: schema.protobuf, field: f });
    else if (!fromEmbeds.has(f.name)) throw new Error(`protobuf: ${name}.${f.name} has no protobuf number`);
  }
  wire.sort((a, b) => a.num - b.num);
  const byNum: Array<WireEntry | undefined> = [];
  for (const w of wire) {
    if (byNum[w.num]) throw new Error(`protobuf: ${name} has two fields numbered ${w.num}`);
    byNum[w.num] = w;
  }
  return { name, fields, wire, byNum, keys: new Set(index.keys()) };
}

const plans = new Map<string, MessagePlan>();

/** The message plan of a schema definition (built on first use). */
export function planOf(name: string): MessagePlan {
  let p = plans.get(name);
  if (!p) {
    p = buildPlan(name);
    plans.set(name, p);
  }
  return p;
}

// ---------------------------------------------------------------------------------------
// Top-level kinds

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const STATUS_DEFINITION = `${META}.Status`;
export const DELETE_OPTIONS_DEFINITION = `${META}.DeleteOptions`;

/** Status is unversioned in kube ("v1"); meta.k8s.io/v1 is accepted too. */
const STATUS_VERSIONS = new Set(['v1', 'meta.k8s.io/v1']);

/** A plausible "group/version" or core "v1"-style apiVersion. */
const API_VERSION_RE = /^(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;

let kinds: Map<string, string> | undefined;

function kindIndex(): Map<string, string> {
  if (!kinds) {
    kinds = new Map();
    for (const s of Object.values(GENERATED)) {
      if (!s.gvk || s.name === STATUS_DEFINITION) continue;
      const apiVersion = s.gvk.group ? `${s.gvk.group}/${s.gvk.version}` : s.gvk.version;
      kinds.set(`${apiVersion}\u0000${s.gvk.kind}`, s.name);
    }
  }
  return kinds;
}

/** The definition a top-level (apiVersion, kind) is encoded with, if kapi has one. */
export function definitionFor(apiVersion: string, kind: string): string | undefined {
  const direct = kindIndex().get(`${apiVersion}\u0000${kind}`);
  if (direct) return direct;
  if (kind === 'Status' && STATUS_VERSIONS.has(apiVersion)) return STATUS_DEFINITION;
  // v1beta1's PartialObjectMetadata is v1's type under another version.
  if (kind === 'PartialObjectMetadata' && apiVersion === 'meta.k8s.io/v1beta1') return kindIndex().get(`meta.k8s.io/v1\u0000${kind}`);
  // DeleteOptions is registered in every group version (metav1.AddToGroupVersion).
  if (kind === 'DeleteOptions' && API_VERSION_RE.test(apiVersion)) return DELETE_OPTIONS_DEFINITION;
  return undefined;
}
