// Service account tokens as kube 1.33 writes and reads them (pkg/serviceaccount): a JWT signed
// with the signing key, `iss` the first --service-account-issuer, `sub`
// `system:serviceaccount:<ns>:<name>`, `aud`, `exp`/`iat`/`nbf`, a random `jti`, and the
// private `kubernetes.io` claim naming the namespace, the service account and the object the
// token is bound to (pod, and its node; secret; node), each with its uid. go-jose writes every
// object with its keys sorted; so does this.

import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { KObject } from '../../machinery/object.js';
import type { SigningKey } from './keys.js';

export const SA_USER_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

export interface Ref {
  name: string;
  uid: string;
}

/** The `kubernetes.io` claim. */
export interface KubernetesClaim {
  namespace: string;
  serviceaccount: Ref;
  pod?: Ref;
  secret?: Ref;
  node?: Ref;
  warnafter?: number;
}

export interface TokenClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  'kubernetes.io': KubernetesClaim;
  nbf: number;
  sub: string;
}

export interface BoundObjects {
  pod?: KObject;
  secret?: KObject;
  /** A node; for a pod's node that is gone, only its name (kube then leaves the uid empty). */
  node?: { metadata: { name?: string; uid?: string } };
}

const refOf = (o: { metadata: { name?: string; uid?: string } }): Ref => ({ name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' });

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_USER_PREFIX}${namespace}:${name}`;
}

/** kube's token.Claims: what a TokenRequest's token says. */
export function tokenClaims(sa: KObject, bound: BoundObjects, expirationSeconds: number, audiences: string[], issuer: string, now = new Date()): TokenClaims {
  const iat = Math.floor(now.getTime() / 1000);
  const namespace = sa.metadata.namespace ?? '';
  const k: KubernetesClaim = { namespace, serviceaccount: refOf(sa) };
  // Sorted keys, as go-jose writes them: namespace, node, pod, secret, serviceaccount.
  const sorted: KubernetesClaim = { namespace } as KubernetesClaim;
  if (bound.node) sorted.node = refOf(bound.node);
  if (bound.pod) sorted.pod = refOf(bound.pod);
  if (bound.secret) sorted.secret = refOf(bound.secret);
  sorted.serviceaccount = k.serviceaccount;
  return {
    aud: audiences,
    exp: iat + expirationSeconds,
    iat,
    iss: issuer,
    jti: randomUUID(),
    'kubernetes.io': sorted,
    nbf: iat,
    sub: serviceAccountUsername(namespace, sa.metadata.name ?? ''),
  };
}

export async function signToken(key: SigningKey, claims: TokenClaims): Promise<string> {
  return new SignJWT(claims as unknown as Record<string, unknown>).setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.key);
}
