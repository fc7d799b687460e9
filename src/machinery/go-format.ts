// Go's formatting, as kube's messages show it: strconv.Quote, encoding/json's quoteChar, string
// ordering over UTF-8 bytes, strconv's integer parsing and utilerrors' aggregates, fmt's %v
// and %#v of decoded values.


/** Go's quoteChar: how encoding/json names the offending byte. */
export function goQuoteChar(text: string, at: number): string {
  let c = text.charCodeAt(at);
  if (c >= 0x80) {
    // Go sees bytes: name the first byte of the UTF-8 sequence, as a Latin-1 rune.
    const cp = text.codePointAt(at) ?? c;
    c = cp < 0x800 ? 0xc0 | (cp >> 6) : cp < 0x10000 ? 0xe0 | (cp >> 12) : 0xf0 | (cp >> 18);
    return `'${String.fromCharCode(c)}'`;
  }
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  return `'${goQuoteRune(c)}'`;
}

export function goQuoteRune(c: number): string {
  switch (c) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
    case 0x5c:
      return '\\\\';
  }
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  return String.fromCharCode(c);
}

/** Go's strconv.Quote for a string (used for field paths and keys in kube's messages). */
export function goQuote(s: string): string {
  let simple = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) {
      simple = false;
      break;
    }
  }
  if (simple) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x22) out += '\\"';
    else if (cp < 0x80) out += goQuoteRune(cp);
    else if (cp === 0xfffd || isGoPrintable(cp)) out += ch;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

function isGoPrintable(cp: number): boolean {
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]$/u.test(String.fromCodePoint(cp));
}

/** Go string ordering (bytewise over UTF-8, i.e. code-point order). */
export function goCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Only surrogate vs. U+E000..U+FFFF disagrees between UTF-16 and code-point order.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca < cb ? -1 : 1;
  }
  return a.length - b.length;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64); undefined when Go would return an error. */
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/** strconv.ParseInt(s, 10, 64) as a number; throws an Error with Go's text. */
export function strconvParseInt(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new Error(`strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`);
  const v = parseInt64(s);
  if (v === undefined) throw new Error(`strconv.ParseInt: parsing ${goQuote(s)}: value out of range`);
  return Number(v);
}

const TRUE_STRINGS = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_STRINGS = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);

/** strconv.ParseBool; undefined when Go would return an error. */
export function parseBool(s: string): boolean | undefined {
  if (TRUE_STRINGS.has(s)) return true;
  if (FALSE_STRINGS.has(s)) return false;
  return undefined;
}

/** strconv.ParseBool; throws an Error with Go's text. */
export function strconvParseBool(s: string): boolean {
  const b = parseBool(s);
  if (b === undefined) throw new Error(`strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax`);
  return b;
}

/** Renders a Go utilerrors aggregate of (already deduplicated) messages. */
export function aggregate(msgs: string[]): string {
  const seen: string[] = [];
  for (const m of msgs) if (!seen.includes(m)) seen.push(m);
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

let fakeAddress = 0xc000010000;

/**
 * Go's %#v of a pointer field inside a struct: `(*T)(nil)`, or `(*T)(0x…)` with an address
 * (kube prints the pointer's address, which says nothing; a made-up one stands in for it).
 */
export function goPointerValue(type: string, present: boolean): string {
  if (!present) return `(*${type})(nil)`;
  fakeAddress = fakeAddress >= 0xc0000fffe0 ? 0xc000010000 : fakeAddress + 0x20;
  return `(*${type})(0x${fakeAddress.toString(16)})`;
}

/**
 * json-scan's JsonNumber (a number kept with its literal), told by shape: json-scan formats its
 * messages with this module, so this module cannot import it.
 */
interface JsonNumber {
  raw: string;
  value: number;
}

function isJsonNumber(x: unknown): x is JsonNumber {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && Object.getPrototypeOf(x) !== Object.prototype && typeof (x as JsonNumber).raw === 'string' && typeof (x as JsonNumber).value === 'number';
}

/** A decoded number as Go prints an int64 or a float64 (%v and %#v alike: strconv's shortest 'g', exponents from 1e21 and below 1e-4). */
function goNumber(v: number | JsonNumber): string {
  const raw = isJsonNumber(v) ? v.raw : String(v);
  if (/^-?[0-9]+$/.test(raw)) return raw.replace(/^-0$/, '0');
  const n = isJsonNumber(v) ? v.value : v;
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    const [m, e] = n.toExponential().split('e');
    const sign = e.startsWith('-') ? '-' : '+';
    return `${m}e${sign}${e.replace(/^[-+]/, '').padStart(2, '0')}`;
  }
  return String(n);
}

/**
 * Go's %#v of a decoded JSON (or YAML: `mapType`) value, built without recursion (values nest
 * 10,000 deep).
 */
export function goSharpV(v: unknown, mapType = 'map[string]interface {}'): string {
  return goPrint(v, (x) => (typeof x === 'string' ? goQuote(x) : undefined), `${mapType}{`, '[]interface {}{', ':', ', ', '}', 'interface {}(nil)', true);
}

/** Go's %v of a decoded JSON value. */
export function goPlainV(v: unknown): string {
  return goPrint(v, (x) => (typeof x === 'string' ? x : undefined), 'map[', '[', ':', ' ', ']', '<nil>', false);
}

function goPrint(v: unknown, str: (x: unknown) => string | undefined, mapOpen: string, listOpen: string, colon: string, sep: string, close: string, nil: string, quoteKeys: boolean): string {
  const out: string[] = [];
  const todo: unknown[] = [v];
  const lit = (t: string) => ({ lit: t });
  while (todo.length > 0) {
    const x = todo.pop();
    if (x !== null && typeof x === 'object' && LITS.has(x)) {
      out.push((x as { lit: string }).lit);
      continue;
    }
    const s = str(x);
    if (s !== undefined) out.push(s);
    else if (x === null || x === undefined) out.push(nil);
    else if (typeof x === 'boolean') out.push(String(x));
    else if (typeof x === 'number' || isJsonNumber(x)) out.push(goNumber(x));
    else if (Array.isArray(x)) {
      const parts: unknown[] = [mark(lit(listOpen))];
      x.forEach((e, i) => parts.push(...(i > 0 ? [mark(lit(sep))] : []), e));
      parts.push(mark(lit(close)));
      for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
    } else {
      const o = x as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      const parts: unknown[] = [mark(lit(mapOpen))];
      keys.forEach((k, i) => parts.push(...(i > 0 ? [mark(lit(sep))] : []), mark(lit(`${quoteKeys ? goQuote(k) : k}${colon}`)), o[k]));
      parts.push(mark(lit(close)));
      for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]);
    }
  }
  return out.join('');
}

/** The literal pieces goPrint pushes, told apart from data that happens to look like them. */
const LITS = new WeakSet<object>();
function mark<T extends object>(o: T): T {
  LITS.add(o);
  return o;
}
