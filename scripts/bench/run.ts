// `npm run bench` entry point. See scripts/bench/README.md.
import os from 'node:os';
import { loadConfig, phaseEnabled, type BenchConfig } from './config.js';
import { makeAgent, type Target } from './http.js';
import { MANIFEST_BYTES } from './manifest.js';
import { PHASES, REPORT_ORDER } from './phases/index.js';
import type { AllResults, AnyPhase, MetricRow, Outcome, PhaseContext, PerTarget, ServerPhase, TargetName } from './phases/types.js';
import { cleanupAll, cleanupSync } from './proc.js';
import { RATIO_NOTE, ratioOf, renderTable, statusOf, writeJson } from './report.js';
import { startBaseline, startEtcd, startKapi, type EtcdInfo, type RunningServer } from './servers.js';

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};

let shuttingDown = false;
async function shutdown(code: number, why: string): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    if (why) log(why);
    await Promise.race([cleanupAll(), new Promise((r) => setTimeout(r, 8000))]);
  }
  cleanupSync();
  process.exit(code);
}

process.on('exit', cleanupSync);
process.on('SIGINT', () => void shutdown(130, 'SIGINT: stopping children'));
process.on('SIGTERM', () => void shutdown(143, 'SIGTERM: stopping children'));
process.on('SIGHUP', () => void shutdown(129, 'SIGHUP: stopping children'));
process.on('uncaughtException', (err) => void shutdown(1, `uncaught: ${err.stack ?? err.message}`));
process.on('unhandledRejection', (err) => void shutdown(1, `unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));

function startTarget(cfg: BenchConfig, name: TargetName, etcd?: EtcdInfo, etcdPrefix?: string): Promise<RunningServer> {
  return name === 'kapi' ? startKapi(cfg, etcd, { etcdPrefix }) : startBaseline(cfg);
}

async function main(): Promise<number> {
  const cfg = loadConfig();
  const startedAt = new Date().toISOString();
  const loadAtStart = os.loadavg();
  if (loadAtStart[0]! > 0.5 * os.cpus().length) {
    log(`warning: load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs; results will be noisy`);
  }
  const watchdog = setTimeout(() => void shutdown(2, `global timeout of ${cfg.totalTimeoutMs / 1000}s exceeded`), cfg.totalTimeoutMs);
  watchdog.unref();

  log(
    `concurrency ${cfg.concurrency}, ${cfg.phaseMs / 1000}s per phase, storage ${cfg.storage}, manifest ${MANIFEST_BYTES} B, ` +
      `targets ${cfg.targets.join(',')}, kapi cmd: ${cfg.kapiCmd.join(' ')}`,
  );

  const errors: string[] = [];
  let etcd: EtcdInfo | undefined;
  if (cfg.storage === 'etcd3') {
    log(`starting etcd (${cfg.etcdBin}) ...`);
    etcd = await startEtcd(cfg);
    log(`etcd at ${etcd.clientUrl}`);
  }
  const ctx: PhaseContext = {
    cfg,
    etcd,
    log,
    reportError: (msg) => {
      errors.push(msg);
      log(msg);
    },
  };
  const phases = PHASES.filter((p) => phaseEnabled(cfg, p.id));
  const all: AllResults = {};

  // 1. Standalone phases.
  for (const p of phases) {
    if (p.kind !== 'standalone') continue;
    log(`phase ${p.id}: ${p.title}`);
    try {
      all[p.id] = { ok: true, result: await p.run(ctx) } satisfies Outcome<unknown>;
    } catch (err) {
      errors.push(`${p.id}: ${(err as Error).message}`);
      all[p.id] = { ok: false, error: (err as Error).message } satisfies Outcome<unknown>;
      log(`phase ${p.id} failed: ${(err as Error).message}`);
    }
  }

  // 2. Server phases. Shared ones: one fresh server per target, those phases against it in
  // order. Then each `freshServer` phase: a newly started server of its own per target.
  // A phase limited to some `targets` is skipped (no result, "-") for the others.
  const serverPhases = phases.filter((p): p is ServerPhase<unknown> => p.kind === 'server');
  for (const p of serverPhases) all[p.id] = {} as PerTarget<unknown>;
  const appliesTo = (p: ServerPhase<unknown>, name: TargetName): boolean => !p.targets || p.targets.includes(name);

  const runGroup = async (name: TargetName, group: Array<ServerPhase<unknown>>, fresh?: string): Promise<void> => {
    const todo = group.filter((p) => appliesTo(p, name));
    if (todo.length === 0) return;
    log(`starting ${name}${fresh ? ` (fresh server for ${fresh})` : ''} ...`);
    let srv: RunningServer;
    try {
      // With etcd3, a fresh kapi gets a key prefix of its own, so it doesn't load earlier phases' objects.
      srv = await startTarget(cfg, name, etcd, fresh ? `/kapi-bench-${fresh}` : undefined);
    } catch (err) {
      const msg = `${name} failed to start: ${(err as Error).message}`;
      errors.push(msg);
      log(msg);
      for (const p of todo) (all[p.id] as PerTarget<unknown>)[name] = { ok: false, error: msg };
      return;
    }
    log(`${name} ready on ${srv.tls ? 'https' : 'http'}://${srv.host}:${srv.port} in ${srv.readyMs.toFixed(1)} ms (pid ${srv.child?.pid ?? 'not ours'})`);
    const target: Target = {
      name,
      host: srv.host,
      port: srv.port,
      tls: srv.tls,
      token: srv.token,
      agent: makeAgent(cfg.concurrency, srv.tls),
      pid: srv.child?.pid ?? (name === 'kapi' ? cfg.kapiPid : undefined),
    };
    try {
      for (const p of todo) {
        log(`phase ${p.id} (${name}): ${p.title}`);
        const slot = all[p.id] as PerTarget<unknown>;
        try {
          slot[name] = { ok: true, result: await p.run(target, ctx) };
        } catch (err) {
          const msg = `${p.id} (${name}): ${(err as Error).message}`;
          errors.push(msg);
          slot[name] = { ok: false, error: (err as Error).message };
          log(`phase ${msg}`);
        }
        if (srv.child?.hasExited()) {
          const msg = `${name} exited during phase ${p.id}`;
          errors.push(msg);
          log(msg);
          break;
        }
      }
    } finally {
      target.agent.destroy();
      await srv.stop();
    }
  };

  const shared = serverPhases.filter((p) => !p.freshServer);
  for (const name of cfg.targets) await runGroup(name, shared);
  for (const p of serverPhases.filter((q) => q.freshServer)) {
    for (const name of cfg.targets) await runGroup(name, [p], p.id);
  }
  if (etcd) await etcd.stop();

  // 3. Report.
  const rows: MetricRow[] = [];
  const ordered = [...phases].sort((a, b) => rank(a) - rank(b));
  for (const p of ordered) {
    try {
      rows.push(...(p.metrics as (r: unknown, a: AllResults, c: PhaseContext) => MetricRow[])(all[p.id], all, ctx));
    } catch (err) {
      errors.push(`metrics ${p.id}: ${(err as Error).message}`);
    }
  }

  const out = process.stdout;
  out.write('\n');
  out.write(
    `kapi benchmark — storage ${cfg.storage}, ${cfg.concurrency} clients, ${cfg.phaseMs / 1000}s/phase, ` +
      `${os.cpus().length} CPUs, node ${process.version}\n\n`,
  );
  out.write(renderTable(rows) + '\n');
  out.write(RATIO_NOTE + '\n');
  if (errors.length) {
    out.write('\nerrors:\n');
    for (const e of errors) out.write(`  - ${e.split('\n').join('\n    ')}\n`);
  }

  const correctnessFail = rows.some((r) => r.gate === 'correctness' && r.pass !== true);
  const perfMiss = rows.some((r) => r.gate === 'perf' && r.pass !== true);
  writeJson(cfg.outFile, {
    version: 1,
    startedAt,
    finishedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadavgAtStart: loadAtStart,
      loadavgAtEnd: os.loadavg(),
      concurrency: cfg.concurrency,
      phaseSeconds: cfg.phaseMs / 1000,
      storage: cfg.storage,
      kapiCmd: cfg.kapiCmd.join(' '),
      kapiCmdIsDefault: cfg.kapiCmdIsDefault,
      manifestBytes: MANIFEST_BYTES,
      listSize: cfg.listSize,
      watchers: cfg.watchers,
      watchSeconds: cfg.watchMs / 1000,
      watchRate: cfg.watchRate,
      watchDrainSeconds: cfg.watchDrainMs / 1000,
      listPagedObjects: cfg.listPagedObjects,
      listPagedLimit: cfg.listPagedLimit,
      listPagedPasses: cfg.listPagedPasses,
      listPagedWarmups: cfg.listPagedWarmups,
      rssObjects: cfg.rssObjects,
      rssConcurrency: cfg.rssConcurrency,
      setupMaxSeconds: cfg.setupMaxMs / 1000,
    },
    metrics: rows.map((r) => ({ ...r, ratio: ratioOf(r), result: statusOf(r) || null })),
    phases: all,
    errors,
    summary: { correctnessFail, perfMiss },
  });
  out.write(`\nresults written to ${cfg.outFile}\n`);

  if (errors.length || correctnessFail) return 1;
  if (cfg.strict && perfMiss) return 1;
  return 0;
}

function rank(p: AnyPhase): number {
  const i = REPORT_ORDER.indexOf(p.id);
  return i < 0 ? REPORT_ORDER.length : i;
}

main().then(
  (code) => shutdown(code, ''),
  (err: unknown) => shutdown(1, `fatal: ${(err as Error)?.stack ?? String(err)}`),
);
