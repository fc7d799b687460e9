// The PV protection controller (kube-controller-manager's pv-protection): a volume being
// deleted keeps its `kubernetes.io/pv-protection` finalizer (set by admission) while it is
// bound (status.phase Bound, as the binder reports it); once it is not, the finalizer is
// removed and the deletion completes. It acts through the store's update, as any client would.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { CacheEvent } from '../cache/watch-cache.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { PV_PROTECTION_FINALIZER } from '../registry/core/persistentvolumes/admission.js';
import type { KObject } from '../machinery/object.js';
import type { Controller, ControllerContext } from './manager.js';
import { FinalizerReleaser } from './finalizer-release.js';

const isBound = (pv: KObject): boolean => (pv.status as { phase?: string } | undefined)?.phase === 'Bound';

export class PvProtectionController implements Controller {
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private readonly releaser: FinalizerReleaser;

  constructor(
    private readonly volumes: GenericStore,
    log: Logger,
    ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {
    this.releaser = new FinalizerReleaser({
      store: volumes,
      finalizer: PV_PROTECTION_FINALIZER,
      log,
      controller: 'pv protection',
      object: 'volume',
      acting: () => !this.stopped && ctx.leading(),
      // Bound again since the event was seen: the volume stays until it is released.
      keep: isBound,
    });
  }

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
    if (this.releaser.holds(pv) && !isBound(pv)) this.releaser.release('', name);
  }
}
