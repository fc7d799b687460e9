// protobuf message bytes -> kube JSON, in two steps: the wire is read into the values of Go's
// struct (as Go's generated Unmarshal code does: the last scalar wins, a repeated message field
// merges into the first, lists append, unknown fields are skipped, and reported here), then
// the JSON is written as Go's encoding/json writes that struct, with kube's nulls left out:
// a non-pointer scalar always unless omitempty leaves its zero out, a pointer when set, a
// non-pointer struct always, empty lists and maps never (a List kind's items as []), a zero
// Time never, a Quantity in its canonical form.

import { goCompare } from '../../machinery/go-format.js';
import { parseQuantity } from '../../schema/quantity.js';
import { ABSENT_LIST, ABSENT_MESSAGE, planOf, type Field, type MessagePlan, type ValueKind } from './plan.js';
import { INT_OR_STRING, ProtobufDecodeError, QUANTITY, RAW_EXTENSION, FIELDS_V1, TIMESTAMP, WIRE_BYTES, WIRE_VARINT, WireReader } from './wire.js';

type Json = Record<string, unknown>;

/** A message read off the wire: the values of its plan's fields, by index. */
interface Values {
  plan: MessagePlan;
  v: unknown[];
}

interface Timestamp {
  seconds: number;
  nanos: number;
}

interface IntOrString {
  type: number;
  intVal: number;
  strVal: string;
}

/** Raw bytes of a FieldsV1 / RawExtension (undefined: nil). */
interface RawBytes {
  raw: Uint8Array | undefined;
}

interface Decoder {
  r: WireReader;
  /** Paths of fields the schema does not know (null: not collected). */
  unknown: string[] | null;
}

const at = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** The Go type's name, as gogo's generated code names its message in errors. */
const goTypeName = (definition: string): string => definition.slice(definition.lastIndexOf('.') + 1);

function wrongWire(f: Field | string, wire: number): ProtobufDecodeError {
  return new ProtobufDecodeError(`proto: wrong wireType = ${wire} for field ${typeof f === 'string' ? f : f.name}`);
}

function readTimestamp(d: Decoder, end: number, path: string): Timestamp {
  const r = d.r;
  const t: Timestamp = { seconds: 0, nanos: 0 };
  while (r.pos < end) {
    const tag = r.tag();
    const num = tag >>> 3;
    if (num === TIMESTAMP.seconds || num === TIMESTAMP.nanos) {
      if ((tag & 7) !== WIRE_VARINT) throw wrongWire(num === TIMESTAMP.seconds ? 'Seconds' : 'Nanos', tag & 7);
      if (num === TIMESTAMP.seconds) t.seconds = r.int64();
      else t.nanos = r.int32();
    } else skipUnknown(d, tag, end, path);
  }
  return t;
}

function readIntOrString(d: Decoder, end: number, path: string, into: IntOrString | undefined): IntOrString {
  const r = d.r;
  const v = into ?? { type: 0, intVal: 0, strVal: '' };
  while (r.pos < end) {
    const tag = r.tag();
    const num = tag >>> 3;
    if (num === INT_OR_STRING.type && (tag & 7) === WIRE_VARINT) v.type = r.int64();
    else if (num === INT_OR_STRING.intVal && (tag & 7) === WIRE_VARINT) v.intVal = r.int32();
    else if (num === INT_OR_STRING.strVal && (tag & 7) === WIRE_BYTES) v.strVal = r.string();
    else if (num === INT_OR_STRING.type || num === INT_OR_STRING.intVal || num === INT_OR_STRING.strVal) throw wrongWire(String(num), tag & 7);
    else skipUnknown(d, tag, end, path);
  }
  return v;
}

/** A message with one length-delimited field `num` (Quantity, FieldsV1, RawExtension). */
function readSingleBytes(d: Decoder, end: number, num: number, path: string): Uint8Array | undefined {
  const r = d.r;
  let raw: Uint8Array | undefined;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag >>> 3 === num) {
      if ((tag & 7) !== WIRE_BYTES) throw wrongWire(String(num), tag & 7);
      raw = r.bytes();
    } else skipUnknown(d, tag, end, path);
  }
  return raw;
}

function skipUnknown(d: Decoder, tag: number, end: number, path: string): void {
  d.unknown?.push(at(path, `<field ${tag >>> 3}>`));
  d.r.skip(tag, end);
}

/** Reads one value of `kind` whose wire type was checked; `prev` is what an earlier occurrence left. */
function readValue(d: Decoder, f: Field, kind: ValueKind, path: string, prev: unknown): unknown {
  const r = d.r;
  switch (kind) {
    case 'string':
      return r.string();
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'int64':
      return r.int64();
    case 'bytes':
      return r.bytes();
    default:
      break;
  }
  const end = r.delimitedEnd();
  let out: unknown;
  switch (kind) {
    case 'message': {
      const into = prev as Values | undefined;
      out = readMessage(d, planOf(f.ref!), end, path, into ?? null, null);
      break;
    }
    case 'time':
    case 'microTime':
      // metav1.Time replaces itself from an empty message (the zero time) or a Timestamp.
      out = end === r.pos ? null : readTimestamp(d, end, path);
      break;
    case 'quantity': {
      // Go parses the string (an error fails the decode) and writes its canonical form.
      const raw = readSingleBytes(d, end, QUANTITY.string, path);
      out = raw === undefined ? null : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
      break;
    }
    case 'intOrString':
      out = readIntOrString(d, end, path, prev as IntOrString | undefined);
      break;
    case 'fieldsV1':
    case 'rawExtension': {
      const raw = readSingleBytes(d, end, kind === 'fieldsV1' ? FIELDS_V1.raw : RAW_EXTENSION.raw, path);
      out = { raw } satisfies RawBytes;
      break;
    }
  }
  r.exit(end);
  return out;
}

/** Reads the fields of `plan` up to `end`, into `into` (a repeated occurrence) or a new Values. */
function readMessage(d: Decoder, plan: MessagePlan, end: number, path: string, into: Values | null, toParent: number[] | null): Values {
  const r = d.r;
  const vals: Values = into ?? { plan, v: new Array<unknown>(plan.fields.length) };
  while (r.pos < end) {
    const tag = r.tag(goTypeName(plan.name));
    const entry = plan.byNum[tag >>> 3];
    if (!entry) {
      skipUnknown(d, tag, end, path);
      continue;
    }
    const wire = tag & 7;
    if (entry.embed) {
      if (wire !== WIRE_BYTES) throw wrongWire(entry.embed.definition.split('.').pop()!, wire);
      const e = entry.embed;
      const inner = planOf(e.definition);
      const nestedEnd = r.delimitedEnd();
      // The embedded struct's fields are the parent's (flattened): read them into the parent's values.
      const map = toParent ? e.toParent.map((i) => (i < 0 ? -1 : toParent[i]!)) : e.toParent;
      readMessage(d, inner, nestedEnd, path, vals, map);
      r.exit(nestedEnd);
      continue;
    }
    const f = entry.field;
    const slot = toParent ? toParent[f.index]! : f.index;
    // Paths name unknown fields and errors below; scalars need none.
    const p = f.scalar ? '' : at(path, f.name);
    if (f.card === 'map') {
      if (wire !== WIRE_BYTES) throw wrongWire(f, wire);
      const entryEnd = r.delimitedEnd();
      let key = '';
      let value: unknown;
      while (r.pos < entryEnd) {
        const t = r.tag();
        if (t >>> 3 === 1) {
          if ((t & 7) !== WIRE_BYTES) throw wrongWire(f, t & 7);
          key = r.string();
        } else if (t >>> 3 === 2) {
          if ((t & 7) !== f.wire) throw wrongWire(f, t & 7);
          value = readValue(d, f, f.kind, `${p}[${key}]`, undefined);
        } else skipUnknown(d, t, entryEnd, `${p}[${key}]`);
      }
      r.exit(entryEnd);
      if (slot < 0) continue;
      let m = vals.v[slot] as Map<string, unknown> | undefined;
      if (!m) vals.v[slot] = m = new Map();
      m.set(key, value);
      continue;
    }
    if (f.card === 'list') {
      let list = slot < 0 ? [] : (vals.v[slot] as unknown[] | undefined);
      if (!list) vals.v[slot] = list = [];
      if (wire === WIRE_BYTES && f.wire === WIRE_VARINT) {
        // a packed list of varints (Go's Unmarshal takes both forms)
        const packedEnd = r.delimitedEnd();
        while (r.pos < packedEnd) list.push(readValue(d, f, f.kind, `${p}[${list.length}]`, undefined));
        r.exit(packedEnd);
        continue;
      }
      if (wire !== f.wire) throw wrongWire(f, wire);
      list.push(readValue(d, f, f.kind, `${p}[${list.length}]`, undefined));
      continue;
    }
    if (wire !== f.wire) throw wrongWire(f, wire);
    const v = readValue(d, f, f.kind, p, slot < 0 ? undefined : vals.v[slot]);
    if (slot >= 0) vals.v[slot] = v;
  }
  return vals;
}

// ---------------------------------------------------------------------------------------
// Go struct values -> kube JSON

const TWO_DIGITS = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Go's time.Unix(seconds, nanos).UTC() in RFC 3339, with `micros` digits of fraction when set. */
function formatTime(seconds: number, nanos: number, micro: boolean, path: string): string {
  const total = seconds + Math.floor(nanos / 1e9);
  const ns = ((nanos % 1e9) + 1e9) % 1e9;
  const d = new Date(total * 1000);
  const year = d.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) {
    throw new ProtobufDecodeError(`${path}: Time.MarshalJSON: year outside of range [0,9999]`);
  }
  const base =
    `${String(year).padStart(4, '0')}-${TWO_DIGITS(d.getUTCMonth() + 1)}-${TWO_DIGITS(d.getUTCDate())}` +
    `T${TWO_DIGITS(d.getUTCHours())}:${TWO_DIGITS(d.getUTCMinutes())}:${TWO_DIGITS(d.getUTCSeconds())}`;
  return micro ? `${base}.${String(Math.floor(ns / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

/** metav1.Time's zero (0001-01-01T00:00:00Z), which Go writes as null. */
const ZERO_TIME_SECONDS = -62135596800;

function parseRawJson(raw: Uint8Array | undefined, path: string): unknown {
  if (raw === undefined || raw.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as unknown;
  } catch {
    throw new ProtobufDecodeError(`${path}: does not hold valid JSON`);
  }
}

/** The JSON of one value; undefined is Go's null (left out). */
function valueJson(f: Field, kind: ValueKind, v: unknown, path: string): unknown {
  switch (kind) {
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
      return v;
    case 'bytes':
      return Buffer.from(v as Uint8Array).toString('base64');
    case 'message':
      return messageJson(v as Values, path);
    case 'time':
    case 'microTime': {
      const t = v as Timestamp | null;
      if (!t) return undefined;
      // metav1.Time reads seconds only; MicroTime keeps the nanoseconds.
      const nanos = kind === 'microTime' ? t.nanos : 0;
      if (t.seconds === ZERO_TIME_SECONDS && nanos === 0) return undefined;
      return formatTime(t.seconds, nanos, kind === 'microTime', path);
    }
    case 'quantity': {
      if (v === null || v === undefined) return '0';
      const q = parseQuantity(v as string);
      if (!q.ok) throw new ProtobufDecodeError(`${path}: ${q.error}`);
      return q.canonical;
    }
    case 'intOrString': {
      const ios = v as IntOrString;
      if (ios.type === 0) return ios.intVal;
      if (ios.type === 1) return ios.strVal;
      throw new ProtobufDecodeError(`${path}: impossible IntOrString.Type`);
    }
    case 'fieldsV1':
    case 'rawExtension':
      return parseRawJson((v as RawBytes).raw, path);
  }
}

function messageJson(vals: Values, path: string): Json {
  const out: Json = {};
  const v = vals.v;
  for (const f of vals.plan.fields) {
    const x = v[f.index];
    if (x === undefined) {
      const z = f.absent;
      if (z === undefined) continue;
      out[f.name] = z === ABSENT_MESSAGE ? messageJson({ plan: planOf(f.ref!), v: [] }, '') : z === ABSENT_LIST ? [] : z;
      continue;
    }
    if (f.scalar) {
      const j = f.kind === 'bytes' ? Buffer.from(x as Uint8Array).toString('base64') : x;
      // omitempty leaves out a non-pointer scalar's zero value ("" for empty bytes).
      if (f.omitempty && !f.pointer && (j === '' || j === 0 || j === false)) continue;
      out[f.name] = j;
      continue;
    }
    const p = at(path, f.name);
    if (f.card === 'list') {
      const list = x as unknown[];
      if (list.length === 0) {
        if (f.emptyList) out[f.name] = [];
        continue;
      }
      out[f.name] = list.map((item, i) => valueJson(f, f.kind, item, `${p}[${i}]`) ?? null);
      continue;
    }
    if (f.card === 'map') {
      const m = x as Map<string, unknown>;
      const o: Json = {};
      for (const k of [...m.keys()].sort(goCompare)) {
        const item = m.get(k);
        const j = item === undefined ? mapZero(f) : valueJson(f, f.kind, item, `${p}[${k}]`);
        if (j !== undefined) o[k] = j;
      }
      out[f.name] = o;
      continue;
    }
    const j = valueJson(f, f.kind, x, p);
    if (j === undefined) continue;
    // omitempty leaves out a non-pointer scalar's zero value.
    if (f.omitempty && !f.pointer && (j === '' || j === 0 || j === false)) continue;
    out[f.name] = j;
  }
  return out;
}

/** A map entry without a value: Go's zero value of the map's value type. */
function mapZero(f: Field): unknown {
  switch (f.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
      return 0;
    case 'message':
      return messageJson({ plan: planOf(f.ref!), v: [] }, '');
    case 'quantity':
      return '0';
    case 'intOrString':
      return 0;
    default:
      return undefined;
  }
}

export interface DecodedMessage {
  json: Json;
  /** Paths of fields on the wire the schema does not define (kapi reports what Go drops silently). */
  unknownFields: string[];
}

/** Decodes message bytes of definition `name` into kube JSON (without kind and apiVersion). */
export function decodeMessage(name: string, buf: Buffer): DecodedMessage {
  const d: Decoder = { r: new WireReader(buf, 0, buf.length), unknown: [] };
  const vals = readMessage(d, planOf(name), buf.length, '', null, null);
  return { json: messageJson(vals, ''), unknownFields: d.unknown! };
}
