// Graceful shutdown on SIGTERM, in kube-apiserver's order:
//
//   1. /readyz fails at once (`[-]shutdown failed: reason withheld`) so balancers stop
//      sending (haproxy asks --balancer-check-port instead, which says 404: drain, see
//      balancer-check.ts); requests are still served for --shutdown-delay-duration, each
//      response closing its connection so clients reconnect (to another node) rather than
//      reuse it.
//   2. Then no new request is taken: the listener closes (or, with
//      --shutdown-send-retry-after, stays open answering 429 with `Retry-After: 5` and
//      `Connection: close` until the requests in flight are done).
//   3. Requests in flight finish (bounded by the request timeout, which answers them anyway).
//   4. Watches are given --shutdown-watch-termination-grace-period to end on their own, then
//      ended cleanly: each stream closes properly and the client resumes from its last
//      resourceVersion, on this node's successor or another.
//   5. The caller then stops the controllers and flushes and closes the store.

import type Koa from 'koa';
import type { Logger } from 'pino';
import type { RequestInfo } from '../api/request-info.js';
import { StatusError } from '../machinery/errors.js';
import { isLongRunning } from './filters/long-running.js';

export type ShutdownPhase = 'running' | 'delaying' | 'draining' | 'stopped';

export interface ShutdownOptions {
  delayMs: number;
  sendRetryAfter: boolean;
  watchGraceMs: number;
  /** How long requests in flight may still take (the request timeout, plus a little). */
  drainLimitMs: number;
  log: Logger;
}

/** What the node does at each step. */
export interface ShutdownSteps {
  /** Stop accepting connections (idle keep-alive ones close too). */
  stopListening(): void;
  /** Connections accepted whose request has not arrived yet (it may be on its way). */
  pendingConnections(): number;
  /** Watches still streaming. */
  watchCount(): number;
  /** End every watch stream cleanly. */
  endWatches(): void;
  /** Close every connection left. */
  closeConnections(): void;
}

const EXEMPT_FROM_RETRY_AFTER = ['/readyz', '/livez', '/healthz', '/metrics'];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class GracefulShutdown {
  phase: ShutdownPhase = 'running';
  private inflight = 0;
  private drained: Array<() => void> = [];

  constructor(private readonly opts: ShutdownOptions) {}

  /** The readyz check kube adds: fails from the moment shutdown starts. */
  readonly readyzCheck = {
    name: 'shutdown',
    livez: false,
    readyz: true,
    run: async (): Promise<void> => {
      if (this.phase !== 'running') throw new Error('process is shutting down');
    },
  };

  /**
   * The filter, first after request info: counts the requests in flight (not the long-running
   * ones), closes connections once shutdown has started, and answers 429 after the delay when
   * --shutdown-send-retry-after asks for it.
   */
  filter(): Koa.Middleware {
    return async (ctx, next) => {
      const info = ctx.state.requestInfo as RequestInfo;
      if (this.phase !== 'running') {
        if (ctx.req.httpVersionMajor < 2) ctx.set('Connection', 'close');
        if (this.phase !== 'delaying' && this.opts.sendRetryAfter && !this.exempt(ctx)) {
          ctx.set('Retry-After', '5');
          throw new StatusError(429, 'TooManyRequests', 'The apiserver is shutting down, please try again later.', { retryAfterSeconds: 5 });
        }
      }
      if (isLongRunning(info)) return next();
      this.inflight++;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        if (--this.inflight === 0) for (const r of this.drained.splice(0)) r();
      };
      ctx.res.once('finish', finish);
      ctx.res.once('close', finish);
      await next();
    };
  }

  private exempt(ctx: Koa.Context): boolean {
    return (ctx.get('user-agent') || '').startsWith('kube-apiserver/') || EXEMPT_FROM_RETRY_AFTER.some((p) => ctx.path.startsWith(p));
  }

  /**
   * Waits until no request is in flight and no connection accepted before the listener closed
   * still has its request on the way (a client that wrote it must get its answer, not a reset).
   */
  private async drain(limitMs: number, pendingConnections: () => number): Promise<boolean> {
    const until = Date.now() + limitMs;
    while (this.inflight > 0 || pendingConnections() > 0) {
      const left = until - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      // Woken when the last request is done, or to look at the connections again.
      const tick = new Promise<void>((r) => (timer = setTimeout(r, Math.min(left, 20))));
      await (this.inflight > 0 ? Promise.race([new Promise<void>((r) => this.drained.push(r)), tick]) : tick);
      clearTimeout(timer);
    }
    return true;
  }

  /** Runs steps 1 to 4; resolves when no request is left. */
  async run(steps: ShutdownSteps): Promise<void> {
    if (this.phase !== 'running') return;
    const log = this.opts.log;
    this.phase = 'delaying';
    log.info({ delayMs: this.opts.delayMs }, 'shutdown initiated: /readyz fails, still serving for the shutdown delay');
    if (this.opts.delayMs > 0) await sleep(this.opts.delayMs);
    this.phase = 'draining';
    if (!this.opts.sendRetryAfter) steps.stopListening();
    log.info({ inflight: this.inflight, sendRetryAfter: this.opts.sendRetryAfter }, 'shutdown delay elapsed: no new requests; draining those in flight');
    const drained = await this.drain(this.opts.drainLimitMs, () => steps.pendingConnections());
    if (!drained) log.warn({ inflight: this.inflight }, 'requests still in flight after the drain limit');
    if (this.opts.sendRetryAfter) steps.stopListening();
    if (this.opts.watchGraceMs > 0 && steps.watchCount() > 0) {
      const until = Date.now() + this.opts.watchGraceMs;
      while (steps.watchCount() > 0 && Date.now() < until) await sleep(Math.min(100, until - Date.now()));
    }
    const watches = steps.watchCount();
    steps.endWatches();
    log.info({ watches }, 'watches ended');
    // Streams that were ended get a moment to flush their last bytes.
    if (watches > 0) await sleep(50);
    steps.closeConnections();
    this.phase = 'stopped';
  }
}
