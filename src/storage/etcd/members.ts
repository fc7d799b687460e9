// The etcd members a node talks to, one gRPC client each, with one of them "pinned" (as
// clientv3's balancer pins an endpoint): every call and the watch go to the pinned member
// while it answers. A prober reads each member linearizably every second; a member that
// fails a probe or a call is marked down, the pin moves to a member that answers, and
// calls still waiting on the dead one are abandoned at once instead of at their deadline
// (when no member answers, they wait for it: there is nowhere else to go).
// A member killed or paused (SIGSTOP: its sockets stay open and answer nothing) then
// costs about one probe interval, not a gRPC keepalive timeout of tens of seconds.

import { Etcd3, type IOptions } from 'etcd3';
import { StorageError } from '../errors.js';

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/**
 * Runs each call exactly once. The client's default global policy retries on
 * UNAVAILABLE, which may re-send a txn etcd already applied; a replayed CAS then
 * "fails" against its own write. Its per-host circuit breaker also counts etcd's
 * "too many requests" and then refuses every call for seconds. Retries and failover
 * are done here and in EtcdStorage instead, where it is known which ones are safe.
 */
const singleAttempt = {
  execute: <T>(fn: (ctx: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> =>
    Promise.resolve().then(() => fn({ signal: new AbortController().signal })),
} as unknown as Policy;

/** A key nobody writes: ranging on it reads only the response header. */
export const PROBE_KEY = Buffer.from('/kapi-revision-probe\x00');

export interface Member {
  readonly endpoint: string;
  readonly client: Etcd3;
  /** The last probe or call answered. */
  up: boolean;
  /** performance.now() of the last linearizable answer (0: never). */
  lastOk: number;
  /** Calls in flight on this member: abandoned when it is marked down. */
  readonly pending: Set<(err: Error) => void>;
}

export interface MembersOptions {
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
}

export class EtcdMembers {
  readonly members: Member[];
  private pinned: number;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly switchListeners = new Set<(to: Member) => void>();
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;

  constructor(endpoints: string[], opts: MembersOptions = {}) {
    this.probeIntervalMs = opts.probeIntervalMs ?? 1000;
    this.probeTimeoutMs = opts.probeTimeoutMs ?? 1000;
    this.members = endpoints.map((endpoint) => ({
      endpoint,
      client: new Etcd3({
        hosts: [endpoint],
        faultHandling: { global: singleAttempt, host: () => singleAttempt },
        // gRPC's default reconnect backoff grows to two minutes: a member back from the dead
        // would stay unused that long.
        // gRPC's default cap on a received message is 4 MiB: a whole-prefix list (the watch
        // cache's first fill) of a large resource would fail, and the node never start. kube's
        // etcd client takes up to MaxInt32.
        grpcOptions: {
          'grpc.initial_reconnect_backoff_ms': 200,
          'grpc.max_reconnect_backoff_ms': 1000,
          'grpc.max_receive_message_length': 2 ** 31 - 1,
        },
      }),
      up: true,
      lastOk: 0,
      pending: new Set(),
    }));
    // Nodes start on different members, so their load spreads over the cluster.
    this.pinned = Math.floor(Math.random() * this.members.length);
  }

  /** Starts the prober. */
  start(): void {
    if (this.timer) return;
    const tick = (): void => {
      void Promise.all(this.members.map((m) => this.probe(m))).finally(() => {
        if (!this.closed) this.timer = setTimeout(tick, this.probeIntervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, this.probeIntervalMs).unref();
  }

  get current(): Member {
    return this.members[this.pinned]!;
  }

  /** Called with the new member whenever the pin moves. */
  onSwitch(listener: (to: Member) => void): () => void {
    this.switchListeners.add(listener);
    return () => this.switchListeners.delete(listener);
  }

  /** True when some member answered a linearizable read within `withinMs`. */
  reachable(withinMs: number): boolean {
    const since = performance.now() - withinMs;
    return this.members.some((m) => m.lastOk >= since);
  }

  /**
   * Runs `fn` on the pinned member with a deadline. Rejects early when the member is marked
   * down meanwhile; the caller decides whether another attempt is safe.
   */
  call<T>(fn: (client: Etcd3, deadline: Date) => Promise<T>, timeoutMs: number): Promise<T> {
    const m = this.current;
    return new Promise<T>((resolve, reject) => {
      const abandon = (err: Error): void => {
        m.pending.delete(abandon);
        reject(err);
      };
      m.pending.add(abandon);
      fn(m.client, new Date(Date.now() + timeoutMs)).then(
        (v) => {
          if (!m.pending.delete(abandon)) return;
          this.markUp(m);
          resolve(v);
        },
        (err: unknown) => {
          if (!m.pending.delete(abandon)) return;
          reject(err);
        },
      );
    });
  }

  /** A member failed a call in a way that says it cannot serve (dead, paused, cut off). */
  markDown(m: Member, why: string): void {
    if (this.closed) return;
    const wasUp = m.up;
    m.up = false;
    // Calls are abandoned only when another member answers (a retry can go there); with none,
    // they wait for their deadline as a client of a paused etcd does, and the request timeout
    // answers kube's 504 meanwhile.
    if (m.pending.size > 0 && this.members.some((o) => o !== m && o.up)) {
      const err = new StorageError('Unavailable', `rpc error: code = Unavailable desc = etcd member ${m.endpoint} stopped answering (${why})`);
      for (const abandon of [...m.pending]) abandon(err);
    }
    if (m !== this.current) return;
    // Move to the next member that answers; if none does (no quorum anywhere), keep trying
    // them in turn so the first one back is found.
    const n = this.members.length;
    let next = -1;
    for (let i = 1; i < n; i++) {
      const j = (this.pinned + i) % n;
      if (this.members[j]!.up) {
        next = j;
        break;
      }
    }
    if (next < 0 && wasUp) next = (this.pinned + 1) % n;
    if (next < 0 || next === this.pinned) return;
    this.pinned = next;
    for (const l of [...this.switchListeners]) l(this.current);
  }

  private markUp(m: Member): void {
    m.up = true;
    m.lastOk = performance.now();
    // Back from "no member answers": return to one that does.
    if (!this.current.up) {
      this.pinned = this.members.indexOf(m);
      for (const l of [...this.switchListeners]) l(this.current);
    }
  }

  /** One linearizable read of the probe key (it needs the member's quorum, not just the process). */
  async probe(m: Member): Promise<boolean> {
    try {
      await m.client.kv.range({ key: PROBE_KEY, count_only: true }, { deadline: new Date(Date.now() + this.probeTimeoutMs) });
      this.markUp(m);
      return true;
    } catch (err) {
      if (!isOverloadMessage(err)) this.markDown(m, err instanceof Error ? err.message : String(err));
      return false;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const m of this.members) m.client.close();
  }
}

const isOverloadMessage = (err: unknown): boolean => err instanceof Error && err.message.includes('too many requests');
