// The persistent volume binder (kube's persistentvolume-binder-controller), for what kapi's
// volumes need: an unbound claim binds to the smallest matching Available volume (or to the one
// it names, or that names it); without one, a claim of a class with a provisioner is handed to
// that provisioner (the storage-provisioner annotations and an ExternalProvisioning event), at
// once for Immediate classes and once the scheduler has chosen a node (the selected-node
// annotation) for WaitForFirstConsumer ones, which say WaitForFirstConsumer meanwhile. A bound
// pair has the claim's volumeName, the bind-completed and bound-by-controller annotations, both
// phases Bound, the claim's capacity and access modes; a volume whose claim is gone is Released
// (its provisioner deletes it when its reclaim policy is Delete; Retain keeps it). Claims and
// volumes are synced on every change and every 15 s (--pvclaimbinder-sync-period).

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { nowTimestamp } from '../../machinery/meta.js';
import { parseLabelSelector } from '../../machinery/selectors.js';
import { selectorString } from '../../registry/generic/selector-string.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../../machinery/json-view.js';
import { qty } from '../../schema/quantity.js';
import { EventRecorder, refOf } from '../../client/events.js';
import { storeEventSink } from '../event-sink.js';
import type { SharedInformer } from '../framework/informer.js';
import { RateLimitingQueue } from '../framework/workqueue.js';
import { startWorkers } from '../framework/controller.js';
import { informersOf, type Controller, type ControllerContext } from '../manager.js';
import { CONTROLLER_MANAGER } from '../framework/client.js';
import { annotations, claimKey, meta, spec } from './fields.js';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';

const SYNC_PERIOD_MS = 15_000;

export interface VolumeStores {
  claims: GenericStore;
  volumes: GenericStore;
  classes: GenericStore;
  pods: GenericStore;
  events: GenericStore;
}

const requestOf = (c: Obj): number => qty(asObj(asObj(spec(c).resources)?.requests)?.storage)?.value ?? 0;
const capacityOf = (v: Obj): number => qty(asObj(spec(v).capacity)?.storage)?.value ?? 0;
const modes = (o: Obj): string[] => asArr(spec(o).accessModes).map(str);
const volumeMode = (o: Obj): string => str(spec(o).volumeMode) || 'Filesystem';

/** Whether the volume's claimRef names this claim (and, when it has one, its UID). */
export function volumeBoundToClaim(v: Obj, c: Obj): boolean {
  const ref = asObj(spec(v).claimRef);
  if (!ref) return false;
  if (str(ref.name) !== str(meta(c).name) || str(ref.namespace) !== str(meta(c).namespace)) return false;
  return !str(ref.uid) || str(ref.uid) === str(meta(c).uid);
}

/** checkVolumeSatisfyClaim: why this volume cannot serve this claim, or undefined. */
function mismatch(v: Obj, c: Obj): string | undefined {
  if (capacityOf(v) < requestOf(c)) return 'requested PV is too small';
  if (str(spec(v).storageClassName) !== str(spec(c).storageClassName)) return 'storageClassName does not match';
  if (volumeMode(v) !== volumeMode(c)) return 'incompatible volumeMode';
  const have = modes(v);
  if (!modes(c).every((m) => have.includes(m))) return 'incompatible accessMode';
  return undefined;
}

function selectorMatches(c: Obj, v: Obj): boolean {
  const sel = asObj(spec(c).selector);
  if (!sel) return true;
  try {
    return parseLabelSelector(selectorString(sel as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] })).matches((asObj(meta(v).labels) ?? {}) as Record<string, string>);
  } catch {
    return false;
  }
}

export class VolumeBinder implements Controller {
  private readonly claims: SharedInformer;
  private readonly volumes: SharedInformer;
  private readonly classes: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly claimQueue: RateLimitingQueue<string>;
  private readonly volumeQueue: RateLimitingQueue<string>;
  private readonly recorder: EventRecorder;
  private readonly cleanups: (() => void)[] = [];
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private readonly log: Logger;

  constructor(
    stores: VolumeStores,
    private readonly ctx: ControllerContext,
  ) {
    this.log = ctx.log.child({ controller: 'persistentvolume-binder' });
    this.claims = informersOf(ctx).of(stores.claims);
    this.volumes = informersOf(ctx).of(stores.volumes);
    this.classes = informersOf(ctx).of(stores.classes);
    this.pods = informersOf(ctx).of(stores.pods);
    this.claimQueue = new RateLimitingQueue<string>('claims');
    this.volumeQueue = new RateLimitingQueue<string>('volumes');
    this.recorder = new EventRecorder(storeEventSink(stores.events, CONTROLLER_MANAGER, () => this.mayWrite()), { component: 'persistentvolume-controller' }, { log: this.log, qps: 1000, burst: 1000 });
  }

  private mayWrite(): boolean {
    return !this.stopped && this.ctx.leading();
  }

  start(): void {
    startWorkers(this.claimQueue, 4, (k) => this.syncClaim(k), this.log);
    startWorkers(this.volumeQueue, 4, (k) => this.syncVolume(k), this.log);
    const claim = (c: Obj): void => this.claimQueue.add(claimKey(c));
    const volume = (v: Obj): void => this.volumeQueue.add(str(meta(v).name));
    this.cleanups.push(
      this.claims.addEventHandler({
        add: claim,
        update: (_o, c) => claim(c),
        delete: (c) => {
          // Its volume is released.
          const vn = str(spec(c).volumeName);
          if (vn) this.volumeQueue.add(vn);
          for (const v of this.volumes.list()) if (volumeBoundToClaim(v, c)) volume(v);
        },
      }),
      this.volumes.addEventHandler({
        add: volume,
        update: (_o, v) => volume(v),
        delete: (v) => {
          const ref = asObj(spec(v).claimRef);
          if (ref) this.claimQueue.add(`${str(ref.namespace)}/${str(ref.name)}`);
        },
      }),
    );
    this.timer = setInterval(() => this.resync(), SYNC_PERIOD_MS);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const c of this.cleanups.splice(0)) c();
    this.claimQueue.shutDown();
    this.volumeQueue.shutDown();
    this.recorder.stop();
  }

  private resync(): void {
    for (const c of this.claims.list()) this.claimQueue.add(claimKey(c));
    for (const v of this.volumes.list()) this.volumeQueue.add(str(meta(v).name));
  }

  // ---- writes ----

  private async write(store: GenericStore, ns: string, name: string, sub: string, f: (o: KObject) => KObject): Promise<KObject | undefined> {
    if (!this.mayWrite()) return undefined;
    try {
      const r = await store.guaranteedUpdate(ns, name, sub, (o) => (this.mayWrite() ? f(o) : o), undefined, false, { manager: CONTROLLER_MANAGER, subresource: sub });
      return r.obj;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
  }

  private async setClaimStatus(c: Obj, phase: string, volume?: Obj): Promise<void> {
    const st = asObj(c.status) ?? {};
    const wantModes = volume ? modes(volume) : undefined;
    const wantCap = volume ? asObj(spec(volume).capacity) : undefined;
    if (str(st.phase) === phase && deepEqual(st.accessModes ?? undefined, wantModes) && deepEqual(st.capacity ?? undefined, wantCap)) return;
    const uid = str(meta(c).uid);
    await this.write(this.claims.store, str(meta(c).namespace), str(meta(c).name), 'status', (cur) => {
      if (cur.metadata.uid !== uid) return cur;
      const next = structuredClone(cur);
      const s = (next.status ??= {}) as Obj;
      s.phase = phase;
      if (wantModes) s.accessModes = wantModes;
      else delete s.accessModes;
      if (wantCap) s.capacity = wantCap;
      else delete s.capacity;
      return next;
    });
  }

  private async setVolumePhase(v: Obj, phase: string, message?: string): Promise<void> {
    const st = asObj(v.status) ?? {};
    if (str(st.phase) === phase && str(st.message) === (message ?? '')) return;
    await this.write(this.volumes.store, '', str(meta(v).name), 'status', (cur) => {
      const next = structuredClone(cur);
      const s = (next.status ??= {}) as Obj;
      if (s.phase !== phase) s.lastPhaseTransitionTime = nowTimestamp();
      s.phase = phase;
      if (message) s.message = message;
      else delete s.message;
      delete s.reason;
      return next;
    });
  }

  private event(o: Obj, kind: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.recorder.event(refOf({ ...o, kind, apiVersion: 'v1' }), type, reason, message);
  }

  // ---- claims ----

  private async syncClaim(key: string): Promise<void> {
    if (!this.mayWrite()) return;
    const i = key.indexOf('/');
    const claim = this.claims.get(key.slice(0, i), key.slice(i + 1));
    if (!claim || meta(claim).deletionTimestamp) return;
    if (annotations(claim)[ANN_BIND_COMPLETED]) await this.syncBoundClaim(claim);
    else await this.syncUnboundClaim(claim);
  }

  private classOf(c: Obj): Obj | undefined {
    const name = str(spec(c).storageClassName);
    return name ? this.classes.get('', name) : undefined;
  }

  /** findBestMatchForClaim: the smallest Available volume that satisfies the claim (pre-bound ones first). */
  private findMatch(c: Obj, delayed: boolean): Obj | undefined {
    let best: Obj | undefined;
    for (const v of this.volumes.list()) {
      if (meta(v).deletionTimestamp) continue;
      const ref = asObj(spec(v).claimRef);
      if (ref && !volumeBoundToClaim(v, c)) continue;
      if (ref) {
        if (!mismatch(v, c)) return v;
        continue;
      }
      // With delayed binding the scheduler picks among unbound volumes, not this controller.
      if (delayed) continue;
      if (str(asObj(v.status)?.phase) !== 'Available' && str(asObj(v.status)?.phase) !== 'Pending' && asObj(v.status)?.phase !== undefined) continue;
      if (mismatch(v, c) || !selectorMatches(c, v)) continue;
      if (!best || capacityOf(v) < capacityOf(best)) best = v;
    }
    return best;
  }

  private async syncUnboundClaim(c: Obj): Promise<void> {
    const volumeName = str(spec(c).volumeName);
    if (!volumeName) {
      const cls = this.classOf(c);
      const delayed = !!cls && str(cls.volumeBindingMode) === 'WaitForFirstConsumer';
      const v = this.findMatch(c, delayed);
      if (v) {
        await this.bind(v, c);
        return;
      }
      const selected = annotations(c)[ANN_SELECTED_NODE];
      if (delayed && !selected) {
        const waiting = this.pods
          .list(str(meta(c).namespace))
          .filter((p) => !str(spec(p).nodeName) && asArr(spec(p).volumes).some((vol) => str(asObj(asObj(vol)?.persistentVolumeClaim)?.claimName) === str(meta(c).name)))
          .map((p) => str(meta(p).name));
        if (waiting.length === 0) this.event(c, 'PersistentVolumeClaim', 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
        else this.event(c, 'PersistentVolumeClaim', 'Normal', 'WaitForPodScheduled', waiting.length > 1 ? `waiting for pods ${waiting.join(',')} to be scheduled` : `waiting for pod ${waiting[0]} to be scheduled`);
      } else if (str(spec(c).storageClassName)) {
        if (!cls) {
          this.event(c, 'PersistentVolumeClaim', 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io ${JSON.stringify(str(spec(c).storageClassName))} not found`);
        } else if (str(cls.provisioner) === 'kubernetes.io/no-provisioner') {
          this.event(c, 'PersistentVolumeClaim', 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
        } else {
          await this.handToProvisioner(c, str(cls.provisioner));
          return;
        }
      } else {
        this.event(c, 'PersistentVolumeClaim', 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      }
      await this.setClaimStatus(c, 'Pending');
      return;
    }
    const v = this.volumes.get('', volumeName);
    if (!v) {
      await this.setClaimStatus(c, 'Pending');
      return;
    }
    if (!asObj(spec(v).claimRef) || volumeBoundToClaim(v, c)) {
      const why = asObj(spec(v).claimRef) ? undefined : mismatch(v, c);
      if (why) {
        this.event(c, 'PersistentVolumeClaim', 'Warning', 'VolumeMismatch', `Cannot bind to requested volume ${JSON.stringify(volumeName)}: ${why}`);
        await this.setClaimStatus(c, 'Pending');
        return;
      }
      await this.bind(v, c);
      return;
    }
    this.event(c, 'PersistentVolumeClaim', 'Warning', 'FailedBinding', `volume ${JSON.stringify(volumeName)} already bound to a different claim.`);
    await this.setClaimStatus(c, 'Pending');
  }

  /** provisionClaimOperationExternal: the annotations external provisioners look for, and the event. */
  private async handToProvisioner(c: Obj, provisioner: string): Promise<void> {
    const a = annotations(c);
    if (a[ANN_STORAGE_PROVISIONER] !== provisioner || a[ANN_BETA_STORAGE_PROVISIONER] !== provisioner) {
      const uid = str(meta(c).uid);
      const updated = await this.write(this.claims.store, str(meta(c).namespace), str(meta(c).name), '', (cur) => {
        if (cur.metadata.uid !== uid) return cur;
        const next = structuredClone(cur);
        next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
        return next;
      });
      if (!updated) return;
      this.event(
        updated,
        'PersistentVolumeClaim',
        'Normal',
        'ExternalProvisioning',
        `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      );
      await this.setClaimStatus(updated, 'Pending');
      return;
    }
    await this.setClaimStatus(c, 'Pending');
  }

  private async syncBoundClaim(c: Obj): Promise<void> {
    const volumeName = str(spec(c).volumeName);
    if (!volumeName) {
      if (str(asObj(c.status)?.phase) !== 'Lost') this.event(c, 'PersistentVolumeClaim', 'Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
      await this.setClaimStatus(c, 'Lost');
      return;
    }
    const v = this.volumes.get('', volumeName);
    if (!v) {
      if (str(asObj(c.status)?.phase) !== 'Lost') this.event(c, 'PersistentVolumeClaim', 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      await this.setClaimStatus(c, 'Lost');
      return;
    }
    if (!asObj(spec(v).claimRef) || volumeBoundToClaim(v, c)) {
      await this.bind(v, c);
      return;
    }
    if (str(asObj(c.status)?.phase) !== 'Lost') this.event(c, 'PersistentVolumeClaim', 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
    await this.setClaimStatus(c, 'Lost');
  }

  /** bind: the volume's claimRef and phase, then the claim's volumeName, annotations and status. */
  private async bind(v: Obj, c: Obj): Promise<void> {
    const ref = asObj(spec(v).claimRef);
    const claimUID = str(meta(c).uid);
    let volume: Obj | undefined = v;
    if (!ref || str(ref.uid) !== claimUID || str(ref.resourceVersion) === '') {
      const byController = !volumeBoundToClaim(v, c);
      volume = await this.write(this.volumes.store, '', str(meta(v).name), '', (cur) => {
        const curRef = asObj(cur.spec?.claimRef);
        if (curRef && !volumeBoundToClaim(cur, c)) return cur;
        const next = structuredClone(cur);
        next.spec = {
          ...(next.spec ?? {}),
          claimRef: { kind: 'PersistentVolumeClaim', namespace: str(meta(c).namespace), name: str(meta(c).name), uid: claimUID, apiVersion: 'v1', resourceVersion: str(meta(c).resourceVersion) },
        };
        if (byController) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
        return next;
      });
      if (!volume || !volumeBoundToClaim(volume, c)) return;
    }
    await this.setVolumePhase(volume, 'Bound');
    let claim: Obj | undefined = c;
    const a = annotations(c);
    if (str(spec(c).volumeName) !== str(meta(volume).name) || !a[ANN_BIND_COMPLETED]) {
      const volumeName = str(meta(volume).name);
      claim = await this.write(this.claims.store, str(meta(c).namespace), str(meta(c).name), '', (cur) => {
        if (cur.metadata.uid !== claimUID) return cur;
        const next = structuredClone(cur);
        const ann = { ...(next.metadata.annotations ?? {}) };
        if (str(next.spec?.volumeName) !== volumeName) {
          if (str(next.spec?.volumeName)) return cur;
          next.spec = { ...(next.spec ?? {}), volumeName };
          ann[ANN_BOUND_BY_CONTROLLER] ??= 'yes';
        }
        ann[ANN_BIND_COMPLETED] ??= 'yes';
        next.metadata.annotations = ann;
        return next;
      });
      if (!claim) return;
    }
    await this.setClaimStatus(claim, 'Bound', volume);
  }

  // ---- volumes ----

  private async syncVolume(name: string): Promise<void> {
    if (!this.mayWrite()) return;
    const v = this.volumes.get('', name);
    if (!v || meta(v).deletionTimestamp) return;
    const ref = asObj(spec(v).claimRef);
    if (!ref) {
      await this.setVolumePhase(v, 'Available');
      return;
    }
    const phase = str(asObj(v.status)?.phase);
    let claim = this.claims.get(str(ref.namespace), str(ref.name));
    if (!claim) {
      // The cache may lag: ask the store before releasing a volume.
      try {
        claim = await this.claims.store.getObject(str(ref.namespace), str(ref.name));
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
    }
    if (!str(ref.uid)) {
      // Pre-bound by a user: the claim binds it when it comes.
      if (claim) this.claimQueue.add(claimKey(claim));
      await this.setVolumePhase(v, 'Available');
      return;
    }
    if (!claim || str(meta(claim).uid) !== str(ref.uid)) {
      if (phase === 'Released' || phase === 'Failed') return;
      await this.setVolumePhase(v, 'Released');
      await this.reclaim(v);
      return;
    }
    if (!str(spec(claim).volumeName)) {
      this.claimQueue.add(claimKey(claim));
      return;
    }
    if (str(spec(claim).volumeName) === name) {
      await this.setVolumePhase(v, 'Bound');
      return;
    }
    // The claim went to another volume.
    if (annotations(v)[ANN_BOUND_BY_CONTROLLER]) {
      await this.write(this.volumes.store, '', name, '', (cur) => {
        const next = structuredClone(cur);
        if (next.spec) delete next.spec.claimRef;
        const ann = { ...(next.metadata.annotations ?? {}) };
        delete ann[ANN_BOUND_BY_CONTROLLER];
        next.metadata.annotations = Object.keys(ann).length ? ann : undefined;
        if (!next.metadata.annotations) delete next.metadata.annotations;
        return next;
      });
      return;
    }
    await this.setVolumePhase(v, 'Released');
    await this.reclaim(v);
  }

  /** reclaimVolume: Retain keeps it; Delete is the provisioner's job (or fails without one); Recycle is gone. */
  private async reclaim(v: Obj): Promise<void> {
    const policy = str(spec(v).persistentVolumeReclaimPolicy) || 'Retain';
    if (policy === 'Retain') return;
    if (policy === 'Recycle') {
      this.event(v, 'PersistentVolume', 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
      await this.setVolumePhase(v, 'Failed', 'No recycler plugin found for the volume!');
      return;
    }
    if (annotations(v)[ANN_PROVISIONED_BY]) return;
    const msg = `error getting deleter volume plugin for volume ${JSON.stringify(str(meta(v).name))}: no deletable volume plugin matched`;
    this.event(v, 'PersistentVolume', 'Warning', 'VolumeFailedDelete', msg);
    await this.setVolumePhase(v, 'Failed', msg);
  }
}
