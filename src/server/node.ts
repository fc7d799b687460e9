// One kapi node: storage, the registry's caches and actors, controllers, and the HTTP
// server, started in that order and stopped in reverse.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Koa from 'koa';
import type { SecureVersion } from 'node:tls';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { openStorage } from '../storage/index.js';
import type { Storage } from '../storage/interface.js';
import { RegistryWatch } from '../cache/registry-watch.js';
import { GenericStore } from '../registry/generic/store.js';
import { RESOURCE_DEFS } from '../registry/all.js';
import type { ResourceDef } from '../registry/types.js';
import type { KObject } from '../machinery/object.js';
import { createApp } from './app.js';
import { resourceHandler } from '../api/resource-handler.js';
import { installDiscovery } from '../api/discovery.js';
import { installOpenAPI } from '../api/openapi.js';
import { failingReadyzChecks, healthPaths, installHealth, type HealthCheck } from './health.js';
import { BalancerCheck } from './balancer-check.js';
import { kubeHealthChecks } from './health-checks.js';
import { installIndex, restfulPaths } from './paths.js';
import { installMetrics, metricsMiddleware, observeInflight, recordRequestTermination, setStorageObjects } from './metrics.js';
import { GracefulShutdown } from './shutdown.js';
import { timeoutFilter } from './filters/timeout.js';
import { maxInflightFilter } from './filters/max-inflight.js';
import { defaultOperateConfig, type OperateConfig } from './operate-flags.js';
import { ComponentStatusREST, componentStatuses, httpsHealthzProbe, type ComponentProbe } from '../registry/core/componentstatuses/strategy.js';
import { instrumentStorage } from '../storage/instrumented.js';
import { transformingStorage } from '../storage/encryption/transforming-storage.js';
import { loadEncryptionConfig, noEncryption } from './encryption-config.js';
import { installStorageSizeMetrics, storageSizes } from './storage-metrics.js';
import { writeAdminKubeconfig, type KubeconfigSpec } from './kubeconfig.js';
import { Listener, type TLSServing } from './listener.js';
import { pkiOptions, type PKI } from '../auth/pki/files.js';
import { ensurePKIOffThread } from '../auth/pki/worker.js';
import { signedBy } from '../auth/pki/certs.js';
import { buildAuthenticator, SYSTEM_PRIVILEGED_GROUP, ALL_AUTHENTICATED, type Authenticator } from '../auth/authn/index.js';
import { AccessControl, DEFAULT_AUTHORIZATION_MODES, type AuthorizationMode } from '../auth/authz/access.js';
import { accessReviewDefs } from '../auth/authz/reviews.js';
import { ensureBootstrapPolicy } from '../auth/authz/rbac/bootstrap/reconcile.js';
import { authenticationFilter } from './filters/authentication.js';
import { authorizationFilter } from './filters/authorization.js';
import { loadTokenFile } from '../auth/authn/token-file.js';
import type { TokenAuthenticator } from '../auth/authn/bearer-token.js';
import { loadServiceAccountKeys, type VerifyKey } from '../auth/serviceaccount/keys.js';
import { discoveryProblem, JWKS_PATH, OPENID_CONFIG_PATH, renderOpenIDMetadata, type OpenIDMetadata } from '../auth/serviceaccount/openid-metadata.js';
import { installOpenIDMetadata } from './openid-metadata.js';
import { ServiceAccountTokenAuthenticator, type ObjectLookup } from '../auth/serviceaccount/authenticator.js';
import { tokenRequestAction } from '../auth/serviceaccount/token-request.js';
import { selfSubjectReviews, tokenReviews } from '../auth/reviews.js';
import { Auditor, loadPolicy, openAuditSink } from '../auth/audit/index.js';
import { auditFilter, auditInit, failedAuthenticationAudit } from './filters/audit.js';
import { impersonationFilter } from './filters/impersonation.js';
import { cacheControlDefault } from './filters/cache-control.js';
import { kubeControllerFactories } from '../controllers/kube-controllers.js';
import { ControllerManager, type ControllerFactory } from '../controllers/manager.js';
import { storeLeaseLock } from '../controllers/lease-lock.js';
import { electionIdentity, type ElectionTiming } from '../controllers/leader-election.js';
import { APIServerIdentity } from '../controllers/apiserver-identity.js';
import { KubernetesServiceController } from '../controllers/kubernetes-service.js';
import { EventTTLController } from '../controllers/event-ttl.js';
import { firstServiceIP } from '../registry/core/services/ranges.js';
import { Compactor } from '../storage/compactor.js';
import { Scheduler } from '../controllers/scheduler/scheduler.js';
import { NodeLifecycleController, DEFAULT_NODE_LIFECYCLE, type NodeLifecycleConfig } from '../controllers/nodes/lifecycle.js';
import { PodGCController, DEFAULT_POD_GC } from '../controllers/nodes/pod-gc.js';
import { NodeIPAMController, DEFAULT_NODE_IPAM, type NodeIPAMConfig } from '../controllers/nodes/ipam.js';
import { VolumeBinder } from '../controllers/volumes/binder.js';
import { SimulatedProvisioner } from '../controllers/volumes/provisioner.js';
import { NodeAgent } from '../agent/agent.js';
import { controllerEnabled } from '../controllers/framework/names.js';
import type { AgentOptions } from '../agent/options.js';
import { nodeCredentials } from './node-credentials.js';
import type { CertKey } from '../auth/pki/certs.js';

export interface NodeConfig {
  dataDir: string;
  bindAddress: string;
  securePort: number;
  /**
   * --balancer-check-port: the load balancer's health check on plain HTTP (balancer-check.ts);
   * 0 or unset: none.
   */
  balancerCheckPort?: number;
  storageBackend: 'level' | 'etcd3';
  etcdServers: string[];
  etcdPrefix: string;
  /** Watch history kept by the caches, ms (kube: 5 minutes). */
  watchHistoryMs: number;
  /** kube-controller-manager's --controllers, resolved (default `*`). */
  controllers?: string[];
  /** --scheduler: run the scheduler (default true). */
  scheduler?: boolean;
  /** --event-ttl, ms: how long an event lives after its last write; 0 keeps events. */
  eventTTLMs?: number;
  minRequestTimeoutSeconds: number;
  /** kube's --etcd-compaction-interval, ms; 0 disables. */
  compactionIntervalMs: number;
  storageSync: boolean;
  /** The operating flags (gates, API enablement, limits, shutdown, encryption); defaults when unset. */
  operate?: OperateConfig;
  /** --service-cluster-ip-range: one CIDR, or two (one per IP family). */
  serviceClusterIPRange: string;
  /** --service-node-port-range, e.g. 30000-32767. */
  serviceNodePortRange: string;
  /** How the node serves: TLS (the default), or plain HTTP with --insecure-plain-http. */
  serving: ServingConfig;
  /** --anonymous-auth */
  anonymousAuth: boolean;
  /** --authorization-mode, in order (default Node,RBAC). */
  authorizationModes?: AuthorizationMode[];
  /** --disable-admission-plugins */
  disabledAdmissionPlugins?: string[];
  /** Token sources: the token file and service accounts. */
  tokens?: TokenConfig;
  /** --audit-*: auditing is on with both a policy file and a log path. */
  audit?: AuditConfig;
  /** The node's name in logs and its identity lease (default `kapi-<port>`). */
  nodeName?: string;
  /** kube-controller-manager's --leader-elect* flags; undefined: controllers run here unelected. */
  leaderElection?: ElectionTiming & { resourceName: string; resourceNamespace: string };
  /** kube-apiserver's identity lease: duration (s) and renew interval (ms). */
  identityLease: { durationSeconds: number; renewIntervalMs: number };
  /** Deadline of one etcd call, ms (etcd3 backend). */
  etcdRequestTimeoutMs?: number;
  /**
   * --simulate-nodes: simulated nodes run in this process against this node's own API, with
   * these options (names and all); undefined or no names: none.
   */
  simulatedNodes?: AgentOptions;
  /** The node lifecycle controller's --node-monitor-* timing (kube's defaults when unset). */
  nodeLifecycle?: NodeLifecycleConfig;
  /** --cluster-cidr and --node-cidr-mask-size of the node IPAM controller. */
  nodeIPAM?: NodeIPAMConfig;
}

export interface TokenConfig {
  /** --token-auth-file */
  tokenAuthFile?: string;
  /** --service-account-signing-key-file (default: <cert-dir>/sa.key, made on the first start). */
  serviceAccountSigningKeyFile?: string;
  /** --service-account-key-file, repeatable (default: the signing key's public half). */
  serviceAccountKeyFiles: string[];
  /** --service-account-issuer, repeatable; the first signs. */
  serviceAccountIssuers: string[];
  /** --api-audiences (default: the issuers). */
  apiAudiences: string[];
  /** --service-account-max-token-expiration, seconds (0: none). */
  maxTokenExpirationSeconds: number;
  /** --service-account-jwks-uri (default: https://<the address served>/openid/v1/jwks). */
  serviceAccountJwksURI?: string;
}

export interface AuditConfig {
  policyFile?: string;
  logPath?: string;
  maxSizeMB: number;
  maxBackups: number;
  maxAgeDays: number;
}

/** kubeadm's issuer, used when no --service-account-issuer is given. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface TLSConfig {
  /** --cert-dir: where the generated CA, serving and admin certificates live. */
  certDir: string;
  /** --tls-cert-file and --tls-private-key-file: a serving certificate brought by the user. */
  certFile?: string;
  keyFile?: string;
  /** --client-ca-file: the CAs client certificates are checked against (default: the generated CA). */
  clientCAFile?: string;
  /** --tls-san: more names and addresses for the generated serving certificate. */
  sans: string[];
  minVersion: SecureVersion;
  ciphers?: string;
  /** --http2-max-streams-per-connection (0: Go's default, 250). */
  http2MaxStreams: number;
  /** The PKI, when the caller started making it already (the command line does, first thing). */
  pki?: Promise<PKI>;
}

export type ServingConfig = { tls: TLSConfig } | { plainHTTP: true };

/** What serving needs from the PKI: the TLS options and the admin's kubeconfig credentials. */
interface PreparedServing {
  tls?: TLSServing;
  kubeconfig: Omit<KubeconfigSpec, 'server'>;
  /** The cluster CA with its key, when kapi has it: simulated nodes get certificates from it. */
  ca?: CertKey;
}

/** The PEM blocks of a bundle. */
function pemBlocks(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/**
 * kube's removed insecure port served every request as this user; plain HTTP here does the
 * same, so a test or a debugging session without TLS can do everything.
 */
const unsecuredAuthenticator: Authenticator = {
  name: 'insecure-plain-http',
  authenticate: () => ({
    kind: 'user',
    user: { name: 'system:unsecured', uid: '', groups: [SYSTEM_PRIVILEGED_GROUP, ALL_AUTHENTICATED], extra: {} },
    by: 'insecure-plain-http',
  }),
};

/** Defaults for embedders and tests that build a NodeConfig by hand. */
export const DEFAULT_IDENTITY_LEASE = { durationSeconds: 3600, renewIntervalMs: 10_000 };

/**
 * Objects decoded for reading only (admission, namespace checks), kept per stored version and
 * dropped with it: every create in a namespace reads the namespace, which should not cost a
 * parse each time.
 */
const decodedForReading = new WeakMap<Buffer, KObject>();

function decodedOnce(bytes: Buffer): KObject {
  let obj = decodedForReading.get(bytes);
  if (!obj) decodedForReading.set(bytes, (obj = JSON.parse(bytes.toString('utf8')) as KObject));
  return obj;
}

/** The first usable address of the (primary) service range: the `kubernetes` Service's. */
let storageMetricsInstalled = false;

export class KapiNode {
  private storage?: Storage;
  private registryWatch?: RegistryWatch;
  private listener?: Listener;
  private balancerCheck?: BalancerCheck;
  private controllers?: ControllerManager;
  /** What every node runs for itself, elected or not (the stores' hooks, the kubernetes Service). */
  private background: { stop(): void }[] = [];
  private identity?: APIServerIdentity;
  private compactor?: Compactor;
  private access?: AccessControl;
  private auditor?: Auditor;
  /** What service account issuer discovery serves, when the issuer allows it. */
  private openIDMetadata?: { issuer: string; jwksURI?: string; keys: VerifyKey[] };
  private agent?: NodeAgent;
  nodeName = '';
  readonly stores = new Map<string, GenericStore>();
  /**
   * Every served type: the registry's, with the server's own parts attached (token issuing),
   * and the ones the server answers itself (token and access reviews).
   */
  private defs: ResourceDef[] = RESOURCE_DEFS;
  url = '';
  kubeconfigPath = '';

  constructor(
    readonly cfg: NodeConfig,
    private readonly log: Logger,
  ) {
    this.nodeName = cfg.nodeName || (cfg.securePort > 0 ? `kapi-${cfg.securePort}` : '');
    if (this.nodeName) log.setBindings({ node: this.nodeName });
    this.operate = cfg.operate ?? defaultOperateConfig();
    this.servedDefs = this.enabledDefs();
    this.componentStatus = new ComponentStatusREST(() => this.componentProbes());
    this.shutdownSequence = new GracefulShutdown({
      delayMs: this.operate.shutdownDelayMs,
      sendRetryAfter: this.operate.shutdownSendRetryAfter,
      watchGraceMs: this.operate.shutdownWatchTerminationGraceMs,
      drainLimitMs: this.operate.requestTimeoutMs + 5_000,
      log,
    });
  }

  readonly operate: OperateConfig;
  /** The types served over HTTP: every type, less those --runtime-config turns off. */
  /** The defs --runtime-config leaves on (the review types and token action join at start). */
  servedDefs: ResourceDef[];

  /** kube registers the rbac/bootstrap-roles post-start hook with the RBAC authorizer. */
  private get rbacEnabled(): boolean {
    return (this.cfg.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES).includes('RBAC');
  }

  /** go-restful web services outside /api and /apis: service account issuer discovery, when served. */
  private restfulServices(): string[] {
    return this.openIDMetadata ? [OPENID_CONFIG_PATH, JWKS_PATH] : [];
  }

  private enabledDefs(): ResourceDef[] {
    return [...this.defs, componentStatuses].filter((d) => this.operate.enablement.resourceEnabled(d.group, d.version, d.resource));
  }
  private readonly shutdownSequence: GracefulShutdown;
  private readonly componentStatus: ComponentStatusREST;
  /** When start() began; --livez-grace-period counts from it. */
  private startedAt = 0;
  /** kube's post-start hooks that kapi has: its bootstrap objects and its controllers. */
  private readonly hooksDone = new Set<string>();

  /**
   * What ComponentStatus lists: the controller manager (this process runs the controllers),
   * the scheduler where kube looks for it, and the store (each etcd server, or LevelDB).
   */
  private componentProbes(): ComponentProbe[] {
    const probes: ComponentProbe[] = [
      { name: 'controller-manager', probe: async () => {} },
      httpsHealthzProbe('scheduler', 10259),
    ];
    if (this.cfg.storageBackend === 'etcd3') {
      this.cfg.etcdServers.forEach((server, i) =>
        probes.push({
          name: `etcd-${i}`,
          probe: async () => {
            const res = await fetch(`${server.replace(/\/+$/, '')}/health`, { signal: AbortSignal.timeout(20_000) });
            const body = (await res.json()) as { health?: string };
            if (body.health !== 'true') throw new Error(JSON.stringify(body));
          },
        }),
      );
    } else {
      const storage = this.storage;
      probes.push({
        name: 'leveldb',
        probe: async () => {
          if (!(await storage?.check())) throw new Error('the embedded store is not open');
        },
      });
    }
    return probes;
  }

  /** The controller manager (leader election state, for tests and health). */
  get controllerManager(): ControllerManager | undefined {
    return this.controllers;
  }

  private storeFor(group: string, resource: string): GenericStore | undefined {
    return this.stores.get(`${group}/${resource}`);
  }

  /**
   * Reads or makes the certificates (first start: CA, serving and admin certificates under
   * --cert-dir) and settles what the admin kubeconfig carries.
   */
  private async prepareServing(): Promise<PreparedServing> {
    const serving = this.cfg.serving;
    if (!('tls' in serving)) return { kubeconfig: {} };
    const t = serving.tls;
    const brought = t.certFile !== undefined && t.keyFile !== undefined;
    const pki = await (t.pki ?? ensurePKIOffThread(pkiOptions(this.cfg.bindAddress, t)));
    const cert = brought ? await readFile(t.certFile!, 'utf8') : pki.serving.cert;
    const key = brought ? await readFile(t.keyFile!, 'utf8') : pki.serving.key;
    const clientCA = t.clientCAFile ? await readFile(t.clientCAFile, 'utf8') : pki.caCert;
    if (pki.written.length > 0) this.log.info({ files: pki.written }, 'wrote certificates');
    // The kubeconfig trusts the CA that signed the serving certificate when kapi knows it (the
    // generated one, or one of the client CAs, as when a cluster's nodes share `kapi pki`'s
    // CA), and otherwise the top of the brought chain (Go trusts a pinned certificate).
    const chain = pemBlocks(cert);
    const top = chain[chain.length - 1] ?? '';
    const caCert = [pki.caCert, ...pemBlocks(clientCA).map((c) => c + '\n')].find((c) => signedBy(top, c)) ?? top + '\n';
    const admin = pki.admin && pemBlocks(clientCA).some((ca) => signedBy(pki.admin!.cert, ca)) ? pki.admin : undefined;
    if (!admin) this.log.warn({ clientCAFile: t.clientCAFile }, 'the admin kubeconfig has no client certificate: the client CA did not sign it');
    return {
      tls: { cert, key, clientCA, minVersion: t.minVersion, ciphers: t.ciphers, http2MaxStreams: t.http2MaxStreams || 250 },
      kubeconfig: { caCert, clientCert: admin?.cert, clientKey: admin?.key },
      ca: pki.caKey && pemBlocks(clientCA).some((c) => c.trim() === pki.caCert.trim()) ? { cert: pki.caCert, key: pki.caKey } : undefined,
    };
  }

  /** Reads an object as kube's service account getter does: the cache, then the store. */
  private readonly lookup: ObjectLookup = {
    get: async (group, resource, namespace, name) => {
      const st = this.storeFor(group, resource);
      if (!st) return undefined;
      const hit = st.cache.get(st.keyFor(namespace, name));
      if (hit) return decodedOnce(hit.bytes);
      try {
        return await st.getObject(namespace, name);
      } catch {
        return undefined;
      }
    },
  };

  /** The token sources in kube's order (token file, service account tokens) and the token issuer. */
  private async prepareTokens(): Promise<{ tokens: TokenAuthenticator[]; defs: ResourceDef[] }> {
    const t = this.cfg.tokens ?? { serviceAccountKeyFiles: [], serviceAccountIssuers: [], apiAudiences: [], maxTokenExpirationSeconds: 0 };
    const tokens: TokenAuthenticator[] = [];
    if (t.tokenAuthFile) tokens.push(await loadTokenFile(t.tokenAuthFile));
    const certDir = 'tls' in this.cfg.serving ? this.cfg.serving.tls.certDir : join(this.cfg.dataDir, 'pki');
    const keys = await loadServiceAccountKeys({ signingKeyFile: t.serviceAccountSigningKeyFile, keyFiles: t.serviceAccountKeyFiles, certDir });
    if (keys.written.length > 0) this.log.info({ files: keys.written }, 'wrote the service account key pair');
    const issuers = t.serviceAccountIssuers.length > 0 ? t.serviceAccountIssuers : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
    const apiAudiences = t.apiAudiences.length > 0 ? t.apiAudiences : issuers;
    tokens.push(new ServiceAccountTokenAuthenticator({ issuers, keys: keys.verify, apiAudiences, lookup: this.lookup }));
    const token = tokenRequestAction({
      signing: keys.signing,
      issuer: issuers[0],
      apiAudiences,
      maxExpirationSeconds: t.maxTokenExpirationSeconds,
      lookup: this.lookup,
    });
    const defs = RESOURCE_DEFS.map((d) => (d.group === '' && d.resource === 'serviceaccounts' ? { ...d, actions: { ...d.actions, token } } : d));
    defs.push(tokenReviews(() => tokens, apiAudiences), selfSubjectReviews());
    const problem = discoveryProblem(issuers[0], t.serviceAccountJwksURI);
    if (problem) this.log.warn({ reason: problem }, 'service account issuer discovery is not served');
    else this.openIDMetadata = { issuer: issuers[0], jwksURI: t.serviceAccountJwksURI, keys: keys.verify };
    return { tokens, defs };
  }

  async start(): Promise<void> {
    this.startedAt = Date.now();
    const cfg = this.cfg;
    // Certificates are read or made while the store opens.
    const servingReady = this.prepareServing();
    servingReady.catch(() => undefined);
    const { tokens, defs } = await this.prepareTokens();
    this.defs = defs;
    if (cfg.audit?.policyFile && cfg.audit.logPath) {
      const policy = await loadPolicy(cfg.audit.policyFile);
      this.auditor = new Auditor(policy, openAuditSink({ path: cfg.audit.logPath, maxSizeMB: cfg.audit.maxSizeMB, maxBackups: cfg.audit.maxBackups, maxAgeDays: cfg.audit.maxAgeDays }));
    }
    // Encryption at rest: read and checked before the store opens, as kube refuses to start
    // with a bad config.
    const transformers = this.operate.encryptionProviderConfig ? await loadEncryptionConfig(this.operate.encryptionProviderConfig) : noEncryption;
    this.storage = transformingStorage(
      instrumentStorage(
        await openStorage({
          backend: cfg.storageBackend,
          dataDir: cfg.dataDir,
          etcdServers: cfg.etcdServers,
          sync: cfg.storageSync,
          requestTimeoutMs: cfg.etcdRequestTimeoutMs,
        }),
        cfg.etcdPrefix,
      ),
      cfg.etcdPrefix,
      transformers,
    );
    if (!storageMetricsInstalled) {
      // Metrics are process-wide: one node per process reports its store.
      storageMetricsInstalled = true;
      installStorageSizeMetrics(storageSizes(cfg.storageBackend, cfg.dataDir, cfg.etcdServers), cfg.storageBackend === 'etcd3' ? 'etcd-0' : 'leveldb');
    }
    const storage = this.storage;
    this.registryWatch = new RegistryWatch(storage, `${cfg.etcdPrefix}/`, this.log);
    const deps = {
      storage,
      registryWatch: this.registryWatch,
      storagePrefix: cfg.etcdPrefix,
      log: this.log,
      historyMs: cfg.watchHistoryMs,
      namespaceOf: async (name: string): Promise<KObject | undefined> => {
        const ns = this.storeFor('', 'namespaces')!;
        const hit = ns.cache.get(ns.keyFor('', name));
        if (hit) return decodedOnce(hit.bytes);
        // Not in this node's cache: it may have just been created elsewhere.
        try {
          return await ns.getObject('', name);
        } catch {
          return undefined;
        }
      },
      // Admission reads the cache as kube's admission plugins read their informers: no
      // store round trip, and each stored version decoded once.
      admissionList: (group: string, resource: string, namespace?: string): KObject[] => {
        const st = this.storeFor(group, resource);
        if (!st) return [];
        return st.cache.list(namespace === undefined ? st.prefix : st.listPrefix(namespace)).map((e) => decodedOnce(e.bytes));
      },
      storeFor: (group: string, resource: string) => this.storeFor(group, resource),
      options: { serviceClusterIPRange: cfg.serviceClusterIPRange, serviceNodePortRange: cfg.serviceNodePortRange, disabledAdmissionPlugins: cfg.disabledAdmissionPlugins },
    };
    for (const def of this.defs) this.stores.set(`${def.group}/${def.resource}`, new GenericStore(def, deps));
    const modes = cfg.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES;
    const access = new AccessControl(modes, { store: (g, r) => this.storeFor(g, r) });
    this.access = access;
    const reviews = accessReviewDefs(access);
    for (const def of reviews) this.stores.set(`${def.group}/${def.resource}`, new GenericStore(def, deps));
    this.defs = [...this.defs, ...reviews];
    this.servedDefs = this.enabledDefs();
    await this.registryWatch.start();
    access.start();
    await this.bootstrap();
    // kube-apiserver's rbac/bootstrap-roles post-start hook, before the server takes requests.
    await ensureBootstrapPolicy(access.rbacStores, this.log);
    if (this.rbacEnabled) this.hooksDone.add('poststarthook/rbac/bootstrap-roles');
    this.hooksDone.add('poststarthook/bootstrap-controller');
    this.hooksDone.add('poststarthook/scheduling/bootstrap-system-priority-classes');
    // The stores' own background work (the service allocators' repair), once they are loaded.
    for (const s of this.stores.values()) s.startHooks();
    this.background.push({ stop: () => this.stores.forEach((s) => s.stopHooks()) });

    if (cfg.compactionIntervalMs > 0) {
      this.compactor = new Compactor(storage, cfg.compactionIntervalMs, this.log);
      this.compactor.start();
    }

    const prepared = await servingReady;
    // kube turns anonymous requests off when AlwaysAllow is among the modes (ApplyAuthorization).
    let anonymous = cfg.anonymousAuth;
    if (anonymous && modes.includes('AlwaysAllow')) {
      this.log.warn('AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
      anonymous = false;
    }
    const authenticator = prepared.tls
      ? buildAuthenticator({ clientCertificates: true, anonymous, tokenAuthenticators: tokens })
      : unsecuredAuthenticator;
    const auditor = this.auditor;
    // kube's chain: authentication (failures audited), audit, impersonation, the in-flight
    // limits (they share slots by user), authorization; impersonation asks the same
    // authorizers (RBAC, Node) for the `impersonate` verb.
    const filters: Koa.Middleware[] = [];
    if (auditor) filters.push(failedAuthenticationAudit(auditor));
    filters.push(authenticationFilter(authenticator, this.log));
    if (auditor) filters.push(auditFilter(auditor));
    filters.push(impersonationFilter(access.authorizer));
    filters.push(
      maxInflightFilter({
        maxRequestsInflight: this.operate.maxRequestsInflight,
        maxMutatingRequestsInflight: this.operate.maxMutatingRequestsInflight,
        requestTimeoutMs: this.operate.requestTimeoutMs,
        observe: observeInflight,
        onDrop: (ctx) => recordRequestTermination(ctx, 429),
      }),
    );
    filters.push(authorizationFilter(access.authorizer, { audit: auditor !== undefined }));
    const app = createApp({
      log: this.log,
      routes: (router: Router) => {
        installDiscovery(router, () => this.servedDefs);
        installOpenAPI(router, () => this.servedDefs);
        const checks = this.healthChecks();
        installHealth(router, checks, { livezGracePeriodMs: this.operate.livezGracePeriodMs, startedAt: this.startedAt });
        installMetrics(router);
        installIndex(router, () => this.servedDefs, () => healthPaths(checks), this.restfulServices());
        const oidc = this.openIDMetadata;
        if (oidc) {
          let rendered: OpenIDMetadata | undefined;
          // Rendered on first use: the default JWKS URI names the port, known once listening.
          installOpenIDMetadata(router, () => (rendered ??= renderOpenIDMetadata(oidc.issuer, oidc.jwksURI ?? `https://${new URL(this.url).host}${JWKS_PATH}`, oidc.keys)));
        }
      },
      restfulPath: restfulPaths(() => this.servedDefs, this.restfulServices()),
      observe: [
        metricsMiddleware(),
        this.shutdownSequence.filter(),
        timeoutFilter({ requestTimeoutMs: this.operate.requestTimeoutMs, onTimeout: (ctx) => recordRequestTermination(ctx, 504) }),
      ],
      init: [auditInit(auditor !== undefined), cacheControlDefault()],
      filters,
      resources: resourceHandler(
        {
          find: (g, v, r) => this.findStore(g, v, r),
          findReadOnly: (g, v, r) => {
            const d = this.componentStatus.def;
            return d.group === g && d.version === v && d.resource === r && this.servedDefs.includes(d) ? this.componentStatus : undefined;
          },
          servesGroup: (g) => this.servedDefs.some((d) => d.group === g),
          servesGroupVersion: (g, v) => this.servedDefs.some((d) => d.group === g && d.version === v),
        },
        { minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds, bookmarkIntervalMs: 60_000 },
        access,
      ),
    });
    const callback = app.callback();
    this.listener = new Listener(callback, prepared.tls);
    (await import('../api/watch-websocket.js')).serveUpgrades(this.listener.http1, callback);
    const addr = await this.listener.listen(cfg.securePort, cfg.bindAddress);
    const unspecified = addr.address === '0.0.0.0' || addr.address === '::';
    const host = unspecified ? '127.0.0.1' : addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.url = `${this.listener.scheme}://${host}:${addr.port}`;
    if (cfg.balancerCheckPort) {
      const readiness = this.healthChecks();
      this.balancerCheck = new BalancerCheck({
        shuttingDown: () => this.shutdownSequence.phase !== 'running',
        readinessFailures: () => failingReadyzChecks(readiness, [this.shutdownSequence.readyzCheck.name]),
      });
      await this.balancerCheck.listen(cfg.balancerCheckPort, cfg.bindAddress);
    }
    this.kubeconfigPath = await writeAdminKubeconfig(cfg.dataDir, { server: this.url, ...prepared.kubeconfig });
    if (!this.nodeName) {
      this.nodeName = `kapi-${addr.port}`;
      this.log.setBindings({ node: this.nodeName });
    }
    // Every apiserver keeps the kubernetes Service pointing at the port it really listens on,
    // as kube-apiserver's own reconciler does on every node (not a leader-elected controller).
    const kubernetesService = new KubernetesServiceController(this.storeFor('', 'services')!, addr.port, firstServiceIP(cfg.serviceClusterIPRange), this.log);
    await kubernetesService.start();
    this.background.push(kubernetesService);
    this.startControllers();
    this.hooksDone.add('poststarthook/start-system-namespaces-controller');
    this.refreshObjectCounts();
    // The nodes register after the server is ready, as kubelets do: they do not hold its start up.
    if (cfg.simulatedNodes && cfg.simulatedNodes.nodeNames.length > 0) {
      this.startAgent(cfg.simulatedNodes, prepared).catch((e: unknown) => this.log.error({ err: e }, 'the simulated nodes failed to start'));
    }
  }

  /** The in-process node agent: simulated kubelets talking to this node over its own listener. */
  private async startAgent(options: AgentOptions, prepared: PreparedServing): Promise<void> {
    const k = prepared.kubeconfig;
    const base = { server: this.url, caCert: k.caCert, clientCert: k.clientCert, clientKey: k.clientKey };
    this.agent = new NodeAgent(options, nodeCredentials(base, prepared.ca, this.log), this.log.child({ component: 'agent' }));
    await this.agent.start();
  }

  /** The controllers kube-controller-manager would run (by --controllers), and the event expiry. */
  private controllerFactories(): ControllerFactory[] {
    return [
      ...kubeControllerFactories(
        { storeFor: (g, r) => this.storeFor(g, r), stores: () => [...this.stores.values()], log: this.log },
        this.cfg.controllers ?? ['*'],
      ),
      ...this.simulationControllers(),
      ...(this.cfg.eventTTLMs === 0
        ? []
        : [{ name: 'event-ttl', create: () => new EventTTLController(this.storeFor('', 'events')!, this.cfg.eventTTLMs ?? 3_600_000, this.log) }]),
    ];
  }

  /**
   * What makes pods run on (simulated) nodes, elected like the other controllers: kube-scheduler,
   * and kube-controller-manager's node-lifecycle, node-ipam, pod-garbage-collector and
   * persistentvolume-binder controllers (as --controllers selects them), with kapi's volume
   * provisioner beside the binder; the scheduler unless --scheduler=false. With no Node objects at
   * all they change nothing (no pod is marked unschedulable), so a server without nodes keeps
   * its pods as a plain apiserver would.
   */
  private simulationControllers(): ControllerFactory[] {
    const st = (g: string, r: string): GenericStore => this.storeFor(g, r)!;
    const events = st('', 'events');
    const chosen = this.cfg.controllers ?? ['*'];
    const all: ControllerFactory[] = [
      {
        name: 'scheduler',
        create: (ctx) =>
          new Scheduler(
            { pods: st('', 'pods'), nodes: st('', 'nodes'), claims: st('', 'persistentvolumeclaims'), volumes: st('', 'persistentvolumes'), classes: st('storage.k8s.io', 'storageclasses'), events: st('events.k8s.io', 'events') },
            ctx,
            this.nodeName,
          ),
      },
      {
        name: 'node-lifecycle-controller',
        create: (ctx) => new NodeLifecycleController({ nodes: st('', 'nodes'), leases: st('coordination.k8s.io', 'leases'), pods: st('', 'pods'), events }, ctx, this.cfg.nodeLifecycle ?? DEFAULT_NODE_LIFECYCLE),
      },
      { name: 'node-ipam-controller', create: (ctx) => new NodeIPAMController(st('', 'nodes'), events, ctx, this.cfg.nodeIPAM ?? DEFAULT_NODE_IPAM) },
      { name: 'pod-garbage-collector-controller', create: (ctx) => new PodGCController(st('', 'pods'), st('', 'nodes'), ctx, DEFAULT_POD_GC) },
      {
        name: 'persistentvolume-binder-controller',
        create: (ctx) => new VolumeBinder({ claims: st('', 'persistentvolumeclaims'), volumes: st('', 'persistentvolumes'), classes: st('storage.k8s.io', 'storageclasses'), pods: st('', 'pods'), events }, ctx),
      },
      {
        name: 'simulated-volume-provisioner',
        create: (ctx) => new SimulatedProvisioner({ claims: st('', 'persistentvolumeclaims'), volumes: st('', 'persistentvolumes'), classes: st('storage.k8s.io', 'storageclasses'), events }, ctx, this.nodeName),
      },
    ];
    // kube-controller-manager's by --controllers; the provisioner goes with the volume binder.
    const enabled = (name: string): boolean => {
      if (name === 'scheduler') return this.cfg.scheduler !== false;
      if (name === 'simulated-volume-provisioner') return controllerEnabled('persistentvolume-binder-controller', chosen);
      return controllerEnabled(name, chosen);
    };
    return all.filter((f) => enabled(f.name));
  }

  private startControllers(): void {
    const le = this.cfg.leaderElection;
    const leases = this.storeFor('coordination.k8s.io', 'leases')!;
    this.controllers = new ControllerManager(
      this.controllerFactories(),
      this.log,
      le && {
        ...le,
        lock: storeLeaseLock(leases, le.resourceNamespace, le.resourceName, 'kube-controller-manager'),
        identity: electionIdentity(this.nodeName),
        // The embedded store is locked by this one process: no other node can hold the lease.
        exclusive: this.cfg.storageBackend === 'level',
      },
      { storeFor: (g, r) => this.storeFor(g, r) },
    );
    this.controllers.start();
    this.identity = new APIServerIdentity(leases, { nodeName: this.nodeName, ...this.cfg.identityLease, log: this.log });
    this.identity.start();
  }

  private findStore(group: string, version: string, resource: string): GenericStore | undefined {
    const s = this.storeFor(group, resource);
    return s && s.def.version === version && this.servedDefs.includes(s.def) ? s : undefined;
  }

  private refreshObjectCounts(): void {
    const t = setInterval(() => {
      for (const s of this.stores.values()) {
        setStorageObjects(s.def.group ? `${s.def.resource}.${s.def.group}` : s.def.resource, s.cache.size);
      }
    }, 10_000);
    t.unref();
  }

  /** The post-start hooks kapi really runs (the others of kube's list pass once started). */
  private static readonly TRACKED_HOOKS = [
    'poststarthook/start-system-namespaces-controller',
    'poststarthook/rbac/bootstrap-roles',
    'poststarthook/scheduling/bootstrap-system-priority-classes',
    'poststarthook/bootstrap-controller',
  ];

  private healthChecks(): HealthCheck[] {
    const storage = this.storage!;
    const etcd = this.cfg.storageBackend === 'etcd3';
    return kubeHealthChecks({
      storage: async () => {
        if (!(await storage.check())) throw new Error(etcd ? 'etcd cluster has no quorum or is unreachable' : 'storage is not reachable');
      },
      // The embedded store is part of this process: when it fails, the process is broken. kube
      // also lists `etcd` under /livez, where an etcd outage makes every apiserver look dead;
      // with etcd, liveness is the process's own and an outage only takes the node out of rotation.
      storageInLivez: !etcd,
      informersSynced: async () => {
        await this.registryWatch!.ready;
      },
      hookFinished: (name) => !KapiNode.TRACKED_HOOKS.includes(name) || this.hooksDone.has(name),
      shutdown: this.shutdownSequence.readyzCheck,
      rbac: this.rbacEnabled,
    });
  }

  /** Objects the server has from its first start. */
  private async bootstrap(): Promise<void> {
    // A store without the default namespace has never been started: the once-only objects go in.
    const ns = this.storeFor('', 'namespaces')!;
    const fresh = !ns.cache.get(ns.keyFor('', 'default'));
    const order: ResourceDef[] = RESOURCE_DEFS.filter((d) => d.bootstrap);
    for (const def of order) {
      const store = this.storeFor(def.group, def.resource)!;
      for (const obj of def.bootstrap!) await store.ensure(obj);
    }
    if (!fresh) return;
    for (const def of RESOURCE_DEFS.filter((d) => d.bootstrapOnce)) {
      const store = this.storeFor(def.group, def.resource)!;
      for (const obj of def.bootstrapOnce!) await store.ensure(obj);
    }
  }

  /**
   * SIGTERM: the graceful sequence (shutdown.ts), then everything behind the server stops
   * and the store is flushed and closed.
   */
  async shutdown(): Promise<void> {
    const listener = this.listener;
    if (listener) {
      await this.shutdownSequence.run({
        stopListening: () => listener.stopAccepting(),
        pendingConnections: () => listener.pendingConnections(),
        watchCount: () => [...this.stores.values()].reduce((n, s) => n + s.cache.watchCount, 0),
        endWatches: () => {
          for (const s of this.stores.values()) s.cache.terminateWatchers();
        },
        closeConnections: () => void listener.close(),
      });
    }
    await this.stop();
  }

  async stop(): Promise<void> {
    await this.agent?.stop();
    // The controller lease is handed back while the store still answers.
    await this.controllers?.stop();
    for (const b of this.background) b.stop();
    this.identity?.stop();
    this.access?.stop();
    this.compactor?.stop();
    await this.listener?.close();
    this.registryWatch?.close();
    await this.storage?.close();
    this.auditor?.close();
    // Last: until here the balancer drains this node rather than cutting its sessions.
    await this.balancerCheck?.close();
  }
}
