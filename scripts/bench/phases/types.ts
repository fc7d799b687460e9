// Phase plumbing. To add a phase: write a module exporting a ServerPhase (runs against an
// already-started kapi and baseline server, one at a time) or a StandalonePhase (manages
// its own processes / talks to storage directly), and list it in phases/index.ts.
import type { BenchConfig } from '../config.js';
import type { Target } from '../http.js';
import type { EtcdInfo } from '../servers.js';

export type TargetName = 'kapi' | 'baseline';

export interface PhaseContext {
  cfg: BenchConfig;
  /** Set when BENCH_STORAGE=etcd3. */
  etcd?: EtcdInfo;
  /** Progress output (stderr). */
  log: (msg: string) => void;
  /** Record a failure that a phase absorbed (listed in the report; makes the run exit 1). */
  reportError: (msg: string) => void;
}

/** One table row. `better` decides the ratio: higher -> kapi/baseline, lower -> baseline/kapi. */
export interface MetricRow {
  id: string;
  label: string;
  unit: string;
  kapi: number | null;
  baseline: number | null;
  better: 'higher' | 'lower' | 'none';
  /** Human-readable target, e.g. ">= 3000/s". */
  target?: string;
  /** Target evaluation: true PASS, false MISS, null not evaluable (missing data). Omit if no target. */
  pass?: boolean | null;
  /** 'correctness' rows (error counts, item counts) fail the run; 'perf' rows only with BENCH_STRICT=1. */
  gate?: 'correctness' | 'perf';
}

export type Outcome<R> = { ok: true; result: R } | { ok: false; error: string };
export type PerTarget<R> = Partial<Record<TargetName, Outcome<R>>>;

/** All phase results so far, keyed by phase id (as written to bench-results.json). */
export type AllResults = Record<string, unknown>;

export interface ServerPhase<R> {
  kind: 'server';
  id: string;
  title: string;
  /** Run only against these targets (default: all). Others get no result and show "-". */
  targets?: TargetName[];
  /**
   * Run against a server of its own, started fresh (empty data dir; own etcd prefix with
   * etcd3) after the shared-server phases, so earlier phases' objects don't skew it.
   */
  freshServer?: boolean;
  run(target: Target, ctx: PhaseContext): Promise<R>;
  metrics(res: PerTarget<R>, all: AllResults, ctx: PhaseContext): MetricRow[];
}

export interface StandalonePhase<R> {
  kind: 'standalone';
  id: string;
  title: string;
  run(ctx: PhaseContext): Promise<R>;
  metrics(res: Outcome<R>, all: AllResults, ctx: PhaseContext): MetricRow[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPhase = ServerPhase<any> | StandalonePhase<any>;

export function resultOf<R>(o: Outcome<R> | undefined): R | undefined {
  return o && o.ok ? o.result : undefined;
}

/** Evaluate a target only when the needed numbers exist. */
export function check(...args: [...values: Array<number | null | undefined>, pred: () => boolean]): boolean | null {
  const pred = args.pop() as () => boolean;
  for (const v of args as Array<number | null | undefined>) if (v === null || v === undefined || Number.isNaN(v)) return null;
  return pred();
}

export function num(v: number | undefined | null): number | null {
  return v === undefined || v === null || Number.isNaN(v) ? null : v;
}
