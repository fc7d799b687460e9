// The authentication contract, after k8s.io/apiserver's authenticator.Request: each
// authenticator looks at one kind of credential and answers with a user, with "no credential
// of my kind here", or with "a credential of my kind, and it is not valid". The last is never
// turned into anonymous: the request is answered 401.

import type { UserInfo } from './user.js';

/** What an authenticator may read of a request: its headers and its connection. */
export interface AuthnRequest {
  /** Header names in lower case, as Node gives them (HTTP/1.1 and HTTP/2 alike). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The connection: a TLS socket (HTTP/1.1) or the HTTP/2 session's socket proxy. */
  readonly socket: unknown;
}

export type AuthnResult =
  | {
      kind: 'user';
      user: UserInfo;
      /** Which authenticator answered (logs, audit). */
      by: string;
      /** The audiences the credential was found valid for (service account tokens; TokenReview answers them). */
      audiences?: string[];
    }
  | { kind: 'none' }
  | { kind: 'invalid'; /** Why, for the server's log; the client only sees 401 Unauthorized. */ reason: string };

export interface Authenticator {
  /** A short name for logs ("x509", "token-file", ...). */
  readonly name: string;
  authenticate(req: AuthnRequest): AuthnResult | Promise<AuthnResult>;
}

export const NO_CREDENTIAL: AuthnResult = Object.freeze({ kind: 'none' });

export function invalid(reason: string): AuthnResult {
  return { kind: 'invalid', reason };
}

/** One header's value, the first when it was sent several times. */
export function headerValue(req: AuthnRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
