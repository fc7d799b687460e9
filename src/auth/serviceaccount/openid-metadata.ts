// Service account issuer discovery (kube's ServiceAccountIssuerDiscovery, GA since 1.21): the
// OpenID provider configuration and the key set, so that relying parties outside the cluster
// (a cloud's workload identity, a vault) can verify service account tokens without a TokenReview.
// Both documents are rendered once: the keys do not change while the server runs.

import type { KeyObject } from 'node:crypto';
import { algorithmOf, type VerifyKey } from './keys.js';

export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

export interface OpenIDMetadata {
  configJSON: string;
  keysetJSON: string;
}

/**
 * Why discovery cannot be served with this issuer and JWKS URI (kube then logs it and leaves
 * the endpoints out), or undefined when it can. The OIDC spec wants an https issuer without a
 * query or fragment.
 */
export function discoveryProblem(issuer: string, jwksURI: string | undefined): string | undefined {
  let iss: URL;
  try {
    iss = new URL(issuer);
  } catch {
    return `issuer URL ${issuer} is not a URL`;
  }
  if (iss.protocol !== 'https:') return `issuer URL must use https scheme, got: ${issuer}`;
  if (iss.search !== '') return `issuer URL may not include a query, got: ${issuer}`;
  if (iss.hash !== '') return `issuer URL may not include a fragment, got: ${issuer}`;
  if (jwksURI !== undefined) {
    let u: URL;
    try {
      u = new URL(jwksURI);
    } catch {
      return `jwksURI ${jwksURI} is not a URL`;
    }
    if (u.protocol !== 'https:') return `jwksURI requires https scheme, parsed as: ${jwksURI}`;
  }
  return undefined;
}

/** A public key as go-jose writes it: its fields in go-jose's order, the key material last. */
function jwk(k: KeyObject, kid: string): Record<string, string> {
  const alg = algorithmOf(k);
  const raw = k.export({ format: 'jwk' });
  if (raw.kty === 'RSA') return { use: 'sig', kty: 'RSA', kid, alg, n: raw.n!, e: raw.e! };
  return { use: 'sig', kty: 'EC', kid, crv: raw.crv!, alg, x: raw.x!, y: raw.y! };
}

/** The two documents for the first issuer and the verification keys (duplicates once). */
export function renderOpenIDMetadata(issuer: string, jwksURI: string, keys: VerifyKey[]): OpenIDMetadata {
  const seen = new Set<string>();
  const jwks: Record<string, string>[] = [];
  for (const k of keys) {
    if (seen.has(k.kid)) continue;
    seen.add(k.kid);
    jwks.push(jwk(k.key, k.kid));
  }
  const algs = [...new Set(jwks.map((k) => k.alg))].sort();
  const configJSON = JSON.stringify({
    issuer,
    jwks_uri: jwksURI,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  });
  return { configJSON, keysetJSON: JSON.stringify({ keys: jwks }) };
}
