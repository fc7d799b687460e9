// The authorization contract, after k8s.io/apiserver's authorizer.Authorizer: the request's
// attributes (who, which verb, on what) in, a decision out. An authorizer with no opinion
// passes the request to the next one in --authorization-mode order; the chain denies what no
// one allowed.
//
// Only AlwaysAllow exists so far: every authenticated (or anonymous) request is allowed.

import type { UserInfo } from '../authn/user.js';

export interface Attributes {
  user: UserInfo;
  /** kube's verb: get, list, watch, create, update, patch, delete, deletecollection; for non-resource requests the HTTP method in lower case. */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path (non-resource requests). */
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why (RBAC names the binding that allowed; a denial's reason goes into the 403's message). */
  reason: string;
}

export interface Authorizer {
  readonly name: string;
  authorize(a: Attributes): AuthorizationResult | Promise<AuthorizationResult>;
}

const ALLOWED: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' });

export const alwaysAllow: Authorizer = { name: 'AlwaysAllow', authorize: () => ALLOWED };

/** Asks each authorizer in turn: the first allow or deny decides; no opinion from all is a denial. */
export function authorizerChain(members: Authorizer[]): Authorizer {
  if (members.length === 1) return members[0];
  return {
    name: members.map((m) => m.name).join(','),
    async authorize(a: Attributes): Promise<AuthorizationResult> {
      const reasons: string[] = [];
      for (const m of members) {
        const r = await m.authorize(a);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason) reasons.push(r.reason);
      }
      return { decision: 'no-opinion', reason: reasons.join('\n') };
    },
  };
}
