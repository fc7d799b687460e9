// The node lifecycle controller, the part of kube's that kapi needs: it watches each node's
// health signals (its Lease in kube-node-lease and its Ready condition's heartbeat, as seen
// here, on this node's clock) and, when neither moved for --node-monitor-grace-period (50 s;
// --node-startup-grace-period for a node that never reported), sets the node's Ready,
// MemoryPressure, DiskPressure and PIDPressure conditions Unknown ("Kubelet stopped posting
// node status."), marks the Ready condition of its pods False, and records NodeNotReady. It
// keeps the NoSchedule taints in step with the conditions (not-ready, unreachable, the
// pressures, and unschedulable for a cordoned node), so a new node is schedulable once it is
// Ready, and the NoExecute not-ready/unreachable taints too (none while every node is down, as
// kube's full-disruption mode). The eviction those taints lead to (kube's taint eviction
// controller) is not done.

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { nowTimestamp } from '../../machinery/meta.js';
import { asArr, asObj, str, type Obj } from '../../machinery/json-view.js';
import { EventRecorder, refOf } from '../../client/events.js';
import { storeEventSink } from '../event-sink.js';
import type { SharedInformer } from '../framework/informer.js';
import { RateLimitingQueue } from '../framework/workqueue.js';
import { startWorkers } from '../framework/controller.js';
import { informersOf, type Controller, type ControllerContext } from '../manager.js';
import { CONTROLLER_MANAGER } from '../framework/client.js';

export interface NodeLifecycleConfig {
  /** --node-monitor-period */
  monitorPeriodMs: number;
  /** --node-monitor-grace-period */
  monitorGracePeriodMs: number;
  /** --node-startup-grace-period */
  startupGracePeriodMs: number;
}

export const DEFAULT_NODE_LIFECYCLE: NodeLifecycleConfig = { monitorPeriodMs: 5000, monitorGracePeriodMs: 50_000, startupGracePeriodMs: 60_000 };

export interface NodeLifecycleStores {
  nodes: GenericStore;
  leases: GenericStore;
  pods: GenericStore;
  events: GenericStore;
}

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const MONITORED = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** Conditions whose status puts a taint on the node (nodeConditionToTaintKeyStatusMap). */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: NOT_READY, Unknown: UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const CONDITION_TAINT_KEYS = new Set([...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)), UNSCHEDULABLE_TAINT]);

interface Health {
  /** When a health signal last moved, on this clock. */
  probe: number;
  heartbeat: string;
  transition: string;
  leaseRenew: string;
}

const meta = (o: Obj): Obj => asObj(o.metadata) ?? {};
const conditionsOf = (n: Obj): Obj[] => asArr(asObj(n.status)?.conditions).map(asObj).filter((c): c is Obj => !!c);
const readyOf = (n: Obj): Obj | undefined => conditionsOf(n).find((c) => c.type === 'Ready');

export class NodeLifecycleController implements Controller {
  private readonly nodes: SharedInformer;
  private readonly leases: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly recorder: EventRecorder;
  private readonly health = new Map<string, Health>();
  private readonly known = new Set<string>();
  /** Nodes whose pods were marked not ready since they last were Ready. */
  private readonly marked = new Set<string>();
  private readonly taintQueue: RateLimitingQueue<string>;
  private readonly cleanups: (() => void)[] = [];
  private timer?: NodeJS.Timeout;
  private monitoring = false;
  private stopped = false;
  private readonly log: Logger;

  constructor(
    stores: NodeLifecycleStores,
    private readonly ctx: ControllerContext,
    private readonly cfg: NodeLifecycleConfig,
  ) {
    this.log = ctx.log.child({ controller: 'node-lifecycle' });
    this.nodes = informersOf(ctx).of(stores.nodes);
    this.leases = informersOf(ctx).of(stores.leases);
    this.pods = informersOf(ctx).of(stores.pods);
    this.recorder = new EventRecorder(storeEventSink(stores.events, CONTROLLER_MANAGER, () => this.mayWrite()), { component: 'node-controller' }, { log: this.log, qps: 1000, burst: 1000 });
    this.taintQueue = new RateLimitingQueue<string>('node_lifecycle_controller');
  }

  private mayWrite(): boolean {
    return !this.stopped && this.ctx.leading();
  }

  start(): void {
    startWorkers(this.taintQueue, 4, (name) => this.syncTaints(name), this.log);
    this.cleanups.push(
      this.nodes.addEventHandler({ add: (n) => this.taintQueue.add(str(meta(n).name)), update: (_o, n) => this.taintQueue.add(str(meta(n).name)) }),
      this.pods.addEventHandler({ add: (p) => this.onPod(undefined, p), update: (o, p) => this.onPod(o, p) }),
    );
    this.timer = setInterval(() => void this.monitor(), this.cfg.monitorPeriodMs);
    this.timer.unref();
    void this.monitor();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const c of this.cleanups.splice(0)) c();
    this.taintQueue.shutDown();
    this.recorder.stop();
  }

  // ---- health ----

  private async monitor(): Promise<void> {
    if (this.monitoring || !this.mayWrite()) return;
    this.monitoring = true;
    try {
      const nodes = this.nodes.list();
      const names = new Set(nodes.map((n) => str(meta(n).name)));
      for (const n of nodes) {
        const name = str(meta(n).name);
        if (this.known.has(name)) continue;
        this.known.add(name);
        this.recorder.event(this.nodeRef(n), 'Normal', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      }
      for (const name of [...this.known]) {
        if (names.has(name)) continue;
        this.known.delete(name);
        this.health.delete(name);
        this.marked.delete(name);
        this.recorder.event({ kind: 'Node', name, apiVersion: 'v1' }, 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
      }
      const states: string[] = [];
      for (const n of nodes) {
        if (!this.mayWrite()) return;
        states.push(await this.checkNode(n));
      }
      // Every node down (kube's full disruption): no NoExecute taints; otherwise they follow Ready.
      const allDown = states.length > 0 && states.every((s) => s !== 'True');
      for (const n of this.nodes.list()) await this.syncNoExecute(n, allDown);
    } catch (e) {
      if (this.mayWrite()) this.log.warn({ err: (e as Error).message }, 'node health check failed');
    } finally {
      this.monitoring = false;
    }
  }

  private nodeRef(n: Obj): { kind: string; name: string; uid: string; apiVersion: string } {
    return { kind: 'Node', name: str(meta(n).name), uid: str(meta(n).uid), apiVersion: 'v1' };
  }

  /** kube's tryUpdateNodeHealth: answers the Ready status after this check. */
  private async checkNode(node: Obj): Promise<string> {
    const name = str(meta(node).name);
    const now = Date.now();
    const ready = readyOf(node);
    const lease = this.leases.get(NODE_LEASE_NAMESPACE, name);
    const renew = str(asObj(lease?.spec)?.renewTime);
    let h = this.health.get(name);
    const heartbeat = str(ready?.lastHeartbeatTime);
    if (!h) {
      h = { probe: ready ? now : Date.parse(str(meta(node).creationTimestamp)) || now, heartbeat, transition: str(ready?.lastTransitionTime), leaseRenew: renew };
      this.health.set(name, h);
    } else if (heartbeat && heartbeat !== h.heartbeat) {
      h.probe = now;
      h.heartbeat = heartbeat;
    }
    if (renew && renew !== h.leaseRenew) {
      h.leaseRenew = renew;
      h.probe = now;
    }
    const grace = ready ? this.cfg.monitorGracePeriodMs : this.cfg.startupGracePeriodMs;
    const observed = str(ready?.status) || 'Unknown';
    let current = observed;
    if (now > h.probe + grace) {
      const changed = await this.markUnknown(name);
      if (changed) current = 'Unknown';
    }
    const after = this.nodes.get('', name) ?? node;
    const status = changed(current, after);
    if (status !== 'True' && !this.marked.has(name)) {
      if (observed === 'True' || current !== observed) this.recorder.event(this.nodeRef(after), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      this.marked.add(name);
      await this.markPodsNotReady(name);
    } else if (status === 'True') this.marked.delete(name);
    return status;
  }

  /** Every monitored condition Unknown; answers whether the node changed. */
  private async markUnknown(name: string): Promise<boolean> {
    let wrote = false;
    try {
      await this.ctxUpdate(this.nodes.store, '', name, 'status', (n) => {
        const next = structuredClone(n);
        const status = (next.status ??= {}) as Obj;
        const conds = conditionsOf(next);
        const now = nowTimestamp();
        for (const type of MONITORED) {
          const c = conds.find((x) => x.type === type);
          if (!c) {
            conds.push({ type, status: 'Unknown', lastHeartbeatTime: next.metadata.creationTimestamp, lastTransitionTime: now, reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
            wrote = true;
          } else if (c.status !== 'Unknown') {
            Object.assign(c, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: now });
            wrote = true;
          }
        }
        status.conditions = conds;
        return wrote ? next : n;
      });
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
    return wrote;
  }

  /** MarkPodsNotReady: each pod's Ready condition False (its other conditions stay). */
  private async markPodsNotReady(node: string): Promise<void> {
    for (const p of this.pods.list()) {
      if (str(asObj(p.spec)?.nodeName) !== node) continue;
      await this.markPodNotReady(p);
    }
  }

  private async markPodNotReady(p: Obj): Promise<void> {
    const ready = asArr(asObj(p.status)?.conditions).map(asObj).find((c) => c?.type === 'Ready');
    if (!ready || ready.status === 'False' || !this.mayWrite()) return;
    const ns = str(meta(p).namespace);
    const name = str(meta(p).name);
    const uid = str(meta(p).uid);
    try {
      const r = await this.ctxUpdate(this.pods.store, ns, name, 'status', (cur) => {
        if (cur.metadata.uid !== uid) return cur;
        const next = structuredClone(cur);
        const c = asArr(next.status?.conditions).map(asObj).find((x) => x?.type === 'Ready');
        if (!c || c.status === 'False') return cur;
        c.status = 'False';
        c.lastTransitionTime = nowTimestamp();
        return next;
      });
      if (r) this.recorder.event(refOf({ ...r, kind: 'Pod', apiVersion: 'v1' }), 'Warning', 'NodeNotReady', 'Node is not ready');
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }

  /** A pod that lands on a node that is not ready is not ready either (processPod). */
  private onPod(old: KObject | undefined, p: KObject): void {
    const node = str(asObj(p.spec)?.nodeName);
    if (!node || (old && str(asObj(old.spec)?.nodeName) === node && !this.becameReady(old, p))) return;
    const n = this.nodes.get('', node);
    if (!n || str(readyOf(n)?.status) === 'True' || !this.health.has(node)) return;
    void this.markPodNotReady(p).catch(() => undefined);
  }

  private becameReady(old: KObject, p: KObject): boolean {
    const r = (o: KObject): string => str(asArr(o.status?.conditions).map(asObj).find((c) => c?.type === 'Ready')?.status);
    return r(p) === 'True' && r(old) !== 'True';
  }

  // ---- taints ----

  private async ctxUpdate(store: GenericStore, ns: string, name: string, sub: string, f: (o: KObject) => KObject): Promise<KObject | undefined> {
    if (!this.mayWrite()) return undefined;
    const r = await store.guaranteedUpdate(ns, name, sub, (o) => (this.mayWrite() ? f(o) : o), undefined, false, { manager: CONTROLLER_MANAGER, subresource: sub });
    return r.obj;
  }

  /** doNoScheduleTaintingPass: the NoSchedule condition taints (and unschedulable) follow the node. */
  private async syncTaints(name: string): Promise<void> {
    const node = this.nodes.get('', name);
    if (!node || !this.mayWrite()) return;
    const want = new Set<string>();
    for (const c of conditionsOf(node)) {
      const key = CONDITION_TAINTS[str(c.type)]?.[str(c.status)];
      if (key) want.add(key);
    }
    if (asObj(node.spec)?.unschedulable === true) want.add(UNSCHEDULABLE_TAINT);
    const taints = asArr(asObj(node.spec)?.taints).map(asObj).filter((t): t is Obj => !!t);
    const have = new Set(taints.filter((t) => t.effect === 'NoSchedule' && CONDITION_TAINT_KEYS.has(str(t.key))).map((t) => str(t.key)));
    if ([...want].every((k) => have.has(k)) && [...have].every((k) => want.has(k))) return;
    await this.swapTaints(name, 'NoSchedule', want);
  }

  /** The NoExecute not-ready / unreachable taint as the Ready condition says (none in full disruption). */
  private async syncNoExecute(node: Obj, allDown: boolean): Promise<void> {
    const name = str(meta(node).name);
    const status = str(readyOf(node)?.status);
    const want = new Set<string>();
    if (!allDown) {
      if (status === 'False') want.add(NOT_READY);
      else if (status === 'Unknown') want.add(UNREACHABLE);
    }
    const taints = asArr(asObj(node.spec)?.taints).map(asObj).filter((t): t is Obj => !!t);
    const have = new Set(taints.filter((t) => t.effect === 'NoExecute' && (t.key === NOT_READY || t.key === UNREACHABLE)).map((t) => str(t.key)));
    if ([...want].every((k) => have.has(k)) && [...have].every((k) => want.has(k))) return;
    await this.swapTaints(name, 'NoExecute', want, new Set([NOT_READY, UNREACHABLE]));
  }

  /** Sets the node's taints of `effect` among `managed` keys to exactly `want` (new ones stamped now). */
  private async swapTaints(name: string, effect: string, want: Set<string>, managed: Set<string> = CONDITION_TAINT_KEYS): Promise<void> {
    try {
      await this.ctxUpdate(this.nodes.store, '', name, '', (n) => {
        const next = structuredClone(n);
        const spec = (next.spec ??= {}) as Obj;
        const taints = asArr(spec.taints).map(asObj).filter((t): t is Obj => !!t);
        const kept = taints.filter((t) => !(t.effect === effect && managed.has(str(t.key)) && !want.has(str(t.key))));
        for (const key of want) {
          if (kept.some((t) => t.key === key && t.effect === effect)) continue;
          kept.push({ key, effect, timeAdded: nowTimestamp() });
        }
        if (kept.length === taints.length && kept.every((t, i) => t === taints[i])) return n;
        spec.taints = kept.length ? kept : undefined;
        if (!kept.length) delete spec.taints;
        return next;
      });
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }
}

/** The Ready status after a check that may have set it Unknown. */
function changed(current: string, node: Obj): string {
  return current === 'Unknown' ? 'Unknown' : str(readyOf(node)?.status) || 'Unknown';
}
