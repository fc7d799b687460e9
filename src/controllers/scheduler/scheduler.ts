// The scheduler (kube-scheduler's default profile, kept simple): it runs in-process under the
// controller manager, so exactly one runs in a cluster (as kube-scheduler runs leader-elected)
// whichever agents run where, and it reads the same caches the controllers read.
//
// Pods whose schedulerName is default-scheduler, unbound, not terminating, not gated, wait in a
// queue ordered by priority and then by arrival. One at a time, a pod's volumes are checked
// (kube's VolumeBinding PreFilter: claims that exist, immediate claims bound), each node is
// filtered (fit.ts), and the feasible node with the fewest pods wins. The pod is assumed there
// at once (so the next pods count it), its WaitForFirstConsumer claims get the selected-node
// annotation and are waited for until the volume controller has bound them, then it is bound
// through pods/binding and a `Scheduled` event written. A pod that fits nowhere gets
// PodScheduled=False, reason Unschedulable, kube's message and a `FailedScheduling` event, and
// waits until a node, pod or volume changes (or 5 minutes pass), retried with kube's back-off
// (1 s doubling to 10 s).

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { nowTimestamp } from '../../machinery/meta.js';
import { asArr, asObj, str, type Obj } from '../../machinery/json-view.js';
import { EventsRecorder, refOf } from '../../client/events.js';
import { podBinding } from '../../registry/core/pods/binding.js';
import { storeEventSink } from '../event-sink.js';
import type { SharedInformer } from '../framework/informer.js';
import { informersOf, type Controller, type ControllerContext } from '../manager.js';
import { emptyUsage, filterNode, fitErrorMessage, nodeSelectorMatches, podRequests, type Failure, type NodeUsage } from './fit.js';
import { hostPorts } from '../../machinery/host-ports.js';

export const SCHEDULER_NAME = 'default-scheduler';
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';
const MANAGER = 'kube-scheduler';
const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 10_000;
const MAX_UNSCHEDULABLE_MS = 5 * 60_000;
const BIND_TIMEOUT_MS = 600_000;

export interface SchedulerStores {
  pods: GenericStore;
  nodes: GenericStore;
  claims: GenericStore;
  volumes: GenericStore;
  classes: GenericStore;
  /** events.k8s.io/v1 Events: kube-scheduler writes the new API's events. */
  events: GenericStore;
}

interface Queued {
  namespace: string;
  name: string;
  uid: string;
  priority: number;
  seq: number;
  attempts: number;
  readyAt: number;
  /** Set while it waits for a change (unschedulable), with the time it started waiting. */
  unschedulableSince?: number;
}

interface Counted {
  node: string;
  requests: Map<string, number>;
  ports: string[];
}

const meta = (o: Obj): Obj => asObj(o.metadata) ?? {};
const spec = (o: Obj): Obj => asObj(o.spec) ?? {};
const uidOf = (o: Obj): string => str(meta(o).uid);
const terminal = (p: Obj): boolean => ['Succeeded', 'Failed'].includes(str(asObj(p.status)?.phase));

/** Whether the scheduler should place this pod. */
export function needsScheduling(p: Obj): boolean {
  const s = spec(p);
  return (
    !str(s.nodeName) &&
    (str(s.schedulerName) || SCHEDULER_NAME) === SCHEDULER_NAME &&
    !meta(p).deletionTimestamp &&
    !terminal(p) &&
    asArr(s.schedulingGates).length === 0
  );
}

/** A pod's claims, by the names its volumes use. */
function claimNames(pod: Obj): { name: string; ephemeral: boolean }[] {
  const out: { name: string; ephemeral: boolean }[] = [];
  for (const v of asArr(spec(pod).volumes).map(asObj)) {
    if (!v) continue;
    const pvc = asObj(v.persistentVolumeClaim);
    if (pvc) out.push({ name: str(pvc.claimName), ephemeral: false });
    else if (asObj(v.ephemeral)) out.push({ name: `${str(meta(pod).name)}-${str(v.name)}`, ephemeral: true });
  }
  return out;
}

interface VolumePlan {
  /** Kube's PreFilter answer when the pod cannot be scheduled anywhere now. */
  preFilter?: string;
  /** Bound claims' volumes (their node affinity must hold). */
  boundVolumes: Obj[];
  /** Claims to provision on the chosen node (WaitForFirstConsumer). */
  delayed: Obj[];
}

export class Scheduler implements Controller {
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly claims: SharedInformer;
  private readonly volumes: SharedInformer;
  private readonly classes: SharedInformer;
  private readonly recorder: EventsRecorder;
  private readonly queue = new Map<string, Queued>();
  private readonly inFlight = new Set<string>();
  private readonly counted = new Map<string, Counted>();
  private readonly usage = new Map<string, NodeUsage>();
  private readonly claimWaiters = new Set<() => void>();
  private readonly cleanups: (() => void)[] = [];
  private seq = 0;
  private timer?: NodeJS.Timeout;
  private flushTimer?: NodeJS.Timeout;
  private pumping = false;
  private stopped = false;
  private readonly log: Logger;

  constructor(
    stores: SchedulerStores,
    private readonly ctx: ControllerContext,
    instance: string,
  ) {
    this.log = ctx.log.child({ controller: 'scheduler' });
    this.pods = informersOf(ctx).of(stores.pods);
    this.nodes = informersOf(ctx).of(stores.nodes);
    this.claims = informersOf(ctx).of(stores.claims);
    this.volumes = informersOf(ctx).of(stores.volumes);
    this.classes = informersOf(ctx).of(stores.classes);
    this.recorder = new EventsRecorder(storeEventSink(stores.events, MANAGER, () => !this.stopped && ctx.leading()), SCHEDULER_NAME, `${SCHEDULER_NAME}-${instance}`, {
      log: this.log,
      qps: 1000,
      burst: 1000,
    });
  }

  start(): void {
    const retryAll = (): void => this.moveAllToActive();
    this.cleanups.push(
      this.nodes.addEventHandler({ add: retryAll, update: retryAll, delete: retryAll }),
      this.claims.addEventHandler({ add: retryAll, update: () => this.claimsChanged(), delete: retryAll }),
      this.volumes.addEventHandler({ add: retryAll, update: retryAll, delete: retryAll }),
      this.classes.addEventHandler({ add: retryAll, update: retryAll }),
      this.pods.addEventHandler({ add: (p) => this.onPod(p), update: (_o, p) => this.onPod(p), delete: (p) => this.onPodDeleted(p) }),
    );
    this.flushTimer = setInterval(() => this.flushLongUnschedulable(), 30_000);
    this.flushTimer.unref();
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.cleanups.splice(0)) c();
    if (this.timer) clearTimeout(this.timer);
    if (this.flushTimer) clearInterval(this.flushTimer);
    for (const w of this.claimWaiters) w();
    this.recorder.stop();
  }

  // ---- the cache: what each node runs ----

  private usageOf(node: string): NodeUsage {
    let u = this.usage.get(node);
    if (!u) this.usage.set(node, (u = emptyUsage()));
    return u;
  }

  private count(uid: string, node: string, pod: Obj): void {
    if (this.counted.get(uid)?.node === node) return;
    this.uncount(uid);
    const c: Counted = { node, requests: podRequests(pod), ports: hostPorts(pod) };
    this.counted.set(uid, c);
    const u = this.usageOf(node);
    u.pods++;
    for (const [k, v] of c.requests) u.requested.set(k, (u.requested.get(k) ?? 0) + v);
    for (const p of c.ports) u.ports.add(p);
  }

  private uncount(uid: string): void {
    const c = this.counted.get(uid);
    if (!c) return;
    this.counted.delete(uid);
    const u = this.usageOf(c.node);
    u.pods--;
    for (const [k, v] of c.requests) u.requested.set(k, (u.requested.get(k) ?? 0) - v);
    for (const p of c.ports) u.ports.delete(p);
  }

  private onPod(p: Obj): void {
    const uid = uidOf(p);
    const node = str(spec(p).nodeName);
    if (node) {
      this.queue.delete(uid);
      if (terminal(p)) {
        this.uncount(uid);
        this.moveAllToActive();
      } else this.count(uid, node, p);
      return;
    }
    if (!needsScheduling(p)) {
      this.queue.delete(uid);
      return;
    }
    if (this.queue.has(uid) || this.inFlight.has(uid)) return;
    this.queue.set(uid, {
      namespace: str(meta(p).namespace),
      name: str(meta(p).name),
      uid,
      priority: Number(spec(p).priority ?? 0),
      seq: this.seq++,
      attempts: 0,
      readyAt: 0,
    });
    this.kick();
  }

  private onPodDeleted(p: Obj): void {
    const uid = uidOf(p);
    this.queue.delete(uid);
    if (this.counted.has(uid)) {
      this.uncount(uid);
      this.moveAllToActive();
    }
  }

  private claimsChanged(): void {
    for (const w of [...this.claimWaiters]) w();
    this.moveAllToActive();
  }

  // ---- the queue ----

  /** A cluster change may make room: every waiting pod is tried again once its back-off ends. */
  private moveAllToActive(): void {
    let moved = false;
    for (const q of this.queue.values()) {
      if (q.unschedulableSince === undefined) continue;
      q.unschedulableSince = undefined;
      moved = true;
    }
    if (moved) this.kick();
  }

  private flushLongUnschedulable(): void {
    const now = Date.now();
    let moved = false;
    for (const q of this.queue.values()) {
      if (q.unschedulableSince !== undefined && now - q.unschedulableSince >= MAX_UNSCHEDULABLE_MS) {
        q.unschedulableSince = undefined;
        moved = true;
      }
    }
    if (moved) this.kick();
  }

  private kick(): void {
    if (this.stopped || this.pumping) return;
    this.pumping = true;
    setImmediate(() => this.pump());
  }

  /** Schedules every ready pod, highest priority first; sleeps until the next back-off ends. */
  private pump(): void {
    this.pumping = false;
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    const ready = [...this.queue.values()].filter((q) => q.unschedulableSince === undefined && q.readyAt <= now);
    ready.sort((a, b) => b.priority - a.priority || a.seq - b.seq);
    for (const q of ready) {
      if (this.stopped || !this.ctx.leading()) return;
      this.scheduleOne(q);
    }
    let next = Infinity;
    for (const q of this.queue.values()) if (q.unschedulableSince === undefined && q.readyAt > now) next = Math.min(next, q.readyAt);
    if (next < Infinity) this.timer = setTimeout(() => this.kick(), Math.max(1, next - Date.now()));
  }

  private backoffMs(attempts: number): number {
    return Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
  }

  // ---- one scheduling cycle ----

  private planVolumes(pod: Obj): VolumePlan {
    const plan: VolumePlan = { boundVolumes: [], delayed: [] };
    const ns = str(meta(pod).namespace);
    let unboundImmediate = false;
    for (const { name, ephemeral } of claimNames(pod)) {
      const claim = this.claims.get(ns, name);
      if (!claim) {
        plan.preFilter = ephemeral
          ? `waiting for ephemeral volume controller to create the persistentvolumeclaim ${JSON.stringify(name)}`
          : `persistentvolumeclaim ${JSON.stringify(name)} not found`;
        return plan;
      }
      if (meta(claim).deletionTimestamp) {
        plan.preFilter = `persistentvolumeclaim ${JSON.stringify(name)} is being deleted`;
        return plan;
      }
      const volumeName = str(spec(claim).volumeName);
      if (volumeName) {
        const pv = this.volumes.get('', volumeName);
        if (!pv) {
          plan.preFilter = `persistentvolumeclaim ${JSON.stringify(name)} bound to non-existent persistentvolume ${JSON.stringify(volumeName)}`;
          return plan;
        }
        plan.boundVolumes.push(pv);
        continue;
      }
      const className = str(spec(claim).storageClassName);
      const cls = className ? this.classes.get('', className) : undefined;
      if (cls && str(cls.volumeBindingMode) === 'WaitForFirstConsumer') plan.delayed.push(claim);
      else if (className && !cls) {
        plan.preFilter = `storageclass.storage.k8s.io ${JSON.stringify(className)} not found`;
        return plan;
      } else unboundImmediate = true;
    }
    if (unboundImmediate) plan.preFilter = 'pod has unbound immediate PersistentVolumeClaims';
    return plan;
  }

  private scheduleOne(q: Queued): void {
    const pod = this.pods.get(q.namespace, q.name);
    if (!pod || uidOf(pod) !== q.uid || !needsScheduling(pod)) {
      this.queue.delete(q.uid);
      return;
    }
    q.attempts++;
    const nodes = this.nodes.list();
    if (nodes.length === 0) {
      // kube-scheduler would mark the pod unschedulable ("no nodes available to schedule
      // pods"); a kapi without nodes is used as a plain apiserver, whose pods nobody touches.
      // The pod waits, silently, for the first node.
      this.queue.set(q.uid, { ...q, unschedulableSince: Date.now() });
      return;
    }
    const plan = this.planVolumes(pod);
    const preemptionNever = str(spec(pod).preemptionPolicy) === 'Never';
    if (plan.preFilter) {
      this.unschedulable(q, pod, fitErrorMessage(nodes.length, nodes.map(() => ({ reasons: [], resolvable: false })), plan.preFilter, preemptionNever));
      return;
    }
    const failures: Failure[] = [];
    let best: { node: string; pods: number } | undefined;
    for (const node of nodes) {
      const name = str(meta(node).name);
      const usage = this.usageOf(name);
      let failure = filterNode(pod, node, usage);
      if (!failure) {
        for (const pv of plan.boundVolumes) {
          const required = asObj(asObj(spec(pv).nodeAffinity)?.required);
          if (required && !nodeSelectorMatches(required, node)) {
            failure = { reasons: ["node(s) didn't match PersistentVolume's node affinity"], resolvable: false };
            break;
          }
        }
      }
      if (failure) {
        failures.push(failure);
        continue;
      }
      if (!best || usage.pods < best.pods || (usage.pods === best.pods && name < best.node)) best = { node: name, pods: usage.pods };
    }
    if (!best) {
      this.unschedulable(q, pod, fitErrorMessage(nodes.length, failures, undefined, preemptionNever));
      return;
    }
    // Assume: the next pods see this one on its node before the binding is written.
    this.queue.delete(q.uid);
    this.inFlight.add(q.uid);
    this.count(q.uid, best.node, pod);
    void this.bind(q, pod, best.node, plan.delayed).finally(() => this.inFlight.delete(q.uid));
  }

  private async bind(q: Queued, pod: Obj, node: string, delayed: Obj[]): Promise<void> {
    try {
      if (delayed.length > 0) await this.bindVolumes(pod, node, delayed);
      if (this.stopped || !this.ctx.leading()) throw new Error('stopped');
      const binding = {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: q.name, namespace: q.namespace, uid: q.uid },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      } as unknown as KObject;
      await podBinding.post(this.podStore(), q.namespace, q.name, binding, { dryRun: false });
      this.recorder.eventf(refOf({ ...pod, kind: 'Pod', apiVersion: 'v1' }), 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${q.namespace}/${q.name} to ${node}`);
    } catch (e) {
      this.uncount(q.uid);
      if (this.stopped) return;
      const cur = this.pods.get(q.namespace, q.name);
      if (!cur || uidOf(cur) !== q.uid || !needsScheduling(cur)) return;
      const msg = e instanceof StatusError && e.code === 409 ? `Operation cannot be fulfilled on pods/binding ${JSON.stringify(q.name)}: ${e.message}` : (e as Error).message;
      this.log.debug({ pod: `${q.namespace}/${q.name}`, node, err: msg }, 'binding failed');
      this.failed(q, cur, 'SchedulerError', msg);
    }
  }

  private podStore(): GenericStore {
    return this.pods.store;
  }

  /** kube's VolumeBinding PreBind: the claims learn the chosen node; wait for the volume controller to bind them. */
  private async bindVolumes(pod: Obj, node: string, delayed: Obj[]): Promise<void> {
    const ns = str(meta(pod).namespace);
    for (const claim of delayed) {
      const name = str(meta(claim).name);
      if (!this.ctx.leading()) throw new Error('not leading');
      await this.claims.store.guaranteedUpdate(
        ns,
        name,
        '',
        (old) => {
          if (str(old.spec?.volumeName)) return old;
          const next = structuredClone(old);
          next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [SELECTED_NODE_ANNOTATION]: node };
          return next;
        },
        undefined,
        false,
        { manager: MANAGER, subresource: '' },
      );
    }
    const deadline = Date.now() + BIND_TIMEOUT_MS;
    const bound = (): boolean =>
      delayed.every((c) => {
        const cur = this.claims.get(ns, str(meta(c).name));
        return !!cur && !!str(spec(cur).volumeName) && str(asObj(cur.status)?.phase) === 'Bound';
      });
    while (!bound()) {
      if (this.stopped) throw new Error('stopped');
      if (Date.now() > deadline) throw new Error('binding volumes: timed out waiting for the condition');
      await new Promise<void>((resolve) => {
        const w = (): void => {
          this.claimWaiters.delete(w);
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(w, 5000);
        this.claimWaiters.add(w);
      });
    }
  }

  private unschedulable(q: Queued, pod: Obj, message: string): void {
    this.failed(q, pod, 'Unschedulable', message);
  }

  /** kube's handleSchedulingFailure: the PodScheduled condition, a FailedScheduling event, and back to the queue. */
  private failed(q: Queued, pod: Obj, reason: string, message: string): void {
    const now = Date.now();
    this.queue.set(q.uid, { ...q, readyAt: now + this.backoffMs(q.attempts), unschedulableSince: reason === 'Unschedulable' ? now : undefined });
    if (reason !== 'Unschedulable') this.kick();
    this.recorder.eventf(refOf({ ...pod, kind: 'Pod', apiVersion: 'v1' }), 'Warning', 'FailedScheduling', 'Scheduling', message);
    void this.setCondition(q, reason, message);
  }

  private async setCondition(q: Queued, reason: string, message: string): Promise<void> {
    const cur = this.pods.get(q.namespace, q.name);
    const old = asArr(asObj(cur?.status)?.conditions).map(asObj).find((c) => c?.type === 'PodScheduled');
    if (old && old.status === 'False' && old.reason === reason && old.message === message) return;
    if (!this.ctx.leading() || this.stopped) return;
    try {
      await this.podStore().guaranteedUpdate(
        q.namespace,
        q.name,
        'status',
        (p) => {
          if (p.metadata.uid !== q.uid || !needsScheduling(p)) return p;
          const next = structuredClone(p);
          const status = (next.status ??= {}) as Obj;
          const conds = asArr(status.conditions).map(asObj).filter((c): c is Obj => !!c);
          const i = conds.findIndex((c) => c.type === 'PodScheduled');
          const prev = i >= 0 ? conds[i] : undefined;
          const cond: Obj = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: prev?.status === 'False' ? prev.lastTransitionTime : nowTimestamp(), reason, message };
          if (i >= 0) conds[i] = cond;
          else conds.push(cond);
          status.conditions = conds;
          return next;
        },
        undefined,
        false,
        { manager: MANAGER, subresource: 'status' },
      );
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) this.log.debug({ pod: `${q.namespace}/${q.name}`, err: (e as Error).message }, 'could not record the scheduling failure');
    }
  }
}
