// The replicated mode (cluster/launcher.ts): one 3-member etcd cluster on this machine, kapi
// nodes over it behind haproxy, measured through the balancer with 3 nodes and then with 1
// (the other two stopped; haproxy routes around them): StatefulSet creates/s, consistent
// gets/s (each needs etcd's current revision: a quorum read shared by the requests that
// arrive meanwhile, then the node's cache), resourceVersion=0 gets/s (the cache alone), and
// watch delivery with BENCH_WATCHERS watchers spread over the nodes by the balancer. Raw etcd
// puts/s and linearizable gets/s at the same concurrency on the same etcd cluster, in the same
// run, are what the kapi figures are held against: creates >= 70% of raw puts, consistent
// gets >= 3x raw linearizable gets.

import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../../../cluster/launcher.js';
import { makeAgent, type Target } from '../http.js';
import { httpLoad, runClosedLoop, type LoadResult } from '../load.js';
import { statefulSetBody, stsCollectionPath, stsPath } from '../manifest.js';
import { readCpuSeconds } from '../procstat.js';
import { readKubeconfig } from '../servers.js';
import { ensureNamespace } from './common.js';
import { check, num, type MetricRow, type StandalonePhase } from './types.js';
import { measureWatchLatency, type WatchLatencyResult } from './watch-latency.js';

export const CLUSTER_CREATE_RATIO_TARGET = 0.7;
export const CLUSTER_GET_RATIO_TARGET = 3;

export interface ClusterNodesResult {
  nodes: number;
  creates: LoadResult;
  consistentGets: LoadResult;
  cachedGets: LoadResult;
  /** CPU seconds of the kapi nodes and of the etcd members during each part, per operation (µs). */
  cpuPerOpUs: { creates: { kapi: number; etcd: number }; consistentGets: { kapi: number; etcd: number }; cachedGets: { kapi: number; etcd: number } };
  watch?: WatchLatencyResult;
  watchError?: string;
}

export interface ClusterResult {
  concurrency: number;
  etcdMembers: number;
  raw: { puts: LoadResult; gets: LoadResult };
  runs: ClusterNodesResult[];
}

const cpuOf = (pids: (number | undefined)[]): number => pids.reduce<number>((s, p) => s + (readCpuSeconds(p) ?? 0), 0);

export const clusterPhase: StandalonePhase<ClusterResult> = {
  kind: 'standalone',
  id: 'cluster',
  title: 'replicated mode: 1 and 3 nodes over a 3-member etcd, through haproxy',
  async run(ctx) {
    const { cfg } = ctx;
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const dir = mkdtempSync(join(base, 'kapi-bench-cluster-'));
    ctx.log(`  starting a cluster (3 etcd members, 3 nodes, haproxy) in ${dir} ...`);
    // Only the namespace controller, as the single-node phases run: the StatefulSet controller would
    // turn every create into a pod, a revision and status writes, and measure those instead.
    const cluster = await Cluster.start({ dataDir: dir, port: 0, nodes: 3, etcdMembers: 3, startTimeoutMs: 180_000, nodeFlags: ['--controllers', 'namespace-controller'] });
    try {
      const raw = await rawEtcd(cluster, ctx.cfg.concurrency, cfg.phaseMs, cfg.warmupOps, cfg.maxOpsPerPhase);
      ctx.log(`  raw etcd (3 members): ${raw.puts.okPerSec.toFixed(0)} puts/s, ${raw.gets.okPerSec.toFixed(0)} linearizable gets/s (${cfg.concurrency} clients)`);
      const kc = readKubeconfig(cluster.kubeconfig);
      const runs: ClusterNodesResult[] = [];
      for (const nodes of [3, 1]) {
        // The nodes beyond `nodes` stop; haproxy takes them out of rotation within 2 s.
        for (const n of cluster.nodes.slice(nodes)) await n.stop();
        if (nodes < cluster.nodes.length) await new Promise((r) => setTimeout(r, 3000));
        const target: Target = { name: `kapi x${nodes}`, host: kc.url.hostname, port: Number(kc.url.port), tls: kc.tls, token: kc.token, agent: makeAgent(cfg.concurrency, kc.tls), pids: cluster.nodes.slice(0, nodes).flatMap((n) => (n.pid ? [n.pid] : [])) };
        try {
          runs.push(await measureNodes(target, cluster, nodes, ctx));
        } finally {
          target.agent.destroy();
        }
      }
      return { concurrency: cfg.concurrency, etcdMembers: cluster.etcd.length, raw, runs };
    } finally {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  metrics(res) {
    const r = res.ok ? res.result : undefined;
    const puts = num(r?.raw.puts.okPerSec);
    const gets = num(r?.raw.gets.okPerSec);
    const rows: MetricRow[] = [
      { id: 'cluster.raw_puts', label: `raw etcd puts/s, 3 members (${r?.concurrency ?? '?'} clients)`, unit: '/s', kapi: null, baseline: puts, better: 'none' },
      { id: 'cluster.raw_gets', label: 'raw etcd linearizable gets/s, 3 members', unit: '/s', kapi: null, baseline: gets, better: 'none' },
    ];
    for (const run of r?.runs ?? []) {
      const n = run.nodes;
      const c = num(run.creates.okPerSec);
      const g = num(run.consistentGets.okPerSec);
      rows.push(
        {
          id: `cluster.n${n}.creates`,
          label: `${n} node${n > 1 ? 's' : ''}: creates/s through haproxy (baseline col: raw etcd puts/s)`,
          unit: '/s',
          kapi: c,
          baseline: puts,
          better: 'higher',
          target: `>= ${CLUSTER_CREATE_RATIO_TARGET * 100}% of raw puts`,
          pass: check(c, puts, () => c! >= CLUSTER_CREATE_RATIO_TARGET * puts!),
          gate: 'perf',
        },
        {
          id: `cluster.n${n}.consistent_gets`,
          label: `${n} node${n > 1 ? 's' : ''}: consistent gets/s (baseline col: raw etcd linearizable gets/s)`,
          unit: '/s',
          kapi: g,
          baseline: gets,
          better: 'higher',
          target: `>= ${CLUSTER_GET_RATIO_TARGET}x raw gets`,
          pass: check(g, gets, () => g! >= CLUSTER_GET_RATIO_TARGET * gets!),
          gate: 'perf',
        },
        { id: `cluster.n${n}.cached_gets`, label: `${n} node${n > 1 ? 's' : ''}: resourceVersion=0 gets/s (baseline col: raw etcd gets/s)`, unit: '/s', kapi: num(run.cachedGets.okPerSec), baseline: gets, better: 'higher' },
        { id: `cluster.n${n}.watch_p50`, label: `${n} node${n > 1 ? 's' : ''}: watch delivery p50 from the 201`, unit: 'ms', kapi: num(run.watch?.latencyFromAckMs.p50), baseline: null, better: 'lower' },
        { id: `cluster.n${n}.watch_p99`, label: `${n} node${n > 1 ? 's' : ''}: watch delivery p99 from the 201 (${run.watch?.watchers ?? '?'} watchers)`, unit: 'ms', kapi: num(run.watch?.latencyFromAckMs.p99), baseline: null, better: 'lower' },
        { id: `cluster.n${n}.watch_cpu`, label: `${n} node${n > 1 ? 's' : ''}: the nodes' CPU per delivered event`, unit: 'µs', kapi: run.watch?.serverCpuPerDeliveryUs ?? null, baseline: null, better: 'lower' },
        {
          id: `cluster.n${n}.failures`,
          label: `${n} node${n > 1 ? 's' : ''}: failed requests, missed or duplicated watch deliveries`,
          unit: '',
          kapi: failuresOf(run),
          baseline: null,
          better: 'none',
          target: '= 0',
          pass: check(failuresOf(run), () => failuresOf(run) === 0),
          gate: 'correctness',
        },
      );
    }
    return rows;
  },
};

function failuresOf(run: ClusterNodesResult): number {
  const w = run.watch;
  const load = [run.creates, run.consistentGets, run.cachedGets].reduce((s, l) => s + l.errors + l.unexpected, 0);
  return load + (w ? w.missed + w.duplicates + w.writes.failed + w.watcherFailures + w.badEvents : 0) + (run.watchError ? 1 : 0);
}

/** Raw etcd through the etcd3 client to every member: puts of the bench's StatefulSet bytes, then linearizable gets of them. */
async function rawEtcd(cluster: Cluster, concurrency: number, durationMs: number, warmupOps: number, maxOps: number): Promise<{ puts: LoadResult; gets: LoadResult }> {
  const { Etcd3 } = await import('etcd3');
  const client = new Etcd3({ hosts: cluster.etcd.map((m) => m.endpoint) });
  const prefix = '/kapi-bench-raw/statefulsets/default/';
  const written: string[] = [];
  try {
    const put = (p: string, keep: boolean) => async (i: number) => {
      const key = `${prefix}${p}${i}`;
      await client.put(key).value(statefulSetBody(`${p}${i}`));
      if (keep) written.push(key);
      return { ok: true, label: 'put' };
    };
    await runClosedLoop({ concurrency, maxOps: warmupOps, durationMs, op: put('warm-', true) });
    const puts = await runClosedLoop({ concurrency, maxOps, durationMs, op: put('bench-', true) });
    const get = async (): Promise<{ ok: boolean; label: string }> => {
      const v = await client.get(written[Math.floor(Math.random() * written.length)]!).buffer();
      return { ok: v !== null, label: v ? 'get' : 'missing' };
    };
    await runClosedLoop({ concurrency, maxOps: warmupOps, durationMs, op: get });
    const gets = await runClosedLoop({ concurrency, maxOps, durationMs, op: get });
    await client.delete().prefix(prefix);
    return { puts, gets };
  } finally {
    client.close();
  }
}

async function measureNodes(target: Target, cluster: Cluster, nodes: number, ctx: Parameters<StandalonePhase<unknown>['run']>[0]): Promise<ClusterNodesResult> {
  const { cfg } = ctx;
  const ns = `bench-cluster-${nodes}`;
  await ensureNamespace(target, ns, cfg.requestTimeoutMs);
  const common = { target, concurrency: cfg.concurrency, timeoutMs: cfg.requestTimeoutMs };
  const kapiPids = cluster.nodes.slice(0, nodes).map((n) => n.pid);
  const etcdPids = cluster.etcd.map((m) => m.pid);
  const measure = async (what: string, run: () => Promise<LoadResult>): Promise<[LoadResult, { kapi: number; etcd: number }]> => {
    const k0 = cpuOf(kapiPids);
    const e0 = cpuOf(etcdPids);
    const r = await run();
    const per = (s: number): number => (r.ok > 0 ? (s * 1e6) / r.ok : NaN);
    const cpu = { kapi: per(cpuOf(kapiPids) - k0), etcd: per(cpuOf(etcdPids) - e0) };
    ctx.log(`  ${target.name}: ${r.okPerSec.toFixed(0)} ${what}/s, p50 ${r.latencyMs.p50.toFixed(2)} ms, p99 ${r.latencyMs.p99.toFixed(2)} ms; CPU per op: kapi ${cpu.kapi.toFixed(0)} µs, etcd ${cpu.etcd.toFixed(0)} µs; ${r.unexpected} unexpected, ${r.errors} errors`);
    return [r, cpu];
  };
  const existing: string[] = [];
  const post = (p: string) => (i: number) => ({ method: 'POST' as const, path: stsCollectionPath(ns), body: statefulSetBody(`${p}${i}`) });
  await httpLoad({ ...common, maxOps: cfg.warmupOps, durationMs: cfg.phaseMs, makeRequest: post('warm-'), expectStatus: 201, onOk: (i) => existing.push(`warm-${i}`) });
  const [creates, createCpu] = await measure('creates', () =>
    httpLoad({ ...common, maxOps: cfg.maxOpsPerPhase, durationMs: cfg.phaseMs, makeRequest: post('bench-'), expectStatus: 201, onOk: (i) => existing.push(`bench-${i}`) }),
  );
  const pick = (q: string) => () => ({ method: 'GET' as const, path: `${stsPath(ns, existing[Math.floor(Math.random() * existing.length)]!)}${q}` });
  await httpLoad({ ...common, maxOps: cfg.warmupOps, durationMs: cfg.phaseMs, makeRequest: pick(''), expectStatus: 200 });
  const [consistentGets, consistentCpu] = await measure('consistent gets', () => httpLoad({ ...common, maxOps: cfg.maxOpsPerPhase, durationMs: cfg.phaseMs, makeRequest: pick(''), expectStatus: 200 }));
  const [cachedGets, cachedCpu] = await measure('resourceVersion=0 gets', () =>
    httpLoad({ ...common, maxOps: cfg.maxOpsPerPhase, durationMs: cfg.phaseMs, makeRequest: pick('?resourceVersion=0'), expectStatus: 200 }),
  );
  const out: ClusterNodesResult = { nodes, creates, consistentGets, cachedGets, cpuPerOpUs: { creates: createCpu, consistentGets: consistentCpu, cachedGets: cachedCpu } };
  try {
    out.watch = await measureWatchLatency(target, ctx, `bench-watch-n${nodes}-`);
  } catch (e) {
    out.watchError = (e as Error).message;
    ctx.reportError(`cluster watch (${nodes} nodes): ${out.watchError}`);
  }
  return out;
}
