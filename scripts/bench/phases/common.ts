// Helpers shared by HTTP phases.
import type { LoadResult } from '../load.js';
import { request, type Target } from '../http.js';
import { namespaceBody } from '../manifest.js';

/** Create a namespace; 201 or 409 (already exists) are fine. Returns the status. */
export async function ensureNamespace(target: Target, name: string, timeoutMs: number): Promise<number> {
  const res = await request(
    target,
    { method: 'POST', path: '/api/v1/namespaces', body: namespaceBody(name) },
    { timeoutMs, expect: 201 },
  );
  if (res.status !== 201 && res.status !== 409) {
    throw new Error(`POST /api/v1/namespaces (${name}) -> ${res.status}: ${res.body?.toString('utf8').slice(0, 300) ?? ''}`);
  }
  return res.status;
}

/** A JSON-friendly summary of a load run (drops nothing important, rounds numbers). */
export function summarize(r: LoadResult): Record<string, unknown> {
  const round = (v: number): number => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v);
  return {
    ok: r.ok,
    unexpected: r.unexpected,
    errors: r.errors,
    issued: r.issued,
    elapsedMs: round(r.elapsedMs),
    okPerSec: round(r.okPerSec),
    latencyMs: Object.fromEntries(Object.entries(r.latencyMs).map(([k, v]) => [k, round(v)])),
    outcomes: r.outcomes,
    samples: r.samples,
  };
}

export function failures(r: Pick<LoadResult, 'unexpected' | 'errors'> | undefined): number | null {
  return r ? r.unexpected + r.errors : null;
}
