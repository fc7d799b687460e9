// The request timeout (kube's WithRequestDeadline and WithTimeoutForNonLongRunningRequests):
// a request that is not long-running must be answered within --request-timeout (60 s), or
// within its own `timeout` query parameter when that is shorter. Past it, the client gets
// kube's 504, written exactly as kube's timeout filter writes it (a Status without type
// meta, sent as text/plain), whatever the handler is still waiting for (a frozen etcd, a
// body that arrives a byte a second). The handler is left to finish in the background, as
// in kube; its late answer goes nowhere.
//
// The connection goes with the answer when the request body was not read to the end (so a
// slow sender does not keep it), and a response still being written at the deadline (a
// slow reader of a large list) is cut: nothing holds memory past the timeout.

import type Koa from 'koa';
import type { RequestInfo } from '../../api/request-info.js';
import { badRequest } from '../../machinery/errors.js';
import { parseGoDuration } from '../../machinery/go-duration.js';
import { isLongRunning } from './long-running.js';

/** kube's body, byte for byte. */
const TIMEOUT_BODY =
  '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

export interface TimeoutOptions {
  requestTimeoutMs: number;
  /** A request answered by the timeout (apiserver_request_terminations_total). */
  onTimeout(ctx: Koa.Context): void;
}

/** The `timeout` query parameter (a Go duration); kube's 400 when it does not parse. */
function userTimeoutMs(ctx: Koa.Context): number | undefined {
  const raw = new URLSearchParams(ctx.querystring).get('timeout');
  if (raw === null || raw === '') return undefined;
  try {
    return parseGoDuration(raw);
  } catch (e) {
    throw badRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`);
  }
}

export function timeoutFilter(opts: TimeoutOptions): Koa.Middleware {
  return async (ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo;
    if (isLongRunning(info) || opts.requestTimeoutMs <= 0) return next();
    const user = userTimeoutMs(ctx);
    // A timeout of 0, or one past the server's, leaves the server's.
    const timeoutMs = user !== undefined && user > 0 && user < opts.requestTimeoutMs ? user : opts.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const handled = next().then(() => 'done' as const);
    // The handler may fail after the timeout answered: nobody is listening then.
    handled.catch(() => undefined);
    let outcome: 'done' | 'timeout';
    try {
      outcome = await Promise.race([handled, expired]);
    } finally {
      clearTimeout(timer);
    }
    if (outcome === 'done') {
      cutSlowResponse(ctx, deadline);
      return;
    }
    opts.onTimeout(ctx);
    ctx.state.timedOut = true;
    if (ctx.headerSent) {
      ctx.res.destroy();
      return;
    }
    // Nothing the handler set goes out: only kube's answer.
    for (const name of ctx.res.getHeaderNames()) ctx.remove(name);
    ctx.status = 504;
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = TIMEOUT_BODY;
    if (!ctx.req.complete) {
      // The body is still coming: answer, then drop the connection (an HTTP/2 stream) rather
      // than read on.
      if (ctx.req.httpVersionMajor < 2) ctx.set('Connection', 'close');
      ctx.res.once('finish', () => dropRequest(ctx));
    }
  };
}

/**
 * Stops reading a request (its HTTP/1.1 connection, or its HTTP/2 stream). The request is
 * destroyed with an error, not just its socket: once the answer is out, Node no longer tells
 * a body reader that the connection went, and the handler would wait for the body forever.
 */
function dropRequest(ctx: Koa.Context): void {
  ctx.req.destroy(new Error('the request timed out before its body was read'));
}

/** A response still being written at the deadline is cut there. */
function cutSlowResponse(ctx: Koa.Context, deadline: number): void {
  const res = ctx.res;
  const left = deadline - Date.now();
  if (left <= 0) return;
  const t = setTimeout(() => {
    if (res.writableFinished) return;
    // An HTTP/1.1 connection is reset, so the kernel's send buffer goes too (a plain close
    // would keep trying to deliver it); an HTTP/2 stream is destroyed on its own.
    const socket = ctx.req.httpVersionMajor < 2 ? (res.socket as { resetAndDestroy?: () => void } | null) : null;
    try {
      if (!socket?.resetAndDestroy) throw new Error('no reset');
      socket.resetAndDestroy();
    } catch {
      // (A TLS socket cannot always be reset: then it is closed.)
      res.destroy();
    }
  }, left);
  t.unref();
  res.once('close', () => clearTimeout(t));
}
