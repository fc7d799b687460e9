// Bearer tokens (`Authorization: Bearer <token>`), after kube's bearertoken authenticator:
// the header is parsed here once, and the token is offered to each token authenticator in
// turn (a token file, service account JWTs, ...). A token that none of them accepts is an
// invalid credential ("invalid bearer token"), never anonymous: kube always has at least the
// service account token authenticator, so it answers every unknown token with 401.

import { headerValue, invalid, NO_CREDENTIAL, type Authenticator, type AuthnRequest, type AuthnResult } from './authenticator.js';

/** One source of tokens. Answers `none` for a token it does not know, `invalid` for one it knows to be bad. */
export interface TokenAuthenticator {
  readonly name: string;
  authenticateToken(token: string): AuthnResult | Promise<AuthnResult>;
}

/** The token of an `Authorization: Bearer` header; undefined when there is none (or it is empty). */
export function bearerToken(req: AuthnRequest): string | undefined {
  const auth = headerValue(req, 'authorization')?.trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
  // "Bearer  x" (two spaces) carries an empty token, which kube does not treat as one.
  return parts[1] === '' ? undefined : parts[1];
}

export function bearerTokenAuthenticator(tokens: TokenAuthenticator[]): Authenticator {
  return {
    name: 'bearer-token',
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      const token = bearerToken(req);
      if (token === undefined) return NO_CREDENTIAL;
      const reasons: string[] = [];
      for (const t of tokens) {
        const r = await t.authenticateToken(token);
        if (r.kind === 'user') return r;
        if (r.kind === 'invalid') reasons.push(`[${t.name}] ${r.reason}`);
      }
      return invalid(reasons.length > 0 ? reasons.join(', ') : 'invalid bearer token');
    },
  };
}
