// Benchmark configuration, read once from the environment.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function intEnv(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return def;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name}=${raw} is not a number`);
  return Math.min(max, Math.max(min, Math.floor(n)));
}

function numEnv(name: string, def: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return def;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name}=${raw} is not a number`);
  return Math.min(max, Math.max(min, n));
}

export type StorageKind = 'leveldb' | 'etcd3';

export interface BenchConfig {
  /** Concurrent keep-alive clients / writers per load phase. */
  concurrency: number;
  /** Duration of each timed load phase, in ms. */
  phaseMs: number;
  /** Hard cap on operations in one timed load phase (bounds every loop in count). */
  maxOpsPerPhase: number;
  /** Untimed requests sent before each timed HTTP phase (JIT warm-up). */
  warmupOps: number;
  /** Number of time-to-ready runs (median reported). */
  readyRuns: number;
  /** Discarded time-to-ready starts before the measured ones. */
  readyWarmups: number;
  /** Number of objects in the list phase. */
  listSize: number;
  listWarmups: number;
  listIterations: number;
  /** watch-latency: concurrent watch connections. */
  watchers: number;
  /** watch-latency: length of the write window, ms. */
  watchMs: number;
  /** watch-latency: PriorityClass creates per second (open loop). */
  watchRate: number;
  /** watch-latency: max wait after the last write for every watcher to catch up, ms. */
  watchDrainMs: number;
  /** list-paged: objects created, then listed page by page. */
  listPagedObjects: number;
  /** list-paged: page size (limit). */
  listPagedLimit: number;
  /** list-paged: timed full passes over the list. */
  listPagedPasses: number;
  /** list-paged: untimed full passes before the timed ones. */
  listPagedWarmups: number;
  /** rss: objects created before RSS is read. */
  rssObjects: number;
  /** rss: creates in flight. */
  rssConcurrency: number;
  /** Time bound on the object-creation stage of list-paged and rss, ms. */
  setupMaxMs: number;
  storage: StorageKind;
  /** Command (argv, whitespace-split) that starts kapi; see kapiArgs in servers.ts. */
  kapiCmd: string[];
  kapiCmdIsDefault: boolean;
  /** BENCH_KAPI_URL: drive a server already running there as "kapi" instead of starting one. */
  kapiUrl?: string;
  /** BENCH_KAPI_TOKEN: the bearer token for it. */
  kapiToken?: string;
  /** BENCH_KAPI_PID: the running server's pid, for its CPU readings (a kube-apiserver under BENCH_KAPI_URL). */
  kapiPid?: number;
  /** BENCH_KAPI_CA: the CA file to trust for it (unset: its certificate is not checked). */
  kapiCA?: string;
  /** Targets to run server phases against. */
  targets: Array<'kapi' | 'baseline'>;
  /** Phases to run (ids); empty = all. */
  phases: Set<string>;
  /** Whole-run wall-clock bound in ms. */
  totalTimeoutMs: number;
  /** Per-request timeout in ms. */
  requestTimeoutMs: number;
  /** Max time to wait for a server to become ready, ms. */
  readyTimeoutMs: number;
  outFile: string;
  /** Exit non-zero on a MISS too (not only on errors). */
  strict: boolean;
  etcdBin: string;
  /** Project root (where dist/ lives); child processes run here. */
  root: string;
  /** Directory of the compiled bench scripts. */
  benchDir: string;
}

export function loadConfig(): BenchConfig {
  const benchDir = path.dirname(fileURLToPath(import.meta.url));
  // dist/scripts/bench -> project root
  const root = path.resolve(benchDir, '..', '..', '..');
  const storageRaw = (process.env.BENCH_STORAGE ?? 'leveldb').trim().toLowerCase();
  let storage: StorageKind;
  if (storageRaw === '' || storageRaw === 'leveldb' || storageRaw === 'level') storage = 'leveldb';
  else if (storageRaw === 'etcd3' || storageRaw === 'etcd') storage = 'etcd3';
  else throw new Error(`BENCH_STORAGE must be leveldb or etcd3, got ${storageRaw}`);

  const cmdRaw = process.env.BENCH_KAPI_CMD?.trim();
  const kapiCmd = cmdRaw
    ? cmdRaw.split(/\s+/).map((a) => (a === 'node' ? process.execPath : a))
    : // The bench measures the apiserver (kube-apiserver runs no controllers): its StatefulSets
      // must not get pods from kapi's StatefulSet controller.
      [process.execPath, path.join(root, 'dist', 'src', 'cli.js'), 'serve', '--controllers', 'namespace-controller'];

  const targetsRaw = (process.env.BENCH_TARGETS ?? 'baseline,kapi').split(',').map((s) => s.trim()).filter(Boolean);
  const targets = targetsRaw.filter((t): t is 'kapi' | 'baseline' => t === 'kapi' || t === 'baseline');
  if (targets.length === 0) throw new Error('BENCH_TARGETS must name kapi and/or baseline');

  const phases = new Set((process.env.BENCH_PHASES ?? '').split(',').map((s) => s.trim()).filter(Boolean));

  return {
    concurrency: intEnv('BENCH_CONCURRENCY', 32, 1, 1024),
    phaseMs: Math.round(numEnv('BENCH_SECONDS', 5, 0.1, 600) * 1000),
    maxOpsPerPhase: intEnv('BENCH_MAX_OPS', 2_000_000, 1, 50_000_000),
    warmupOps: intEnv('BENCH_WARMUP', 500, 0, 100_000),
    readyRuns: intEnv('BENCH_READY_RUNS', 5, 1, 50),
    readyWarmups: intEnv('BENCH_READY_WARMUPS', 1, 0, 10),
    listSize: intEnv('BENCH_LIST_SIZE', 1000, 1, 100_000),
    listWarmups: intEnv('BENCH_LIST_WARMUPS', 5, 0, 1000),
    listIterations: intEnv('BENCH_LIST_ITERATIONS', 50, 1, 10_000),
    watchers: intEnv('BENCH_WATCHERS', 1000, 1, 10_000),
    watchMs: Math.round(numEnv('BENCH_WATCH_SECONDS', 10, 0.1, 600) * 1000),
    watchRate: numEnv('BENCH_WATCH_RATE', 200, 0.1, 20_000),
    watchDrainMs: Math.round(numEnv('BENCH_WATCH_DRAIN_SECONDS', 30, 0.1, 600) * 1000),
    listPagedObjects: intEnv('BENCH_LIST_PAGED_OBJECTS', 10_000, 1, 1_000_000),
    listPagedLimit: intEnv('BENCH_LIST_PAGED_LIMIT', 500, 1, 100_000),
    listPagedPasses: intEnv('BENCH_LIST_PAGED_PASSES', 5, 1, 1000),
    listPagedWarmups: intEnv('BENCH_LIST_PAGED_WARMUPS', 1, 0, 100),
    rssObjects: intEnv('BENCH_RSS_OBJECTS', 100_000, 1, 5_000_000),
    rssConcurrency: intEnv('BENCH_RSS_CONCURRENCY', 64, 1, 1024),
    setupMaxMs: Math.round(numEnv('BENCH_SETUP_MAX_SECONDS', 300, 1, 7200) * 1000),
    storage,
    kapiCmd,
    kapiCmdIsDefault: !cmdRaw,
    kapiUrl: process.env.BENCH_KAPI_URL?.trim() || undefined,
    kapiToken: process.env.BENCH_KAPI_TOKEN?.trim() || undefined,
    kapiPid: process.env.BENCH_KAPI_PID ? Number(process.env.BENCH_KAPI_PID) : undefined,
    kapiCA: process.env.BENCH_KAPI_CA?.trim() || undefined,
    targets,
    phases,
    totalTimeoutMs: Math.round(numEnv('BENCH_TIMEOUT_SECONDS', 900, 10, 86_400) * 1000),
    requestTimeoutMs: intEnv('BENCH_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    readyTimeoutMs: intEnv('BENCH_READY_TIMEOUT_MS', 30_000, 100, 600_000),
    outFile: path.resolve(process.env.BENCH_OUT ?? 'bench-results.json'),
    strict: process.env.BENCH_STRICT === '1' || process.env.BENCH_STRICT === 'true',
    etcdBin: process.env.BENCH_ETCD_BIN ?? '/usr/bin/etcd',
    root,
    benchDir,
  };
}

export function phaseEnabled(cfg: BenchConfig, id: string): boolean {
  return cfg.phases.size === 0 || cfg.phases.has(id);
}
