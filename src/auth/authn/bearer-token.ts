// Bearer tokens (`Authorization: Bearer <token>`), after kube's bearertoken authenticator:
// the header is parsed here once, and the token is offered to each token authenticator in
// turn (a token file, service account JWTs, ...). A token that none of them accepts is an
// invalid credential ("invalid bearer token"), never anonymous: kube always has at least the
// service account token authenticator, so it answers every unknown token with 401.

import { headerValue, invalid, NO_CREDENTIAL, type Authenticator, type AuthnRequest, type AuthnResult } from './authenticator.js';

/** One source of tokens. Answers `none` for a token it does not know, `invalid` for one it knows to be bad. */
export interface TokenAuthenticator {
  readonly name: string;
  /** `audiences`: what the caller accepts (a TokenReview's); unset means the API server's own. */
  authenticateToken(token: string, audiences?: string[]): AuthnResult | Promise<AuthnResult>;
}

/**
 * Offers a token to each source in turn, as kube's token union: the first user wins; else the
 * reasons of those that refused it; else "invalid bearer token".
 */
export async function authenticateToken(tokens: TokenAuthenticator[], token: string, audiences?: string[]): Promise<AuthnResult> {
  const reasons: string[] = [];
  for (const t of tokens) {
    const r = await t.authenticateToken(token, audiences);
    if (r.kind === 'user') return r;
    if (r.kind === 'invalid') reasons.push(r.reason);
  }
  return invalid(reasons.length > 0 ? (reasons.length === 1 ? reasons[0] : `[${reasons.join(', ')}]`) : 'invalid bearer token');
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
      return authenticateToken(tokens, token);
    },
  };
}

/** The subprotocol prefix that carries a bearer token on a WebSocket upgrade. */
export const WEBSOCKET_BEARER_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/**
 * kube's websocket protocol authenticator: a browser cannot set headers on a WebSocket, so an
 * upgrade request may carry its token as a `Sec-WebSocket-Protocol` entry
 * `base64url.bearer.authorization.k8s.io.<unpadded base64url token>`, beside at least one real
 * subprotocol. Once the token is accepted its entry is removed, so the handshake echoes the
 * real one.
 */
export function webSocketProtocolAuthenticator(tokens: TokenAuthenticator[]): Authenticator {
  return {
    name: 'websocket-protocol',
    async authenticate(req: AuthnRequest): Promise<AuthnResult> {
      if ((headerValue(req, 'upgrade') ?? '').toLowerCase() !== 'websocket') return NO_CREDENTIAL;
      const raw = req.headers['sec-websocket-protocol'];
      if (raw === undefined) return NO_CREDENTIAL;
      let token = '';
      let sawToken = false;
      const others: string[] = [];
      for (const line of Array.isArray(raw) ? raw : [raw]) {
        for (const entry of line.split(',')) {
          const p = entry.trim();
          if (!p.startsWith(WEBSOCKET_BEARER_PROTOCOL_PREFIX)) {
            others.push(p);
            continue;
          }
          if (sawToken) return invalid('multiple base64.bearer.authorization tokens specified');
          sawToken = true;
          const enc = p.slice(WEBSOCKET_BEARER_PROTOCOL_PREFIX.length);
          if (!/^[A-Za-z0-9_-]*$/.test(enc) || enc.length % 4 === 1) return invalid('invalid base64.bearer.authorization token encoding');
          const bytes = Buffer.from(enc, 'base64url');
          token = bytes.toString('utf8');
          if (!Buffer.from(token, 'utf8').equals(bytes)) return invalid('invalid base64.bearer.authorization token');
        }
      }
      if (token.length > 0 && others.length === 0) return invalid('missing additional subprotocol');
      if (token.length === 0) return NO_CREDENTIAL;
      const r = await authenticateToken(tokens, token);
      if (r.kind === 'user') {
        const filtered = others.join(',');
        const headers = req.headers as Record<string, string | string[] | undefined>;
        headers['sec-websocket-protocol'] = filtered;
        // The handshake reads the distinct header lines; they must not offer the token back.
        Object.defineProperty(req, 'headersDistinct', {
          value: { ...(req as { headersDistinct?: Record<string, string[]> }).headersDistinct, 'sec-websocket-protocol': [filtered] },
          configurable: true,
        });
      }
      return r;
    },
  };
}
