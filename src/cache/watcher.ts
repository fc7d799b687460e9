// One watcher of one resource's cache, after kube-apiserver 1.33's cacheWatcher
// (storage/cacher/cache_watcher.go): it turns the cache's changes into this watcher's
// events and paces them into a sink (src/machinery/watch.ts), which frames and sends them.
//
// The watcher subscribes to the cache before it reads its start state (watch-start.ts), so
// it never sees a gap or a repeat at the seam. A label or field selector turns a change that
// enters the selection into ADDED and one that leaves it into DELETED carrying the previous
// state at the new resourceVersion (cache_watcher.go convertToWatchEvent).
//
// Pacing: the start state (and history) goes out as fast as the client reads it; live
// changes are queued in the watcher, never slowing the writer or other watchers, and leave
// in the node's shared flushes (watch-flush.ts). A watcher whose unread backlog passes
// MAX_PENDING_BYTES is too far behind: its stream ends (what was already written is still
// delivered) and the client resumes from the last resourceVersion it saw, as kube's cacher
// terminates a blocked watcher.
//
// allowWatchBookmarks: a BOOKMARK event (kind, apiVersion and metadata.resourceVersion only)
// every bookmark interval (kube: one minute) and one 2 s before the watch's deadline
// (cache_watcher.go nextBookmarkTime), carrying the node's revision: every change up to it
// has been sent before it. As in cache_watcher.go process(), a bookmark goes out only when
// that revision is past the watcher's position, or once when it equals it, so an idle node
// sends one and a watch that starts ahead of the node none. A watcher that is behind skips
// bookmarks.
//
// A relist of the cache (the node's storage watch fell behind) ends every watch, as kube's
// cacher terminates its watchers when it reinitializes. The deadline ends the stream cleanly.
// apiserver_registered_watchers counts the watchers that are streaming.

import { replaceResourceVersion } from '../machinery/stored-bytes.js';
import { corruptWatchError } from '../machinery/corrupt.js';
import type { Watch, WatchEvent, WatchEventType, WatchSink } from '../machinery/watch.js';
import { watchEventsSizes, watchEventsTotal, watcherRegistered, watcherUnregistered } from './metrics.js';
import type { CacheEntry, CacheEvent } from './watch-cache.js';
import { scheduleFlush } from './watch-flush.js';
import { watchStart, type WatchSource, type WatchStart } from './watch-start.js';

/** A watcher whose unread backlog passes this is closed and must resume. */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/** Catch-up events are written while less than this waits in the connection. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** How long a stream ended for lag may take to drain before the connection is dropped. */
const LAG_DRAIN_MS = 30_000;
/** kube sends the last bookmark this long before the watch's deadline (cache_watcher.go). */
const PRE_TIMEOUT_BOOKMARK_MS = 2000;

/** The resource a watcher serves, as its bookmarks and metrics name it. */
export interface WatchedResource {
  group: string;
  version: string;
  kind: string;
  apiVersion: string;
}

export interface WatcherOptions {
  /** The storage keys watched: one namespace's prefix, or the resource's. */
  prefix: string;
  /** The objects watched under the prefix (name, selectors); all when unset. */
  filter?: (e: CacheEntry) => boolean;
  /** As the request gave it ('' when unset); already checked to parse. */
  resourceVersion: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  /** The watch ends this long after it starts streaming. */
  timeoutMs: number;
  bookmarkIntervalMs: number;
}

/** One watch event as this watcher sees it. */
interface Item extends WatchEvent {
  stored?: CacheEntry;
  /** Counted against the lag bound (live events only). */
  size: number;
}

/** The previous state at the new revision, for watchers that see a change as DELETED. */
const leavingEntries = new WeakMap<CacheEvent, CacheEntry>();

function leavingEntry(ev: CacheEvent): CacheEntry {
  let e = leavingEntries.get(ev);
  if (!e) {
    const prev = ev.prev!;
    e = { ...prev, ...replaceResourceVersion(prev, ev.rv), rv: ev.rv };
    leavingEntries.set(ev, e);
  }
  return e;
}

/** A stream the server ended gets LAG_DRAIN_MS to drain; then the connection is dropped. */
function armDrainTimer(sink: WatchSink): void {
  const t = setTimeout(() => sink.destroy(), LAG_DRAIN_MS);
  t.unref();
  sink.onClose(() => clearTimeout(t));
}

/**
 * Opens a watcher: subscribes to the cache, then settles where it starts (waiting for
 * freshness where the resourceVersion asks for it). Rejects as that wait does.
 */
export async function openWatcher(src: WatchSource, resource: WatchedResource, opts: WatcherOptions): Promise<Watcher> {
  const w = new Watcher(src, resource, opts);
  try {
    w.settle(await watchStart(src, opts.prefix, opts.filter, opts.resourceVersion, opts.sendInitialEvents));
  } catch (e) {
    w.stop();
    throw e;
  }
  return w;
}

export class Watcher implements Watch {
  /** Changes that arrived before the watch was piped; undefined once the cache was reset. */
  private early: CacheEvent[] | undefined = [];
  private start?: WatchStart;
  private sink?: WatchSink;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeReset: () => void;

  private readonly queue: (Item | undefined)[] = [];
  private head = 0;
  private queuedLiveBytes = 0;
  private flushScheduled = false;
  private waitingDrain = false;
  private closed = false;
  /** The revision of the last change this watcher has taken in. */
  private lastRv = 0;
  private deadline = 0;
  private timer?: NodeJS.Timeout;
  private bookmarkTimer?: NodeJS.Timeout;
  private bookmarkSent = false;
  private readonly pumpFn = (): void => this.pump();
  private readonly metricLabels: readonly string[];
  private readonly finishFn = (): void => this.finish();

  /** Use openWatcher. */
  constructor(
    private readonly src: WatchSource,
    private readonly resource: WatchedResource,
    private readonly opts: WatcherOptions,
  ) {
    this.metricLabels = [resource.group, resource.version, resource.kind];
    this.unsubscribe = src.cache.subscribe((evs) => this.onEvents(evs));
    this.unsubscribeReset = src.cache.onReset(() => this.onReset());
    // A change this watcher cannot be told (an unreadable value, or the deletion of one): an
    // ERROR event, as kube's etcd watcher sends it, and the end of the stream.
    const offCorrupt = src.cache.onCorrupt((c, deleted) => {
      if (!c.key.startsWith(this.opts.prefix)) return;
      if (!this.sink) {
        this.early = undefined;
        return;
      }
      if (this.closed) return;
      this.sink.write({ type: 'ERROR', object: corruptWatchError(c.reason, deleted).status as unknown as Record<string, unknown> });
      this.finish();
    });
    const unsubscribeReset = this.unsubscribeReset;
    this.unsubscribeReset = () => {
      unsubscribeReset();
      offCorrupt();
    };
  }

  /** Records where the watch starts. An ERROR start takes no changes. */
  settle(start: WatchStart): void {
    this.start = start;
    if (start.kind === 'error') this.stopFeed();
  }

  stop(): void {
    if (this.sink) this.close();
    else this.stopFeed();
  }

  pipe(sink: WatchSink): void {
    const start = this.start!;
    if (start.kind === 'error') {
      sink.write({ type: 'ERROR', object: start.status as unknown as Record<string, unknown> });
      sink.end();
      armDrainTimer(sink);
      return;
    }
    // The cache was relisted while the watch started: the client resumes or relists.
    if (this.early === undefined) {
      this.stopFeed();
      sink.end();
      return;
    }
    this.sink = sink;
    this.lastRv = start.startRev;
    watcherRegistered(this.resource.group, this.resource.version, this.resource.kind);
    sink.onClose(() => this.close());

    for (const ev of start.events) {
      const it = this.itemOf(ev, start.synthetic);
      if (it) {
        it.size = 0;
        this.queue.push(it);
      }
      if (!start.synthetic) this.lastRv = ev.rv;
    }
    if (start.initialEventsEnd !== undefined && this.opts.allowWatchBookmarks) {
      // The end of the initial state, as kube's cacher marks it for a streaming list.
      this.queue.push({
        type: 'BOOKMARK',
        object: this.bookmarkObject(start.initialEventsEnd, { 'k8s.io/initial-events-end': 'true' }),
        size: 0,
      });
    }
    const early = this.early;
    this.early = undefined;
    this.live(early);
    if (!this.waitingDrain) this.pump();

    const timeoutMs = this.opts.timeoutMs;
    this.deadline = Date.now() + timeoutMs;
    // (A timer cannot wait longer than 2^31-1 ms; a longer timeout waits that long.)
    this.timer = setTimeout(this.finishFn, Math.min(2 ** 31 - 1, Math.max(0, timeoutMs)));
    if (this.opts.allowWatchBookmarks) this.scheduleBookmark();
  }

  private onEvents(evs: CacheEvent[]): void {
    if (this.sink) this.live(evs);
    else if (this.early) for (const ev of evs) this.early.push(ev);
  }

  private onReset(): void {
    if (this.sink) this.finish();
    else this.early = undefined;
  }

  private stopFeed(): void {
    this.unsubscribe();
    this.unsubscribeReset();
  }

  /** Whether an object is watched: under the prefix and selected. */
  private inScope(e: CacheEntry): boolean {
    const f = this.opts.filter;
    return e.key.startsWith(this.opts.prefix) && (!f || f(e));
  }

  /** This watcher's view of a change: a selector turns it into ADDED or DELETED, or hides it. */
  private itemOf(ev: CacheEvent, synthetic: boolean): Item | undefined {
    const now = this.inScope(ev.entry);
    if (synthetic) return now ? { type: 'ADDED', stored: ev.entry, size: 0 } : undefined;
    const before = ev.prev ? this.inScope(ev.prev) : false;
    let type: WatchEventType | undefined;
    if (ev.type === 'DELETED') type = before ? 'DELETED' : undefined;
    else if (ev.type === 'ADDED') type = now ? 'ADDED' : undefined;
    else if (now) type = before ? 'MODIFIED' : 'ADDED';
    else if (before) type = 'DELETED';
    if (!type) return undefined;
    // Leaving the selected set: the last state the watcher could see, at the new revision.
    const stored = type === 'DELETED' && ev.type !== 'DELETED' ? leavingEntry(ev) : ev.entry;
    return { type, stored, size: stored.bytes.length };
  }

  /** Queues live changes for the next flush; ends a watcher that is too far behind. */
  private live(evs: CacheEvent[]): void {
    if (this.closed) return;
    for (const ev of evs) {
      if (ev.rv <= this.lastRv) continue;
      this.lastRv = ev.rv;
      const it = this.itemOf(ev, false);
      if (!it) continue;
      this.queue.push(it);
      this.queuedLiveBytes += it.size;
    }
    if (!this.waitingDrain && !this.flushScheduled && this.head < this.queue.length) {
      this.flushScheduled = true;
      scheduleFlush(this.pumpFn);
    }
    // Too far behind: end the stream; the client resumes from its last resourceVersion.
    if (!this.closed && this.sink!.pending() + this.queuedLiveBytes > MAX_PENDING_BYTES) this.finish();
  }

  /** Writes queued events while the connection takes them; waits for a drain when it does not. */
  private pump(): void {
    this.waitingDrain = false;
    this.flushScheduled = false;
    const sink = this.sink!;
    const queue = this.queue;
    const labels = this.metricLabels;
    sink.cork?.();
    try {
      while (!this.closed && this.head < queue.length) {
        if (sink.pending() >= HIGH_WATER_BYTES) {
          this.waitingDrain = true;
          sink.whenDrained(this.pumpFn);
          return;
        }
        const it = queue[this.head]!;
        queue[this.head++] = undefined;
        this.queuedLiveBytes -= it.size;
        sink.write(it);
        watchEventsTotal.inc(labels);
        watchEventsSizes.observe(labels, it.stored ? it.stored.bytes.length : 0);
      }
    } finally {
      sink.uncork?.();
    }
    if (this.head === queue.length) {
      queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head > queue.length / 2) {
      queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /** Stops the watcher; the stream is closed or closing. */
  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopFeed();
    clearTimeout(this.timer);
    clearTimeout(this.bookmarkTimer);
    this.queue.length = 0;
    watcherUnregistered(this.resource.group, this.resource.version, this.resource.kind);
  }

  /** Ends the stream from the server's side (timeout, lag, relist). */
  private finish(): void {
    if (this.closed) return;
    this.close();
    this.sink!.end();
    armDrainTimer(this.sink!);
  }

  private bookmarkObject(rv: number, annotations?: Record<string, string>): Record<string, unknown> {
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (annotations) metadata.annotations = annotations;
    return { kind: this.resource.kind, apiVersion: this.resource.apiVersion, metadata };
  }

  /** cache_watcher.go nextBookmarkTime: every interval, and once right before the deadline. */
  private scheduleBookmark(): void {
    const now = Date.now();
    const at = Math.min(now + this.opts.bookmarkIntervalMs, this.deadline - PRE_TIMEOUT_BOOKMARK_MS);
    if (at < now || this.closed) return;
    this.bookmarkTimer = setTimeout(() => {
      // Every change of this cache up to the node's revision has been queued before now;
      // a watch that starts ahead of the node gets none until the node reaches its start.
      // cache_watcher.go process(): a bookmark newer than the watcher's start position, or
      // the first one equal to it.
      const rv = this.src.revision();
      const floor = (this.start as Extract<WatchStart, { kind: 'events' }>).bookmarkFloor;
      // A watcher still behind skips the bookmark (kube's cacher drops it for a full watcher).
      if (!this.closed && (rv > floor || (rv === floor && !this.bookmarkSent)) && this.head === this.queue.length) {
        this.bookmarkSent = true;
        this.queue.push({ type: 'BOOKMARK', object: this.bookmarkObject(rv), size: 0 });
        this.pump();
      }
      this.scheduleBookmark();
    }, at - now);
  }
}
