// Server-Side Apply throughput: two field managers apply to a pool of StatefulSets at
// BENCH_CONCURRENCY clients. Manager "bench-a" applies the full ~1 KB manifest with a changing
// annotation; manager "bench-b" applies a small config (a label and a sidecar container) it
// alone owns. Every apply changes the object (a real write, managedFields recomputed), no
// apply conflicts, so every answer must be 200.
import { httpLoad, type LoadResult } from '../load.js';
import { statefulSetObject, stsPath } from '../manifest.js';
import { ensureNamespace, failures, summarize } from './common.js';
import { check, num, resultOf, type ServerPhase } from './types.js';

export interface ApplyResult {
  namespaceStatus: number | string;
  setup: Record<string, unknown>;
  apply: LoadResult;
}

export const APPLY_TARGET_PER_SEC = 1500;
const NS = 'benchapply';
const POOL = 256;
const APPLY_CT = 'application/apply-patch+yaml';

function managerA(name: string, i: number): Buffer {
  const o = statefulSetObject(name, NS) as { metadata: { annotations: Record<string, string> } };
  o.metadata.annotations['kapi.dev/rev'] = String(i);
  return Buffer.from(JSON.stringify(o));
}

function managerB(name: string, i: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name, namespace: NS, labels: { 'bench-b': `v${i}` } },
      spec: { template: { spec: { containers: [{ name: 'sidecar', image: `busybox:1.${i % 37}` }] } } },
    }),
  );
}

const applyPath = (name: string, manager: string) => `${stsPath(NS, name)}?fieldManager=${manager}`;

export const applyPhase: ServerPhase<ApplyResult> = {
  kind: 'server',
  id: 'apply',
  title: 'server-side applies/s (two managers)',
  targets: ['kapi'],
  async run(target, ctx) {
    const { cfg } = ctx;
    const common = { target, concurrency: cfg.concurrency, timeoutMs: cfg.requestTimeoutMs };
    let namespaceStatus: number | string;
    try {
      namespaceStatus = await ensureNamespace(target, NS, cfg.requestTimeoutMs);
    } catch (err) {
      namespaceStatus = (err as Error).message;
    }
    // Untimed: manager A creates the pool by applying (201 each).
    const setup = await httpLoad({
      ...common,
      maxOps: POOL,
      makeRequest: (i) => ({ method: 'PATCH', path: applyPath(`apply-${i}`, 'bench-a'), body: managerA(`apply-${i}`, 0), contentType: APPLY_CT }),
      expectStatus: 201,
    });
    ctx.log(`  ${target.name}: applies for ${cfg.phaseMs / 1000}s ...`);
    const apply = await httpLoad({
      ...common,
      maxOps: cfg.maxOpsPerPhase,
      durationMs: cfg.phaseMs,
      makeRequest: (i) => {
        const name = `apply-${(i >> 1) % POOL}`;
        const n = i + 1;
        return i % 2 === 0
          ? { method: 'PATCH', path: applyPath(name, 'bench-a'), body: managerA(name, n), contentType: APPLY_CT }
          : { method: 'PATCH', path: applyPath(name, 'bench-b'), body: managerB(name, n), contentType: APPLY_CT };
      },
      expectStatus: 200,
    });
    ctx.log(`  ${target.name}: ${apply.okPerSec.toFixed(0)} applies/s, ${apply.unexpected} non-200, ${apply.errors} errors`);
    return { namespaceStatus, setup: summarize(setup), apply };
  },
  metrics(res) {
    const k = resultOf(res.kapi);
    const rate = num(k?.apply.okPerSec);
    const fail = failures(k?.apply);
    return [
      {
        id: 'apply.per_sec',
        label: 'server-side applies/s (200 only)',
        unit: '/s',
        kapi: rate,
        baseline: null,
        better: 'higher',
        target: `>= ${APPLY_TARGET_PER_SEC}/s`,
        pass: check(rate, () => rate! >= APPLY_TARGET_PER_SEC),
        gate: 'perf',
      },
      {
        id: 'apply.failures',
        label: 'apply non-200 + errors',
        unit: '',
        kapi: fail,
        baseline: null,
        better: 'none',
        target: '= 0',
        pass: check(fail, () => fail === 0),
        gate: 'correctness',
      },
      { id: 'apply.p50_ms', label: 'apply latency p50', unit: 'ms', kapi: num(k?.apply.latencyMs.p50), baseline: null, better: 'lower' },
      { id: 'apply.p99_ms', label: 'apply latency p99', unit: 'ms', kapi: num(k?.apply.latencyMs.p99), baseline: null, better: 'lower' },
    ];
  },
};
