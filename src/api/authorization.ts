// What the handlers ask of authorization beyond the request filter's one decision (kube's
// endpoint handlers do the same): the attributes of a request as kube's authorizers see them,
// the checks a write must pass (escalation prevention, NodeRestriction: the server's
// AccessControl), the `create` decision of a PUT or Server-Side Apply that creates, and the
// `unsafe-delete-ignore-read-errors` decision of a force delete.

import type { Context } from 'koa';
import type { RequestInfo } from './request-info.js';
import type { Attributes } from '../auth/authz/authorizer.js';
import { forbiddenError } from '../auth/authz/forbidden.js';
import { combineChecks, type AccessControl, type RequestWriteChecks } from '../auth/authz/access.js';
import { requestUser, type UserInfo } from '../auth/authn/user.js';
import { parseFieldSelector, SelectorParseError } from '../machinery/selectors.js';
import { isValidPathSegmentName } from '../machinery/validation/names.js';
import { forbidden } from '../machinery/errors.js';
import type { WriteOwner } from '../registry/generic/store.js';

/**
 * kube's GetAuthorizerAttributes over its RequestInfo: a namespace object's requests are in
 * that namespace (`/api/v1/namespaces/web` is "in the namespace web"), a list or watch whose
 * field selector names one object (`metadata.name=x`) is about that object, and the field
 * selector of a list, watch or deletecollection goes along parsed (AuthorizeWithSelectors).
 */
export function requestAttributes(user: UserInfo, info: RequestInfo, query: URLSearchParams | string): Attributes {
  const a: Attributes = {
    user,
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
  if (!info.isResourceRequest) return a;
  if (info.resource === 'namespaces' && info.apiGroup === '' && info.name) a.namespace = info.name;
  if (info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection') {
    const raw = (typeof query === 'string' ? new URLSearchParams(query) : query).get('fieldSelector');
    if (raw) {
      try {
        const sel = parseFieldSelector(raw);
        if (sel.requirements.length) a.fieldSelector = sel.requirements;
        const name = info.verb !== 'deletecollection' && !info.name ? sel.exactMatch('metadata.name') : undefined;
        if (name !== undefined && isValidPathSegmentName(name).length === 0) a.name = name;
      } catch (e) {
        // kube authorizes without the selector it cannot parse; the handler then refuses it.
        if (!(e instanceof SelectorParseError)) throw e;
      }
    }
  }
  return a;
}

export interface AuthorizationScope {
  ctx: Context;
  info: RequestInfo;
  access?: AccessControl;
}

/** The write checks of this request (escalation prevention, NodeRestriction), if any. */
export function writeChecksFor(s: AuthorizationScope): RequestWriteChecks | undefined {
  if (!s.access) return undefined;
  const { info } = s;
  return s.access.writeChecks({
    user: requestUser(s.ctx),
    group: info.apiGroup,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
  });
}

/**
 * A write's owner with the checks authorization adds. `mayCreate`: a PUT or an apply that
 * may create the object, which kube authorizes as a `create` too (its withAuthorization
 * around the create validation): the create runs only when that is allowed, after the object
 * is validated, and is refused with the filter's own 403.
 */
export function withWriteChecks(s: AuthorizationScope, owner: WriteOwner, mayCreate = false): WriteOwner {
  const parts: (RequestWriteChecks | undefined)[] = [writeChecksFor(s)];
  if (mayCreate && s.access) {
    const attrs: Attributes = { ...requestAttributes(requestUser(s.ctx), s.info, new URLSearchParams()), verb: 'create' };
    const r = s.access.authorizer.authorize(attrs);
    if (r.decision !== 'allow') {
      parts.push({
        createValidated: () => {
          throw forbiddenError(attrs, r.reason);
        },
      });
    }
  }
  const checks = combineChecks(parts);
  return checks ? { ...owner, checks } : owner;
}

/**
 * A DELETE with `ignoreStoreReadErrorWithClusterBreakingPotential`: beyond `delete`, the user
 * needs `unsafe-delete-ignore-read-errors` on the resource (kube's authorizeUnsafeDelete).
 */
export function authorizeUnsafeDelete(s: AuthorizationScope, query: URLSearchParams): void {
  const { info } = s;
  const gr = { group: info.apiGroup, resource: info.resource };
  if (!info.isResourceRequest || info.subresource) {
    throw forbidden(gr, info.name, 'ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request');
  }
  if (!s.access) return;
  const attrs: Attributes = { ...requestAttributes(requestUser(s.ctx), info, query), verb: 'unsafe-delete-ignore-read-errors' };
  const r = s.access.authorizer.authorize(attrs);
  if (r.decision === 'allow') return;
  throw forbidden(gr, info.name, `not permitted to do "unsafe-delete-ignore-read-errors", reason: ${r.reason}`);
}
