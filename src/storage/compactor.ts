// Periodic compaction, as kube-apiserver does it (--etcd-compaction-interval): each
// tick compacts to the revision seen at the previous tick, so history always reaches
// back at least one interval.

import type { Logger } from 'pino';
import type { Storage } from './interface.js';

export class Compactor {
  private timer?: NodeJS.Timeout;
  private lastSeen = 0;

  constructor(
    private readonly storage: Storage,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const target = this.lastSeen;
      this.lastSeen = await this.storage.currentRevision();
      if (target > 0 && target > (await this.storage.compactedRevision())) await this.storage.compact(target);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'compaction failed');
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
