// The in-flight limits (kube's WithMaxInFlightLimit): at most --max-requests-inflight
// read-only and --max-mutating-requests-inflight mutating requests at once, beyond which a
// request is answered 429 TooManyRequests with `Retry-After: 1`. Long-running requests are
// not counted; members of system:masters are never refused (as in kube). A request holds
// its slot until its handler has returned and its response is written out, so slow readers
// of large responses count against the limit and the memory they hold is bounded by it.
//
// Fairness between clients: kube 1.33 shares its capacity with API Priority and Fairness
// (APF); kapi does not implement APF's priority levels and flow schemas, but does what they
// do for one level: a request that finds every slot taken waits in its flow's queue, and
// freed slots go to the waiting flows in turn (round robin), so a flow that floods waits
// behind its own requests while another's are served next. A flow is the authenticated user
// (its name), or the client's address for a request without one. A flow may queue at most
// QUEUE_LENGTH requests; past that, or after waiting a quarter of the request timeout (15 s at
// most), a request is answered 429 with Retry-After: 1.

import type Koa from 'koa';
import type { RequestInfo } from '../../api/request-info.js';
import { StatusError } from '../../machinery/errors.js';
import { isLongRunning } from './long-running.js';

export type RequestKind = 'readOnly' | 'mutating';

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

export function requestKind(info: RequestInfo): RequestKind {
  return READ_ONLY_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
}

/** kube's answer over the limit, as a Status. */
export function tooManyRequests(): StatusError {
  return new StatusError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
}

/** Requests a flow may have waiting for a slot (APF's default queue length). */
export const QUEUE_LENGTH = 50;

interface Waiter {
  admit(): void;
}

/** The slots of one kind of request, handed out fairly between flows. */
export class FairQueue {
  private running = 0;
  private waiting = 0;
  /** Each flow's waiting requests, in arrival order. */
  private readonly queues = new Map<string, Waiter[]>();
  /** Flows with waiting requests, in the order they are served. */
  private readonly turn: string[] = [];

  constructor(
    readonly limit: number,
    private readonly maxWaitMs: number,
  ) {}

  get inflight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting;
  }

  /**
   * Resolves true once `flow` holds a slot, false when the request must be refused (its
   * queue full, or its wait too long).
   */
  acquire(flow: string): Promise<boolean> | boolean {
    if (this.limit <= 0 || (this.running < this.limit && this.waiting === 0)) {
      this.running++;
      return true;
    }
    let q = this.queues.get(flow);
    if ((q?.length ?? 0) >= QUEUE_LENGTH) return false;
    if (!q) {
      this.queues.set(flow, (q = []));
      this.turn.push(flow);
    }
    const queue = q;
    this.waiting++;
    return new Promise<boolean>((resolve) => {
      const w: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const i = queue.indexOf(w);
        if (i >= 0) {
          queue.splice(i, 1);
          this.waiting--;
          if (queue.length === 0) this.dropFlow(flow);
        }
        resolve(false);
      }, this.maxWaitMs);
      queue.push(w);
    });
  }

  /** Takes a slot whatever the load (exempt requests are still counted). */
  acquireNow(): void {
    this.running++;
  }

  release(): void {
    this.running--;
    // Freed slots go to the waiting flows in turn.
    while (this.running < this.limit && this.turn.length > 0) {
      const flow = this.turn.shift()!;
      const q = this.queues.get(flow)!;
      const w = q.shift()!;
      this.waiting--;
      if (q.length > 0) this.turn.push(flow);
      else this.queues.delete(flow);
      this.running++;
      w.admit();
    }
  }

  private dropFlow(flow: string): void {
    this.queues.delete(flow);
    const i = this.turn.indexOf(flow);
    if (i >= 0) this.turn.splice(i, 1);
  }
}

export interface MaxInflightOptions {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** The request timeout: a request waits for a slot at most a quarter of it (15 s at most). */
  requestTimeoutMs: number;
  /** Reports the counts of a kind after each change (apiserver_current_inflight_requests, ..._inqueue_requests). */
  observe(kind: RequestKind, inflight: number, queued: number): void;
  /** A refused request (apiserver_request_terminations_total). */
  onDrop(ctx: Koa.Context): void;
}

interface RequestUser {
  name?: string;
  groups?: string[];
}

/** The flow a request belongs to: its user, or its client's address when it has none. */
export function flowOf(ctx: Koa.Context): string {
  const user = ctx.state.user as RequestUser | undefined;
  if (user?.name && user.name !== 'system:anonymous') return `user:${user.name}`;
  return `addr:${ctx.req.socket.remoteAddress ?? ''}`;
}

function isPrivileged(ctx: Koa.Context): boolean {
  return ((ctx.state.user as RequestUser | undefined)?.groups ?? []).includes('system:masters');
}

export function maxInflightFilter(opts: MaxInflightOptions): Koa.Middleware {
  const maxWaitMs = Math.min(15_000, Math.max(1, Math.floor(opts.requestTimeoutMs / 4)));
  const queues: Record<RequestKind, FairQueue> = {
    readOnly: new FairQueue(opts.maxRequestsInflight, maxWaitMs),
    mutating: new FairQueue(opts.maxMutatingRequestsInflight, maxWaitMs),
  };
  return async (ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo;
    if (isLongRunning(info)) return next();
    const kind = requestKind(info);
    const queue = queues[kind];
    if (isPrivileged(ctx)) queue.acquireNow();
    else {
      const got = queue.acquire(flowOf(ctx));
      const admitted = got === true || (got !== false && (opts.observe(kind, queue.inflight, queue.queued), await got));
      if (!admitted) {
        opts.observe(kind, queue.inflight, queue.queued);
        opts.onDrop(ctx);
        throw tooManyRequests();
      }
    }
    opts.observe(kind, queue.inflight, queue.queued);
    // A client gone while it waited: its slot is handed on at once.
    if (ctx.req.destroyed) {
      queue.release();
      opts.observe(kind, queue.inflight, queue.queued);
      return;
    }
    // The slot is held until the handler has returned and its response is out (or the
    // connection is gone): a handler still waiting after the request timeout answered for
    // it keeps its slot, as in kube, so stuck requests cannot pile up without bound.
    let pending = 2;
    const done = (): void => {
      if (--pending > 0) return;
      queue.release();
      opts.observe(kind, queue.inflight, queue.queued);
    };
    let responded = false;
    const onResponse = (): void => {
      if (responded) return;
      responded = true;
      done();
    };
    ctx.res.once('finish', onResponse);
    ctx.res.once('close', onResponse);
    try {
      await next();
    } finally {
      done();
    }
  };
}
