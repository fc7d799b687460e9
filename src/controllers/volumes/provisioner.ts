// kapi's simulated volume provisioner, in the place of an external CSI provisioner for the
// classes whose provisioner is `kapi.io/simulated` (the `standard` class among them): a claim the
// binder handed to it (the storage-provisioner annotation) gets a new PersistentVolume
// `pvc-<claim uid>` of the requested size, pre-bound to the claim (claimRef with its UID), with
// the class's reclaim policy and mount options; the binder then binds the pair. A claim of a
// WaitForFirstConsumer class is provisioned once the scheduler has written the selected-node
// annotation, and its volume is pinned to that node (node affinity on kubernetes.io/hostname, as
// local volumes are). A Released volume it provisioned is deleted when its policy is Delete.
// Events as the external provisioner library writes them (Provisioning, ProvisioningSucceeded,
// ProvisioningFailed).

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { asArr, asObj, str, type Obj } from '../../machinery/json-view.js';
import { EventRecorder, refOf } from '../../client/events.js';
import { SIMULATED_PROVISIONER } from '../../registry/storage/storageclasses/strategy.js';
import { storeEventSink } from '../event-sink.js';
import type { SharedInformer } from '../framework/informer.js';
import { RateLimitingQueue } from '../framework/workqueue.js';
import { startWorkers } from '../framework/controller.js';
import { informersOf, type Controller, type ControllerContext } from '../manager.js';
import { ANN_PROVISIONED_BY, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, ANN_BETA_STORAGE_PROVISIONER } from './binder.js';
import { annotations, claimKey, meta, spec } from './fields.js';

export interface ProvisionerStores {
  claims: GenericStore;
  volumes: GenericStore;
  classes: GenericStore;
  events: GenericStore;
}

/** Where the simulated volumes "live" on a node (a hostPath; nothing is written there). */
const VOLUME_ROOT = '/var/lib/kapi/volumes';

export class SimulatedProvisioner implements Controller {
  private readonly claims: SharedInformer;
  private readonly volumes: SharedInformer;
  private readonly classes: SharedInformer;
  private readonly claimQueue: RateLimitingQueue<string>;
  private readonly volumeQueue: RateLimitingQueue<string>;
  private readonly recorder: EventRecorder;
  private readonly cleanups: (() => void)[] = [];
  private stopped = false;
  private readonly log: Logger;

  constructor(
    stores: ProvisionerStores,
    private readonly ctx: ControllerContext,
    instance: string,
  ) {
    this.log = ctx.log.child({ controller: 'simulated-provisioner' });
    this.claims = informersOf(ctx).of(stores.claims);
    this.volumes = informersOf(ctx).of(stores.volumes);
    this.classes = informersOf(ctx).of(stores.classes);
    this.claimQueue = new RateLimitingQueue<string>('provisioner_claims');
    this.volumeQueue = new RateLimitingQueue<string>('provisioner_volumes');
    // The external provisioner library names its event source <provisioner>_<host>_<id>.
    this.recorder = new EventRecorder(
      storeEventSink(stores.events, 'kapi-provisioner', () => this.mayWrite()),
      { component: `${SIMULATED_PROVISIONER}_${instance}` },
      { log: this.log, qps: 1000, burst: 1000 },
    );
  }

  private mayWrite(): boolean {
    return !this.stopped && this.ctx.leading();
  }

  start(): void {
    startWorkers(this.claimQueue, 4, (k) => this.syncClaim(k), this.log);
    startWorkers(this.volumeQueue, 4, (k) => this.syncVolume(k), this.log);
    this.cleanups.push(
      this.claims.addEventHandler({ add: (c) => this.claimQueue.add(claimKey(c)), update: (_o, c) => this.claimQueue.add(claimKey(c)) }),
      this.volumes.addEventHandler({ add: (v) => this.volumeQueue.add(str(meta(v).name)), update: (_o, v) => this.volumeQueue.add(str(meta(v).name)) }),
    );
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.cleanups.splice(0)) c();
    this.claimQueue.shutDown();
    this.volumeQueue.shutDown();
    this.recorder.stop();
  }

  private async syncClaim(key: string): Promise<void> {
    if (!this.mayWrite()) return;
    const i = key.indexOf('/');
    const claim = this.claims.get(key.slice(0, i), key.slice(i + 1));
    if (!claim || meta(claim).deletionTimestamp || str(spec(claim).volumeName)) return;
    const ann = annotations(claim);
    if ((ann[ANN_STORAGE_PROVISIONER] ?? ann[ANN_BETA_STORAGE_PROVISIONER]) !== SIMULATED_PROVISIONER) return;
    const cls = this.classes.get('', str(spec(claim).storageClassName));
    if (!cls || str(cls.provisioner) !== SIMULATED_PROVISIONER) return;
    const delayed = str(cls.volumeBindingMode) === 'WaitForFirstConsumer';
    const node = ann[ANN_SELECTED_NODE];
    if (delayed && !node) return;
    const name = `pvc-${str(meta(claim).uid)}`;
    if (this.volumes.get('', name)) return;
    const ref = refOf({ ...claim, kind: 'PersistentVolumeClaim', apiVersion: 'v1' });
    this.recorder.event(ref, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    const request = asObj(asObj(spec(claim).resources)?.requests)?.storage ?? '1Gi';
    const pv: Obj = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name, annotations: { [ANN_PROVISIONED_BY]: SIMULATED_PROVISIONER } },
      spec: {
        capacity: { storage: request },
        accessModes: asArr(spec(claim).accessModes).length ? spec(claim).accessModes : ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: str(cls.reclaimPolicy) || 'Delete',
        storageClassName: str(cls.metadata && asObj(cls.metadata)?.name),
        volumeMode: str(spec(claim).volumeMode) || 'Filesystem',
        hostPath: { path: `${VOLUME_ROOT}/${name}`, type: 'DirectoryOrCreate' },
        claimRef: {
          kind: 'PersistentVolumeClaim',
          apiVersion: 'v1',
          namespace: str(meta(claim).namespace),
          name: str(meta(claim).name),
          uid: str(meta(claim).uid),
          resourceVersion: str(meta(claim).resourceVersion),
        },
        ...(asArr(cls.mountOptions).length ? { mountOptions: cls.mountOptions } : {}),
        ...(node
          ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } }
          : {}),
      },
    };
    try {
      await this.volumes.store.create('', pv as KObject, false, { manager: 'kapi-provisioner', subresource: '' });
    } catch (e) {
      if (e instanceof StatusError && e.code === 409) return;
      this.recorder.event(ref, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${str(asObj(cls.metadata)?.name)}": ${(e as Error).message}`);
      throw e;
    }
    this.recorder.event(ref, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`);
  }

  /** A Released volume of ours with the Delete policy goes. */
  private async syncVolume(name: string): Promise<void> {
    if (!this.mayWrite()) return;
    const v = this.volumes.get('', name);
    if (!v || meta(v).deletionTimestamp) return;
    if (annotations(v)[ANN_PROVISIONED_BY] !== SIMULATED_PROVISIONER) return;
    if (str(asObj(v.status)?.phase) !== 'Released' || str(spec(v).persistentVolumeReclaimPolicy) !== 'Delete') return;
    try {
      await this.volumes.store.delete('', name, { preconditions: { uid: str(meta(v).uid) } });
      this.log.debug({ volume: name }, 'deleted a released volume');
    } catch (e) {
      if (e instanceof StatusError && (e.code === 404 || e.code === 409)) return;
      throw e;
    }
  }
}
