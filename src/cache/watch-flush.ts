// Live watch events leave in flushes shared by every watcher of the node: a flush hands each
// waiting watcher everything queued for it, in one write per watcher. When the node has
// headroom an event goes out at once (in the next check phase, so the events of one I/O turn
// share a flush). When flushes are costly (many watchers) and events close together (a high
// write rate), the node keeps a quiet spell between flushes in proportion to what the last
// ones cost, up to MAX_GAP_MS: the events that arrive meanwhile share the next flush and its
// one write per watcher. With a thousand watchers a write per event per watcher is what
// saturates a node (each is a syscall at both ends, and a TLS record); batching only under
// that pressure keeps the CPU saving where it matters and the latency low where it does not.
// kube's watch server likewise writes what is queued for a watcher when it flushes.

/** The longest quiet spell between two flushes, ms. */
export const MAX_GAP_MS = 25;
/**
 * The quiet spell after a flush, as a multiple of what flushes cost: with events streaming in,
 * fan-out takes at most about 1 / (1 + GAP_PER_COST) of the event loop.
 */
const GAP_PER_COST = 2;
/** Weight of the latest flush in the running cost (an exponential average). */
const COST_WEIGHT = 0.3;

let flushQueue: Array<() => void> = [];
let flushTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;
let lastFlushEnd = -Infinity;
let cost = 0;

function runFlush(): void {
  flushTimer = undefined;
  // The cost is the CPU the flush used, not the wall time it spanned: on a loaded machine the
  // process may be descheduled mid-flush, and counting that would hold events back for time
  // the node never spent on them.
  const cpu0 = process.cpuUsage();
  const fns = flushQueue;
  flushQueue = [];
  for (const fn of fns) fn();
  lastFlushEnd = performance.now();
  const used = process.cpuUsage(cpu0);
  cost += COST_WEIGHT * ((used.user + used.system) / 1000 - cost);
}

/** The quiet spell the node keeps after a flush now, ms (for tests and metrics). */
export function flushGapMs(): number {
  return Math.min(MAX_GAP_MS, cost * GAP_PER_COST);
}

/** Runs `fn` in the node's next flush. */
export function scheduleFlush(fn: () => void): void {
  flushQueue.push(fn);
  if (flushTimer !== undefined) return;
  const wait = lastFlushEnd + flushGapMs() - performance.now();
  flushTimer = wait <= 0 ? setImmediate(runFlush) : setTimeout(runFlush, wait);
}
