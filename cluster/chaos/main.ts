// `npm run chaos -- --data-dir <dir>`: a replicated cluster under concurrent load while one
// fault per run strikes it, each run's history checked (check.ts). CHAOS_RUNS runs of
// CHAOS_SECONDS seconds (6 of 20 by default); exit status 0 only when every check of every run
// passed. Histories and reports go to <dir>/chaos/run-<i>/, the summary to <dir>/chaos/summary.json.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Cluster } from '../launcher.js';
import { readKubeconfig } from './client.js';
import { FAULTS } from './faults.js';
import { chaosRun, type RunResult } from './run.js';
import { buildChecker } from './check.js';

const USAGE = `Usage: npm run chaos -- --data-dir <dir>

Runs a kapi cluster (3 etcd members, 3 nodes, haproxy) in <dir> under concurrent load while a
fault schedule kills, pauses and restarts nodes and etcd members, and checks every run's
history (linearizability with porcupine, weaker read rules, watch continuity, no lost write).

Environment: CHAOS_RUNS (default 6), CHAOS_SECONDS (default 20), CHAOS_SEED, CHAOS_CLIENTS
(default 6), CHAOS_OBJECTS (default 8), CHAOS_FAULTS (a comma-separated schedule; default
${FAULTS.join(',')}, in turn).
`;

const envInt = (name: string, dflt: number, min = 1): number => {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`${name} must be an integer >= ${min}, got ${JSON.stringify(v)}\n`);
    process.exit(2);
  }
  return n;
};

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({ args: process.argv.slice(2), options: { 'data-dir': { type: 'string', default: './chaos-data' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const runs = envInt('CHAOS_RUNS', 6);
  const seconds = envInt('CHAOS_SECONDS', 20, 5);
  const seed = envInt('CHAOS_SEED', Math.floor(Math.random() * 1e9), 0);
  const clients = envInt('CHAOS_CLIENTS', 6);
  const objects = envInt('CHAOS_OBJECTS', 8);
  const schedule = (process.env.CHAOS_FAULTS ?? FAULTS.join(',')).split(',').map((s) => s.trim()) as (typeof FAULTS)[number][];
  for (const f of schedule) {
    if (!FAULTS.includes(f)) {
      process.stderr.write(`unknown fault ${JSON.stringify(f)}; known: ${FAULTS.join(', ')}\n`);
      process.exit(2);
    }
  }
  const dataDir = resolve(values['data-dir']!);
  const out = join(dataDir, 'chaos');
  const log = (msg: string): void => {
    process.stdout.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
  };
  log(`building the porcupine checker`);
  const checkerBin = await buildChecker(out);
  // etcd's history must outlast a run until its log is read (the nodes compact every 5 minutes by default).
  const compaction = Math.max(300, seconds * 3 + 120);
  const t0 = performance.now();
  log(`starting the cluster in ${dataDir}`);
  const cluster = await Cluster.start({
    dataDir,
    port: existsSync(join(dataDir, 'cluster.json')) ? undefined : 0,
    nodeFlags: ['--etcd-compaction-interval', `${compaction}s`],
    startTimeoutMs: 120_000,
  });
  const stopCluster = async (): Promise<void> => {
    await cluster.stop().catch(() => undefined);
  };
  process.once('SIGINT', () => void stopCluster().then(() => process.exit(130)));
  process.once('SIGTERM', () => void stopCluster().then(() => process.exit(143)));
  const { credentials } = readKubeconfig(cluster.kubeconfig);
  log(`cluster ready in ${Math.round(performance.now() - t0)} ms: ${cluster.balancerUrl}; seed ${seed}; ${runs} runs of ${seconds} s`);

  const results: RunResult[] = [];
  let failedToRun: string | undefined;
  for (let run = 1; run <= runs; run++) {
    const fault = schedule[(run - 1) % schedule.length]!;
    try {
      const r = await chaosRun({
        cluster,
        credentials,
        run,
        seconds,
        fault,
        seed,
        dir: join(out, `run-${run}`),
        checkerBin,
        workers: clients,
        keys: objects,
        clientTimeoutMs: 10_000,
        startTimeoutMs: 120_000,
        log,
      });
      results.push(r);
      process.stdout.write(`${r.report}\n`);
    } catch (e) {
      failedToRun = `run ${run} (${fault}) could not complete: ${(e as Error).stack ?? String(e)}`;
      log(failedToRun);
      break;
    }
  }
  await stopCluster();

  const sum = (f: (r: RunResult) => number): number => results.reduce((s, r) => s + f(r), 0);
  const violations = sum((r) => r.check.violations.length);
  const lin = results.every((r) => r.check.linearizability.result === 'ok') ? 'ok' : 'FAILED';
  const ok = !failedToRun && results.length === runs && results.every((r) => r.ok);
  const summary = {
    ok,
    seed,
    runs: results.length,
    secondsPerRun: seconds,
    operations: sum((r) => r.check.stats.ops),
    writesAcknowledged: sum((r) => r.check.stats.writesAcknowledged),
    ambiguous: sum((r) => r.check.stats.ambiguous),
    faults: results.map((r) => `${r.history.fault.kind} (${r.history.fault.target})`),
    watchEvents: sum((r) => r.check.stats.watchEvents),
    watchReconnects: sum((r) => r.check.stats.watchReconnects),
    linearizability: lin,
    violations,
    failedToRun,
    wallSeconds: Math.round((performance.now() - t0) / 1000),
  };
  await writeFile(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  log(
    `${ok ? 'PASS' : 'FAIL'}: ${summary.runs}/${runs} runs, ${summary.operations} operations (${summary.writesAcknowledged} acknowledged writes, ${summary.ambiguous} unknown outcomes), ` +
      `${summary.faults.length} faults, ${summary.watchEvents} watch events over ${summary.watchReconnects} reconnects; linearizability (porcupine): ${lin}; violations: ${violations}; ` +
      `${summary.wallSeconds} s; reports in ${out}`,
  );
  // The plain closing line CI reads: runs passed and failed (a run that could not complete fails).
  const passed = results.filter((r) => r.ok).length;
  process.stdout.write(`chaos: ${passed} passed, ${runs - passed} failed\n`);
  process.exit(ok ? 0 : 1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`chaos: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
