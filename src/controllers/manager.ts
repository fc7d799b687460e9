// The one place controllers are started: all of them run on the elected leader only (as
// kube-controller-manager's do), or, with leader election off, on this node. A node that
// loses the lease stops every controller before another node can take the lease over, and
// each controller checks `leading()` right before it writes, so a node that was paused past
// its renew deadline never acts on a stale belief that it leads.

import type { Logger } from 'pino';
import { LeaderElector, type LeaseLock, type ElectionTiming } from './leader-election.js';
import { InformerFactory } from './framework/informer.js';
import type { StoreLookup } from './framework/client.js';

export interface Controller {
  start(): void;
  stop(): void;
}

export interface ControllerContext {
  /** True while this node may act as the leader; check it before every write. */
  leading(): boolean;
  log: Logger;
  /** The served resources' stores (when the manager was given them). */
  stores?: StoreLookup;
  /** Informers shared by the controllers of this leadership term, stopped with them. */
  informers?: InformerFactory;
}

/** The informers of a context; the manager makes them whenever it was given the stores. */
export function informersOf(ctx: ControllerContext): InformerFactory {
  if (!ctx.informers) throw new Error('the controller manager has no informers (no stores given)');
  return ctx.informers;
}

export interface ControllerFactory {
  name: string;
  create(ctx: ControllerContext): Controller;
}

export interface LeaderElectionConfig extends ElectionTiming {
  lock: LeaseLock;
  identity: string;
  /** The store belongs to this process alone (see ElectorOptions.exclusive). */
  exclusive: boolean;
}

export { NotLeadingError } from './framework/leading.js';

export class ControllerManager {
  private running: { name: string; controller: Controller }[] = [];
  private elector?: LeaderElector;
  private informers?: InformerFactory;

  constructor(
    private readonly factories: ControllerFactory[],
    private readonly log: Logger,
    private readonly election?: LeaderElectionConfig,
    private readonly stores?: StoreLookup,
  ) {}

  /** Whether this node runs the controllers now. */
  get active(): boolean {
    return this.running.length > 0;
  }

  get leaderElector(): LeaderElector | undefined {
    return this.elector;
  }

  start(): void {
    const e = this.election;
    if (!e) {
      this.startControllers(() => true);
      return;
    }
    const elector = new LeaderElector(e.lock, {
      ...e,
      log: this.log,
      onStartedLeading: () => this.startControllers(() => elector.isLeader()),
      onStoppedLeading: () => this.stopControllers(),
    });
    this.elector = elector;
    elector.start();
  }

  private startControllers(leading: () => boolean): void {
    if (this.running.length > 0) return;
    const stores = this.stores;
    this.informers = stores && new InformerFactory((g, r) => stores.storeFor(g, r));
    const ctx: ControllerContext = { leading, log: this.log, stores, informers: this.informers };
    for (const f of this.factories) {
      const controller = f.create(ctx);
      controller.start();
      this.running.push({ name: f.name, controller });
    }
    this.log.info({ controllers: this.factories.map((f) => f.name) }, 'controllers started');
  }

  private stopControllers(): void {
    if (this.running.length === 0) return;
    for (const { controller } of this.running) controller.stop();
    this.informers?.stop();
    this.informers = undefined;
    this.log.info({ controllers: this.running.map((r) => r.name) }, 'controllers stopped');
    this.running = [];
  }

  async stop(): Promise<void> {
    if (this.elector) await this.elector.stop();
    this.stopControllers();
  }
}
