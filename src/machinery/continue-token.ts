// The list continue token, in kube's wire form (k8s.io/apiserver/pkg/storage/continue.go):
// base64url without padding of {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key suffix>"}.
// The start key is relative to the list's key prefix; a token for "the page after key k"
// starts at `k\u0000`. A negative rv (only minted in a 410's fresh token) means "continue
// at the latest revision"; rv 0 is invalid.

import { badRequest } from './errors.js';
import { JsonSyntaxError, scanJson } from './json-scan.js';

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

/** Go's %v of a JSON value's kind in an UnmarshalTypeError. */
function goJsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return `number ${String(v)}`;
  if (Array.isArray(v)) return 'array';
  return 'object';
}

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
    parsed = scanJson(text).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw invalid(`: ${e.message}`);
    throw e;
  }
  let v = '';
  let rv = 0;
  let start = '';
  if (parsed !== null) {
    if (typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw invalid(`: json: cannot unmarshal ${goJsonKind(parsed).split(' ')[0]} into Go value of type storage.continueToken`);
    }
    // encoding/json matches field names case-insensitively; the first type error wins.
    let typeError: string | undefined;
    const fieldError = (name: string, val: unknown, goType: string) =>
      (typeError ??= `: json: cannot unmarshal ${goJsonKind(val)} into Go struct field continueToken.${name} of type ${goType}`);
    for (const [k, val] of Object.entries(parsed as Record<string, unknown>)) {
      if (val === null) continue;
      switch (k.toLowerCase()) {
        case 'v':
          if (typeof val === 'string') v = val;
          else fieldError('v', val, 'string');
          break;
        case 'rv':
          if (typeof val === 'number' && Number.isInteger(val)) rv = val;
          else fieldError('rv', val, 'int64');
          break;
        case 'start':
          if (typeof val === 'string') start = val;
          else fieldError('start', val, 'string');
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
