// What a replicated kapi cluster runs, as data: the etcd members' and kapi nodes' command
// lines and haproxy's configuration, for a given layout (hosts, ports, directories). The
// launcher runs this plan on one machine; docker-compose.yml is this plan for one container
// per process, and a test checks that the two agree flag for flag.

export interface EtcdMemberSpec {
  name: string;
  /** Where the other members and the nodes reach it. */
  host: string;
  clientPort: number;
  peerPort: number;
  dataDir: string;
}

export interface NodeSpec {
  name: string;
  host: string;
  port: number;
  /** The balancer's health check (--balancer-check-port, plain HTTP). */
  checkPort: number;
  dataDir: string;
}

export interface Layout {
  /** Address the processes listen on (127.0.0.1 on one machine, 0.0.0.0 in containers). */
  listen: string;
  etcd: EtcdMemberSpec[];
  nodes: NodeSpec[];
  balancer: { listen: string; port: number };
  /** Extra flags every kapi node gets (the launcher's tests shorten leader election). */
  nodeFlags?: string[];
  /** The nodes serve plain HTTP (`--insecure-plain-http` in nodeFlags): the agents speak it to them. */
  plainHTTP?: boolean;
  /**
   * The cluster's one PKI (`kapi pki`): a CA, one serving certificate every node presents
   * (it names every node and the balancer), the admin's client certificate.
   */
  pki: {
    dir: string;
    /** Names and addresses beyond localhost and 127.0.0.1 the serving certificate covers. */
    sans: string[];
    /** The admin kubeconfig `kapi pki` writes, and the balancer URL it points at. */
    kubeconfig: string;
    server: string;
  };
  /**
   * A DNS server haproxy asks again for the nodes' addresses (Docker's, in compose, where a
   * restarted container may come back with another address). Unset: resolved once at start.
   */
  dnsResolver?: string;
}

/** Same-cluster token, so members of two clusters never join each other by mistake. */
export const ETCD_CLUSTER_TOKEN = 'kapi-cluster';

const url = (host: string, port: number): string => `http://${host}:${port}`;

/** etcd's command line (after the binary). Flags naming the initial cluster are ignored once a member has data. */
export function etcdArgs(layout: Layout, m: EtcdMemberSpec): string[] {
  const cluster = layout.etcd.map((x) => `${x.name}=${url(x.host, x.peerPort)}`).join(',');
  return [
    '--name', m.name,
    '--data-dir', m.dataDir,
    '--listen-client-urls', url(layout.listen, m.clientPort),
    '--advertise-client-urls', url(m.host, m.clientPort),
    '--listen-peer-urls', url(layout.listen, m.peerPort),
    '--initial-advertise-peer-urls', url(m.host, m.peerPort),
    '--initial-cluster', cluster,
    '--initial-cluster-state', 'new',
    '--initial-cluster-token', ETCD_CLUSTER_TOKEN,
    '--logger', 'zap',
    '--log-level', 'warn',
  ];
}

/** The etcd client URLs every node is given, in member order. */
export const etcdServers = (layout: Layout): string => layout.etcd.map((m) => url(m.host, m.clientPort)).join(',');

const sanFlags = (layout: Layout): string[] => (layout.pki.sans.length ? ['--tls-san', layout.pki.sans.join(',')] : []);

/**
 * `kapi pki`'s command line (after `node dist/src/cli.js`): run once before the nodes, it makes
 * the CA and certificates they share (and reuses them on later starts) and the admin kubeconfig.
 */
export function pkiArgs(layout: Layout): string[] {
  return [
    'pki',
    '--cert-dir', layout.pki.dir,
    '--bind-address', layout.listen,
    ...sanFlags(layout),
    '--kubeconfig', layout.pki.kubeconfig,
    '--server', layout.pki.server,
  ];
}

/**
 * How long a stopping node keeps serving with its check answering 404: haproxy must have seen
 * one such answer (a check every 400 ms, one slow or lost check on a loaded machine) before the
 * node stops accepting connections, or it would still send it some.
 */
export const SHUTDOWN_DELAY = '2s';

/** `kapi serve`'s command line (after `node dist/src/cli.js`). */
export function nodeArgs(layout: Layout, n: NodeSpec): string[] {
  return [
    'serve',
    '--node-name', n.name,
    '--data-dir', n.dataDir,
    '--bind-address', layout.listen,
    '--secure-port', String(n.port),
    '--balancer-check-port', String(n.checkPort),
    '--shutdown-delay-duration', SHUTDOWN_DELAY,
    '--cert-dir', layout.pki.dir,
    ...sanFlags(layout),
    '--storage-backend', 'etcd3',
    '--etcd-servers', etcdServers(layout),
    ...(layout.nodeFlags ?? []),
  ];
}

/**
 * The simulated nodes' names, dealt out to the agent processes: one agent per kapi node but the
 * first (the followers at start; the first node is where the others' leases are usually taken),
 * or the only node of a one-node cluster. Answers [node, names] pairs.
 */
export function agentPlacement(layout: Layout, simulatedNodes: number): [NodeSpec, string[]][] {
  if (simulatedNodes <= 0) return [];
  const targets = layout.nodes.length > 1 ? layout.nodes.slice(1) : layout.nodes;
  const names: string[][] = targets.map(() => []);
  for (let i = 0; i < simulatedNodes; i++) names[i % targets.length]!.push(`worker-${i + 1}`);
  return targets.map((n, i) => [n, names[i]!] as [NodeSpec, string[]]).filter(([, list]) => list.length > 0);
}

/** `kapi agent`'s command line (after `node dist/src/cli.js`): simulated nodes against one kapi node, with node certificates from the cluster CA. */
export function agentArgs(layout: Layout, n: NodeSpec, names: string[]): string[] {
  return [
    'agent',
    '--kubeconfig', `${n.dataDir}/admin.kubeconfig`,
    ...(layout.plainHTTP ? [] : ['--cert-dir', layout.pki.dir]),
    '--node-names', names.join(','),
  ];
}

/** haproxy's command line (after the binary): foreground, one config file. */
export const haproxyArgs = (configPath: string): string[] => ['-db', '-f', configPath];

/**
 * haproxy in TCP mode (TLS passes through to the nodes), asking each node's check port
 * (--balancer-check-port, src/server/balancer-check.ts) every 400 ms. The port answers as
 * /readyz would, except while the node shuts down:
 *
 * - A node that fails two checks in a row (killed, paused, or without an etcd quorum) leaves
 *   the rotation within 1.85 s at worst (a check just missed, two 600 ms timeouts and the
 *   250 ms between them), and its open connections (watches included) are closed so their
 *   clients reconnect to another node. A connection refused by a dead node is retried on
 *   another at once. The check timeout is generous enough for a node busy with heavy load.
 * - A node shutting down (SIGTERM) answers 404, which `disable-on-404` turns into a drain:
 *   no new connection goes to it, and the ones it has are left alone, not cut, while it
 *   finishes their requests and ends them itself (each HTTP/1.1 response closes its
 *   connection, HTTP/2 gets a GOAWAY, watches end cleanly). The port stays open until the
 *   process exits, so the node is not marked DOWN (which would cut them) before that.
 *
 * When no node is ready (an etcd quorum lost), the same nodes serve as backups without a
 * check: reads with resourceVersion=0 are answered from their caches, and writes get kube's
 * error for an etcd timeout instead of a closed connection.
 */
export function haproxyConfig(layout: Layout): string {
  const dns = layout.dnsResolver ? ' resolvers dns init-addr last,libc,none' : '';
  const lines = [
    '# Written by kapi cluster (cluster/plan.ts); docker-compose.yml uses cluster/haproxy.cfg, the same',
    '# plan for containers.',
    'global',
    '  maxconn 4000',
    '  log stdout format raw local0 notice',
    '',
    'defaults',
    '  mode tcp',
    '  log global',
    '  option dontlognull',
    '  retries 3',
    '  option redispatch 1',
    '  timeout connect 1s',
    // Watches stay open for up to twice --min-request-timeout (an hour by default).
    '  timeout client 2h',
    '  timeout server 2h',
    '  timeout check 600ms',
    '',
    ...(layout.dnsResolver ? ['resolvers dns', `  nameserver dns ${layout.dnsResolver}`, '  hold valid 5s', ''] : []),
    'frontend kapi',
    `  bind ${layout.balancer.listen}:${layout.balancer.port}`,
    '  default_backend kapi-nodes',
    '',
    'backend kapi-nodes',
    '  balance roundrobin',
    '  option httpchk GET /',
    '  http-check disable-on-404',
    '  http-check expect status 200',
    '  option allbackups',
    '  default-server inter 400ms fastinter 250ms downinter 1s fall 2 rise 2 on-marked-down shutdown-sessions',
    ...layout.nodes.map((n) => `  server ${n.name} ${n.host}:${n.port} check port ${n.checkPort}${dns}`),
    ...layout.nodes.map((n) => `  server ${n.name}-cached ${n.host}:${n.port} backup${dns}`),
    '',
  ];
  return lines.join('\n');
}

/** One machine: every process on 127.0.0.1, directories under `dir`. */
export function localLayout(
  dir: string,
  ports: { balancer: number; nodes: number[]; checks: number[]; etcd: { client: number; peer: number }[] },
  nodeFlags: string[] = [],
): Layout {
  return {
    listen: '127.0.0.1',
    etcd: ports.etcd.map((p, i) => ({ name: `etcd-${i + 1}`, host: '127.0.0.1', clientPort: p.client, peerPort: p.peer, dataDir: `${dir}/etcd-${i + 1}` })),
    nodes: ports.nodes.map((port, i) => ({ name: `node-${i + 1}`, host: '127.0.0.1', port, checkPort: ports.checks[i]!, dataDir: `${dir}/node-${i + 1}` })),
    balancer: { listen: '127.0.0.1', port: ports.balancer },
    nodeFlags,
    plainHTTP: nodeFlags.includes('--insecure-plain-http'),
    pki: { dir: `${dir}/pki`, sans: [], kubeconfig: `${dir}/admin.kubeconfig`, server: `https://127.0.0.1:${ports.balancer}` },
  };
}

/** The nodes' check port in docker-compose.yml (inside the compose network only). */
export const COMPOSE_CHECK_PORT = 6080;

/** docker-compose.yml's layout: one container per process, reached by service name. */
export function composeLayout(nodes = 3, members = 3): Layout {
  return {
    listen: '0.0.0.0',
    etcd: Array.from({ length: members }, (_, i) => ({ name: `etcd-${i + 1}`, host: `etcd-${i + 1}`, clientPort: 2379, peerPort: 2380, dataDir: '/var/lib/etcd' })),
    nodes: Array.from({ length: nodes }, (_, i) => ({ name: `kapi-${i + 1}`, host: `kapi-${i + 1}`, port: 6443, checkPort: COMPOSE_CHECK_PORT, dataDir: '/data' })),
    balancer: { listen: '0.0.0.0', port: 6443 },
    dnsResolver: '127.0.0.11:53',
    pki: {
      dir: '/pki',
      sans: [...Array.from({ length: nodes }, (_, i) => `kapi-${i + 1}`), 'haproxy'],
      kubeconfig: '/pki/admin.kubeconfig',
      server: 'https://localhost:6443',
    },
  };
}

/** Where docker-compose.yml mounts cluster/haproxy.cfg in the haproxy container. */
export const COMPOSE_HAPROXY_CONFIG = '/usr/local/etc/haproxy/haproxy.cfg';
