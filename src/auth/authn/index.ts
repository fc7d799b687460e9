// The request authenticator the server runs, assembled in kube-apiserver's order
// (pkg/kubeapiserver/authenticator/config.go): client certificates, then bearer tokens (each
// token source in its turn), then `system:authenticated` for whoever was recognised, then
// anonymous for requests that carry no credential, when --anonymous-auth allows it.
//
// Token sources (a --token-auth-file, service account tokens, ...) join through
// `tokenAuthenticators`; other request authenticators (e.g. an authenticating proxy's
// headers, which kube tries before certificates) through `requestAuthenticators`.

import type { Authenticator } from './authenticator.js';
import { bearerTokenAuthenticator, webSocketProtocolAuthenticator, type TokenAuthenticator } from './bearer-token.js';
import { orAnonymous, union, withAuthenticatedGroup } from './union.js';
import { x509Authenticator } from './x509.js';

export type { Authenticator, AuthnRequest, AuthnResult } from './authenticator.js';
export type { TokenAuthenticator } from './bearer-token.js';
export { authenticateToken } from './bearer-token.js';
export type { UserInfo } from './user.js';
export * from './user.js';

export interface AuthenticationConfig {
  /** Verify client certificates (the TLS server checks them against --client-ca-file). */
  clientCertificates: boolean;
  tokenAuthenticators?: TokenAuthenticator[];
  /** Tried before client certificates, as kube tries its request-header authenticator. */
  requestAuthenticators?: Authenticator[];
  /** --anonymous-auth */
  anonymous: boolean;
}

export function buildAuthenticator(cfg: AuthenticationConfig): Authenticator {
  const members: Authenticator[] = [...(cfg.requestAuthenticators ?? [])];
  if (cfg.clientCertificates) members.push(x509Authenticator());
  const tokens = cfg.tokenAuthenticators ?? [];
  members.push(bearerTokenAuthenticator(tokens), webSocketProtocolAuthenticator(tokens));
  const recognised = withAuthenticatedGroup(union('union', members));
  return cfg.anonymous ? orAnonymous(recognised) : recognised;
}
