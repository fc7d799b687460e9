// Letting an object go: the protection controllers (pvc-protection, pv-protection) remove
// their finalizer through the store's update, as any client would, so the deletion the
// finalizer held back completes. What they share lives here: which objects wait on the
// finalizer, one removal in flight per object, and a write that stops once the node no longer
// leads.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';
import { StatusError } from '../machinery/errors.js';
import { clone } from '../machinery/meta.js';
import { NotLeadingError } from './manager.js';

export interface FinalizerReleaserOptions {
  store: GenericStore;
  finalizer: string;
  log: Logger;
  /** Names the controller and the object in its log lines, e.g. 'pvc protection' and 'claim'. */
  controller: string;
  object: string;
  /** Whether the node may act (it leads and the controller runs); checked right before the write. */
  acting: () => boolean;
  /** The object as it is at the write still needs the finalizer (it may, since the event was seen). */
  keep?: (obj: KObject) => boolean;
}

export class FinalizerReleaser {
  private readonly inFlight = new Set<string>();

  constructor(private readonly o: FinalizerReleaserOptions) {}

  /** Whether `obj` is being deleted and its deletion waits on the finalizer. */
  holds(obj: KObject): boolean {
    return Boolean(obj.metadata.deletionTimestamp) && (obj.metadata.finalizers ?? []).includes(this.o.finalizer);
  }

  /** Whether a removal for the object is under way already (or the node may not act). */
  busy(namespace: string, name: string): boolean {
    return this.inFlight.has(keyOf(namespace, name)) || !this.o.acting();
  }

  /** Removes the finalizer in the background, once at a time per object; failures are logged. */
  release(namespace: string, name: string): void {
    const key = keyOf(namespace, name);
    if (this.busy(namespace, name)) return;
    this.inFlight.add(key);
    this.write(namespace, name)
      .catch((err: unknown) => {
        if (err instanceof NotLeadingError) return;
        this.o.log.warn({ [this.o.object]: key, err: (err as Error).message }, `${this.o.controller}: finalizer removal failed`);
      })
      .finally(() => this.inFlight.delete(key));
  }

  /** An object already gone is not an error. */
  private async write(namespace: string, name: string): Promise<void> {
    const { store, finalizer, acting, keep } = this.o;
    try {
      await store.guaranteedUpdate(
        namespace,
        name,
        '',
        (old) => {
          if (!acting()) throw new NotLeadingError();
          const obj = clone(old);
          if (keep?.(obj)) return obj;
          obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
          if (obj.metadata.finalizers.length === 0) delete obj.metadata.finalizers;
          return obj;
        },
        undefined,
        false,
        { manager: 'kube-controller-manager', subresource: '' },
      );
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return;
      throw e;
    }
  }
}

const keyOf = (namespace: string, name: string): string => (namespace ? `${namespace}/${name}` : name);
