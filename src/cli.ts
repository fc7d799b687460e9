#!/usr/bin/env node
// kapi's command line: `kapi serve` with kube-apiserver's flag names where they exist.

import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { NodeConfig, ServingConfig, TLSConfig } from './server/node.js';
import { validateTiming } from './controllers/leader-election.js';
import { resolveControllers } from './controllers/framework/names.js';
import { checkPortRange, checkServiceRanges, firstServiceIP } from './registry/core/services/ranges.js';
import { parseCipherSuites, parseMinVersion } from './server/tls-flags.js';
import { ensurePKI, servingHosts } from './auth/pki/files.js';
import { issueCert } from './auth/pki/certs.js';
import { writeKubeconfig } from './server/kubeconfig.js';
import { parseDuration } from './machinery/duration.js';
import { AGENT_FLAG_OPTIONS, AGENT_USAGE, agentOptionsFrom, parseAgentFlags } from './agent/flags.js';
import { nodeNames } from './agent/options.js';
import { checkNodeIPAM } from './controllers/nodes/ipam.js';
import { pino } from 'pino';
import { OPERATE_OPTIONS, OperateFlagError, applyOperateFlags, normalizeOperateArgs, operateUsage, type OperateValues } from './server/operate-flags.js';
import { SERVER_STACK_MB, type ServeRequest } from './server/serve-worker.js';
import { parseAuthorizationModes } from './auth/authz/modes.js';
import { disabledAdmissionPlugins } from './registry/admission-plugins.js';
import { issueNodeCert } from './auth/pki/node-cert.js';
import { loadServiceAccountKeys } from './auth/serviceaccount/keys.js';
import { readFile } from 'node:fs/promises';

const USAGE = `Usage: kapi serve [flags]
       kapi pki [flags]
       kapi cluster [flags]   (a replicated cluster on this machine; kapi cluster --help)
       kapi agent [flags]     (simulated nodes against a server; kapi agent --help)

Flags of serve:
  --data-dir string                 where the embedded store and admin.kubeconfig live (default "./data")
  --bind-address string             address to listen on (default "127.0.0.1")
  --secure-port int                 HTTPS port to listen on (default 6443)
  --balancer-check-port int         plain HTTP port for a load balancer's health check on --bind-address:
                                    200 ready, 404 shutting down (drain: no new connections, let the
                                    open ones finish), 500 not ready; open until the process exits
                                    (default 0: none)
  --cert-dir string                 where the generated CA, serving and admin certificates live (default "<data-dir>/pki")
  --tls-cert-file string            serving certificate (PEM chain) instead of the generated one
  --tls-private-key-file string     the key of --tls-cert-file
  --client-ca-file string           CA bundle that client certificates are checked against (default: the generated CA)
  --tls-san strings                 more DNS names and IPs for the generated serving certificate (comma-separated, repeatable)
  --tls-min-version string          VersionTLS10, VersionTLS11, VersionTLS12 (default), VersionTLS13
  --tls-cipher-suites strings       cipher suites for TLS 1.2 and below, by their Go names (comma-separated)
  --http2-max-streams-per-connection int  streams one HTTP/2 connection may have open (default 0: 250)
  --anonymous-auth                  serve requests without credentials as system:anonymous (default true;
                                    off with AlwaysAllow among the authorization modes, as in kube)
  --authorization-mode strings      authorizers in order: RBAC, Node, AlwaysAllow, AlwaysDeny (default "Node,RBAC")
  --enable-admission-plugins strings   admission plugins on besides the defaults (kube's names; kapi runs
                                    ServiceAccount, Priority, DefaultTolerationSeconds, RuntimeClass,
                                    DefaultStorageClass, StorageObjectInUseProtection, all on by default)
  --disable-admission-plugins strings  admission plugins turned off
  --token-auth-file string          static bearer tokens, CSV: token,user,uid[,"group1,group2"]
  --service-account-issuer strings  issuers of service account tokens; the first signs (repeatable;
                                    default "https://kubernetes.default.svc.cluster.local")
  --service-account-signing-key-file string  the key tokens are signed with (default: <cert-dir>/sa.key,
                                    an ECDSA P-256 key made on the first start)
  --service-account-key-file strings  PEM files of keys tokens are verified with (repeatable;
                                    default: the signing key)
  --api-audiences strings           audiences of the API (comma-separated; default: the issuers)
  --service-account-max-token-expiration duration  cap on a TokenRequest's lifetime (0: none)
  --service-account-jwks-uri string the jwks_uri of /.well-known/openid-configuration (https; default:
                                    https://<the address served>/openid/v1/jwks)
  --audit-policy-file string        audit.k8s.io/v1 Policy; with --audit-log-path turns auditing on
  --audit-log-path string           where audit events go, one JSON line each ("-" for stdout)
  --audit-log-maxsize int           megabytes before the log rotates (default 0: 100)
  --audit-log-maxbackup int         rotated files kept (default 0: all)
  --audit-log-maxage int            days rotated files are kept (default 0: forever)
  --audit-log-format string         "json" (default; kube's "legacy" text is not written)
  --insecure-plain-http             serve plain HTTP/1.1 with no TLS and no authentication, every request
                                    as system:unsecured in system:masters; for tests and debugging only
  --storage-backend string          "level" (embedded LevelDB, default) or "etcd3"
  --etcd-servers strings            etcd URLs, comma-separated (for etcd3)
  --etcd-prefix string              key prefix in storage (default "/registry")
  --etcd-compaction-interval dur    how often history is compacted (default 5m0s; 0 disables)
  --min-request-timeout int         seconds; watches last between this and twice this (default 1800)
  --watch-history duration          how long watch history is kept (default 5m0s)
  --event-ttl duration              how long events are kept after their last write (default 1h0m0s; 0 keeps them)
  --controllers strings             controllers to run, by kube-controller-manager's names: '*' (every one on by
                                    default), 'name', '-name' (default [*]); kapi runs namespace-controller,
                                    garbage-collector-controller, statefulset-controller, disruption-controller,
                                    persistentvolumeclaim-protection-controller,
                                    persistentvolume-protection-controller, serviceaccount-controller,
                                    clusterrole-aggregation-controller, node-lifecycle-controller,
                                    node-ipam-controller, pod-garbage-collector-controller,
                                    persistentvolume-binder-controller
  --scheduler                       run the scheduler (kube-scheduler's part of a kapi server) (default true)
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
  --service-cluster-ip-range string Service ClusterIPs come from this CIDR (two, comma-separated, for dual stack) (default "10.96.0.0/12")
  --service-node-port-range string  NodePorts come from this range (default "30000-32767")
  --simulate-nodes int              simulated nodes run in this process (default 1 with the embedded store, 0 with etcd3);
                                    they take kapi agent's flags (--pod-start-delay, --node-cpu, ...; kapi agent --help)
  --simulate-node-prefix string     their names are <prefix>1 .. <prefix>N (default "node-")
  --node-monitor-period dur         how often the node lifecycle controller checks nodes (default 5s)
  --node-monitor-grace-period dur   a node silent this long is NotReady (Unknown) (default 50s)
  --node-startup-grace-period dur   the same for a node that never reported (default 1m0s)
  --cluster-cidr string             nodes' pod CIDRs come from this IPv4 range (default "10.244.0.0/16")
  --node-cidr-mask-size int         each node's pod CIDR size (default 24)
  -v, --v int                       log verbosity (0 info, 1+ debug)
${operateUsage()}

kapi pki makes (or reuses) the CA, the serving and the admin certificates in --cert-dir, as serve
does on its first start, so several nodes can share one CA:
  --data-dir, --cert-dir, --bind-address, --tls-san, --service-cluster-ip-range   as for serve
  --kubeconfig string               also write a kubeconfig for --server with a client certificate
  --server string                   the URL that kubeconfig points at
  --user string                     that certificate's user (default "kubernetes-admin", the admin's)
  --group strings                   its groups (comma-separated, repeatable; default system:masters with the admin)
It also makes the service account key pair (sa.key, sa.pub) every node signs and verifies tokens with.

kapi pki node-cert NAME issues a node agent's client certificate (user system:node:NAME, group
system:nodes) from the CA in --cert-dir, written to <cert-dir>/nodes/NAME.crt and .key:
  --data-dir, --cert-dir            as for serve
  --kubeconfig string               also write a kubeconfig for --server with that certificate
  --server string                   the URL that kubeconfig points at
`;

/** Go's strconv.ParseBool, as pflag parses boolean flags. */
function parseGoBool(flag: string, s: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  throw new Error(`invalid argument ${JSON.stringify(s)} for "--${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax`);
}

/**
 * pflag's boolean flags take `--name` (true) and `--name=false`; parseArgs's booleans take no
 * value. These are declared as strings, and a bare `--name` becomes `--name=true`.
 */
function normalizeBoolFlags(argv: string[], names: string[]): string[] {
  return argv.map((a) => (names.some((n) => a === `--${n}`) ? `${a}=true` : a));
}

/** Comma-separated values of a repeatable flag. */
const listOf = (v: string[] | undefined): string[] => (v ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);


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

function leaderElection(values: Record<string, string | string[] | boolean | undefined>): NodeConfig['leaderElection'] {
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
      args: normalizeOperateArgs(normalizeBoolFlags(argv, ['anonymous-auth', 'insecure-plain-http', 'leader-elect', 'scheduler'])),
      options: {
        ...OPERATE_OPTIONS,
        'data-dir': { type: 'string', default: './data' },
        'cert-dir': { type: 'string' },
        'tls-cert-file': { type: 'string' },
        'tls-private-key-file': { type: 'string' },
        'client-ca-file': { type: 'string' },
        'tls-san': { type: 'string', multiple: true },
        'tls-min-version': { type: 'string', default: '' },
        'tls-cipher-suites': { type: 'string', multiple: true },
        'http2-max-streams-per-connection': { type: 'string', default: '0' },
        'anonymous-auth': { type: 'string', default: 'true' },
        'authorization-mode': { type: 'string', multiple: true },
        'enable-admission-plugins': { type: 'string', multiple: true },
        'disable-admission-plugins': { type: 'string', multiple: true },
        'token-auth-file': { type: 'string' },
        'service-account-issuer': { type: 'string', multiple: true },
        'service-account-signing-key-file': { type: 'string' },
        'service-account-key-file': { type: 'string', multiple: true },
        'api-audiences': { type: 'string', multiple: true },
        'service-account-max-token-expiration': { type: 'string', default: '0s' },
        'service-account-jwks-uri': { type: 'string' },
        'audit-policy-file': { type: 'string' },
        'audit-log-path': { type: 'string' },
        'audit-log-maxsize': { type: 'string', default: '0' },
        'audit-log-maxbackup': { type: 'string', default: '0' },
        'audit-log-maxage': { type: 'string', default: '0' },
        'audit-log-format': { type: 'string', default: 'json' },
        'insecure-plain-http': { type: 'string', default: 'false' },
        'bind-address': { type: 'string', default: '127.0.0.1' },
        'secure-port': { type: 'string', default: '6443' },
        'balancer-check-port': { type: 'string', default: '0' },
        'storage-backend': { type: 'string', default: 'level' },
        'etcd-servers': { type: 'string', default: '' },
        'etcd-prefix': { type: 'string', default: '/registry' },
        'etcd-compaction-interval': { type: 'string', default: '5m0s' },
        'min-request-timeout': { type: 'string', default: '1800' },
        'watch-history': { type: 'string', default: '5m0s' },
        'event-ttl': { type: 'string', default: '1h0m0s' },
        controllers: { type: 'string', multiple: true },
        scheduler: { type: 'string', default: 'true' },
        'storage-sync': { type: 'boolean', default: false },
        'service-cluster-ip-range': { type: 'string', default: '10.96.0.0/12' },
        'service-node-port-range': { type: 'string', default: '30000-32767' },
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
        'simulate-nodes': { type: 'string' },
        'simulate-node-prefix': { type: 'string', default: 'node-' },
        'node-monitor-period': { type: 'string', default: '5s' },
        'node-monitor-grace-period': { type: 'string', default: '50s' },
        'node-startup-grace-period': { type: 'string', default: '1m0s' },
        'cluster-cidr': { type: 'string', default: '10.244.0.0/16' },
        'node-cidr-mask-size': { type: 'string', default: '24' },
        ...AGENT_FLAG_OPTIONS,
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
  const checkPort = Number(values['balancer-check-port']);
  if (!Number.isInteger(checkPort) || checkPort < 0 || checkPort > 65535) fail(`invalid --balancer-check-port ${values['balancer-check-port']}`);
  const prefix = values['etcd-prefix'].replace(/\/+$/, '');
  let cfg: NodeConfig;
  try {
    const dataDir = resolve(values['data-dir']);
    let serving: ServingConfig;
    if (parseGoBool('insecure-plain-http', values['insecure-plain-http'])) {
      serving = { plainHTTP: true };
    } else {
      const certFile = values['tls-cert-file'];
      const keyFile = values['tls-private-key-file'];
      if ((certFile === undefined) !== (keyFile === undefined)) {
        throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
      }
      let minVersion = parseMinVersion(values['tls-min-version']);
      const ciphers = parseCipherSuites(listOf(values['tls-cipher-suites']));
      if (ciphers.tls13Only) minVersion = 'TLSv1.3';
      const streams = Number(values['http2-max-streams-per-connection']);
      if (!Number.isInteger(streams) || streams < 0) throw new Error(`invalid --http2-max-streams-per-connection ${values['http2-max-streams-per-connection']}`);
      const tls: TLSConfig = {
          certDir: resolve(values['cert-dir'] ?? join(dataDir, 'pki')),
          certFile: certFile && resolve(certFile),
          keyFile: keyFile && resolve(keyFile),
          clientCAFile: values['client-ca-file'] && resolve(values['client-ca-file']),
          sans: listOf(values['tls-san']),
          minVersion,
          ciphers: ciphers.ciphers,
          http2MaxStreams: streams,
      };
      serving = { tls };
    }
    const maxTokenMs = parseDuration(values['service-account-max-token-expiration']);
    if (maxTokenMs !== 0 && (maxTokenMs < 3_600_000 || maxTokenMs > 2 ** 32 * 1000)) {
      throw new Error('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    }
    const intFlag = (name: 'audit-log-maxsize' | 'audit-log-maxbackup' | 'audit-log-maxage'): number => {
      const v = Number(values[name]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} must be greater than or equal to 0`);
      return v;
    };
    if (values['audit-log-format'] !== 'json') throw new Error(`invalid audit log format ${values['audit-log-format']}, allowed formats are "json"`);
    const pathOrStdout = (p: string | undefined) => (p === undefined || p === '-' ? p : resolve(p));
    cfg = {
      serving,
      anonymousAuth: parseGoBool('anonymous-auth', values['anonymous-auth']),
      authorizationModes: values['authorization-mode'] ? parseAuthorizationModes(listOf(values['authorization-mode']).join(',')) : undefined,
      disabledAdmissionPlugins: disabledAdmissionPlugins(values['enable-admission-plugins'] ?? [], values['disable-admission-plugins'] ?? []),
      tokens: {
        tokenAuthFile: values['token-auth-file'] && resolve(values['token-auth-file']),
        serviceAccountIssuers: listOf(values['service-account-issuer']),
        serviceAccountSigningKeyFile: values['service-account-signing-key-file'] && resolve(values['service-account-signing-key-file']),
        serviceAccountKeyFiles: listOf(values['service-account-key-file']).map((f) => resolve(f)),
        apiAudiences: listOf(values['api-audiences']),
        maxTokenExpirationSeconds: Math.floor(maxTokenMs / 1000),
        serviceAccountJwksURI: values['service-account-jwks-uri'] || undefined,
      },
      audit: {
        policyFile: values['audit-policy-file'] && resolve(values['audit-policy-file']),
        logPath: pathOrStdout(values['audit-log-path']),
        maxSizeMB: intFlag('audit-log-maxsize'),
        maxBackups: intFlag('audit-log-maxbackup'),
        maxAgeDays: intFlag('audit-log-maxage'),
      },
      dataDir,
      bindAddress: values['bind-address'],
      securePort: port,
      balancerCheckPort: checkPort,
      storageBackend: backend,
      etcdServers,
      etcdPrefix: prefix.startsWith('/') ? prefix : `/${prefix}`,
      watchHistoryMs: parseDuration(values['watch-history']),
      eventTTLMs: parseDuration(values['event-ttl']),
      controllers: resolveControllers(values.controllers === undefined ? ['*'] : listOf(values.controllers)),
      scheduler: parseGoBool('scheduler', values.scheduler),
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
      serviceClusterIPRange: checkServiceRanges(values['service-cluster-ip-range']),
      serviceNodePortRange: checkPortRange(values['service-node-port-range']),
      nodeLifecycle: {
        monitorPeriodMs: parseDuration(values['node-monitor-period']),
        monitorGracePeriodMs: parseDuration(values['node-monitor-grace-period']),
        startupGracePeriodMs: parseDuration(values['node-startup-grace-period']),
      },
      nodeIPAM: { clusterCIDR: values['cluster-cidr'], nodeCIDRMaskSize: Number(values['node-cidr-mask-size']) },
    };
    const badIPAM = checkNodeIPAM(cfg.nodeIPAM!);
    if (badIPAM) throw new Error(badIPAM);
    if (cfg.nodeLifecycle!.monitorPeriodMs <= 0) throw new Error('--node-monitor-period must be positive');
    const simulated = values['simulate-nodes'] ?? (backend === 'level' ? '1' : '0');
    if (!/^[0-9]+$/.test(simulated)) throw new Error(`--simulate-nodes must be a whole number, got ${JSON.stringify(simulated)}`);
    if (Number(simulated) > 0) cfg.simulatedNodes = agentOptionsFrom(values, nodeNames(values['simulate-node-prefix'], Number(simulated)));
    // kube-apiserver's generated certificate also names the kubernetes Service's address.
    if ('tls' in cfg.serving) cfg.serving.tls.sans.push(firstServiceIP(cfg.serviceClusterIPRange));
  } catch (e) {
    fail((e as Error).message);
  }
  // The operating flags are checked here, for kube's messages and exit codes; the server's
  // thread applies them again (feature gates and metrics options are per-thread state).
  try {
    applyOperateFlags(values, pino({ level: 'silent' }));
  } catch (e) {
    if (!(e instanceof OperateFlagError)) throw e;
    if (e.usage) fail(e.message);
    // Kube's "command failed": the reason, no usage, exit 1.
    process.stderr.write(`Error: ${e.message}\n`);
    process.exit(1);
  }
  // The server runs in a worker thread with a deep stack: request data may nest 10,000
  // levels (Go's JSON limit, which kube admits), and every walker over it, JSON.stringify
  // among them, recurses. The main thread only forwards signals.
  const operateValues = Object.fromEntries(Object.keys(OPERATE_OPTIONS).map((k) => [k, values[k as keyof typeof OPERATE_OPTIONS]])) as OperateValues;
  const req: ServeRequest = { cfg, operateValues, verbose: Number(values.v) > 0, startedAt: Date.now() - (performance.now() - t0) };
  const worker = new Worker(new URL('./server/serve-worker.js', import.meta.url), { workerData: req, resourceLimits: { stackSizeMb: SERVER_STACK_MB } });
  let signalled = false;
  const shutdown = (sig: string) => {
    // A second signal does not wait (kube exits at once on it too).
    if (signalled) process.exit(1);
    signalled = true;
    worker.postMessage({ stop: sig });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  worker.on('error', (e) => {
    process.stderr.write(`kapi: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
  worker.on('exit', (code) => process.exit(code));
}

/** `kapi pki node-cert NAME`: a node agent's client certificate from the cluster CA. */
async function nodeCert(argv: string[]): Promise<void> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string', default: './data' },
        'cert-dir': { type: 'string' },
        kubeconfig: { type: 'string' },
        server: { type: 'string' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (positionals.length !== 1) fail('kapi pki node-cert takes one node name');
  if ((values.kubeconfig === undefined) !== (values.server === undefined)) fail('--kubeconfig and --server go together');
  const certDir = resolve(values['cert-dir'] ?? join(resolve(values['data-dir']), 'pki'));
  const made = await issueNodeCert(certDir, positionals[0]);
  process.stdout.write(`wrote ${made.certPath}\nwrote ${made.keyPath}\n`);
  if (values.kubeconfig !== undefined) {
    const path = await writeKubeconfig(resolve(values.kubeconfig), {
      server: values.server!,
      caCert: await readFile(join(certDir, 'ca.crt'), 'utf8'),
      clientCert: made.cert,
      clientKey: made.key,
      user: `system:node:${positionals[0]}`,
    });
    process.stdout.write(`wrote ${path}\n`);
  }
}

/** `kapi pki`: the PKI serve makes on its first start, made ahead of time (one CA for a cluster). */
async function pki(argv: string[]): Promise<void> {
  if (argv[0] === 'node-cert') return nodeCert(argv.slice(1));
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string', default: './data' },
        'cert-dir': { type: 'string' },
        'bind-address': { type: 'string', default: '127.0.0.1' },
        'tls-san': { type: 'string', multiple: true },
        'service-cluster-ip-range': { type: 'string', default: '10.96.0.0/12' },
        kubeconfig: { type: 'string' },
        server: { type: 'string' },
        user: { type: 'string' },
        group: { type: 'string', multiple: true },
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
  if ((values.kubeconfig === undefined) !== (values.server === undefined)) fail('--kubeconfig and --server go together');
  const certDir = resolve(values['cert-dir'] ?? join(resolve(values['data-dir']), 'pki'));
  let serviceIP: string;
  try {
    serviceIP = firstServiceIP(checkServiceRanges(values['service-cluster-ip-range']));
  } catch (e) {
    fail((e as Error).message);
  }
  // The names serve's generated certificate has, so serve finds it good as it is.
  const made = await ensurePKI({ certDir, hosts: servingHosts(values['bind-address'], [...listOf(values['tls-san']), serviceIP]) });
  for (const f of made.written) process.stdout.write(`wrote ${f}\n`);
  const sa = await loadServiceAccountKeys({ certDir, keyFiles: [] });
  for (const f of sa.written) process.stdout.write(`wrote ${f}\n`);
  if (values.kubeconfig !== undefined) {
    let client = made.admin;
    if (values.user !== undefined) {
      if (!made.caKey) fail(`${made.paths.caKey} is missing: cannot issue a certificate for ${values.user}`);
      client = await issueCert({ cert: made.caCert, key: made.caKey }, { commonName: values.user, organizations: listOf(values.group), usages: ['client'] });
    }
    const path = await writeKubeconfig(resolve(values.kubeconfig), {
      server: values.server!,
      caCert: made.caCert,
      clientCert: client?.cert,
      clientKey: client?.key,
      user: values.user ?? 'admin',
    });
    process.stdout.write(`wrote ${path}\n`);
  }
}

/** `kapi agent`: simulated nodes as their own process, against any server. */
async function agent(argv: string[]): Promise<void> {
  let flags;
  try {
    flags = parseAgentFlags(argv);
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n\n${AGENT_USAGE}`);
    process.exit(2);
  }
  if (flags === 'help') {
    process.stdout.write(AGENT_USAGE);
    return;
  }
  const log = pino({ name: 'kapi-agent', level: flags.verbosity > 0 ? 'debug' : 'info' });
  const { readKubeconfig } = await import('./client/kubeconfig.js');
  const { NodeAgent } = await import('./agent/agent.js');
  const { nodeCredentials } = await import('./server/node-credentials.js');
  const { readFile } = await import('node:fs/promises');
  const base = readKubeconfig(resolve(flags.kubeconfig));
  let ca: { cert: string; key: string } | undefined;
  if (flags.certDir) {
    const dir = resolve(flags.certDir);
    ca = { cert: await readFile(join(dir, 'ca.crt'), 'utf8'), key: await readFile(join(dir, 'ca.key'), 'utf8') };
  }
  const nodes = new NodeAgent(flags.options, nodeCredentials(base, ca, log), log);
  const shutdown = (sig: string) => {
    log.info({ signal: sig }, 'stopping the simulated nodes');
    nodes.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await nodes.start();
  log.info({ server: base.server, nodes: flags.options.nodeNames }, 'kapi agent ready');
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'serve') {
  void serve(rest);
} else if (cmd === 'pki') {
  pki(rest).catch((e: unknown) => {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(1);
  });
} else if (cmd === 'agent') {
  agent(rest).catch((e: unknown) => {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    process.exit(1);
  });
} else if (cmd === 'cluster') {
  // The launcher lives beside src/ (cluster/): it runs `kapi serve` processes, it is not one.
  void import('../cluster/cli.js').then((m) => m.clusterMain(rest));
} else {
  process.stdout.write(USAGE);
  process.exit(cmd === undefined || cmd === 'help' || cmd === '--help' ? 0 : 2);
}
