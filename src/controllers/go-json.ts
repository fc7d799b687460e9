// encoding/json's Marshal of decoded JSON (map[string]interface{} and friends), for bytes
// kube's controllers hash or store: object keys sorted, and strings escaped as Go escapes
// them (<, >, & as \u003c, \u003e, \u0026; U+2028 and U+2029; \b, \f, \n, \r, \t; other
// control characters as \u00xx). Numbers print as JavaScript prints them, which for the
// float64s json.Unmarshal makes is what Go prints too.

const HEX = '0123456789abcdef';

function goQuote(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      switch (c) {
        case 0x22:
          esc = '\\"';
          break;
        case 0x5c:
          esc = '\\\\';
          break;
        case 0x08:
          esc = '\\b';
          break;
        case 0x0c:
          esc = '\\f';
          break;
        case 0x0a:
          esc = '\\n';
          break;
        case 0x0d:
          esc = '\\r';
          break;
        case 0x09:
          esc = '\\t';
          break;
        default:
          esc = c >= 0x2028 ? `\\u${c.toString(16)}` : `\\u00${HEX[c >> 4]}${HEX[c & 0xf]}`;
      }
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is invalid UTF-8 to Go: it writes U+FFFD.
      const hi = c <= 0xdbff;
      const next = s.charCodeAt(i + 1);
      if (hi && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = '\ufffd';
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

const ASCII = /^[\x00-\x7f]*$/;

/** Go's string order (bytes of UTF-8); JavaScript's order agrees for ASCII. */
const byteOrder = (a: string, b: string): number => {
  if (ASCII.test(a) && ASCII.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
};

/** json.Marshal of a value decoded from JSON. */
export function goMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v)) return `[${v.map(goMarshal).join(',')}]`;
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).filter((k) => o[k] !== undefined);
      keys.sort(byteOrder);
      return `{${keys.map((k) => `${goQuote(k)}:${goMarshal(o[k])}`).join(',')}}`;
    }
    default:
      return 'null';
  }
}
