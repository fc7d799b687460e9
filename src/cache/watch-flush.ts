// Live watch events leave in flushes shared by every watcher of the node, at most one per
// WATCH_FLUSH_MS: an event after a quiet spell goes out at once, and events that follow
// closely wait for the next flush and share its write. With a thousand watchers a write per
// event per watcher is what saturates the node (each is a syscall at both ends); batching
// the events of a few milliseconds halves that under load and costs nothing when quiet.
// kube's watch server does the same with the events queued when it flushes.

const WATCH_FLUSH_MS = 25;
let flushQueue: Array<() => void> = [];
let flushTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;
let lastFlush = 0;

function runFlush(): void {
  flushTimer = undefined;
  lastFlush = performance.now();
  const fns = flushQueue;
  flushQueue = [];
  for (const fn of fns) fn();
}

/** Runs `fn` in the node's next flush. */
export function scheduleFlush(fn: () => void): void {
  flushQueue.push(fn);
  if (flushTimer !== undefined) return;
  const wait = lastFlush + WATCH_FLUSH_MS - performance.now();
  flushTimer = wait <= 0 ? setImmediate(runFlush) : setTimeout(runFlush, wait);
}
