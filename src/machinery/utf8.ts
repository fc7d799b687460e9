// Text out of request bytes as Go reads it. Go's decoders (encoding/json's string literals,
// strings converted for messages) replace each byte that does not start a valid UTF-8
// sequence with U+FFFD, one per byte; TextDecoder replaces a truncated sequence with one
// U+FFFD, so a body with invalid bytes would read differently from kube. goyaml.v2 refuses
// such a body outright, with its reader's words.

import { isUtf8 } from 'node:buffer';

const REPLACEMENT = 0xfffd;

/** The length and code point of the UTF-8 sequence at `i`, or undefined when Go's utf8.DecodeRune would see RuneError of width 1. */
function sequenceAt(b: Uint8Array, i: number): { width: number; cp: number } | undefined {
  const c = b[i];
  if (c < 0x80) return { width: 1, cp: c };
  let width: number;
  let cp: number;
  let min: number;
  if (c >= 0xc2 && c <= 0xdf) {
    width = 2;
    cp = c & 0x1f;
    min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    width = 3;
    cp = c & 0x0f;
    min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    width = 4;
    cp = c & 0x07;
    min = 0x10000;
  } else return undefined;
  if (i + width > b.length) return undefined;
  for (let k = 1; k < width; k++) {
    const t = b[i + k];
    if ((t & 0xc0) !== 0x80) return undefined;
    cp = (cp << 6) | (t & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return { width, cp };
}

/** The bytes as a string, each invalid byte one U+FFFD (Go's conversion of bytes to runes). */
export function goDecodeUtf8(buf: Uint8Array): string {
  if (isUtf8(buf)) return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
  const parts: string[] = [];
  const cps: number[] = [];
  for (let i = 0; i < buf.length; ) {
    const s = sequenceAt(buf, i);
    if (s) {
      cps.push(s.cp);
      i += s.width;
    } else {
      cps.push(REPLACEMENT);
      i += 1;
    }
    if (cps.length >= 8192) parts.push(String.fromCodePoint(...cps.splice(0)));
  }
  parts.push(String.fromCodePoint(...cps));
  return parts.join('');
}

/**
 * What goyaml.v2's reader refuses in a YAML body, in its words (`invalid leading UTF-8
 * octet`, `invalid trailing UTF-8 octet`, `incomplete UTF-8 octet sequence`, `invalid length
 * of a UTF-8 sequence`, `invalid Unicode character`, `control characters are not allowed`),
 * or undefined. A UTF-8 byte order mark at the start is skipped, as the reader does.
 */
export function yamlReaderError(b: Uint8Array): string | undefined {
  return yamlReaderFault(b)?.error;
}

/** The characters goyaml.v2's reader lets through, whichever encoding they came in. */
function yamlAllows(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** yamlReaderError, with the offset of the first byte refused. */
function yamlReaderFault(b: Uint8Array): { error: string; at: number } | undefined {
  let i = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  const fail = (error: string) => ({ error, at: i });
  while (i < b.length) {
    const c = b[i];
    let width: number;
    let cp: number;
    if ((c & 0x80) === 0) {
      width = 1;
      cp = c;
    } else if ((c & 0xe0) === 0xc0) {
      width = 2;
      cp = c & 0x1f;
    } else if ((c & 0xf0) === 0xe0) {
      width = 3;
      cp = c & 0x0f;
    } else if ((c & 0xf8) === 0xf0) {
      width = 4;
      cp = c & 0x07;
    } else return fail('invalid leading UTF-8 octet');
    if (i + width > b.length) return fail('incomplete UTF-8 octet sequence');
    for (let k = 1; k < width; k++) {
      const t = b[i + k];
      if ((t & 0xc0) !== 0x80) return fail('invalid trailing UTF-8 octet');
      cp = (cp << 6) + (t & 0x3f);
    }
    if ((width === 2 && cp < 0x80) || (width === 3 && cp < 0x800) || (width === 4 && cp < 0x10000)) return fail('invalid length of a UTF-8 sequence');
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return fail('invalid Unicode character');
    if (!yamlAllows(cp)) return fail('control characters are not allowed');
    i += width;
  }
  return undefined;
}

/**
 * A YAML body as goyaml.v2's reader reads it: UTF-16 when it starts with that byte order mark
 * (little- or big-endian), else UTF-8; the reader's error in its words when it refuses the bytes.
 */
export function yamlBodyText(b: Buffer): { text: string; fault?: ReaderFault } | { error: string } {
  const le = b.length >= 2 && b[0] === 0xff && b[1] === 0xfe;
  const be = b.length >= 2 && b[0] === 0xfe && b[1] === 0xff;
  if (!le && !be) {
    const fault = yamlReaderFault(b);
    if (fault === undefined) return { text: b.toString('utf8') };
    // The reader decodes 512 bytes at a time as the scanner needs them: what lies in the
    // chunks before the refused byte is read (and may fail first, or end the document).
    const chunk = fault.at - (fault.at % READER_CHUNK);
    if (chunk === 0) return { error: fault.error };
    let end = chunk;
    while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
    const bom = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    const limit = countCodePoints(b.toString('utf8', bom, end));
    return { text: b.toString('utf8'), fault: { error: fault.error, limit } };
  }
  const unit = (i: number): number => (le ? b[i] + (b[i + 1] << 8) : (b[i] << 8) + b[i + 1]);
  const out: string[] = [];
  for (let i = 2; i < b.length; ) {
    if (i + 2 > b.length) return { error: 'incomplete UTF-16 character' };
    let cp = unit(i);
    if ((cp & 0xfc00) === 0xdc00) return { error: 'unexpected low surrogate area' };
    if ((cp & 0xfc00) === 0xd800) {
      if (i + 4 > b.length) return { error: 'incomplete UTF-16 surrogate pair' };
      const lo = unit(i + 2);
      if ((lo & 0xfc00) !== 0xdc00) return { error: 'expected low surrogate area' };
      cp = 0x10000 + ((cp & 0x3ff) << 10) + (lo & 0x3ff);
      i += 4;
    } else i += 2;
    if (!yamlAllows(cp)) return { error: 'control characters are not allowed' };
    out.push(String.fromCodePoint(cp));
  }
  return { text: out.join('') };
}

/** goyaml.v2's raw input buffer: how many bytes its reader decodes at a time. */
const READER_CHUNK = 512;

/** A reader error beyond the first chunk: the characters read before it (after any BOM), and its words. */
export interface ReaderFault {
  error: string;
  limit: number;
}

function countCodePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}
