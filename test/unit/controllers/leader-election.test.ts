// The leader elector against an in-memory lease with kube's compare-and-swap on
// resourceVersion: one leader at a time, a leader cut off from the store stops before
// another starts, a frozen leader knows it no longer leads before any timer of it runs,
// a clean stop hands the lease over at once.

import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { LeaderElector, validateTiming, type LeaseLock } from '../../../src/controllers/leader-election.js';
import { StatusError } from '../../../src/machinery/errors.js';
import type { KObject } from '../../../src/machinery/object.js';

const log = pino({ level: 'silent' });

/** One stored lease shared by every elector; `cut` makes one elector's calls hang (a partition). */
class MemoryLease {
  lease: KObject | null = null;
  rv = 0;
  private readonly listeners = new Set<(l: KObject | null) => void>();

  lock(opts: { cut?: () => boolean } = {}): LeaseLock {
    const hang = async (): Promise<void> => {
      while (opts.cut?.()) await sleep(20);
    };
    const store = this;
    return {
      namespace: 'kube-system',
      name: 'test',
      async get() {
        await hang();
        return store.lease && structuredClone(store.lease);
      },
      async create(l) {
        await hang();
        if (store.lease) throw new StatusError(409, 'AlreadyExists', 'exists');
        return store.write(l);
      },
      async update(l) {
        await hang();
        if (!store.lease || l.metadata.resourceVersion !== store.lease.metadata.resourceVersion) throw new StatusError(409, 'Conflict', 'conflict');
        return store.write(l);
      },
      watch(cb) {
        store.listeners.add(cb);
        return () => store.listeners.delete(cb);
      },
    };
  }

  private write(l: KObject): KObject {
    this.lease = { ...structuredClone(l), metadata: { ...l.metadata, resourceVersion: String(++this.rv) } };
    const copy = structuredClone(this.lease);
    for (const cb of this.listeners) queueMicrotask(() => cb(copy));
    return structuredClone(this.lease);
  }
}

const TIMING = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };

function elector(store: MemoryLease, id: string, events: string[], opts: { cut?: () => boolean; exclusive?: boolean } = {}): LeaderElector {
  return new LeaderElector(store.lock(opts), {
    ...TIMING,
    identity: id,
    exclusive: opts.exclusive,
    log,
    onStartedLeading: () => events.push(`${id} started ${Math.round(performance.now())}`),
    onStoppedLeading: () => events.push(`${id} stopped ${Math.round(performance.now())}`),
  });
}

const holder = (s: MemoryLease): string | undefined => (s.lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;

async function until(fn: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(10);
  }
}

describe('LeaderElector', () => {
  it('checks the timings as client-go does', () => {
    expect(validateTiming({ leaseDurationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000 })).toBeUndefined();
    expect(validateTiming({ leaseDurationMs: 10000, renewDeadlineMs: 10000, retryPeriodMs: 2000 })).toBe('leaseDuration must be greater than renewDeadline');
    expect(validateTiming({ leaseDurationMs: 15000, renewDeadlineMs: 2400, retryPeriodMs: 2000 })).toBe('renewDeadline must be greater than retryPeriod*JitterFactor');
  });

  it('elects exactly one of several candidates and keeps it while it renews', async () => {
    const store = new MemoryLease();
    const events: string[] = [];
    const all = ['a', 'b', 'c'].map((id) => elector(store, id, events));
    all.forEach((e) => e.start());
    await until(() => all.some((e) => e.isLeader()));
    await sleep(1500);
    expect(all.filter((e) => e.isLeader())).toHaveLength(1);
    expect(events).toHaveLength(1);
    const spec = store.lease!.spec as Record<string, unknown>;
    expect(spec).toMatchObject({ holderIdentity: events[0]!.split(' ')[0], leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await Promise.all(all.map((e) => e.stop()));
  });

  it('a leader cut off from the store stops leading before another candidate starts, within the lease duration', async () => {
    const store = new MemoryLease();
    const events: string[] = [];
    let cut = false;
    const a = elector(store, 'a', events, { cut: () => cut });
    a.start();
    await until(() => a.isLeader());
    const b = elector(store, 'b', events);
    b.start();
    await sleep(300);
    const t0 = performance.now();
    cut = true;
    await until(() => b.isLeader());
    const took = performance.now() - t0;
    expect(took).toBeLessThan(TIMING.leaseDurationMs + 150);
    const [, stoppedA, startedB] = events;
    expect(stoppedA).toMatch(/^a stopped/);
    expect(startedB).toMatch(/^b started/);
    // a gave up (renew deadline) before b took over (lease duration after it saw a's last renewal).
    expect(Number(stoppedA!.split(' ')[2])).toBeLessThan(Number(startedB!.split(' ')[2]));
    expect((store.lease!.spec as { leaseTransitions: number }).leaseTransitions).toBe(1);
    cut = false;
    await sleep(300);
    expect(a.isLeader()).toBe(false);
    expect(holder(store)).toMatch(/^b/);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('knows it no longer leads after a freeze longer than the renew deadline, before any of its timers runs', async () => {
    const store = new MemoryLease();
    const a = elector(store, 'a', []);
    a.start();
    await until(() => a.isLeader());
    // A synchronous stall stands in for SIGSTOP: no timer or callback runs meanwhile.
    const end = performance.now() + TIMING.renewDeadlineMs + 50;
    while (performance.now() < end) {
      // spin
    }
    expect(a.isLeader()).toBe(false);
    await a.stop();
  });

  it('hands the lease over at once on a clean stop', async () => {
    const store = new MemoryLease();
    const events: string[] = [];
    const a = elector(store, 'a', events);
    a.start();
    await until(() => a.isLeader());
    const b = elector(store, 'b', events);
    b.start();
    await sleep(200);
    const t0 = performance.now();
    await a.stop();
    expect(holder(store)).toBe('');
    await until(() => b.isLeader());
    expect(performance.now() - t0).toBeLessThan(TIMING.retryPeriodMs * 2.2 + 100);
    await b.stop();
  });

  it('takes a lease left by an earlier run at once when the store is its alone', async () => {
    const store = new MemoryLease();
    const a = elector(store, 'a', []);
    a.start();
    await until(() => a.isLeader());
    // A crash: no release, the lease still names the dead run.
    (a as unknown as { stopped: boolean }).stopped = true;
    const shared = elector(store, 'a2', []);
    const exclusive = elector(store, 'a3', [], { exclusive: true });
    shared.start();
    await sleep(300);
    expect(shared.isLeader()).toBe(false);
    await shared.stop();
    exclusive.start();
    await until(() => exclusive.isLeader(), 300);
    await exclusive.stop();
  });
});
