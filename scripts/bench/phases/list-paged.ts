// Paged list: create N small PriorityClasses (cluster-scoped, cheap), then walk the whole
// PriorityClass list with ?limit=L and the returned continue tokens, sequentially, one
// request at a time: untimed warm-up passes, then timed passes. Reports per-page latency
// and checks that every pass returns each created name exactly once (plus the classes that
// existed before, e.g. kapi's two system-* classes) and nothing else.
import { performance } from 'node:perf_hooks';
import { request, type Target } from '../http.js';
import { httpLoad, percentiles, type Percentiles } from '../load.js';
import { PRIORITY_CLASSES_PATH, priorityClassBody } from '../manifest.js';
import { failures, summarize } from './common.js';
import { check, num, resultOf, type ServerPhase } from './types.js';

export const LIST_PAGED_TARGET_MS = 10;
const NAME_PREFIX = 'bench-page-';

export interface ListPagedResult {
  objects: number;
  created: number;
  limit: number;
  /** Objects of this kind that existed before the phase created any. */
  preexisting: number;
  setup: Record<string, unknown>;
  setupFailures: number;
  passes: number;
  /** Pages per pass (each timed pass; should all be equal). */
  pagesPerPass: number[];
  pageLatencyMs: Percentiles;
  /** Latency of the first page (no continue token) and of the continued ones. */
  firstPageLatencyMs: Percentiles;
  continuedPageLatencyMs: Percentiles;
  pageBytes: { mean: number; max: number };
  /** Timed passes that returned exactly the expected names, each once. */
  passesCorrect: number;
  problems: string[];
}

interface Page {
  ms: number;
  bytes: number;
  names: string[];
  continueToken: string;
}

async function getPage(target: Target, limit: number, token: string, timeoutMs: number): Promise<Page> {
  const path = `${PRIORITY_CLASSES_PATH}?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
  const t0 = performance.now();
  const res = await request(target, { method: 'GET', path }, { timeoutMs, collectBody: true });
  const ms = performance.now() - t0;
  // Everything below is outside the timed window.
  if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status}: ${res.body?.toString('utf8').slice(0, 300)}`);
  const list = JSON.parse(res.body?.toString('utf8') ?? '') as { items?: Array<{ metadata?: { name?: string } }>; metadata?: { continue?: string } };
  if (!Array.isArray(list.items)) throw new Error(`GET ${path}: no items array`);
  if (list.items.length > limit) throw new Error(`GET ${path}: ${list.items.length} items > limit ${limit}`);
  return { ms, bytes: res.body?.length ?? 0, names: list.items.map((it) => String(it.metadata?.name)), continueToken: list.metadata?.continue ?? '' };
}

/** One full walk of the list. `maxPages` bounds it (a token loop cannot run forever). */
async function walk(target: Target, limit: number, timeoutMs: number, maxPages: number): Promise<Page[]> {
  const pages: Page[] = [];
  let token = '';
  do {
    if (pages.length >= maxPages) throw new Error(`more than ${maxPages} pages: continue tokens do not terminate`);
    const page = await getPage(target, limit, token, timeoutMs);
    pages.push(page);
    token = page.continueToken;
  } while (token);
  return pages;
}

export const listPagedPhase: ServerPhase<ListPagedResult> = {
  kind: 'server',
  id: 'list-paged',
  title: 'paged list latency',
  async run(target, ctx) {
    const { cfg } = ctx;
    const N = cfg.listPagedObjects;
    const L = cfg.listPagedLimit;
    const problems: string[] = [];
    const problem = (msg: string): void => {
      if (problems.length < 10) problems.push(msg.slice(0, 300));
    };

    const before = await walk(target, L, cfg.requestTimeoutMs, 1_000_000);
    const pre = new Set(before.flatMap((p) => p.names));
    for (const name of pre) if (name.startsWith(NAME_PREFIX)) throw new Error(`${name} already exists; list-paged needs a server without ${NAME_PREFIX}* PriorityClasses`);

    ctx.log(`  ${target.name}: creating ${N} PriorityClasses (${pre.size} already there) ...`);
    const created: string[] = [];
    const setup = await httpLoad({
      target,
      concurrency: cfg.concurrency,
      timeoutMs: cfg.requestTimeoutMs,
      maxOps: N,
      durationMs: cfg.setupMaxMs,
      makeRequest: (i) => ({ method: 'POST', path: PRIORITY_CLASSES_PATH, body: priorityClassBody(`${NAME_PREFIX}${i}`) }),
      expectStatus: 201,
      onOk: (i) => created.push(`${NAME_PREFIX}${i}`),
    });
    ctx.log(`  ${target.name}: ${created.length} created at ${setup.okPerSec.toFixed(0)}/s; paging with limit=${L} ...`);
    if (created.length < N) problem(`only ${created.length}/${N} created within ${cfg.setupMaxMs / 1000}s (${failures(setup)} failures)`);

    const expected = new Set([...pre, ...created]);
    const maxPages = 2 * Math.ceil(expected.size / L) + 10;
    const all: number[] = [];
    const first: number[] = [];
    const continued: number[] = [];
    const pagesPerPass: number[] = [];
    let bytes = 0;
    let maxBytes = 0;
    let pageCount = 0;
    let passesCorrect = 0;
    for (let pass = 0; pass < cfg.listPagedWarmups + cfg.listPagedPasses; pass++) {
      const timed = pass >= cfg.listPagedWarmups;
      let pages: Page[];
      try {
        pages = await walk(target, L, cfg.requestTimeoutMs, maxPages);
      } catch (err) {
        problem(`pass ${pass}: ${(err as Error).message}`);
        continue;
      }
      if (!timed) continue;
      pagesPerPass.push(pages.length);
      pages.forEach((p, j) => {
        all.push(p.ms);
        (j === 0 ? first : continued).push(p.ms);
        bytes += p.bytes;
        maxBytes = Math.max(maxBytes, p.bytes);
        pageCount++;
      });
      // Exactly the expected names, each once.
      const seen = new Set<string>();
      let dups = 0;
      let extra = 0;
      for (const p of pages) {
        for (const name of p.names) {
          if (seen.has(name)) dups++;
          else seen.add(name);
          if (!expected.has(name)) extra++;
        }
      }
      let missing = 0;
      for (const name of expected) if (!seen.has(name)) missing++;
      const ours = [...seen].filter((n) => n.startsWith(NAME_PREFIX)).length;
      if (dups === 0 && extra === 0 && missing === 0 && ours === created.length) passesCorrect++;
      else problem(`pass ${pass}: ${ours} distinct ${NAME_PREFIX}* names (expected ${created.length}), ${dups} duplicates, ${extra} unexpected, ${missing} missing`);
    }

    const pageLatencyMs = percentiles(all);
    ctx.log(
      `  ${target.name}: ${pageCount} pages (${pagesPerPass.join(',')} per pass), page p50 ${pageLatencyMs.p50.toFixed(2)} ms, p99 ${pageLatencyMs.p99.toFixed(2)} ms; ` +
        `${passesCorrect}/${cfg.listPagedPasses} passes correct`,
    );
    return {
      objects: N,
      created: created.length,
      limit: L,
      preexisting: pre.size,
      setup: summarize(setup),
      setupFailures: failures(setup) ?? 0,
      passes: cfg.listPagedPasses,
      pagesPerPass,
      pageLatencyMs,
      firstPageLatencyMs: percentiles(first),
      continuedPageLatencyMs: percentiles(continued),
      pageBytes: { mean: pageCount ? bytes / pageCount : 0, max: maxBytes },
      passesCorrect,
      problems,
    };
  },
  metrics(res, _all, ctx) {
    const k = resultOf(res.kapi);
    const b = resultOf(res.baseline);
    const l = ctx.cfg.listPagedLimit;
    // Normally N; fewer if the creates hit BENCH_SETUP_MAX_SECONDS (see `problems`).
    const n = k && k.created < k.objects ? `${k.created} created of ${k.objects}` : String(ctx.cfg.listPagedObjects);
    const kp50 = num(k?.pageLatencyMs.p50);
    const kp99 = num(k?.pageLatencyMs.p99);
    const wrong = (r: ListPagedResult | undefined): number | null => (r ? r.setupFailures + (r.passes - r.passesCorrect) : null);
    const kWrong = wrong(k);
    return [
      {
        id: 'list_paged.p50_ms',
        label: `list page (limit ${l} of ${n}) p50`,
        unit: 'ms',
        kapi: kp50,
        baseline: num(b?.pageLatencyMs.p50),
        better: 'lower',
        target: `< ${LIST_PAGED_TARGET_MS} ms`,
        pass: check(kp50, () => kp50! < LIST_PAGED_TARGET_MS),
        gate: 'perf',
      },
      {
        id: 'list_paged.p99_ms',
        label: `list page (limit ${l} of ${n}) p99`,
        unit: 'ms',
        kapi: kp99,
        baseline: num(b?.pageLatencyMs.p99),
        better: 'lower',
        target: `< ${LIST_PAGED_TARGET_MS} ms`,
        pass: check(kp99, () => kp99! < LIST_PAGED_TARGET_MS),
        gate: 'perf',
      },
      {
        id: 'list_paged.wrong',
        label: `paged: create failures + bad passes (!= ${n} distinct names)`,
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
