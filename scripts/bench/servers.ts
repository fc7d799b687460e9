// Starting the servers under test (kapi, the Koa baseline, etcd) and waiting for readiness.
//
// Both servers speak TLS: kapi makes its own PKI on its first start and the bench reads the
// admin kubeconfig it writes (the CA, the admin's client certificate); the baseline serves a
// certificate from a PKI the bench makes once per run, asks for client certificates and checks
// them against that CA, as kapi does. A kapi that writes a plain http:// kubeconfig (an older
// build under BENCH_KAPI_CMD) is driven over plain HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse as parseYaml } from 'yaml';
import { ensurePKI, servingHosts } from '../../src/auth/pki/files.js';
import type { BenchConfig } from './config.js';
import { request, type Endpoint, type TLSCredentials } from './http.js';
import { freePort } from '../../src/machinery/free-port.js';
import { makeTempDir, removeTempDir, sleep, spawnChild, stopChild, tailLog, type Child } from './proc.js';

export interface RunningServer extends Endpoint {
  name: string;
  /** Unset for a server the bench did not start (BENCH_KAPI_URL). */
  child?: Child;
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
 * or timeoutMs passes. Returns the time of the first 200 (performance.now()). `endpoint`
 * says how to connect; undefined while that is not known yet (kapi has not written its
 * kubeconfig).
 */
export async function waitReady(
  child: Child,
  endpoint: () => Endpoint | undefined,
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
    const ep = endpoint();
    if (!ep) {
      await sleep(pollMs);
      continue;
    }
    try {
      const res = await request({ ...ep, agent: false }, { method: 'GET', path: readyPath }, { timeoutMs: 1000, expect: 200 });
      if (res.status === 200) return performance.now();
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(pollMs);
  }
  throw new Error(`${child.name} not ready on :${endpoint()?.port ?? '?'}${readyPath} after ${timeoutMs} ms (last: ${last}); log tail:\n${tailLog(child)}`);
}

/** The server URL and TLS credentials of a kubeconfig's first cluster and user. */
export function readKubeconfig(file: string): { url: URL; tls?: TLSCredentials; token?: string } {
  type KC = {
    clusters?: { cluster: { server: string; 'certificate-authority-data'?: string } }[];
    users?: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string; token?: string } | null }[];
  };
  const doc = parseYaml(fs.readFileSync(file, 'utf8')) as KC;
  const cluster = doc.clusters?.[0]?.cluster;
  if (!cluster) throw new Error(`${file}: no cluster`);
  const user = doc.users?.[0]?.user ?? {};
  const pem = (b64?: string): string | undefined => (b64 ? Buffer.from(b64, 'base64').toString('utf8') : undefined);
  const url = new URL(cluster.server);
  const tls =
    url.protocol === 'https:'
      ? { ca: pem(cluster['certificate-authority-data']), cert: pem(user['client-certificate-data']), key: pem(user['client-key-data']) }
      : undefined;
  return { url, tls, token: user.token };
}

/** kapi's endpoint once it has written its kubeconfig (a file written through a rename: whole or absent). */
function kapiEndpoint(dataDir: string, port: number): () => Endpoint | undefined {
  let known: Endpoint | undefined;
  const file = path.join(dataDir, 'admin.kubeconfig');
  return () => {
    if (known) return known;
    if (!fs.existsSync(file)) return undefined;
    const kc = readKubeconfig(file);
    known = { host: HOST, port, tls: kc.tls, token: kc.token };
    return known;
  };
}

interface BaselinePKI {
  /** The CA, and the client certificate the bench presents (PEM). */
  ca: string;
  cert: string;
  key: string;
  /** Files the baseline serves and checks clients with. */
  certFile: string;
  keyFile: string;
  caFile: string;
}

let benchPKI: Promise<BaselinePKI> | undefined;

/** One PKI per bench run for the baseline: a CA, a serving certificate, a client certificate. */
function baselinePKI(): Promise<BaselinePKI> {
  benchPKI ??= (async () => {
    const dir = makeTempDir('pki');
    const pki = await ensurePKI({ certDir: dir, hosts: servingHosts(HOST) });
    return {
      ca: pki.caCert,
      cert: pki.admin!.cert,
      key: pki.admin!.key,
      certFile: pki.paths.servingCert,
      keyFile: pki.paths.servingKey,
      caFile: pki.paths.caCert,
    };
  })();
  return benchPKI;
}

async function startHttpServer(
  cfg: BenchConfig,
  name: string,
  build: (port: number) => Promise<{ argv: string[]; dataDir?: string; endpoint: () => Endpoint | undefined }>,
): Promise<RunningServer> {
  const port = await freePort();
  const { argv, dataDir, endpoint } = await build(port);
  const t0 = performance.now();
  const child = spawnChild(name, argv, { cwd: cfg.root });
  let readyAt: number;
  try {
    readyAt = await waitReady(child, endpoint, '/readyz', cfg.readyTimeoutMs);
  } catch (err) {
    await stopChild(child);
    if (dataDir) removeTempDir(dataDir);
    throw err;
  }
  return {
    ...endpoint()!,
    name,
    child,
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

/**
 * A server the bench did not start (BENCH_KAPI_URL, e.g. a kube-apiserver): its URL, a bearer
 * token (BENCH_KAPI_TOKEN) and the CA to trust (BENCH_KAPI_CA; without it the certificate is
 * not checked).
 */
function remoteKapi(cfg: BenchConfig): RunningServer {
  const u = new URL(cfg.kapiUrl!);
  const tls: TLSCredentials | undefined =
    u.protocol === 'https:' ? (cfg.kapiCA ? { ca: fs.readFileSync(cfg.kapiCA, 'utf8') } : { rejectUnauthorized: false }) : undefined;
  return {
    name: 'kapi',
    host: u.hostname,
    port: Number(u.port || (tls ? 443 : 80)),
    tls,
    token: cfg.kapiToken,
    readyMs: 0,
    stop: async () => undefined,
  };
}

/** `etcdPrefix` (etcd3 only, ignored with placeholder commands) gives this kapi a keyspace of its own. */
export async function startKapi(cfg: BenchConfig, etcd?: EtcdInfo, opts: { etcdPrefix?: string; extraArgs?: string[] } = {}): Promise<RunningServer> {
  if (cfg.kapiUrl) return remoteKapi(cfg);
  return startHttpServer(cfg, 'kapi', async (port) => {
    const dataDir = makeTempDir('kapi-data');
    return { argv: [...kapiArgv(cfg, port, dataDir, etcd, opts.etcdPrefix), ...(opts.extraArgs ?? [])], dataDir, endpoint: kapiEndpoint(dataDir, port) };
  });
}

export function startBaseline(cfg: BenchConfig): Promise<RunningServer> {
  return startHttpServer(cfg, 'baseline', async (port) => {
    const pki = await baselinePKI();
    const endpoint: Endpoint = { host: HOST, port, tls: { ca: pki.ca, cert: pki.cert, key: pki.key } };
    return {
      argv: [
        process.execPath,
        path.join(cfg.benchDir, 'baseline-server.js'),
        '--port',
        String(port),
        '--bind-address',
        HOST,
        '--tls-cert-file',
        pki.certFile,
        '--tls-private-key-file',
        pki.keyFile,
        '--client-ca-file',
        pki.caFile,
      ],
      endpoint: () => endpoint,
    };
  });
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
    await waitReady(child, () => ({ host: HOST, port: clientPort }), '/health', cfg.readyTimeoutMs, 50);
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
