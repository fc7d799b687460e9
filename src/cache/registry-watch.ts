// The node's one storage watch over the whole registry prefix. It feeds every
// resource's WatchCache in revision order and tracks the revision the node has seen,
// so a consistent ("Most Recent") read can wait for the caches instead of going to the store.

import type { Logger } from 'pino';
import type { Storage, StorageWatch, WatchEvent } from '../storage/interface.js';
import { isStorageError } from '../storage/errors.js';
import { timeout } from '../machinery/errors.js';
import type { CacheEvent, WatchCache } from './watch-cache.js';

interface Waiter {
  rev: number;
  resolve: () => void;
}

const NONE: readonly WatchCache[] = [];

export class RegistryWatch {
  private readonly caches: WatchCache[] = [];
  /** The caches by prefix: several share one when two resources serve the same stored objects. */
  private readonly groups: WatchCache[][] = [];
  private rev = 0;
  private waiters: Waiter[] = [];
  private watch?: StorageWatch;
  private closed = false;
  private trimTimer?: NodeJS.Timeout;
  private readyResolve!: () => void;
  /** Resolves once the initial list has been loaded. */
  readonly ready: Promise<void> = new Promise((r) => (this.readyResolve = r));

  constructor(
    private readonly storage: Storage,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {}

  add(cache: WatchCache): void {
    this.caches.push(cache);
    const group = this.groups.find((g) => g[0]!.prefix === cache.prefix);
    if (group) group.push(cache);
    else this.groups.push([cache]);
    // Longest prefix first, so nested prefixes route to the most specific cache.
    this.groups.sort((a, b) => b[0]!.prefix.length - a[0]!.prefix.length);
  }

  /** The revision every cache on this node reflects. */
  get revision(): number {
    return this.rev;
  }

  async start(): Promise<void> {
    await this.load();
    this.trimTimer = setInterval(() => {
      const now = Date.now();
      for (const c of this.caches) c.trim(now);
    }, 1000);
    this.trimTimer.unref();
    this.readyResolve();
  }

  private async load(): Promise<void> {
    const res = await this.storage.range(this.prefix);
    const byCache = new Map<WatchCache, typeof res.kvs>();
    for (const c of this.caches) byCache.set(c, []);
    for (const kv of res.kvs) for (const c of this.route(kv.key)) byCache.get(c)!.push(kv);
    for (const [c, kvs] of byCache) c.reset(kvs, res.revision);
    this.advance(res.revision);
    this.watch = this.storage.watch(this.prefix, res.revision + 1, {
      onEvents: (evs) => this.onEvents(evs),
      onError: (err) => this.onError(err),
      onProgress: (r) => this.advance(r),
    });
  }

  /**
   * The caches a key belongs to: those of the longest prefix that matches it (several when two
   * resources serve the same stored objects, e.g. core and events.k8s.io Events).
   */
  private route(key: string): readonly WatchCache[] {
    for (const g of this.groups) if (key.startsWith(g[0]!.prefix)) return g;
    return NONE;
  }

  private onEvents(evs: WatchEvent[]): void {
    const now = Date.now();
    const out = new Map<WatchCache, CacheEvent[]>();
    for (const e of evs) {
      for (const c of this.route(e.key)) {
        const ce = c.apply(e.type, e.key, e.value, e.modRevision, e.createRevision, now, e.readError, e.stale === true);
        if (!ce) continue;
        let list = out.get(c);
        if (!list) out.set(c, (list = []));
        list.push(ce);
      }
    }
    // The revision advances before listeners run, so a watcher that starts inside a
    // listener sees a consistent cache.
    this.advance(evs[evs.length - 1].modRevision);
    for (const [c, list] of out) c.publish(list);
  }

  private onError(err: Error): void {
    if (this.closed) return;
    // The watch fell off the store's history (or the store hiccuped): relist and rewatch.
    this.log.warn({ err: err.message, compacted: isStorageError(err, 'Compacted') }, 'registry watch ended; relisting');
    this.watch?.close();
    const retry = (): void => {
      if (this.closed) return;
      this.load().catch((e: unknown) => {
        this.log.error({ err: (e as Error).message }, 'relist failed; retrying');
        setTimeout(retry, 1000).unref();
      });
    };
    retry();
  }

  private advance(rev: number): void {
    if (rev <= this.rev) return;
    this.rev = rev;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.rev <= rev) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /**
   * Waits until the caches reflect `rev`. Rejects after `timeoutMs` with kube's 504
   * "Too large resource version" error.
   */
  waitFor(rev: number, timeoutMs: number): Promise<void> {
    if (rev <= this.rev) return Promise.resolve();
    this.watch?.requestProgress();
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = { rev, resolve: () => (clearTimeout(t), resolve()) };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        const err = timeout(`Too large resource version: ${rev}, current: ${this.rev}`, 1);
        err.status.message = `Timeout: ${err.status.message}`;
        err.status.details!.causes = [
          { reason: 'ResourceVersionTooLarge', message: `Too large resource version` },
        ];
        reject(err);
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  /** A consistent read point: the store's current revision, once the caches have reached it. */
  async consistentRevision(timeoutMs = 3000): Promise<number> {
    const rev = await this.currentRevision();
    await this.waitFor(rev, timeoutMs);
    return rev;
  }

  private inflight: Promise<number> | null = null;
  private next: Promise<number> | null = null;

  /**
   * The store's current revision, with concurrent callers sharing round trips (etcd's
   * read-index batching): a caller never shares a read that started before it arrived,
   * so every answer is still linearizable, but at most two reads are outstanding.
   */
  private currentRevision(): Promise<number> {
    if (!this.inflight) {
      this.inflight = this.storage.currentRevision().finally(() => (this.inflight = null));
      return this.inflight;
    }
    if (!this.next) {
      this.next = this.inflight
        .catch(() => undefined)
        .then(() => {
          this.next = null;
          return this.currentRevision();
        });
    }
    return this.next;
  }

  close(): void {
    this.closed = true;
    this.watch?.close();
    if (this.trimTimer) clearInterval(this.trimTimer);
  }
}
