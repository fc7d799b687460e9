// Time-to-ready: spawn -> first 200 from GET /readyz, on an empty data dir, N runs, median.
import { percentiles } from '../load.js';
import { startBaseline, startKapi, type RunningServer } from '../servers.js';
import { check, num, type MetricRow, type Outcome, type StandalonePhase, type TargetName } from './types.js';

export interface ReadySeries {
  runsMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export type ReadyResult = Partial<Record<TargetName, Outcome<ReadySeries>>>;

export const READY_TARGET_MS = 500;

export const readyPhase: StandalonePhase<ReadyResult> = {
  kind: 'standalone',
  id: 'ready',
  title: 'time to ready',
  async run(ctx) {
    const out: ReadyResult = {};
    const runs: Partial<Record<TargetName, number[]>> = {};
    const failed = new Set<TargetName>();
    const startOnce = async (name: TargetName): Promise<number> => {
      const srv: RunningServer = name === 'kapi' ? await startKapi(ctx.cfg, ctx.etcd) : await startBaseline(ctx.cfg);
      await srv.stop();
      return srv.readyMs;
    };
    // One discarded start per target (cold page cache / first-exec effects), then the
    // measured runs, interleaved so that machine noise hits both targets alike.
    const total = ctx.cfg.readyWarmups + ctx.cfg.readyRuns;
    for (let i = 0; i < total; i++) {
      for (const name of ctx.cfg.targets) {
        if (failed.has(name)) continue;
        try {
          const ms = await startOnce(name);
          const warm = i < ctx.cfg.readyWarmups;
          if (!warm) (runs[name] ??= []).push(ms);
          ctx.log(`  ${name} ready ${warm ? 'warm-up' : `run ${i - ctx.cfg.readyWarmups + 1}/${ctx.cfg.readyRuns}`}: ${ms.toFixed(1)} ms`);
        } catch (err) {
          failed.add(name);
          ctx.reportError(`ready (${name}): ${(err as Error).message}`);
          out[name] = { ok: false, error: (err as Error).message };
        }
      }
    }
    for (const name of ctx.cfg.targets) {
      const runsMs = runs[name];
      if (failed.has(name) || !runsMs) continue;
      const p = percentiles(runsMs);
      out[name] = { ok: true, result: { runsMs, medianMs: p.p50, minMs: p.min, maxMs: p.max } };
    }
    return out;
  },
  metrics(res, _all, ctx) {
    const r = res.ok ? res.result : {};
    const k = r.kapi?.ok ? r.kapi.result.medianMs : null;
    const b = r.baseline?.ok ? r.baseline.result.medianMs : null;
    const rows: MetricRow[] = [
      {
        id: 'ready.median_ms',
        label: `time to ready, median of ${ctx.cfg.readyRuns}`,
        unit: 'ms',
        kapi: num(k),
        baseline: num(b),
        better: 'lower',
        target: `< ${READY_TARGET_MS} ms`,
        pass: check(k, () => k! < READY_TARGET_MS),
        gate: 'perf',
      },
    ];
    return rows;
  },
};
