// The impersonation filter (kube's WithImpersonation), after authentication and audit and
// before authorization: a request with Impersonate-* headers goes on as the user it asks for,
// once the authorizer allows the `impersonate` verb on each part of it (src/auth/impersonation.ts).
// The audit event records the impersonated user beside the real one.

import type Koa from 'koa';
import type { Authorizer } from '../../auth/authz/authorizer.js';
import { IMPERSONATE_EXTRA_PREFIX, IMPERSONATE_GROUP, ImpersonationError, impersonate, impersonationRequests } from '../../auth/impersonation.js';
import { badRequest } from '../../machinery/errors.js';
import { requestUser } from './authentication.js';
import { forbiddenError } from './authorization.js';

/** Each header line apart: HTTP/1.1 requests have headersDistinct; HTTP/2 ones only their raw pairs. */
function distinctHeaders(req: { headersDistinct?: Record<string, string[] | undefined>; rawHeaders: string[] }): Record<string, string[]> {
  if (req.headersDistinct) return req.headersDistinct as Record<string, string[]>;
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) (out[req.rawHeaders[i].toLowerCase()] ??= []).push(req.rawHeaders[i + 1]);
  return out;
}

function asksToImpersonate(headers: Record<string, unknown>): boolean {
  for (const h in headers) if (h.startsWith('impersonate-')) return true;
  return false;
}

export function impersonationFilter(authz: Authorizer): Koa.Middleware {
  return async (ctx, next) => {
    if (!asksToImpersonate(ctx.req.headers)) return next();
    const headers = distinctHeaders(ctx.req);
    let requests;
    try {
      requests = impersonationRequests(headers);
    } catch (e) {
      // kube answers this with a bare 500; a request kapi can tell is malformed gets a 400.
      if (e instanceof ImpersonationError) throw badRequest(e.message);
      throw e;
    }
    if (requests.length === 0) return next();
    const outcome = await impersonate(requestUser(ctx), requests, authz, (headers[IMPERSONATE_GROUP]?.length ?? 0) > 0);
    if ('denied' in outcome) throw forbiddenError(outcome.denied, outcome.reason);
    ctx.state.user = outcome.user;
    ctx.state.impersonatedUser = outcome.user;
    for (const h of Object.keys(ctx.req.headers)) {
      if (h === 'impersonate-user' || h === IMPERSONATE_GROUP || h === 'impersonate-uid' || h.startsWith(IMPERSONATE_EXTRA_PREFIX)) delete ctx.req.headers[h];
    }
    await next();
  };
}
