// The extra permission of a force delete (kube's authorizeUnsafeDelete): besides `delete`,
// the user must be allowed `unsafe-delete-ignore-read-errors` on the object. The check goes
// to the request's authorizer hook, `ctx.state.authorize`, which the authorization filter
// sets; without one (AlwaysAllow) every request is allowed.

import type { Context } from 'koa';
import type { RequestInfo } from './request-info.js';
import type { ResourceDef } from '../registry/types.js';
import { forbidden } from '../machinery/errors.js';

/** The attributes of one authorization question (kube's authorizer.Attributes). */
export interface AuthorizationAttributes {
  verb: string;
  isResourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  path: string;
}

export type AuthorizeHook = (attrs: AuthorizationAttributes) => Promise<{ decision: 'allow' | 'deny' | 'no-opinion'; reason: string }>;

export const UNSAFE_DELETE_VERB = 'unsafe-delete-ignore-read-errors';

export async function authorizeUnsafeDelete(ctx: Context, info: RequestInfo, def: ResourceDef): Promise<void> {
  const gr = { group: def.group, resource: def.resource };
  if (info.subresource) {
    throw forbidden(gr, info.name, 'ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request');
  }
  const authorize = (ctx.state as { authorize?: AuthorizeHook }).authorize;
  if (!authorize) return;
  const r = await authorize({
    verb: UNSAFE_DELETE_VERB,
    isResourceRequest: true,
    apiGroup: def.group,
    apiVersion: def.version,
    namespace: info.namespace,
    resource: def.resource,
    subresource: '',
    name: info.name,
    path: info.path,
  });
  if (r.decision !== 'allow') throw forbidden(gr, info.name, `not permitted to do "${UNSAFE_DELETE_VERB}", reason: ${r.reason}`);
}
