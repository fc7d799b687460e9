// One sync of one StatefulSet, after kube's defaultStatefulSetControl
// (pkg/controller/statefulset/stateful_set_control.go) and StatefulPodControl
// (stateful_pod_control.go): find or make the current and update revisions, bring the pods
// in [start, start+replicas) into being in ordinal order (OrderedReady: one at a time, each
// waiting for its predecessors to be Running, Ready and available; Parallel: in doubling
// batches), remove the condemned ones from the top, roll the update from the highest ordinal
// down to the partition, write the status, and prune the history.

import type { Logger } from 'pino';
import type { KObject } from '../../machinery/object.js';
import { asArr, isObj, str, type Obj } from '../../machinery/json-view.js';
import { featureEnabled } from '../../machinery/feature-gates.js';
import { StatusError } from '../../machinery/errors.js';
import type { ControllerClient } from '../framework/client.js';
import type { EventRecorder } from '../framework/events.js';
import type { SharedInformer } from '../framework/informer.js';
import type { ControllerExpectations } from '../framework/expectations.js';
import { controllerOf, isAlreadyExists, isConflict, isNotFound, newControllerRef, selectorFromObject } from '../framework/owners.js';
import {
  SET_API_VERSION,
  SET_KIND,
  applyRevision,
  claimOwnerUpToDate,
  claimsFor,
  endOrdinal,
  equalRevision,
  hasStaleOwnerRef,
  hasUnexpectedController,
  identityMatches,
  inOrdinalRange,
  isAvailable,
  isCreated,
  isFailed,
  isHealthy,
  isPending,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  newRevision,
  newSetPod,
  ordinalOf,
  ownedOrOrphan,
  podRevision,
  replicasOf,
  retentionPolicy,
  revisionData,
  revisionName,
  hashRevision,
  revisionNumber,
  setPodRevision,
  sortRevisions,
  specOf,
  startOrdinal,
  statusOf,
  storageMatches,
  templatePatch,
  updateClaimOwnerRefs,
  updateIdentity,
  updateStorage,
} from './utils.js';

/** A realistic bound on writes in flight in Parallel mode (kube's MaxBatchSize). */
const MAX_BATCH = 500;

/** The most missing ordinals one sync lays out (and may create, with the Parallel policy). */
const MAX_NEW_PODS_PER_SYNC = 500;

/** utilerrors.NewAggregate's text: one error as itself, several in brackets. */
export class AggregateError extends Error {
  constructor(readonly errors: unknown[]) {
    super(errors.length === 1 ? msg(errors[0]) : `[${errors.map(msg).join(', ')}]`);
  }
}

const msg = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function aggregate(errors: unknown[]): unknown {
  return errors.length === 1 ? errors[0] : new AggregateError(errors);
}

export interface SetStatus {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  availableReplicas: number;
}

/** The status as the API keeps it (kube's omitempty fields left out when zero). */
export function statusObject(s: SetStatus): Obj {
  const o: Obj = {};
  if (s.observedGeneration) o.observedGeneration = s.observedGeneration;
  o.replicas = s.replicas;
  if (s.readyReplicas) o.readyReplicas = s.readyReplicas;
  if (s.currentReplicas) o.currentReplicas = s.currentReplicas;
  if (s.updatedReplicas) o.updatedReplicas = s.updatedReplicas;
  if (s.currentRevision) o.currentRevision = s.currentRevision;
  if (s.updateRevision) o.updateRevision = s.updateRevision;
  o.collisionCount = s.collisionCount;
  o.availableReplicas = s.availableReplicas;
  return o;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** slowStartBatch: 1, 2, 4, ... at a time (at most 500); stops after a batch with errors. */
async function slowStartBatch(count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  let remaining = count;
  for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining, MAX_BATCH)) {
    const runs: Promise<unknown>[] = [];
    for (let i = 0; i < batch; i++) runs.push(fn(next++));
    const errors = (await Promise.allSettled(runs)).filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    if (errors.length) throw aggregate(errors);
    remaining -= batch;
  }
}

/** runForAll: in order, stopping at the first that asks to (monotonic), or in slow-start batches. */
async function runForAll(n: number, fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < n; i++) if (await fn(i)) return true;
    return false;
  }
  await slowStartBatch(n, fn);
  return false;
}

export interface ControlDeps {
  client: ControllerClient;
  recorder: EventRecorder;
  pods: SharedInformer;
  claims: SharedInformer;
  revisions: SharedInformer;
  expectations: ControllerExpectations;
  log: Logger;
}

export class StatefulSetControl {
  constructor(private readonly d: ControlDeps) {}

  // ---- pods and claims (StatefulPodControl) ----

  private podEvent(verb: string, set: KObject, pod: KObject, err?: unknown): void {
    const title = verb[0]!.toUpperCase() + verb.slice(1);
    if (err === undefined) this.d.recorder.event(set, 'Normal', `Successful${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    else this.d.recorder.event(set, 'Warning', `Failed${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${msg(err)}`);
  }

  private claimEvent(verb: string, set: KObject, pod: KObject, claim: KObject, err?: unknown): void {
    const title = verb[0]!.toUpperCase() + verb.slice(1);
    if (err === undefined) {
      this.d.recorder.event(set, 'Normal', `Successful${title}`, `${verb} Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
    } else {
      this.d.recorder.event(set, 'Warning', `Failed${title}`, `${verb} Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${msg(err)}`);
    }
  }

  private getClaim(namespace: string, name: string): KObject | undefined {
    return this.d.claims.get(namespace, name);
  }

  /** createPersistentVolumeClaims: the pod's missing claims; a claim being deleted is an error. */
  private async createClaims(set: KObject, pod: KObject): Promise<void> {
    const errors: unknown[] = [];
    for (const { claim } of claimsFor(set, pod)) {
      const existing = this.getClaim(claim.metadata.namespace!, claim.metadata.name!);
      if (!existing) {
        try {
          await this.d.client.create('', 'persistentvolumeclaims', claim);
          this.claimEvent('create', set, pod, claim);
        } catch (e) {
          errors.push(new Error(`failed to create PVC ${claim.metadata.name}: ${msg(e)}`));
          if (!isAlreadyExists(e)) this.claimEvent('create', set, pod, claim, e);
        }
      } else if (existing.metadata.deletionTimestamp) {
        errors.push(new Error(`pvc ${claim.metadata.name} is being deleted`));
      }
    }
    if (errors.length) throw aggregate(errors);
  }

  /** ClaimsMatchRetentionPolicy. */
  private claimsMatchPolicy(set: KObject, pod: KObject): boolean {
    for (const { claim } of claimsFor(set, pod)) {
      const c = this.getClaim(claim.metadata.namespace!, claim.metadata.name!);
      if (c && !claimOwnerUpToDate(c, set, pod)) return false;
    }
    return true;
  }

  /** UpdatePodClaimForRetentionPolicy. */
  private async updateClaimsForPolicy(set: KObject, pod: KObject): Promise<void> {
    for (const { claim } of claimsFor(set, pod)) {
      const c = this.getClaim(claim.metadata.namespace!, claim.metadata.name!);
      if (!c) continue;
      if (hasUnexpectedController(c, set, pod)) {
        this.d.recorder.event(
          set,
          'Warning',
          'ConflictingController',
          `PersistentVolumeClaim ${claim.metadata.name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`,
        );
      }
      if (claimOwnerUpToDate(c, set, pod)) continue;
      try {
        await this.d.client.patch('', 'persistentvolumeclaims', c.metadata.namespace!, c.metadata.name!, (cur) => {
          updateClaimOwnerRefs(cur, set, pod);
          return cur;
        });
      } catch (e) {
        throw new Error(`could not update claim ${c.metadata.name} for delete policy ownerRefs: ${msg(e)}`, { cause: e });
      }
    }
  }

  /** PodClaimIsStale: a claim left over from an earlier pod of that name blocks the new one. */
  private podClaimIsStale(set: KObject, pod: KObject): boolean {
    if (retentionPolicy(set).whenScaled === 'Retain') return false;
    for (const { claim } of claimsFor(set, pod)) {
      const c = this.getClaim(claim.metadata.namespace!, claim.metadata.name!);
      if (c && hasStaleOwnerRef(c, pod, false)) return true;
    }
    return false;
  }

  private async createPod(key: string, set: KObject, pod: KObject): Promise<void> {
    try {
      await this.createClaims(set, pod);
    } catch (e) {
      this.podEvent('create', set, pod, e);
      throw e;
    }
    this.d.expectations.raise(key, 1, 0);
    let created: KObject;
    try {
      created = await this.d.client.create('', 'pods', structuredClone(pod));
    } catch (e) {
      this.d.expectations.creationObserved(key);
      if (isAlreadyExists(e)) throw e;
      this.podEvent('create', set, pod, e);
      throw e;
    }
    try {
      await this.updateClaimsForPolicy(set, created);
    } catch (e) {
      this.podEvent('update', set, pod, e);
      throw e;
    }
    this.podEvent('create', set, pod);
  }

  private async deletePod(key: string, set: KObject, pod: KObject): Promise<void> {
    this.d.expectations.raise(key, 0, 1);
    try {
      await this.d.client.delete('', 'pods', pod.metadata.namespace!, pod.metadata.name!, {});
    } catch (e) {
      this.d.expectations.deletionObserved(key);
      this.podEvent('delete', set, pod, e);
      throw e;
    }
    this.podEvent('delete', set, pod);
  }

  /** UpdateStatefulPod: identity, storage and claim ownership put right, retried on conflicts. */
  private async updatePod(set: KObject, original: KObject): Promise<void> {
    let pod = structuredClone(original);
    let attempted = false;
    let lastErr: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      let consistent = true;
      if (!identityMatches(set, pod)) {
        updateIdentity(set, pod);
        consistent = false;
      }
      try {
        if (!storageMatches(set, pod)) {
          updateStorage(set, pod);
          consistent = false;
          await this.createClaims(set, pod);
        }
        if (!this.claimsMatchPolicy(set, pod)) {
          await this.updateClaimsForPolicy(set, pod);
          consistent = false;
        }
      } catch (e) {
        this.podEvent('update', set, pod, e);
        throw e;
      }
      if (consistent) return;
      attempted = true;
      try {
        await this.d.client.update('', 'pods', pod);
        this.podEvent('update', set, pod);
        return;
      } catch (e) {
        lastErr = e;
        if (!isConflict(e)) break;
        const fresh = this.d.pods.get(set.metadata.namespace!, pod.metadata.name!);
        if (fresh) pod = structuredClone(fresh);
      }
    }
    if (attempted) this.podEvent('update', set, pod, lastErr);
    throw lastErr;
  }

  // ---- revisions (controller/history) ----

  private listRevisions(set: KObject): KObject[] {
    const sel = selectorFromObject(specOf(set).selector);
    return this.d.revisions.list(set.metadata.namespace!).filter((r) => sel.matches(r.metadata.labels) && ownedOrOrphan(r, set));
  }

  /** AdoptOrphanRevisions: revisions the selector matches that nobody controls. */
  async adoptOrphanRevisions(set: KObject, canAdopt: () => Promise<void>): Promise<void> {
    const orphans = this.listRevisions(set).filter((r) => !controllerOf(r));
    if (orphans.length === 0) return;
    try {
      await canAdopt();
    } catch (e) {
      throw new Error(`can't adopt ControllerRevisions: ${msg(e)}`, { cause: e });
    }
    for (const r of orphans) {
      await this.d.client.patch('apps', 'controllerrevisions', r.metadata.namespace!, r.metadata.name!, (cur) => {
        if (cur.metadata.uid !== r.metadata.uid) throw new StatusError(409, 'Conflict', 'the revision was replaced');
        if (controllerOf(cur)) throw new Error(`attempt to adopt revision owned by ${JSON.stringify(controllerOf(cur))}`);
        cur.metadata.ownerReferences = [...asArr(cur.metadata.ownerReferences).filter((o) => isObj(o) && o.uid !== set.metadata.uid), newControllerRef(set, SET_API_VERSION, SET_KIND)];
        return cur;
      });
    }
  }

  /** CreateControllerRevision: a name taken by other data bumps the collision count and tries again. */
  private async createRevision(set: KObject, rev: KObject, collision: { count: number }): Promise<KObject> {
    const raw = templatePatch(set);
    for (;;) {
      const hash = hashRevision(raw, collision.count);
      const candidate = structuredClone(rev);
      candidate.metadata.name = revisionName(set.metadata.name!, hash);
      // The hash label keeps what newRevision computed (with the count it started with), as kube's does.
      try {
        return await this.d.client.create('apps', 'controllerrevisions', candidate);
      } catch (e) {
        if (!isAlreadyExists(e)) throw e;
        const existing = await this.d.client.get('apps', 'controllerrevisions', set.metadata.namespace!, candidate.metadata.name!);
        if (revisionData(existing) === revisionData(candidate)) return existing;
        collision.count++;
      }
    }
  }

  /** UpdateControllerRevision: a revision brought back gets the next revision number. */
  private async bumpRevision(rev: KObject, revision: number): Promise<KObject> {
    if (revisionNumber(rev) === revision) return rev;
    return this.d.client.patch('apps', 'controllerrevisions', rev.metadata.namespace!, rev.metadata.name!, (cur) => {
      cur.revision = revision;
      return cur;
    });
  }

  /** getStatefulSetRevisions. */
  private async revisionsOf(set: KObject, revisions: KObject[]): Promise<{ current: KObject; update: KObject; collisionCount: number }> {
    const collision = { count: num(statusOf(set).collisionCount) };
    const next = revisions.length ? revisionNumber(revisions[revisions.length - 1]!) + 1 : 1;
    let update = newRevision(set, next, collision.count);
    const equal = revisions.filter((r) => equalRevision(r, update));
    if (equal.length > 0 && equalRevision(revisions[revisions.length - 1]!, equal[equal.length - 1]!)) {
      update = revisions[revisions.length - 1]!;
    } else if (equal.length > 0) {
      update = await this.bumpRevision(equal[equal.length - 1]!, revisionNumber(update));
    } else {
      update = await this.createRevision(set, update, collision);
    }
    const currentName = str(statusOf(set).currentRevision);
    const current = revisions.find((r) => r.metadata.name === currentName) ?? update;
    return { current, update, collisionCount: collision.count };
  }

  /** truncateHistory: revisions no pod and neither status revision uses, beyond the limit, oldest first. */
  private async truncateHistory(set: KObject, pods: KObject[], revisions: KObject[], current?: KObject, update?: KObject): Promise<void> {
    const live = new Set<string>();
    if (current) live.add(current.metadata.name!);
    if (update) live.add(update.metadata.name!);
    for (const p of pods) live.add(podRevision(p));
    const history = revisions.filter((r) => !live.has(r.metadata.name!));
    const limit = typeof specOf(set).revisionHistoryLimit === 'number' ? (specOf(set).revisionHistoryLimit as number) : 10;
    if (limit < 0 || history.length <= limit) return;
    for (const r of history.slice(0, history.length - limit)) {
      try {
        await this.d.client.delete('apps', 'controllerrevisions', r.metadata.namespace!, r.metadata.name!, {});
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  // ---- the sync ----

  /** UpdateStatefulSet: answers the status written (or that would have been). */
  async updateStatefulSet(key: string, set: KObject, pods: KObject[]): Promise<SetStatus | undefined> {
    const revisions = sortRevisions(this.listRevisions(set));
    let current: KObject | undefined;
    let update: KObject | undefined;
    let status: SetStatus | undefined;
    let failure: unknown;
    try {
      const r = await this.revisionsOf(set, revisions);
      current = r.current;
      update = r.update;
      let syncErr: unknown;
      try {
        status = await this.syncPods(key, set, r.current, r.update, r.collisionCount, pods);
      } catch (e) {
        syncErr = e;
        status = (e as { status?: SetStatus }).status;
        if (!status) throw e;
      }
      let statusErr: unknown;
      try {
        await this.writeStatus(set, status);
      } catch (e) {
        statusErr = e;
      }
      if (syncErr) throw syncErr;
      if (statusErr) throw statusErr;
    } catch (e) {
      failure = e;
    }
    try {
      await this.truncateHistory(set, pods, revisions, current, update);
    } catch (e) {
      failure = failure ? new AggregateError([failure, e]) : e;
    }
    if (failure) throw failure;
    return status;
  }

  /** updateStatefulSetStatus: complete a finished rolling update, write only a changed status. */
  private async writeStatus(set: KObject, status: SetStatus): Promise<void> {
    const st = statusOf(set);
    const spec = specOf(set);
    const replicas = replicasOf(set);
    if (str((spec.updateStrategy as Obj | undefined)?.type) === 'RollingUpdate' && status.updatedReplicas === replicas && status.readyReplicas === replicas && status.replicas === replicas) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    const inconsistent =
      status.observedGeneration > num(st.observedGeneration) ||
      status.replicas !== num(st.replicas) ||
      status.currentReplicas !== num(st.currentReplicas) ||
      status.readyReplicas !== num(st.readyReplicas) ||
      status.updatedReplicas !== num(st.updatedReplicas) ||
      status.currentRevision !== str(st.currentRevision) ||
      status.availableReplicas !== num(st.availableReplicas) ||
      status.updateRevision !== str(st.updateRevision);
    if (!inconsistent) return;
    const body = statusObject(status);
    await this.d.client.patch(
      'apps',
      'statefulsets',
      set.metadata.namespace!,
      set.metadata.name!,
      (cur) => {
        cur.status = structuredClone(body);
        return cur;
      },
      'status',
    );
  }

  /** updateStatefulSet: the pods brought towards the set's wanted state; answers the status. */
  private async syncPods(key: string, set: KObject, currentRevision: KObject, updateRevision: KObject, collisionCount: number, pods: KObject[]): Promise<SetStatus> {
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const spec = specOf(set);
    const minReady = num(spec.minReadySeconds);
    const status: SetStatus = {
      observedGeneration: set.metadata.generation ?? 0,
      currentRevision: currentRevision.metadata.name!,
      updateRevision: updateRevision.metadata.name!,
      collisionCount,
      replicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
    };
    const recount = (...lists: KObject[][]): void => {
      status.replicas = status.readyReplicas = status.availableReplicas = status.currentReplicas = status.updatedReplicas = 0;
      for (const list of lists) {
        for (const pod of list) {
          if (isCreated(pod)) status.replicas++;
          if (isRunningAndReady(pod)) {
            status.readyReplicas++;
            if (isAvailable(pod, minReady)) status.availableReplicas++;
          }
          if (isCreated(pod) && !isTerminating(pod)) {
            const rev = podRevision(pod);
            if (rev === currentRevision.metadata.name) status.currentReplicas++;
            if (rev === updateRevision.metadata.name) status.updatedReplicas++;
          }
        }
      }
    };
    recount(pods);

    const start = startOrdinal(set);
    const end = endOrdinal(set);
    // kube's controller lays out every ordinal of the set in memory at once; with the controllers
    // inside the API server, a set of 2^31-1 replicas (valid) would stall the node for good. A
    // sync takes the ordinals up to MAX_NEW_PODS_PER_SYNC past the highest pod the set has: the
    // pods it creates bring the next sync, which goes on from there.
    let highest = start - 1;
    for (const pod of pods) if (inOrdinalRange(pod, set)) highest = Math.max(highest, ordinalOf(pod));
    const last = Math.min(end, highest + MAX_NEW_PODS_PER_SYNC);
    const replicas: KObject[] = new Array<KObject>(Math.max(0, last - start + 1));
    const condemned: KObject[] = [];
    for (const pod of pods) {
      if (inOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
      else if (ordinalOf(pod) >= 0) condemned.push(pod);
    }
    for (let ord = start; ord <= last; ord++) {
      if (replicas[ord - start]) continue;
      replicas[ord - start] = this.newVersionedPod(currentSet, updateSet, currentRevision.metadata.name!, updateRevision.metadata.name!, ord);
    }
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    let firstUnhealthy: KObject | undefined;
    for (const p of replicas) if (!isHealthy(p)) firstUnhealthy ??= p;
    for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i]!)) firstUnhealthy ??= condemned[i];

    if (set.metadata.deletionTimestamp) return status;
    const monotonic = str(spec.podManagementPolicy) !== 'Parallel';
    const withStatus = (e: unknown): unknown => {
      recount(replicas, condemned);
      const err = e instanceof Error ? e : new Error(msg(e));
      (err as Error & { status?: SetStatus }).status = status;
      return err;
    };

    try {
      if (await runForAll(replicas.length, (i) => this.processReplica(key, set, updateSet, monotonic, replicas, i), monotonic)) {
        recount(replicas, condemned);
        return status;
      }
      const fixClaims = async (i: number): Promise<boolean> => {
        const pod = condemned[i]!;
        if (!this.claimsMatchPolicy(updateSet, pod)) await this.updateClaimsForPolicy(updateSet, pod);
        return false;
      };
      if (await runForAll(condemned.length, fixClaims, monotonic)) {
        recount(replicas, condemned);
        return status;
      }
      if (await runForAll(condemned.length, (i) => this.processCondemned(key, set, firstUnhealthy, monotonic, condemned, i), monotonic)) {
        recount(replicas, condemned);
        return status;
      }
    } catch (e) {
      throw withStatus(e);
    }
    recount(replicas, condemned);

    const strategy = (spec.updateStrategy ?? {}) as Obj;
    if (str(strategy.type) === 'OnDelete') return status;
    const rolling = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : undefined;
    const updateMin = num(rolling?.partition);
    try {
      if (featureEnabled('MaxUnavailableStatefulSet')) {
        await this.rollWithMaxUnavailable(key, set, replicas, updateRevision, status, rolling);
        return status;
      }
      for (let target = replicas.length - 1; target >= updateMin; target--) {
        const pod = replicas[target]!;
        if (await this.deleteOutdated(key, set, pod, updateRevision)) {
          status.currentReplicas--;
          return status;
        }
        if (!isHealthy(pod)) return status;
      }
    } catch (e) {
      const err = e instanceof Error ? e : new Error(msg(e));
      (err as Error & { status?: SetStatus }).status = status;
      throw err;
    }
    return status;
  }

  /** updateStatefulSetAfterInvariantEstablished: up to maxUnavailable pods replaced at once. */
  private async rollWithMaxUnavailable(key: string, set: KObject, replicas: KObject[], updateRevision: KObject, status: SetStatus, rolling: Obj | undefined): Promise<void> {
    const count = replicasOf(set);
    let updateMin = 0;
    let maxUnavailable = 1;
    if (rolling) {
      updateMin = num(rolling.partition);
      maxUnavailable = scaledValue(rolling.maxUnavailable ?? 1, count, false);
      if (maxUnavailable < 1) maxUnavailable = 1;
    }
    const unavailable = replicas.filter((p) => !isHealthy(p)).length;
    if (unavailable >= maxUnavailable) return;
    const toDelete = maxUnavailable - unavailable;
    let deleted = 0;
    for (let target = replicas.length - 1; target >= updateMin && deleted < toDelete; target--) {
      const pod = replicas[target]!;
      if (await this.deleteOutdated(key, set, pod, updateRevision)) {
        deleted++;
        status.currentReplicas--;
      }
    }
  }

  /** Deletes a live replica of an older revision, to be recreated at `updateRevision`; whether it was one (already gone counts). */
  private async deleteOutdated(key: string, set: KObject, pod: KObject, updateRevision: KObject): Promise<boolean> {
    if (podRevision(pod) === updateRevision.metadata.name || isTerminating(pod)) return false;
    try {
      await this.deletePod(key, set, pod);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    return true;
  }

  /** newVersionedStatefulSetPod: below the partition (or the current count) at the current revision. */
  private newVersionedPod(currentSet: KObject, updateSet: KObject, currentRevision: string, updateRevision: string, ordinal: number): KObject {
    const strategy = (specOf(currentSet).updateStrategy ?? {}) as Obj;
    const rolling = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : undefined;
    const start = startOrdinal(currentSet);
    const atCurrent =
      (str(strategy.type) === 'RollingUpdate' && !rolling && ordinal < start + num(statusOf(currentSet).currentReplicas)) ||
      (rolling !== undefined && ordinal < start + num(rolling.partition));
    const pod = newSetPod(atCurrent ? currentSet : updateSet, ordinal);
    setPodRevision(pod, atCurrent ? currentRevision : updateRevision);
    return pod;
  }

  /** processReplica: answers whether the sync should stop here. */
  private async processReplica(key: string, set: KObject, updateSet: KObject, monotonic: boolean, replicas: KObject[], i: number): Promise<boolean> {
    const pod = replicas[i]!;
    if (isFailed(pod) || isSucceeded(pod)) {
      if (!pod.metadata.deletionTimestamp) await this.deletePod(key, set, pod);
      return true;
    }
    if (!isCreated(pod)) {
      if (this.podClaimIsStale(set, pod)) return true;
      await this.createPod(key, set, pod);
      if (monotonic) return true;
    }
    if (isPending(pod)) {
      // createMissingPersistentVolumeClaims: claims deleted under a pending pod come back.
      await this.createClaims(set, pod);
      try {
        await this.updateClaimsForPolicy(set, pod);
      } catch (e) {
        this.podEvent('update', set, pod, e);
        throw e;
      }
    }
    if (isTerminating(pod) && monotonic) return true;
    if (!isRunningAndReady(pod) && monotonic) return true;
    if (!isAvailable(pod, num(specOf(set).minReadySeconds)) && monotonic) return true;
    if (!isCreated(pod)) return false;
    const retentionMatch = this.claimsMatchPolicy(updateSet, pod);
    if (identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch) return false;
    await this.updatePod(updateSet, pod);
    return false;
  }

  /** processCondemned: scale down from the top; monotonic waits for the others to be healthy. */
  private async processCondemned(key: string, set: KObject, firstUnhealthy: KObject | undefined, monotonic: boolean, condemned: KObject[], i: number): Promise<boolean> {
    const pod = condemned[i]!;
    if (isTerminating(pod)) return monotonic;
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return true;
    if (!isAvailable(pod, num(specOf(set).minReadySeconds)) && monotonic && pod !== firstUnhealthy) return true;
    await this.deletePod(key, set, pod);
    return true;
  }
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const s = String(v);
  if (!s.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const digits = s.slice(0, -1);
  if (!/^[+-]?[0-9]+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(s)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
  const pct = Number(digits);
  return roundUp ? Math.ceil((pct * total) / 100) : Math.floor((pct * total) / 100);
}
