// The namespace controller, reduced to what deletion needs: when a namespace is
// marked for deletion, delete everything in it, then drop its "kubernetes" finalizer
// so the namespace itself goes away (after kube's namespace deletion controller).

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { CacheEvent } from '../cache/watch-cache.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { StatusError } from '../machinery/errors.js';
import { KUBERNETES_FINALIZER } from '../registry/core/namespaces/strategy.js';
import { NotLeadingError, type Controller, type ControllerContext } from './manager.js';

export class NamespaceLifecycleController implements Controller {
  private readonly inFlight = new Set<string>();
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly namespaces: GenericStore,
    private readonly namespaced: () => GenericStore[],
    private readonly log: Logger,
    private readonly ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {}

  /** Every write goes through here: a node that stopped leading (or was told to stop) acts no more. */
  private mayWrite(): void {
    if (this.stopped || !this.ctx.leading()) throw new NotLeadingError();
  }

  start(): void {
    this.unsubscribe = this.namespaces.cache.subscribe((evs) => evs.forEach((e) => this.onEvent(e)));
    // Namespaces left terminating by an earlier run.
    for (const e of this.namespaces.cache.list(this.namespaces.prefix)) this.consider(e.bytes);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
  }

  private onEvent(e: CacheEvent): void {
    if (e.type !== 'DELETED') this.consider(e.entry.bytes);
  }

  private consider(bytes: Buffer): void {
    const ns = decodeObject(bytes);
    const name = ns.metadata.name!;
    if (!ns.metadata.deletionTimestamp || this.inFlight.has(name)) return;
    this.inFlight.add(name);
    this.finalize(name)
      .catch((err: unknown) => {
        if (err instanceof NotLeadingError) return;
        this.log.warn({ namespace: name, err: (err as Error).message }, 'namespace cleanup failed; will retry');
        if (!this.stopped) setTimeout(() => this.retry(name), 1000).unref();
      })
      .finally(() => this.inFlight.delete(name));
  }

  private retry(name: string): void {
    const e = this.namespaces.cache.get(this.namespaces.keyFor('', name));
    if (e) this.consider(e.bytes);
  }

  private async finalize(name: string): Promise<void> {
    for (const store of this.namespaced()) {
      this.mayWrite();
      await store.deleteCollection(name, {}, {});
    }
    // Objects with finalizers of their own keep the namespace until they are gone.
    for (const store of this.namespaced()) {
      if (store.cache.list(store.listPrefix(name)).length > 0) {
        throw new Error(`namespace ${name} still has ${store.def.resource} with finalizers`);
      }
    }
    try {
      const ns = await this.namespaces.getObject('', name);
      const finalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER);
      ns.spec = { ...(ns.spec ?? {}), finalizers };
      this.mayWrite();
      await this.namespaces.update('', name, ns, 'finalize');
      this.log.info({ namespace: name }, 'namespace emptied and finalized');
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return;
      throw e;
    }
  }
}
