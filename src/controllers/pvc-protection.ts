// The PVC protection controller (kube-controller-manager's pvcprotection): a claim being
// deleted keeps its `kubernetes.io/pvc-protection` finalizer (set by admission) while a pod
// that has not finished uses it; once none does, the finalizer is removed and the deletion
// completes. It acts through the store's update, as any client would.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import type { CacheEvent } from '../cache/watch-cache.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import type { KObject } from '../machinery/object.js';
import { PVC_PROTECTION_FINALIZER } from '../registry/core/persistentvolumeclaims/admission.js';
import type { Controller, ControllerContext } from './manager.js';
import { FinalizerReleaser } from './finalizer-release.js';

type Volume = { name?: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown };

/** Whether a pod that has not finished mounts the claim (an ephemeral volume's claim is `<pod>-<volume>`). */
export function podUsesClaim(pod: KObject, claim: string): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const volumes = ((pod.spec as { volumes?: Volume[] } | undefined)?.volumes ?? []) as Volume[];
  return volumes.some((v) => v.persistentVolumeClaim?.claimName === claim || (v.ephemeral !== undefined && `${pod.metadata.name}-${v.name}` === claim));
}

export class PvcProtectionController implements Controller {
  private readonly unsubscribe: (() => void)[] = [];
  private stopped = false;
  private readonly releaser: FinalizerReleaser;

  constructor(
    private readonly claims: GenericStore,
    private readonly pods: GenericStore,
    log: Logger,
    ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {
    this.releaser = new FinalizerReleaser({
      store: claims,
      finalizer: PVC_PROTECTION_FINALIZER,
      log,
      controller: 'pvc protection',
      object: 'claim',
      acting: () => !this.stopped && ctx.leading(),
    });
  }

  start(): void {
    this.unsubscribe.push(this.claims.cache.subscribe((evs) => evs.forEach((e) => this.onClaim(e))));
    // A pod that finishes or goes away may free a claim being deleted in its namespace.
    this.unsubscribe.push(this.pods.cache.subscribe((evs) => evs.forEach((e) => this.recheckNamespace(e.entry.namespace))));
    for (const e of this.claims.cache.list(this.claims.prefix)) this.consider(e.namespace, e.name, e.bytes);
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unsubscribe) u();
  }

  private onClaim(e: CacheEvent): void {
    if (e.type !== 'DELETED') this.consider(e.entry.namespace, e.entry.name, e.entry.bytes);
  }

  private recheckNamespace(namespace: string): void {
    for (const e of this.claims.cache.list(this.claims.listPrefix(namespace))) this.consider(e.namespace, e.name, e.bytes);
  }

  private consider(namespace: string, name: string, bytes: Buffer): void {
    if (!this.releaser.holds(decodeObject(bytes)) || this.releaser.busy(namespace, name)) return;
    const inUse = this.pods.cache.list(this.pods.listPrefix(namespace)).some((p) => podUsesClaim(decodeObject(p.bytes), name));
    if (!inUse) this.releaser.release(namespace, name);
  }
}
