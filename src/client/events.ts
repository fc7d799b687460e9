// Event recorders as client-go's: `EventRecorder` writes core/v1 Events as tools/record does
// (kubelet, node-controller, persistentvolume-controller), `EventsRecorder` writes
// events.k8s.io/v1 Events as tools/events does (kube-scheduler). Both are fire-and-forget:
// events queue (at most 1000 waiting, later ones dropped, as the broadcaster's queue), leave
// at a bounded rate, and never fail or slow down the caller. A repeat of the same event (same
// object, reason, type and message) within the correlator's memory is a count increase
// patched onto the first one (core/v1) or a series (events.k8s.io/v1), and each object may
// produce a burst of 25 events, then one every 5 minutes (the spam filter's token bucket).
// Where they go is a sink: the API over HTTP for the node agent, the registry's store for
// in-process controllers.

import type { Logger } from 'pino';
import type { Obj } from '../machinery/json-view.js';
import { TokenBucket } from './token-bucket.js';

export interface EventSink {
  create(namespace: string, event: Obj): Promise<unknown>;
  /** A merge of `patch` into the event (strategic merge patch for core/v1). */
  patch(namespace: string, name: string, patch: Obj): Promise<unknown>;
}

/** An object reference (core/v1 ObjectReference). */
export interface ObjectRef {
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface RecorderOptions {
  log: Logger;
  /** Writes per second (token bucket refill) and burst; kubelet's --event-qps and --event-burst. */
  qps?: number;
  burst?: number;
}

/** The reference of an object, as reference.GetReference makes it. */
export function refOf(obj: Obj, fieldPath?: string): ObjectRef {
  const m = (obj.metadata ?? {}) as Obj;
  const ref: ObjectRef = {
    kind: String(obj.kind ?? ''),
    namespace: m.namespace as string | undefined,
    name: String(m.name ?? ''),
    uid: m.uid as string | undefined,
    apiVersion: String(obj.apiVersion ?? ''),
    resourceVersion: m.resourceVersion as string | undefined,
  };
  if (fieldPath) ref.fieldPath = fieldPath;
  return ref;
}

/** Go's time.Now().UnixNano() in hex, as both recorders name events. */
function nanoHex(ms: number): string {
  return (BigInt(Math.floor(ms)) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16);
}

const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const time = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const MAX_QUEUE = 1000;
const CACHE_SIZE = 4096;

/** The queue, rate limit and repeat memory both recorders share. */
abstract class Recorder<K> {
  private queue: (() => Promise<void>)[] = [];
  private draining = false;
  private readonly rate: TokenBucket;
  private readonly spam = new Map<string, TokenBucket>();
  protected readonly seen = new Map<string, K>();
  private stopped = false;
  private idle: (() => void)[] = [];

  constructor(protected readonly opts: RecorderOptions) {
    this.rate = new TokenBucket(opts.qps ?? 50, opts.burst ?? 100);
  }

  /** The spam filter: 25 at once per object, then one per 5 minutes. */
  protected allowed(objectKey: string): boolean {
    let b = this.spam.get(objectKey);
    if (!b) {
      if (this.spam.size >= CACHE_SIZE) this.spam.delete(this.spam.keys().next().value!);
      this.spam.set(objectKey, (b = new TokenBucket(1 / 300, 25)));
    }
    return b.take();
  }

  protected remember(key: string, v: K): void {
    this.seen.delete(key);
    if (this.seen.size >= CACHE_SIZE) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, v);
  }

  protected enqueue(write: () => Promise<void>): void {
    if (this.stopped || this.queue.length >= MAX_QUEUE) return;
    this.queue.push(write);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0 && !this.stopped) {
      await this.rate.acquire();
      if (this.stopped || this.queue.length === 0) break;
      const write = this.queue.shift()!;
      try {
        await write();
      } catch (e) {
        this.opts.log.debug({ err: (e as Error).message }, 'event not written');
      }
    }
    this.draining = false;
    for (const r of this.idle.splice(0)) r();
  }

  /** Resolves once every queued event has been written (or dropped). */
  flush(): Promise<void> {
    if (!this.draining && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  stop(): void {
    this.stopped = true;
    this.queue = [];
    for (const r of this.idle.splice(0)) r();
  }
}

interface CoreSeen {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
}

/** core/v1 Events (client-go tools/record). */
export class EventRecorder extends Recorder<CoreSeen> {
  constructor(
    private readonly sink: EventSink,
    /** source.component and source.host (and reportingComponent, reportingInstance). */
    private readonly source: { component: string; host?: string },
    opts: RecorderOptions,
  ) {
    super(opts);
  }

  event(ref: ObjectRef, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const now = Date.now();
    const namespace = ref.namespace || 'default';
    const objectKey = [this.source.component, this.source.host ?? '', ref.kind, namespace, ref.name, ref.uid ?? '', ref.apiVersion ?? ''].join('\x00');
    if (!this.allowed(objectKey)) return;
    const key = [objectKey, ref.fieldPath ?? '', type, reason, message].join('\x00');
    const prev = this.seen.get(key);
    const ts = time(now);
    if (prev) {
      prev.count++;
      this.remember(key, prev);
      const patch = { count: prev.count, lastTimestamp: ts, message };
      const count = prev.count;
      this.enqueue(async () => {
        try {
          await this.sink.patch(prev.namespace, prev.name, patch);
        } catch (e) {
          // The first event expired or was deleted: start again with a new one.
          if ((e as { code?: number }).code === 404) await this.sink.create(prev.namespace, this.build(ref, type, reason, message, now, prev.name, count, prev.firstTimestamp));
          else throw e;
        }
      });
      return;
    }
    const name = `${ref.name}.${nanoHex(now)}`;
    this.remember(key, { namespace, name, count: 1, firstTimestamp: ts });
    const ev = this.build(ref, type, reason, message, now, name, 1, ts);
    this.enqueue(async () => {
      await this.sink.create(namespace, ev);
    });
  }

  private build(ref: ObjectRef, type: string, reason: string, message: string, now: number, name: string, count: number, first: string): Obj {
    const involved: Obj = { kind: ref.kind, namespace: ref.namespace, name: ref.name, uid: ref.uid, apiVersion: ref.apiVersion, resourceVersion: ref.resourceVersion, fieldPath: ref.fieldPath };
    for (const k of Object.keys(involved)) if (involved[k] === undefined || involved[k] === '') delete involved[k];
    const source: Obj = { component: this.source.component };
    if (this.source.host) source.host = this.source.host;
    return {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name, namespace: ref.namespace || 'default' },
      involvedObject: involved,
      reason,
      message,
      source,
      firstTimestamp: first,
      lastTimestamp: time(now),
      count,
      type,
      eventTime: null,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
    };
  }
}

interface SeriesSeen {
  namespace: string;
  name: string;
  count: number;
  at: number;
}

/** events.k8s.io/v1 Events (client-go tools/events), as kube-scheduler writes them. */
export class EventsRecorder extends Recorder<SeriesSeen> {
  constructor(
    private readonly sink: EventSink,
    private readonly controller: string,
    private readonly instance: string,
    opts: RecorderOptions,
  ) {
    super(opts);
  }

  eventf(regarding: ObjectRef, type: 'Normal' | 'Warning', reason: string, action: string, note: string): void {
    const now = Date.now();
    const namespace = regarding.namespace || 'default';
    const objectKey = [this.controller, regarding.kind, namespace, regarding.name, regarding.uid ?? ''].join('\x00');
    if (!this.allowed(objectKey)) return;
    const key = [objectKey, action, reason, type, note].join('\x00');
    const prev = this.seen.get(key);
    // An isomorphic event within the last 6 minutes extends its series.
    if (prev && now - prev.at < 6 * 60_000) {
      prev.count = prev.count < 2 ? 2 : prev.count + 1;
      prev.at = now;
      this.remember(key, prev);
      const patch = { series: { count: prev.count, lastObservedTime: microTime(now) } };
      this.enqueue(async () => {
        await this.sink.patch(prev.namespace, prev.name, patch);
      });
      return;
    }
    const name = `${regarding.name}.${nanoHex(now)}`;
    this.remember(key, { namespace, name, count: 1, at: now });
    const ref: Obj = { kind: regarding.kind, namespace: regarding.namespace, name: regarding.name, uid: regarding.uid, apiVersion: regarding.apiVersion, resourceVersion: regarding.resourceVersion, fieldPath: regarding.fieldPath };
    for (const k of Object.keys(ref)) if (ref[k] === undefined || ref[k] === '') delete ref[k];
    const ev: Obj = {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: { name, namespace },
      eventTime: microTime(now),
      reportingController: this.controller,
      reportingInstance: this.instance,
      action,
      reason,
      regarding: ref,
      note,
      type,
    };
    this.enqueue(async () => {
      await this.sink.create(namespace, ev);
    });
  }
}
