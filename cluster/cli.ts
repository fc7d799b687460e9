// `kapi cluster` (= `npm run cluster`): a replicated cluster on this machine, in the
// foreground. Ctrl-C (or SIGTERM) stops everything it started; starting it again on the
// same --data-dir resumes the same cluster.

import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { Cluster } from './launcher.js';

const USAGE = `Usage: kapi cluster [flags]

Starts etcd members, kapi nodes and haproxy in front of them on this machine.

Flags:
  --data-dir string       where the cluster keeps its data, logs and kubeconfigs (default "./cluster-data")
  --nodes int             kapi nodes (default 3)
  --etcd-members int      etcd members (default 3)
  --secure-port int       the balancer's port; nodes take the next ones, etcd 2379 and up (default 6443; 0 picks free ports)
  --simulated-nodes int   simulated nodes (worker-1 ..), run by one kapi agent per follower node (default 3; 0: none)
`;

export async function clusterMain(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string', default: './cluster-data' },
        nodes: { type: 'string' },
        'etcd-members': { type: 'string' },
        'secure-port': { type: 'string', default: '6443' },
        'simulated-nodes': { type: 'string', default: '3' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const int = (v: string | undefined, flag: string, min: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) {
      process.stderr.write(`Error: --${flag} must be an integer >= ${min}, got ${JSON.stringify(v)}\n`);
      process.exit(2);
    }
    return n;
  };
  const log = pino({ name: 'kapi-cluster' });
  const t0 = performance.now();
  let cluster: Cluster;
  try {
    cluster = await Cluster.start({
      dataDir: values['data-dir'],
      nodes: int(values.nodes, 'nodes', 1),
      etcdMembers: int(values['etcd-members'], 'etcd-members', 1),
      port: int(values['secure-port'], 'secure-port', 0),
      simulatedNodes: int(values['simulated-nodes'], 'simulated-nodes', 0),
      log: (msg, fields) => log.info(fields ?? {}, msg),
    });
  } catch (e) {
    log.fatal({ err: (e as Error).message }, 'cluster failed to start');
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping the cluster');
    cluster.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  log.info(
    {
      balancer: cluster.balancerUrl,
      kubeconfig: cluster.kubeconfig,
      nodes: cluster.nodes.map((n) => ({ name: n.name, url: n.url, kubeconfig: n.kubeconfig })),
      simulatedNodes: cluster.agents.map((a) => ({ agent: a.node, nodes: a.nodeNames })),
      etcd: cluster.etcd.map((m) => m.endpoint),
      logs: `${cluster.dir}/logs`,
      startupMs: Math.round(performance.now() - t0),
    },
    'kapi cluster ready',
  );
}
