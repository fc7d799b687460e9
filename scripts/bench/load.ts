// Reusable closed-loop load generator: `concurrency` workers, each issuing its next
// operation as soon as the previous one completes, until the time budget or the
// operation budget is spent (whichever first). Latency is measured per operation.
import { performance } from 'node:perf_hooks';
import { request, type ReqSpec, type Target } from './http.js';

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  min: number;
}

export interface LoadResult {
  /** Operations that succeeded (e.g. HTTP status === expected). */
  ok: number;
  /** Operations that completed with an unexpected outcome (e.g. non-201). */
  unexpected: number;
  /** Operations that failed outright (network error, timeout, exception). */
  errors: number;
  /** Total operations issued. */
  issued: number;
  /** Wall time from first issue to last completion, ms. */
  elapsedMs: number;
  /** ok / elapsed seconds. */
  okPerSec: number;
  /** Latency of successful operations, ms. */
  latencyMs: Percentiles;
  /** Count per outcome label (HTTP status, 'error'). */
  outcomes: Record<string, number>;
  /** First few unexpected/error samples, for diagnostics. */
  samples: string[];
}

export interface Outcome {
  ok: boolean;
  /** Label recorded in `outcomes` (e.g. the HTTP status). */
  label: string;
  /** Diagnostic detail for unexpected outcomes. */
  detail?: string;
}

export interface LoopOptions {
  concurrency: number;
  /** Stop issuing after this many ms (omit for count-only). */
  durationMs?: number;
  /** Stop issuing after this many operations (always bounded). */
  maxOps: number;
  /** Runs operation number `i` (0-based, unique across workers). */
  op: (i: number, worker: number) => Promise<Outcome>;
  /** Max latency samples kept (memory bound). */
  maxSamples?: number;
}

const MAX_DIAG = 5;

export function percentiles(values: ArrayLike<number>): Percentiles {
  const n = values.length;
  if (n === 0) return { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN, min: NaN };
  const sorted = Float64Array.from(values as ArrayLike<number>).sort();
  const at = (q: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[n - 1]!, mean: sum / n, min: sorted[0]! };
}

export async function runClosedLoop(o: LoopOptions): Promise<LoadResult> {
  const maxSamples = o.maxSamples ?? 2_000_000;
  let lat = new Float64Array(Math.min(maxSamples, 65_536));
  let nLat = 0;
  let issued = 0;
  let ok = 0;
  let unexpected = 0;
  let errors = 0;
  const outcomes: Record<string, number> = {};
  const samples: string[] = [];
  const start = performance.now();
  const deadline = o.durationMs === undefined ? Infinity : start + o.durationMs;

  const record = (ms: number): void => {
    if (nLat >= lat.length) {
      if (lat.length >= maxSamples) return;
      const next = new Float64Array(Math.min(maxSamples, lat.length * 2));
      next.set(lat);
      lat = next;
    }
    lat[nLat++] = ms;
  };

  const worker = async (w: number): Promise<void> => {
    while (issued < o.maxOps && performance.now() < deadline) {
      const i = issued++;
      const t0 = performance.now();
      try {
        const out = await o.op(i, w);
        const dt = performance.now() - t0;
        outcomes[out.label] = (outcomes[out.label] ?? 0) + 1;
        if (out.ok) {
          ok++;
          record(dt);
        } else {
          unexpected++;
          if (samples.length < MAX_DIAG) samples.push(`${out.label}: ${out.detail ?? ''}`.slice(0, 500));
        }
      } catch (err) {
        errors++;
        outcomes.error = (outcomes.error ?? 0) + 1;
        if (samples.length < MAX_DIAG) samples.push(`error: ${(err as Error).message}`.slice(0, 500));
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, (_, w) => worker(w)));
  const elapsedMs = performance.now() - start;
  return {
    ok,
    unexpected,
    errors,
    issued,
    elapsedMs,
    okPerSec: elapsedMs > 0 ? (ok * 1000) / elapsedMs : 0,
    latencyMs: percentiles(lat.subarray(0, nLat)),
    outcomes,
    samples,
  };
}

export interface HttpLoadOptions {
  target: Target;
  concurrency: number;
  durationMs?: number;
  maxOps: number;
  timeoutMs: number;
  /** Builds request number i. */
  makeRequest: (i: number) => ReqSpec;
  /** Expected status; anything else counts as `unexpected`. */
  expectStatus: number;
  /** Collect the body of successful responses and validate it; its run time counts in the latency, so keep it cheap. */
  check?: (i: number, body: Buffer) => string | undefined;
  /** Called for each successful operation. */
  onOk?: (i: number) => void;
}

/** Closed-loop HTTP load over the target's keep-alive agent. */
export function httpLoad(o: HttpLoadOptions): Promise<LoadResult> {
  const collect = o.check !== undefined;
  return runClosedLoop({
    concurrency: o.concurrency,
    durationMs: o.durationMs,
    maxOps: o.maxOps,
    op: async (i) => {
      const spec = o.makeRequest(i);
      const res = await request(o.target, spec, { timeoutMs: o.timeoutMs, collectBody: collect, expect: o.expectStatus });
      const label = String(res.status);
      if (res.status !== o.expectStatus) {
        return { ok: false, label, detail: `${spec.method} ${spec.path} -> ${res.body?.toString('utf8').slice(0, 300) ?? ''}` };
      }
      if (o.check && res.body) {
        const problem = o.check(i, res.body);
        if (problem) return { ok: false, label: 'check-failed', detail: problem };
      }
      o.onOk?.(i);
      return { ok: true, label };
    },
  });
}
