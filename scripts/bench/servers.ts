// Starting the servers under test (kapi, the Koa baseline, etcd) and waiting for readiness.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchConfig } from './config.js';
import { request } from './http.js';
import { freePort, makeTempDir, removeTempDir, sleep, spawnChild, stopChild, tailLog, type Child } from './proc.js';

export interface RunningServer {
  name: string;
  child: Child;
  host: string;
  port: number;
  /** Spawn -> first 200 from the readiness endpoint, ms. */
  readyMs: number;
  dataDir?: string;
  stop: () => Promise<void>;
}

export interface EtcdInfo {
  clientUrl: string;
  child: Child;
  stop: () => Promise<void>;
}

const HOST = '127.0.0.1';

/**
 * Polls `GET path` on host:port (fresh connection each time) until 200, the child exits,
 * or timeoutMs passes. Returns the time of the first 200 (performance.now()).
 */
export async function waitReady(
  child: Child,
  port: number,
  readyPath: string,
  timeoutMs: number,
  pollMs = 5,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no response';
  while (performance.now() < deadline) {
    if (child.hasExited()) {
      const ex = await child.exited;
      throw new Error(
        `${child.name} exited before ready (code ${ex.code}, signal ${ex.signal}); log tail:\n${tailLog(child)}`,
      );
    }
    try {
      const res = await request(
        { host: HOST, port, agent: false },
        { method: 'GET', path: readyPath },
        { timeoutMs: 1000, expect: 200 },
      );
      if (res.status === 200) return performance.now();
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(pollMs);
  }
  throw new Error(`${child.name} not ready on :${port}${readyPath} after ${timeoutMs} ms (last: ${last}); log tail:\n${tailLog(child)}`);
}

async function startHttpServer(
  cfg: BenchConfig,
  name: string,
  build: (port: number) => { argv: string[]; dataDir?: string },
): Promise<RunningServer> {
  const port = await freePort();
  const { argv, dataDir } = build(port);
  const t0 = performance.now();
  const child = spawnChild(name, argv, { cwd: cfg.root });
  let readyAt: number;
  try {
    readyAt = await waitReady(child, port, '/readyz', cfg.readyTimeoutMs);
  } catch (err) {
    await stopChild(child);
    if (dataDir) removeTempDir(dataDir);
    throw err;
  }
  return {
    name,
    child,
    host: HOST,
    port,
    readyMs: readyAt - t0,
    dataDir,
    stop: async () => {
      await stopChild(child);
      if (dataDir) removeTempDir(dataDir);
    },
  };
}

/** The kapi command line: BENCH_KAPI_CMD (or the default) + standard flags. Placeholders {port} {dataDir} {etcd} are substituted if present. */
export function kapiArgv(cfg: BenchConfig, port: number, dataDir: string, etcd?: EtcdInfo, etcdPrefix?: string): string[] {
  const subst = (a: string): string =>
    a.replaceAll('{port}', String(port)).replaceAll('{dataDir}', dataDir).replaceAll('{etcd}', etcd?.clientUrl ?? '');
  const hasPlaceholders = cfg.kapiCmd.some((a) => /\{(port|dataDir|etcd)\}/.test(a));
  if (hasPlaceholders) return cfg.kapiCmd.map(subst);
  const argv = [...cfg.kapiCmd, '--data-dir', dataDir, '--secure-port', String(port), '--bind-address', HOST];
  if (etcd) argv.push('--storage-backend', 'etcd3', '--etcd-servers', etcd.clientUrl);
  if (etcd && etcdPrefix) argv.push('--etcd-prefix', etcdPrefix);
  return argv;
}

/** `etcdPrefix` (etcd3 only, ignored with placeholder commands) gives this kapi a keyspace of its own. */
export function startKapi(cfg: BenchConfig, etcd?: EtcdInfo, opts: { etcdPrefix?: string; extraArgs?: string[] } = {}): Promise<RunningServer> {
  return startHttpServer(cfg, 'kapi', (port) => {
    const dataDir = makeTempDir('kapi-data');
    return { argv: [...kapiArgv(cfg, port, dataDir, etcd, opts.etcdPrefix), ...(opts.extraArgs ?? [])], dataDir };
  });
}

export function startBaseline(cfg: BenchConfig): Promise<RunningServer> {
  return startHttpServer(cfg, 'baseline', (port) => ({
    argv: [process.execPath, path.join(cfg.benchDir, 'baseline-server.js'), '--port', String(port), '--bind-address', HOST],
  }));
}

export async function startEtcd(cfg: BenchConfig): Promise<EtcdInfo> {
  const dir = makeTempDir('etcd');
  const clientPort = await freePort();
  let peerPort = await freePort();
  while (peerPort === clientPort) peerPort = await freePort();
  const clientUrl = `http://${HOST}:${clientPort}`;
  const peerUrl = `http://${HOST}:${peerPort}`;
  const argv = [
    cfg.etcdBin,
    '--name', 'bench',
    '--data-dir', path.join(dir, 'data'),
    '--listen-client-urls', clientUrl,
    '--advertise-client-urls', clientUrl,
    '--listen-peer-urls', peerUrl,
    '--initial-advertise-peer-urls', peerUrl,
    '--initial-cluster', `bench=${peerUrl}`,
    '--initial-cluster-state', 'new',
    '--logger', 'zap',
    '--log-level', 'warn',
  ];
  const child = spawnChild('etcd', argv, { cwd: dir });
  try {
    await waitReady(child, clientPort, '/health', cfg.readyTimeoutMs, 50);
  } catch (err) {
    await stopChild(child);
    removeTempDir(dir);
    throw err;
  }
  return {
    clientUrl,
    child,
    stop: async () => {
      await stopChild(child, 5000);
      removeTempDir(dir);
    },
  };
}
