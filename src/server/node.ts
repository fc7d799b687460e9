// One kapi node: storage, the registry's caches and actors, controllers, and the HTTP
// server, started in that order and stopped in reverse.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { installHealth, type HealthCheck } from './health.js';
import { installMetrics, metricsMiddleware, observeInflight, recordRequestTermination, setStorageObjects } from './metrics.js';
import { GracefulShutdown } from './shutdown.js';
import { timeoutFilter } from './filters/timeout.js';
import { maxInflightFilter } from './filters/max-inflight.js';
import { writeAdminKubeconfig } from './kubeconfig.js';
import { NamespaceLifecycleController } from '../controllers/namespace-lifecycle.js';
import { Compactor } from '../storage/compactor.js';
import { instrumentStorage } from '../storage/instrumented.js';
import { transformingStorage } from '../storage/encryption/transforming-storage.js';
import { loadEncryptionConfig, noEncryption } from './encryption-config.js';
import { installStorageSizeMetrics, storageSizes } from './storage-metrics.js';
import { defaultOperateConfig, type OperateConfig } from './operate-flags.js';
import { ComponentStatusREST, componentStatuses, httpsHealthzProbe, type ComponentProbe } from '../registry/core/componentstatuses/strategy.js';

export interface NodeConfig {
  dataDir: string;
  bindAddress: string;
  securePort: number;
  storageBackend: 'level' | 'etcd3';
  etcdServers: string[];
  etcdPrefix: string;
  /** Watch history kept by the caches, ms (kube: 5 minutes). */
  watchHistoryMs: number;
  minRequestTimeoutSeconds: number;
  /** kube's --etcd-compaction-interval, ms; 0 disables. */
  compactionIntervalMs: number;
  storageSync: boolean;
  /** The operating flags (gates, API enablement, limits, shutdown, encryption); defaults when unset. */
  operate?: OperateConfig;
}

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

let storageMetricsInstalled = false;

export class KapiNode {
  private storage?: Storage;
  private registryWatch?: RegistryWatch;
  private server?: Server;
  private controllers: { stop(): void }[] = [];
  private compactor?: Compactor;
  readonly stores = new Map<string, GenericStore>();
  url = '';
  kubeconfigPath = '';
  readonly operate: OperateConfig;
  /** The types served over HTTP: every type, less those --runtime-config turns off. */
  readonly servedDefs: ResourceDef[];

  constructor(
    readonly cfg: NodeConfig,
    private readonly log: Logger,
  ) {
    this.operate = cfg.operate ?? defaultOperateConfig();
    this.servedDefs = [...RESOURCE_DEFS, componentStatuses].filter((d) => this.operate.enablement.resourceEnabled(d.group, d.version, d.resource));
    this.componentStatus = new ComponentStatusREST(() => this.componentProbes());
    this.shutdownSequence = new GracefulShutdown({
      delayMs: this.operate.shutdownDelayMs,
      sendRetryAfter: this.operate.shutdownSendRetryAfter,
      watchGraceMs: this.operate.shutdownWatchTerminationGraceMs,
      drainLimitMs: this.operate.requestTimeoutMs + 5_000,
      log,
    });
  }

  private readonly shutdownSequence: GracefulShutdown;

  private readonly componentStatus: ComponentStatusREST;

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

  private storeFor(group: string, resource: string): GenericStore | undefined {
    return this.stores.get(`${group}/${resource}`);
  }

  /** When start() began; --livez-grace-period counts from it. */
  private startedAt = 0;
  /** kube's post-start hooks that kapi has: its bootstrap objects and its controllers. */
  private readonly hooksDone = new Set<string>();

  async start(): Promise<void> {
    this.startedAt = Date.now();
    const cfg = this.cfg;
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
      admissionList: async (group: string, resource: string): Promise<KObject[]> => {
        const st = this.storeFor(group, resource);
        if (!st) return [];
        return st.cache.list(st.prefix).map((e) => decodedOnce(e.bytes));
      },
    };
    for (const def of RESOURCE_DEFS) this.stores.set(`${def.group}/${def.resource}`, new GenericStore(def, deps));
    await this.registryWatch.start();
    await this.bootstrap();
    this.hooksDone.add('poststarthook/bootstrap-controller');
    this.hooksDone.add('poststarthook/scheduling/bootstrap-system-priority-classes');

    const nsController = new NamespaceLifecycleController(
      this.storeFor('', 'namespaces')!,
      () => [...this.stores.values()].filter((s) => s.def.namespaced),
      this.log,
    );
    nsController.start();
    this.controllers.push(nsController);
    this.hooksDone.add('poststarthook/start-system-namespaces-controller');
    if (cfg.compactionIntervalMs > 0) {
      this.compactor = new Compactor(storage, cfg.compactionIntervalMs, this.log);
      this.compactor.start();
    }

    const app = createApp({
      log: this.log,
      routes: (router: Router) => {
        installDiscovery(router, () => this.servedDefs);
        installOpenAPI(router, () => this.servedDefs);
        installHealth(router, this.healthChecks(), { livezGracePeriodMs: this.operate.livezGracePeriodMs, startedAt: this.startedAt });
        installMetrics(router);
      },
      observe: [
        metricsMiddleware(),
        this.shutdownSequence.filter(),
        timeoutFilter({ requestTimeoutMs: this.operate.requestTimeoutMs, onTimeout: (ctx) => recordRequestTermination(ctx, 504) }),
        maxInflightFilter({
          maxRequestsInflight: this.operate.maxRequestsInflight,
          maxMutatingRequestsInflight: this.operate.maxMutatingRequestsInflight,
          requestTimeoutMs: this.operate.requestTimeoutMs,
          observe: observeInflight,
          onDrop: (ctx) => recordRequestTermination(ctx, 429),
        }),
      ],
      resources: resourceHandler(
        {
          find: (g, v, r) => this.findStore(g, v, r),
          findReadOnly: (g, v, r) => {
            const d = this.componentStatus.def;
            return d.group === g && d.version === v && d.resource === r && this.servedDefs.includes(d) ? this.componentStatus : undefined;
          },
        },
        { minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds, bookmarkIntervalMs: 60_000 },
      ),
    });
    this.server = createServer(app.callback());
    (await import('../api/watch-websocket.js')).serveUpgrades(this.server, app.callback());
    // Watches are long-lived; Node's default request timeout would cut them.
    this.server.requestTimeout = 0;
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(cfg.securePort, cfg.bindAddress, () => resolve());
    });
    const addr = this.server.address() as AddressInfo;
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}`;
    this.kubeconfigPath = await writeAdminKubeconfig(cfg.dataDir, this.url);
    this.refreshObjectCounts();
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

  private healthChecks(): HealthCheck[] {
    const storage = this.storage!;
    const name = this.cfg.storageBackend === 'etcd3' ? 'etcd' : 'storage';
    return [
      {
        name,
        livez: true,
        readyz: true,
        run: async () => {
          if (!(await storage.check())) throw new Error(`${name} is not reachable`);
        },
      },
      {
        name: 'informer-sync',
        livez: false,
        readyz: true,
        run: async () => {
          await this.registryWatch!.ready;
        },
      },
      // kube's post-start hooks that kapi has: done before it listens (--livez-grace-period
      // covers a hook still running for /livez).
      ...['poststarthook/start-system-namespaces-controller', 'poststarthook/scheduling/bootstrap-system-priority-classes', 'poststarthook/bootstrap-controller'].map(
        (name): HealthCheck => ({
          name,
          livez: true,
          readyz: true,
          postStartHook: true,
          run: async () => {
            if (!this.hooksDone.has(name)) throw new Error('not finished');
          },
        }),
      ),
      // Last, as kube lists it.
      this.shutdownSequence.readyzCheck,
    ];
  }

  /** Objects the server has from its first start. */
  private async bootstrap(): Promise<void> {
    const order: ResourceDef[] = RESOURCE_DEFS.filter((d) => d.bootstrap);
    for (const def of order) {
      const store = this.storeFor(def.group, def.resource)!;
      for (const obj of def.bootstrap!) await store.ensure(obj);
    }
  }

  /**
   * SIGTERM: the graceful sequence (shutdown.ts), then everything behind the server stops
   * and the store is flushed and closed.
   */
  async shutdown(): Promise<void> {
    const server = this.server;
    if (server) {
      await this.shutdownSequence.run({
        stopListening: () => server.close(),
        watchCount: () => [...this.stores.values()].reduce((n, s) => n + s.cache.watchCount, 0),
        endWatches: () => {
          for (const s of this.stores.values()) s.cache.terminateWatchers();
        },
        closeConnections: () => server.closeAllConnections(),
      });
    }
    await this.stop();
  }

  async stop(): Promise<void> {
    for (const c of this.controllers) c.stop();
    this.compactor?.stop();
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((r) => this.server!.close(() => r()));
    }
    this.registryWatch?.close();
    await this.storage?.close();
  }
}
