// Events expire, as kube-apiserver's do: kube stores each Event with an etcd lease of
// --event-ttl (one hour by default) that every write renews, so an event nobody updates for an
// hour goes away. kapi's stores have no leases; this sweep deletes, through the store, the
// events whose last write is older than the TTL (watchers see them DELETED, as with a lease).
// The last write is read from the object: its newest timestamp (creation, first and last
// seen, event time, the series' last observation, the managed fields' times). The delete is
// conditional on the resourceVersion judged, so an event written meanwhile stays.

import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic/store.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { StatusError } from '../machinery/errors.js';
import type { KObject } from '../machinery/object.js';

/** When the event was last written, as far as its timestamps tell (ms since the epoch). */
export function lastWritten(ev: KObject): number {
  const o = ev as unknown as Record<string, unknown>;
  const series = o.series as { lastObservedTime?: unknown } | undefined;
  const times: unknown[] = [ev.metadata.creationTimestamp, o.firstTimestamp, o.lastTimestamp, o.eventTime, series?.lastObservedTime];
  for (const m of ev.metadata.managedFields ?? []) times.push((m as { time?: unknown }).time);
  let last = 0;
  for (const t of times) {
    if (typeof t !== 'string') continue;
    const ms = Date.parse(t);
    if (ms > last) last = ms;
  }
  return last;
}

export class EventTTLController {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly events: GenericStore,
    private readonly ttlMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    // Often enough that an event outlives its TTL by a small part of it, at most a minute.
    const every = Math.min(60_000, Math.max(1_000, Math.floor(this.ttlMs / 4)));
    this.timer = setInterval(() => void this.sweep(Date.now()), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(now: number): Promise<void> {
    if (this.running) return;
    this.running = true;
    let expired = 0;
    try {
      for (const e of this.events.cache.list(this.events.prefix)) {
        const ev = decodeObject(e.bytes);
        if (now - lastWritten(ev) < this.ttlMs) continue;
        try {
          await this.events.delete(ev.metadata.namespace ?? '', ev.metadata.name!, { preconditions: { resourceVersion: String(e.rv) } });
          expired++;
        } catch (err) {
          // Deleted or written meanwhile: nothing to do now.
          if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
        }
      }
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'event expiry failed; will retry');
    } finally {
      this.running = false;
      if (expired) this.log.debug({ expired }, 'expired events');
    }
  }
}
