// resource.Quantity: kube's fixed-point quantity syntax, parsed and canonicalized the way
// k8s.io/apimachinery/pkg/api/resource (quantity.go, suffix.go, amount.go) does it, so that a
// decoded object reads back exactly as kube-apiserver writes it ("1000m" -> "1", "0.5" -> "500m",
// "1024Mi" -> "1Gi", "1.5Gi" -> "1536Mi", while "1e3", "100m" and "1Gi" are kept as written).
//
// Arithmetic is exact (BigInt); nothing here goes through floating point except the
// informational `value`.

import { parseInt64 } from '../machinery/go-format.js';

export const QUANTITY_REGEXP = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** resource.ErrFormatWrong */
export const QUANTITY_FORMAT_MESSAGE = `quantities must match the regular expression '${QUANTITY_REGEXP}'`;
/** resource.ErrNumeric */
export const QUANTITY_NUMERIC_MESSAGE = 'unable to parse numeric part of quantity';
/** resource.ErrSuffix */
export const QUANTITY_SUFFIX_MESSAGE = "unable to parse quantity's suffix";

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export type ParsedQuantity =
  | { ok: true; canonical: string; value: number; format: QuantityFormat }
  | { ok: false; error: string };

export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map<number, string>(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map<number, string>(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));
const SUFFIX_CHARS = 'eEinumkKMGTP';

const INT64_MAX = (1n << 63n) - 1n;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

interface Split {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** The scanner of parseQuantityString: sign, numerator, denominator and suffix, or null (ErrFormatWrong). */
function split(str: string): Split | null {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (end > 0) {
    const c = str.charCodeAt(0);
    if (c === 45) {
      positive = false;
      pos++;
    } else if (c === 43) pos++;
  }
  // Leading zeros are dropped from the numerator; all zeros is "0".
  while (pos < end && str.charCodeAt(pos) === 48) pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str.charCodeAt(i))) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, value: str, num, denom: '', suffix: '' };
  pos = i;
  if (num === '') num = '0';
  let denom = '';
  if (str.charCodeAt(pos) === 46) {
    pos++;
    i = pos;
    while (i < end && isDigit(str.charCodeAt(i))) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  i = pos;
  while (i < end && SUFFIX_CHARS.includes(str[i])) i++;
  if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = i;
  const s = str.charCodeAt(pos);
  if (s === 45 || s === 43) pos++;
  for (i = pos; i < end; i++) if (!isDigit(str.charCodeAt(i))) return null;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | null {
  const dec = DECIMAL_SUFFIXES[suffix];
  if (dec !== undefined && Object.hasOwn(DECIMAL_SUFFIXES, suffix)) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES[suffix];
  if (bin !== undefined && Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'E' || suffix[0] === 'e')) {
    const parsed = parseInt64(suffix.slice(1));
    if (parsed === undefined) return null;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return null;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/** An exact amount: unscaled * 10^exp. */
interface Amount {
  unscaled: bigint;
  exp: number;
  format: QuantityFormat;
  /** The input string when kube keeps it as the canonical form (Quantity.s). */
  keep?: string;
  /** Parsed through inf.Dec (Quantity.d) rather than the int64 fast path (Quantity.i). */
  dec?: boolean;
}

function parseAmount(str: string): Amount | string {
  if (str.length === 0) return QUANTITY_FORMAT_MESSAGE;
  if (str === '0') return { unscaled: 0n, exp: 0, format: 'DecimalSI', keep: str };
  const parts = split(str);
  if (!parts) return QUANTITY_FORMAT_MESSAGE;
  const { positive, value, num, denom, suffix } = parts;
  const interp = interpretSuffix(suffix);
  if (!interp) return QUANTITY_SUFFIX_MESSAGE;
  const { base, exponent } = interp;
  let format = interp.format;

  // The int64 fast path, which also decides whether the input is kept verbatim.
  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc(Math.fround(exponent) * 3 / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const v = parseInt64(shifted);
      if (v === undefined) return QUANTITY_NUMERIC_MESSAGE;
      const product = v * mantissa;
      if (product <= INT64_MAX) {
        const result = positive ? product : -product;
        let keep: string | undefined;
        if (format === 'BinarySI') {
          if (exponent % 10 === 0 && (v & 7n) !== 0n) keep = str;
        } else if (scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') keep = str;
        return { unscaled: result, exp: scale, format, keep };
      }
    }
  }

  // The inf.Dec path: exact decimal, suffix applied, rounded up to nano, BinarySI capped.
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return QUANTITY_NUMERIC_MESSAGE;
  const frac = m[3] ?? '';
  let unscaled = BigInt((m[2] || '0') + frac);
  const negative = m[1] === '-' && unscaled !== 0n;
  let exp = -frac.length;
  if (base === 10) exp += exponent;
  else unscaled *= 1n << BigInt(exponent);
  if (unscaled !== 0n && exp < -9) {
    const div = pow10(-9 - exp);
    unscaled = (unscaled + div - 1n) / div;
    exp = -9;
  }
  if (format === 'BinarySI') {
    const max = INT64_MAX;
    if (exp >= 0 ? unscaled * pow10(exp) > max : unscaled > max * pow10(-exp)) {
      unscaled = max;
      exp = 0;
    }
    if (unscaled !== 0n && (exp >= 0 ? false : unscaled < pow10(-exp))) format = 'DecimalSI';
  }
  return { unscaled: negative ? -unscaled : unscaled, exp, format, dec: true };
}

/** Quantity.String(): the canonical form. */
function canonicalize(a: Amount): string {
  if (a.keep !== undefined) return a.keep;
  const unscaled = a.unscaled;
  let exp = a.exp;
  if (unscaled === 0n) return '0';
  let format = a.format;
  if (format === 'BinarySI') {
    const magnitude = abs(unscaled);
    const below1024 = exp >= 0 ? magnitude * pow10(exp) < 1024n : magnitude < 1024n * pow10(-exp);
    if (below1024) format = 'DecimalSI';
    else if (exp < 0 && unscaled % pow10(-exp) !== 0n) format = 'DecimalSI';
    else {
      let n = exp >= 0 ? unscaled * pow10(exp) : unscaled / pow10(-exp);
      let times = 0;
      const negative = n < 0n;
      if (negative) n = -n;
      while (n >= 1024n && n % 1024n === 0n) {
        n /= 1024n;
        times++;
      }
      return `${negative ? -n : n}${BINARY_BY_EXPONENT.get(times * 10) ?? ''}`;
    }
  }
  // Decimal: all factors of ten into the exponent, then down to a multiple of three.
  let n = unscaled < 0n ? -unscaled : unscaled;
  while (n >= 10n && n % 10n === 0n) {
    n /= 10n;
    exp++;
  }
  while (((exp % 3) + 3) % 3 !== 0) {
    n *= 10n;
    exp--;
  }
  const digits = `${unscaled < 0n ? '-' : ''}${n}`;
  if (format === 'DecimalExponent') return exp === 0 ? digits : `${digits}e${exp}`;
  // kube emits no suffix when the exponent is outside the decimal SI table.
  return digits + (DECIMAL_BY_EXPONENT.get(exp) ?? '');
}

/**
 * The text each quantity of a decoded resource list was written as, where it differs from the
 * canonical form the list now holds (schema/decode.ts records it): Go's Quantity remembers how
 * it was parsed (mantissa and scale), which validation messages print with %#v.
 */
const QUANTITY_SOURCES = new WeakMap<object, Map<string, string>>();

export function recordQuantitySource(list: object, key: string, text: string): void {
  let m = QUANTITY_SOURCES.get(list);
  if (!m) QUANTITY_SOURCES.set(list, (m = new Map()));
  m.set(key, text);
}

/** A copy of a resource list, quantities and how they were written (Quantity.DeepCopy keeps both). */
export function copyQuantityList(list: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(list);
  const m = QUANTITY_SOURCES.get(list);
  if (m) QUANTITY_SOURCES.set(copy, new Map(m));
  return copy;
}

/** The quantity `list[key]` as its request wrote it (when known), else as the list holds it. */
function quantitySource(list: Record<string, unknown>, key: string): unknown {
  return QUANTITY_SOURCES.get(list)?.get(key) ?? list[key];
}

/**
 * Go's %#v of a defaulted resource list's quantity `list[key]`, as validation messages print it:
 * parsed from what the request wrote, then rounded up to milli as defaulting does.
 */
export function listQuantityGoSharpV(list: Record<string, unknown>, key: string): string | undefined {
  return quantityGoSharpV(quantitySource(list, key), { roundUpMilli: true });
}

/**
 * Go's %#v of the resource.Quantity that ParseQuantity makes of `v` (a JSON quantity: string or
 * number), as validation messages print a Quantity value (it has String() only on the pointer,
 * so fmt falls back to the struct): the int64 mantissa and scale of its fast path, or a
 * pointer to the inf.Dec it fell back to; the string it keeps when the input was already
 * canonical; the format. `roundUpMilli`: after SetDefaults_ResourceList's RoundUp(Milli), which
 * every defaulted resource list has been through (a finer int64 amount is rounded away from
 * zero, and either kind forgets its string). Undefined when `v` does not parse.
 */
export function quantityGoSharpV(v: unknown, opts: { roundUpMilli?: boolean } = {}): string | undefined {
  const text = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? goFloatString(v) : undefined;
  if (text === undefined) return undefined;
  const a = parseAmount(text);
  if (typeof a === 'string') return undefined;
  let value = a.dec ? 0n : a.unscaled;
  let scale = a.dec ? 0 : a.exp;
  let cached = a.keep ?? '';
  if (opts.roundUpMilli) {
    if (a.dec) cached = '';
    else if (scale < -3) {
      const div = pow10(-3 - scale);
      const q = value / div;
      value = value % div === 0n ? q : value < 0n ? q - 1n : q + 1n;
      scale = -3;
      cached = '';
    }
  }
  // The pointer's address is the process's; fixtures mask it.
  const dec = a.dec ? '(*inf.Dec)(0xc000a1b2c0)' : '(*inf.Dec)(nil)';
  return `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:${dec}}, s:${JSON.stringify(cached)}, Format:${JSON.stringify(a.format)}}`;
}

/** A whole number with no suffix below milli: already at milli precision, no parse needed. */
const WHOLE_AT_LEAST_MILLI = /^[0-9]+(?:[mkMGTPE]|[KMGTPE]i)?$/;

/**
 * Quantity.RoundUp(resource.Milli), then String(): what kube's SetDefaults_ResourceList does
 * to every value of a resource list. A quantity already at milli precision or coarser keeps
 * its text (kube keeps the string then); a finer one is rounded away from zero and written
 * in canonical form. Input that does not parse is returned as it is.
 */
export function roundQuantityUpToMilli(q: string): string {
  // The common case, decided without a parse.
  if (WHOLE_AT_LEAST_MILLI.test(q)) return q;
  const a = parseAmount(q);
  if (typeof a === 'string' || a.exp >= -3) return q;
  const div = pow10(-3 - a.exp);
  let milli = a.unscaled / div;
  if (a.unscaled % div !== 0n) milli += a.unscaled < 0n ? -1n : 1n;
  return canonicalize({ unscaled: milli, exp: -3, format: a.format });
}

const cache = new Map<string, ParsedQuantity>();
const CACHE_LIMIT = 2048;

/** resource.ParseQuantity + Quantity.String(). */
export function parseQuantity(s: string): ParsedQuantity {
  const hit = cache.get(s);
  if (hit) return hit;
  const a = parseAmount(s);
  let result: ParsedQuantity;
  if (typeof a === 'string') result = { ok: false, error: a };
  else {
    const canonical = canonicalize(a);
    result = { ok: true, canonical, value: Number(`${a.unscaled}e${a.exp}`), format: a.format };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(s, result);
  return result;
}

/** The canonical form kube stores and returns; throws QuantityError with kube's message when invalid. */
export function canonicalQuantity(s: string | number): string {
  const r = parseQuantity(typeof s === 'number' ? goFloatString(s) : s);
  if (!r.ok) throw new QuantityError(r.error);
  return r.canonical;
}

/** How Go's encoding/json writes a float64 (what a YAML number becomes before kube decodes it). */
export function goFloatString(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return Object.is(n, -0) ? '-0' : String(n);
  return String(n);
}

// ---- quantities as validation compares them (their numeric value) ----

/** A parsed quantity: its canonical text and its value (a float, for comparisons). */
export interface Qty {
  canonical: string;
  value: number;
  isZero: boolean;
  add(o: Qty): Qty;
}

const mkQty = (canonical: string, value: number): Qty => ({
  canonical,
  value,
  isZero: value === 0,
  add: (o) => mkQty('', value + o.value),
});

/** A quantity from its JSON form (string or number), or undefined when it does not parse. */
export function qty(v: unknown): Qty | undefined {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' && Number.isFinite(v)) s = goFloatString(v);
  else return undefined;
  const r = parseQuantity(s);
  return r.ok ? mkQty(r.canonical, r.value) : undefined;
}

/** The canonical form of a JSON quantity, or the input unchanged when it does not parse. */
export function canonicalQty(v: unknown): unknown {
  const q = qty(v);
  return q ? q.canonical : v;
}

/** Compares two quantities (relative tolerance for float rounding of sums). */
export function cmpQty(a: Qty, b: Qty): number {
  const d = a.value - b.value;
  if (Math.abs(d) <= 1e-12 * Math.max(Math.abs(a.value), Math.abs(b.value))) return 0;
  return d < 0 ? -1 : 1;
}

export const isQtyNegative = (q: Qty): boolean => q.value < 0;
export const isQtyPositive = (q: Qty): boolean => q.value > 0;

/** MilliValue() % 1000 == 0 (MilliValue rounds up). */
export function milliIsWhole(q: Qty): boolean {
  const m = q.value * 1000;
  const r = Math.round(m);
  const milli = Math.abs(m - r) <= 1e-9 * Math.max(1, Math.abs(m)) ? r : Math.ceil(m);
  return milli % 1000 === 0;
}
