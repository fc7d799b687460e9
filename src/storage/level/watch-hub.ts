import type { StorageWatch, WatchEvent, WatchHandler } from '../interface.js';

/**
 * One in-process watcher. While it replays history from the log it is already
 * registered with the hub, so commits landing during the replay are buffered rather
 * than lost; `next` (the lowest revision not yet delivered) drops whatever the replay
 * and the buffer both saw, so the seam has neither a gap nor a duplicate.
 */
export class LevelWatch implements StorageWatch {
  private live = false;
  private closed = false;
  private progressWanted = false;
  private buffered: WatchEvent[][] = [];

  constructor(
    readonly prefix: string,
    private next: number,
    private readonly handler: WatchHandler,
    private readonly hub: WatchHub,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffered = [];
    this.hub.remove(this);
  }

  requestProgress(): void {
    if (this.closed) return;
    // During replay the store revision says nothing about what this watcher has seen.
    if (!this.live) this.progressWanted = true;
    else queueMicrotask(() => this.progress());
  }

  /** Live events from a commit, already filtered to this watcher's prefix. */
  offer(events: WatchEvent[]): void {
    if (this.closed) return;
    if (this.live) this.deliver(events);
    else this.buffered.push(events);
  }

  /** Replay is over: flush what arrived meanwhile and switch to direct delivery. */
  goLive(): void {
    if (this.closed) return;
    const pending = this.buffered;
    this.buffered = [];
    for (const events of pending) {
      this.deliver(events);
      if (this.closed) return;
    }
    this.live = true;
    if (this.progressWanted) {
      this.progressWanted = false;
      this.progress();
    }
  }

  /**
   * Commits are dispatched in the same tick that advances the store revision, so a
   * live watcher has seen every event up to the revision it reads here.
   */
  private progress(): void {
    if (this.closed || !this.handler.onProgress) return;
    try {
      this.handler.onProgress(this.hub.revision());
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Hands events to the handler, skipping any at or below what was already delivered. */
  deliver(events: WatchEvent[]): void {
    if (this.closed) return;
    let fresh = events;
    if (events.length > 0 && events[0]!.modRevision < this.next) {
      fresh = events.filter((e) => e.modRevision >= this.next);
    }
    if (fresh.length === 0) return;
    this.next = fresh[fresh.length - 1]!.modRevision + 1;
    try {
      this.handler.onEvents(fresh);
    } catch (err) {
      // A throwing consumer must not break the commit path; it loses its watch instead.
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  fail(err: Error): void {
    if (this.closed) return;
    this.close();
    this.handler.onError(err);
  }
}

export class WatchHub {
  private readonly watchers = new Set<LevelWatch>();

  /** @param revision the store revision whose events have all been dispatched */
  constructor(readonly revision: () => number) {}

  add(w: LevelWatch): void {
    this.watchers.add(w);
  }

  remove(w: LevelWatch): void {
    this.watchers.delete(w);
  }

  /** Fans out the events of one committed batch (in revision order). */
  dispatch(events: WatchEvent[]): void {
    if (events.length === 0 || this.watchers.size === 0) return;
    for (const w of [...this.watchers]) {
      const mine = w.prefix === '' ? events : events.filter((e) => e.key.startsWith(w.prefix));
      if (mine.length > 0) w.offer(mine);
    }
  }

  failAll(err: Error): void {
    for (const w of [...this.watchers]) w.fail(err);
  }
}
