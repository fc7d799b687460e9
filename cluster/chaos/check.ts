// The checks of one chaos run's history, against etcd's log of the same revisions:
//
// - linearizability of every object (a register with compare-and-swap on resourceVersion),
//   decided by porcupine (checker/, a Go program) over creates, updates, deletes, consistent
//   gets and consistent lists (each page set is one snapshot: a read of every key of the run
//   between the call and the first page's answer), the final reads included;
// - acknowledged writes: each is in etcd's log at the resourceVersion it was answered with,
//   with its value (nothing acknowledged is lost, nothing is acknowledged that etcd lacks);
// - reads that are not linearizable by design, against their own rules (see weakReads);
// - lists of every mode: the items are exactly the namespace at the list's resourceVersion;
// - watch continuity (see watches);
// - after the fault healed, every node's consistent list is at or past every acknowledged
//   write and equals etcd's state there.

import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Operation, RunHistory, WatcherHistory } from './history.js';
import { LogIndex } from './log-index.js';

export interface Violation {
  check: 'linearizability' | 'acknowledged-write' | 'unexpected-answer' | 'list-snapshot' | 'stale-read' | 'phantom-read' | 'watch' | 'final-state';
  message: string;
  /** Operations to show around it (ids). */
  ops?: number[];
  key?: string;
  /** Milliseconds into the run, for the context shown. */
  at?: number;
}

export interface LinearizabilityResult {
  result: 'ok' | 'illegal' | 'unknown' | 'error';
  ops: number;
  keys: { key: string; result: string; ops: number; linearized?: number; stuck?: number[]; linearization?: string[]; html?: string }[];
  error?: string;
}

export interface RunCheck {
  linearizability: LinearizabilityResult;
  violations: Violation[];
  stats: {
    ops: number;
    writesAcknowledged: number;
    ambiguous: number;
    ambiguousApplied: number;
    readsChecked: number;
    watchEvents: number;
    watchReconnects: number;
    watchRelists: number;
    logEvents: number;
  };
}

const isWrite = (op: Operation): boolean => op.kind === 'create' || op.kind === 'update' || op.kind === 'delete';
/** No answer, or an answer that does not say whether the write happened (kube's 500/504 for an etcd timeout, a 503 from a stopping node). */
export const isAmbiguous = (op: Operation): boolean => op.status === undefined || op.status >= 500;

const EXPECTED: Record<Operation['kind'], number[]> = {
  create: [201, 409],
  update: [200, 404, 409],
  delete: [200, 404, 409],
  get: [200, 404],
  // 410: an Exact list older than the compacted history (kube's Expired).
  list: [200, 410],
};

interface PorcupineOp {
  id: number;
  client: number;
  key: string;
  call: number;
  return: number;
  input: { op: string; value?: string; precondition?: number };
  output: { status: string; value?: string; rv?: number };
}

/** The history porcupine checks, and how ambiguous writes were settled from etcd's log. */
export function porcupineHistory(h: RunHistory, log: LogIndex): { ops: PorcupineOp[]; ambiguous: number; applied: number } {
  const ops: PorcupineOp[] = [];
  let ambiguous = 0;
  let applied = 0;
  const full = (key: string): string => `${h.namespace}/${key}`;
  const all = [...h.ops, ...h.finalReads.map((f) => f.op)];
  for (const op of all) {
    if (isWrite(op)) {
      const key = op.key!;
      const input = { op: op.kind, value: op.value, precondition: op.precondition };
      if (isAmbiguous(op)) {
        ambiguous++;
        if (op.kind === 'delete') {
          ops.push({ id: op.id, client: op.client, key, call: op.call, return: -1, input, output: { status: 'unknown' } });
          continue;
        }
        // A write whose value etcd never stored did not happen; one it stored happened at
        // that revision, at some time after its call (etcd's robustness tests settle
        // ambiguous writes from the watch the same way).
        const put = log.findPut(full(key), op.value!);
        if (!put) continue;
        applied++;
        ops.push({ id: op.id, client: op.client, key, call: op.call, return: -1, input, output: { status: 'ok', rv: put.rv } });
        continue;
      }
      let status: string | undefined;
      if (op.status! >= 200 && op.status! < 300) status = 'ok';
      else if (op.status === 409) status = op.kind === 'create' ? 'exists' : 'conflict';
      else if (op.status === 404) status = 'notfound';
      // 429: not processed.
      if (!status) continue;
      ops.push({ id: op.id, client: op.client, key, call: op.call, return: op.ret!, input, output: { status, rv: status === 'ok' && op.kind !== 'delete' ? op.outRv : undefined } });
    } else if (op.kind === 'get' && op.mode === 'consistent' && (op.status === 200 || op.status === 404)) {
      ops.push({
        id: op.id,
        client: op.client,
        key: op.key!,
        call: op.call,
        return: op.ret!,
        input: { op: 'read' },
        output: op.status === 200 ? { status: 'ok', value: op.outValue, rv: op.outRv } : { status: 'notfound' },
      });
    } else if (op.kind === 'list' && op.mode === 'consistent' && op.status === 200 && op.firstRet !== undefined) {
      const items = new Map(op.items!.map((i) => [i.name, i]));
      for (const key of h.keys) {
        const it = items.get(key);
        ops.push({
          id: op.id,
          client: op.client,
          key,
          call: op.call,
          return: op.firstRet,
          input: { op: 'read' },
          output: it ? { status: 'ok', value: it.value, rv: it.rv } : { status: 'notfound' },
        });
      }
    }
  }
  return { ops, ambiguous, applied };
}

/** Runs the Go checker (built at `checkerBin`) over the history; visualizations of illegal keys go to `dir`. */
const HERE = dirname(fileURLToPath(import.meta.url));
/** The repository: dist/cluster/chaos/ when built, cluster/chaos/ when run from source. */
const ROOT = basename(dirname(dirname(HERE))) === 'dist' ? join(HERE, '..', '..', '..') : join(HERE, '..', '..');

/** Builds the porcupine checker (Go, from the module proxy; go.sum pins it). */
export async function buildChecker(outDir: string): Promise<string> {
  const bin = join(outDir, 'porcupine-checker');
  await mkdir(outDir, { recursive: true });
  await promisify(execFile)('go', ['build', '-o', bin, '.'], { cwd: join(ROOT, 'cluster', 'chaos', 'checker'), env: { ...process.env, GOFLAGS: '-mod=readonly' } });
  return bin;
}

export async function checkLinearizability(checkerBin: string, ops: PorcupineOp[], dir: string): Promise<LinearizabilityResult> {
  await mkdir(dir, { recursive: true });
  const input = join(dir, 'porcupine-history.json');
  await writeFile(input, JSON.stringify({ ops }));
  try {
    const { stdout } = await promisify(execFile)(checkerBin, ['-html', dir, input], { maxBuffer: 64 << 20 });
    return JSON.parse(stdout) as LinearizabilityResult;
  } catch (e) {
    return { result: 'error', ops: ops.length, keys: [], error: (e as Error).message };
  }
}

/** Acknowledged writes are in etcd's log as answered; every answer is one kube gives. */
function acknowledgedWrites(h: RunHistory, log: LogIndex, v: Violation[]): number {
  let acked = 0;
  for (const op of h.ops) {
    if (op.status !== undefined && op.status < 500 && op.status !== 429 && !EXPECTED[op.kind].includes(op.status)) {
      v.push({ check: 'unexpected-answer', message: `${op.kind} answered ${op.status} (${op.error ?? ''})`, ops: [op.id], key: op.key });
    }
    if ((op.kind === 'create' || op.kind === 'update') && op.status !== undefined && op.status >= 200 && op.status < 300) {
      acked++;
      if (!op.outRv || !log.hadVersion(`${h.namespace}/${op.key}`, op.value!, op.outRv)) {
        v.push({ check: 'acknowledged-write', message: `${op.kind} of ${op.key}=${op.value} was acknowledged at resourceVersion ${op.outRv}, which etcd's log does not have`, ops: [op.id], key: op.key });
      }
    }
    if (op.kind === 'delete' && op.status === 200) acked++;
  }
  return acked;
}

/** Every list, of any mode: its items are exactly the namespace in etcd at the list's resourceVersion. */
function listSnapshots(h: RunHistory, log: LogIndex, v: Violation[]): void {
  for (const op of [...h.ops, ...h.finalReads.map((f) => f.op)]) {
    if (op.kind !== 'list' || op.status !== 200 || !op.listRv) continue;
    if (op.listRv <= log.from) continue; // before the run's namespace had anything: nothing to compare with
    if (op.mode === 'exact' && op.listRv !== op.rv) {
      v.push({ check: 'list-snapshot', message: `an Exact list at ${op.rv} answered resourceVersion ${op.listRv}`, ops: [op.id] });
    }
    if (op.mode === 'notOlderThan' && op.listRv < op.rv!) {
      v.push({ check: 'stale-read', message: `a NotOlderThan list at ${op.rv} answered the older resourceVersion ${op.listRv}`, ops: [op.id] });
    }
    const want = log.namespaceAt(h.namespace, op.listRv);
    const got = new Map<string, { value: string; rv: number }>();
    const dup: string[] = [];
    for (const it of op.items!) {
      if (got.has(it.name)) dup.push(it.name);
      got.set(it.name, it);
    }
    const diffs: string[] = [];
    for (const [name, w] of want) {
      const g = got.get(name);
      if (!g) diffs.push(`${name} missing (etcd: ${w.value}@${w.rv})`);
      else if (g.value !== w.value || g.rv !== w.rv) diffs.push(`${name}=${g.value}@${g.rv} (etcd: ${w.value}@${w.rv})`);
    }
    for (const [name, g] of got) if (!want.has(name)) diffs.push(`${name}=${g.value}@${g.rv} (etcd: absent)`);
    if (dup.length) diffs.push(`listed twice: ${dup.join(', ')}`);
    if (diffs.length) {
      v.push({
        check: 'list-snapshot',
        message: `a ${op.mode} list${op.limit ? ` in ${op.pages} pages of ${op.limit}${op.continuedElsewhere ? ', continued on another connection' : ''}` : ''} at resourceVersion ${op.listRv} is not etcd's state there: ${diffs.join('; ')}`,
        ops: [op.id],
      });
    }
  }
}

/**
 * Reads that are not linearizable by design, each against its own rule:
 *
 * - every version a read returns (a get's object, a list's items) is one etcd stored;
 * - NotOlderThan R (a get with resourceVersion=R, a list with resourceVersionMatch=NotOlderThan;
 *   the client sends the highest resourceVersion it has seen in any answer): the answer is
 *   etcd's state at some revision >= R, so never older than anything this client already saw;
 * - resourceVersion=0 (any): on one connection (one node, whose cache only moves forward) an
 *   answer is never older than what an earlier read on that connection returned; across
 *   connections it may be, by design (kube's watch cache is per server too).
 */
function weakReads(h: RunHistory, log: LogIndex, v: Violation[]): number {
  let checked = 0;
  const floor = new Map<number, number>();
  const reads = h.ops.filter((o) => (o.kind === 'get' || o.kind === 'list') && o.status === 200 && o.conn !== undefined).sort((a, b) => a.call - b.call);
  for (const op of reads) {
    const f = floor.get(op.conn!) ?? 0;
    // The revisions at which the answer was etcd's state: [lo, hi).
    let lo: number;
    let hi: number;
    if (op.kind === 'get') {
      const key = `${h.namespace}/${op.key}`;
      if (!log.hadVersion(key, op.outValue!, op.outRv!)) {
        v.push({ check: 'phantom-read', message: `a ${op.mode} get of ${op.key} returned ${op.outValue}@${op.outRv}, a version etcd never stored`, ops: [op.id], key: op.key });
        continue;
      }
      lo = op.outRv!;
      hi = log.nextChange(key, lo);
    } else {
      if (!op.listRv) continue;
      lo = op.listRv;
      hi = op.listRv + 1;
    }
    if (op.mode === 'notOlderThan' || op.mode === 'any') checked++;
    if (op.mode === 'notOlderThan' && op.kind === 'get' && hi <= op.rv!) {
      v.push({ check: 'stale-read', message: `a get of ${op.key} not older than ${op.rv} returned ${op.outValue}@${op.outRv}, replaced at ${hi}`, ops: [op.id], key: op.key });
    }
    if (op.mode === 'any' && hi <= f) {
      v.push({ check: 'stale-read', message: `a resourceVersion=0 ${op.kind}${op.key ? ` of ${op.key}` : ''} on connection ${op.conn} answered state older than revision ${f}, which an earlier read on that connection had returned`, ops: [op.id], key: op.key });
    }
    if (op.kind !== 'list' || !op.continuedElsewhere) floor.set(op.conn!, Math.max(f, lo));
  }
  // Gets that found nothing: the object was absent at some revision the rule allows.
  for (const op of h.ops.filter((o) => o.kind === 'get' && o.status === 404 && o.mode !== 'consistent')) {
    const spans = log.absentSpans(`${h.namespace}/${op.key}`);
    const min = op.mode === 'notOlderThan' ? op.rv! : 0;
    checked++;
    if (!spans.some(([, end]) => end > min)) {
      v.push({ check: 'stale-read', message: `a ${op.mode} get of ${op.key} found nothing, but the object existed from ${min} on`, ops: [op.id], key: op.key });
    }
  }
  return checked;
}

/**
 * Watch continuity, per watcher and per stretch of its stream (a stretch ends only with a 410
 * and a relist, kube's answer to a resourceVersion older than the node's history): across
 * every reconnect, to whichever node, the events are exactly etcd's changes in the watcher's
 * scope from the stretch's start to the last revision delivered: none missing (no gap), none
 * twice, none out of order, each with etcd's type, object and value; no event at or below a
 * bookmark after it; and the last stretch reaches every change up to the run's end.
 */
export function checkWatcher(w: WatcherHistory, log: LogIndex, endRev: number, v: Violation[]): { events: number; reconnects: number; relists: number } {
  let events = 0;
  let reconnects = 0;
  const where = `watcher ${w.id} (${w.namespace ? `namespace ${w.namespace}` : 'every namespace'})`;
  w.segments.forEach((seg, si) => {
    events += seg.events.length;
    reconnects += Math.max(0, seg.connects.length - 1);
    let prev = seg.from;
    // Changes after the run's end are not in the log read (the nodes' leases go on renewing).
    const reached = Math.min(seg.reached, endRev);
    for (const e of seg.events) {
      if (e.rv === prev) v.push({ check: 'watch', message: `${where}: event at ${e.rv} (${e.type} ${e.key}) delivered twice`, at: e.at });
      else if (e.rv < prev) v.push({ check: 'watch', message: `${where}: event at ${e.rv} (${e.type} ${e.key}) after ${prev}: out of order`, at: e.at });
      prev = Math.max(prev, e.rv);
      if (e.rv > endRev) continue;
      const l = log.at(e.rv);
      if (!l) v.push({ check: 'watch', message: `${where}: event at ${e.rv} (${e.type} ${e.key}) which etcd's log does not have`, at: e.at });
      else if (l.key !== e.key || l.type !== e.type || (l.type !== 'DELETED' && l.value !== e.value)) {
        v.push({ check: 'watch', message: `${where}: event at ${e.rv} is ${e.type} ${e.key}=${e.value}, etcd's is ${l.type} ${l.key}=${l.value}`, at: e.at });
      }
    }
    for (const b of seg.bookmarks) {
      const late = seg.events.slice(b.afterEvents).find((e) => e.rv <= b.rv);
      if (late) v.push({ check: 'watch', message: `${where}: event at ${late.rv} came after a bookmark at ${b.rv}`, at: late.at });
    }
    const delivered = new Set(seg.events.map((e) => e.rv));
    const missing = log.inScope(w.namespace, seg.from, reached).filter((e) => !delivered.has(e.rv));
    if (missing.length) {
      const first = missing[0]!;
      const before = seg.events.filter((e) => e.rv < first.rv).at(-1);
      const reconnect = seg.connects.filter((c) => c.from < first.rv).at(-1);
      v.push({
        check: 'watch',
        message: `${where}: ${missing.length} of etcd's changes between ${seg.from} and ${reached} never delivered (a gap), first ${first.type} ${first.key}=${first.value} at ${first.rv}; the last event before it was at ${before?.rv ?? seg.from}, the stream resumed from ${reconnect?.from ?? seg.from}`,
        at: before?.at,
      });
    }
    if (si === w.segments.length - 1) {
      const last = log.inScope(w.namespace, seg.from, endRev).at(-1);
      if (last && seg.reached < last.rv) {
        v.push({ check: 'watch', message: `${where}: never caught up: the last change at ${last.rv} (before the run's end at ${endRev}) was not delivered (reached ${seg.reached})` });
      }
    }
  });
  return { events, reconnects, relists: w.segments.length - 1 };
}

/** After the fault healed: each node's consistent list is at or past every acknowledged write. */
function finalState(h: RunHistory, v: Violation[]): void {
  const lastAck = Math.max(0, ...h.ops.filter((o) => isWrite(o) && o.outRv && o.status! < 300).map((o) => o.outRv!));
  for (const f of h.finalReads) {
    if (f.op.status !== 200) {
      v.push({ check: 'final-state', message: `the final consistent list through ${f.via} failed: ${f.op.status ?? 'no answer'} ${f.op.error ?? ''}`, ops: [f.op.id] });
    } else if ((f.op.listRv ?? 0) < lastAck) {
      v.push({ check: 'final-state', message: `the final consistent list through ${f.via} is at ${f.op.listRv}, before the last acknowledged write at ${lastAck}`, ops: [f.op.id] });
    }
  }
  if (h.finalReads.length === 0) v.push({ check: 'final-state', message: 'no final read was made' });
}

export async function checkRun(h: RunHistory, checkerBin: string, dir: string): Promise<RunCheck> {
  const log = new LogIndex(h.log, h.startRev);
  const violations: Violation[] = [];
  const writesAcknowledged = acknowledgedWrites(h, log, violations);
  listSnapshots(h, log, violations);
  const readsChecked = weakReads(h, log, violations);
  let watchEvents = 0;
  let watchReconnects = 0;
  let watchRelists = 0;
  for (const w of h.watchers) {
    const r = checkWatcher(w, log, h.endRev, violations);
    watchEvents += r.events;
    watchReconnects += r.reconnects;
    watchRelists += r.relists;
  }
  finalState(h, violations);
  const p = porcupineHistory(h, log);
  const linearizability = await checkLinearizability(checkerBin, p.ops, dir);
  if (linearizability.result !== 'ok') {
    for (const k of linearizability.keys.filter((k) => k.result !== 'ok')) {
      violations.push({
        check: 'linearizability',
        message: `${k.key}: ${k.result}${k.result === 'illegal' ? ` (the longest linearization covers ${k.linearized} of ${k.ops} operations; none of operations ${k.stuck?.join(', ')} can come next)` : ''}${k.html ? `; visualization: ${k.html}` : ''}`,
        key: k.key,
        ops: k.stuck,
      });
    }
    if (linearizability.result === 'error') violations.push({ check: 'linearizability', message: `the checker failed: ${linearizability.error}` });
  }
  return {
    linearizability,
    violations,
    stats: {
      ops: h.ops.length,
      writesAcknowledged,
      ambiguous: p.ambiguous,
      ambiguousApplied: p.applied,
      readsChecked,
      watchEvents,
      watchReconnects,
      watchRelists,
      logEvents: h.log.length,
    },
  };
}
