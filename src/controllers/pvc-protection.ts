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
import { NotLeadingError, type Controller, type ControllerContext } from './manager.js';
import { releaseFinalizer } from './finalizer-release.js';

type Volume = { name?: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown };

/** Whether a pod that has not finished mounts the claim (an ephemeral volume's claim is `<pod>-<volume>`). */
export function podUsesClaim(pod: KObject, claim: string): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const volumes = ((pod.spec as { volumes?: Volume[] } | undefined)?.volumes ?? []) as Volume[];
  return volumes.some((v) => v.persistentVolumeClaim?.claimName === claim || (v.ephemeral !== undefined && `${pod.metadata.name}-${v.name}` === claim));
}

export class PvcProtectionController implements Controller {
  private readonly inFlight = new Set<string>();
  private readonly unsubscribe: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly claims: GenericStore,
    private readonly pods: GenericStore,
    private readonly log: Logger,
    private readonly ctx: Pick<ControllerContext, 'leading'> = { leading: () => true },
  ) {}

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
    const claim = decodeObject(bytes);
    if (!claim.metadata.deletionTimestamp || !(claim.metadata.finalizers ?? []).includes(PVC_PROTECTION_FINALIZER)) return;
    const key = `${namespace}/${name}`;
    if (this.inFlight.has(key) || this.stopped) return;
    const inUse = this.pods.cache.list(this.pods.listPrefix(namespace)).some((p) => podUsesClaim(decodeObject(p.bytes), name));
    if (inUse) return;
    this.inFlight.add(key);
    this.release(namespace, name)
      .catch((err: unknown) => {
        if (err instanceof NotLeadingError) return;
        this.log.warn({ claim: key, err: (err as Error).message }, 'pvc protection: finalizer removal failed');
      })
      .finally(() => this.inFlight.delete(key));
  }

  private release(namespace: string, name: string): Promise<void> {
    return releaseFinalizer(this.claims, namespace, name, PVC_PROTECTION_FINALIZER, () => !this.stopped && this.ctx.leading());
  }
}
