// Leader election through a coordination.k8s.io/v1 Lease, after client-go's
// tools/leaderelection: a candidate takes the lease when its holder has not renewed it for
// a lease duration (as this node observed it), the leader renews it every retry period, and
// a leader that could not renew for a renew deadline stops leading. Every write is a
// compare-and-swap on the lease's resourceVersion, so two candidates never both win.
//
// Safety rests on two clocks being compared only with themselves: the leader counts its
// renew deadline from the start of its last successful renewal, the others count the lease
// duration from when they saw that renewal, and the deadline is shorter than the duration.
// Both use the monotonic clock, which keeps running while a process is stopped (SIGSTOP):
// a leader resumed after a long pause knows at once that it may no longer act.
//
// Unlike client-go, a candidate also watches the lease in the node's cache, so it sees a
// renewal when it happens (not at its next poll) and tries again the moment the lease would
// expire: a dead leader is replaced within the lease duration of its last renewal.

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KObject } from '../machinery/object.js';
import { StatusError } from '../machinery/errors.js';

export interface LeaseLock {
  /** The lease as stored (a consistent read), or null when it does not exist. */
  get(): Promise<KObject | null>;
  create(lease: KObject): Promise<KObject>;
  /** Fails with 409 when the lease changed since `lease.metadata.resourceVersion`. */
  update(lease: KObject): Promise<KObject>;
  /** Calls back with the lease (null: deleted) whenever it changes; returns the unsubscribe function. */
  watch(onChange: (lease: KObject | null) => void): () => void;
  readonly namespace: string;
  readonly name: string;
}

export interface ElectionTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** kube-controller-manager's defaults. */
export const DEFAULT_TIMING: ElectionTiming = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** client-go's JitterFactor for the retry period. */
const JITTER = 1.2;

/** NewLeaderElector's checks, in its words. */
export function validateTiming(t: ElectionTiming): string | undefined {
  if (t.leaseDurationMs <= t.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (t.renewDeadlineMs <= JITTER * t.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (t.leaseDurationMs < 1) return 'leaseDuration must be greater than zero';
  if (t.renewDeadlineMs < 1) return 'renewDeadline must be greater than zero';
  if (t.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  return undefined;
}

export interface ElectorOptions extends ElectionTiming {
  /** e.g. `node-1_<uuid>`. */
  identity: string;
  /**
   * This node is the only one that can write the store (the embedded LevelDB is locked by
   * one process): a lease left by an earlier run of it is taken over at once.
   */
  exclusive?: boolean;
  onStartedLeading(): void;
  onStoppedLeading(): void;
  log: Logger;
}

type LeaseSpec = {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
};

/** metav1.MicroTime's text: RFC 3339 with six fractional digits. */
export function microTime(ms = performance.timeOrigin + performance.now()): string {
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  const iso = new Date(whole).toISOString(); // 2025-01-02T03:04:05.123Z
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

export class LeaderElector {
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private deadlineTimer?: NodeJS.Timeout;
  private unwatch?: () => void;
  private leading = false;
  /** Monotonic start of the last successful acquire or renew. */
  private renewedAt = -Infinity;
  /** The lease as last read or written, and when (monotonic) its spec was first seen. */
  private observed: { lease: KObject; raw: string; at: number } | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly lock: LeaseLock,
    private readonly opts: ElectorOptions,
  ) {}

  /** Whether this node may act as the leader now (not only whether it believes it won). */
  isLeader(): boolean {
    return this.leading && performance.now() - this.renewedAt < this.opts.renewDeadlineMs;
  }

  get identity(): string {
    return this.opts.identity;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unwatch = this.lock.watch((lease) => this.onLeaseChanged(lease));
    this.schedule(0);
  }

  /** Stops electing; a leader stops its controllers and hands the lease back (ReleaseOnCancel). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unwatch?.();
    clearTimeout(this.timer);
    await this.running;
    const wasLeading = this.leading;
    this.stopLeading('shutting down');
    if (wasLeading) await this.release().catch(() => undefined);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.round(), ms);
  }

  /** client-go's wait.JitterUntil: the period plus up to JitterFactor times it. */
  private retryDelay(): number {
    return this.opts.retryPeriodMs * (1 + Math.random() * JITTER);
  }

  private round(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      const ok = await this.tryAcquireOrRenew().catch((err: unknown) => {
        this.opts.log.debug({ err: (err as Error).message, lease: this.describe() }, 'leader election attempt failed');
        return false;
      });
      if (this.stopped) return;
      if (this.leading) {
        // A renewal that failed is retried every retry period until the deadline timer fires.
        this.schedule(this.opts.retryPeriodMs);
        return;
      }
      if (ok) return;
      this.schedule(this.nextAttemptDelay());
    })().finally(() => (this.running = null));
    return this.running;
  }

  /** When a candidate tries again: at the observed expiry if that comes first. */
  private nextAttemptDelay(): number {
    const retry = this.retryDelay();
    const o = this.observed;
    if (!o) return retry;
    const spec = this.specOf(o.lease);
    if (!spec.holderIdentity) return retry;
    const expiresIn = o.at + (spec.leaseDurationSeconds ?? 0) * 1000 - performance.now();
    return Math.max(1, Math.min(retry, expiresIn + 1));
  }

  private onLeaseChanged(lease: KObject | null): void {
    if (this.stopped || this.leading) return;
    // A new holder or a renewal restarts the candidate's clock now, not at its next poll.
    if (lease) this.observe(lease);
    else this.observed = null;
    if (!this.running) this.schedule(this.nextAttemptDelay());
  }

  private specOf(lease: KObject): LeaseSpec {
    return (lease.spec ?? {}) as LeaseSpec;
  }

  /** Records the lease; its observation time moves only when the spec changed (as client-go). */
  private observe(lease: KObject): void {
    const raw = JSON.stringify(this.specOf(lease));
    if (this.observed && this.observed.raw === raw) {
      this.observed.lease = lease;
      return;
    }
    this.observed = { lease, raw, at: performance.now() };
  }

  private holdsObserved(): boolean {
    return this.observed !== null && this.specOf(this.observed.lease).holderIdentity === this.opts.identity;
  }

  private observedValid(now: number): boolean {
    const o = this.observed;
    if (!o) return false;
    return o.at + (this.specOf(o.lease).leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private record(now: string, previous?: LeaseSpec): LeaseSpec {
    return {
      holderIdentity: this.opts.identity,
      leaseDurationSeconds: Math.floor(this.opts.leaseDurationMs / 1000),
      acquireTime: previous?.acquireTime ?? now,
      renewTime: now,
      leaseTransitions: previous?.leaseTransitions ?? 0,
    };
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const started = performance.now();
    const now = microTime();
    // Fast path: the leader renews the lease it wrote last.
    if (this.leading && this.observed && this.holdsObserved()) {
      const mine = this.observed.lease;
      const spec = this.specOf(mine);
      try {
        const out = await this.lock.update({ ...mine, spec: this.record(now, spec) });
        return this.succeeded(out, started);
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 409)) throw err;
        // Someone else wrote it: decide on a fresh read.
      }
    }
    const current = await this.lock.get();
    if (!current) {
      const lease: KObject = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.lock.name, namespace: this.lock.namespace },
        spec: this.record(now),
      };
      return this.succeeded(await this.lock.create(lease), started);
    }
    this.observe(current);
    const spec = this.specOf(current);
    const mine = spec.holderIdentity === this.opts.identity;
    const takeoverAllowed = this.opts.exclusive && !this.leading && this.renewedAt === -Infinity;
    if (spec.holderIdentity && !mine && this.observedValid(performance.now()) && !takeoverAllowed) return false;
    const next: LeaseSpec = mine
      ? this.record(now, spec)
      : { ...this.record(now), leaseTransitions: (spec.leaseTransitions ?? 0) + 1 };
    const out = await this.lock.update({ ...current, spec: next });
    return this.succeeded(out, started);
  }

  private succeeded(lease: KObject, started: number): boolean {
    this.observe(lease);
    // A write that took the whole renew deadline (or spanned a pause of the process) may
    // already be someone else's lease by the time it is seen.
    if (this.stopped || performance.now() - started >= this.opts.renewDeadlineMs) return false;
    this.renewedAt = started;
    this.armDeadline();
    if (!this.leading) {
      this.leading = true;
      this.opts.log.info({ lease: this.describe(), identity: this.opts.identity }, 'successfully acquired lease');
      this.opts.onStartedLeading();
    }
    return true;
  }

  /** Leadership ends by itself when no renewal succeeds within the renew deadline. */
  private armDeadline(): void {
    clearTimeout(this.deadlineTimer);
    const left = this.renewedAt + this.opts.renewDeadlineMs - performance.now();
    this.deadlineTimer = setTimeout(() => {
      if (!this.leading) return;
      // Timers may fire a fraction of a millisecond early against the monotonic clock.
      if (this.isLeader()) {
        this.armDeadline();
        return;
      }
      this.stopLeading('failed to renew lease within the renew deadline');
      this.schedule(this.retryDelay());
    }, Math.max(1, Math.ceil(left)));
  }

  private stopLeading(why: string): void {
    clearTimeout(this.deadlineTimer);
    if (!this.leading) return;
    this.leading = false;
    this.opts.log.info({ lease: this.describe(), reason: why }, 'stopped leading');
    this.opts.onStoppedLeading();
  }

  /** client-go's release: an empty holder and a one-second duration let the next one in at once. */
  private async release(): Promise<void> {
    const o = this.observed;
    if (!o || !this.holdsObserved()) return;
    const now = microTime();
    const spec = this.specOf(o.lease);
    await this.lock.update({
      ...o.lease,
      spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: spec.leaseTransitions ?? 0 },
    });
  }

  private describe(): string {
    return `${this.lock.namespace}/${this.lock.name}`;
  }
}

/** A candidate's identity, as kube-controller-manager makes it: host (here the node) and a UUID. */
export const electionIdentity = (nodeName: string): string => `${nodeName}_${randomUUID()}`;
