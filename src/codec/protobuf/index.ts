// kube's protobuf wire format (Content-Type application/vnd.kubernetes.protobuf):
//
//   body = "k8s\0" + runtime.Unknown{ typeMeta{apiVersion, kind}, raw, contentEncoding, contentType }
//
// where `raw` is the object encoded with kube's generated.proto field numbers
// (the object itself has no TypeMeta on the wire). kapi keeps objects in their
// JSON shape; this module converts between that shape and the wire format for
// the kinds listed in schema.ts (KINDS) plus meta/v1 Status and DeleteOptions.

import type * as protobuf from 'protobufjs';
import { protobufModule } from '../../machinery/lazy-module.js';
import { str } from '../../machinery/json-view.js';
import { KINDS, PKG } from './schema.js';
import {
  ProtobufDecodeError,
  ProtobufEncodeError,
  findUnknownFields,
  messageFromJson,
  messageToJson,
  schemaRoot,
  type EncodeContext,
} from './convert.js';

export { ProtobufDecodeError, ProtobufEncodeError } from './convert.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** The 4-byte prefix of every kube protobuf body: "k8s\0". */
export const PROTOBUF_MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface DecodedProtobufObject {
  apiVersion: string;
  kind: string;
  /** The object in kube's JSON shape, with apiVersion and kind set. */
  object: Record<string, unknown>;
  /**
   * Fields present on the wire that kapi's schema does not define (paths such as
   * `spec.template.spec.<field 99>`); they are NOT in `object`. Empty when the
   * whole message was understood. Callers should reject or warn rather than
   * silently store a partial object.
   */
  unknownFields: string[];
}

export interface EncodeProtobufOptions {
  /** Throw ProtobufEncodeError when the object has fields the schema cannot carry (default: drop them). */
  strict?: boolean;
}

const kindIndex = new Map<string, string>(KINDS.map((k) => [`${k.apiVersion}\u0000${k.kind}`, k.message]));

/** Status is unversioned in kube ("v1"); meta.k8s.io/v1 is accepted too. */
const STATUS_VERSIONS = new Set(['v1', 'meta.k8s.io/v1']);

/** A plausible "group/version" or core "v1"-style apiVersion. */
const API_VERSION_RE = /^(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;

function messageNameFor(apiVersion: string, kind: string): string | undefined {
  const direct = kindIndex.get(`${apiVersion}\u0000${kind}`);
  if (direct) return direct;
  if (kind === 'Status' && STATUS_VERSIONS.has(apiVersion)) return `${PKG.meta}.Status`;
  // DeleteOptions is registered in every group version (metav1.AddToGroupVersion).
  if (kind === 'DeleteOptions' && API_VERSION_RE.test(apiVersion)) return `${PKG.meta}.DeleteOptions`;
  return undefined;
}

function typeFor(apiVersion: string, kind: string): protobuf.Type | undefined {
  const name = messageNameFor(apiVersion, kind);
  return name ? schemaRoot().lookupType(name) : undefined;
}

/** Whether kapi can encode/decode (apiVersion, kind) as protobuf. */
export function supportsProtobuf(apiVersion: string, kind: string): boolean {
  return messageNameFor(apiVersion, kind) !== undefined;
}

function unknownType(): protobuf.Type {
  return schemaRoot().lookupType(`${PKG.runtime}.Unknown`);
}

/**
 * Decodes a kube protobuf body into kube's JSON shape. Throws ProtobufDecodeError
 * for a missing magic prefix, truncated or malformed data, or an unsupported kind.
 */
export function decodeProtobufObject(body: Buffer | Uint8Array): DecodedProtobufObject {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (buf.length < PROTOBUF_MAGIC.length || !buf.subarray(0, PROTOBUF_MAGIC.length).equals(PROTOBUF_MAGIC)) {
    throw new ProtobufDecodeError(
      `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`,
    );
  }
  let unk: Record<string, unknown>;
  try {
    unk = unknownType().decode(buf.subarray(PROTOBUF_MAGIC.length)) as unknown as Record<string, unknown>;
  } catch (e) {
    throw new ProtobufDecodeError(`unable to decode protobuf envelope: ${(e as Error).message}`);
  }
  const tm = (unk.typeMeta ?? {}) as Record<string, unknown>;
  const apiVersion = str(tm.apiVersion);
  const kind = str(tm.kind);
  if (str(unk.contentEncoding) !== '') {
    throw new ProtobufDecodeError(`unsupported protobuf content encoding ${JSON.stringify(unk.contentEncoding)}`);
  }
  if (kind === '') throw new ProtobufDecodeError('Object \'Kind\' is missing in protobuf envelope');
  const type = typeFor(apiVersion, kind);
  if (!type) throw new ProtobufDecodeError(`no kind "${kind}" is registered for version "${apiVersion}"`);
  const raw = (unk.raw as Uint8Array | undefined) ?? new Uint8Array(0);
  let json: Record<string, unknown>;
  let unknownFields: string[];
  try {
    const msg = type.decode(raw) as unknown as Record<string, unknown>;
    json = messageToJson(type, msg);
    unknownFields = findUnknownFields(type, raw);
  } catch (e) {
    if (e instanceof ProtobufDecodeError) throw e;
    throw new ProtobufDecodeError(`unable to decode ${apiVersion}, Kind=${kind} from protobuf: ${(e as Error).message}`);
  }
  return { apiVersion, kind, object: { kind, apiVersion, ...json }, unknownFields };
}

/**
 * Encodes a kube-JSON object (with apiVersion and kind, including the List kinds
 * and Status) as a kube protobuf body: magic + Unknown{typeMeta, raw}.
 */
export function encodeProtobufObject(obj: Record<string, unknown>, opts: EncodeProtobufOptions = {}): Buffer {
  const apiVersion = obj.apiVersion;
  const kind = obj.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === '') {
    throw new ProtobufEncodeError('object has no apiVersion/kind');
  }
  const type = typeFor(apiVersion, kind);
  if (!type) throw new ProtobufEncodeError(`no protobuf encoding for ${apiVersion}, Kind=${kind}`);
  const ctx: EncodeContext = { dropped: [] };
  const plain = messageFromJson(type, obj, '', ctx);
  const dropped = ctx.dropped.filter((p) => p !== 'apiVersion' && p !== 'kind');
  if (opts.strict && dropped.length > 0) {
    throw new ProtobufEncodeError(`fields not representable in protobuf for ${apiVersion}, Kind=${kind}: ${dropped.join(', ')}`);
  }
  let raw: Uint8Array;
  try {
    raw = type.encode(plain).finish();
  } catch (e) {
    throw new ProtobufEncodeError(`unable to encode ${apiVersion}, Kind=${kind}: ${(e as Error).message}`);
  }
  // kube's serializer leaves contentEncoding/contentType empty (and writes them, as Go does).
  const envelope = unknownType()
    .encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })
    .finish();
  return Buffer.concat([PROTOBUF_MAGIC, envelope]);
}

/** The object's own message bytes (what Unknown.raw carries), without the envelope. */
export function encodeProtobufRaw(obj: Record<string, unknown>): Uint8Array {
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  const type = typeFor(apiVersion, kind);
  if (!type) throw new ProtobufEncodeError(`no protobuf encoding for ${apiVersion}, Kind=${kind}`);
  return type.encode(messageFromJson(type, obj, '', { dropped: [] })).finish();
}

/** A body from an object's message bytes (kept by the caller): the envelope only. */
export function encodeProtobufFromRaw(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const envelope = unknownType().encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }).finish();
  return Buffer.concat([PROTOBUF_MAGIC, envelope]);
}

/**
 * A list body built from its items' message bytes (kept by the caller), so a list costs
 * a concatenation rather than an encode of every item: ListMeta is field 1, items field 2.
 */
export function encodeProtobufList(apiVersion: string, listKind: string, listMeta: Record<string, unknown>, items: Uint8Array[]): Buffer {
  const type = typeFor(apiVersion, listKind);
  if (!type) throw new ProtobufEncodeError(`no protobuf encoding for ${apiVersion}, Kind=${listKind}`);
  const metaType = type.fields.metadata.resolve().resolvedType as protobuf.Type;
  const w = protobufModule().Writer.create();
  w.uint32((1 << 3) | 2).bytes(metaType.encode(messageFromJson(metaType, listMeta, 'metadata', { dropped: [] })).finish());
  for (const item of items) w.uint32((2 << 3) | 2).bytes(item);
  const envelope = unknownType()
    .encode({ typeMeta: { apiVersion, kind: listKind }, raw: w.finish(), contentEncoding: '', contentType: '' })
    .finish();
  return Buffer.concat([PROTOBUF_MAGIC, envelope]);
}

/**
 * JSON paths of `obj` that encodeProtobufObject would drop (fields kapi's schema
 * does not define). Lets a caller fall back to JSON instead of losing data.
 * Throws ProtobufEncodeError for a kind without protobuf support or a value of
 * the wrong JSON type.
 */
export function protobufUnrepresentableFields(obj: Record<string, unknown>): string[] {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const type = typeFor(apiVersion, kind);
  if (!type) throw new ProtobufEncodeError(`no protobuf encoding for ${apiVersion}, Kind=${kind}`);
  const ctx: EncodeContext = { dropped: [] };
  messageFromJson(type, obj, '', ctx);
  return ctx.dropped.filter((p) => p !== 'apiVersion' && p !== 'kind');
}

// ---------------------------------------------------------------------------
// Watch streams. kube answers a protobuf watch with Content-Type
// "application/vnd.kubernetes.protobuf;stream=watch": a sequence of frames, each
// a 4-byte big-endian length followed by a meta/v1 WatchEvent{type, object{raw}}
// encoded WITHOUT magic/envelope, whose object.raw is the object encoded as by
// encodeProtobufObject (magic + Unknown).

export const PROTOBUF_WATCH_MEDIA_TYPE = `${PROTOBUF_MEDIA_TYPE};stream=watch`;

/** Maximum frame size accepted by decodeProtobufWatchFrames (kube's default request limit is 3 MiB; objects are < 1.5 MiB in etcd). */
const MAX_WATCH_FRAME = 16 * 1024 * 1024;

function watchEventType(): protobuf.Type {
  return schemaRoot().lookupType(`${PKG.meta}.WatchEvent`);
}

/** One length-delimited watch frame for an event (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR). */
export function encodeProtobufWatchEvent(
  type: string,
  obj: Record<string, unknown>,
  opts: EncodeProtobufOptions = {},
): Buffer {
  const raw = encodeProtobufObject(obj, opts);
  const ev = watchEventType().encode({ type, object: { raw } }).finish();
  const frame = Buffer.allocUnsafe(4 + ev.length);
  frame.writeUInt32BE(ev.length, 0);
  frame.set(ev, 4);
  return frame;
}

export interface DecodedProtobufWatchEvent {
  type: string;
  object: DecodedProtobufObject;
}

/**
 * Decodes the complete frames at the start of `stream`; returns the events and
 * the unconsumed remainder (a partial frame). Throws ProtobufDecodeError on a
 * malformed frame.
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
    let ev: Record<string, unknown>;
    try {
      ev = watchEventType().decode(body) as unknown as Record<string, unknown>;
    } catch (e) {
      throw new ProtobufDecodeError(`unable to decode watch event: ${(e as Error).message}`);
    }
    const raw = ((ev.object ?? {}) as Record<string, unknown>).raw as Uint8Array | undefined;
    events.push({ type: str(ev.type), object: decodeProtobufObject(Buffer.from(raw ?? new Uint8Array(0))) });
  }
  return { events, rest: stream.subarray(off) };
}
