// Comparison of a recorded answer with a replayed one (both masked): status, Content-Type,
// Warning headers and body. JSON objects compare by content (key order is not meaning);
// lists compare in order, except managedFields, whose order kube derives from entry times at
// one-second resolution: both sides are put in that order as if every time fell in the same
// second (operation, entries without a time first, manager, apiVersion, subresource), so
// the order still says where an entry without a time sorts, and replays of fast sequences
// stay stable.

import type { Answer } from './format.js';

export interface CompareOptions {
  /** Compare Content-Type (default true). */
  contentType?: boolean;
  /** The index of the step in its sequence (for a list's resourceVersion; see listRevision). */
  step?: number;
}

type Entry = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

function entryOrder(a: Entry, b: Entry): number {
  const keys: ((e: Entry) => string)[] = [(e) => str(e.operation), (e) => (e.time === undefined ? '0' : '1'), (e) => str(e.manager), (e) => str(e.apiVersion), (e) => str(e.subresource)];
  for (const k of keys) {
    const x = k(a);
    const y = k(b);
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** A copy with every managedFields list in the canonical order. */
export function normalize(v: unknown, key = '', depth = 0): unknown {
  if (depth > 64) return v;
  if (Array.isArray(v)) {
    const items = v.map((x) => normalize(x, '', depth + 1));
    if (key === 'managedFields' && items.every((x) => x !== null && typeof x === 'object')) items.sort((a, b) => entryOrder(a as Entry, b as Entry));
    return items;
  }
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = normalize(x, k, depth + 1);
  return out;
}

/** JSON text of a value, or a placeholder for one too deep for JSON.stringify. */
function safeJson(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    return '<too deep to print>';
  }
}

const show = (v: unknown): string => {
  const s = safeJson(v);
  return s === undefined ? 'undefined' : s.length > 400 ? `${s.slice(0, 400)}...` : s;
};

const entryId = (e: unknown): string => {
  const x = (e ?? {}) as Entry;
  return `${str(x.manager)}/${str(x.operation)}${x.subresource ? `/${str(x.subresource)}` : ''}`;
};

function diffValues(want: unknown, got: unknown, path: string, out: string[], limit: number, depth = 0): void {
  if (out.length >= limit) return;
  if (depth > 64) {
    // Deep request data (deep-nesting cases): compared whole.
    if (safeJson(want) !== safeJson(got)) out.push(`${path.slice(0, 200)}...: deep values differ`);
    return;
  }
  if (path.endsWith('.managedFields') && Array.isArray(want) && Array.isArray(got)) {
    // Entry by entry, so a difference names the manager and the field.
    const w = want.map(entryId);
    const g = got.map(entryId);
    if (w.join() !== g.join()) out.push(`${path}: entries ${JSON.stringify(w)} expected, ${JSON.stringify(g)} got`);
    // The k-th entry of an identity against the k-th of the other side (a Scale write can
    // leave two entries of one manager).
    const used = new Set<number>();
    want.forEach((e, i) => {
      const j = g.findIndex((id, k) => id === w[i] && !used.has(k));
      if (j < 0) return;
      used.add(j);
      diffValues(e, got[j], `${path}[${w[i]}]`, out, limit, depth + 1);
    });
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    if (want.length !== got.length) {
      out.push(`${path}: list of ${want.length} expected, ${got.length} got: want ${show(want)} got ${show(got)}`);
      return;
    }
    want.forEach((w, i) => diffValues(w, got[i], `${path}[${i}]`, out, limit, depth + 1));
    return;
  }
  const wo = want !== null && typeof want === 'object' && !Array.isArray(want);
  const go = got !== null && typeof got === 'object' && !Array.isArray(got);
  if (wo && go) {
    const w = want as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    for (const k of new Set([...Object.keys(w), ...Object.keys(g)])) {
      const p = `${path}.${k}`;
      if (!(k in g)) out.push(`${p}: missing (want ${show(w[k])})`);
      else if (!(k in w)) out.push(`${p}: unexpected ${show(g[k])}`);
      else diffValues(w[k], g[k], p, out, limit, depth + 1);
      if (out.length >= limit) return;
    }
    return;
  }
  // A fixture recorded before numbers were read exactly holds the JS rounding of what kube
  // wrote: an exact answer that rounds to it agrees (mask.ts parseJsonExact).
  if (typeof want === 'number' && typeof got === 'string' && /^<number (.*)>$/.test(got) && Number(got.slice(8, -1)) === want) return;
  if (safeJson(want) !== safeJson(got)) out.push(`${path || '.'}: want ${show(want)} got ${show(got)}`);
}

/**
 * kube answers some bad input with a bare 500 (its type converter's errors: an apply
 * configuration with an unknown field or a repeated list key); kapi answers the same
 * message as a 400 BadRequest, never a 5xx (the project's one standing exception).
 */
function deliberate400(want: Answer, got: Answer): Answer {
  if (want.status !== 500 || got.status !== 400) return want;
  const w = want.body as Record<string, unknown> | undefined;
  const g = got.body as Record<string, unknown> | undefined;
  if (!w || !g || w.message !== g.message || w.reason !== undefined || g.reason !== 'BadRequest') return want;
  return { ...want, status: 400, body: { ...w, reason: 'BadRequest', code: 400 } };
}

/**
 * The causes of an apply conflict come in Go map order in kube (random across managers);
 * the message orders them. Both sides' conflict causes are compared as sorted lists.
 */
function sortConflictCauses(body: unknown): unknown {
  const b = body as { reason?: string; details?: { causes?: Record<string, unknown>[] } } | undefined;
  const causes = b?.details?.causes;
  if (b?.reason !== 'Conflict' || !Array.isArray(causes) || !causes.every((c) => c.reason === 'FieldManagerConflict')) return body;
  const key = (c: Record<string, unknown>) => `${str(c.message)}\u0000${str(c.field)}`;
  return { ...b, details: { ...b.details, causes: [...causes].sort((x, y) => cmp(key(x), key(y))) } };
}

/**
 * A list's (or Table's) own resourceVersion is the store's latest revision, which writes
 * nobody asked for move too (leases each server renews on its own clock). When one side's is
 * new at this step and the other's an earlier one, both lists are as fresh as they must be:
 * the got side takes the recorded value. A stale revision (older than the last write the
 * sequence saw, on either side) is not new at this step and still differs.
 */
function listRevision(want: unknown, got: unknown, step: number | undefined): unknown {
  if (step === undefined) return got;
  const rvOf = (b: unknown): string | undefined => {
    const x = b as { items?: unknown; rows?: unknown; metadata?: { resourceVersion?: unknown } } | null | undefined;
    if (!x || typeof x !== 'object' || (!Array.isArray(x.items) && !Array.isArray(x.rows))) return undefined;
    return typeof x.metadata?.resourceVersion === 'string' ? x.metadata.resourceVersion : undefined;
  };
  const w = rvOf(want);
  const g = rvOf(got);
  if (w === undefined || g === undefined || w === g) return got;
  const fresh = (rv: string) => rv === `<rv@${step}>` || rv.startsWith(`<rv@${step}.`);
  if (!fresh(w) && !fresh(g)) return got;
  const b = got as { metadata: Record<string, unknown> };
  return { ...b, metadata: { ...b.metadata, resourceVersion: w } };
}

/** The differences between a recorded answer and a replayed one; empty when they agree. */
export function compareAnswers(recorded: Answer, got: Answer, opts: CompareOptions = {}, limit = 12): string[] {
  const out: string[] = [];
  const want = deliberate400(recorded, got);
  if (want.status !== got.status) {
    const msg = (a: Answer) => ((a.body ?? {}) as { message?: unknown }).message;
    out.push(`status: want ${want.status} got ${got.status} (messages: want ${show(msg(want))} got ${show(msg(got))})`);
  }
  if (opts.contentType !== false && want.contentType !== got.contentType) out.push(`content-type: want ${show(want.contentType)} got ${show(got.contentType)}`);
  // As a multiset: kube emits some warnings in Go map order (node selector keys, annotations).
  const ww = [...(want.warnings ?? [])].sort();
  const gw = [...(got.warnings ?? [])].sort();
  if (JSON.stringify(ww) !== JSON.stringify(gw)) out.push(`warnings: want ${show(ww)} got ${show(gw)}`);
  for (const [name, v] of Object.entries(want.headers ?? {})) {
    if (got.headers?.[name] !== v) out.push(`header ${name}: want ${show(v)} got ${show(got.headers?.[name])}`);
  }
  for (const name of Object.keys(got.headers ?? {})) if (want.headers?.[name] === undefined) out.push(`header ${name}: unexpected ${show(got.headers?.[name])}`);
  if ((want.bodyFormat ?? 'json') !== (got.bodyFormat ?? 'json')) out.push(`body format: want ${want.bodyFormat ?? 'json'} got ${got.bodyFormat ?? 'json'}`);
  diffValues(normalize(sortConflictCauses(want.body)), normalize(sortConflictCauses(listRevision(want.body, got.body, opts.step))), 'body', out, limit);
  return out;
}

/**
 * Whether a managedFields list is in kube's order by its own times (operation, time in
 * seconds, manager, apiVersion, subresource): a replay checks its own order with it, since
 * its times are not the recording's.
 */
export function managedFieldsOrdered(entries: Entry[]): boolean {
  const secs = (e: Entry) => (typeof e.time === 'string' ? Math.floor(Date.parse(e.time) / 1000) : 0);
  for (let i = 1; i < entries.length; i++) {
    const a = entries[i - 1];
    const b = entries[i];
    const c =
      cmp(str(a.operation), str(b.operation)) ||
      secs(a) - secs(b) ||
      cmp(str(a.manager), str(b.manager)) ||
      cmp(str(a.apiVersion), str(b.apiVersion)) ||
      cmp(str(a.subresource), str(b.subresource));
    if (c > 0) return false;
  }
  return true;
}
