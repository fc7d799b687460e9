// The authorization filter (kube's WithAuthorization): asks the authorizer chain about the
// request's attributes (the authenticated user and the request info, as kube's
// GetAuthorizerAttributes makes them), notes the decision and its reason for the request's
// audit event when requests are audited (`authorization.k8s.io/decision`: allow or forbid;
// `authorization.k8s.io/reason`),
// and answers 403 with kube's Forbidden Status when no authorizer allowed the request.

import type Koa from 'koa';
import type { Authorizer } from '../../auth/authz/authorizer.js';
import { forbiddenError } from '../../auth/authz/forbidden.js';
import type { RequestInfo } from '../../api/request-info.js';
import { requestAttributes } from '../../api/authorization.js';
import { addAuditAnnotation } from '../../api/audit-annotations.js';
import { requestUser } from './authentication.js';

export { forbiddenError };

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

/**
 * `audit`: whether requests are audited (the audit backend's switch), so the decision and
 * reason are noted for the event; unaudited requests do not pay for the notes.
 */
export function authorizationFilter(authz: Authorizer, opts: { audit?: boolean } = {}): Koa.Middleware {
  return async (ctx, next) => {
    const attrs = requestAttributes(requestUser(ctx), ctx.state.requestInfo as RequestInfo, ctx.querystring);
    const r = authz.authorize(attrs);
    if (opts.audit) {
      addAuditAnnotation(ctx, DECISION_ANNOTATION, r.decision === 'allow' ? 'allow' : 'forbid');
      addAuditAnnotation(ctx, REASON_ANNOTATION, r.reason);
    }
    if (r.decision !== 'allow') throw forbiddenError(attrs, r.reason);
    await next();
  };
}
