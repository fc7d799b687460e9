// client-go's reflector and informer for kapi's own API clients, reduced to what they need: a
// list, then a watch from the list's resourceVersion (with bookmarks, so a resumed watch starts
// near the present), a relist when the server answers 410 Gone, and re-watches with backoff
// when a connection drops. Handlers see each change once, in order; a relist reports what
// changed meanwhile (adds, updates and deletes) as if it had been watched.

import type { Logger } from 'pino';
import { ApiError, type Query, type RestClient, type WatchEvent } from './rest.js';
import { asArr, asObj, str, type Obj } from '../machinery/json-view.js';

export interface InformerHandlers {
  /** An object appeared or changed (`old` is the version before, when there was one). */
  upsert(obj: Obj, old: Obj | undefined): void;
  /** An object went away (its last known state). */
  remove(obj: Obj): void;
}

const meta = (o: Obj): Obj => asObj(o.metadata) ?? {};
export const keyOf = (o: Obj): string => `${str(meta(o).namespace)}/${str(meta(o).name)}`;
const rvOf = (o: Obj): string => str(meta(o).resourceVersion);

export interface InformerOptions {
  /** The list path (e.g. /api/v1/pods); the watch uses the same path. */
  path: string;
  /** Field and label selectors. */
  query?: Query;
  log: Logger;
}

export class Informer {
  readonly items = new Map<string, Obj>();
  private rv = '';
  private stopped = false;
  private watch?: { stop(): void };
  private backoffMs = 0;
  private timer?: NodeJS.Timeout;
  private syncedResolve!: () => void;
  /** Resolves once the first list has been delivered. */
  readonly synced = new Promise<void>((r) => (this.syncedResolve = r));

  constructor(
    private readonly client: RestClient,
    private readonly opts: InformerOptions,
    private readonly handlers: InformerHandlers,
  ) {}

  start(): Promise<void> {
    void this.run();
    return this.synced;
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    if (this.timer) clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) {
          await this.list();
          needList = false;
        }
        await this.watchOnce();
        this.backoffMs = 0;
      } catch (e) {
        if (this.stopped) return;
        if (e instanceof ApiError && (e.code === 410 || e.reason === 'Expired' || e.reason === 'Gone')) {
          needList = true;
          continue;
        }
        this.backoffMs = Math.min(30_000, Math.max(500, this.backoffMs * 2));
        this.opts.log.debug({ path: this.opts.path, err: (e as Error).message, retryInMs: this.backoffMs }, 'informer: list/watch failed');
        await new Promise<void>((r) => (this.timer = setTimeout(r, this.backoffMs)));
      }
    }
  }

  private async list(): Promise<void> {
    const list = await this.client.get(this.opts.path, this.opts.query);
    const seen = new Set<string>();
    for (const raw of asArr(list.items)) {
      const o = asObj(raw);
      if (!o) continue;
      const k = keyOf(o);
      seen.add(k);
      const old = this.items.get(k);
      this.items.set(k, o);
      if (!old || rvOf(old) !== rvOf(o)) this.deliver(() => this.handlers.upsert(o, old));
    }
    for (const [k, old] of [...this.items]) {
      if (seen.has(k)) continue;
      this.items.delete(k);
      this.deliver(() => this.handlers.remove(old));
    }
    this.rv = str(asObj(list.metadata)?.resourceVersion);
    this.syncedResolve();
  }

  private watchOnce(): Promise<void> {
    // client-go's reflector: a server-side timeout between 5 and 10 minutes.
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
    const w = this.client.watch(this.opts.path, { ...this.opts.query, resourceVersion: this.rv, allowWatchBookmarks: true, timeoutSeconds }, (ev) => this.onEvent(ev));
    this.watch = w;
    return w.done;
  }

  private onEvent(ev: WatchEvent): void {
    const o = ev.object;
    if (ev.type === 'ERROR') {
      throw new ApiError(Number(o.code) || 0, str(o.reason), str(o.message));
    }
    const rv = rvOf(o);
    if (rv) this.rv = rv;
    if (ev.type === 'BOOKMARK') return;
    const k = keyOf(o);
    const old = this.items.get(k);
    if (ev.type === 'DELETED') {
      this.items.delete(k);
      this.deliver(() => this.handlers.remove(o));
      return;
    }
    this.items.set(k, o);
    this.deliver(() => this.handlers.upsert(o, old));
  }

  /** A handler's failure is its own: the stream goes on. */
  private deliver(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.opts.log.warn({ path: this.opts.path, err: (e as Error).message }, 'informer: handler failed');
    }
  }
}
