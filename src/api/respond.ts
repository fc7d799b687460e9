import { gzipSync } from 'node:zlib';
import { featureEnabled } from '../machinery/feature-gates.js';
// Writing objects, lists, tables and Status bodies in the negotiated format. JSON
// bodies are assembled from the cache's bytes without re-serializing the objects.

import type { Context } from 'koa';
import { yamlModule } from '../machinery/lazy-module.js';
import type { OutputFormat } from '../codec/negotiate.js';
import type { ResourceDef, TableConvertor } from '../registry/types.js';
import type { KObject } from '../machinery/object.js';
import { apiVersionOf, internalPackage } from '../machinery/api-resource.js';
import { CREATED_AT_COLUMN, NAME_COLUMN } from '../registry/printers.js';
import { decodeObject, listItemSlice, type VersionedBytes } from '../machinery/stored-bytes.js';
import { StatusError, badRequest, type Status } from '../machinery/errors.js';
import {
  PROTOBUF_MEDIA_TYPE,
  encodeProtobufFromRaw,
  encodeProtobufList,
  encodeProtobufObject,
  encodeProtobufRaw,
  supportsProtobuf,
} from '../codec/protobuf/index.js';
import { CBOR_MEDIA_TYPE, encodeCbor } from '../codec/cbor/index.js';
import { auditCapture, captureResponseBody } from './audit-capture.js';

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** kube's default table convertor, for types without a printer (Role, ClusterRole). */
const DEFAULT_TABLE: TableConvertor = {
  columns: [NAME_COLUMN, CREATED_AT_COLUMN],
  cells: (obj) => [obj.metadata.name, obj.metadata.creationTimestamp ?? null],
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(v: string | null): IncludeObject {
  if (v === null || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`);
}

/**
 * An object's protobuf message bytes, made once per stored version and kept beside its
 * JSON (keyed by the JSON buffer, so they go when that version leaves the cache).
 */
const protobufCache = new WeakMap<Buffer, Uint8Array>();
function protobufRaw(v: VersionedBytes): Uint8Array {
  let raw = protobufCache.get(v.bytes);
  if (!raw) {
    raw = encodeProtobufRaw(decodeObject(v.bytes) as unknown as Record<string, unknown>);
    protobufCache.set(v.bytes, raw);
  }
  return raw;
}

/** kube compresses get and list responses above this size (128 KiB). */
const GZIP_THRESHOLD = 128 * 1024;

/**
 * APIResponseCompression: a body over the threshold goes out gzipped when the client
 * offers exactly the `gzip` coding, with `Vary: Accept-Encoding`, as kube does.
 */
function maybeGzip(ctx: Context, body: Buffer | string): Buffer | string {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (size <= GZIP_THRESHOLD || !featureEnabled('APIResponseCompression')) return body;
  const offered = (ctx.get('accept-encoding') || '').split(',').map((t) => t.trim().split(';')[0]);
  if (!offered.includes('gzip')) return body;
  ctx.set('Content-Encoding', 'gzip');
  ctx.set('Vary', 'Accept-Encoding');
  return gzipSync(body, { level: 1 });
}

function send(ctx: Context, status: number, out: OutputFormat, body: Buffer | string, pretty: boolean): void {
  ctx.status = status;
  captureResponseBody(ctx, body);
  if (out.mediaType === PROTOBUF_MEDIA_TYPE) {
    const doc = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as Record<string, unknown>;
    // Every served kind, its list, Scale and Status have a protobuf message; anything else goes out as JSON.
    if (supportsProtobuf(String(doc.apiVersion), String(doc.kind))) {
      ctx.set('Content-Type', PROTOBUF_MEDIA_TYPE);
      ctx.body = maybeGzip(ctx, encodeProtobufObject(doc));
      return;
    }
    out = { mediaType: 'application/json' };
  }
  if (out.mediaType === CBOR_MEDIA_TYPE) {
    // Every kind (Table and Status too) has a CBOR form; `pretty` has no meaning for it.
    const doc = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown;
    ctx.set('Content-Type', CBOR_MEDIA_TYPE);
    ctx.body = maybeGzip(ctx, encodeCbor(doc));
    return;
  }
  if (out.mediaType === 'application/yaml') {
    const doc = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown;
    ctx.set('Content-Type', 'application/yaml');
    ctx.body = maybeGzip(ctx, yamlModule().stringify(doc, { lineWidth: 0 }));
    return;
  }
  // Exactly application/json, without the charset parameter Koa would add.
  ctx.set('Content-Type', 'application/json');
  if (pretty) {
    // Go's json.MarshalIndent: no newline at the end.
    const doc = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown;
    ctx.body = maybeGzip(ctx, JSON.stringify(doc, null, 2));
    return;
  }
  ctx.body = maybeGzip(ctx, withNewline(body));
}

const NEWLINE = Buffer.from('\n');

/** kube's JSON encoder is Go's json.Encoder: every document ends with a newline. */
function withNewline(body: Buffer | string): Buffer | string {
  if (typeof body === 'string') return body.endsWith('\n') ? body : `${body}\n`;
  return body.length > 0 && body[body.length - 1] === 0x0a ? body : Buffer.concat([body, NEWLINE]);
}

function tableRow(def: ResourceDef, obj: KObject, include: IncludeObject, now: Date, version: string): Record<string, unknown> {
  const conv = def.table ?? DEFAULT_TABLE;
  const row: Record<string, unknown> = { cells: conv.cells(obj, now) };
  if (include === 'Object') row.object = obj;
  else if (include === 'Metadata') {
    // The metadata view in the Table's own meta.k8s.io version.
    row.object = { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
  } else {
    // An empty RawExtension: Go's JSON writes it as null, omitempty or not.
    row.object = null;
  }
  return row;
}

export function tableOf(
  def: ResourceDef,
  objs: KObject[],
  meta: Partial<ListMeta>,
  out: OutputFormat,
  include: IncludeObject,
  withColumns = true,
): Record<string, unknown> {
  const now = new Date();
  const conv = def.table ?? DEFAULT_TABLE;
  const metadata: Record<string, unknown> = {};
  if (meta.resourceVersion) metadata.resourceVersion = meta.resourceVersion;
  if (meta.continue) metadata.continue = meta.continue;
  if (meta.remainingItemCount !== undefined) metadata.remainingItemCount = meta.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${out.table ?? 'v1'}`,
    metadata,
    columnDefinitions: withColumns ? conv.columns : [],
    rows: objs.map((o) => tableRow(def, o, include, now, out.table ?? 'v1')),
  };
}

/** kube's internal Go type of a kind, as `%T` prints it in a failed transform (`*core.Pod`). */
function internalType(group: string, kind: string): string {
  return `*${internalPackage(group)}.${kind}`;
}

/** What kube's transform answers when the view and the answer do not fit (a 406 with no details). */
function viewNotAcceptable(message: string): StatusError {
  return new StatusError(406, 'NotAcceptable', message);
}

/** An object as the metadata-only view (asPartialObjectMetadata), or kube's 406 for a list view. */
function partialObject(group: string, doc: Record<string, unknown>, out: OutputFormat): Record<string, unknown> {
  const p = out.partial!;
  if (p.kind === 'PartialObjectMetadataList') {
    throw viewNotAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${internalType(group, String(doc.kind))})`);
  }
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${p.version}`, metadata: doc.metadata ?? {} };
}

/** A list as the metadata-only view (asPartialObjectMetadataList), or kube's 406 for an object view. */
function partialList(def: ResourceDef, items: VersionedBytes[], meta: ListMeta, out: OutputFormat): Record<string, unknown> {
  const p = out.partial!;
  if (p.kind === 'PartialObjectMetadata') {
    throw viewNotAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${internalType(def.group, def.listKind)})`);
  }
  const m: Record<string, unknown> = { resourceVersion: meta.resourceVersion };
  if (meta.continue) m.continue = meta.continue;
  // Both versions' lists carry metav1.ListMeta, remainingItemCount included.
  if (meta.remainingItemCount !== undefined) m.remainingItemCount = meta.remainingItemCount;
  const apiVersion = `meta.k8s.io/${p.version}`;
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: m,
    // kube fills the list item by item into a nil slice: an empty one is written as null.
    items: items.length === 0 ? null : items.map((v) => ({ kind: 'PartialObjectMetadata', apiVersion, metadata: decodeObject(v.bytes).metadata })),
  };
}

/**
 * Refuses, before anything runs, a metadata-only view that will not fit the answer (a list
 * view of an object, an object view of a list): kube finds this out only when writing the
 * answer, after a write has committed; kapi answers the same 406 without writing. `kind` is
 * the answer's kind as `%T` names it.
 */
export function assertViewFits(out: OutputFormat, group: string, kind: string, isList: boolean): void {
  const p = out.partial;
  if (!p) return;
  if (isList && p.kind === 'PartialObjectMetadata') {
    throw viewNotAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${internalType(group, kind)})`);
  }
  if (!isList && p.kind === 'PartialObjectMetadataList') {
    throw viewNotAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${internalType(group, kind)})`);
  }
}

/** A stream's object as the negotiated view shows it (watch events); Status objects pass as they are. */
export function viewOfObject(def: ResourceDef, doc: Record<string, unknown>, out: OutputFormat): Record<string, unknown> {
  if (!out.partial || doc.kind === 'Status') return doc;
  return partialObject(def.group, doc, out);
}

export function respondObject(
  ctx: Context,
  status: number,
  def: ResourceDef,
  bytes: Buffer,
  out: OutputFormat,
  pretty: boolean,
  include: IncludeObject = 'Metadata',
): void {
  if (out.partial) {
    send(ctx, status, out, JSON.stringify(partialObject(def.group, decodeObject(bytes) as unknown as Record<string, unknown>, out)), pretty);
    return;
  }
  if (out.table) {
    const obj = decodeObject(bytes);
    const table = tableOf(def, [obj], { resourceVersion: obj.metadata.resourceVersion }, out, include);
    send(ctx, status, out, JSON.stringify(table), pretty);
    return;
  }
  if (out.mediaType === PROTOBUF_MEDIA_TYPE && !pretty && supportsProtobuf(apiVersionOf(def), def.kind)) {
    // The object's message bytes are made once per stored version (see protobufRaw).
    ctx.status = status;
    captureResponseBody(ctx, bytes);
    ctx.set('Content-Type', PROTOBUF_MEDIA_TYPE);
    ctx.body = maybeGzip(ctx, encodeProtobufFromRaw(apiVersionOf(def), def.kind, protobufRaw({ bytes, rvStart: -1, rvEnd: -1 })));
    return;
  }
  send(ctx, status, out, bytes, pretty);
}

export function listBytes(def: ResourceDef, items: VersionedBytes[], meta: ListMeta): Buffer {
  const m: Record<string, unknown> = { resourceVersion: meta.resourceVersion };
  if (meta.continue) m.continue = meta.continue;
  if (meta.remainingItemCount !== undefined) m.remainingItemCount = meta.remainingItemCount;
  const head = Buffer.from(
    `{"kind":${JSON.stringify(def.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(def))},"metadata":${JSON.stringify(m)},"items":[`,
  );
  // One allocation for the whole list: each item is its cached bytes minus kind/apiVersion.
  const slices = items.map(listItemSlice);
  // The closing `]}` and the newline Go's encoder ends a document with.
  let size = head.length + 3 + Math.max(0, items.length - 1);
  for (const sl of slices) size += sl.length + 1;
  const out = Buffer.allocUnsafe(size);
  let at = head.copy(out, 0);
  slices.forEach((sl, i) => {
    if (i) out[at++] = 0x2c;
    out[at++] = 0x7b;
    at += sl.copy(out, at);
  });
  out[at++] = 0x5d;
  out[at++] = 0x7d;
  out[at++] = 0x0a;
  return out.subarray(0, at);
}

export function respondList(
  ctx: Context,
  def: ResourceDef,
  items: VersionedBytes[],
  meta: ListMeta,
  out: OutputFormat,
  pretty: boolean,
  include: IncludeObject = 'Metadata',
): void {
  if (out.partial) {
    send(ctx, 200, out, JSON.stringify(partialList(def, items, meta, out)), pretty);
    return;
  }
  if (out.table) {
    const table = tableOf(def, items.map((v) => decodeObject(v.bytes)), meta, out, include);
    send(ctx, 200, out, JSON.stringify(table), pretty);
    return;
  }
  if (out.mediaType === PROTOBUF_MEDIA_TYPE && !pretty && supportsProtobuf(apiVersionOf(def), def.listKind)) {
    const m: Record<string, unknown> = { resourceVersion: meta.resourceVersion };
    if (meta.continue) m.continue = meta.continue;
    if (meta.remainingItemCount !== undefined) m.remainingItemCount = meta.remainingItemCount;
    ctx.status = 200;
    if (auditCapture(ctx)?.wantsResponse) captureResponseBody(ctx, listBytes(def, items, meta));
    ctx.set('Content-Type', PROTOBUF_MEDIA_TYPE);
    ctx.body = maybeGzip(ctx, encodeProtobufList(apiVersionOf(def), def.listKind, m, items.map(protobufRaw)));
    return;
  }
  send(ctx, 200, out, listBytes(def, items, meta), pretty);
}

/**
 * Writes a document that is not a stored object: a Status (never transformed), or an object
 * of a subresource's own kind (a Scale), which the metadata-only view reduces as any object.
 */
export function respondStatus(ctx: Context, status: Status | Record<string, unknown>, code: number, out: OutputFormat, pretty: boolean): void {
  const doc = status as Record<string, unknown>;
  if (out.partial && doc.kind !== 'Status') {
    const group = String(doc.apiVersion ?? '').includes('/') ? String(doc.apiVersion).split('/')[0] : '';
    send(ctx, code, out, JSON.stringify(partialObject(group, doc, out)), pretty);
    return;
  }
  send(ctx, code, { mediaType: out.mediaType }, JSON.stringify(status), pretty);
}
