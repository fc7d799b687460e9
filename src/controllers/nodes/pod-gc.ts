// The pod garbage collector (kube's podgc controller), every 20 s: pods bound to a node that no
// longer exists (checked again after a 40 s quarantine, so a node being re-registered is not
// mistaken) are marked Failed with the DisruptionTarget condition (DeletionByPodGC) and force
// deleted; so are terminating pods that were never scheduled, and terminating pods on a node
// that is not ready and carries the node.kubernetes.io/out-of-service taint. Terminated pods
// beyond --terminated-pod-gc-threshold (12500) are deleted, oldest first.

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { nowTimestamp } from '../../machinery/meta.js';
import { asArr, asObj, str, type Obj } from '../../machinery/json-view.js';
import type { SharedInformer } from '../framework/informer.js';
import { informersOf, type Controller, type ControllerContext } from '../manager.js';
import { CONTROLLER_MANAGER } from '../framework/client.js';

export interface PodGCConfig {
  /** gcCheckPeriod: 20 s in kube. */
  periodMs: number;
  /** quarantineTime: 40 s in kube. */
  quarantineMs: number;
  /** --terminated-pod-gc-threshold */
  terminatedThreshold: number;
}

export const DEFAULT_POD_GC: PodGCConfig = { periodMs: 20_000, quarantineMs: 40_000, terminatedThreshold: 12_500 };

const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

const meta = (o: Obj): Obj => asObj(o.metadata) ?? {};
const phaseOf = (p: Obj): string => str(asObj(p.status)?.phase);
const isTerminal = (p: Obj): boolean => phaseOf(p) === 'Succeeded' || phaseOf(p) === 'Failed';

export class PodGCController implements Controller {
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  /** Nodes seen missing, with when: gone for good once the quarantine has passed. */
  private readonly missingSince = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private running = false;
  private stopped = false;
  private readonly log: Logger;

  constructor(
    pods: GenericStore,
    nodes: GenericStore,
    private readonly ctx: ControllerContext,
    private readonly cfg: PodGCConfig,
  ) {
    this.log = ctx.log.child({ controller: 'pod-gc' });
    this.pods = informersOf(ctx).of(pods);
    this.nodes = informersOf(ctx).of(nodes);
  }

  start(): void {
    this.timer = setInterval(() => void this.gc(), this.cfg.periodMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  private mayWrite(): boolean {
    return !this.stopped && this.ctx.leading();
  }

  async gc(): Promise<void> {
    if (this.running || !this.mayWrite()) return;
    this.running = true;
    try {
      await this.gcTerminated();
      await this.gcOrphaned();
      await this.gcUnscheduledTerminating();
      await this.gcTerminating();
    } catch (e) {
      if (this.mayWrite()) this.log.warn({ err: (e as Error).message }, 'pod garbage collection failed');
    } finally {
      this.running = false;
    }
  }

  private async gcTerminated(): Promise<void> {
    const terminated = this.pods.list().filter(isTerminal);
    const excess = terminated.length - this.cfg.terminatedThreshold;
    if (excess <= 0) return;
    terminated.sort((a, b) => str(meta(a).creationTimestamp).localeCompare(str(meta(b).creationTimestamp)));
    for (const p of terminated.slice(0, excess)) await this.forceDelete(p, undefined);
  }

  private async gcOrphaned(): Promise<void> {
    const now = Date.now();
    const nodes = new Set(this.nodes.list().map((n) => str(meta(n).name)));
    const orphaned = new Map<string, Obj[]>();
    for (const p of this.pods.list()) {
      const node = str(asObj(p.spec)?.nodeName);
      if (!node || nodes.has(node)) continue;
      orphaned.set(node, [...(orphaned.get(node) ?? []), p]);
    }
    for (const name of [...this.missingSince.keys()]) if (!orphaned.has(name) || nodes.has(name)) this.missingSince.delete(name);
    for (const [node, pods] of orphaned) {
      const since = this.missingSince.get(node);
      if (since === undefined) {
        this.missingSince.set(node, now);
        continue;
      }
      if (now - since < this.cfg.quarantineMs) continue;
      // The second look, at the store itself: the node is really gone.
      try {
        await this.nodes.store.getObject('', node);
        continue;
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
      for (const p of pods) {
        this.log.info({ pod: `${str(meta(p).namespace)}/${str(meta(p).name)}`, node }, 'PodGC is force deleting Pod');
        await this.forceDelete(p, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
      }
    }
  }

  private async gcUnscheduledTerminating(): Promise<void> {
    for (const p of this.pods.list()) {
      if (meta(p).deletionTimestamp && !str(asObj(p.spec)?.nodeName)) await this.forceDelete(p, undefined);
    }
  }

  private async gcTerminating(): Promise<void> {
    const outOfService = new Set<string>();
    for (const n of this.nodes.list()) {
      const ready = asArr(asObj(n.status)?.conditions).map(asObj).find((c) => c?.type === 'Ready');
      const tainted = asArr(asObj(n.spec)?.taints).some((t) => asObj(t)?.key === OUT_OF_SERVICE && asObj(t)?.effect === 'NoExecute');
      if (tainted && ready?.status !== 'True') outOfService.add(str(meta(n).name));
    }
    if (outOfService.size === 0) return;
    for (const p of this.pods.list()) {
      if (meta(p).deletionTimestamp && outOfService.has(str(asObj(p.spec)?.nodeName))) {
        await this.forceDelete(p, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
      }
    }
  }

  /** markFailedAndDeletePodWithCondition: phase Failed (and the condition), then a delete with grace 0. */
  private async forceDelete(p: Obj, condition: Obj | undefined): Promise<void> {
    if (!this.mayWrite()) return;
    const ns = str(meta(p).namespace);
    const name = str(meta(p).name);
    const uid = str(meta(p).uid);
    try {
      if (!isTerminal(p)) {
        await this.pods.store.guaranteedUpdate(
          ns,
          name,
          'status',
          (cur) => {
            if (cur.metadata.uid !== uid || !this.mayWrite()) return cur;
            const next = structuredClone(cur) as KObject;
            const status = (next.status ??= {}) as Obj;
            status.phase = 'Failed';
            if (condition) {
              const conds = asArr(status.conditions).map(asObj).filter((c): c is Obj => !!c);
              const i = conds.findIndex((c) => c.type === condition.type);
              const c = { ...condition, lastProbeTime: null, lastTransitionTime: i >= 0 && conds[i]!.status === condition.status ? conds[i]!.lastTransitionTime : nowTimestamp() };
              if (i >= 0) conds[i] = c;
              else conds.push(c);
              status.conditions = conds;
            }
            return next;
          },
          undefined,
          false,
          { manager: CONTROLLER_MANAGER, subresource: 'status' },
        );
      }
      if (!this.mayWrite()) return;
      await this.pods.store.delete(ns, name, { gracePeriodSeconds: 0, preconditions: { uid } });
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }
}
