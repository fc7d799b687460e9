// Workloads 1 and 2: creates/s of distinct StatefulSets, then gets/s of random existing ones.
import { httpLoad, type LoadResult } from '../load.js';
import { statefulSetBody, stsCollectionPath, stsPath } from '../manifest.js';
import { ensureNamespace, failures, summarize } from './common.js';
import { check, num, resultOf, type ServerPhase } from './types.js';

export interface CreateGetResult {
  namespaceStatus: number | string;
  warmupCreates: Record<string, unknown>;
  create: LoadResult;
  warmupGets?: Record<string, unknown>;
  get?: LoadResult;
  /** Objects known to exist (warm-up + measured creates). */
  existing: number;
}

export const CREATE_TARGET_PER_SEC = 3000;
export const GET_TARGET_RATIO = 0.5;
const NS = 'default';

export const createGetPhase: ServerPhase<CreateGetResult> = {
  kind: 'server',
  id: 'create-get',
  title: 'creates/s and gets/s',
  async run(target, ctx) {
    const { cfg } = ctx;
    const common = { target, concurrency: cfg.concurrency, timeoutMs: cfg.requestTimeoutMs };
    // kapi should bootstrap "default" itself; creating it is harmless if it does.
    let namespaceStatus: number | string;
    try {
      namespaceStatus = await ensureNamespace(target, NS, cfg.requestTimeoutMs);
    } catch (err) {
      namespaceStatus = (err as Error).message;
    }

    const existing: string[] = [];
    const postPath = stsCollectionPath(NS);

    const warm = await httpLoad({
      ...common,
      maxOps: cfg.warmupOps,
      durationMs: cfg.phaseMs,
      makeRequest: (i) => ({ method: 'POST', path: postPath, body: statefulSetBody(`bench-warmup-${i}`) }),
      expectStatus: 201,
      onOk: (i) => existing.push(`bench-warmup-${i}`),
    });

    ctx.log(`  ${target.name}: creates for ${cfg.phaseMs / 1000}s ...`);
    const create = await httpLoad({
      ...common,
      maxOps: cfg.maxOpsPerPhase,
      durationMs: cfg.phaseMs,
      makeRequest: (i) => ({ method: 'POST', path: postPath, body: statefulSetBody(`bench-${i}`) }),
      expectStatus: 201,
      onOk: (i) => existing.push(`bench-${i}`),
    });
    ctx.log(`  ${target.name}: ${create.okPerSec.toFixed(0)} creates/s, ${create.unexpected} non-201, ${create.errors} errors`);

    const result: CreateGetResult = {
      namespaceStatus,
      warmupCreates: summarize(warm),
      create,
      existing: existing.length,
    };
    if (existing.length === 0) return result;

    const pick = (): { method: 'GET'; path: string } => ({
      method: 'GET',
      path: stsPath(NS, existing[Math.floor(Math.random() * existing.length)]!),
    });
    const warmGets = await httpLoad({ ...common, maxOps: cfg.warmupOps, durationMs: cfg.phaseMs, makeRequest: pick, expectStatus: 200 });
    result.warmupGets = summarize(warmGets);

    ctx.log(`  ${target.name}: gets for ${cfg.phaseMs / 1000}s ...`);
    result.get = await httpLoad({ ...common, maxOps: cfg.maxOpsPerPhase, durationMs: cfg.phaseMs, makeRequest: pick, expectStatus: 200 });
    ctx.log(`  ${target.name}: ${result.get.okPerSec.toFixed(0)} gets/s, p50 ${result.get.latencyMs.p50.toFixed(2)} ms, p99 ${result.get.latencyMs.p99.toFixed(2)} ms`);
    return result;
  },
  metrics(res) {
    const k = resultOf(res.kapi);
    const b = resultOf(res.baseline);
    const kc = num(k?.create.okPerSec);
    const kg = num(k?.get?.okPerSec);
    const bg = num(b?.get?.okPerSec);
    const kCreateFail = failures(k?.create);
    const kGetFail = failures(k?.get);
    return [
      {
        id: 'create.per_sec',
        label: 'creates/s (201 only)',
        unit: '/s',
        kapi: kc,
        baseline: num(b?.create.okPerSec),
        better: 'higher',
        target: `>= ${CREATE_TARGET_PER_SEC}/s`,
        pass: check(kc, () => kc! >= CREATE_TARGET_PER_SEC),
        gate: 'perf',
      },
      {
        id: 'create.failures',
        label: 'create non-201 + errors',
        unit: '',
        kapi: kCreateFail,
        baseline: failures(b?.create),
        better: 'none',
        target: '= 0',
        pass: check(kCreateFail, () => kCreateFail === 0),
        gate: 'correctness',
      },
      { id: 'create.p50_ms', label: 'create latency p50', unit: 'ms', kapi: num(k?.create.latencyMs.p50), baseline: num(b?.create.latencyMs.p50), better: 'lower' },
      { id: 'create.p99_ms', label: 'create latency p99', unit: 'ms', kapi: num(k?.create.latencyMs.p99), baseline: num(b?.create.latencyMs.p99), better: 'lower' },
      {
        id: 'get.per_sec',
        label: 'gets/s (200 only)',
        unit: '/s',
        kapi: kg,
        baseline: bg,
        better: 'higher',
        target: `>= ${GET_TARGET_RATIO * 100}% of baseline`,
        pass: check(kg, bg, () => kg! >= GET_TARGET_RATIO * bg!),
        gate: 'perf',
      },
      {
        id: 'get.failures',
        label: 'get non-200 + errors',
        unit: '',
        kapi: kGetFail,
        baseline: failures(b?.get),
        better: 'none',
        target: '= 0',
        pass: check(kGetFail, () => kGetFail === 0),
        gate: 'correctness',
      },
      { id: 'get.p50_ms', label: 'get latency p50', unit: 'ms', kapi: num(k?.get?.latencyMs.p50), baseline: num(b?.get?.latencyMs.p50), better: 'lower' },
      { id: 'get.p99_ms', label: 'get latency p99', unit: 'ms', kapi: num(k?.get?.latencyMs.p99), baseline: num(b?.get?.latencyMs.p99), better: 'lower' },
    ];
  },
};
