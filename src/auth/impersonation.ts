// Impersonation (kube's WithImpersonation filter): `Impersonate-User`, `Impersonate-Group`
// (repeatable), `Impersonate-Uid` and `Impersonate-Extra-<key>` headers ask to act as another
// user. Each thing asked for is authorized with the `impersonate` verb, as kube does:
// users (or serviceaccounts in their namespace, for `system:serviceaccount:<ns>:<name>`),
// groups, uids.authentication.k8s.io and userextras.authentication.k8s.io/<key>. The first
// denial answers 403; when all are allowed the request goes on as the impersonated user.

import type { Attributes, Authorizer } from './authz/authorizer.js';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, type UserInfo } from './authn/user.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../machinery/validation/names.js';
import { ALL_SERVICE_ACCOUNTS_GROUP, SA_USER_PREFIX, serviceAccountUsername } from './serviceaccount/tokens.js';

export const IMPERSONATE_USER = 'impersonate-user';
export const IMPERSONATE_GROUP = 'impersonate-group';
export const IMPERSONATE_UID = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

/** One thing asked for (kube builds these as ObjectReferences). */
export interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  /** The extra's key (UserExtra). */
  fieldPath: string;
}

/** Header lines by lower-case name, each line apart (Node's headersDistinct). */
export type DistinctHeaders = Record<string, string[] | undefined>;

export class ImpersonationError extends Error {}

/** serviceaccount.SplitUsername: namespace and name when the username is a valid service account's. */
function splitServiceAccount(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_USER_PREFIX)) return undefined;
  const parts = username.slice(SA_USER_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** Go's %v of an ObjectReference: its seven fields, space-separated. */
function goRef(r: ImpersonationRequest): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

function unescapeExtraKey(k: string): string {
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
}

/** What the headers ask for; throws kube's error for groups, extras or a uid without a user. */
export function impersonationRequests(headers: DistinctHeaders): ImpersonationRequest[] {
  const out: ImpersonationRequest[] = [];
  const user = headers[IMPERSONATE_USER]?.[0] ?? '';
  if (user) {
    const sa = splitServiceAccount(user);
    if (sa) out.push({ kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' });
    else out.push({ kind: 'User', namespace: '', name: user, apiVersion: '', fieldPath: '' });
  }
  let others = false;
  for (const g of headers[IMPERSONATE_GROUP] ?? []) {
    others = true;
    out.push({ kind: 'Group', namespace: '', name: g, apiVersion: '', fieldPath: '' });
  }
  for (const [h, values] of Object.entries(headers)) {
    if (!h.startsWith(IMPERSONATE_EXTRA_PREFIX) || !values) continue;
    others = true;
    const key = unescapeExtraKey(h.slice(IMPERSONATE_EXTRA_PREFIX.length).toLowerCase());
    for (const v of values) out.push({ kind: 'UserExtra', namespace: '', name: v, apiVersion: 'authentication.k8s.io/v1', fieldPath: key });
  }
  const uid = headers[IMPERSONATE_UID]?.[0] ?? '';
  if (uid) {
    others = true;
    out.push({ kind: 'UID', namespace: '', name: uid, apiVersion: 'authentication.k8s.io/v1', fieldPath: '' });
  }
  if (others && !user) throw new ImpersonationError(`requested [${out.map(goRef).join(' ')}] without impersonating a user`);
  return out;
}

/** The resource each kind of impersonation is authorized on (all at version v1). */
const IMPERSONATED_RESOURCE: Record<ImpersonationRequest['kind'], { apiGroup: string; resource: string }> = {
  ServiceAccount: { apiGroup: '', resource: 'serviceaccounts' },
  User: { apiGroup: '', resource: 'users' },
  Group: { apiGroup: '', resource: 'groups' },
  UserExtra: { apiGroup: 'authentication.k8s.io', resource: 'userextras' },
  UID: { apiGroup: 'authentication.k8s.io', resource: 'uids' },
};

/** The attributes authorized for one request of the list. */
export function impersonationAttributes(requestor: UserInfo, r: ImpersonationRequest): Attributes {
  const { apiGroup, resource } = IMPERSONATED_RESOURCE[r.kind];
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    apiGroup,
    apiVersion: 'v1',
    namespace: r.namespace,
    resource,
    // An extra's key is the subresource.
    subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
    name: r.name,
  };
}

export type ImpersonationOutcome = { user: UserInfo } | { denied: Attributes; reason: string };

/** Authorizes every request of the list and builds the impersonated user, as kube does. */
export async function impersonate(requestor: UserInfo, requests: ImpersonationRequest[], authorizer: Authorizer, groupsSpecified: boolean): Promise<ImpersonationOutcome> {
  let username = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  for (const r of requests) {
    const attrs = impersonationAttributes(requestor, r);
    switch (r.kind) {
      case 'ServiceAccount':
        username = serviceAccountUsername(r.namespace, r.name);
        if (!groupsSpecified) groups = [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${r.namespace}`];
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
    const d = await authorizer.authorize(attrs);
    if (d.decision !== 'allow') return { denied: attrs, reason: d.reason };
  }
  if (username !== ANONYMOUS_USER) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  return { user: { name: username, uid, groups, extra } };
}
