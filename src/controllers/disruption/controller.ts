// The disruption controller, after kube's pkg/controller/disruption: it keeps each
// PodDisruptionBudget's status (currentHealthy, desiredHealthy, expectedPods,
// disruptionsAllowed, observedGeneration, the DisruptionAllowed condition) in step with the
// pods its selector matches. minAvailable as a number counts the matching pods; a percentage
// or maxUnavailable is resolved against the replicas of the pods' controllers (a StatefulSet
// through its informer, any other kind through its /scale subresource). Pods an eviction just
// recorded in disruptedPods count as gone for 2 minutes; entries older than that are dropped
// (with a NotDeleted event). A failure to compute sets the condition False with reason
// SyncFailed and allows no disruption. Pods left with a DisruptionTarget condition they did
// not die of get it cleared after 2 minutes.

import type { Logger } from 'pino';
import type { KObject } from '../../machinery/object.js';
import { asArr, deepEqual, isObj, str, type Obj } from '../../machinery/json-view.js';
import { nowTimestamp } from '../../machinery/meta.js';
import {
  DISRUPTION_ALLOWED,
  SYNC_FAILED,
  conditionsUpToDate,
  setStatusCondition,
  updateDisruptionAllowedCondition,
} from '../../registry/policy/poddisruptionbudgets/conditions.js';
import { QueueController } from '../framework/controller.js';
import type { ControllerClient } from '../framework/client.js';
import { EventRecorder } from '../framework/events.js';
import { keyOf, splitKey, type InformerFactory, type SharedInformer } from '../framework/informer.js';
import { RateLimitingQueue } from '../framework/workqueue.js';
import { controllerOf, isConflict, isNotFound, selectorFromObject, selectorGoString, type OwnerReference } from '../framework/owners.js';
import { scaledValue } from '../statefulset/control.js';

/** How long an eviction's entry in disruptedPods holds a pod as gone (kube's DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;
/** How long a pod keeps a DisruptionTarget condition nothing acted on. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const specOf = (o: KObject): Obj => (o.spec ?? {}) as Obj;
const statusOf = (o: KObject): Obj => (o.status ?? {}) as Obj;

function podReady(pod: KObject): boolean {
  return asArr(statusOf(pod).conditions).some((c) => isObj(c) && c.type === 'Ready' && c.status === 'True');
}

function condition(pod: KObject, type: string): Obj | undefined {
  return asArr(statusOf(pod).conditions)
    .filter(isObj)
    .find((c) => c.type === type);
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

export class DisruptionController extends QueueController {
  private readonly pdbs: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly sets: SharedInformer;
  private readonly recheck = new RateLimitingQueue<string>('disruption_recheck');
  private readonly stalePods = new RateLimitingQueue<string>('stale_pod_disruption');
  private readonly recorder: EventRecorder;

  constructor(
    informers: InformerFactory,
    private readonly client: ControllerClient,
    log: Logger,
  ) {
    super('disruption', log, 1);
    this.pdbs = informers.for('policy', 'poddisruptionbudgets');
    this.pods = informers.for('', 'pods');
    this.sets = informers.for('apps', 'statefulsets');
    this.recorder = new EventRecorder(client, 'controllermanager', log);
  }

  protected setup(): (() => void)[] {
    const enqueuePdb = (pdb: KObject): void => this.queue.add(keyOf(pdb));
    void this.recheckLoop();
    void this.staleLoop();
    return [
      this.pdbs.addEventHandler({ add: enqueuePdb, update: (_o, cur) => enqueuePdb(cur), delete: enqueuePdb }),
      this.pods.addEventHandler({
        add: (pod) => this.podChanged(pod),
        update: (_old, cur) => this.podChanged(cur),
        delete: (pod) => {
          const pdb = this.pdbForPod(pod);
          if (pdb) enqueuePdb(pdb);
        },
      }),
      () => {
        this.recheck.shutDown();
        this.stalePods.shutDown();
        this.recorder.stop();
      },
    ];
  }

  private podChanged(pod: KObject): void {
    const pdb = this.pdbForPod(pod);
    if (pdb) this.queue.add(keyOf(pdb));
    const stale = this.staleDisruptionCondition(pod);
    if (stale !== undefined) this.stalePods.addAfter(keyOf(pod), stale);
  }

  /** The recheck queue: a budget whose disruptedPods entries expire later is synced then. */
  private async recheckLoop(): Promise<void> {
    for (;;) {
      const key = await this.recheck.get();
      if (key === undefined) return;
      this.queue.addRateLimited(key);
      this.recheck.done(key);
    }
  }

  private async staleLoop(): Promise<void> {
    for (;;) {
      const key = await this.stalePods.get();
      if (key === undefined) return;
      try {
        await this.syncStalePodDisruption(key);
        this.stalePods.forget(key);
      } catch (err) {
        if (!this.stopped) {
          this.log.debug({ pod: key, err: (err as Error).message }, 'error clearing a stale DisruptionTarget condition; requeuing');
          this.stalePods.addRateLimited(key);
        }
      } finally {
        this.stalePods.done(key);
      }
    }
  }

  /** GetPodPodDisruptionBudgets, the first one (with a warning event when there are several). */
  private pdbForPod(pod: KObject): KObject | undefined {
    if (!pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) return undefined;
    const found: KObject[] = [];
    for (const pdb of this.pdbs.list(pod.metadata.namespace ?? '')) {
      let matches = false;
      try {
        const sel = selectorFromObject(specOf(pdb).selector);
        matches = !sel.empty && sel.matches(pod.metadata.labels);
      } catch {
        continue;
      }
      if (matches) found.push(pdb);
    }
    if (found.length === 0) return undefined;
    if (found.length > 1) {
      const msg = `Pod ${JSON.stringify(pod.metadata.namespace)}/${JSON.stringify(pod.metadata.name)} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(found[0]!.metadata.name)} arbitrarily.`;
      this.recorder.event(pod, 'Warning', 'MultiplePodDisruptionBudgets', msg);
    }
    return found[0];
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const pdb = this.pdbs.get(namespace, name);
    if (!pdb) return;
    try {
      await this.trySync(pdb);
    } catch (err) {
      if (isConflict(err)) throw err;
      this.log.debug({ pdb: key, err: (err as Error).message }, 'failed to sync PDB');
      await this.failSafe(pdb, (err as Error).message);
    }
  }

  private podsFor(pdb: KObject): KObject[] {
    const sel = selectorFromObject(specOf(pdb).selector);
    return this.pods.list(pdb.metadata.namespace ?? '').filter((p) => sel.matches(p.metadata.labels));
  }

  private async trySync(pdb: KObject): Promise<void> {
    let pods: KObject[];
    try {
      pods = this.podsFor(pdb);
    } catch (err) {
      this.recorder.event(pdb, 'Warning', 'NoPods', `Failed to get pods: ${(err as Error).message}`);
      throw err;
    }
    if (pods.length === 0) this.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let expected: { expectedCount: number; desiredHealthy: number; unmanaged: string[] };
    try {
      expected = await this.expectedPodCount(pdb, pods);
    } catch (err) {
      this.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(err as Error).message}`);
      throw err;
    }
    if (expected.unmanaged.length > 0) {
      this.recorder.event(
        pdb,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${selectorGoString(specOf(pdb).selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = Date.now();
    const { disrupted, recheckAt } = this.buildDisruptedPodMap(pods, pdb, now);
    const currentHealthy = countHealthy(pods, disrupted, now);
    await this.updateStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disrupted);
    if (recheckAt !== undefined) this.recheck.addAfter(keyOf(pdb), recheckAt - now);
  }

  /** getExpectedPodCount. */
  private async expectedPodCount(pdb: KObject, pods: KObject[]): Promise<{ expectedCount: number; desiredHealthy: number; unmanaged: string[] }> {
    const spec = specOf(pdb);
    let expectedCount = 0;
    let desiredHealthy = 0;
    let unmanaged: string[] = [];
    if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
      ({ expectedCount, unmanaged } = await this.expectedScale(pods));
      const maxUnavailable = scaledValue(spec.maxUnavailable, expectedCount, true);
      desiredHealthy = Math.max(0, expectedCount - maxUnavailable);
    } else if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
      if (typeof spec.minAvailable === 'number') {
        desiredHealthy = spec.minAvailable;
        expectedCount = pods.length;
      } else {
        ({ expectedCount, unmanaged } = await this.expectedScale(pods));
        desiredHealthy = scaledValue(spec.minAvailable, expectedCount, true);
      }
    }
    return { expectedCount, desiredHealthy, unmanaged };
  }

  /** getExpectedScale: the replicas of every controller of the pods, each counted once. */
  private async expectedScale(pods: KObject[]): Promise<{ expectedCount: number; unmanaged: string[] }> {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (!ref) {
        unmanaged.push(pod.metadata.name ?? '');
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const found = (await this.statefulSetScale(ref, pod.metadata.namespace ?? '')) ?? (await this.scaleOf(ref, pod.metadata.namespace ?? ''));
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name)}`);
      scales.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const s of scales.values()) expectedCount += s;
    return { expectedCount, unmanaged };
  }

  /** getPodStatefulSet. */
  private async statefulSetScale(ref: OwnerReference, namespace: string): Promise<{ uid: string; scale: number } | undefined> {
    if (ref.kind !== 'StatefulSet' || groupOf(ref.apiVersion) !== 'apps') return undefined;
    const set = this.sets.get(namespace, ref.name);
    if (!set || set.metadata.uid !== ref.uid) return undefined;
    return { uid: set.metadata.uid!, scale: typeof specOf(set).replicas === 'number' ? (specOf(set).replicas as number) : 1 };
  }

  /** getScaleController: any other kind through its /scale subresource. */
  private async scaleOf(ref: OwnerReference, namespace: string): Promise<{ uid: string; scale: number } | undefined> {
    const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/', 2) : ['', ref.apiVersion];
    if (!version || ref.apiVersion.split('/').length > 2) throw new Error(`unexpected GroupVersion string: ${ref.apiVersion}`);
    const store = this.client.stores().find((s) => s.def.group === group && s.def.kind === ref.kind && s.def.version === version);
    if (!store) throw new Error(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}`);
    const scaleRest = store.subresourceREST('scale');
    if (!scaleRest) throw new Error(`${store.def.group ? `${store.def.resource}.${store.def.group}` : store.def.resource} does not implement the scale subresource`);
    let scale: Record<string, unknown>;
    try {
      scale = await scaleRest.get(store.def.namespaced ? namespace : '', ref.name);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
    const meta = (scale.metadata ?? {}) as Obj;
    if (meta.uid !== ref.uid) return undefined;
    return { uid: str(meta.uid), scale: num((scale.spec as Obj | undefined)?.replicas) };
  }

  /** buildDisruptedPodMap: entries of live pods not yet expired; the earliest expiry to recheck at. */
  private buildDisruptedPodMap(pods: KObject[], pdb: KObject, now: number): { disrupted: Record<string, string>; recheckAt?: number } {
    const recorded = statusOf(pdb).disruptedPods;
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    if (!isObj(recorded)) return { disrupted };
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const at = recorded[pod.metadata.name ?? ''];
      if (typeof at !== 'string') continue;
      const expected = Date.parse(at) + DELETION_TIMEOUT_MS;
      if (expected < now) {
        this.recorder.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`);
      } else {
        if (recheckAt === undefined || expected < recheckAt) recheckAt = expected;
        disrupted[pod.metadata.name!] = at;
      }
    }
    return { disrupted, recheckAt };
  }

  private async failSafe(pdb: KObject, message: string): Promise<void> {
    const status = structuredClone(statusOf(pdb));
    status.disruptionsAllowed = 0;
    setStatusCondition(status, { type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message, observedGeneration: num(status.observedGeneration) });
    await this.writeStatus(pdb, status);
  }

  private async updateStatus(pdb: KObject, currentHealthy: number, desiredHealthy: number, expectedCount: number, disrupted: Record<string, string>): Promise<void> {
    let allowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || allowed <= 0) allowed = 0;
    const st = statusOf(pdb);
    const generation = pdb.metadata.generation ?? 0;
    if (
      num(st.currentHealthy) === currentHealthy &&
      num(st.desiredHealthy) === desiredHealthy &&
      num(st.expectedPods) === expectedCount &&
      num(st.disruptionsAllowed) === allowed &&
      deepEqual(isObj(st.disruptedPods) ? st.disruptedPods : {}, disrupted) &&
      num(st.observedGeneration) === generation &&
      conditionsUpToDate(st, generation)
    ) {
      return;
    }
    const status: Obj = {};
    if (Object.keys(disrupted).length) status.disruptedPods = disrupted;
    status.disruptionsAllowed = allowed;
    status.currentHealthy = currentHealthy;
    status.desiredHealthy = desiredHealthy;
    status.expectedPods = expectedCount;
    if (generation) status.observedGeneration = generation;
    if (st.conditions !== undefined) status.conditions = structuredClone(st.conditions);
    updateDisruptionAllowedCondition(status);
    await this.writeStatus(pdb, status);
  }

  /** UpdateStatus with the budget's resourceVersion: a concurrent eviction makes it a conflict, retried. */
  private async writeStatus(pdb: KObject, status: Obj): Promise<void> {
    const next = structuredClone(pdb);
    next.status = status;
    await this.client.update('policy', 'poddisruptionbudgets', next, 'status');
  }

  /** How long until a pod's DisruptionTarget condition counts as stale (undefined: it has none to clear). */
  private staleDisruptionCondition(pod: KObject): number | undefined {
    if (pod.metadata.deletionTimestamp) return undefined;
    const c = condition(pod, 'DisruptionTarget');
    const phase = str(statusOf(pod).phase);
    if (!c || c.status !== 'True' || c.reason === 'TerminationByKubelet' || phase === 'Succeeded' || phase === 'Failed') return undefined;
    const since = Date.now() - Date.parse(str(c.lastTransitionTime));
    return Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - (Number.isFinite(since) ? since : 0));
  }

  private async syncStalePodDisruption(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const pod = this.pods.get(namespace, name);
    if (!pod) return;
    const wait = this.staleDisruptionCondition(pod);
    if (wait === undefined) return;
    if (wait > 0) {
      this.stalePods.addAfter(key, wait);
      return;
    }
    await this.client.patch(
      '',
      'pods',
      namespace,
      name,
      (cur) => {
        const conds = asArr(statusOf(cur).conditions).filter(isObj);
        const i = conds.findIndex((c) => c.type === 'DisruptionTarget');
        if (i < 0 || conds[i]!.status === 'False') return cur;
        conds[i] = { type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: nowTimestamp() };
        (cur.status ??= {}).conditions = conds;
        return cur;
      },
      'status',
    );
  }
}

/** countHealthyPods: ready pods not being deleted and not just evicted. */
function countHealthy(pods: KObject[], disrupted: Record<string, string>, now: number): number {
  let n = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name ?? ''];
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > now) continue;
    if (podReady(pod)) n++;
  }
  return n;
}
