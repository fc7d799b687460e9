// One chaos run: a fresh namespace, watchers, concurrent clients through the balancer, one
// fault from the schedule in the middle, then (the fault healed) the final reads from every
// node, etcd's log of the run, and the checks.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Cluster } from '../launcher.js';
import { ApiClient, type Credentials } from './client.js';
import { checkRun, type RunCheck } from './check.js';
import { etcdRevision, readLog } from './etcd-log.js';
import { injectFault, type FaultKind } from './faults.js';
import type { Operation, RunHistory } from './history.js';
import { runReport } from './report.js';
import { leasesPath, nowNs, Watcher, Worker } from './workload.js';

export interface RunOptions {
  cluster: Cluster;
  credentials: Credentials;
  run: number;
  seconds: number;
  fault: FaultKind;
  seed: number;
  /** Where the run's history and report go. */
  dir: string;
  checkerBin: string;
  workers: number;
  keys: number;
  /** A request without an answer by then counts as an unknown outcome. */
  clientTimeoutMs: number;
  startTimeoutMs: number;
  log: (msg: string) => void;
}

export interface RunResult {
  history: RunHistory;
  check: RunCheck;
  report: string;
  ok: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, timeoutMs: number, fn: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

export async function chaosRun(o: RunOptions): Promise<RunResult> {
  const c = o.cluster;
  const t0 = performance.now();
  const t0Ns = nowNs();
  const namespace = `chaos-${o.run}-${o.seed.toString(36)}`;
  const keys = Array.from({ length: o.keys }, (_, i) => `k${i}`);
  const etcd = c.etcd.map((m) => m.endpoint);
  const admin = new ApiClient(c.balancerUrl, o.credentials);
  await until(`namespace ${namespace}`, 30_000, async () => {
    const a = await admin.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, 10_000, true);
    return a.status === 201 || a.status === 409;
  });
  const startRev = await etcdRevision(etcd);

  const watchers = [namespace, namespace, ''].map((ns, i) => new Watcher(i, new ApiClient(c.balancerUrl, o.credentials), ns, t0));
  await Promise.all(watchers.map((w) => w.start()));

  const ops: Operation[] = [];
  let nextId = 1;
  const workers = Array.from(
    { length: o.workers },
    (_, i) =>
      new Worker({
        id: i,
        client: new ApiClient(c.balancerUrl, o.credentials),
        namespace,
        keys,
        seed: o.seed + o.run * 1000 + i,
        timeoutMs: o.clientTimeoutMs,
        record: (op) => ops.push(op),
        nextId: () => nextId++,
      }),
  );
  for (const w of workers) w.start();
  o.log(`run ${o.run}: ${o.fault}, ${o.workers} clients on ${o.keys} objects in ${namespace}, 3 watchers`);

  const total = o.seconds * 1000;
  await sleep(Math.max(2000, total * 0.25));
  const hold = Math.min(5000, Math.max(2000, total * 0.2));
  const fault = await injectFault(c, o.fault, o.run, hold, t0, o.startTimeoutMs);
  o.log(`run ${o.run}: ${fault.kind} on ${fault.target} healed after ${fault.healed - fault.start} ms`);
  await sleep(Math.max(3000, total - (performance.now() - t0)));
  await Promise.all(workers.map((w) => w.stop()));

  // The fault healed: every node and member up, and the balancer routing again.
  await until('every node ready', 60_000, async () => (await Promise.all(c.nodes.map((n) => n.ready()))).every(Boolean));
  await until('every etcd member healthy', 60_000, async () => (await Promise.all(c.etcd.map((m) => m.healthy()))).every(Boolean));
  const finalReads: RunHistory['finalReads'] = [];
  const targets = [...c.nodes.map((n) => ({ via: n.name, url: n.url })), { via: 'the balancer', url: c.balancerUrl }];
  for (const [i, t] of targets.entries()) {
    const client = new ApiClient(t.url, o.credentials);
    const op: Operation = { id: nextId++, client: 1000 + i, kind: 'list', mode: 'consistent', call: nowNs(), items: [], pages: 1 };
    try {
      const a = await client.request('GET', leasesPath(namespace), undefined, 30_000);
      op.ret = op.firstRet = nowNs();
      op.status = a.status;
      op.conn = a.conn;
      op.listRv = Number(a.json?.metadata?.resourceVersion);
      op.items = (a.json?.items ?? []).map((it: { metadata: { name: string; resourceVersion: string }; spec?: { holderIdentity?: string } }) => ({
        name: it.metadata.name,
        value: String(it.spec?.holderIdentity ?? ''),
        rv: Number(it.metadata.resourceVersion),
      }));
    } catch (e) {
      op.error = (e as Error).message;
    }
    client.close();
    finalReads.push({ via: t.via, op });
  }
  const endRev = await etcdRevision(etcd);
  const log = await readLog(etcd[0]!, startRev, endRev);
  // Each watcher has every change of its scope up to the end, or fails the check for it.
  for (const w of watchers) {
    const last = log.filter((e) => e.rv <= endRev && (!w.history.namespace || e.key.startsWith(`${w.history.namespace}/`))).at(-1)?.rv ?? 0;
    await until(`watcher ${w.history.id} to reach ${last}`, 20_000, async () => w.reached >= last).catch(() => undefined);
  }
  await Promise.all(watchers.map((w) => w.stop()));
  admin.close();

  const history: RunHistory = {
    run: o.run,
    namespace,
    keys,
    fault,
    startRev,
    endRev,
    ops,
    watchers: watchers.map((w) => w.history),
    log,
    finalReads,
  };
  await mkdir(o.dir, { recursive: true });
  await writeFile(join(o.dir, 'history.json'), JSON.stringify({ t0Ns, ...history }));
  const check = await checkRun(history, o.checkerBin, o.dir);
  const ok = check.violations.length === 0 && check.linearizability.result === 'ok';
  const report = runReport(history, check, t0Ns, o.seconds);
  await writeFile(join(o.dir, 'report.txt'), `${report}\n`);
  await writeFile(join(o.dir, 'report.json'), JSON.stringify({ ok, fault, stats: check.stats, linearizability: check.linearizability, violations: check.violations }, null, 2));
  return { history, check, report, ok };
}
