#!/usr/bin/env node
// kapi's command line: `kapi serve` with kube-apiserver's flag names where they exist.

import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { KapiNode, type NodeConfig } from './server/node.js';
import { setFeatureGates } from './machinery/feature-gates.js';
import { validateTiming } from './controllers/leader-election.js';

const USAGE = `Usage: kapi serve [flags]
       kapi cluster [flags]   (a replicated cluster on this machine; kapi cluster --help)

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
  --node-name string                this node's name in logs and its identity lease (default "kapi-<port>")
  --leader-elect                    run the controllers only on the node holding the controller lease (default true)
  --leader-elect-lease-duration dur how long a lost leader's lease keeps others waiting (default 15s)
  --leader-elect-renew-deadline dur how long the leader keeps trying to renew before it stops (default 10s)
  --leader-elect-retry-period dur   how often the lease is renewed or tried for (default 2s)
  --leader-elect-resource-name str  the controller lease's name (default "kube-controller-manager")
  --leader-elect-resource-namespace str  its namespace (default "kube-system")
  --identity-lease-duration-seconds int       the node's identity lease duration (default 3600)
  --identity-lease-renew-interval-seconds int how often the node renews it (default 10)
  --etcd-request-timeout dur        deadline of one etcd call (default 5s)
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

function positiveInt(v: string, flag: string): number {
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || n <= 0) throw new Error(`--${flag} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

/** Go's strconv.ParseBool, as pflag reads a bool flag given a value. */
function parseBool(v: string, flag: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw new Error(`invalid argument ${JSON.stringify(v)} for "--${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

function leaderElection(values: Record<string, string | boolean | undefined>): NodeConfig['leaderElection'] {
  if (!parseBool(String(values['leader-elect']), 'leader-elect')) return undefined;
  const timing = {
    leaseDurationMs: parseDuration(String(values['leader-elect-lease-duration'])),
    renewDeadlineMs: parseDuration(String(values['leader-elect-renew-deadline'])),
    retryPeriodMs: parseDuration(String(values['leader-elect-retry-period'])),
  };
  const bad = validateTiming(timing);
  if (bad) throw new Error(`leader election: ${bad}`);
  if (timing.leaseDurationMs % 1000 !== 0) throw new Error('--leader-elect-lease-duration must be a whole number of seconds (a Lease stores seconds)');
  return {
    ...timing,
    resourceName: String(values['leader-elect-resource-name']),
    resourceNamespace: String(values['leader-elect-resource-namespace']),
  };
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
      // pflag's bool flags take an optional value: `--leader-elect` alone means true.
      args: argv.map((a) => (a === '--leader-elect' ? '--leader-elect=true' : a)),
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
        'node-name': { type: 'string', default: '' },
        'leader-elect': { type: 'string', default: 'true' },
        'leader-elect-lease-duration': { type: 'string', default: '15s' },
        'leader-elect-renew-deadline': { type: 'string', default: '10s' },
        'leader-elect-retry-period': { type: 'string', default: '2s' },
        'leader-elect-resource-name': { type: 'string', default: 'kube-controller-manager' },
        'leader-elect-resource-namespace': { type: 'string', default: 'kube-system' },
        'identity-lease-duration-seconds': { type: 'string', default: '3600' },
        'identity-lease-renew-interval-seconds': { type: 'string', default: '10' },
        'etcd-request-timeout': { type: 'string', default: '5s' },
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
      nodeName: values['node-name'],
      leaderElection: leaderElection(values),
      identityLease: {
        durationSeconds: positiveInt(values['identity-lease-duration-seconds'], 'identity-lease-duration-seconds'),
        renewIntervalMs: positiveInt(values['identity-lease-renew-interval-seconds'], 'identity-lease-renew-interval-seconds') * 1000,
      },
      etcdRequestTimeoutMs: parseDuration(values['etcd-request-timeout']),
    };
  } catch (e) {
    fail((e as Error).message);
  }
  try {
    setFeatureGates(values['feature-gates']);
  } catch (e) {
    fail(`invalid argument ${JSON.stringify(values['feature-gates'])} for "--feature-gates" flag: ${(e as Error).message}`);
  }
  const log = pino({ name: 'kapi', level: Number(values.v) > 0 ? 'debug' : 'info' });
  const node = new KapiNode(cfg, log);
  const shutdown = (sig: string) => {
    log.info({ signal: sig }, 'shutting down');
    node.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  try {
    await node.start();
  } catch (e) {
    log.fatal({ err: e }, 'failed to start');
    process.exit(1);
  }
  log.info(
    { url: node.url, kubeconfig: node.kubeconfigPath, storage: cfg.storageBackend, startupMs: Math.round(performance.now() - t0) },
    'kapi ready',
  );
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'serve') {
  void serve(rest);
} else if (cmd === 'cluster') {
  // The launcher lives beside src/ (cluster/): it runs `kapi serve` processes, it is not one.
  void import('../cluster/cli.js').then((m) => m.clusterMain(rest));
} else {
  process.stdout.write(USAGE);
  process.exit(cmd === undefined || cmd === 'help' || cmd === '--help' ? 0 : 2);
}
