// The StatefulSet controller, after kube's pkg/controller/statefulset/stateful_set.go: informers
// on sets, pods, claims and revisions; a set is queued when it changes and when one of its pods
// does (by controller reference, or by selector for orphans); a sync claims the set's pods
// (adopting orphans its selector matches, releasing those it no longer matches) and hands them
// to StatefulSetControl. Five workers, as kube-controller-manager's --concurrent-statefulset-syncs.
// Expectations hold a set back while the pods it just created or deleted are not yet in the
// informer's view, so a sync never acts twice on one stale picture.

import type { Logger } from 'pino';
import type { KObject } from '../../machinery/object.js';
import { deepEqual } from '../../machinery/json-view.js';
import { notFound } from '../../machinery/errors.js';
import { QueueController } from '../framework/controller.js';
import type { ControllerClient } from '../framework/client.js';
import { EventRecorder } from '../framework/events.js';
import { ControllerExpectations } from '../framework/expectations.js';
import { keyOf, type InformerFactory, type SharedInformer } from '../framework/informer.js';
import { claimObjects, controllerOf, isNotFound, newControllerRef, selectorFromObject, type OwnerReference, type Selector } from '../framework/owners.js';
import { StatefulSetControl } from './control.js';
import { SET_API_VERSION, SET_KIND, isMemberOf, isPodReady, replicasOf, specOf } from './utils.js';

const WORKERS = 5;

export class StatefulSetController extends QueueController {
  private readonly sets: SharedInformer;
  private readonly pods: SharedInformer;
  readonly expectations = new ControllerExpectations();
  private readonly recorder: EventRecorder;
  private readonly control: StatefulSetControl;

  constructor(
    informers: InformerFactory,
    private readonly client: ControllerClient,
    log: Logger,
  ) {
    super('statefulset', log, WORKERS);
    this.sets = informers.for('apps', 'statefulsets');
    this.pods = informers.for('', 'pods');
    this.recorder = new EventRecorder(client, 'statefulset-controller', log);
    this.control = new StatefulSetControl({
      client,
      recorder: this.recorder,
      pods: this.pods,
      claims: informers.for('', 'persistentvolumeclaims'),
      revisions: informers.for('apps', 'controllerrevisions'),
      expectations: this.expectations,
      log,
    });
  }

  protected setup(): (() => void)[] {
    const enqueue = (set: KObject): void => this.queue.add(keyOf(set));
    return [
      this.sets.addEventHandler({ add: enqueue, update: (_old, cur) => enqueue(cur), delete: enqueue }),
      this.pods.addEventHandler({
        add: (pod) => this.addPod(pod),
        update: (old, cur) => this.updatePod(old, cur),
        delete: (pod) => this.deletePod(pod),
      }),
      () => this.recorder.stop(),
    ];
  }

  /** The set a controller reference names, if it is still that set. */
  private resolve(namespace: string, ref: OwnerReference): KObject | undefined {
    if (ref.kind !== SET_KIND) return undefined;
    const set = this.sets.get(namespace, ref.name);
    return set && set.metadata.uid === ref.uid ? set : undefined;
  }

  /** GetPodStatefulSets: the sets whose selector matches an orphan pod. */
  private setsForPod(pod: KObject): KObject[] {
    if (!pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) return [];
    const out: KObject[] = [];
    for (const set of this.sets.list(pod.metadata.namespace ?? '')) {
      let sel: Selector;
      try {
        sel = selectorFromObject(specOf(set).selector);
      } catch {
        continue;
      }
      if (sel.empty || !sel.matches(pod.metadata.labels)) continue;
      out.push(set);
    }
    return out;
  }

  private addPod(pod: KObject): void {
    if (pod.metadata.deletionTimestamp) {
      this.deletePod(pod);
      return;
    }
    const ref = controllerOf(pod);
    if (ref) {
      const set = this.resolve(pod.metadata.namespace ?? '', ref);
      if (!set) return;
      this.expectations.creationObserved(keyOf(set));
      this.queue.add(keyOf(set));
      return;
    }
    for (const set of this.setsForPod(pod)) this.queue.add(keyOf(set));
  }

  private updatePod(old: KObject, cur: KObject): void {
    if (cur.metadata.resourceVersion === old.metadata.resourceVersion) return;
    const curRef = controllerOf(cur);
    const oldRef = controllerOf(old);
    const refChanged = !deepEqual(curRef, oldRef);
    if (refChanged && oldRef) {
      const set = this.resolve(old.metadata.namespace ?? '', oldRef);
      if (set) this.queue.add(keyOf(set));
    }
    if (curRef) {
      const set = this.resolve(cur.metadata.namespace ?? '', curRef);
      if (!set) return;
      const key = keyOf(set);
      if (!old.metadata.deletionTimestamp && cur.metadata.deletionTimestamp) {
        this.expectations.deletionObserved(key);
        this.markSeen.add(cur.metadata.uid ?? '');
      }
      this.queue.add(key);
      const minReady = typeof specOf(set).minReadySeconds === 'number' ? (specOf(set).minReadySeconds as number) : 0;
      if (!isPodReady(old) && isPodReady(cur) && minReady > 0) this.queue.addAfter(key, minReady * 1000 + 1000);
      return;
    }
    if (refChanged || !deepEqual(cur.metadata.labels, old.metadata.labels)) for (const set of this.setsForPod(cur)) this.queue.add(keyOf(set));
  }

  private deletePod(pod: KObject): void {
    const ref = controllerOf(pod);
    if (!ref) return;
    const set = this.resolve(pod.metadata.namespace ?? '', ref);
    if (!set) return;
    // A pod whose deletion mark was seen was counted then.
    if (!this.markSeen.delete(pod.metadata.uid ?? '')) this.expectations.deletionObserved(keyOf(set));
    this.queue.add(keyOf(set));
  }

  /** Pods whose deletion mark was counted already (so their removal is not counted again). */
  private readonly markSeen = new Set<string>();

  protected async sync(key: string): Promise<void> {
    const set = this.sets.getByKey(key);
    if (!set) {
      this.expectations.delete(key);
      return;
    }
    if (!this.expectations.satisfied(key)) return;
    let selector: Selector;
    try {
      selector = selectorFromObject(specOf(set).selector);
    } catch (e) {
      this.log.warn({ statefulset: key, err: (e as Error).message }, 'error converting StatefulSet selector');
      return;
    }
    const canAdopt = this.canAdopt(set);
    await this.control.adoptOrphanRevisions(set, canAdopt);
    const pods = await this.claimPods(set, selector, canAdopt);
    const status = await this.control.updateStatefulSet(key, set, pods);
    const minReady = typeof specOf(set).minReadySeconds === 'number' ? (specOf(set).minReadySeconds as number) : 0;
    if (minReady > 0 && status && status.availableReplicas !== replicasOf(set)) this.queue.addAfter(key, minReady * 1000);
  }

  /** RecheckDeletionTimestamp: the set, read fresh, is the same one and not being deleted. */
  private canAdopt(set: KObject): () => Promise<void> {
    let checked: Promise<void> | undefined;
    return () =>
      (checked ??= (async () => {
        let fresh: KObject;
        try {
          fresh = await this.client.get('apps', 'statefulsets', set.metadata.namespace!, set.metadata.name!);
        } catch (e) {
          throw new Error(`can't recheck DeletionTimestamp: ${(e as Error).message}`, { cause: e });
        }
        if (fresh.metadata.uid !== set.metadata.uid) {
          throw new Error(`can't recheck DeletionTimestamp: original StatefulSet ${set.metadata.namespace}/${set.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${set.metadata.uid}`);
        }
        if (fresh.metadata.deletionTimestamp) throw new Error(`${set.metadata.namespace}/${set.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
      })());
  }

  /** getPodsForStatefulSet: the set's pods, adopting and releasing as ClaimPods does. */
  private async claimPods(set: KObject, selector: Selector, canAdopt: () => Promise<void>): Promise<KObject[]> {
    const all = this.pods.list(set.metadata.namespace ?? '');
    const uid = set.metadata.uid!;
    const { claimed, errors } = await claimObjects(set, all, (p) => selector.matches(p.metadata.labels) && isMemberOf(set, p), {
      canAdopt,
      adopt: async (pod) => {
        await this.client.patch('', 'pods', pod.metadata.namespace!, pod.metadata.name!, (cur) => {
          if (cur.metadata.uid !== pod.metadata.uid) throw notFound({ group: '', resource: 'pods' }, pod.metadata.name!);
          cur.metadata.ownerReferences = [...((cur.metadata.ownerReferences ?? []) as OwnerReference[]).filter((r) => r.uid !== uid), newControllerRef(set, SET_API_VERSION, SET_KIND)];
          return cur;
        });
      },
      release: async (pod) => {
        try {
          await this.client.patch('', 'pods', pod.metadata.namespace!, pod.metadata.name!, (cur) => {
            const refs = ((cur.metadata.ownerReferences ?? []) as OwnerReference[]).filter((r) => r.uid !== uid);
            if (refs.length) cur.metadata.ownerReferences = refs;
            else delete cur.metadata.ownerReferences;
            return cur;
          });
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      },
    });
    if (errors.length) throw errors.length === 1 ? errors[0] : new Error(errors.map((e) => (e as Error).message).join(', '));
    return claimed;
  }
}
