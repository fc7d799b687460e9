// Workload 3: list latency of exactly N (1,000) StatefulSets in a fresh namespace.
import { performance } from 'node:perf_hooks';
import { request } from '../http.js';
import { httpLoad, percentiles, type LoadResult, type Percentiles } from '../load.js';
import { statefulSetBody, stsCollectionPath } from '../manifest.js';
import { ensureNamespace, failures, summarize } from './common.js';
import { check, num, resultOf, type ServerPhase } from './types.js';

export interface ListResult {
  namespace: string;
  listSize: number;
  setup: Record<string, unknown>;
  setupFailures: number;
  iterations: number;
  latencyMs: Percentiles;
  /** Iterations whose response had items.length === listSize and status 200. */
  iterationsCorrect: number;
  /** Distinct item counts seen (should be exactly [listSize]). */
  itemCountsSeen: number[];
  responseBytes: number;
  problems: string[];
}

export const LIST_TARGET_P50_MS = 20;
const NS = 'benchlist';

export const listPhase: ServerPhase<ListResult> = {
  kind: 'server',
  id: 'list',
  title: 'list latency',
  async run(target, ctx) {
    const { cfg } = ctx;
    await ensureNamespace(target, NS, cfg.requestTimeoutMs);
    const path = stsCollectionPath(NS);
    ctx.log(`  ${target.name}: creating ${cfg.listSize} StatefulSets in ${NS} ...`);
    const setup: LoadResult = await httpLoad({
      target,
      concurrency: cfg.concurrency,
      timeoutMs: cfg.requestTimeoutMs,
      maxOps: cfg.listSize, // exactly listSize creates, names bench-0..bench-(N-1)
      makeRequest: (i) => ({ method: 'POST', path, body: statefulSetBody(`bench-${i}`) }),
      expectStatus: 201,
    });

    const problems: string[] = [];
    const counts = new Set<number>();
    const lat: number[] = [];
    let correct = 0;
    let bytes = 0;
    const total = cfg.listWarmups + cfg.listIterations;
    for (let i = 0; i < total; i++) {
      const t0 = performance.now();
      let res;
      try {
        res = await request(target, { method: 'GET', path }, { timeoutMs: cfg.requestTimeoutMs, collectBody: true });
      } catch (err) {
        if (problems.length < 5) problems.push(`GET ${path}: ${(err as Error).message}`);
        continue;
      }
      const dt = performance.now() - t0;
      const measured = i >= cfg.listWarmups;
      if (measured) lat.push(dt);
      // Verification happens outside the timed window.
      if (res.status !== 200) {
        if (problems.length < 5) problems.push(`GET ${path} -> ${res.status}: ${res.body?.toString('utf8').slice(0, 300)}`);
        continue;
      }
      bytes = res.body?.length ?? 0;
      try {
        const list = JSON.parse(res.body?.toString('utf8') ?? '') as { kind?: string; items?: unknown[] };
        const n = Array.isArray(list.items) ? list.items.length : -1;
        counts.add(n);
        if (n === cfg.listSize) {
          if (measured) correct++;
        } else if (problems.length < 5) {
          problems.push(`items.length = ${n}, expected ${cfg.listSize}`);
        }
      } catch (err) {
        if (problems.length < 5) problems.push(`invalid JSON list: ${(err as Error).message}`);
      }
    }
    const latencyMs = percentiles(lat);
    ctx.log(`  ${target.name}: list of ${cfg.listSize} p50 ${latencyMs.p50.toFixed(2)} ms, p99 ${latencyMs.p99.toFixed(2)} ms (${correct}/${cfg.listIterations} correct)`);
    return {
      namespace: NS,
      listSize: cfg.listSize,
      setup: summarize(setup),
      setupFailures: failures(setup) ?? 0,
      iterations: cfg.listIterations,
      latencyMs,
      iterationsCorrect: correct,
      itemCountsSeen: [...counts].sort((a, b) => a - b),
      responseBytes: bytes,
      problems,
    };
  },
  metrics(res, _all, ctx) {
    const k = resultOf(res.kapi);
    const b = resultOf(res.baseline);
    const n = ctx.cfg.listSize;
    const kp50 = num(k?.latencyMs.p50);
    const kWrong = k ? k.iterations - k.iterationsCorrect + k.setupFailures : null;
    return [
      {
        id: 'list.p50_ms',
        label: `list ${n} latency p50`,
        unit: 'ms',
        kapi: kp50,
        baseline: num(b?.latencyMs.p50),
        better: 'lower',
        target: `< ${LIST_TARGET_P50_MS} ms`,
        pass: check(kp50, () => kp50! < LIST_TARGET_P50_MS),
        gate: 'perf',
      },
      { id: 'list.p99_ms', label: `list ${n} latency p99`, unit: 'ms', kapi: num(k?.latencyMs.p99), baseline: num(b?.latencyMs.p99), better: 'lower' },
      {
        id: 'list.wrong',
        label: `list setup failures + lists != ${n} items`,
        unit: '',
        kapi: kWrong,
        baseline: b ? b.iterations - b.iterationsCorrect + b.setupFailures : null,
        better: 'none',
        target: '= 0',
        pass: check(kWrong, () => kWrong === 0),
        gate: 'correctness',
      },
    ];
  },
};
