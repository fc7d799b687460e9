// The load of a chaos run: clients that create, update (a PUT with a resourceVersion
// precondition, a merge patch without one), delete (with and without one), get in every resourceVersion mode and list
// (whole and paged, continued on the same connection or another one), each a sequential
// session on its own keep-alive connection through the balancer; and watchers that follow
// the leases of the run's namespace (or of every namespace) and resume after every break from
// the last revision they saw, on whatever node the balancer picks.

import type { ApiClient } from './client.js';
import type { Item, Operation, RvMode, WatchEvent, WatcherHistory, WatchSegment } from './history.js';

export const nowNs = (): number => Math.round(performance.now() * 1e6);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A small seeded generator (mulberry32): a run's choices can be replayed from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const leasesPath = (ns: string): string => (ns ? `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases` : '/apis/coordination.k8s.io/v1/leases');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API objects are read field by field
type Obj = any;
const rvOf = (o: Obj): number | undefined => {
  const n = Number(o?.metadata?.resourceVersion);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};
const valueOf = (o: Obj): string => String(o?.spec?.holderIdentity ?? '');
const itemOf = (o: Obj): Item => ({ name: String(o?.metadata?.name), value: valueOf(o), rv: rvOf(o) ?? 0 });

const lease = (name: string, value: string, rv?: number): Obj => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, ...(rv ? { resourceVersion: String(rv) } : {}) },
  spec: { holderIdentity: value },
});

/** The operation mix: weights out of their sum. */
const MIX: [string, number][] = [
  ['create', 14],
  ['update-cas', 14],
  ['update', 9],
  ['delete', 5],
  ['delete-cas', 5],
  ['get-consistent', 10],
  ['get-any', 7],
  ['get-notOlderThan', 7],
  ['list-consistent', 6],
  ['list-any', 4],
  ['list-notOlderThan', 4],
  ['list-exact', 3],
  ['list-paged', 5],
  ['list-paged-exact', 2],
];
const MIX_TOTAL = MIX.reduce((s, [, w]) => s + w, 0);

export interface WorkerOptions {
  id: number;
  client: ApiClient;
  /** A client on the same credentials for continued pages on a new connection. */
  namespace: string;
  keys: string[];
  seed: number;
  timeoutMs: number;
  record: (op: Operation) => void;
  nextId: () => number;
}

/** One client session: one operation at a time, until stopped. */
export class Worker {
  private seq = 0;
  /** The last resourceVersion this client saw of each object (for preconditions). */
  private readonly known = new Map<string, number>();
  /** The highest resourceVersion this client saw in any answer. */
  private maxSeen = 0;
  /** Revisions this client saw, for Exact lists. */
  private readonly seen: number[] = [];
  private readonly rand: () => number;
  private stopped = false;
  private done?: Promise<void>;

  constructor(private readonly o: WorkerOptions) {
    this.rand = rng(o.seed);
  }

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    this.o.client.close();
  }

  private pick<T>(xs: T[]): T {
    return xs[Math.floor(this.rand() * xs.length)]!;
  }

  private see(rv: number | undefined): void {
    if (!rv) return;
    if (rv > this.maxSeen) this.maxSeen = rv;
    if (this.seen.length < 200) this.seen.push(rv);
    else this.seen[Math.floor(this.rand() * 200)] = rv;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let r = this.rand() * MIX_TOTAL;
      let kind = MIX[0]![0];
      for (const [k, w] of MIX) {
        if ((r -= w) < 0) {
          kind = k;
          break;
        }
      }
      const op = await this.one(kind);
      this.o.record(op);
      // A client whose request found no node waits a little before the next one.
      if (op.ret === undefined || (op.status ?? 0) >= 500) await sleep(50);
    }
  }

  private base(kind: Operation['kind'], extra: Partial<Operation> = {}): Operation {
    return { id: this.o.nextId(), client: this.o.id, kind, call: 0, ...extra };
  }

  private async send(op: Operation, method: string, path: string, body?: unknown, fresh = false, contentType?: string): Promise<Obj | undefined> {
    op.call = op.call || nowNs();
    try {
      const a = await this.o.client.request(method, path, body, this.o.timeoutMs, fresh, contentType);
      op.ret = nowNs();
      op.status = a.status;
      op.conn ??= a.conn;
      if (a.status >= 400) op.error = String(a.json?.reason ?? a.text.slice(0, 200));
      return a.json;
    } catch (e) {
      op.ret = undefined;
      op.status = undefined;
      op.error = (e as Error).message;
      return undefined;
    }
  }

  private async one(kind: string): Promise<Operation> {
    const ns = this.o.namespace;
    const key = this.pick(this.o.keys);
    const path = `${leasesPath(ns)}/${key}`;
    switch (kind) {
      case 'create': {
        const op = this.base('create', { key, value: `c${this.o.id}-${++this.seq}` });
        const body = await this.send(op, 'POST', leasesPath(ns), lease(key, op.value!));
        if (op.status === 201) this.wrote(op, body);
        return op;
      }
      case 'update-cas': {
        // A PUT carrying a resourceVersion: mostly the version this client last saw of the
        // object; sometimes a stale or made-up one.
        const pre = this.known.get(key) ?? Math.max(1, this.maxSeen - Math.floor(this.rand() * 5));
        const op = this.base('update', { key, value: `c${this.o.id}-${++this.seq}`, precondition: pre });
        const body = await this.send(op, 'PUT', path, lease(key, op.value!, pre));
        if (op.status === 200) this.wrote(op, body);
        return op;
      }
      case 'update': {
        // Without a precondition: a merge patch (a lease's PUT must carry a resourceVersion, as in kube).
        const op = this.base('update', { key, value: `c${this.o.id}-${++this.seq}` });
        const body = await this.send(op, 'PATCH', path, { spec: { holderIdentity: op.value } }, false, 'application/merge-patch+json');
        if (op.status === 200) this.wrote(op, body);
        return op;
      }
      case 'delete':
      case 'delete-cas': {
        const pre = kind === 'delete-cas' ? (this.known.get(key) ?? this.maxSeen) : undefined;
        const op = this.base('delete', { key, precondition: pre || undefined });
        await this.send(op, 'DELETE', path, pre ? { preconditions: { resourceVersion: String(pre) } } : undefined);
        if (op.status === 200) this.known.delete(key);
        return op;
      }
      case 'get-consistent':
      case 'get-any':
      case 'get-notOlderThan': {
        const mode = kind.slice(4) as RvMode;
        const rv = mode === 'any' ? 0 : mode === 'notOlderThan' ? this.maxSeen || undefined : undefined;
        const op = this.base('get', { key, mode: mode === 'notOlderThan' && !rv ? 'consistent' : mode, rv });
        const q = rv !== undefined ? `?resourceVersion=${rv}` : '';
        const body = await this.send(op, 'GET', `${path}${q}`);
        if (op.status === 200) {
          op.outRv = rvOf(body);
          op.outValue = valueOf(body);
          this.see(op.outRv);
          if (op.outRv) this.known.set(key, op.outRv);
        }
        return op;
      }
      default:
        return this.list(kind);
    }
  }

  private wrote(op: Operation, body: Obj): void {
    op.outRv = rvOf(body);
    op.outValue = valueOf(body);
    this.see(op.outRv);
    if (op.outRv) this.known.set(op.key!, op.outRv);
  }

  private async list(kind: string): Promise<Operation> {
    const ns = this.o.namespace;
    const paged = kind.startsWith('list-paged');
    const mode: RvMode =
      kind === 'list-any' ? 'any' : kind === 'list-notOlderThan' ? 'notOlderThan' : kind === 'list-exact' || kind === 'list-paged-exact' ? 'exact' : 'consistent';
    let rv: number | undefined;
    if (mode === 'any') rv = 0;
    if (mode === 'notOlderThan') rv = this.maxSeen || undefined;
    if (mode === 'exact') rv = this.seen.length ? this.pick(this.seen) : undefined;
    const effective: RvMode = (mode === 'notOlderThan' || mode === 'exact') && !rv ? 'consistent' : mode;
    const limit = paged ? 2 + Math.floor(this.rand() * 2) : undefined;
    const op = this.base('list', { mode: effective, rv, limit, items: [], pages: 0 });
    const params = new URLSearchParams();
    if (rv !== undefined) params.set('resourceVersion', String(rv));
    if (effective === 'notOlderThan') params.set('resourceVersionMatch', 'NotOlderThan');
    if (effective === 'exact') params.set('resourceVersionMatch', 'Exact');
    if (limit) params.set('limit', String(limit));
    let body = await this.send(op, 'GET', `${leasesPath(ns)}?${params}`);
    for (;;) {
      if (op.status !== 200) return op;
      op.pages!++;
      if (op.pages === 1) {
        op.firstRet = op.ret;
        op.listRv = rvOf(body?.metadata ? body : undefined);
        this.see(op.listRv);
      }
      for (const it of body.items ?? []) op.items!.push(itemOf(it));
      const cont = body.metadata?.continue;
      if (!cont) break;
      // A continued page names only the token: the first page's snapshot, on any node.
      const elsewhere = this.rand() < 0.5;
      if (elsewhere) op.continuedElsewhere = true;
      body = await this.send(op, 'GET', `${leasesPath(ns)}?limit=${limit}&continue=${encodeURIComponent(cont)}`, undefined, elsewhere);
    }
    for (const it of op.items!) this.known.set(it.name, it.rv);
    return op;
  }
}

/** A watcher: lists, watches from the list's revision, resumes after every break, relists after 410. */
export class Watcher {
  readonly history: WatcherHistory;
  private stopped = false;
  private current?: { close(): void };
  private done?: Promise<void>;
  private wake?: () => void;

  constructor(
    id: number,
    private readonly client: ApiClient,
    namespace: string,
    private readonly t0: number,
  ) {
    this.history = { id, namespace, segments: [], errors: [] };
  }

  /** The revision up to which this watcher has had everything. */
  get reached(): number {
    return this.history.segments.at(-1)?.reached ?? 0;
  }

  async start(): Promise<void> {
    await this.relist('start');
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.close();
    this.wake?.();
    await this.done;
    this.client.close();
  }

  private at(): number {
    return Math.round(performance.now() - this.t0);
  }

  private async relist(cause: WatchSegment['cause']): Promise<void> {
    for (;;) {
      try {
        const a = await this.client.request('GET', leasesPath(this.history.namespace), undefined, 10_000, true);
        const rv = Number(a.json?.metadata?.resourceVersion);
        if (a.status === 200 && rv > 0) {
          this.history.segments.push({ from: rv, cause, events: [], bookmarks: [], connects: [], reached: rv });
          return;
        }
        this.history.errors.push(`${this.at()} ms: list answered ${a.status}`);
      } catch (e) {
        this.history.errors.push(`${this.at()} ms: list failed: ${(e as Error).message}`);
      }
      if (this.stopped) throw new Error('stopped');
      await sleep(200);
    }
  }

  private async loop(): Promise<void> {
    let previousEnd: string | undefined;
    while (!this.stopped) {
      const seg = this.history.segments.at(-1)!;
      const from = seg.reached;
      const path = `${leasesPath(this.history.namespace)}?watch=true&resourceVersion=${from}&allowWatchBookmarks=true`;
      let gone = false;
      let endWhy = 'closed';
      let conn = 0;
      try {
        const onLine = (line: string): void => {
          let e: Obj;
          try {
            e = JSON.parse(line);
          } catch {
            endWhy = `bad line: ${line.slice(0, 100)}`;
            return;
          }
          if (e.type === 'BOOKMARK') {
            const rv = rvOf(e.object) ?? 0;
            seg.bookmarks.push({ rv, afterEvents: seg.events.length });
            if (rv > seg.reached) seg.reached = rv;
          } else if (e.type === 'ERROR' || e.kind === 'Status') {
            const s = e.object ?? e;
            if (s.code === 410) gone = true;
            else this.history.errors.push(`${this.at()} ms: watch error ${s.code} ${s.reason ?? ''} ${s.message ?? ''}`);
          } else {
            const o = e.object;
            const ev: WatchEvent = {
              type: e.type,
              key: `${o?.metadata?.namespace ?? ''}/${o?.metadata?.name ?? ''}`,
              value: valueOf(o),
              rv: rvOf(o) ?? 0,
              at: this.at(),
              conn,
            };
            seg.events.push(ev);
            if (ev.rv > seg.reached) seg.reached = ev.rv;
          }
        };
        const opened = await this.client.watch(path, onLine, 10_000);
        conn = opened.conn;
        this.current = opened;
        seg.connects.push({ from, at: this.at(), conn: opened.conn, previousEnd });
        if (opened.status === 410) gone = true;
        else if (opened.status !== 200) this.history.errors.push(`${this.at()} ms: watch answered ${opened.status}`);
        await opened.ended;
      } catch (e) {
        endWhy = `error: ${(e as Error).message}`;
      }
      previousEnd = endWhy;
      if (this.stopped) return;
      if (gone) {
        try {
          await this.relist('relist-after-410');
        } catch {
          return;
        }
        previousEnd = undefined;
        continue;
      }
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 100);
      });
    }
  }
}
