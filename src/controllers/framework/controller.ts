// The shape of kube's workqueue controllers: informer handlers only enqueue keys; a few
// workers take keys off the queue and sync them; a sync that fails is retried through the
// rate limiter, one that succeeds is forgotten (its backoff starts over). A node that stops
// leading (its writes throw NotLeadingError) stops syncing.

import type { Logger } from 'pino';
import type { Controller } from '../manager.js';
import { NotLeadingError } from './leading.js';
import { RateLimitingQueue } from './workqueue.js';

export abstract class QueueController implements Controller {
  protected readonly queue: RateLimitingQueue<string>;
  protected stopped = false;
  private readonly cleanups: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private busy = 0;

  constructor(
    /** The queue's name, as kube names it (statefulset, disruption, ...). */
    readonly name: string,
    protected readonly log: Logger,
    private readonly workers: number,
  ) {
    this.queue = new RateLimitingQueue<string>(name);
  }

  /** Registers the informer handlers; answers what undoes them. */
  protected abstract setup(): (() => void)[];

  /** Brings one key's objects to their wanted state; throws to be retried. */
  protected abstract sync(key: string): Promise<void>;

  start(): void {
    this.cleanups.push(...this.setup());
    for (let i = 0; i < this.workers; i++) void this.worker();
  }

  stop(): void {
    this.stopped = true;
    this.queue.shutDown();
    for (const c of this.cleanups.splice(0)) c();
  }

  /** Resolves when no key is queued or being synced (tests and benches). */
  idle(): Promise<void> {
    if (this.busy === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private async worker(): Promise<void> {
    await runWorker(this.queue, (key) => this.sync(key), this.log, () => this.stopped, {
      busy: () => this.busy++,
      done: () => {
        this.busy--;
        if (this.busy === 0 && this.queue.length === 0) for (const w of this.idleWaiters.splice(0)) w();
      },
    });
  }
}

/**
 * One worker of a queue (client-go's processNextWorkItem loop): it takes keys off `queue` and
 * syncs them until the queue shuts down. A sync that fails is retried through the rate limiter;
 * one that succeeds, or fails because this node stopped leading or the controller `stopped()`,
 * is forgotten (its backoff starts over).
 */
export async function runWorker(
  queue: RateLimitingQueue<string>,
  sync: (key: string) => Promise<void>,
  log: Logger,
  stopped: () => boolean,
  track?: { busy(): void; done(): void },
): Promise<void> {
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    track?.busy();
    try {
      await sync(key);
      queue.forget(key);
    } catch (err) {
      if (err instanceof NotLeadingError || stopped()) {
        queue.forget(key);
      } else {
        log.debug({ controller: queue.name, key, err: (err as Error).message }, 'error syncing; requeuing');
        queue.addRateLimited(key);
      }
    } finally {
      queue.done(key);
      track?.done();
    }
  }
}

/**
 * `workers` workers on `queue`, for a controller with several queues (the persistent volume
 * binder's claims and volumes, ...); they end when the queue is shut down.
 */
export function startWorkers(queue: RateLimitingQueue<string>, workers: number, sync: (key: string) => Promise<void>, log: Logger): void {
  for (let i = 0; i < workers; i++) void runWorker(queue, sync, log, () => queue.isShuttingDown);
}
