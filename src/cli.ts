#!/usr/bin/env node
// kapi's command line: `kapi serve` with kube-apiserver's flag names where they exist.

import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { NodeConfig } from './server/node.js';
import { setFeatureGates } from './machinery/feature-gates.js';
import { SERVER_STACK_MB, type ServeRequest } from './server/serve-worker.js';

const USAGE = `Usage: kapi serve [flags]

Flags:
  --data-dir string                 where the embedded store and admin.kubeconfig live (default "./data")
  --bind-address string             address to listen on (default "127.0.0.1")
  --secure-port int                 port to listen on; plain HTTP until TLS arrives (default 6443)
  --storage-backend string          "level" (embedded LevelDB, default) or "etcd3"
  --etcd-servers strings            etcd URLs, comma-separated (for etcd3)
  --etcd-prefix string              key prefix in storage (default "/registry")
  --etcd-compaction-interval dur    how often history is compacted (default 5m0s; 0 disables)
  --min-request-timeout int         seconds; watches last between this and twice this (default 1800)
  --watch-history duration          how long watch history is kept (default 5m0s)
  --storage-sync                    fsync every LevelDB batch (survives power loss, slower)
  --feature-gates string            Name=true|false,... (APIResponseCompression, CBORServingAndStorage, WatchList, ...)
  -v, --v int                       log verbosity (0 info, 1+ debug)
`;

/** Parses Go-style durations ("5m0s", "300s", "1h") into milliseconds. */
export function parseDuration(s: string): number {
  if (/^[0-9]+$/.test(s)) return Number(s) * 1000;
  const re = /([0-9.]+)(ms|h|m|s)/g;
  let total = 0;
  let matched = '';
  for (const m of s.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3_600_000 : m[2] === 'm' ? n * 60_000 : m[2] === 's' ? n * 1000 : n;
    matched += m[0];
  }
  if (matched !== s) throw new Error(`invalid duration ${JSON.stringify(s)}`);
  return total;
}

function fail(msg: string): never {
  process.stderr.write(`Error: ${msg}\n\n${USAGE}`);
  process.exit(2);
}

async function serve(argv: string[]): Promise<void> {
  const t0 = performance.now();
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string', default: './data' },
        'bind-address': { type: 'string', default: '127.0.0.1' },
        'secure-port': { type: 'string', default: '6443' },
        'storage-backend': { type: 'string', default: 'level' },
        'etcd-servers': { type: 'string', default: '' },
        'etcd-prefix': { type: 'string', default: '/registry' },
        'etcd-compaction-interval': { type: 'string', default: '5m0s' },
        'min-request-timeout': { type: 'string', default: '1800' },
        'watch-history': { type: 'string', default: '5m0s' },
        'storage-sync': { type: 'boolean', default: false },
        'feature-gates': { type: 'string', default: '' },
        v: { type: 'string', short: 'v', default: '0' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const backend = values['storage-backend'];
  if (backend !== 'level' && backend !== 'etcd3') fail(`--storage-backend must be "level" or "etcd3", got ${JSON.stringify(backend)}`);
  const etcdServers = values['etcd-servers'].split(',').map((s) => s.trim()).filter(Boolean);
  if (backend === 'etcd3' && etcdServers.length === 0) fail('--etcd-servers is required with --storage-backend=etcd3');
  const port = Number(values['secure-port']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid --secure-port ${values['secure-port']}`);
  const prefix = values['etcd-prefix'].replace(/\/+$/, '');
  let cfg: NodeConfig;
  try {
    cfg = {
      dataDir: resolve(values['data-dir']),
      bindAddress: values['bind-address'],
      securePort: port,
      storageBackend: backend,
      etcdServers,
      etcdPrefix: prefix.startsWith('/') ? prefix : `/${prefix}`,
      watchHistoryMs: parseDuration(values['watch-history']),
      compactionIntervalMs: parseDuration(values['etcd-compaction-interval']),
      minRequestTimeoutSeconds: Number(values['min-request-timeout']),
      storageSync: values['storage-sync'],
    };
  } catch (e) {
    fail((e as Error).message);
  }
  try {
    setFeatureGates(values['feature-gates']);
  } catch (e) {
    fail(`invalid argument ${JSON.stringify(values['feature-gates'])} for "--feature-gates" flag: ${(e as Error).message}`);
  }
  // The server runs in a worker thread with a deep stack: request data may nest 10,000
  // levels (Go's JSON limit, which kube admits), and every walker over it, JSON.stringify
  // among them, recurses. The main thread only forwards signals.
  const req: ServeRequest = { cfg, featureGates: values['feature-gates'], verbose: Number(values.v) > 0, startedAt: Date.now() - (performance.now() - t0) };
  const worker = new Worker(new URL('./server/serve-worker.js', import.meta.url), { workerData: req, resourceLimits: { stackSizeMb: SERVER_STACK_MB } });
  const shutdown = (sig: string) => worker.postMessage({ stop: sig });
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  worker.on('error', (e) => {
    process.stderr.write(`kapi: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
  worker.on('exit', (code) => process.exit(code));
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'serve') {
  void serve(rest);
} else {
  process.stdout.write(USAGE);
  process.exit(cmd === undefined || cmd === 'help' || cmd === '--help' ? 0 : 2);
}
