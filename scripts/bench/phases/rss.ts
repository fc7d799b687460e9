// Resident memory with many objects: on a fresh server, create N small PriorityClasses
// (100-byte description) with C creates in flight, then read the server process's RSS
// from /proc/<pid>/status (VmRSS; the harness spawned it, so it has the pid) and kapi's
// own process_resident_memory_bytes from /metrics. Also reports the creation throughput
// and checks (with a limit=1 list: items + remainingItemCount) that all N exist.
import { performance } from 'node:perf_hooks';
import { makeAgent, request, type Target } from '../http.js';
import { httpLoad, type LoadResult } from '../load.js';
import { PRIORITY_CLASSES_PATH, priorityClassBody } from '../manifest.js';
import { sleep } from '../proc.js';
import { fetchMetrics, MiB, readProcStatus, type ProcStatus } from '../procstat.js';
import { failures, summarize } from './common.js';
import { check, num, resultOf, type ServerPhase } from './types.js';

export const RSS_TARGET_MIB = 600;
const NAME_PREFIX = 'bench-rss-';
const SETTLE_MS = 1000;
const METRIC_NAMES = ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_external_memory_bytes'];

export interface RssResult {
  objects: number;
  created: number;
  concurrency: number;
  /** Objects of this kind the server reports after the creates (items + remainingItemCount of a limit=1 list). */
  listedAfter: number | null;
  /** listedAfter === listed before + created (null: the server did not say). */
  listedOk: boolean | null;
  pid: number | null;
  /** Before any create, right after the creates, and after SETTLE_MS idle. */
  procBefore?: ProcStatus;
  procAfterCreates?: ProcStatus;
  procSettled?: ProcStatus;
  rssMiB: number | null;
  peakRssMiB: number | null;
  rssBeforeMiB: number | null;
  /** From /metrics (kapi only), after settling. */
  metrics: Record<string, number>;
  metricRssMiB: number | null;
  create: Record<string, unknown>;
  createFailures: number;
  createsPerSec: number;
  problems: string[];
}

const mib = (b: number | undefined): number | null => (b === undefined ? null : b / MiB);

async function countListed(target: Target, timeoutMs: number): Promise<number | null> {
  try {
    const res = await request(target, { method: 'GET', path: `${PRIORITY_CLASSES_PATH}?limit=1` }, { timeoutMs, collectBody: true });
    if (res.status !== 200 || !res.body) return null;
    const list = JSON.parse(res.body.toString('utf8')) as { items?: unknown[]; metadata?: { remainingItemCount?: number; continue?: string } };
    const items = Array.isArray(list.items) ? list.items.length : 0;
    if (list.metadata?.continue && typeof list.metadata.remainingItemCount !== 'number') return null;
    return items + (list.metadata?.remainingItemCount ?? 0);
  } catch {
    return null;
  }
}

export const rssPhase: ServerPhase<RssResult> = {
  kind: 'server',
  id: 'rss',
  title: 'resident memory with many objects',
  freshServer: true,
  async run(target, ctx) {
    const { cfg } = ctx;
    const N = cfg.rssObjects;
    const C = cfg.rssConcurrency;
    const problems: string[] = [];
    const pid = target.pid ?? null;
    const procBefore = readProcStatus(target.pid);
    if (!procBefore?.vmRssBytes) problems.push(`no VmRSS for pid ${pid} (not Linux, or the process is gone)`);
    const listedBefore = await countListed(target, cfg.requestTimeoutMs);

    ctx.log(`  ${target.name}: creating ${N} PriorityClasses, ${C} in flight (pid ${pid}, RSS now ${mib(procBefore?.vmRssBytes)?.toFixed(1) ?? '?'} MiB) ...`);
    const agent = makeAgent(C, target.tls);
    const t: Target = { ...target, agent };
    let created = 0;
    const t0 = performance.now();
    const progress = setInterval(() => {
      const s = (performance.now() - t0) / 1000;
      ctx.log(`  ${target.name}: ${created}/${N} after ${s.toFixed(0)}s (${(created / s).toFixed(0)}/s), RSS ${mib(readProcStatus(target.pid)?.vmRssBytes)?.toFixed(0) ?? '?'} MiB`);
    }, 10_000);
    let create: LoadResult;
    try {
      create = await httpLoad({
        target: t,
        concurrency: C,
        timeoutMs: cfg.requestTimeoutMs,
        maxOps: N,
        durationMs: cfg.setupMaxMs,
        makeRequest: (i) => ({ method: 'POST', path: PRIORITY_CLASSES_PATH, body: priorityClassBody(`${NAME_PREFIX}${i}`) }),
        expectStatus: 201,
        onOk: () => created++,
      });
    } finally {
      clearInterval(progress);
      agent.destroy();
    }
    const procAfterCreates = readProcStatus(target.pid);
    if (created < N) problems.push(`only ${created}/${N} created within ${cfg.setupMaxMs / 1000}s (${failures(create)} failures)`);

    await sleep(SETTLE_MS);
    const procSettled = readProcStatus(target.pid);
    const metrics = await fetchMetrics(target, METRIC_NAMES, cfg.requestTimeoutMs);
    const listedAfter = await countListed(target, cfg.requestTimeoutMs);
    const listedOk = listedBefore !== null && listedAfter !== null ? listedAfter === listedBefore + created : null;
    if (listedOk === false) problems.push(`server lists ${listedAfter} PriorityClasses, expected ${listedBefore} + ${created}`);
    if (listedOk === null) problems.push('could not count the PriorityClasses (limit=1 list without remainingItemCount)');

    const r: RssResult = {
      objects: N,
      created,
      concurrency: C,
      listedAfter,
      listedOk,
      pid,
      procBefore,
      procAfterCreates,
      procSettled,
      rssMiB: mib(procSettled?.vmRssBytes),
      peakRssMiB: mib(procSettled?.vmHwmBytes),
      rssBeforeMiB: mib(procBefore?.vmRssBytes),
      metrics,
      metricRssMiB: mib(metrics.process_resident_memory_bytes),
      create: summarize(create),
      createFailures: failures(create) ?? 0,
      createsPerSec: create.okPerSec,
      problems,
    };
    ctx.log(
      `  ${target.name}: ${created} created at ${create.okPerSec.toFixed(0)}/s; RSS ${r.rssMiB?.toFixed(1) ?? '?'} MiB (peak ${r.peakRssMiB?.toFixed(1) ?? '?'}, ` +
        `before ${r.rssBeforeMiB?.toFixed(1) ?? '?'}), /metrics ${r.metricRssMiB?.toFixed(1) ?? '-'} MiB`,
    );
    return r;
  },
  metrics(res, _all, ctx) {
    const k = resultOf(res.kapi);
    const b = resultOf(res.baseline);
    // Normally N; fewer if the creates hit BENCH_SETUP_MAX_SECONDS (see `problems`).
    const n = k && k.created < k.objects ? `${k.created} (of ${k.objects})` : String(ctx.cfg.rssObjects);
    const krss = num(k?.rssMiB ?? k?.metricRssMiB);
    const wrong = (r: RssResult | undefined): number | null => (r ? r.createFailures + (r.listedOk === false ? 1 : 0) : null);
    const kWrong = wrong(k);
    return [
      {
        id: 'rss.mib',
        label: `RSS with ${n} PriorityClasses (VmRSS)`,
        unit: 'MiB',
        kapi: krss,
        baseline: num(b?.rssMiB),
        better: 'lower',
        target: `< ${RSS_TARGET_MIB} MiB`,
        pass: check(krss, () => krss! < RSS_TARGET_MIB),
        gate: 'perf',
      },
      { id: 'rss.peak_mib', label: 'RSS peak during creates (VmHWM)', unit: 'MiB', kapi: num(k?.peakRssMiB), baseline: num(b?.peakRssMiB), better: 'lower' },
      { id: 'rss.metric_mib', label: 'process_resident_memory_bytes (/metrics)', unit: 'MiB', kapi: num(k?.metricRssMiB), baseline: num(b?.metricRssMiB), better: 'lower' },
      { id: 'rss.creates_per_sec', label: `rss phase creates/s (${ctx.cfg.rssConcurrency} in flight)`, unit: '/s', kapi: num(k?.createsPerSec), baseline: num(b?.createsPerSec), better: 'higher' },
      {
        id: 'rss.wrong',
        label: 'rss: create failures + list count mismatch',
        unit: '',
        kapi: kWrong,
        baseline: wrong(b),
        better: 'none',
        target: '= 0',
        pass: check(kWrong, () => kWrong === 0),
        gate: 'correctness',
      },
    ];
  },
};
