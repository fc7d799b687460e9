// The namespace controller (kube's pkg/controller/namespace), reduced to what deletion needs:
// a namespace marked for deletion has everything in it deleted (deletecollection per resource,
// background propagation, as kube's NamespacedResourcesDeleter), and once nothing is left its
// "kubernetes" finalizer is dropped so it goes away. Content that is still there (objects with
// finalizers, pods in their grace period) puts the namespace back in the queue after a second;
// other failures retry through the rate limiter.

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { KUBERNETES_FINALIZER } from '../../registry/core/namespaces/strategy.js';
import { QueueController } from '../framework/controller.js';
import { NotLeadingError } from '../framework/leading.js';
import type { SharedInformer } from '../framework/informer.js';
import { CONTROLLER_MANAGER } from '../framework/client.js';

/** kube-controller-manager's --concurrent-namespace-syncs. */
const WORKERS = 10;
const REMAINING_RECHECK_MS = 1000;

class ContentRemaining extends Error {}

export class NamespaceController extends QueueController {
  constructor(
    private readonly namespaces: SharedInformer,
    private readonly namespaced: () => GenericStore[],
    private readonly leading: () => boolean,
    log: Logger,
  ) {
    super('namespace', log, WORKERS);
  }

  private mayWrite(): void {
    if (this.stopped || !this.leading()) throw new NotLeadingError();
  }

  protected setup(): (() => void)[] {
    const consider = (ns: KObject): void => {
      if (ns.metadata.deletionTimestamp) this.queue.add(ns.metadata.name!);
    };
    return [this.namespaces.addEventHandler({ add: consider, update: (_o, cur) => consider(cur) })];
  }

  protected async sync(name: string): Promise<void> {
    const ns = this.namespaces.get('', name);
    if (!ns?.metadata.deletionTimestamp) return;
    try {
      await this.finalize(name);
    } catch (e) {
      if (!(e instanceof ContentRemaining)) throw e;
      this.log.warn({ namespace: name, err: e.message }, 'namespace cleanup failed; will retry');
      this.queue.addAfter(name, REMAINING_RECHECK_MS);
    }
  }

  private async finalize(name: string): Promise<void> {
    const stores = this.namespaced().filter((s) => !s.def.storedAs);
    for (const store of stores) {
      this.mayWrite();
      await store.deleteCollection(name, {}, { propagationPolicy: 'Background' });
    }
    for (const store of stores) {
      if (store.cache.list(store.listPrefix(name)).length > 0) throw new ContentRemaining(`namespace ${name} still has ${store.def.resource}`);
    }
    const namespaces = this.namespaces.store;
    try {
      this.mayWrite();
      await namespaces.guaranteedUpdate('', name, 'finalize', (old) => {
        const ns = structuredClone(old);
        const finalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER);
        ns.spec = { ...(ns.spec ?? {}), finalizers };
        return ns;
      }, undefined, false, { manager: CONTROLLER_MANAGER, subresource: 'finalize' });
      this.log.info({ namespace: name }, 'namespace emptied and finalized');
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return;
      throw e;
    }
  }
}
