// Conversion between protobufjs messages of kube's wire schema and the JSON
// shape kube's Go JSON encoder produces. The rules (what is emitted when) come
// from the custom field options in schema.ts; see the comment there.

import type * as protobuf from 'protobufjs';
import { protobufModule } from '../../machinery/lazy-module.js';
import { PROTO_SOURCES, PKG } from './schema.js';

export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}

export class ProtobufEncodeError extends Error {
  override readonly name = 'ProtobufEncodeError';
}

type Json = Record<string, unknown>;
type Special = 'time' | 'microtime' | 'quantity' | 'intorstring' | 'fieldsv1';

const SPECIAL_TYPES: Record<string, Special> = {
  [`${PKG.meta}.Time`]: 'time',
  [`${PKG.meta}.MicroTime`]: 'microtime',
  [`${PKG.meta}.FieldsV1`]: 'fieldsv1',
  [`${PKG.resource}.Quantity`]: 'quantity',
  [`${PKG.intstr}.IntOrString`]: 'intorstring',
};

interface FieldPlan {
  /** protobuf field name == kube JSON name (except inline fields, whose name is not used in JSON). */
  name: string;
  id: number;
  /** Scalar protobuf type name (string, int32, int64, bool, bytes) when not a message. */
  scalar?: string;
  /** Message type of the field, or of a map's values. */
  message?: protobuf.Type;
  special?: Special;
  repeated: boolean;
  map: boolean;
  emit: boolean;
  ptr: boolean;
  inline: boolean;
}

interface TypePlan {
  type: protobuf.Type;
  fields: FieldPlan[];
  byId: Map<number, FieldPlan>;
  /** JSON keys this message understands, including those of inlined messages. */
  jsonKeys: Set<string>;
}

let rootCache: protobuf.Root | undefined;

/** The protobufjs Root holding every message of schema.ts (built once). */
export function schemaRoot(): protobuf.Root {
  if (!rootCache) {
    const root = new (protobufModule().Root)();
    for (const src of PROTO_SOURCES) protobufModule().parse(src, root, { keepCase: true });
    root.resolveAll();
    rootCache = root;
  }
  return rootCache;
}

const plans = new Map<protobuf.Type, TypePlan>();

function planOf(type: protobuf.Type): TypePlan {
  let plan = plans.get(type);
  if (plan) return plan;
  const fields: FieldPlan[] = type.fieldsArray.map((f) => {
    f.resolve();
    const opts = f.options ?? {};
    const message = f.resolvedType instanceof protobufModule().Type ? (f.resolvedType as protobuf.Type) : undefined;
    return {
      name: f.name,
      id: f.id,
      scalar: message ? undefined : f.type,
      message,
      special: message ? SPECIAL_TYPES[message.fullName.slice(1)] : undefined,
      repeated: f.repeated,
      map: f.map,
      emit: opts['(emit)'] === true,
      ptr: opts['(ptr)'] === true,
      inline: opts['(inline)'] === true,
    };
  });
  plan = { type, fields, byId: new Map(fields.map((f) => [f.id, f])), jsonKeys: new Set() };
  plans.set(type, plan);
  for (const f of fields) {
    if (f.inline && f.message) for (const k of planOf(f.message).jsonKeys) plan.jsonKeys.add(k);
    else plan.jsonKeys.add(f.name);
  }
  return plan;
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

// ---------------------------------------------------------------------------
// protobuf message -> kube JSON

function longToNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { toNumber?: unknown }).toNumber === 'function') {
    return (v as { toNumber(): number }).toNumber();
  }
  return Number(v);
}

function scalarToJson(scalar: string, v: unknown): unknown {
  switch (scalar) {
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return longToNumber(v);
    case 'bytes':
      return Buffer.from(v as Uint8Array).toString('base64');
    default:
      return v;
  }
}

function zeroOf(scalar: string): unknown {
  switch (scalar) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return '';
    default:
      return 0;
  }
}

const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false;

/** Go's time.Time.Format(time.RFC3339) of a UTC second. */
export function formatRfc3339(seconds: number): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw new ProtobufDecodeError(`time out of range: ${seconds}`);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Go's metav1.RFC3339Micro ("2006-01-02T15:04:05.000000Z07:00") in UTC. */
function formatRfc3339Micro(seconds: number, nanos: number): string {
  const base = formatRfc3339(seconds).slice(0, -1);
  const micros = Math.floor(nanos / 1000);
  return `${base}.${String(micros).padStart(6, '0')}Z`;
}

/** Converts a special (well-known) message to its JSON value; undefined means "omit". */
function specialToJson(special: Special, msg: Json | null | undefined, path: string): unknown {
  const m = msg ?? {};
  switch (special) {
    case 'time':
    case 'microtime': {
      // kube's Time.Unmarshal: an empty message is the zero time (JSON null, omitted here);
      // otherwise time.Unix(seconds, 0) - nanos are dropped for Time, kept (µs) for MicroTime.
      if (!has(m, 'seconds') && !has(m, 'nanos')) return undefined;
      const seconds = has(m, 'seconds') ? longToNumber(m.seconds) : 0;
      if (special === 'time') return formatRfc3339(seconds);
      return formatRfc3339Micro(seconds, has(m, 'nanos') ? Number(m.nanos) : 0);
    }
    case 'quantity': {
      const s = has(m, 'string') ? String(m.string) : '';
      return s === '' ? '0' : s;
    }
    case 'intorstring': {
      const t = has(m, 'type') ? longToNumber(m.type) : 0;
      if (t === 1) return has(m, 'strVal') ? String(m.strVal) : '';
      return has(m, 'intVal') ? Number(m.intVal) : 0;
    }
    case 'fieldsv1': {
      const raw = has(m, 'Raw') ? (m.Raw as Uint8Array) : undefined;
      if (!raw || raw.length === 0) return {};
      try {
        return JSON.parse(Buffer.from(raw).toString('utf8'));
      } catch {
        throw new ProtobufDecodeError(`${path}: fieldsV1 does not hold valid JSON`);
      }
    }
  }
}

function valueToJson(f: FieldPlan, v: unknown, path: string): unknown {
  if (f.special) return specialToJson(f.special, v as Json, path);
  if (f.message) return messageToJson(f.message, (v ?? {}) as Json, path);
  return scalarToJson(f.scalar!, v);
}

/** Converts a decoded protobufjs message (or a plain object with own-property presence) to kube JSON. */
export function messageToJson(type: protobuf.Type, msg: Json, path = ''): Json {
  const out: Json = {};
  for (const f of planOf(type).fields) {
    const present = has(msg, f.name) && msg[f.name] !== null && msg[f.name] !== undefined;
    const v = msg[f.name];
    const p = path ? `${path}.${f.name}` : f.name;
    if (f.map) {
      const entries = present ? Object.entries(v as Json) : [];
      if (entries.length > 0) {
        const m: Json = {};
        for (const [k, ev] of entries) {
          const jv = valueToJson(f, ev, `${p}[${k}]`);
          if (jv !== undefined) m[k] = jv;
        }
        out[f.name] = m;
      } else if (f.emit) out[f.name] = {};
      continue;
    }
    if (f.repeated) {
      const arr = present ? (v as unknown[]) : [];
      if (arr.length > 0) out[f.name] = arr.map((ev, i) => valueToJson(f, ev, `${p}[${i}]`) ?? null);
      else if (f.emit) out[f.name] = [];
      continue;
    }
    if (f.message) {
      if (f.inline) {
        Object.assign(out, messageToJson(f.message, (present ? v : {}) as Json, path));
        continue;
      }
      if (!present && !f.emit) continue;
      const jv = valueToJson(f, present ? v : {}, p);
      if (jv !== undefined) out[f.name] = jv;
      continue;
    }
    if (present) {
      const jv = scalarToJson(f.scalar!, v);
      if (f.ptr || f.emit || !isZero(jv)) out[f.name] = jv;
    } else if (f.emit) {
      out[f.name] = zeroOf(f.scalar!);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Unknown-field scan: protobufjs silently skips fields it has no definition for;
// kapi must not lose data silently, so the decoder reports them.

const WIRE_BYTES = 2;

/** Lists (as JSON-ish paths) the fields present in `buf` that `type` does not define. */
export function findUnknownFields(type: protobuf.Type, buf: Uint8Array, path = '', out: string[] = []): string[] {
  const plan = planOf(type);
  const reader = protobufModule().Reader.create(buf);
  const counts = new Map<number, number>();
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const id = tag >>> 3;
    const wire = tag & 7;
    const f = plan.byId.get(id);
    if (!f) {
      out.push(`${path ? `${path}.` : ''}<field ${id}>`);
      reader.skipType(wire);
      continue;
    }
    if (wire !== WIRE_BYTES || !f.message || f.special) {
      reader.skipType(wire);
      continue;
    }
    const bytes = reader.bytes();
    const base = f.inline ? path : path ? `${path}.${f.name}` : f.name;
    if (f.map) {
      // map entry: { 1: key, 2: value }
      const er = protobufModule().Reader.create(bytes);
      let key = '';
      let value: Uint8Array | undefined;
      while (er.pos < er.len) {
        const et = er.uint32();
        if (et >>> 3 === 1 && (et & 7) === WIRE_BYTES) key = er.string();
        else if (et >>> 3 === 2 && (et & 7) === WIRE_BYTES) value = er.bytes();
        else er.skipType(et & 7);
      }
      if (value) findUnknownFields(f.message, value, `${base}[${key}]`, out);
    } else if (f.repeated) {
      const i = counts.get(id) ?? 0;
      counts.set(id, i + 1);
      findUnknownFields(f.message, bytes, `${base}[${i}]`, out);
    } else {
      findUnknownFields(f.message, bytes, base, out);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// kube JSON -> plain object for protobufjs encoding (own property == present)

export interface EncodeContext {
  /** JSON paths that have no protobuf representation and were dropped. */
  dropped: string[];
}

function typeError(path: string, want: string, v: unknown): ProtobufEncodeError {
  const got = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  return new ProtobufEncodeError(`${path}: expected ${want}, got ${got}`);
}

/** Parses an RFC3339 timestamp to Unix seconds (fractions dropped, as kube's Time does). */
export function parseRfc3339(s: string, path: string): { seconds: number; nanos: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(s);
  const ms = m ? Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new ProtobufEncodeError(`${path}: invalid RFC3339 time ${JSON.stringify(s)}`);
  const frac = m[7] ? m[7].slice(1).padEnd(9, '0').slice(0, 9) : '0';
  return { seconds: Math.floor(ms / 1000), nanos: Number(frac) };
}

function specialFromJson(special: Special, v: unknown, path: string): Json {
  switch (special) {
    case 'time': {
      if (typeof v !== 'string') throw typeError(path, 'RFC3339 string', v);
      // kube's Time.ProtoTime writes seconds only (nanos 0).
      return { seconds: parseRfc3339(v, path).seconds, nanos: 0 };
    }
    case 'microtime': {
      if (typeof v !== 'string') throw typeError(path, 'RFC3339 string', v);
      const t = parseRfc3339(v, path);
      return { seconds: t.seconds, nanos: Math.floor(t.nanos / 1000) * 1000 };
    }
    case 'quantity': {
      if (typeof v === 'number' && Number.isFinite(v)) return { string: String(v) };
      if (typeof v !== 'string') throw typeError(path, 'quantity string', v);
      return { string: v };
    }
    case 'intorstring': {
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) throw typeError(path, 'integer or string', v);
        return { type: 0, intVal: v, strVal: '' };
      }
      if (typeof v === 'string') return { type: 1, intVal: 0, strVal: v };
      throw typeError(path, 'integer or string', v);
    }
    case 'fieldsv1': {
      if (typeof v !== 'object' || Array.isArray(v)) throw typeError(path, 'object', v);
      return { Raw: Buffer.from(JSON.stringify(v), 'utf8') };
    }
  }
}

function scalarFromJson(scalar: string, v: unknown, path: string): unknown {
  switch (scalar) {
    case 'string':
      if (typeof v !== 'string') throw typeError(path, 'string', v);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw typeError(path, 'boolean', v);
      return v;
    case 'bytes':
      if (typeof v !== 'string') throw typeError(path, 'base64 string', v);
      return Buffer.from(v, 'base64');
    case 'int32':
    case 'uint32':
    case 'sint32':
    case 'int64':
    case 'uint64':
    case 'sint64':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path, 'integer', v);
      if ((scalar === 'int32' || scalar === 'sint32') && (v < -2147483648 || v > 2147483647)) {
        throw new ProtobufEncodeError(`${path}: ${v} does not fit in int32`);
      }
      return v;
    default:
      throw new ProtobufEncodeError(`${path}: unsupported protobuf type ${scalar}`);
  }
}

function valueFromJson(f: FieldPlan, v: unknown, path: string, ctx: EncodeContext): unknown {
  if (f.special) return specialFromJson(f.special, v, path);
  if (f.message) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw typeError(path, 'object', v);
    return messageFromJson(f.message, v as Json, path, ctx);
  }
  return scalarFromJson(f.scalar!, v, path);
}

/** Keys kube's JSON carries at object level that have no protobuf field (TypeMeta). */
const TYPE_META_KEYS = new Set(['apiVersion', 'kind']);

/**
 * Converts a kube-JSON object to a plain object that protobufjs encodes for `type`.
 * JSON keys the schema does not define are recorded in ctx.dropped.
 */
export function messageFromJson(type: protobuf.Type, json: Json, path: string, ctx: EncodeContext, inlined = false): Json {
  const plan = planOf(type);
  const out: Json = {};
  for (const f of plan.fields) {
    const p = path ? `${path}.${f.name}` : f.name;
    if (f.inline && f.message) {
      out[f.name] = messageFromJson(f.message, json, path, ctx, true);
      continue;
    }
    const v = json[f.name];
    if (v === undefined || v === null) continue;
    if (f.map) {
      if (typeof v !== 'object' || Array.isArray(v)) throw typeError(p, 'object', v);
      const m: Json = {};
      for (const [k, ev] of Object.entries(v as Json)) {
        if (ev === null || ev === undefined) continue;
        m[k] = valueFromJson(f, ev, `${p}[${k}]`, ctx);
      }
      out[f.name] = m;
    } else if (f.repeated) {
      if (!Array.isArray(v)) throw typeError(p, 'array', v);
      out[f.name] = v.map((ev, i) => {
        if (ev === null || ev === undefined) throw typeError(`${p}[${i}]`, 'value', ev);
        return valueFromJson(f, ev, `${p}[${i}]`, ctx);
      });
    } else {
      out[f.name] = valueFromJson(f, v, p, ctx);
    }
  }
  if (!inlined) {
    // Objects (with ObjectMeta/ListMeta metadata) carry TypeMeta in JSON only.
    const isObject = plan.byId.get(1)?.name === 'metadata';
    for (const k of Object.keys(json)) {
      if (plan.jsonKeys.has(k)) continue;
      if (isObject && TYPE_META_KEYS.has(k)) continue;
      if (json[k] === null || json[k] === undefined) continue;
      ctx.dropped.push(path ? `${path}.${k}` : k);
    }
  }
  return out;
}
