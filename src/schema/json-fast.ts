// The common request body, parsed natively. JSON.parse is several times faster than the
// Go-faithful scanner (json-scan.ts) but hides what kube's decoder must see: repeated keys,
// number literals that a JS number cannot keep, nesting beyond Go's limit. One pass over the
// text outside its strings proves none of those is present; when it cannot, the caller
// falls back to the scanner, which also words syntax errors as Go does.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const ZERO = 0x30;
const NINE = 0x39;
const MINUS = 0x2d;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

/** Integers of up to 15 digits are exact as JS numbers (the scanner's own rule). */
const MAX_SIMPLE_DIGITS = 15;

/**
 * The number of object keys in `text` when every number in it is a plain integer of at most
 * 15 digits and nesting stays within `maxDepth`; -1 otherwise (or when the text is not
 * well-formed enough to tell). Outside strings, a colon only ever follows a key.
 */
function keysIfSimple(text: string, maxDepth: number): number {
  const len = text.length;
  let keys = 0;
  let depth = 0;
  let p = 0;
  while (p < len) {
    const c = text.charCodeAt(p);
    if (c === QUOTE) {
      let q = text.indexOf('"', p + 1);
      while (q !== -1 && escaped(text, q)) q = text.indexOf('"', q + 1);
      if (q === -1) return -1;
      p = q + 1;
      continue;
    }
    if (c === COLON) keys++;
    else if (c === LBRACE || c === LBRACKET) {
      if (++depth > maxDepth) return -1;
    } else if (c === RBRACE || c === RBRACKET) depth--;
    else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const start = c === MINUS ? p + 1 : p;
      p = start;
      while (p < len && (text.charCodeAt(p) >= ZERO && text.charCodeAt(p) <= NINE)) p++;
      if (p - start > MAX_SIMPLE_DIGITS) return -1;
      const d = text.charCodeAt(p);
      if (d === DOT || d === LOWER_E || d === UPPER_E) return -1;
      continue;
    }
    p++;
  }
  return keys;
}

/** Whether the quote at q is escaped: an odd run of backslashes before it. */
function escaped(text: string, q: number): boolean {
  let n = 0;
  while (text.charCodeAt(q - 1 - n) === BACKSLASH) n++;
  return (n & 1) === 1;
}

/** The number of keys of every object in a parsed value. */
function countKeys(root: unknown): number {
  let n = 0;
  const work: unknown[] = [root];
  while (work.length > 0) {
    const v = work.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const e of v) if (typeof e === 'object' && e !== null) work.push(e);
      continue;
    }
    for (const k in v) {
      n++;
      const e = (v as Record<string, unknown>)[k];
      if (typeof e === 'object' && e !== null) work.push(e);
    }
  }
  return n;
}

/**
 * `text` parsed, when the native parser's result is exactly what the scanner would give
 * (no repeated keys, numbers exact, depth within bounds); undefined when the scanner must
 * decide.
 */
export function parseJsonFast(text: string, maxDepth: number): { value: unknown } | undefined {
  // Go turns a lone surrogate escape into U+FFFD where JSON.parse keeps it: the scanner decides.
  if (text.includes('\\u')) return undefined;
  const keys = keysIfSimple(text, maxDepth);
  if (keys < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Fewer distinct keys than key tokens means a key was repeated somewhere.
  return countKeys(value) === keys ? { value } : undefined;
}
