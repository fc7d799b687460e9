// The list continue token, in kube's wire form: base64url (no padding) of
// {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key suffix>\u0000"}.

import { badRequest } from '../api/status-error.js';

export interface ContinueToken {
  rv: number;
  /** The key suffix (relative to the list prefix) to start from, inclusive. */
  start: string;
}

export function encodeContinue(rv: number, lastKeySuffix: string): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKeySuffix}\u0000` });
  return Buffer.from(json).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  const invalid = (why: string) => badRequest(`invalid continue token: continue key is not valid: ${why}`);
  let parsed: unknown;
  try {
    const raw = Buffer.from(token.replace(/=+$/, ''), 'base64url').toString('utf8');
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('illegal base64 data or JSON');
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p === null || typeof p !== 'object' || p.v !== 'meta.k8s.io/v1') throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof p.rv !== 'number' || !Number.isInteger(p.rv) || p.rv <= 0) throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof p.start !== 'string' || p.start.length === 0) throw invalid('encoded start key is empty');
  // Keys are relative to the list prefix; a token must not escape it.
  if (p.start.startsWith('/') || p.start.split('/').includes('..')) throw invalid('key is not a valid path');
  return { rv: p.rv, start: p.start };
}
