// kube JSON -> protobuf message bytes, as Go's generated Marshal code writes the struct that
// the JSON decodes to: fields by number; a non-pointer field always (a string "", a number 0,
// a struct as its zero message, a zero Time as an empty message), a pointer only when set;
// each list item; map entries sorted by key (Go's byte order); Time as seconds only, Quantity
// as its canonical string, IntOrString as all three of its fields.

import { goCompare } from '../../machinery/go-format.js';
import { parseQuantity, goFloatString } from '../../schema/quantity.js';
import { planOf, type Field, type MessagePlan, type ValueKind } from './plan.js';
import { exactBigInt } from '../../machinery/raw-json.js';
import { INT_OR_STRING, putVarint, varintSize, ProtobufEncodeError, QUANTITY, RAW_EXTENSION, FIELDS_V1, TIMESTAMP, WIRE_BYTES, WIRE_VARINT, tagOf } from './wire.js';
import { WireWriter } from './writer.js';

type Json = Record<string, unknown>;

export interface EncodeContext {
  /** When set, JSON paths that have no protobuf representation are recorded here. */
  dropped?: string[];
}

const TAG_SECONDS = tagOf(TIMESTAMP.seconds, WIRE_VARINT);
const TAG_NANOS = tagOf(TIMESTAMP.nanos, WIRE_VARINT);
const TAG_IOS_TYPE = tagOf(INT_OR_STRING.type, WIRE_VARINT);
const TAG_IOS_INT = tagOf(INT_OR_STRING.intVal, WIRE_VARINT);
const TAG_IOS_STR = tagOf(INT_OR_STRING.strVal, WIRE_BYTES);
const TAG_QUANTITY = tagOf(QUANTITY.string, WIRE_BYTES);
const TAG_FIELDS_RAW = tagOf(FIELDS_V1.raw, WIRE_BYTES);
const TAG_RAW = tagOf(RAW_EXTENSION.raw, WIRE_BYTES);
const TAG_MAP_KEY = tagOf(1, WIRE_BYTES);

/** metav1.Time's zero (0001-01-01T00:00:00Z): Go writes it as an empty message. */
const ZERO_TIME_SECONDS = -62135596800;

function typeError(path: string, want: string, v: unknown): ProtobufEncodeError {
  const got = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  return new ProtobufEncodeError(`${path}: expected ${want}, got ${got}`);
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 time to Unix seconds and nanoseconds. */
export function parseRfc3339(s: string, path: string): { seconds: number; nanos: number } {
  const m = RFC3339.exec(s);
  const ms = m ? Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8]!.toUpperCase()}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new ProtobufEncodeError(`${path}: invalid RFC3339 time ${JSON.stringify(s)}`);
  const nanos = m[7] ? Number(m[7].slice(1).padEnd(9, '0').slice(0, 9)) : 0;
  return { seconds: Math.floor(ms / 1000), nanos };
}

function writeTime(w: WireWriter, v: unknown, micro: boolean, path: string): void {
  const mark = w.begin();
  if (v !== undefined && v !== null) {
    if (typeof v !== 'string') throw typeError(path, 'RFC3339 string', v);
    const t = parseRfc3339(v, path);
    if (t.seconds !== ZERO_TIME_SECONDS || t.nanos !== 0) {
      // metav1.Time keeps seconds only; MicroTime microseconds.
      w.uvarint(TAG_SECONDS);
      w.int64(t.seconds);
      w.uvarint(TAG_NANOS);
      w.int64(micro ? Math.floor(t.nanos / 1000) * 1000 : 0);
    }
  }
  w.end(mark);
}

function quantityString(v: unknown, path: string): string {
  if (v === undefined || v === null) return '0';
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' && Number.isFinite(v)) s = goFloatString(v);
  else throw typeError(path, 'quantity string', v);
  const q = parseQuantity(s);
  if (!q.ok) throw new ProtobufEncodeError(`${path}: ${q.error}`);
  return q.canonical;
}

function checkInt(v: unknown, path: string, bits: 32 | 64): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path, 'integer', v);
  if (bits === 32 && (v < -2147483648 || v > 2147483647)) throw new ProtobufEncodeError(`${path}: ${v} does not fit in int32`);
  // A value the decoders admitted is at most 2^63-1, which a double holds as 2^63: the writer
  // writes that as int64's maximum.
  if (bits === 64 && v > 2 ** 63) throw new ProtobufEncodeError(`${path}: ${v} does not fit in int64`);
  return v;
}

/** Field 1, length-delimited: an item of a named []string's message. */
const STRING_LIST_ITEM_TAG = (1 << 3) | 2;

/** One value of `kind` after its tag; undefined/null is Go's zero value. */
function writeValue(w: WireWriter, f: Field, kind: ValueKind, v: unknown, path: string, ctx: EncodeContext): void {
  const absent = v === undefined || v === null;
  switch (kind) {
    case 'string':
      if (absent) w.uvarint(0);
      else if (typeof v === 'string') w.string(v);
      else throw typeError(path, 'string', v);
      return;
    case 'bool':
      if (absent) w.bool(false);
      else if (typeof v === 'boolean') w.bool(v);
      else throw typeError(path, 'boolean', v);
      return;
    case 'int32':
      w.int64(absent ? 0 : checkInt(v, path, 32));
      return;
    case 'int64':
      w.int64(absent ? 0 : checkInt(v, path, 64));
      return;
    case 'bytes':
      if (absent) w.uvarint(0);
      else if (typeof v === 'string') w.bytes(Buffer.from(v, 'base64'));
      else throw typeError(path, 'base64 string', v);
      return;
    case 'stringList': {
      if (!absent && !Array.isArray(v)) throw typeError(path, 'array', v);
      const mark = w.begin();
      for (const [i, s] of ((v ?? []) as unknown[]).entries()) {
        if (typeof s !== 'string') throw typeError(`${path}[${i}]`, 'string', s);
        w.uvarint(STRING_LIST_ITEM_TAG);
        w.string(s);
      }
      w.end(mark);
      return;
    }
    case 'message': {
      if (!absent && (typeof v !== 'object' || Array.isArray(v))) throw typeError(path, 'object', v);
      const mark = w.begin();
      writeMessage(w, planOf(f.ref!), absent ? EMPTY : (v as Json), path, ctx, undefined);
      w.end(mark);
      return;
    }
    case 'time':
    case 'microTime':
      writeTime(w, v, kind === 'microTime', path);
      return;
    case 'quantity': {
      const mark = w.begin();
      w.uvarint(TAG_QUANTITY);
      w.string(quantityString(v, path));
      w.end(mark);
      return;
    }
    case 'intOrString': {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      if (typeof v === 'string') {
        type = 1;
        strVal = v;
      } else if (!absent) intVal = checkInt(v, path, 32);
      const mark = w.begin();
      w.uvarint(TAG_IOS_TYPE);
      w.uvarint(type);
      w.uvarint(TAG_IOS_INT);
      w.int64(intVal);
      w.uvarint(TAG_IOS_STR);
      w.string(strVal);
      w.end(mark);
      return;
    }
    case 'fieldsV1':
    case 'rawExtension': {
      // Both hold JSON text (Raw) in Go; nil Raw is an empty message.
      const mark = w.begin();
      if (!absent) {
        if (kind === 'fieldsV1' && (typeof v !== 'object' || Array.isArray(v))) throw typeError(path, 'object', v);
        w.uvarint(kind === 'fieldsV1' ? TAG_FIELDS_RAW : TAG_RAW);
        w.string(JSON.stringify(v));
      }
      w.end(mark);
      return;
    }
  }
}

const EMPTY: Json = Object.freeze({}) as Json;

/**
 * Writes the fields of `plan` from the JSON object `json`. `mask`, for an embedded struct,
 * tells which of its fields the parent's JSON object carries (-1: hidden by the parent's own).
 */
export function writeMessage(w: WireWriter, plan: MessagePlan, json: Json, path: string, ctx: EncodeContext, mask: number[] | undefined): void {
  for (const entry of plan.wire) {
    if (entry.embed) {
      const e = entry.embed;
      w.uvarint(e.tag);
      const mark = w.begin();
      writeMessage(w, planOf(e.definition), json, path, ctx, e.toParent);
      w.end(mark);
      continue;
    }
    const f = entry.field;
    const v = mask && mask[f.index]! < 0 ? undefined : json[f.name];
    if (f.card === 'one') {
      if (f.pointer && (v === undefined || v === null)) continue;
      w.uvarint(f.tag);
      // An int64 beyond 2^53 decoded exactly is written exactly (raw-json.ts keeps its text).
      const exact = f.kind === 'int64' && v !== undefined ? exactBigInt(json, f.name) : undefined;
      if (exact !== undefined) w.int64Exact(exact);
      else writeValue(w, f, f.kind, v, join(path, f.name), ctx);
    } else if (f.card === 'list') {
      if (v === undefined || v === null) continue;
      if (!Array.isArray(v)) throw typeError(join(path, f.name), 'array', v);
      for (let i = 0; i < v.length; i++) {
        w.uvarint(f.tag);
        writeValue(w, f, f.kind, v[i], `${join(path, f.name)}[${i}]`, ctx);
      }
    } else {
      if (v === undefined || v === null) continue;
      if (typeof v !== 'object' || Array.isArray(v)) throw typeError(join(path, f.name), 'object', v);
      const m = v as Json;
      const keys = Object.keys(m).sort(goCompare);
      const valueTag = tagOf(2, f.wire);
      for (const k of keys) {
        w.uvarint(f.tag);
        const mark = w.begin();
        w.uvarint(TAG_MAP_KEY);
        w.string(k);
        w.uvarint(valueTag);
        writeValue(w, f, f.kind, m[k], `${join(path, f.name)}[${k}]`, ctx);
        w.end(mark);
      }
    }
  }
  if (ctx.dropped && !mask) {
    for (const k of Object.keys(json)) {
      if (plan.keys.has(k) || json[k] === undefined || json[k] === null) continue;
      ctx.dropped.push(join(path, k));
    }
  }
}

let scratchWriter: WireWriter | undefined;

/** The one writer encodes share (encoding is synchronous); made on the first protobuf encode. */
function scratch(): WireWriter {
  const w = (scratchWriter ??= new WireWriter());
  w.reset();
  return w;
}

/** The message bytes of a kube JSON object of definition `name` (kind and apiVersion are not part of them). */
export function encodeMessage(name: string, json: Json, ctx: EncodeContext = {}): Buffer {
  const w = scratch();
  writeMessage(w, planOf(name), json, '', ctx, undefined);
  return w.copyFrom(0);
}

/**
 * A list message as parts to concatenate: its metadata (ListMeta from JSON) and, for each item,
 * the item field's tag and length followed by the item's message bytes as given.
 */
export function encodeListParts(name: string, listMeta: Json, items: readonly Uint8Array[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (const entry of planOf(name).wire) {
    const f = entry.field;
    if (f?.name === 'metadata' && f.card === 'one') {
      const w = scratch();
      w.uvarint(f.tag);
      writeValue(w, f, f.kind, listMeta, 'metadata', {});
      parts.push(w.copyFrom(0));
    } else if (f?.name === 'items' && f.card === 'list') {
      let size = 0;
      for (const item of items) size += varintSize(f.tag) + varintSize(item.length);
      const heads = Buffer.allocUnsafe(size);
      let at = 0;
      for (const item of items) {
        const start = at;
        at = putVarint(heads, putVarint(heads, at, f.tag), item.length);
        parts.push(heads.subarray(start, at), item);
      }
    } else throw new ProtobufEncodeError(`${name}: not a list (field ${entry.field?.name ?? entry.embed?.definition})`);
  }
  return parts;
}
