// The parts of kube's protobuf wire format that the schema source does not describe, written
// down once here (field numbers from k8s.io/apimachinery v0.33's generated.proto files):
//
//   body  = "k8s\0" + runtime.Unknown{typeMeta=1{apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}
//   watch = 4-byte big-endian length + meta/v1 WatchEvent{type=1, object=2 RawExtension{raw=1}}
//
// and the messages behind the Go types that have their own JSON form (the schema's special
// TypeRef kinds): metav1.Time and MicroTime (Timestamp{seconds=1, nanos=2}),
// intstr.IntOrString{type=1, intVal=2, strVal=3}, resource.Quantity{string=1},
// metav1.FieldsV1{Raw=1} and runtime.RawExtension{raw=1}. Every other field number comes from
// src/schema/types/generated.ts (see plan.ts).

export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
  /**
   * The body's group/version/kind, once the envelope was read (kube then words the error as
   * `<Kind> in version "<v>" cannot be handled as ...`); undefined when the envelope itself
   * failed (`the object provided is unrecognized ...`).
   */
  gvk?: { apiVersion: string; kind: string };
}

export class ProtobufEncodeError extends Error {
  override readonly name = 'ProtobufEncodeError';
}

/** The 4-byte prefix of every kube protobuf body: "k8s\0". */
export const PROTOBUF_MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

/** Field numbers of the hand-written messages. */
export const UNKNOWN = { typeMeta: 1, raw: 2, contentEncoding: 3, contentType: 4 } as const;
export const TYPE_META = { apiVersion: 1, kind: 2 } as const;
export const WATCH_EVENT = { type: 1, object: 2 } as const;
export const RAW_EXTENSION = { raw: 1 } as const;
export const TIMESTAMP = { seconds: 1, nanos: 2 } as const;
export const INT_OR_STRING = { type: 1, intVal: 2, strVal: 3 } as const;
export const QUANTITY = { string: 1 } as const;
export const FIELDS_V1 = { raw: 1 } as const;

export const tagOf = (num: number, wire: number): number => ((num << 3) | wire) >>> 0;

/** Bytes of a varint holding a non-negative integer below 2^53. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Writes a non-negative integer below 2^53 as a varint at `at`; returns the next offset. */
export function putVarint(buf: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[at++] = n;
  return at;
}

/** Size of a length-delimited field: tag, length and content. */
export const delimitedSize = (tag: number, len: number): number => varintSize(tag) + varintSize(len) + len;

/** Writes tag + length; returns the offset where the content goes. */
export const putDelimitedHead = (buf: Uint8Array, at: number, tag: number, len: number): number =>
  putVarint(buf, putVarint(buf, at, tag), len);

const TAG_TYPE_META = tagOf(UNKNOWN.typeMeta, WIRE_BYTES);
const TAG_RAW = tagOf(UNKNOWN.raw, WIRE_BYTES);
const TAG_CONTENT_ENCODING = tagOf(UNKNOWN.contentEncoding, WIRE_BYTES);
const TAG_CONTENT_TYPE = tagOf(UNKNOWN.contentType, WIRE_BYTES);
const TAG_API_VERSION = tagOf(TYPE_META.apiVersion, WIRE_BYTES);
const TAG_KIND = tagOf(TYPE_META.kind, WIRE_BYTES);

/** runtime.TypeMeta{apiVersion, kind}, both always written (Go's non-pointer strings). */
function typeMetaBytes(apiVersion: string, kind: string): Buffer {
  const av = Buffer.from(apiVersion, 'utf8');
  const k = Buffer.from(kind, 'utf8');
  const out = Buffer.allocUnsafe(delimitedSize(TAG_API_VERSION, av.length) + delimitedSize(TAG_KIND, k.length));
  let at = putDelimitedHead(out, 0, TAG_API_VERSION, av.length);
  at += av.copy(out, at);
  at = putDelimitedHead(out, at, TAG_KIND, k.length);
  k.copy(out, at);
  return out;
}

const typeMetaCache = new Map<string, Buffer>();

function cachedTypeMeta(apiVersion: string, kind: string): Buffer {
  const key = `${apiVersion}\u0000${kind}`;
  let tm = typeMetaCache.get(key);
  if (!tm) {
    tm = typeMetaBytes(apiVersion, kind);
    // The served kinds, Status and DeleteOptions under each group version: a small set.
    if (typeMetaCache.size < 256) typeMetaCache.set(key, tm);
  }
  return tm;
}

/**
 * A body: magic + Unknown{typeMeta, raw (the concatenation of `parts`), contentEncoding "",
 * contentType ""}, as kube's serializer writes it, in one allocation.
 */
export function envelope(apiVersion: string, kind: string, parts: readonly Uint8Array[]): Buffer {
  const tm = cachedTypeMeta(apiVersion, kind);
  let rawLen = 0;
  for (const p of parts) rawLen += p.length;
  const size = PROTOBUF_MAGIC.length + delimitedSize(TAG_TYPE_META, tm.length) + delimitedSize(TAG_RAW, rawLen) + 4;
  const out = Buffer.allocUnsafe(size);
  let at = PROTOBUF_MAGIC.copy(out, 0);
  at = putDelimitedHead(out, at, TAG_TYPE_META, tm.length);
  at += tm.copy(out, at);
  at = putDelimitedHead(out, at, TAG_RAW, rawLen);
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out[at++] = TAG_CONTENT_ENCODING;
  out[at++] = 0;
  out[at++] = TAG_CONTENT_TYPE;
  out[at++] = 0;
  return out;
}

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
}

/** The fields of runtime.Unknown and TypeMeta by number, as gogo's errors name them. */
const UNKNOWN_FIELD_NAMES = ['', 'TypeMeta', 'Raw', 'ContentEncoding', 'ContentType'];
const TYPE_META_FIELD_NAMES = ['', 'APIVersion', 'Kind'];

/**
 * Reads magic + Unknown. Throws ProtobufDecodeError (without gvk) on anything malformed, in
 * the words of kube's protobuf serializer and gogo's generated Unknown.Unmarshal.
 */
export function openEnvelope(buf: Buffer): Envelope {
  if (buf.length === 0) throw new ProtobufDecodeError('empty data');
  if (buf.length < PROTOBUF_MAGIC.length || buf.compare(PROTOBUF_MAGIC, 0, 4, 0, 4) !== 0) {
    throw new ProtobufDecodeError(
      `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`,
    );
  }
  if (buf.length === PROTOBUF_MAGIC.length) throw new ProtobufDecodeError('empty body');
  const r = new WireReader(buf, PROTOBUF_MAGIC.length, buf.length);
  const out: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '' };
  const wrongWire = (names: string[], num: number, wire: number) => new ProtobufDecodeError(`proto: wrong wireType = ${wire} for field ${names[num]}`);
  while (r.more()) {
    const tag = r.tag('Unknown');
    const num = tag >>> 3;
    if (num >= 1 && num <= 4 && (tag & 7) !== WIRE_BYTES) throw wrongWire(UNKNOWN_FIELD_NAMES, num, tag & 7);
    if (num === UNKNOWN.typeMeta) {
      const end = r.delimitedEnd();
      while (r.pos < end) {
        const t = r.tag('TypeMeta');
        const n = t >>> 3;
        if ((n === 1 || n === 2) && (t & 7) !== WIRE_BYTES) throw wrongWire(TYPE_META_FIELD_NAMES, n, t & 7);
        if (n === TYPE_META.apiVersion) out.apiVersion = r.string();
        else if (n === TYPE_META.kind) out.kind = r.string();
        else r.skip(t, end);
      }
      r.exit(end);
    } else if (num === UNKNOWN.raw) out.raw = r.bytes();
    else if (num === UNKNOWN.contentEncoding) out.contentEncoding = r.string();
    else r.skip(tag, r.end);
  }
  return out;
}

const TAG_EVENT_TYPE = tagOf(WATCH_EVENT.type, WIRE_BYTES);
const TAG_EVENT_OBJECT = tagOf(WATCH_EVENT.object, WIRE_BYTES);
const TAG_RAW_EXTENSION_RAW = tagOf(RAW_EXTENSION.raw, WIRE_BYTES);

/** One length-prefixed watch frame: WatchEvent{type, object{raw: body}} (the body is a full magic + Unknown). */
export function watchFrame(type: string, body: Uint8Array): Buffer {
  const t = Buffer.from(type, 'utf8');
  const objectLen = delimitedSize(TAG_RAW_EXTENSION_RAW, body.length);
  const eventLen = delimitedSize(TAG_EVENT_TYPE, t.length) + delimitedSize(TAG_EVENT_OBJECT, objectLen);
  const out = Buffer.allocUnsafe(4 + eventLen);
  out.writeUInt32BE(eventLen, 0);
  let at = putDelimitedHead(out, 4, TAG_EVENT_TYPE, t.length);
  at += t.copy(out, at);
  at = putDelimitedHead(out, at, TAG_EVENT_OBJECT, objectLen);
  at = putDelimitedHead(out, at, TAG_RAW_EXTENSION_RAW, body.length);
  out.set(body, at);
  return out;
}

/** Reads one WatchEvent message (the frame's content). */
export function readWatchEvent(buf: Buffer): { type: string; raw: Uint8Array } {
  const r = new WireReader(buf, 0, buf.length);
  let type = '';
  let raw: Uint8Array = new Uint8Array(0);
  while (r.more()) {
    const tag = r.tag();
    if (tag === TAG_EVENT_TYPE) type = r.string();
    else if (tag === TAG_EVENT_OBJECT) {
      const end = r.delimitedEnd();
      while (r.pos < end) {
        const t = r.tag();
        if (t === TAG_RAW_EXTENSION_RAW) raw = r.bytes();
        else r.skip(t, end);
      }
      r.exit(end);
    } else r.skip(tag, r.end);
  }
  return { type, raw };
}

// ---------------------------------------------------------------------------------------
// Reading. Errors read as Go's generated Unmarshal code reports them.

const TWO_32 = 4294967296;

/**
 * A cursor over protobuf bytes. Nested messages are read in place: `delimitedEnd()` reads a
 * length and returns where the nested message ends, `exit(end)` checks it was consumed exactly.
 */
export class WireReader {
  /** The two 32-bit halves of the last varint read by varint64(). */
  private lo = 0;
  private hi = 0;

  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  more(): boolean {
    return this.pos < this.end;
  }

  private eof(): never {
    throw new ProtobufDecodeError('unexpected EOF');
  }

  /** Reads a varint into lo/hi (bits past 64 dropped, more than 10 bytes is Go's overflow error). */
  private varint64(): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 70) throw new ProtobufDecodeError('proto: integer overflow');
      if (pos >= this.end) this.eof();
      const b = buf[pos++]!;
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >>> 4;
      } else if (shift < 64) hi |= (b & 0x7f) << (shift - 32);
      if (b < 0x80) break;
    }
    this.pos = pos;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /** A varint as an unsigned number (exact below 2^53). */
  uvarint(): number {
    const pos = this.pos;
    if (pos < this.end && this.buf[pos]! < 0x80) {
      this.pos = pos + 1;
      return this.buf[pos]!;
    }
    this.varint64();
    return this.hi * TWO_32 + this.lo;
  }

  /** A varint read as Go's int64 (two's complement over 64 bits). */
  int64(): number {
    this.varint64();
    if (this.hi & 0x80000000) return -((~this.hi >>> 0) * TWO_32 + ((~this.lo >>> 0) + 1));
    return this.hi * TWO_32 + this.lo;
  }

  /** A varint read as Go's int32 (the low 32 bits). */
  int32(): number {
    this.varint64();
    return this.lo | 0;
  }

  /** A varint read as Go's bool. */
  bool(): boolean {
    this.varint64();
    return this.lo !== 0 || this.hi !== 0;
  }

  /** A field's tag; `msg` names the message for gogo's errors (`proto: Pod: illegal tag 0 (wire type 0)`). */
  tag(msg?: string): number {
    const t = this.uvarint();
    const where = msg ? `proto: ${msg}: ` : 'proto: ';
    if (t > 0xffffffff) throw new ProtobufDecodeError('proto: integer overflow');
    const num = t >>> 3;
    if (num === 0) throw new ProtobufDecodeError(`${where}illegal tag 0 (wire type ${t & 7})`);
    if ((t & 7) === 4) throw new ProtobufDecodeError(`${where}wiretype end group for non-group`);
    return t;
  }

  /** Reads a length and returns where the delimited content ends. */
  delimitedEnd(): number {
    const len = this.uvarint();
    // gogo reads lengths as Go ints: one past 2^63 is negative.
    if (len >= 2 ** 63 || (len > 2 ** 53 && this.hi >= 0x80000000)) throw new ProtobufDecodeError('proto: negative length found during unmarshaling');
    const end = this.pos + len;
    if (end > this.end) this.eof();
    return end;
  }

  exit(end: number): void {
    if (this.pos !== end) throw new ProtobufDecodeError('unexpected EOF');
  }

  bytes(): Uint8Array {
    const end = this.delimitedEnd();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  string(): string {
    const end = this.delimitedEnd();
    const buf = this.buf;
    let pos = this.pos;
    // Short ASCII strings (most names, keys and values) are built here; a native call costs more.
    if (end - pos <= 32) {
      let s = '';
      for (; pos < end; pos++) {
        const b = buf[pos]!;
        if (b >= 0x80) break;
        s += String.fromCharCode(b);
      }
      if (pos === end) {
        this.pos = end;
        return s;
      }
      pos = this.pos;
    }
    this.pos = end;
    return buf.toString('utf8', pos, end);
  }

  /** Skips the value of a field with tag `tag`, not reading past `end`. */
  skip(tag: number, end: number): void {
    switch (tag & 7) {
      case WIRE_VARINT:
        this.uvarint();
        break;
      case WIRE_FIXED64:
        this.pos += 8;
        break;
      case WIRE_BYTES:
        this.pos = this.delimitedEnd();
        break;
      case 3: {
        // a group: skip fields until its end-group tag
        for (;;) {
          if (this.pos >= end) this.eof();
          const t = this.uvarint();
          if ((t & 7) === 4) break;
          this.skip(t, end);
        }
        break;
      }
      case WIRE_FIXED32:
        this.pos += 4;
        break;
      default:
        throw new ProtobufDecodeError(`proto: illegal wireType ${tag & 7}`);
    }
    if (this.pos > end) this.eof();
  }
}
