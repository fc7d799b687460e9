// Encoding plain JSON values as kube-apiserver's CBOR serializer writes them
// (apimachinery runtime/serializer/cbor, internal/modes/encode.go):
//
//  - the whole item is enclosed in the self-described CBOR tag 55799 (prefix 0xd9d9f7),
//    which kube uses as a magic number;
//  - every string, map keys included, is a byte string (major type 2): kube encodes Go
//    strings that way instead of validating them as UTF-8 text;
//  - integers are CBOR integers; other numbers take the shortest float width that keeps
//    their value (float16, float32, float64); NaN and infinities cannot be encoded;
//  - responses use kube's nondeterministic mode: map entries in the object's own order
//    (Go's struct field order, which the stored JSON already has);
//  - definite lengths only; null is 0xf6.

import { exactBigInt } from '../../machinery/raw-json.js';

/** The head of tag 55799 ("self-described CBOR"). */
export const SELF_DESCRIBED_PREFIX = Buffer.from([0xd9, 0xd9, 0xf7]);

export class CborEncodeError extends Error {}

/** Growable output buffer. */
class Out {
  buf: Buffer;
  at = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  ensure(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.at++] = b;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }
}

/** A data item's head: major type and argument, in the shortest form. */
function head(out: Out, major: number, n: number | bigint): void {
  const m = major << 5;
  if (typeof n === 'bigint') {
    out.ensure(9);
    out.buf[out.at++] = m | 27;
    out.buf.writeBigUInt64BE(n, out.at);
    out.at += 8;
    return;
  }
  out.ensure(9);
  if (n < 24) out.buf[out.at++] = m | n;
  else if (n < 0x100) {
    out.buf[out.at++] = m | 24;
    out.buf[out.at++] = n;
  } else if (n < 0x10000) {
    out.buf[out.at++] = m | 25;
    out.buf.writeUInt16BE(n, out.at);
    out.at += 2;
  } else if (n < 0x100000000) {
    out.buf[out.at++] = m | 26;
    out.buf.writeUInt32BE(n, out.at);
    out.at += 4;
  } else {
    out.buf[out.at++] = m | 27;
    out.buf.writeBigUInt64BE(BigInt(n), out.at);
    out.at += 8;
  }
}

function byteString(out: Out, s: string): void {
  const len = Buffer.byteLength(s, 'utf8');
  head(out, 2, len);
  out.ensure(len);
  out.at += out.buf.write(s, out.at, len, 'utf8');
}

/** The float16 bits of `v` when float16 holds it exactly, else undefined. */
function float16Bits(v: number): number | undefined {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  // Normal float16: exponent -14..15, 10 fraction bits.
  let e = Math.floor(Math.log2(a));
  // log2 may round across a power of two; settle e so that 2^e <= a < 2^(e+1).
  while (2 ** e > a) e--;
  while (2 ** (e + 1) <= a) e++;
  if (e >= -14 && e <= 15) {
    const frac = a / 2 ** e - 1;
    const f = frac * 1024;
    if (Number.isInteger(f) && a === (1 + f / 1024) * 2 ** e) return sign | ((e + 15) << 10) | f;
    return undefined;
  }
  // Subnormal float16: multiples of 2^-24 below 2^-14.
  if (e < -14) {
    const f = a / 2 ** -24;
    if (Number.isInteger(f) && f < 1024) return sign | f;
  }
  return undefined;
}

function float(out: Out, v: number): void {
  if (!Number.isFinite(v)) throw new CborEncodeError(`cbor: unsupported value: ${v}`);
  const h = float16Bits(v);
  out.ensure(9);
  if (h !== undefined) {
    out.buf[out.at++] = 0xf9;
    out.buf.writeUInt16BE(h, out.at);
    out.at += 2;
  } else if (Math.fround(v) === v) {
    out.buf[out.at++] = 0xfa;
    out.buf.writeFloatBE(v, out.at);
    out.at += 4;
  } else {
    out.buf[out.at++] = 0xfb;
    out.buf.writeDoubleBE(v, out.at);
    out.at += 8;
  }
}

function value(out: Out, v: unknown): void {
  if (v === null || v === undefined) return out.byte(0xf6);
  switch (typeof v) {
    case 'string':
      return byteString(out, v);
    case 'boolean':
      return out.byte(v ? 0xf5 : 0xf4);
    case 'number':
      if (Number.isSafeInteger(v)) {
        if (v >= 0) head(out, 0, v);
        else head(out, 1, -1 - v);
        return;
      }
      return float(out, v);
    case 'bigint':
      if (v >= 0n) head(out, 0, v);
      else head(out, 1, -1n - v);
      return;
    case 'object': {
      if (Array.isArray(v)) {
        head(out, 4, v.length);
        for (const e of v) value(out, e);
        return;
      }
      const j = (v as { toJSON?: () => unknown }).toJSON;
      if (typeof j === 'function') return value(out, j.call(v));
      const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined);
      head(out, 5, keys.length);
      for (const k of keys) {
        byteString(out, k);
        const x = (v as Record<string, unknown>)[k];
        // An int64 beyond 2^53 decoded exactly is written as the integer it is (raw-json.ts);
        // the look-up is only for numbers a JS number cannot hold exactly.
        value(out, typeof x === 'number' && !Number.isSafeInteger(x) ? (exactBigInt(v, k) ?? x) : x);
      }
      return;
    }
    default:
      throw new CborEncodeError(`cbor: unsupported type: ${typeof v}`);
  }
}

/** One value as kube writes an object: self-described tag, then the item. */
export function encodeCbor(v: unknown, opts: { selfDescribed?: boolean } = {}): Buffer {
  const out = new Out(1024);
  if (opts.selfDescribed !== false) out.bytes(SELF_DESCRIBED_PREFIX);
  value(out, v);
  return out.buf.subarray(0, out.at);
}

/**
 * A watch event as kube's CBOR stream serializer writes it: a tagged map {type, object}
 * whose object is the embedded encoding of the object (tagged too, as kube's
 * RawExtension carries the embedded encoder's bytes verbatim).
 */
export function encodeCborWatchEvent(type: string, object: Buffer): Buffer {
  const out = new Out(object.length + 32);
  out.bytes(SELF_DESCRIBED_PREFIX);
  head(out, 5, 2);
  byteString(out, 'type');
  byteString(out, type);
  byteString(out, 'object');
  out.bytes(object);
  return out.buf.subarray(0, out.at);
}
