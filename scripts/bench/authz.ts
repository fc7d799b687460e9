// What authorization costs: StatefulSet creates and gets over TLS by a user who is NOT in
// system:masters (so every request walks the RBAC authorizer: a client certificate for
// `bench-user`, bound by a RoleBinding to the bootstrap ClusterRole `edit` in namespace
// `bench`), against kapi with its default authorization (Node,RBAC) and with
// --authorization-mode=AlwaysAllow, alternating, each on a fresh data dir; and, when
// AUTHZ_BENCH_ORACLE is set, against a running kube-apiserver (RBAC) with a bearer token
// bound the same way.
//
//   npx tsc -p tsconfig.json && node dist/scripts/bench/authz.js
//   AUTHZ_BENCH_ORACLE=https://127.0.0.1:16443 AUTHZ_BENCH_ORACLE_TOKEN=alice-token \
//     AUTHZ_BENCH_ORACLE_USER=alice AUTHZ_BENCH_ORACLE_PID=$(cat ~/.oracle/apiserver.pid) node dist/scripts/bench/authz.js
//
// Reported per run: creates/s and gets/s with BENCH_CONCURRENCY (32) keep-alive clients for
// BENCH_SECONDS (5) each after BENCH_WARMUP (500) untimed requests, and the server's CPU per
// request (user + system time of its process from /proc over the timed window), which holds
// on a shared machine where requests per second do not. AUTHZ_BENCH_ROUNDS (3) rounds.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { issueCert } from '../../src/auth/pki/certs.js';
import { makeAgent, request, type Endpoint, type Target } from './http.js';
import { httpLoad } from './load.js';
import { freePort } from '../../src/machinery/free-port.js';
import { makeTempDir, removeTempDir, spawnChild, stopChild, type Child } from './proc.js';
import { readCpuSeconds } from './procstat.js';
import { readKubeconfig, waitReady } from './servers.js';
import { statefulSetBody, stsCollectionPath, stsPath } from './manifest.js';

const NS = 'bench';
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PHASE_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const ROUNDS = Number(process.env.AUTHZ_BENCH_ROUNDS ?? 3);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli.js');

interface Figures {
  label: string;
  createsPerSec: number;
  getsPerSec: number;
  cpuPerCreateUs?: number;
  cpuPerGetUs?: number;
  failures: number;
}

const json = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));

/** The admin sets the stage: the namespace, and the user's RoleBinding to edit. */
async function setUp(admin: Endpoint, user: string): Promise<void> {
  const call = async (method: 'POST', p: string, body: unknown, ok: number[]): Promise<void> => {
    const r = await request({ ...admin, agent: false }, { method, path: p, body: json(body) }, { timeoutMs: 30_000, collectBody: true });
    if (!ok.includes(r.status)) throw new Error(`${method} ${p}: ${r.status} ${r.body?.toString('utf8').slice(0, 300)}`);
  };
  await call('POST', '/api/v1/namespaces', { metadata: { name: NS } }, [201, 409]);
  await call(
    'POST',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
    { metadata: { name: 'bench-edit' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: user }] },
    [201, 409],
  );
}

/** Creates then gets by `target`, with the server's CPU per request when its pid is known. */
async function measure(label: string, target: Target, pid: number | undefined, prefix: string): Promise<Figures> {
  const names: string[] = [];
  const create = (i: number) => ({ method: 'POST' as const, path: stsCollectionPath(NS), body: statefulSetBody(`${prefix}-${i}`) });
  const warm = await httpLoad({ target, concurrency: CONCURRENCY, maxOps: WARMUP, timeoutMs: 30_000, makeRequest: (i) => create(i), expectStatus: 201 });
  const offset = WARMUP;
  const cpu0 = readCpuSeconds(pid);
  const creates = await httpLoad({
    target,
    concurrency: CONCURRENCY,
    durationMs: PHASE_MS,
    maxOps: 2_000_000,
    timeoutMs: 30_000,
    makeRequest: (i) => create(offset + i),
    expectStatus: 201,
    onOk: (i) => names.push(`${prefix}-${offset + i}`),
  });
  const cpu1 = readCpuSeconds(pid);
  const pick = (i: number): string => names[(i * 7919) % names.length]!;
  await httpLoad({ target, concurrency: CONCURRENCY, maxOps: WARMUP, timeoutMs: 30_000, makeRequest: (i) => ({ method: 'GET', path: stsPath(NS, pick(i)) }), expectStatus: 200 });
  const cpu2 = readCpuSeconds(pid);
  const gets = await httpLoad({
    target,
    concurrency: CONCURRENCY,
    durationMs: PHASE_MS,
    maxOps: 5_000_000,
    timeoutMs: 30_000,
    makeRequest: (i) => ({ method: 'GET', path: stsPath(NS, pick(i)) }),
    expectStatus: 200,
  });
  const cpu3 = readCpuSeconds(pid);
  const us = (a?: number, b?: number, n?: number): number | undefined => (a !== undefined && b !== undefined && n ? ((b - a) * 1e6) / n : undefined);
  return {
    label,
    createsPerSec: creates.okPerSec,
    getsPerSec: gets.okPerSec,
    cpuPerCreateUs: us(cpu0, cpu1, creates.ok),
    cpuPerGetUs: us(cpu2, cpu3, gets.ok),
    failures: warm.unexpected + warm.errors + creates.unexpected + creates.errors + gets.unexpected + gets.errors,
  };
}

/** One kapi on a fresh data dir with `args`, measured as bench-user. */
async function runKapi(label: string, args: string[]): Promise<Figures> {
  const dataDir = makeTempDir('authz-bench');
  const port = await freePort();
  const child: Child = spawnChild(`kapi-${label}`, [process.execPath, CLI, 'serve', '--data-dir', dataDir, '--secure-port', String(port), ...args], { cwd: ROOT });
  try {
    const kubeconfig = path.join(dataDir, 'admin.kubeconfig');
    const adminEp = (): Endpoint | undefined => {
      if (!fs.existsSync(kubeconfig)) return undefined;
      const kc = readKubeconfig(kubeconfig);
      return { host: '127.0.0.1', port, tls: kc.tls };
    };
    await waitReady(child, adminEp, '/readyz', 60_000);
    const admin = adminEp()!;
    await setUp(admin, 'bench-user');
    const pki = path.join(dataDir, 'pki');
    const ca = { cert: fs.readFileSync(path.join(pki, 'ca.crt'), 'utf8'), key: fs.readFileSync(path.join(pki, 'ca.key'), 'utf8') };
    const pair = await issueCert(ca, { commonName: 'bench-user', organizations: [], usages: ['client'] });
    const tls = { ca: admin.tls!.ca, cert: pair.cert, key: pair.key };
    const target: Target = { name: label, host: '127.0.0.1', port, tls, agent: makeAgent(CONCURRENCY, tls), pid: child.pid };
    const f = await measure(label, target, child.pid, 'sts');
    target.agent.destroy();
    return f;
  } finally {
    await stopChild(child);
    removeTempDir(dataDir);
  }
}

async function runOracle(round: number): Promise<Figures | undefined> {
  const url = process.env.AUTHZ_BENCH_ORACLE;
  if (!url) return undefined;
  const u = new URL(url);
  const host = u.hostname;
  const port = Number(u.port);
  const adminToken = process.env.AUTHZ_BENCH_ORACLE_ADMIN_TOKEN ?? 'oracle-token';
  const user = process.env.AUTHZ_BENCH_ORACLE_USER ?? 'alice';
  const token = process.env.AUTHZ_BENCH_ORACLE_TOKEN ?? 'alice-token';
  const pid = process.env.AUTHZ_BENCH_ORACLE_PID ? Number(process.env.AUTHZ_BENCH_ORACLE_PID) : undefined;
  await setUp({ host, port, tls: { rejectUnauthorized: false }, token: adminToken }, user);
  const tls = { rejectUnauthorized: false };
  const target: Target = { name: 'kube-apiserver', host, port, tls, token, agent: makeAgent(CONCURRENCY, tls), pid };
  // Names of earlier rounds are taken: each round writes its own.
  const f = await measure('kube-apiserver (RBAC)', target, pid, `r${round}-${Date.now()}`);
  target.agent.destroy();
  return f;
}

function show(f: Figures): string {
  const cpu = (v?: number): string => (v === undefined ? '-' : `${v.toFixed(0)} µs`);
  return `${f.label.padEnd(30)} creates/s ${f.createsPerSec.toFixed(0).padStart(6)}  gets/s ${f.getsPerSec.toFixed(0).padStart(6)}  CPU/create ${cpu(f.cpuPerCreateUs).padStart(8)}  CPU/get ${cpu(f.cpuPerGetUs).padStart(7)}  failures ${f.failures}`;
}

async function main(): Promise<void> {
  const all: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first: the run after another inherits its disk writeback.
    const order: [string, string[]][] =
      round % 2 === 1
        ? [['RBAC (Node,RBAC)', []], ['AlwaysAllow', ['--authorization-mode=AlwaysAllow']]]
        : [['AlwaysAllow', ['--authorization-mode=AlwaysAllow']], ['RBAC (Node,RBAC)', []]];
    for (const [label, args] of order) {
      const t0 = performance.now();
      const f = await runKapi(label, args);
      all.push(f);
      process.stdout.write(`round ${round}: ${show(f)}  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
    }
    const o = await runOracle(round);
    if (o) {
      all.push(o);
      process.stdout.write(`round ${round}: ${show(o)}\n`);
    }
  }
  const mean = (label: string, key: keyof Figures): number => {
    const xs = all.filter((f) => f.label === label).map((f) => f[key] as number).filter((x) => x !== undefined);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const r = 'RBAC (Node,RBAC)';
  const a = 'AlwaysAllow';
  process.stdout.write(
    `\nmeans over ${ROUNDS} rounds: RBAC/AlwaysAllow creates/s ${(mean(r, 'createsPerSec') / mean(a, 'createsPerSec')).toFixed(3)}, gets/s ${(mean(r, 'getsPerSec') / mean(a, 'getsPerSec')).toFixed(3)}; ` +
      `CPU per create ${mean(r, 'cpuPerCreateUs').toFixed(0)} vs ${mean(a, 'cpuPerCreateUs').toFixed(0)} µs, per get ${mean(r, 'cpuPerGetUs').toFixed(0)} vs ${mean(a, 'cpuPerGetUs').toFixed(0)} µs\n`,
  );
  if (all.some((f) => f.failures > 0)) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${String((e as Error).stack ?? e)}\n`);
  process.exit(2);
});
