// A controller's view of one resource on this node's watch cache (client-go's informer, fed by
// the cache rather than a list and watch over HTTP): the current objects, decoded once per
// stored version and shared (read-only), and handlers told of every change in revision order;
// a reload of the cache is told as the differences from what the handlers knew. The scheduler,
// the node controllers and the volume controllers read through it.

import type { CacheEntry, CacheEvent } from '../cache/watch-cache.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject } from '../machinery/object.js';

const decodedByBytes = new WeakMap<Buffer, KObject>();

/** The object a cache entry holds, decoded once for every reader (never change it). */
export function decodedEntry(e: CacheEntry): KObject {
  let o = decodedByBytes.get(e.bytes);
  if (!o) decodedByBytes.set(e.bytes, (o = JSON.parse(e.bytes.toString('utf8')) as KObject));
  return o;
}

export interface Handlers {
  add?(obj: KObject): void;
  update?(old: KObject, cur: KObject): void;
  delete?(obj: KObject): void;
}

export class CacheInformer {
  private readonly handlers = new Set<Handlers>();
  private known = new Map<string, CacheEntry>();
  private unsubscribe?: () => void;
  private unsubscribeReset?: () => void;

  constructor(readonly store: GenericStore) {}

  /** Adds handlers; once started they first hear every current object as added. */
  on(h: Handlers): () => void {
    this.handlers.add(h);
    if (this.unsubscribe) for (const e of this.known.values()) h.add?.(decodedEntry(e));
    return () => this.handlers.delete(h);
  }

  start(): void {
    if (this.unsubscribe) return;
    const cache = this.store.cache;
    this.unsubscribe = cache.subscribe((evs) => this.onEvents(evs));
    this.unsubscribeReset = cache.onReset(() => this.relist());
    for (const e of cache.list(this.store.prefix)) {
      this.known.set(e.key, e);
      for (const h of this.handlers) h.add?.(decodedEntry(e));
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribeReset?.();
    this.unsubscribe = undefined;
    this.known.clear();
  }

  get(namespace: string, name: string): KObject | undefined {
    const e = this.store.cache.get(this.store.keyFor(namespace, name));
    return e && decodedEntry(e);
  }

  list(namespace = ''): KObject[] {
    return this.store.cache.list(this.store.listPrefix(namespace)).map(decodedEntry);
  }

  private onEvents(evs: CacheEvent[]): void {
    for (const ev of evs) {
      if (ev.type === 'DELETED') {
        this.known.delete(ev.entry.key);
        const last = decodedEntry(ev.prev ?? ev.entry);
        for (const h of this.handlers) h.delete?.(last);
        continue;
      }
      this.known.set(ev.entry.key, ev.entry);
      const cur = decodedEntry(ev.entry);
      if (ev.prev) {
        const old = decodedEntry(ev.prev);
        for (const h of this.handlers) h.update?.(old, cur);
      } else for (const h of this.handlers) h.add?.(cur);
    }
  }

  private relist(): void {
    const before = this.known;
    const now = new Map<string, CacheEntry>();
    for (const e of this.store.cache.list(this.store.prefix)) now.set(e.key, e);
    this.known = now;
    for (const [k, old] of before) if (!now.has(k)) for (const h of this.handlers) h.delete?.(decodedEntry(old));
    for (const [k, e] of now) {
      const old = before.get(k);
      if (old && old.rv === e.rv) continue;
      for (const h of this.handlers) {
        if (old) h.update?.(decodedEntry(old), decodedEntry(e));
        else h.add?.(decodedEntry(e));
      }
    }
  }
}
