// Objects live as bytes: the store holds JSON without metadata.resourceVersion (the
// revision is the store's to assign, as with etcd), and the cache holds the same JSON
// with the revision spliced in. Splicing avoids a parse and a stringify per event.

import type { KObject } from './object.js';
import { OBJECT_META_FIELDS } from './meta.js';
import { joinBytes, utf8Bytes, utf8JoinBytes } from './bytes.js';
import { copyExactInts, plainNumbersKeepingInts, stringifyWithRaw } from './raw-json.js';
import { scanJson } from './json-scan.js';

const META_OPEN = Buffer.from('"metadata":{');
const KIND_OPEN = Buffer.from('{"kind":"');
const API_VERSION_OPEN = Buffer.from('","apiVersion":"');
const METADATA_AFTER_STRING = Buffer.from(',"metadata":{');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether `b` has `lit` at `at`. */
function hasAt(b: Buffer, at: number, lit: Buffer): boolean {
  return b.length >= at + lit.length && b.compare(lit, 0, lit.length, at, at + lit.length) === 0;
}

/** The end of a JSON string body starting at `at` without escapes (its closing quote), or -1. */
function plainStringEnd(b: Buffer, at: number): number {
  for (let i = at; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * Where the top-level metadata's fields start when `b` is in the stored canonical form,
 * `{"kind":"...","apiVersion":"...","metadata":{`; -1 otherwise.
 */
function canonicalMetadataStart(b: Buffer): number {
  if (!hasAt(b, 0, KIND_OPEN)) return -1;
  const kindEnd = plainStringEnd(b, KIND_OPEN.length);
  if (kindEnd < 0 || !hasAt(b, kindEnd, API_VERSION_OPEN)) return -1;
  const avEnd = plainStringEnd(b, kindEnd + API_VERSION_OPEN.length);
  if (avEnd < 0 || !hasAt(b, avEnd + 1, METADATA_AFTER_STRING)) return -1;
  return avEnd + 1 + METADATA_AFTER_STRING.length;
}


function orderedMetadata(meta: Record<string, unknown>, dropRv: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  copyExactInts(meta, out);
  for (const k of OBJECT_META_FIELDS) {
    if (dropRv && k === 'resourceVersion') continue;
    if (meta[k] !== undefined) out[k] = meta[k];
  }
  for (const k of Object.keys(meta)) if (!(k in out) && meta[k] !== undefined && !(dropRv && k === 'resourceVersion')) out[k] = meta[k];
  return out;
}

/** The object in kube's field order: kind, apiVersion, metadata, then the rest. */
export function canonicalOrder(obj: KObject, dropRv = false): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: obj.kind, apiVersion: obj.apiVersion };
  copyExactInts(obj, out);
  out.metadata = orderedMetadata(obj.metadata ?? {}, dropRv);
  for (const k of Object.keys(obj)) if (k !== 'kind' && k !== 'apiVersion' && k !== 'metadata' && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/**
 * Whether stored bytes and a new encoding differ in content for certain: both are
 * JSON.stringify of objects in canonical order, and equal content (in any key order below)
 * serializes to the same length. Bytes not in the stored form prove nothing.
 */
export function storedLengthsDiffer(stored: Buffer, encoded: Buffer): boolean {
  return stored.length !== encoded.length && canonicalMetadataStart(stored) >= 0;
}

/** The stored form: canonical JSON without a resourceVersion. */
export function encodeForStorage(obj: KObject): Buffer {
  const pieces = stringifyWithRaw(canonicalOrder(obj, true));
  return pieces.length === 1 ? utf8Bytes(pieces[0]) : utf8JoinBytes(pieces);
}

/** Object bytes with their resourceVersion, and where that value sits (for cheap rewrites). */
export interface VersionedBytes {
  bytes: Buffer;
  /** Offset of the first digit of the resourceVersion value. */
  rvStart: number;
  rvEnd: number;
}

/** Splices `"resourceVersion":"<rv>",` into stored JSON right after the top-level `"metadata":{`. */
export function withResourceVersion(raw: Buffer, rv: number): VersionedBytes {
  let src = raw;
  let at = canonicalMetadataStart(src);
  if (at < 0) {
    // Written by something else (or an older layout): normalize once.
    src = encodeForStorage(JSON.parse(raw.toString('utf8')) as KObject);
    at = src.indexOf(META_OPEN) + META_OPEN.length;
  }
  const rvs = String(rv);
  const head = '"resourceVersion":"';
  const hasMore = src[at] !== 0x7d; // '}' : empty metadata needs no comma
  const insert = Buffer.from(`${head}${rvs}"${hasMore ? ',' : ''}`, 'latin1');
  const bytes = joinBytes([src.subarray(0, at), insert, src.subarray(at)]);
  const rvStart = at + head.length;
  return { bytes, rvStart, rvEnd: rvStart + rvs.length };
}

/** The same bytes with another resourceVersion (a DELETED event carries the deletion revision). */
export function replaceResourceVersion(v: VersionedBytes, rv: number): VersionedBytes {
  const rvs = Buffer.from(String(rv));
  const bytes = joinBytes([v.bytes.subarray(0, v.rvStart), rvs, v.bytes.subarray(v.rvEnd)]);
  return { bytes, rvStart: v.rvStart, rvEnd: v.rvStart + rvs.length };
}

/** Sixteen digits in a row: possibly an integer a JS number rounds. */
const LONG_DIGITS = /[0-9]{16}/;

export function decodeObject(bytes: Buffer): KObject {
  const text = bytes.toString('utf8');
  const obj = JSON.parse(text) as KObject;
  return LONG_DIGITS.test(text) ? withExactInts(text, obj) : obj;
}

/**
 * The object again with the integers beyond 2^53 that its text holds recorded exactly
 * (raw-json.ts), so that writing it back keeps them.
 */
function withExactInts(text: string, plain: KObject): KObject {
  const { value } = scanJson(text, { numbers: 'literal' });
  if (value === null || typeof value !== 'object') return plain;
  return plainNumbersKeepingInts(value) as KObject;
}

const RV_HEAD_LEN = '"resourceVersion":"'.length;
const META_OPEN_LEN = META_OPEN.length;

/** The stored form again: the same bytes without the spliced resourceVersion. */
export function stripResourceVersion(v: VersionedBytes): Buffer {
  const start = v.rvStart - RV_HEAD_LEN;
  let end = v.rvEnd + 1; // closing quote
  if (v.bytes[end] === 0x2c) end++; // the comma before the next field
  return joinBytes([v.bytes.subarray(0, start), v.bytes.subarray(end)]);
}

/**
 * An item of a typed list, without its opening brace: kube's list items carry no kind
 * or apiVersion of their own, so the item is `{` followed by this slice.
 */
export function listItemSlice(v: VersionedBytes): Buffer {
  return v.bytes.subarray(v.rvStart - RV_HEAD_LEN - META_OPEN_LEN);
}
