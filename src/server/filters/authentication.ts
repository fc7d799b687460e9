// The authentication filter (kube's WithAuthentication): runs the authenticator on every
// request, puts the user on `ctx.state.user` for everything after it (authorization, audit,
// managedFields), and answers 401 Unauthorized, negotiated like any Status, when the request
// carries an invalid credential (or none while anonymous requests are off).

import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Authenticator } from '../../auth/authn/index.js';
import { unauthorized } from '../../machinery/errors.js';

export { requestUser } from '../../auth/authn/user.js';

export function authenticationFilter(authn: Authenticator, log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const r = await authn.authenticate(ctx.req);
    if (r.kind !== 'user') {
      log.debug({ path: ctx.path, reason: r.kind === 'invalid' ? r.reason : 'no credential' }, 'unable to authenticate the request');
      throw unauthorized();
    }
    ctx.state.user = r.user;
    await next();
  };
}
