// The controllers' work queue, after client-go's util/workqueue: a key is queued at most once
// however often it is added, is handed to one worker at a time, and an add that arrives while
// a worker has it queues it again for when that worker is done (so no change is lost and no key
// is synced twice at once). On top: delayed adds (addAfter) and rate-limited retries.

import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

export class RateLimitingQueue<K> {
  private readonly queue: K[] = [];
  private head = 0;
  /** Keys waiting to be processed (queued, or added again while processing). */
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  /** Workers blocked in get(). */
  private readonly waiters: ((k: K | undefined) => void)[] = [];
  /** Delayed adds: the earliest time each key is due, and its timer. */
  private readonly delayed = new Map<K, { at: number; timer: NodeJS.Timeout }>();
  private shuttingDown = false;

  constructor(
    readonly name: string,
    private readonly limiter: RateLimiter<K> = defaultControllerRateLimiter<K>(),
  ) {}

  get length(): number {
    return this.queue.length - this.head;
  }

  add(k: K): void {
    if (this.shuttingDown || this.dirty.has(k)) return;
    this.dirty.add(k);
    if (this.processing.has(k)) return;
    const w = this.waiters.shift();
    if (w) {
      this.dirty.delete(k);
      this.processing.add(k);
      w(k);
      return;
    }
    this.queue.push(k);
  }

  /** Adds `k` after `ms`; a key already waiting keeps the earlier of the two times. */
  addAfter(k: K, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(k);
      return;
    }
    const at = Date.now() + ms;
    const cur = this.delayed.get(k);
    if (cur && cur.at <= at) return;
    if (cur) clearTimeout(cur.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(k);
      this.add(k);
    }, ms);
    timer.unref();
    this.delayed.set(k, { at, timer });
  }

  /** Adds `k` once the rate limiter allows it (a retry after a failure). */
  addRateLimited(k: K): void {
    this.addAfter(k, this.limiter.when(k));
  }

  /** The key was handled: its retry backoff starts over. */
  forget(k: K): void {
    this.limiter.forget(k);
  }

  numRequeues(k: K): number {
    return this.limiter.numRequeues(k);
  }

  /** The next key to process, or undefined once the queue shuts down. */
  get(): Promise<K | undefined> {
    if (this.length > 0) {
      const k = this.queue[this.head]!;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.dirty.delete(k);
      this.processing.add(k);
      return Promise.resolve(k);
    }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The worker is done with `k`; an add that came meanwhile queues it again. */
  done(k: K): void {
    this.processing.delete(k);
    if (!this.dirty.has(k)) return;
    this.dirty.delete(k);
    this.add(k);
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    for (const w of this.waiters.splice(0)) w(undefined);
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
