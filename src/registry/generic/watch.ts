// The generic store's watch: the request's scope (namespace, name, selectors) turned into a
// watcher of the resource's cache (src/cache/watcher.ts), as kube's generic registry Watch
// hands a SelectionPredicate to the cacher. The caller sees a Watch to pipe into its sink,
// never the cache's entries or the storage keys.

import type { WatchCache } from '../../cache/watch-cache.js';
import { openWatcher } from '../../cache/watcher.js';
import type { Watch } from '../../machinery/watch.js';
import type { ResourceDef } from '../types.js';
import type { SelectionPredicate } from './selection.js';

export interface WatchOptions {
  /** Only the object of this name (the `/watch/` path of a named object). */
  name?: string;
  filter?: SelectionPredicate;
  /** As the request gave it ('' when unset); the caller has checked that it parses. */
  resourceVersion: string;
  /** As the request gave it (the WatchList gate and resourceVersionMatch checked). */
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  /** The watch ends this long after it starts streaming. */
  timeoutMs: number;
  /** The period of bookmarks, when allowed. */
  bookmarkIntervalMs: number;
}

/** What of the generic store a watch reads. */
export interface WatchedStore {
  readonly def: ResourceDef;
  readonly apiVersion: string;
  readonly cache: WatchCache;
  readonly cacheRevision: number;
  listPrefix(namespace: string): string;
  freshen(resourceVersion: string | undefined): Promise<number>;
}

/** A watch of `namespace` ('' for all) of `store`'s resource; rejects as its freshness wait does. */
export function watchStore(store: WatchedStore, namespace: string, opts: WatchOptions): Promise<Watch> {
  const { name, filter } = opts;
  const { group, version, kind } = store.def;
  return openWatcher(
    { cache: store.cache, revision: () => store.cacheRevision, freshen: (rv) => store.freshen(rv) },
    { group, version, kind, apiVersion: store.apiVersion },
    {
      prefix: store.listPrefix(namespace),
      filter: name ? (e) => e.name === name && (!filter || filter(e)) : filter,
      resourceVersion: opts.resourceVersion,
      sendInitialEvents: opts.sendInitialEvents,
      allowWatchBookmarks: opts.allowWatchBookmarks,
      timeoutMs: opts.timeoutMs,
      bookmarkIntervalMs: opts.bookmarkIntervalMs,
    },
  );
}
