// kube's protobuf wire format (Content-Type application/vnd.kubernetes.protobuf):
//
//   body = "k8s\0" + runtime.Unknown{ typeMeta{apiVersion, kind}, raw, contentEncoding, contentType }
//
// where `raw` is the object's message (the object itself has no TypeMeta on the wire). kapi
// keeps objects in their JSON shape; this module converts between that shape and the wire
// format for every kind the schema source describes (plan.ts), plus meta/v1 Status and
// DeleteOptions, byte for byte as apimachinery's serializer writes them.

import { str } from '../../machinery/json-view.js';
import { decodeMessage } from './decode.js';
import { encodeListParts, encodeMessage, type EncodeContext } from './encode.js';
import { definitionFor } from './plan.js';
import { ProtobufDecodeError, ProtobufEncodeError, envelope, openEnvelope, readWatchEvent, watchFrame } from './wire.js';

export { PROTOBUF_MAGIC, ProtobufDecodeError, ProtobufEncodeError } from './wire.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

export interface DecodedProtobufObject {
  apiVersion: string;
  kind: string;
  /** The object in kube's JSON shape, with apiVersion and kind set. */
  object: Record<string, unknown>;
  /**
   * Fields present on the wire that kapi's schema does not define (paths such as
   * `spec.template.spec.<field 99>`); they are NOT in `object` (Go's decoder drops them too).
   * Empty when the whole message was understood.
   */
  unknownFields: string[];
}

export interface EncodeProtobufOptions {
  /** Throw ProtobufEncodeError when the object has fields the schema cannot carry (default: drop them). */
  strict?: boolean;
}

/** Whether kapi can encode/decode (apiVersion, kind) as protobuf. */
export function supportsProtobuf(apiVersion: string, kind: string): boolean {
  return definitionFor(apiVersion, kind) !== undefined;
}

function definitionOrThrow(apiVersion: string, kind: string): string {
  const name = definitionFor(apiVersion, kind);
  if (!name) throw new ProtobufEncodeError(`no protobuf encoding for ${apiVersion}, Kind=${kind}`);
  return name;
}

/**
 * Decodes a kube protobuf body into kube's JSON shape. Throws ProtobufDecodeError for a
 * missing magic prefix, truncated or malformed data, or an unsupported kind.
 */
export function decodeProtobufObject(body: Buffer | Uint8Array, defaults?: { apiVersion: string; kind: string }): DecodedProtobufObject {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const env = openEnvelope(buf);
  // The serializer's copyKindDefaults: what the envelope leaves out, the endpoint's kind supplies.
  const kind = env.kind || defaults?.kind || '';
  const apiVersion = env.apiVersion.replace(/^\/$/, '') === '' && defaults ? defaults.apiVersion : env.apiVersion;
  const fail = (message: string): ProtobufDecodeError => {
    const err = new ProtobufDecodeError(message);
    err.gvk = { apiVersion, kind };
    return err;
  };
  if (env.contentEncoding !== '') throw fail(`unsupported protobuf content encoding ${JSON.stringify(env.contentEncoding)}`);
  if (kind === '') throw fail("Object 'Kind' is missing in protobuf envelope");
  const name = definitionFor(apiVersion, kind);
  if (!name) throw fail(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:110"`);
  let decoded;
  try {
    decoded = decodeMessage(name, Buffer.from(env.raw.buffer, env.raw.byteOffset, env.raw.byteLength));
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw fail(e.message);
    throw e;
  }
  return { apiVersion, kind, object: { kind, apiVersion, ...decoded.json }, unknownFields: decoded.unknownFields };
}

function typeMetaOf(obj: Record<string, unknown>): { apiVersion: string; kind: string } {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === '') {
    throw new ProtobufEncodeError('object has no apiVersion/kind');
  }
  return { apiVersion, kind };
}

/**
 * Encodes a kube-JSON object (with apiVersion and kind, including the List kinds and Status)
 * as a kube protobuf body: magic + Unknown{typeMeta, raw}.
 */
export function encodeProtobufObject(obj: Record<string, unknown>, opts: EncodeProtobufOptions = {}): Buffer {
  const { apiVersion, kind } = typeMetaOf(obj);
  const name = definitionOrThrow(apiVersion, kind);
  const ctx: EncodeContext = opts.strict ? { dropped: [] } : {};
  const raw = encodeMessage(name, obj, ctx);
  if (ctx.dropped && ctx.dropped.length > 0) {
    throw new ProtobufEncodeError(`fields not representable in protobuf for ${apiVersion}, Kind=${kind}: ${ctx.dropped.join(', ')}`);
  }
  return envelope(apiVersion, kind, [raw]);
}

/** The object's own message bytes (what Unknown.raw carries), without the envelope. */
export function encodeProtobufRaw(obj: Record<string, unknown>): Uint8Array {
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  return encodeMessage(definitionOrThrow(apiVersion, kind), obj);
}

/** A body from an object's message bytes (kept by the caller): the envelope only. */
export function encodeProtobufFromRaw(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  return envelope(apiVersion, kind, [raw]);
}

/**
 * A list body built from its items' message bytes (kept by the caller), so a list costs a
 * concatenation rather than an encode of every item. A list message is ListMeta (field 1)
 * followed by its items (field 2); the numbers are read from the schema, not assumed.
 */
export function encodeProtobufList(apiVersion: string, listKind: string, listMeta: Record<string, unknown>, items: Uint8Array[]): Buffer {
  return envelope(apiVersion, listKind, encodeListParts(definitionOrThrow(apiVersion, listKind), listMeta, items));
}

/**
 * JSON paths of `obj` that encodeProtobufObject would drop (fields kapi's schema does not
 * define). Lets a caller fall back to JSON instead of losing data. Throws
 * ProtobufEncodeError for a kind without protobuf support or a value of the wrong JSON type.
 */
export function protobufUnrepresentableFields(obj: Record<string, unknown>): string[] {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const ctx: EncodeContext = { dropped: [] };
  encodeMessage(definitionOrThrow(apiVersion, kind), obj, ctx);
  return ctx.dropped!;
}

// ---------------------------------------------------------------------------------------
// Watch streams. kube answers a protobuf watch with Content-Type
// "application/vnd.kubernetes.protobuf;stream=watch": a sequence of frames, each a 4-byte
// big-endian length followed by a meta/v1 WatchEvent{type, object{raw}} encoded WITHOUT
// magic/envelope, whose object.raw is the object encoded as by encodeProtobufObject.

export const PROTOBUF_WATCH_MEDIA_TYPE = `${PROTOBUF_MEDIA_TYPE};stream=watch`;

/** Maximum frame size accepted by decodeProtobufWatchFrames (kube's default request limit is 3 MiB; objects are < 1.5 MiB in etcd). */
const MAX_WATCH_FRAME = 16 * 1024 * 1024;

/** One length-delimited watch frame for an event (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR). */
export function encodeProtobufWatchEvent(type: string, obj: Record<string, unknown>, opts: EncodeProtobufOptions = {}): Buffer {
  return watchFrame(type, encodeProtobufObject(obj, opts));
}

export interface DecodedProtobufWatchEvent {
  type: string;
  object: DecodedProtobufObject;
}

/**
 * Decodes the complete frames at the start of `stream`; returns the events and the
 * unconsumed remainder (a partial frame). Throws ProtobufDecodeError on a malformed frame.
 */
export function decodeProtobufWatchFrames(stream: Buffer): { events: DecodedProtobufWatchEvent[]; rest: Buffer } {
  const events: DecodedProtobufWatchEvent[] = [];
  let off = 0;
  while (stream.length - off >= 4) {
    const len = stream.readUInt32BE(off);
    if (len > MAX_WATCH_FRAME) throw new ProtobufDecodeError(`watch frame of ${len} bytes exceeds the limit`);
    if (stream.length - off - 4 < len) break;
    const body = stream.subarray(off + 4, off + 4 + len);
    off += 4 + len;
    let ev: { type: string; raw: Uint8Array };
    try {
      ev = readWatchEvent(body);
    } catch (e) {
      if (e instanceof ProtobufDecodeError) throw new ProtobufDecodeError(`unable to decode watch event: ${e.message}`);
      throw e;
    }
    events.push({ type: str(ev.type), object: decodeProtobufObject(ev.raw) });
  }
  return { events, rest: stream.subarray(off) };
}
