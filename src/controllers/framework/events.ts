// The event recorder of kube's controllers (client-go's tools/record), writing core/v1 Events
// through the events store. Each component has its own recorder and correlator, as each of
// kube's controllers has its own broadcaster:
// - the spam filter: per source and involved object, a token bucket of 25 events refilled at
//   one per 5 minutes; events beyond it are dropped;
// - aggregation: more than 10 events of one reason for one object with different messages
//   within 10 minutes become one event "(combined from similar events): <message>";
// - deduplication: an event identical to one already written (source, object, type, reason,
//   message) is not written again; the first one's count goes up and its lastTimestamp moves.
// Events are written in order by one background loop per recorder: recording never blocks or
// fails the controller.

import type { Logger } from 'pino';
import type { KObject } from '../../machinery/object.js';
import { StatusError } from '../../machinery/errors.js';
import { nowTimestamp } from '../../machinery/meta.js';
import { NotLeadingError } from './leading.js';
import type { ControllerClient } from './client.js';
import { TokenBucket } from '../../client/token-bucket.js';

export type EventType = 'Normal' | 'Warning';

/** What an event says about its object (core/v1 ObjectReference). */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** The reference client-go's reference.GetReference makes for an object. */
export function referenceTo(obj: KObject): ObjectReference {
  const ref: ObjectReference = { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name, uid: obj.metadata.uid, apiVersion: obj.apiVersion, resourceVersion: obj.metadata.resourceVersion };
  for (const k of Object.keys(ref) as (keyof ObjectReference)[]) if (!ref[k]) delete ref[k];
  return ref;
}

const LRU_SIZE = 4096;
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const MAX_TRIES = 12;
const RETRY_SLEEP_MS = 10_000;

/** A map that forgets its least recently used entries past a size (k8s.io/utils/lru). */
class Lru<V> {
  private readonly m = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(k: string): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) {
      this.m.delete(k);
      this.m.set(k, v);
    }
    return v;
  }
  set(k: string, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.size) this.m.delete(this.m.keys().next().value!);
  }
}

interface CoreEvent extends KObject {
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component?: string; host?: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: EventType;
  reportingComponent: string;
  reportingInstance: string;
}

const refKey = (r: ObjectReference): string[] => [r.kind ?? '', r.namespace ?? '', r.name ?? ''];

function eventKey(e: CoreEvent): string {
  const r = e.involvedObject;
  return [e.source.component ?? '', e.source.host ?? '', ...refKey(r), r.fieldPath ?? '', r.uid ?? '', r.apiVersion ?? '', e.type, e.reason, e.message].join('\x00');
}

function spamKey(e: CoreEvent): string {
  const r = e.involvedObject;
  return [e.source.component ?? '', e.source.host ?? '', ...refKey(r), r.uid ?? '', r.apiVersion ?? '', e.type].join('\x00');
}

function aggregateKey(e: CoreEvent): string {
  const r = e.involvedObject;
  return [e.source.component ?? '', e.source.host ?? '', ...refKey(r), r.uid ?? '', r.apiVersion ?? '', e.type, e.reason, e.reportingComponent, e.reportingInstance].join('\x00');
}

let lastNanos = 0n;

/** Unix time in nanoseconds, strictly increasing within the process (event names). */
function uniqueNanos(): bigint {
  const wall = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  lastNanos = wall > lastNanos ? wall : lastNanos + 1n;
  return lastNanos;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

interface Observation {
  count: number;
  firstTimestamp: string;
  name: string;
}

export class EventRecorder {
  private readonly spam = new Lru<TokenBucket>(LRU_SIZE);
  private readonly aggregates = new Lru<{ local: Set<string>; last: number }>(LRU_SIZE);
  private readonly seen = new Lru<Observation>(LRU_SIZE);
  private readonly pending: CoreEvent[] = [];
  private draining = false;
  private stopped = false;

  constructor(
    private readonly client: ControllerClient,
    readonly component: string,
    private readonly log: Logger,
    private readonly host = '',
  ) {}

  /** Records an event about `obj` (kube's recorder.Event). */
  event(obj: KObject, type: EventType, reason: string, message: string): void {
    if (this.stopped) return;
    const ref = referenceTo(obj);
    const t = nowTimestamp();
    const nanos = uniqueNanos();
    let name = `${ref.name ?? ''}.${nanos.toString(16)}`;
    if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) name = crypto.randomUUID();
    const ev: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ref.namespace || 'default' },
      involvedObject: ref,
      reason,
      message,
      source: this.host ? { component: this.component, host: this.host } : { component: this.component },
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
      type,
      reportingComponent: this.component,
      reportingInstance: this.host,
    };
    this.log.debug({ object: `${ref.namespace ?? ''}/${ref.name ?? ''}`, kind: ref.kind, type, reason, message }, 'event');
    this.pending.push(ev);
    if (!this.draining) void this.drain();
  }

  stop(): void {
    this.stopped = true;
    this.pending.length = 0;
  }

  /** The correlator: aggregate, deduplicate, filter spam (EventCorrelate's order). */
  private correlate(ev: CoreEvent): { ev: CoreEvent; update: boolean } | undefined {
    const now = Date.now();
    let key = eventKey(ev);
    const aKey = aggregateKey(ev);
    let rec = this.aggregates.get(aKey);
    if (!rec || now - rec.last > AGGREGATE_INTERVAL_MS) rec = { local: new Set(), last: now };
    rec.local.add(ev.message);
    rec.last = now;
    this.aggregates.set(aKey, rec);
    if (rec.local.size >= AGGREGATE_MAX_EVENTS) {
      const first = rec.local.values().next().value!;
      rec.local.delete(first);
      const t = nowTimestamp();
      ev = {
        ...ev,
        metadata: { name: `${ev.involvedObject.name ?? ''}.${uniqueNanos().toString(16)}`, namespace: ev.metadata.namespace },
        message: `(combined from similar events): ${ev.message}`,
        firstTimestamp: t,
        lastTimestamp: t,
        count: 1,
        reportingComponent: '',
        reportingInstance: '',
      };
      key = aKey;
    }
    const last = this.seen.get(key);
    let update = false;
    if (last && last.count > 0) {
      ev = { ...ev, metadata: { ...ev.metadata, name: last.name }, firstTimestamp: last.firstTimestamp, count: last.count + 1 };
      update = true;
    }
    this.seen.set(key, { count: ev.count, firstTimestamp: ev.firstTimestamp, name: ev.metadata.name! });
    let bucket = this.spam.get(spamKey(ev));
    if (!bucket) bucket = new TokenBucket(SPAM_QPS, SPAM_BURST);
    this.spam.set(spamKey(ev), bucket);
    if (!bucket.take()) return undefined;
    return { ev, update };
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0 && !this.stopped) {
        const next = this.correlate(this.pending.shift()!);
        if (next) await this.write(next.ev, next.update);
      }
    } finally {
      this.draining = false;
    }
  }

  /** recordToSink: patch the existing event, or create it; retried while the server is unreachable. */
  private async write(ev: CoreEvent, update: boolean): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        const written = update ? await this.patchOrCreate(ev) : await this.client.create('', 'events', structuredClone(ev));
        this.seen.set(eventKey(ev), { count: ev.count, firstTimestamp: ev.firstTimestamp, name: written.metadata.name! });
        return;
      } catch (err) {
        if (err instanceof NotLeadingError || this.stopped) return;
        // The server refused it (AlreadyExists, a terminating namespace, invalid): never retried.
        if (err instanceof StatusError) {
          if (err.code !== 409 && err.reason !== 'Forbidden') this.log.warn({ err: err.message, reason: ev.reason }, 'server rejected event (will not retry)');
          return;
        }
        if (tries >= MAX_TRIES) {
          this.log.warn({ err: (err as Error).message, reason: ev.reason }, 'unable to write event (retry limit exceeded)');
          return;
        }
        await new Promise((r) => setTimeout(r, tries === 1 ? Math.random() * RETRY_SLEEP_MS : RETRY_SLEEP_MS).unref());
      }
    }
  }

  private async patchOrCreate(ev: CoreEvent): Promise<KObject> {
    try {
      return await this.client.patch('', 'events', ev.metadata.namespace!, ev.metadata.name!, (cur) => {
        const c = cur as CoreEvent;
        c.count = ev.count;
        c.lastTimestamp = ev.lastTimestamp;
        c.message = ev.message;
        return c;
      });
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
      const fresh = structuredClone(ev);
      delete fresh.metadata.resourceVersion;
      return this.client.create('', 'events', fresh);
    }
  }
}
