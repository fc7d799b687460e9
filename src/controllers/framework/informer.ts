// In-process informers, after client-go's SharedInformer: a controller's view of one resource,
// fed by the node's watch cache rather than a list+watch over HTTP. Starting one subscribes to
// the cache and replays what it holds as adds in the same tick (so nothing falls between the
// list and the watch); every later change reaches the handlers in revision order; a relist of
// the cache (the store's watch restarted) replays the state as kube's reflector does after a
// relist: updates for what is still there, deletes for what went, adds for what is new. A
// resync period hands every object to the handlers again as an update of itself.
//
// Objects are decoded once per stored version and shared by every informer and controller:
// they are read-only; a controller clones before it changes anything.

import type { CacheEntry, CacheEvent } from '../../cache/watch-cache.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';

const decodedByBytes = new WeakMap<Buffer, KObject>();

/** The object a cache entry holds, decoded once for all readers (read-only). */
export function decoded(e: CacheEntry): KObject {
  let o = decodedByBytes.get(e.bytes);
  if (!o) {
    o = JSON.parse(e.bytes.toString('utf8')) as KObject;
    decodedByBytes.set(e.bytes, o);
  }
  return o;
}

export interface EventHandler {
  add?(obj: KObject): void;
  update?(old: KObject, cur: KObject): void;
  delete?(obj: KObject): void;
}

/** `namespace/name`, or `name` for cluster-scoped objects (client-go's MetaNamespaceKeyFunc). */
export function keyOf(obj: { metadata: { namespace?: string; name?: string } }): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? '');
}

export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

export class SharedInformer {
  private readonly handlers = new Set<EventHandler>();
  private unsubscribe?: () => void;
  private unsubscribeReset?: () => void;
  private resyncTimer?: NodeJS.Timeout;
  /** What the handlers were last told, by key: the base of a relist's diff. */
  private known = new Map<string, CacheEntry>();

  constructor(
    readonly store: GenericStore,
    private readonly resyncMs = 0,
  ) {}

  get started(): boolean {
    return this.unsubscribe !== undefined;
  }

  /** Adds a handler; on a started informer it first hears every current object as an add. */
  addEventHandler(h: EventHandler): () => void {
    this.handlers.add(h);
    if (this.started && h.add) for (const e of this.store.cache.list(this.store.prefix)) h.add(decoded(e));
    return () => this.handlers.delete(h);
  }

  start(): void {
    if (this.started) return;
    const cache = this.store.cache;
    this.unsubscribe = cache.subscribe((evs) => this.onEvents(evs));
    // A relist of the cache (not a watch stream: graceful shutdown neither waits for it nor ends it).
    this.unsubscribeReset = cache.onReset(() => this.relist());
    for (const e of cache.list(this.store.prefix)) {
      this.known.set(e.key, e);
      this.dispatchAdd(decoded(e));
    }
    if (this.resyncMs > 0) {
      this.resyncTimer = setInterval(() => this.resync(), this.resyncMs);
      this.resyncTimer.unref();
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribeReset?.();
    this.unsubscribe = undefined;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.known.clear();
  }

  /** The current object, or undefined. */
  get(namespace: string, name: string): KObject | undefined {
    const e = this.store.cache.get(this.store.keyFor(namespace, name));
    return e && decoded(e);
  }

  getByKey(key: string): KObject | undefined {
    const { namespace, name } = splitKey(key);
    return this.store.def.namespaced ? this.get(namespace, name) : this.get('', key);
  }

  /** The objects of one namespace ('' for all), in key order. */
  list(namespace = ''): KObject[] {
    return this.store.cache.list(this.store.listPrefix(namespace)).map(decoded);
  }

  private onEvents(evs: CacheEvent[]): void {
    for (const ev of evs) {
      if (ev.type === 'DELETED') {
        this.known.delete(ev.entry.key);
        this.dispatchDelete(ev.prev ? decoded(ev.prev) : decoded(ev.entry));
      } else if (ev.prev) {
        this.known.set(ev.entry.key, ev.entry);
        this.dispatchUpdate(decoded(ev.prev), decoded(ev.entry));
      } else {
        this.known.set(ev.entry.key, ev.entry);
        this.dispatchAdd(decoded(ev.entry));
      }
    }
  }

  /** The cache was reloaded: tell the handlers the difference from what they knew. */
  private relist(): void {
    const before = this.known;
    const now = new Map<string, CacheEntry>();
    for (const e of this.store.cache.list(this.store.prefix)) now.set(e.key, e);
    this.known = now;
    for (const [key, old] of before) if (!now.has(key)) this.dispatchDelete(decoded(old));
    for (const [key, e] of now) {
      const old = before.get(key);
      if (old) this.dispatchUpdate(decoded(old), decoded(e));
      else this.dispatchAdd(decoded(e));
    }
  }

  private resync(): void {
    for (const e of this.store.cache.list(this.store.prefix)) {
      const o = decoded(e);
      this.dispatchUpdate(o, o);
    }
  }

  private dispatchAdd(o: KObject): void {
    for (const h of this.handlers) h.add?.(o);
  }

  private dispatchUpdate(old: KObject, cur: KObject): void {
    for (const h of this.handlers) h.update?.(old, cur);
  }

  private dispatchDelete(o: KObject): void {
    for (const h of this.handlers) h.delete?.(o);
  }
}

/**
 * One informer per resource, shared by the controllers of one leadership term (client-go's
 * SharedInformerFactory); stopped with them.
 */
export class InformerFactory {
  private readonly informers = new Map<string, SharedInformer>();

  constructor(
    private readonly storeFor: (group: string, resource: string) => GenericStore | undefined,
    private readonly resyncMs = 0,
  ) {}

  /** The informer of a store's resource. */
  of(store: GenericStore): SharedInformer {
    return this.for(store.def.group, store.def.resource);
  }

  /** The informer of a served resource (started on first use). */
  for(group: string, resource: string): SharedInformer {
    const k = `${group}/${resource}`;
    let inf = this.informers.get(k);
    if (!inf) {
      const store = this.storeFor(group, resource);
      if (!store) throw new Error(`no store for ${resource}.${group}`);
      inf = new SharedInformer(store, this.resyncMs);
      this.informers.set(k, inf);
      inf.start();
    }
    return inf;
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
    this.informers.clear();
  }
}
