// Composing authenticators as kube's handler chain composes them
// (k8s.io/apiserver/pkg/authentication/request/union, group, anonymous):
//
//   - `union`: the first authenticator that answers with a user wins; if none does, any
//     invalid credential makes the request invalid (a bad client certificate does not spoil a
//     valid bearer token, but either alone is a 401);
//   - `withAuthenticatedGroup`: every user an authenticator vouched for is also in
//     `system:authenticated` (unless it already says authenticated or unauthenticated);
//   - `orAnonymous`: a request with no credential at all is `system:anonymous`; an invalid
//     one stays invalid.

import { NO_CREDENTIAL, type Authenticator, type AuthnRequest, type AuthnResult } from './authenticator.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, anonymousUser } from './user.js';

export function union(name: string, members: Authenticator[]): Authenticator {
  return {
    name,
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const reasons: string[] = [];
      for (const a of members) {
        const r = await a.authenticate(req);
        if (r.kind === 'user') return r;
        if (r.kind === 'invalid') reasons.push(`[${a.name}] ${r.reason}`);
      }
      return reasons.length > 0 ? { kind: 'invalid', reason: reasons.join(', ') } : NO_CREDENTIAL;
    },
  };
}

export function withAuthenticatedGroup(inner: Authenticator): Authenticator {
  // An authenticator that answers the same result object again (x509: one per connection)
  // gets the same widened one back, not a copy per request.
  const widened = new WeakMap<AuthnResult, AuthnResult>();
  return {
    name: inner.name,
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const r = await inner.authenticate(req);
      if (r.kind !== 'user') return r;
      const groups = r.user.groups;
      if (groups.includes(ALL_AUTHENTICATED) || groups.includes(ALL_UNAUTHENTICATED)) return r;
      let w = widened.get(r);
      if (!w) widened.set(r, (w = { ...r, user: { ...r.user, groups: [...groups, ALL_AUTHENTICATED] } }));
      return w;
    },
  };
}

export function orAnonymous(inner: Authenticator): Authenticator {
  return {
    name: inner.name,
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const r = await inner.authenticate(req);
      return r.kind === 'none' ? { kind: 'user', user: anonymousUser(), by: 'anonymous' } : r;
    },
  };
}
