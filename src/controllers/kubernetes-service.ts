// The `kubernetes` Service in `default`, which kube-apiserver creates for itself and keeps (its
// bootstrap controller's CreateOrUpdateMasterServiceIfNeeded): ClusterIP the first address of
// the service range, port 443 (`https`) to the server's secure port. Checked at start, every
// 10 s and when a change to it is seen; a deleted one comes back, one that lost its https port
// gets it again. It writes through the services store as `kube-apiserver`, as any client would.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { StatusError } from '../machinery/errors.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { asArr, asObj } from '../machinery/json-view.js';

const RECONCILE_MS = 10_000;
const OWNER = { manager: 'kube-apiserver', subresource: '' };

export class KubernetesServiceController {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private unsubscribe?: () => void;

  constructor(
    private readonly services: GenericStore,
    /** The server's secure port: the service's targetPort. */
    private readonly securePort: number,
    /** The first address of the service range. */
    private readonly clusterIP: string,
    private readonly log: Logger,
  ) {}

  /** Ensures the service once (awaited by the caller) and then keeps it. */
  async start(): Promise<void> {
    await this.reconcile();
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_MS);
    this.timer.unref();
    const key = this.services.keyFor('default', 'kubernetes');
    this.unsubscribe = this.services.cache.subscribe((events) => {
      if (events.some((e) => e.entry.key === key)) setImmediate(() => void this.reconcile());
    });
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
  }

  private desired(): KObject {
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: {
        type: 'ClusterIP',
        sessionAffinity: 'None',
        clusterIP: this.clusterIP,
        ipFamilyPolicy: 'SingleStack',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: this.securePort }],
      },
    } as KObject;
  }

  reconcile(): Promise<void> {
    // One pass at a time: a slow pass is not overtaken by the next tick.
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      const key = this.services.keyFor('default', 'kubernetes');
      const hit = this.services.cache.get(key);
      if (!hit) {
        await this.services.create('default', this.desired(), false, OWNER);
        return;
      }
      const svc = decodeObject(hit.bytes);
      const spec = asObj(svc.spec) ?? {};
      const https = asArr(spec.ports).some((p) => asObj(p)?.port === 443 && asObj(p)?.protocol === 'TCP');
      if (spec.type === 'ClusterIP' && https) return;
      // Other nodes of a replicated cluster may listen on other ports: the port is set when
      // missing, never flipped between nodes.
      await this.services.guaranteedUpdate(
        'default',
        'kubernetes',
        '',
        (old) => {
          const next = structuredClone(old);
          const s = (next.spec ??= {}) as Record<string, unknown>;
          s.type = 'ClusterIP';
          s.ports = (this.desired().spec as { ports: unknown }).ports;
          return next;
        },
        undefined,
        false,
        OWNER,
      );
    } catch (e) {
      if (e instanceof StatusError && (e.reason === 'AlreadyExists' || e.code === 404 || e.code === 409)) return;
      this.log.warn({ err: (e as Error).message }, 'could not ensure the kubernetes service');
    }
  }
}
