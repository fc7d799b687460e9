// A per-resource cache: the current objects (as bytes) plus a bounded history of events,
// after k8s.io/apiserver's watch_cache.go. It never talks to storage itself: the node's
// RegistryWatch feeds it events in revision order, so every cache on a node agrees on
// what revision it reflects.

import { replaceResourceVersion, withResourceVersion, type VersionedBytes } from '../machinery/stored-bytes.js';
import { corruptReason, type CorruptReason } from '../machinery/corrupt.js';

/**
 * A key whose stored value cannot be read (undecryptable, or not an object): kept beside the
 * readable objects so gets and lists can report it as kube does, and so it can be deleted.
 */
export interface CorruptEntry {
  key: string;
  namespace: string;
  name: string;
  rv: number;
  createRevision: number;
  /** The raw stored bytes. */
  value: Buffer;
  readError?: string;
  reason: CorruptReason;
}

/** A change the cache could not turn into an event: a value that became unreadable, or the deletion of one. */
export type CorruptListener = (c: CorruptEntry, deleted: boolean) => void;

export interface CacheEntry extends VersionedBytes {
  key: string;
  namespace: string;
  name: string;
  rv: number;
  createRevision: number;
  /** Read by other than the writing encryption provider or key (see KeyValue.stale). */
  stale: boolean;
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface CacheEvent {
  type: EventType;
  rv: number;
  /** The object after the change; for DELETED, the last state carrying the deletion revision. */
  entry: CacheEntry;
  /** The object before the change, when there was one. */
  prev?: CacheEntry;
  /** When the event was recorded, for time-bounded history. */
  at: number;
}

export type CacheListener = (events: CacheEvent[]) => void;

export interface WatchCacheOptions {
  /** Keep events at least this long (kube: 5 minutes on the default store). */
  historyMs: number;
  /** Hard cap on kept events, so a write storm cannot exhaust memory. */
  maxHistory: number;
  /**
   * Turns the stored bytes into the ones this cache serves (a resource that shows another
   * one's stored objects in its own shape); unset keeps them as stored.
   */
  transform?: (value: Buffer) => Buffer;
}

/** Binary search: first index in `arr` whose value is >= `key`. */
function lowerBound(arr: string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Up to this many pending changes are spliced in one by one; more are merged in one pass. */
const SPLICE_MAX = 16;

function mergeSorted(a: string[], b: string[]): string[] {
  const out = new Array<string>(a.length + b.length);
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < a.length && j < b.length) out[o++] = a[i] < b[j] ? a[i++] : b[j++];
  while (i < a.length) out[o++] = a[i++];
  while (j < b.length) out[o++] = b[j++];
  return out;
}

export class WatchCache {
  private readonly items = new Map<string, CacheEntry>();
  /**
   * Keys in order, for lists and pages, brought up to date on read: a write only notes its key
   * in `pendingAdds`/`pendingRemovals`, since keeping the array sorted on every write moves
   * the whole array each time, and a collection being written is seldom listed in between.
   */
  private sortedKeys: string[] = [];
  private readonly pendingAdds = new Set<string>();
  private readonly pendingRemovals = new Set<string>();
  private history: CacheEvent[] = [];
  private historyStart = 0;
  /** Events at or below this revision are no longer in history. */
  private oldestKnown = 0;
  private readonly listeners = new Set<CacheListener>();
  /** Told when the state is replaced (a relist): their view of history has a gap. */
  private readonly resetListeners = new Set<() => void>();
  /**
   * In-process readers of the cache (the controllers' informers), told of a relist too; they
   * are no watch streams: not counted by watchCount, not ended by terminateWatchers.
   */
  private readonly relistListeners = new Set<() => void>();
  private readonly corrupt = new Map<string, CorruptEntry>();
  private readonly corruptListeners = new Set<CorruptListener>();

  constructor(
    /** The storage key prefix with a trailing slash, e.g. `/registry/apps/statefulsets/`. */
    readonly prefix: string,
    readonly namespaced: boolean,
    private readonly opts: WatchCacheOptions,
  ) {}

  get size(): number {
    return this.items.size;
  }

  /** The oldest revision a watch may start from (exclusive): history begins after it. */
  get oldestRevision(): number {
    return this.oldestKnown;
  }

  private split(key: string): { namespace: string; name: string } {
    const rest = key.slice(this.prefix.length);
    if (!this.namespaced) return { namespace: '', name: rest };
    const i = rest.indexOf('/');
    return { namespace: rest.slice(0, i), name: rest.slice(i + 1) };
  }

  /** Replaces the whole state (initial list or relist) at `revision`. */
  reset(kvs: { key: string; value: Buffer; modRevision: number; createRevision: number; readError?: string; stale?: boolean }[], revision: number): void {
    this.items.clear();
    this.corrupt.clear();
    this.pendingAdds.clear();
    this.pendingRemovals.clear();
    const keys: string[] = [];
    for (const kv of kvs) {
      const reason = corruptReason(kv);
      if (reason) {
        this.corrupt.set(kv.key, this.corruptEntry(kv.key, kv.value, kv.modRevision, kv.createRevision, reason, kv.readError));
        continue;
      }
      const e = this.makeEntry(kv.key, kv.value, kv.modRevision, kv.createRevision, kv.stale === true);
      this.items.set(kv.key, e);
      keys.push(kv.key);
    }
    this.sortedKeys = keys.sort();
    this.history = [];
    this.historyStart = 0;
    this.oldestKnown = revision;
    // kube's cacher terminates every watcher when it reinitializes: they resume from their
    // last resourceVersion (410 if that is now before the new history) or relist.
    for (const l of [...this.resetListeners]) l();
    for (const l of [...this.relistListeners]) l();
  }

  private makeEntry(key: string, value: Buffer, rv: number, createRevision: number, stale = false): CacheEntry {
    const vb = withResourceVersion(this.opts.transform ? this.opts.transform(value) : value, rv);
    const { namespace, name } = this.split(key);
    // Spelled out: a spread made V8 build a new hidden class for every entry.
    return { bytes: vb.bytes, rvStart: vb.rvStart, rvEnd: vb.rvEnd, key, namespace, name, rv, createRevision, stale };
  }

  private corruptEntry(key: string, value: Buffer, rv: number, createRevision: number, reason: CorruptReason, readError?: string): CorruptEntry {
    const { namespace, name } = this.split(key);
    return { key, namespace, name, rv, createRevision, value, readError, reason };
  }

  /**
   * Applies one storage event; returns the cache event it became (none for a delete of an
   * unknown key, nor for a change to or from an unreadable value: those go to onCorrupt's
   * listeners, and history restarts after them, as kube's cacher reinitializes).
   */
  apply(
    type: 'put' | 'delete',
    key: string,
    value: Buffer | undefined,
    rv: number,
    createRevision: number,
    now: number,
    readError?: string,
    stale = false,
  ): CacheEvent | undefined {
    const prev = this.items.get(key);
    const reason = type === 'put' && value ? corruptReason({ value, modRevision: rv, readError }) : undefined;
    const wasCorrupt = this.corrupt.get(key);
    if (reason || wasCorrupt) {
      if (prev) {
        this.items.delete(key);
        this.noteRemoved(key);
      }
      let c: CorruptEntry;
      if (reason) {
        c = this.corruptEntry(key, value!, rv, createRevision, reason, readError);
        this.corrupt.set(key, c);
      } else {
        this.corrupt.delete(key);
        c = wasCorrupt!;
      }
      if (!reason && type === 'put' && value) {
        // Readable again (rewritten): a plain ADDED for those who watch from here on.
        const entry = this.makeEntry(key, value, rv, createRevision, stale);
        this.noteAdded(key);
        this.items.set(key, entry);
      }
      this.history = [];
      this.historyStart = 0;
      this.oldestKnown = rv;
      for (const l of [...this.corruptListeners]) l(c, type === 'delete');
      return undefined;
    }
    let ev: CacheEvent;
    if (type === 'put' && value) {
      const entry = this.makeEntry(key, value, rv, createRevision, stale);
      if (!prev) this.noteAdded(key);
      this.items.set(key, entry);
      ev = { type: prev ? 'MODIFIED' : 'ADDED', rv, entry, prev, at: now };
    } else {
      if (!prev) return undefined;
      this.items.delete(key);
      this.noteRemoved(key);
      const last = replaceResourceVersion(prev, rv);
      ev = { type: 'DELETED', rv, entry: { ...prev, ...last, rv }, prev, at: now };
    }
    this.history.push(ev);
    return ev;
  }

  private noteAdded(key: string): void {
    // A key removed and added back before anyone read the order is still in sortedKeys.
    if (!this.pendingRemovals.delete(key)) this.pendingAdds.add(key);
  }

  private noteRemoved(key: string): void {
    if (!this.pendingAdds.delete(key)) this.pendingRemovals.add(key);
  }

  /** The keys in order, with the writes since the last read folded in. */
  private get sorted(): string[] {
    if (this.pendingAdds.size === 0 && this.pendingRemovals.size === 0) return this.sortedKeys;
    let keys = this.sortedKeys;
    const removals = this.pendingRemovals;
    if (removals.size > 0) {
      if (removals.size <= SPLICE_MAX) {
        for (const k of removals) {
          const i = lowerBound(keys, k);
          if (keys[i] === k) keys.splice(i, 1);
        }
      } else {
        keys = keys.filter((k) => !removals.has(k));
      }
      removals.clear();
    }
    const adds = [...this.pendingAdds].sort();
    this.pendingAdds.clear();
    if (adds.length <= SPLICE_MAX) {
      for (const k of adds) keys.splice(lowerBound(keys, k), 0, k);
    } else {
      keys = mergeSorted(keys, adds);
    }
    this.sortedKeys = keys;
    return keys;
  }

  /** Drops history older than the time window (and beyond the cap). */
  trim(now: number): void {
    const h = this.history;
    let s = this.historyStart;
    const cutoff = now - this.opts.historyMs;
    while (s < h.length && (h.length - s > this.opts.maxHistory || h[s].at < cutoff)) {
      this.oldestKnown = h[s].rv;
      s++;
    }
    if (s > 1024 && s > h.length / 2) {
      this.history = h.slice(s);
      s = 0;
    }
    this.historyStart = s;
  }

  publish(events: CacheEvent[]): void {
    if (events.length === 0) return;
    for (const l of this.listeners) l(events);
  }

  subscribe(l: CacheListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Calls `l` when the cache is reset (relisted); returns the unsubscribe function. */
  /** The unreadable value stored under `key`, if it is one. */
  corruptAt(key: string): CorruptEntry | undefined {
    return this.corrupt.get(key);
  }

  /** The unreadable values under a key prefix, in key order. */
  corruptUnder(prefix: string): CorruptEntry[] {
    if (this.corrupt.size === 0) return [];
    return [...this.corrupt.values()].filter((c) => c.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  onCorrupt(l: CorruptListener): () => void {
    this.corruptListeners.add(l);
    return () => this.corruptListeners.delete(l);
  }

  /** Watches served from this cache (in-process subscribers, such as controllers, aside). */
  get watchCount(): number {
    return this.resetListeners.size;
  }

  /** Ends every watch cleanly, as kube's cacher does when it stops: clients resume from their last resourceVersion. */
  terminateWatchers(): void {
    for (const l of [...this.resetListeners]) l();
  }

  onReset(l: () => void): () => void {
    this.resetListeners.add(l);
    return () => this.resetListeners.delete(l);
  }

  /** An in-process reader's relist hook (see relistListeners). */
  onRelist(l: () => void): () => void {
    this.relistListeners.add(l);
    return () => this.relistListeners.delete(l);
  }

  get watcherCount(): number {
    return this.listeners.size;
  }

  get(key: string): CacheEntry | undefined {
    return this.items.get(key);
  }

  /** Entries whose key starts with `keyPrefix`, in key order, from `fromKey` (inclusive). */
  list(keyPrefix: string, fromKey?: string): CacheEntry[] {
    const keys = this.sorted;
    const start = lowerBound(keys, fromKey && fromKey > keyPrefix ? fromKey : keyPrefix);
    const out: CacheEntry[] = [];
    for (let i = start; i < keys.length; i++) {
      const k = keys[i];
      if (!k.startsWith(keyPrefix)) break;
      out.push(this.items.get(k)!);
    }
    return out;
  }

  /**
   * A page of the keys under `keyPrefix` from `fromKey` on: up to `limit` entries that pass
   * `filter`, and how many keys there are from the start on (matching or not). It stops at
   * the page's end, so a page of a large collection costs the page, not the collection.
   */
  page(keyPrefix: string, fromKey: string | undefined, limit: number, filter?: (e: CacheEntry) => boolean): { items: CacheEntry[]; more: boolean; total: number } {
    const keys = this.sorted;
    const start = lowerBound(keys, fromKey && fromKey > keyPrefix ? fromKey : keyPrefix);
    // Every key under the prefix sorts below prefix + U+FFFF.
    const end = lowerBound(keys, `${keyPrefix}\uffff`);
    const items: CacheEntry[] = [];
    let i = start;
    for (; i < end; i++) {
      // Any key past a full page means more, matching or not (kube does not look further).
      if (items.length >= limit) break;
      const e = this.items.get(keys[i])!;
      if (!filter || filter(e)) items.push(e);
    }
    return { items, more: i < end, total: Math.max(0, end - start) };
  }

  /**
   * Events with revision > rv, or undefined when history no longer reaches back that far
   * (the caller answers 410 Gone).
   */
  eventsAfter(rv: number): CacheEvent[] | undefined {
    if (rv < this.oldestKnown) return undefined;
    const h = this.history;
    let lo = this.historyStart;
    let hi = h.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (h[mid].rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return h.slice(lo);
  }
}
