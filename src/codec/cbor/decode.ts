// Decoding CBOR request bodies the way kube-apiserver's CBOR serializer reads them
// (apimachinery runtime/serializer/cbor, internal/modes/decode.go over fxamacker/cbor):
//
//  - first a well-formedness pass with kube's limits: at most 64 nested levels (tags
//    count), 1024 array elements, 1024 map pairs; nothing may follow the item; NaN and
//    infinities are refused. A failure here is a "cannot determine group/version/kind"
//    error in kube (its TypeMeta pass fails before anything else);
//  - tags are accepted and looked through (the self-described tag 55799 among them);
//  - byte strings and text strings both decode to strings; text strings must be valid
//    UTF-8; indefinite lengths are allowed;
//  - a map key repeated in one map is not a strict-decoding warning as in JSON: kube
//    rejects the body. The decoder records the first repeat of each map (kube stops at
//    it); the caller decides whether kube would have met it (not inside an unknown field).
//
// Messages are fxamacker/cbor's, which kube passes through.

import { JsonNumber } from '../../machinery/json-scan.js';

export const MAX_NESTED_LEVELS = 64;
export const MAX_ARRAY_ELEMENTS = 1024;
export const MAX_MAP_PAIRS = 1024;

/**
 * `wellformed`: the bytes are not one acceptable CBOR item (kube fails before it reads
 * apiVersion/kind); `value`: well-formed, but a value cannot be decoded.
 */
export class CborDecodeError extends Error {
  constructor(
    message: string,
    readonly stage: 'wellformed' | 'value',
  ) {
    super(message);
    this.name = 'CborDecodeError';
  }
}

export interface CborDuplicate {
  /** kube's path of the map holding the repeat ('' for the top level). */
  path: string;
  key: string;
  /** The repeat's map element index. */
  index: number;
}

export interface CborDocument {
  value: unknown;
  /** How many text strings (major type 3) and byte strings (major type 2) the item holds. */
  textStrings: number;
  byteStrings: number;
  /** The first repeated key of each map, in document order. */
  duplicates: CborDuplicate[];
  /** Each decoded map's keys in document order (for map element indexes). */
  keyOrder: WeakMap<object, string[]>;
  /** Map keys that were not strings (with the 'placeholder' option). */
  nonStringKeys: CborNonStringKey[];
}

export interface CborDecodeOptions {
  /** 'literal': numbers as JsonNumber (exact integers, int vs float kept), for typed decoding. */
  numbers?: 'literal' | 'plain';
  /**
   * 'placeholder': a map key that is not a string becomes NON_STRING_KEY + its element index
   * (recorded in nonStringKeys) for the typed decoder to judge: kube skips it as an unknown
   * field in a struct and refuses it in a map. 'error' (the default): a decode error, as
   * decoding into a plain value refuses it.
   */
  nonStringKeys?: 'placeholder' | 'error';
}

/** Prefix of the stand-in for a map key that is not a string (no JSON key starts with NUL). */
export const NON_STRING_KEY = '\u0000key';

export interface CborNonStringKey {
  /** kube's path of the map. */
  path: string;
  /** The stand-in key. */
  key: string;
  /** fxamacker/cbor's name of the key's CBOR type. */
  type: string;
}

const TYPE_NAMES = ['positive integer', 'negative integer', 'byte string', 'UTF-8 text string', 'array', 'map', 'tag', 'primitives'];

const wellformed = (msg: string) => new CborDecodeError(msg, 'wellformed');
const UNEXPECTED_EOF = 'unexpected EOF';

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function float16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

class Reader {
  at = 0;
  /** The first value-stage error; well-formedness errors are thrown at once and win. */
  valueError: CborDecodeError | undefined;
  readonly duplicates: CborDuplicate[] = [];
  readonly keyOrder = new WeakMap<object, string[]>();
  readonly nonStringKeys: CborNonStringKey[] = [];
  textStrings = 0;
  byteStrings = 0;

  constructor(
    readonly data: Uint8Array,
    readonly literal: boolean,
    readonly placeholders: boolean,
  ) {}

  private need(n: number): void {
    if (this.data.length - this.at < n) throw wellformed(UNEXPECTED_EOF);
  }

  /** Reads a head: major type, additional information, argument. */
  private head(): { major: number; ai: number; arg: number | bigint } {
    this.need(1);
    const b = this.data[this.at++];
    const major = b >> 5;
    const ai = b & 0x1f;
    const dv = new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
    let arg: number | bigint = ai;
    switch (ai) {
      case 24:
        this.need(1);
        arg = this.data[this.at++];
        if (major === 7 && arg < 32) throw wellformed(`cbor: invalid simple value ${arg} for type primitives`);
        break;
      case 25:
        this.need(2);
        arg = dv.getUint16(this.at);
        this.at += 2;
        break;
      case 26:
        this.need(4);
        arg = dv.getUint32(this.at);
        this.at += 4;
        break;
      case 27: {
        this.need(8);
        const big = dv.getBigUint64(this.at);
        this.at += 8;
        arg = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
        break;
      }
      case 28:
      case 29:
      case 30:
        throw wellformed(`cbor: invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
      case 31:
        if (major === 0 || major === 1 || major === 6) {
          throw wellformed(`cbor: invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
        }
        if (major === 7) throw wellformed('cbor: unexpected "break" code');
        break;
    }
    return { major, ai, arg };
  }

  /** The length of the tag head at `at`. */
  private tagHeadLength(at: number): number {
    const ai = this.data[at] & 0x1f;
    return ai < 24 ? 1 : ai === 24 ? 2 : ai === 25 ? 3 : ai === 26 ? 5 : 9;
  }

  private isBreak(): boolean {
    this.need(1);
    if (this.data[this.at] === 0xff) {
      this.at++;
      return true;
    }
    return false;
  }

  private length(arg: number | bigint, major: number): number {
    if (typeof arg === 'bigint' || arg > this.data.length) {
      if (major === 2 || major === 3) throw wellformed(UNEXPECTED_EOF);
    }
    return Number(arg);
  }

  private str(major: number, ai: number, arg: number | bigint): string {
    let bytes: Uint8Array;
    if (ai === 31) {
      const chunks: Uint8Array[] = [];
      while (!this.isBreak()) {
        const h = this.head();
        if (h.major !== major) throw wellformed(`cbor: wrong element type ${TYPE_NAMES[h.major]} for indefinite-length ${TYPE_NAMES[major]}`);
        if (h.ai === 31) throw wellformed(`cbor: indefinite-length ${TYPE_NAMES[major]} chunk is not definite-length`);
        chunks.push(this.definite(h.major, h.arg));
      }
      bytes = Buffer.concat(chunks);
    } else bytes = this.definite(major, arg);
    if (major === 2) {
      this.byteStrings++;
      return utf8.decode(bytes);
    }
    this.textStrings++;
    try {
      return utf8Strict.decode(bytes);
    } catch {
      this.valueError ??= new CborDecodeError('cbor: invalid UTF-8 string', 'value');
      return utf8.decode(bytes);
    }
  }

  private definite(major: number, arg: number | bigint): Uint8Array {
    const n = this.length(arg, major);
    this.need(n);
    const b = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  private int(negative: boolean, arg: number | bigint): unknown {
    if (!this.literal) {
      const n = Number(arg);
      return negative ? -1 - n : n;
    }
    if (typeof arg === 'bigint') {
      const v = negative ? -1n - arg : arg;
      return new JsonNumber(v.toString(), Number(v));
    }
    const v = negative ? -1 - arg : arg;
    return new JsonNumber(String(v), v);
  }

  private float(v: number): unknown {
    if (Number.isNaN(v)) throw wellformed('cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN');
    if (!Number.isFinite(v)) throw wellformed('cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity');
    if (!this.literal) return v;
    // A float stays a float for the typed decoder (an integer field refuses it, as Go does).
    const raw = String(v);
    return new JsonNumber(/[.eE]/.test(raw) ? raw : `${raw}.0`, v);
  }

  item(depth: number, path: string): unknown {
    const { major, ai, arg } = this.head();
    switch (major) {
      case 0:
      case 1:
        return this.int(major === 1, arg);
      case 2:
      case 3:
        return this.str(major, ai, arg);
      case 4: {
        if (depth + 1 > MAX_NESTED_LEVELS) throw wellformed(`cbor: exceeded max nested level ${MAX_NESTED_LEVELS}`);
        const out: unknown[] = [];
        const indefinite = ai === 31;
        const n = indefinite ? Infinity : Number(arg);
        if (!indefinite && n > MAX_ARRAY_ELEMENTS) throw wellformed(`cbor: exceeded max number of elements ${MAX_ARRAY_ELEMENTS} for CBOR array`);
        for (let i = 0; indefinite ? !this.isBreak() : i < n; i++) {
          if (i >= MAX_ARRAY_ELEMENTS) throw wellformed(`cbor: exceeded max number of elements ${MAX_ARRAY_ELEMENTS} for CBOR array`);
          out.push(this.item(depth + 1, `${path}[${i}]`));
        }
        return out;
      }
      case 5: {
        if (depth + 1 > MAX_NESTED_LEVELS) throw wellformed(`cbor: exceeded max nested level ${MAX_NESTED_LEVELS}`);
        const out: Record<string, unknown> = {};
        const order: string[] = [];
        const indefinite = ai === 31;
        const n = indefinite ? Infinity : Number(arg);
        if (!indefinite && n > MAX_MAP_PAIRS) throw wellformed(`cbor: exceeded max number of key-value pairs ${MAX_MAP_PAIRS} for CBOR map`);
        let dup = false;
        for (let i = 0; indefinite ? !this.isBreak() : i < n; i++) {
          if (i >= MAX_MAP_PAIRS) throw wellformed(`cbor: exceeded max number of key-value pairs ${MAX_MAP_PAIRS} for CBOR map`);
          const kAt = this.at;
          const k = this.item(depth + 1, path);
          let key: string;
          if (typeof k === 'string') key = k;
          else {
            // The key's own type, under any tags.
            let t = kAt;
            while (this.data[t] >> 5 === 6) t += this.tagHeadLength(t);
            const type = TYPE_NAMES[this.data[t] >> 5];
            key = `${NON_STRING_KEY}${i}`;
            if (this.placeholders) this.nonStringKeys.push({ path, key, type });
            else this.valueError ??= new CborDecodeError(`cbor: cannot unmarshal ${type} into Go value of type string`, 'value');
          }
          if (indefinite && this.data[this.at] === 0xff) throw wellformed('cbor: unexpected "break" code');
          const v = this.item(depth + 1, path ? `${path}.${key}` : key);
          if (Object.prototype.hasOwnProperty.call(out, key)) {
            if (!dup) this.duplicates.push({ path, key, index: i });
            dup = true;
            continue;
          }
          order.push(key);
          // defineProperty: a "__proto__" key is data, not the prototype.
          Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
        }
        this.keyOrder.set(out, order);
        return out;
      }
      case 6: {
        if (depth + 1 > MAX_NESTED_LEVELS) throw wellformed(`cbor: exceeded max nested level ${MAX_NESTED_LEVELS}`);
        // Tags (55799 self-described, 22 expected base64, 0 date...) carry their content.
        return this.item(depth + 1, path);
      }
      default: {
        if (ai === 20) return false;
        if (ai === 21) return true;
        if (ai === 25) return this.float(float16(Number(arg)));
        if (ai === 26) {
          const b = Buffer.alloc(4);
          b.writeUInt32BE(Number(arg));
          return this.float(b.readFloatBE(0));
        }
        if (ai === 27) {
          const b = Buffer.alloc(8);
          b.writeBigUInt64BE(BigInt(arg));
          return this.float(b.readDoubleBE(0));
        }
        if (ai === 22) return null;
        // undefined and unassigned simple values are refused where they are decoded.
        const n = ai === 24 ? Number(arg) : ai;
        this.valueError ??= new CborDecodeError(`cbor: data item of cbor type primitives is not accepted by protocol: simple value ${n} is not recognized`, 'value');
        return null;
      }
    }
  }
}

/** Decodes one CBOR data item (the whole body). Throws CborDecodeError. */
export function decodeCbor(data: Uint8Array, opts: CborDecodeOptions = {}): CborDocument {
  if (data.length === 0) throw wellformed('EOF');
  const r = new Reader(data, opts.numbers === 'literal', opts.nonStringKeys === 'placeholder');
  const value = r.item(0, '');
  if (r.at < data.length) {
    throw wellformed(`cbor: ${data.length - r.at} bytes of extraneous data starting at index ${r.at}`);
  }
  if (r.valueError) throw r.valueError;
  return {
    value,
    duplicates: r.duplicates,
    keyOrder: r.keyOrder,
    nonStringKeys: r.nonStringKeys,
    textStrings: r.textStrings,
    byteStrings: r.byteStrings,
  };
}

/** Go's %v of a duplicate key inside fxamacker's message. */
export const duplicateKeyMessage = (d: CborDuplicate): string => `cbor: found duplicate map key "${d.key}" at map element index ${d.index}`;
