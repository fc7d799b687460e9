// The list continue token, in kube's wire form (k8s.io/apiserver/pkg/storage/continue.go):
// base64url without padding of {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key suffix>"}.
// The start key is relative to the list's key prefix; a token for "the page after key k"
// starts at `k\u0000`. A negative rv (only minted in a 410's fresh token) means "continue
// at the latest revision"; rv 0 is invalid.

import { badRequest } from './errors.js';
import { JsonNumber, JsonSyntaxError, scanJson } from './json-scan.js';

export interface ContinueToken {
  /** The snapshot revision; negative: the latest revision (an inconsistent continuation). */
  rv: number;
  /** The key suffix (relative to the list prefix) to start from, inclusive. */
  start: string;
}

/** The token minted as-is (storage.EncodeContinue). */
export function encodeContinueToken(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

/** The token for the page after `lastKeySuffix` at revision `rv`. */
export function encodeContinue(rv: number, lastKeySuffix: string): string {
  return encodeContinueToken(rv, `${lastKeySuffix}\u0000`);
}

const B64URL = /[A-Za-z0-9_-]/;

/** base64.RawURLEncoding.DecodeString: the text of Go's error, or the decoded bytes. */
function decodeRawUrlBase64(s: string): Buffer | string {
  let clean = '';
  let j = 0; // position inside the current 4-character quantum
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\n' || c === '\r') continue;
    if (!B64URL.test(c)) return `illegal base64 data at input byte ${i}`;
    clean += c;
    j = (j + 1) % 4;
  }
  if (j === 1) return `illegal base64 data at input byte ${s.length - 1}`;
  return Buffer.from(clean, 'base64url');
}

/** The kind of a JSON value as an UnmarshalTypeError names it. */
function goJsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A JSON number as Go decodes it into an int64 (strconv.ParseInt of its literal), or undefined
 * when it has a fraction or an exponent, or lies beyond int64.
 */
function goInt64(v: number | JsonNumber): number | undefined {
  if (typeof v === 'number') return v;
  if (!/^-?\d+$/.test(v.raw)) return undefined;
  const n = BigInt(v.raw);
  return n < INT64_MIN || n > INT64_MAX ? undefined : Number(n);
}

/** The literal of a JSON number, as an UnmarshalTypeError quotes it. */
const numberLiteral = (v: number | JsonNumber): string => (typeof v === 'number' ? String(v) : v.raw);

/** path.Clean for a rooted path. */
function cleanRooted(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/**
 * Decodes a token as storage.DecodeContinue does; a bad token is kube's 400
 * "invalid continue token: continue key is not valid: ...".
 */
export function decodeContinue(token: string): ContinueToken {
  const invalid = (why: string) => badRequest(`invalid continue token: continue key is not valid${why}`);
  const raw = decodeRawUrlBase64(token);
  if (typeof raw === 'string') throw invalid(`: ${raw}`);
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    // Literal numbers: Go reads rv from its literal (1.0, 1e3 and 2^63 are not int64s).
    parsed = scanJson(text, { numbers: 'literal' }).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw invalid(`: ${e.message}`);
    throw e;
  }
  let v = '';
  let rv = 0;
  let start = '';
  if (parsed !== null) {
    if (typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof JsonNumber) {
      throw invalid(`: json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type storage.continueToken`);
    }
    // encoding/json matches field names case-insensitively; the first type error wins.
    let typeError: string | undefined;
    const fieldError = (name: string, kind: string, goType: string) =>
      (typeError ??= `: json: cannot unmarshal ${kind} into Go struct field continueToken.${name} of type ${goType}`);
    for (const [k, val] of Object.entries(parsed as Record<string, unknown>)) {
      if (val === null) continue;
      switch (k.toLowerCase()) {
        case 'v':
          if (typeof val === 'string') v = val;
          else fieldError('v', goJsonKind(val), 'string');
          break;
        case 'rv': {
          const n = typeof val === 'number' || val instanceof JsonNumber ? goInt64(val) : undefined;
          if (n !== undefined) rv = n;
          else if (typeof val === 'number' || val instanceof JsonNumber) fieldError('rv', `number ${numberLiteral(val)}`, 'int64');
          else fieldError('rv', goJsonKind(val), 'int64');
          break;
        }
        case 'start':
          if (typeof val === 'string') start = val;
          else fieldError('start', goJsonKind(val), 'string');
          break;
      }
    }
    if (typeError) throw invalid(typeError);
  }
  if (v !== 'meta.k8s.io/v1') throw invalid(`: server does not recognize this encoded version ${v}`);
  if (rv === 0) throw invalid(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (start === '') throw invalid(': encoded start key empty (version meta.k8s.io/v1)');
  // Defends against path traversal: the start key can never reach above the list prefix.
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanRooted(key) !== key) throw invalid(`: ${start}`);
  return { rv, start: key.slice(1) };
}
