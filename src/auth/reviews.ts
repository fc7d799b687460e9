// authentication.k8s.io/v1's create-only resources, as kube serves them:
//
//   - tokenreviews: checks a bearer token with the server's token sources (the token file,
//     service account tokens) for the audiences asked for (default: the API audiences) and
//     answers who it is, or why not;
//   - selfsubjectreviews: answers who the caller is (after impersonation): `kubectl auth whoami`.

import type { CreateOnlyRequest, ResourceDef } from '../registry/types.js';
import type { KObject } from '../machinery/object.js';
import { badRequest } from '../machinery/errors.js';
import { nowTimestamp } from '../machinery/meta.js';
import { authenticateToken, type TokenAuthenticator } from './authn/bearer-token.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, type UserInfo } from './authn/user.js';
import { createOnlyDef, createOnlyManagedFields } from './create-only.js';

const GROUP = 'authentication.k8s.io';

/** authentication/v1 UserInfo as the reviews write it: Go's omitempty fields. */
export function userInfoJSON(u: { name: string; uid: string; groups: string[]; extra: Record<string, string[]> }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (u.name) out.username = u.name;
  if (u.uid) out.uid = u.uid;
  if (u.groups.length > 0) out.groups = [...u.groups];
  const keys = Object.keys(u.extra).sort();
  if (keys.length > 0) out.extra = Object.fromEntries(keys.map((k) => [k, [...u.extra[k]]]));
  return out;
}

/** kube's group authenticator: every user a token source vouched for is in system:authenticated. */
function withAuthenticated(u: UserInfo): UserInfo {
  if (u.groups.includes(ALL_AUTHENTICATED) || u.groups.includes(ALL_UNAUTHENTICATED)) return u;
  return { ...u, groups: [...u.groups, ALL_AUTHENTICATED] };
}

export function tokenReviews(tokens: () => TokenAuthenticator[], apiAudiences: string[]): ResourceDef {
  return createOnlyDef(GROUP, 'tokenreviews', 'TokenReview', false, {
    async create(obj: KObject, req: CreateOnlyRequest) {
      const spec = (obj.spec ?? {}) as { token?: string; audiences?: string[] };
      if (!spec.token) throw badRequest('token is required for TokenReview in authentication');
      const managedFields = createOnlyManagedFields(GROUP, 'v1', 'TokenReview', obj, req.manager);
      const metadata: Record<string, unknown> = { ...obj.metadata, creationTimestamp: null };
      if (managedFields) metadata.managedFields = managedFields;
      const requested = spec.audiences && spec.audiences.length > 0 ? spec.audiences : undefined;
      const r = await authenticateToken(tokens(), spec.token, requested);
      let status: Record<string, unknown>;
      if (r.kind === 'user') {
        status = { authenticated: true, user: userInfoJSON(withAuthenticated(r.user)), audiences: r.audiences ?? requested ?? apiAudiences };
      } else {
        // kube's review runs two authenticators over the token and joins their distinct errors.
        const reason = r.kind === 'invalid' ? r.reason : 'invalid bearer token';
        status = { user: {}, error: reason === 'invalid bearer token' ? reason : `[invalid bearer token, ${reason}]` };
      }
      return { kind: 'TokenReview', apiVersion: `${GROUP}/v1`, metadata, spec: obj.spec, status };
    },
  });
}

export function selfSubjectReviews(): ResourceDef {
  return createOnlyDef(GROUP, 'selfsubjectreviews', 'SelfSubjectReview', false, {
    create(obj: KObject, req: CreateOnlyRequest) {
      const metadata: Record<string, unknown> = { ...obj.metadata, creationTimestamp: nowTimestamp() };
      return Promise.resolve({ kind: 'SelfSubjectReview', apiVersion: `${GROUP}/v1`, metadata, status: { userInfo: userInfoJSON(req.user) } });
    },
  });
}
