// `npm run fuzz -- --seed 1 --count 100000`: sends seeded, mutated requests (generate.ts) to a
// kapi it starts (or to --kapi URL) one at a time and checks every answer:
//
//   - no 5xx: bad input is the client's mistake, answered with a 4xx;
//   - no broken connection: every request gets one complete HTTP response;
//   - no crash: the server is alive and ready at the end (and every 1,000 requests);
//   - no partial write: a write that failed left its object as it was (read before and after).
//
// Prints a summary (requests, answers by status, time) and the violations, and exits 1 when
// there is one. `--json FILE` writes the summary as JSON.

import { writeFileSync } from 'node:fs';
import { Rand } from '../oracle-record/random.js';
import { FUZZ_NS, generate, requestBytes, seedRequests, type FuzzRequest } from './generate.js';
import { BrokenConnection, exchange, startServer, useServer, type RawResponse, type Running } from './server.js';

export interface FuzzOptions {
  seed: number;
  count: number;
  kapi?: string;
  kubeconfig?: string;
  /** With `kapi`: whether that server's process still runs (a test knows; the command line does not). */
  alive?: () => boolean;
  /** Report progress every N requests (0: never). */
  progress?: number;
  log?: (line: string) => void;
}

export interface Violation {
  index: number;
  kind: '5xx' | 'broken connection' | 'partial write' | 'crash';
  request: string;
  detail: string;
}

export interface FuzzSummary {
  seed: number;
  requests: number;
  seconds: number;
  byStatus: Record<string, number>;
  writesChecked: number;
  violations: Violation[];
}

const WATCH_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;
const MAX_WATCHES = 8;

function describe(req: FuzzRequest): string {
  const body = req.body ? ` body ${req.body.length} B: ${JSON.stringify(req.body.subarray(0, 160).toString('latin1'))}` : '';
  return `${req.method} ${req.path.slice(0, 200)} [${req.note}] headers ${JSON.stringify(req.headers)}${body}`;
}

async function send(server: Running, req: FuzzRequest): Promise<RawResponse> {
  const t = server.target;
  return exchange(t, requestBytes(req, `${t.host}:${t.port}`, t.token), req.watch ? WATCH_TIMEOUT_MS : REQUEST_TIMEOUT_MS, req.method === 'HEAD');
}

/** The stored state of an object as a GET shows it: status and body (a 404 or the JSON). */
async function snapshot(server: Running, path: string): Promise<string> {
  const res = await send(server, { note: 'snapshot', method: 'GET', path, headers: [['accept', 'application/json']] });
  if (res.status === 404) return '404';
  return `${res.status} ${res.body.toString('utf8')}`;
}

/** A difference a controller explains: the object was being deleted (namespace or claim protection at work). */
function controllerMayExplain(before: string, after: string, req: FuzzRequest): boolean {
  if (before.includes('"deletionTimestamp"')) return true;
  // The controllers and the simulated node write status (a pod starting, a set counting its
  // pods) while the fuzz runs: a change there, by its status writers alone, is theirs, unless
  // the failed request itself went to /status.
  if (req.path.split('?')[0]!.endsWith('/status')) return false;
  return withoutStatus(before) === withoutStatus(after);
}

/** Where two snapshots differ, as paths with both values (the first ten). */
function changedPaths(before: string, after: string): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= 10) return;
    if (x !== null && y !== null && typeof x === 'object' && typeof y === 'object' && Array.isArray(x) === Array.isArray(y)) {
      const xo = x as Record<string, unknown>;
      const yo = y as Record<string, unknown>;
      for (const k of new Set([...Object.keys(xo), ...Object.keys(yo)])) walk(xo[k], yo[k], `${path}.${k}`);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`${path || '.'}: ${JSON.stringify(x)?.slice(0, 120)} -> ${JSON.stringify(y)?.slice(0, 120)}`);
  };
  const [bc, bo] = snapshotObject(before);
  const [ac, ao] = snapshotObject(after);
  if (bo === undefined || ao === undefined) return [`before ${before.slice(0, 300)}`, `after ${after.slice(0, 300)}`];
  if (bc !== ac) out.push(`status ${bc} -> ${ac}`);
  walk(bo, ao, '');
  return out;
}

/** A snapshot ("<status> <body>") with its object's status, resourceVersion and the managedFields entries of /status writers left out. */
function withoutStatus(snap: string): string {
  const [code, o] = snapshotObject(snap);
  if (o === undefined) return snap;
  delete o.status;
  if (o.metadata) {
    delete o.metadata.resourceVersion;
    if (Array.isArray(o.metadata.managedFields)) o.metadata.managedFields = o.metadata.managedFields.filter((f) => f.subresource !== 'status');
  }
  return `${code} ${JSON.stringify(o)}`;
}

type SnapshotObject = { status?: unknown; metadata?: { resourceVersion?: string; managedFields?: { subresource?: string }[] } };

/** A snapshot's status code and its body as an object (undefined when it is none). */
function snapshotObject(snap: string): [string, SnapshotObject | undefined] {
  const sp = snap.indexOf(' ');
  if (sp < 0) return [snap, undefined];
  try {
    const o = JSON.parse(snap.slice(sp + 1)) as unknown;
    return [snap.slice(0, sp), o !== null && typeof o === 'object' ? (o as SnapshotObject) : undefined];
  } catch {
    return [snap.slice(0, sp), undefined];
  }
}

export async function fuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const server = opts.kapi ? useServer(opts.kapi, opts.kubeconfig, opts.alive) : await startServer();
  const r = new Rand(opts.seed);
  const summary: FuzzSummary = { seed: opts.seed, requests: 0, seconds: 0, byStatus: {}, writesChecked: 0, violations: [] };
  const t0 = performance.now();
  const violate = (index: number, kind: Violation['kind'], req: FuzzRequest, detail: string) => {
    summary.violations.push({ index, kind, request: describe(req), detail });
    if (summary.violations.length <= 20) log(`VIOLATION #${index} ${kind}: ${detail}\n    ${describe(req)}`);
  };
  const watches = new Set<Promise<unknown>>();
  try {
    for (const req of seedRequests()) await send(server, req);
    for (let i = 0; i < opts.count; i++) {
      const req = generate(r);
      const checkWrite = req.object !== undefined;
      let before = '';
      if (checkWrite) before = await snapshot(server, req.object!.path);
      const index = i;
      const answered = send(server, req).then(
        (res) => {
          summary.requests++;
          summary.byStatus[res.status] = (summary.byStatus[res.status] ?? 0) + 1;
          if (res.status >= 500) violate(index, '5xx', req, `${res.status} ${res.body.subarray(0, 300).toString('utf8')}`);
          return res;
        },
        (e: unknown) => {
          if (!(e instanceof BrokenConnection)) throw e;
          violate(index, server.alive() ? 'broken connection' : 'crash', req, e.message);
          return undefined;
        },
      );
      if (req.watch) {
        // A watch streams until its 1 s timeout: it runs beside the requests that follow (a few at
        // a time) instead of holding them up; it reads no stored state that a check depends on.
        const p: Promise<unknown> = answered.finally(() => watches.delete(p));
        watches.add(p);
        if (watches.size >= MAX_WATCHES) await Promise.race(watches);
        continue;
      }
      const res = await answered;
      if (!res) {
        if (!server.alive()) break;
        continue;
      }
      if (checkWrite && res.status >= 400) {
        summary.writesChecked++;
        const after = await snapshot(server, req.object!.path);
        if (after !== before && !controllerMayExplain(before, after, req)) violate(i, 'partial write', req, `${res.status} answered, yet ${req.object!.path} changed: ${changedPaths(before, after).join(', ')}`);
      }
      // The fuzz's own namespace comes back when a request removed it.
      if (req.method === 'DELETE' && req.path.startsWith(`/api/v1/namespaces/${FUZZ_NS}`) && res.status < 300) {
        await new Promise((w) => setTimeout(w, 200));
        for (const s of seedRequests()) await send(server, s);
      }
      if (opts.progress && (i + 1) % opts.progress === 0) log(`${i + 1}/${opts.count} requests, ${summary.violations.length} violations, ${Math.round((performance.now() - t0) / 1000)} s`);
      if ((i + 1) % 1000 === 0) {
        const ready = await send(server, { note: 'readyz', method: 'GET', path: '/readyz', headers: [] }).catch(() => undefined);
        if (!server.alive() || ready?.status !== 200) {
          violate(i, 'crash', req, `server not ready after request ${i}: ${ready?.status ?? 'no answer'}`);
          break;
        }
      }
    }
    await Promise.all(watches);
    if (!server.alive()) violate(summary.requests, 'crash', { note: 'end', method: '', path: '', headers: [] }, `the server exited:\n${server.logs().slice(-2000)}`);
  } finally {
    summary.seconds = Math.round((performance.now() - t0) / 100) / 10;
    await server.stop();
  }
  return summary;
}

function parseArgs(argv: string[]): FuzzOptions & { json?: string } {
  const o: FuzzOptions & { json?: string } = { seed: 1, count: 1000, progress: 5000 };
  for (let i = 0; i < argv.length; i++) {
    const v = () => argv[++i];
    switch (argv[i]) {
      case '--seed':
        o.seed = Number(v());
        break;
      case '--count':
        o.count = Number(v());
        break;
      case '--kapi':
        o.kapi = v();
        break;
      case '--kubeconfig':
        o.kubeconfig = v();
        break;
      case '--json':
        o.json = v();
        break;
      case '--progress':
        o.progress = Number(v());
        break;
      default:
        throw new Error(`unknown option ${argv[i]} (--seed N --count N [--kapi URL --kubeconfig FILE] [--json FILE] [--progress N])`);
    }
  }
  return o;
}

if (process.argv[1]?.endsWith('/fuzz/run.js')) {
  const opts = parseArgs(process.argv.slice(2));
  fuzz(opts).then(
    (s) => {
      const statuses = Object.entries(s.byStatus)
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join(', ');
      process.stdout.write(
        `fuzz seed ${s.seed}: ${s.requests} requests in ${s.seconds} s (${statuses}); ${s.writesChecked} failed writes checked for partial writes; ${s.violations.length} violations\n`,
      );
      if (opts.json) writeFileSync(opts.json, JSON.stringify(s, null, 2));
      process.exitCode = s.violations.length ? 1 : 0;
    },
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
