// The authorization filter (kube's WithAuthorization): asks the authorizer about the
// request's attributes (the authenticated user and the request info) and answers 403 with
// kube's Forbidden Status when it is not allowed. With AlwaysAllow it is left out of the
// chain altogether.

import type Koa from 'koa';
import type { Attributes, Authorizer } from '../../auth/authz/authorizer.js';
import { alwaysAllow } from '../../auth/authz/authorizer.js';
import type { RequestInfo } from '../../api/request-info.js';
import { forbidden, StatusError } from '../../machinery/errors.js';
import { requestUser } from './authentication.js';
import { addAuditAnnotation } from '../../api/audit-annotations.js';

export function attributesOf(ctx: Koa.Context): Attributes {
  const info = ctx.state.requestInfo as RequestInfo;
  return {
    user: requestUser(ctx),
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/** kube's forbidden answer: `<resource> "<name>" is forbidden: User "u" cannot <verb> resource ...`. */
export function forbiddenError(a: Attributes, reason: string): StatusError {
  let msg: string;
  const user = JSON.stringify(a.user.name);
  if (!a.isResourceRequest) {
    msg = `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
    msg = `User ${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
  }
  if (reason) msg += `: ${reason}`;
  if (!a.isResourceRequest) return new StatusError(403, 'Forbidden', `forbidden: ${msg}`, {});
  return forbidden({ group: a.apiGroup, resource: a.resource }, a.name, msg);
}

/** The audit annotations kube's authorization filter adds to every request's event. */
export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

/**
 * `audit`: whether requests are audited, so the decision and reason are noted for the event
 * (kube notes "allow" or "forbid" and the authorizer's reason).
 */
export function authorizationFilter(authz: Authorizer, opts: { audit?: boolean } = {}): Koa.Middleware | undefined {
  if (authz === alwaysAllow) {
    if (!opts.audit) return undefined;
    return async (ctx, next) => {
      addAuditAnnotation(ctx, DECISION_ANNOTATION, 'allow');
      addAuditAnnotation(ctx, REASON_ANNOTATION, '');
      await next();
    };
  }
  return async (ctx, next) => {
    const attrs = attributesOf(ctx);
    const r = await authz.authorize(attrs);
    if (opts.audit) {
      addAuditAnnotation(ctx, DECISION_ANNOTATION, r.decision === 'allow' ? 'allow' : 'forbid');
      addAuditAnnotation(ctx, REASON_ANNOTATION, r.reason);
    }
    if (r.decision !== 'allow') throw forbiddenError(attrs, r.reason);
    await next();
  };
}
