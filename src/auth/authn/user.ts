// Who a request is: kube's user.Info (k8s.io/apiserver/pkg/authentication/user), and the
// well-known names the authenticators hand out.

/** Shared between the requests of one connection: read it, never change it (make a new one). */
export interface UserInfo {
  name: string;
  /** Empty when the credential carries none (x509 certificates, anonymous). */
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
}

export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/** The key of `extra` holding an identifier of the credential used (kube 1.30+). */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

export function anonymousUser(): UserInfo {
  return { name: ANONYMOUS_USER, uid: '', groups: [ALL_UNAUTHENTICATED], extra: {} };
}

/**
 * The user a request was authenticated as (or impersonates): the authentication filter puts it
 * on the request's state before any handler runs.
 */
export function requestUser(ctx: { state: Record<string, unknown> }): UserInfo {
  return ctx.state.user as UserInfo;
}
