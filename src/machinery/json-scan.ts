// A JSON parser for request bodies that sees what JSON.parse hides: duplicate keys (with kube's
// field path, e.g. `spec.template.spec.containers[0].name`), the literal text of numbers whose
// value JSON.parse would round or reformat, and Go's encoding/json syntax error messages
// (`invalid character '}' looking for beginning of object key string`, `unexpected end of JSON
// input`, `invalid character '[' exceeded max depth`), including its 10,000 nesting limit.
//
// Iterative (no recursion), so the nesting limit cannot overflow the JS stack.

/** Go's encoding/json maxNestingDepth. */
import { goQuote, goQuoteChar } from './go-format.js';

export { goQuote };

export const MAX_JSON_DEPTH = 10_000;

/** A JSON syntax error, with Go's encoding/json message and the character offset. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * A number whose literal matters and is not recoverable from its JS value: it has a fraction or an
 * exponent, or more than 15 digits. Produced only with `numbers: 'literal'`; decodeTyped unwraps it.
 */
export class JsonNumber {
  constructor(
    readonly raw: string,
    readonly value: number,
  ) {}
  toJSON(): number {
    return this.value;
  }
  valueOf(): number {
    return this.value;
  }
}

/** A repeated key: where it is (kube's path) and where in its object it was seen. */
export interface JsonDuplicate {
  /** kube's path of the repeated field, e.g. `spec.paused`, `metadata.labels.app`, `items[0].name`. */
  path: string;
  key: string;
  /** The object holding the key (the parsed value's own object, for schema-aware filtering). */
  parent: Record<string, unknown>;
  /** How many distinct keys that object had when the repeat was read (its position among them). */
  index: number;
}

export interface JsonScanOptions {
  /** Default 10,000 (Go's limit). */
  maxDepth?: number;
  /** 'plain' (default): numbers are JS numbers; 'literal': JsonNumber for literals JS cannot keep exactly. */
  numbers?: 'plain' | 'literal';
  /**
   * What a repeated key whose values are both objects leaves: 'replace' (default; the last value,
   * as JSON.parse and Go's map[string]interface{}) or 'merge' (the second decoded into the first,
   * as Go does for struct and map targets).
   */
  duplicateObjects?: 'replace' | 'merge';
}

export interface JsonScanResult {
  value: unknown;
  /** In the order Go meets them (the second occurrence's position). */
  duplicates: JsonDuplicate[];
  /** Whether any JsonNumber was produced. */
  hasNumberLiterals: boolean;
}

const enum Ch {
  Tab = 9,
  Lf = 10,
  Cr = 13,
  Space = 32,
  Quote = 34,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  UpperE = 69,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  LowerE = 101,
  LBrace = 123,
  RBrace = 125,
}

const HEX: Record<number, number> = {};
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[65 + i] = 10 + i;
  HEX[97 + i] = 10 + i;
}

interface Frame {
  container: Record<string, unknown> | unknown[];
  isArray: boolean;
  /** Current key (objects). */
  key: string;
  /** Distinct keys so far (objects). */
  count: number;
  /** Keys seen in this occurrence, for an object merged into an earlier one. */
  seen: Set<string> | null;
}

/** Parses JSON text, reporting duplicate keys. Throws JsonSyntaxError with Go's message. */
export function scanJson(text: string, opts: JsonScanOptions = {}): JsonScanResult {
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  const literalNumbers = opts.numbers === 'literal';
  const merge = opts.duplicateObjects === 'merge';
  const len = text.length;
  const stack: Frame[] = [];
  const duplicates: JsonDuplicate[] = [];
  let hasNumberLiterals = false;
  let pos = 0;
  let value: unknown;
  /** An earlier object the next object value is merged into. */
  let mergeTarget: Record<string, unknown> | null = null;

  const fail = (at: number, context: string): never => {
    if (at >= len) throw new JsonSyntaxError('unexpected end of JSON input', len);
    throw new JsonSyntaxError(`invalid character ${goQuoteChar(text, at)} ${context}`, at);
  };

  const skipWs = (p: number): number => {
    while (p < len) {
      const c = text.charCodeAt(p);
      if (c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab) p++;
      else break;
    }
    return p;
  };

  /** Reads a string whose opening quote is at `p - 1`; sets pos past the closing quote. */
  const readString = (p: number): string => {
    const start = p;
    for (;;) {
      if (p >= len) fail(p, '');
      const c = text.charCodeAt(p);
      if (c === Ch.Quote) {
        pos = p + 1;
        return text.slice(start, p);
      }
      if (c === Ch.Backslash) return readEscapedString(start, p);
      if (c < 0x20) fail(p, 'in string literal');
      p++;
    }
  };

  const hex4 = (p: number): number => {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      if (p + k >= len) fail(p + k, '');
      const h = HEX[text.charCodeAt(p + k)];
      if (h === undefined) fail(p + k, 'in \\u hexadecimal character escape');
      v = v * 16 + h;
    }
    return v;
  };

  const readEscapedString = (start: number, p: number): string => {
    let out = text.slice(start, p);
    for (;;) {
      if (p >= len) fail(p, '');
      let c = text.charCodeAt(p);
      if (c === Ch.Quote) {
        pos = p + 1;
        return out;
      }
      if (c < 0x20) fail(p, 'in string literal');
      if (c !== Ch.Backslash) {
        const runStart = p;
        while (p < len) {
          c = text.charCodeAt(p);
          if (c === Ch.Quote || c === Ch.Backslash || c < 0x20) break;
          p++;
        }
        out += text.slice(runStart, p);
        continue;
      }
      p++;
      if (p >= len) fail(p, '');
      c = text.charCodeAt(p);
      switch (c) {
        case Ch.Quote:
          out += '"';
          break;
        case Ch.Backslash:
          out += '\\';
          break;
        case 47:
          out += '/';
          break;
        case 98:
          out += '\b';
          break;
        case 102:
          out += '\f';
          break;
        case 110:
          out += '\n';
          break;
        case 114:
          out += '\r';
          break;
        case 116:
          out += '\t';
          break;
        case 117: {
          let cp = hex4(p + 1);
          p += 4;
          if (cp >= 0xd800 && cp <= 0xdfff) {
            // Go: a valid surrogate pair, else U+FFFD for this one.
            if (
              cp <= 0xdbff &&
              text.charCodeAt(p + 1) === Ch.Backslash &&
              text.charCodeAt(p + 2) === 117 &&
              p + 6 < len
            ) {
              let lo = -1;
              try {
                lo = hex4(p + 3);
              } catch {
                lo = -1;
              }
              if (lo >= 0xdc00 && lo <= 0xdfff) {
                out += String.fromCharCode(cp, lo);
                p += 6;
                break;
              }
            }
            cp = 0xfffd;
          }
          out += String.fromCharCode(cp);
          break;
        }
        default:
          fail(p, 'in string escape code');
      }
      p++;
    }
  };

  /** Reads a number starting at p; sets pos after it. */
  const readNumber = (p: number): unknown => {
    const start = p;
    let c = text.charCodeAt(p);
    let simple = true;
    let n = 0;
    let negative = false;
    if (c === Ch.Minus) {
      negative = true;
      p++;
      if (p >= len) fail(p, '');
      c = text.charCodeAt(p);
      if (c < Ch.Zero || c > Ch.Nine) fail(p, 'in numeric literal');
    }
    if (c === Ch.Zero) p++;
    else {
      while (p < len) {
        c = text.charCodeAt(p);
        if (c < Ch.Zero || c > Ch.Nine) break;
        n = n * 10 + (c - Ch.Zero);
        p++;
      }
    }
    if (p < len && text.charCodeAt(p) === Ch.Dot) {
      simple = false;
      p++;
      if (p >= len) fail(p, '');
      c = text.charCodeAt(p);
      if (c < Ch.Zero || c > Ch.Nine) fail(p, 'after decimal point in numeric literal');
      while (p < len && (c = text.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) p++;
    }
    if (p < len && ((c = text.charCodeAt(p)) === Ch.LowerE || c === Ch.UpperE)) {
      simple = false;
      p++;
      if (p >= len) fail(p, '');
      c = text.charCodeAt(p);
      if (c === Ch.Plus || c === Ch.Minus) {
        p++;
        if (p >= len) fail(p, '');
        c = text.charCodeAt(p);
      }
      if (c < Ch.Zero || c > Ch.Nine) fail(p, 'in exponent of numeric literal');
      while (p < len && (c = text.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) p++;
    }
    pos = p;
    if (simple && p - start <= 15) return negative ? -n : n;
    const raw = text.slice(start, p);
    const v = Number(raw);
    if (!literalNumbers) return v;
    hasNumberLiterals = true;
    return new JsonNumber(raw, v);
  };

  const literal = (p: number, word: string, v: unknown): unknown => {
    for (let k = 1; k < word.length; k++) {
      if (p + k >= len) fail(p + k, '');
      if (text.charCodeAt(p + k) !== word.charCodeAt(k)) fail(p + k, `in literal ${word} (expecting '${word[k]}')`);
    }
    pos = p + word.length;
    return v;
  };

  const pathOf = (key: string): string => {
    let path = '';
    for (const f of stack) {
      if (f.isArray) path += `[${(f.container as unknown[]).length}]`;
      else path += path === '' ? f.key : `.${f.key}`;
    }
    // The frame of the object holding `key` is the last one, whose current key is `key`.
    return path === '' ? key : path;
  };

  /** Reads `"key":` at p (the opening quote); records a repeat; leaves pos at the value. */
  const readKey = (f: Frame, p: number): void => {
    const key = readString(p + 1);
    let q = skipWs(pos);
    if (q >= len || text.charCodeAt(q) !== Ch.Colon) fail(q, 'after object key');
    q = skipWs(q + 1);
    pos = q;
    const obj = f.container as Record<string, unknown>;
    let repeated: boolean;
    let present: boolean;
    if (f.seen) {
      repeated = f.seen.has(key);
      f.seen.add(key);
      present = Object.hasOwn(obj, key);
    } else {
      const prev = obj[key];
      present =
        key === '__proto__' ? Object.hasOwn(obj, key) : prev !== undefined && typeof prev !== 'function';
      repeated = present;
    }
    f.key = key;
    if (repeated) {
      duplicates.push({ path: pathOf(key), key, parent: obj, index: f.count });
    } else if (!present) f.count++;
    if (merge && present && q < len && text.charCodeAt(q) === Ch.LBrace) {
      const prev = obj[key];
      if (prev !== null && typeof prev === 'object' && !Array.isArray(prev) && !(prev instanceof JsonNumber)) {
        mergeTarget = prev as Record<string, unknown>;
      }
    }
  };

  const assign = (obj: Record<string, unknown>, key: string, v: unknown): void => {
    if (key === '__proto__') Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
    else obj[key] = v;
  };

  pos = skipWs(0);
  for (;;) {
    // A value starts at pos.
    if (pos >= len) fail(pos, '');
    let c = text.charCodeAt(pos);
    let complete = true;
    switch (c) {
      case Ch.LBrace: {
        if (stack.length + 1 > maxDepth) fail(pos, 'exceeded max depth');
        const target = mergeTarget;
        mergeTarget = null;
        const p = skipWs(pos + 1);
        if (p >= len) fail(p, '');
        c = text.charCodeAt(p);
        if (c === Ch.RBrace) {
          pos = p + 1;
          value = target ?? {};
          break;
        }
        if (c !== Ch.Quote) fail(p, 'looking for beginning of object key string');
        const f: Frame = {
          container: target ?? {},
          isArray: false,
          key: '',
          count: target ? Object.keys(target).length : 0,
          seen: target ? new Set<string>() : null,
        };
        stack.push(f);
        readKey(f, p);
        complete = false;
        break;
      }
      case Ch.LBracket: {
        if (stack.length + 1 > maxDepth) fail(pos, 'exceeded max depth');
        mergeTarget = null;
        const p = skipWs(pos + 1);
        if (p >= len) fail(p, '');
        if (text.charCodeAt(p) === Ch.RBracket) {
          pos = p + 1;
          value = [];
          break;
        }
        stack.push({ container: [], isArray: true, key: '', count: 0, seen: null });
        pos = p;
        complete = false;
        break;
      }
      case Ch.Quote:
        value = readString(pos + 1);
        break;
      case 116:
        value = literal(pos, 'true', true);
        break;
      case 102:
        value = literal(pos, 'false', false);
        break;
      case 110:
        value = literal(pos, 'null', null);
        break;
      default:
        if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) value = readNumber(pos);
        else fail(pos, 'looking for beginning of value');
    }
    if (!complete) continue;

    // `value` is complete: store it, then close containers until one wants another value.
    for (;;) {
      const f = stack[stack.length - 1];
      if (f === undefined) {
        pos = skipWs(pos);
        if (pos < len) fail(pos, 'after top-level value');
        return { value, duplicates, hasNumberLiterals };
      }
      pos = skipWs(pos);
      if (f.isArray) {
        (f.container as unknown[]).push(value);
        if (pos >= len) fail(pos, '');
        c = text.charCodeAt(pos);
        if (c === Ch.Comma) {
          pos = skipWs(pos + 1);
          break;
        }
        if (c !== Ch.RBracket) fail(pos, 'after array element');
      } else {
        assign(f.container as Record<string, unknown>, f.key, value);
        if (pos >= len) fail(pos, '');
        c = text.charCodeAt(pos);
        if (c === Ch.Comma) {
          const p = skipWs(pos + 1);
          if (p >= len || text.charCodeAt(p) !== Ch.Quote) fail(p, 'looking for beginning of object key string');
          readKey(f, p);
          break;
        }
        if (c !== Ch.RBrace) fail(pos, 'after object key:value pair');
      }
      pos++;
      value = f.container;
      stack.pop();
    }
  }
}
