// A work queue of keys, as client-go's workqueue gives kube's controllers: a key added while it
// waits is queued once, a key added while it is being synced is synced again afterwards (never
// twice at once), a failed sync is retried with a per-key exponential back-off (5 ms doubling,
// at most 1000 s), a successful one forgets its failures. A few workers drain it.

import type { Logger } from 'pino';

export class KeyedQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly again = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private active = 0;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly sync: (key: string) => Promise<void>,
    private readonly log: Logger,
    private readonly workers = 4,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.again.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.run();
  }

  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.queue.length = 0;
    this.queued.clear();
  }

  private run(): void {
    while (this.active < this.workers && this.queue.length > 0 && !this.stopped) {
      const key = this.queue.shift()!;
      this.queued.delete(key);
      this.processing.add(key);
      this.active++;
      void this.sync(key)
        .then(
          () => this.failures.delete(key),
          (e: unknown) => {
            if (this.stopped) return;
            const n = (this.failures.get(key) ?? 0) + 1;
            this.failures.set(key, n);
            const delay = Math.min(1_000_000, 5 * 2 ** (n - 1));
            this.log.debug({ queue: this.name, key, err: (e as Error).message, retryInMs: delay }, 'sync failed; requeued');
            this.addAfter(key, delay);
          },
        )
        .finally(() => {
          this.active--;
          this.processing.delete(key);
          if (this.again.delete(key)) this.add(key);
          this.run();
        });
    }
  }
}
