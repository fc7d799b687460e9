// Live watch events leave in flushes shared by every watcher of the node: a flush hands each
// waiting watcher everything queued for it, in one write per watcher. Flushes may use up to
// FLUSH_SHARE of the node's time (a budget in CPU that refills with wall time, with a burst
// of BURST_MS): within it, which is the common case, an event goes out at once, in the next
// check phase, so the events of one I/O turn share a flush; that is the latency kube's
// watchers get. Only when the write rate times the fan-out outruns the budget (a thousand
// watchers and a steady stream of writes) does the node keep a quiet spell until the budget is
// back, up to MAX_GAP_MS: the events that arrive meanwhile share the next flush and its one
// write per watcher. A write per event per watcher is what saturates a node (each is a syscall
// at both ends, and a TLS record); batching only under that pressure keeps the CPU saving
// where it matters and the latency low where it does not. kube's watch server likewise writes
// what is queued for a watcher when it flushes.

/** The longest quiet spell between two flushes, ms. */
export const MAX_GAP_MS = 25;
/** The share of the node's time flushes may take before they are spaced out. */
export const FLUSH_SHARE = 0.6;
/** The flush CPU the budget holds at most, ms: one costly flush after a calm spell goes at once. */
export const BURST_MS = 20;

/** What a pacer reads time from and defers with (the process's own, or a test's). */
export interface PacerClock {
  /** Wall time, ms. */
  now(): number;
  /** CPU the process has used, ms. */
  cpuMs(): number;
  /** Runs `fn` after `ms` (0: in the next check phase). */
  defer(fn: () => void, ms: number): void;
}

const processClock: PacerClock = {
  now: () => performance.now(),
  cpuMs: () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  },
  defer: (fn, ms) => void (ms <= 0 ? setImmediate(fn) : setTimeout(fn, ms)),
};

export class FlushPacer {
  private queue: Array<() => void> = [];
  private scheduled = false;
  /** Flush CPU the node may still spend now, ms (negative: overspent). */
  private credit = BURST_MS;
  private creditAt: number;

  constructor(private readonly clock: PacerClock = processClock) {
    this.creditAt = clock.now();
  }

  /** Runs `fn` in the next flush. */
  schedule(fn: () => void): void {
    this.queue.push(fn);
    if (this.scheduled) return;
    this.scheduled = true;
    this.clock.defer(() => this.flush(), this.gapMs());
  }

  /** How long a flush asked for now would wait, ms: 0 within the budget. */
  gapMs(): number {
    this.refill();
    return this.credit >= 0 ? 0 : Math.min(MAX_GAP_MS, -this.credit / FLUSH_SHARE);
  }

  private refill(): void {
    const now = this.clock.now();
    this.credit = Math.min(BURST_MS, this.credit + (now - this.creditAt) * FLUSH_SHARE);
    this.creditAt = now;
  }

  private flush(): void {
    this.scheduled = false;
    // The cost is the CPU the flush used, not the wall time it spanned: on a loaded machine the
    // process may be descheduled mid-flush, and counting that would hold events back for time
    // the node never spent on them.
    const cpu0 = this.clock.cpuMs();
    const fns = this.queue;
    this.queue = [];
    for (const fn of fns) fn();
    const used = this.clock.cpuMs() - cpu0;
    this.refill();
    // A debt is never more than one longest spell repays: one outsized flush (a relist's
    // catch-up) does not hold the flushes after it back for longer than that.
    this.credit = Math.max(-MAX_GAP_MS * FLUSH_SHARE, this.credit - used);
  }
}

/** The node's pacer: every watcher of the process shares its flushes. */
const nodePacer = new FlushPacer();

/** Runs `fn` in the node's next flush. */
export function scheduleFlush(fn: () => void): void {
  nodePacer.schedule(fn);
}
