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
import { healthPaths, installHealth, type HealthCheck } from './health.js';
import { kubeHealthChecks } from './health-checks.js';
import { installIndex, restfulPaths } from './paths.js';
import { installMetrics, metricsMiddleware, setStorageObjects } from './metrics.js';
import { writeAdminKubeconfig } from './kubeconfig.js';
import { NamespaceLifecycleController } from '../controllers/namespace-lifecycle.js';
import { PvcProtectionController } from '../controllers/pvc-protection.js';
import { Compactor } from '../storage/compactor.js';

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

export class KapiNode {
  private storage?: Storage;
  private registryWatch?: RegistryWatch;
  private server?: Server;
  private controllers: { stop(): void }[] = [];
  private stopping = false;
  private compactor?: Compactor;
  readonly stores = new Map<string, GenericStore>();
  url = '';
  kubeconfigPath = '';

  constructor(
    readonly cfg: NodeConfig,
    private readonly log: Logger,
  ) {}

  private storeFor(group: string, resource: string): GenericStore | undefined {
    return this.stores.get(`${group}/${resource}`);
  }

  async start(): Promise<void> {
    const cfg = this.cfg;
    this.storage = await openStorage({
      backend: cfg.storageBackend,
      dataDir: cfg.dataDir,
      etcdServers: cfg.etcdServers,
      sync: cfg.storageSync,
    });
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
      admissionList: (group: string, resource: string): KObject[] => {
        const st = this.storeFor(group, resource);
        if (!st) return [];
        return st.cache.list(st.prefix).map((e) => decodedOnce(e.bytes));
      },
    };
    for (const def of RESOURCE_DEFS) this.stores.set(`${def.group}/${def.resource}`, new GenericStore(def, deps));
    await this.registryWatch.start();
    await this.bootstrap();

    const nsController = new NamespaceLifecycleController(
      this.storeFor('', 'namespaces')!,
      () => [...this.stores.values()].filter((s) => s.def.namespaced),
      this.log,
    );
    nsController.start();
    this.controllers.push(nsController);
    const pvcProtection = new PvcProtectionController(this.storeFor('', 'persistentvolumeclaims')!, this.storeFor('', 'pods')!, this.log);
    pvcProtection.start();
    this.controllers.push(pvcProtection);
    if (cfg.compactionIntervalMs > 0) {
      this.compactor = new Compactor(storage, cfg.compactionIntervalMs, this.log);
      this.compactor.start();
    }

    const app = createApp({
      log: this.log,
      routes: (router: Router) => {
        installDiscovery(router, () => RESOURCE_DEFS);
        installOpenAPI(router, () => RESOURCE_DEFS);
        const checks = this.healthChecks();
        installHealth(router, checks);
        installMetrics(router);
        installIndex(router, () => RESOURCE_DEFS, () => healthPaths(checks));
      },
      restfulPath: restfulPaths(() => RESOURCE_DEFS),
      observe: [metricsMiddleware()],
      resources: resourceHandler(
        {
          find: (g, v, r) => this.findStore(g, v, r),
          servesGroup: (g) => RESOURCE_DEFS.some((d) => d.group === g),
          servesGroupVersion: (g, v) => RESOURCE_DEFS.some((d) => d.group === g && d.version === v),
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
    return s && s.def.version === version ? s : undefined;
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
    return kubeHealthChecks({
      storage: async () => {
        if (!(await storage.check())) throw new Error('etcd is not reachable');
      },
      informersSynced: async () => {
        await this.registryWatch!.ready;
      },
      shuttingDown: () => this.stopping,
    });
  }

  /** Objects the server has from its first start. */
  private async bootstrap(): Promise<void> {
    const order: ResourceDef[] = RESOURCE_DEFS.filter((d) => d.bootstrap);
    for (const def of order) {
      const store = this.storeFor(def.group, def.resource)!;
      for (const obj of def.bootstrap!) await store.ensure(obj);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
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
