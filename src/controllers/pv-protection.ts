// The PV protection controller (kube-controller-manager's pv-protection): a volume being
// deleted keeps its `kubernetes.io/pv-protection` finalizer (set by admission) while it is
// bound (status.phase Bound, as the binder reports it); once it is not, the finalizer is
// removed and the deletion completes. It acts through the store's update, as any client would.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { CacheEvent } from '../cache/watch-cache.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { PV_PROTECTION_FINALIZER } from '../registry/core/persistentvolumes/admission.js';
import { NotLeadingError, type Controller, type ControllerContext } from './manager.js';
import { releaseFinalizer } from './finalizer-release.js';

export class PvProtectionController implements Controller {
  private readonly inFlight = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly volumes: GenericStore,
    private readonly log: Logger,
    private readonly ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {}

  start(): void {
    this.unsubscribe = this.volumes.cache.subscribe((evs) => evs.forEach((e) => this.onVolume(e)));
    for (const e of this.volumes.cache.list(this.volumes.prefix)) this.consider(e.name, e.bytes);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
  }

  private onVolume(e: CacheEvent): void {
    if (e.type !== 'DELETED') this.consider(e.entry.name, e.entry.bytes);
  }

  private consider(name: string, bytes: Buffer): void {
    const pv = decodeObject(bytes);
    if (!pv.metadata.deletionTimestamp || !(pv.metadata.finalizers ?? []).includes(PV_PROTECTION_FINALIZER)) return;
    if ((pv.status as { phase?: string } | undefined)?.phase === 'Bound') return;
    if (this.inFlight.has(name) || this.stopped) return;
    this.inFlight.add(name);
    this.release(name)
      .catch((err: unknown) => {
        if (err instanceof NotLeadingError) return;
        this.log.warn({ volume: name, err: (err as Error).message }, 'pv protection: finalizer removal failed');
      })
      .finally(() => this.inFlight.delete(name));
  }

  private release(name: string): Promise<void> {
    // Bound again since the event was seen: the volume stays until it is released.
    return releaseFinalizer(this.volumes, '', name, PV_PROTECTION_FINALIZER, () => !this.stopped && this.ctx.leading(), (obj) => (obj.status as { phase?: string } | undefined)?.phase === 'Bound');
  }
}
