// Where a watch starts, after kube-apiserver 1.33's cacher.go Watch and watch_cache.go
// (getAllEventsSinceLocked):
//
//   resourceVersion unset  the current state as synthetic ADDED events, then every change;
//                          the state is a consistent read (the cache once it has reached the
//                          store's revision; kube's documents call this Most Recent)
//   "0"                    the same from the cache as it is, with no store round trip
//   N                      every change after N, no synthetic events. N older than the
//                          cache's history: one ERROR event holding the 410 Expired Status
//                          `too old resource version: N (M)`, M the oldest revision a watch
//                          may start from (returned as cacher.go's errWatcher). N newer than
//                          the cache: accepted at once; events come once the cache passes N
//                          (cacher.go waits for freshness only for sendInitialEvents).
//
// With the WatchList gate on, sendInitialEvents=true streams the state as of at least N
// (waiting for the cache to get there) followed by an end-of-initial-events bookmark, and
// sendInitialEvents=false starts from the current state without synthetic events.

import { StatusError, gone, type Status } from '../machinery/errors.js';
import { corruptWatchError } from '../machinery/corrupt.js';
import { parseResourceVersion } from '../machinery/resource-version.js';
import type { CacheEntry, CacheEvent, WatchCache } from './watch-cache.js';

/** What a watch reads its start from: the resource's cache and the node's freshness. */
export interface WatchSource {
  cache: WatchCache;
  /** The revision the node's caches reflect. */
  revision(): number;
  /**
   * Brings the cache to the freshness a resourceVersion asks for (unset: Most Recent, "0":
   * Any, N: Not older than); rejects with the 504 when it does not get there in time.
   */
  freshen(resourceVersion: string | undefined): Promise<number>;
}

/** Where a watch starts: queued events, or one ERROR event (kube's errWatcher). */
export type WatchStart =
  | {
      kind: 'events';
      /** Changes at or below this are not sent. */
      startRev: number;
      events: CacheEvent[];
      /** The events are the current state (ADDED), not history. */
      synthetic: boolean;
      /** Bookmarks must be newer than this, or the first one equal to it (see watcher.ts). */
      bookmarkFloor: number;
      /** With sendInitialEvents: the revision the initial events reflect (the end bookmark's). */
      initialEventsEnd?: number;
    }
  | { kind: 'error'; status: Status };

const added = (entry: CacheEntry): CacheEvent => ({ type: 'ADDED', rv: entry.rv, entry, at: 0 });

/**
 * The start of a watch of the keys under `prefix` that pass `filter`. The caller has
 * subscribed to the cache before, so nothing committed while this waits is lost.
 */
export async function watchStart(
  src: WatchSource,
  prefix: string,
  filter: ((e: CacheEntry) => boolean) | undefined,
  resourceVersion: string,
  sendInitialEvents?: boolean,
): Promise<WatchStart> {
  const selected = (entries: CacheEntry[]): CacheEntry[] => (filter ? entries.filter(filter) : entries);
  // A start that lists the current state cannot list a value it cannot read: kube's etcd
  // watcher answers that with an ERROR event.
  const unreadable = (): WatchStart | undefined => {
    const c = src.cache.corruptUnder(prefix)[0];
    return c ? { kind: 'error', status: corruptWatchError(c.reason, false).status } : undefined;
  };
  if (sendInitialEvents === true) {
    // waitUntilWatchCacheFreshAndForceAllEvents: consistent for unset, at least N otherwise.
    await src.freshen(resourceVersion === '0' ? '0' : resourceVersion || undefined);
    const bad = unreadable();
    if (bad) return bad;
    const startRev = src.revision();
    const events = selected(src.cache.list(prefix)).map(added);
    return { kind: 'events', startRev, events, synthetic: true, bookmarkFloor: startRev, initialEventsEnd: startRev };
  }
  if (sendInitialEvents === false && (resourceVersion === '' || resourceVersion === '0')) {
    if (resourceVersion === '') await src.freshen(undefined);
    const startRev = src.revision();
    return { kind: 'events', startRev, events: [], synthetic: false, bookmarkFloor: startRev };
  }
  if (resourceVersion === '' || resourceVersion === '0') {
    if (resourceVersion === '') {
      // Most Recent: the cache once it reached the store's revision. If it does not get
      // there in time, it starts from the cache as it is, as kube's cacher does for every
      // watch without a resourceVersion.
      try {
        await src.freshen(undefined);
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 504)) throw e;
      }
    }
    const bad = unreadable();
    if (bad) return bad;
    // The revision and the state are read together (no await between), so they agree.
    const startRev = src.revision();
    const all = src.cache.list(prefix);
    const events = selected(all).map(added);
    // cache_watcher.go processInterval: the synthetic events carry the cache's revision, and
    // the watcher's position becomes it only when there was at least one (selected or not).
    return { kind: 'events', startRev, events, synthetic: true, bookmarkFloor: all.length > 0 ? startRev : 0 };
  }
  const requested = parseResourceVersion(resourceVersion);
  const hist = src.cache.eventsAfter(requested);
  if (!hist) return { kind: 'error', status: gone(`too old resource version: ${requested} (${src.cache.oldestRevision})`).status };
  const last = hist.length > 0 ? hist[hist.length - 1].rv : 0;
  return { kind: 'events', startRev: requested, events: hist, synthetic: false, bookmarkFloor: Math.max(requested, last) };
}
