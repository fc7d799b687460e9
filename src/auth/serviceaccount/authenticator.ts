// The service account token authenticator (kube's jwtTokenAuthenticator with the bound-token
// validator, pkg/serviceaccount): a JWT whose issuer is one of --service-account-issuer is
// checked against the verification keys, its audiences against the request's (the API
// audiences unless a TokenReview names others), its times with go-jose's one minute of
// leeway, and then against the live objects: the service account (same uid, not deleted more
// than a minute ago), and the pod, secret or node it is bound to. Any failure is an invalid
// credential with kube's words; a token of another issuer is not ours (the next token source,
// or "invalid bearer token").
//
// Verified signatures are remembered per token until the token expires; the object checks run
// on every request, so a deleted pod or service account revokes its tokens at once.

import { compactVerify, decodeProtectedHeader } from 'jose';
import { invalid, NO_CREDENTIAL, type AuthnResult } from '../authn/authenticator.js';
import type { TokenAuthenticator } from '../authn/bearer-token.js';
import { CREDENTIAL_ID_KEY, type UserInfo } from '../authn/user.js';
import type { KObject } from '../../machinery/object.js';
import type { VerifyKey } from './keys.js';
import { ALL_SERVICE_ACCOUNTS_GROUP, serviceAccountUsername, type TokenClaims } from './tokens.js';
import { goQuoteList } from './go-quote.js';

/** Reads objects the way kube's service account getter does (informers, then a live read). */
export interface ObjectLookup {
  /** Undefined when the object does not exist. */
  get(group: string, resource: string, namespace: string, name: string): Promise<KObject | undefined>;
}

export interface ServiceAccountAuthOptions {
  issuers: string[];
  keys: VerifyKey[];
  /** --api-audiences (default: the issuers). */
  apiAudiences: string[];
  lookup: ObjectLookup;
  now?: () => number;
}

/** go-jose's jwt.DefaultLeeway. */
const LEEWAY_SECONDS = 60;
const MAX_REMEMBERED = 10_000;

export const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
export const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
export const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';

class TokenError extends Error {}

function unverifiedIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof payload.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

interface RefClaim {
  name?: string;
  uid?: string;
}

interface Parsed {
  claims: Partial<TokenClaims> & Record<string, unknown>;
  expires: number;
}

function isDeletedBefore(obj: KObject, before: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) < before;
}

export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  readonly name = 'serviceaccount';
  private readonly issuers: Set<string>;
  private readonly verified = new Map<string, Parsed>();

  constructor(private readonly o: ServiceAccountAuthOptions) {
    this.issuers = new Set(o.issuers);
  }

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }

  async authenticateToken(token: string, audiences?: string[]): Promise<AuthnResult> {
    const iss = unverifiedIssuer(token);
    if (iss === undefined || !this.issuers.has(iss)) return NO_CREDENTIAL;
    try {
      const user = await this.check(token, audiences);
      return user;
    } catch (e) {
      if (e instanceof TokenError) return invalid(e.message);
      // A token that does not even parse as a JWS: not one of ours.
      return NO_CREDENTIAL;
    }
  }

  private async verify(token: string): Promise<Parsed> {
    const hit = this.verified.get(token);
    if (hit) return hit;
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw new Error('not a JWS');
    }
    const keys = kid ? this.o.keys.filter((k) => k.kid === kid) : this.o.keys;
    if (keys.length === 0) throw new TokenError('invalid signature, no keys found');
    const errs: string[] = [];
    for (const k of keys) {
      try {
        const { payload } = await compactVerify(token, k.key);
        const claims = JSON.parse(Buffer.from(payload).toString('utf8')) as Parsed['claims'];
        const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : Infinity;
        const parsed = { claims, expires: exp + LEEWAY_SECONDS * 1000 };
        if (this.verified.size >= MAX_REMEMBERED) this.verified.clear();
        this.verified.set(token, parsed);
        return parsed;
      } catch (e) {
        if (e instanceof SyntaxError) {
          errs.push('go-jose/go-jose: error in cryptographic primitive');
          continue;
        }
        errs.push('go-jose/go-jose: error in cryptographic primitive');
      }
    }
    throw new TokenError(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  }

  private async check(token: string, requested?: string[]): Promise<AuthnResult> {
    const { claims } = await this.verify(token);
    const iss = typeof claims.iss === 'string' ? claims.iss : '';
    if (!this.issuers.has(iss)) throw new TokenError(`token issuer ${JSON.stringify(iss)} is invalid`);
    let tokenAuds = asStrings(claims.aud);
    if (tokenAuds.length === 0) tokenAuds = this.o.apiAudiences;
    const wanted = requested && requested.length > 0 ? requested : this.o.apiAudiences;
    const auds = tokenAuds.filter((a) => wanted.includes(a));
    if (auds.length === 0 && this.o.apiAudiences.length > 0) {
      throw new TokenError(`token audiences ${goQuoteList(tokenAuds)} is invalid for the target audiences ${goQuoteList(wanted)}`);
    }
    const nowMs = this.now();
    const now = nowMs / 1000;
    if (typeof claims.exp === 'number' && now > claims.exp + LEEWAY_SECONDS) throw new TokenError('service account token has expired');
    if (typeof claims.nbf === 'number' && now + LEEWAY_SECONDS < claims.nbf) throw new TokenError('service account token is not valid yet');
    if (typeof claims.iat === 'number' && now + LEEWAY_SECONDS < claims.iat) throw new TokenError('service account token is issued in the future');

    const invalidIfDeletedBefore = nowMs - LEEWAY_SECONDS * 1000;
    const k = (claims['kubernetes.io'] ?? {}) as { namespace?: string; serviceaccount?: RefClaim; pod?: RefClaim; secret?: RefClaim; node?: RefClaim };
    const namespace = k.namespace ?? '';
    const saName = k.serviceaccount?.name ?? '';
    const saUID = k.serviceaccount?.uid ?? '';
    const lookup = this.o.lookup;
    const sa = namespace && saName ? await lookup.get('', 'serviceaccounts', namespace, saName) : undefined;
    if (!sa) throw new TokenError(`serviceaccounts ${JSON.stringify(saName)} not found`);
    if ((sa.metadata.uid ?? '') !== saUID) throw new TokenError(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saUID})`);
    if (isDeletedBefore(sa, invalidIfDeletedBefore)) throw new TokenError(`service account ${namespace}/${saName} has been deleted`);
    if (k.secret) {
      const secret = await lookup.get('', 'secrets', namespace, k.secret.name ?? '');
      if (!secret) throw new TokenError('service account token has been invalidated');
      if ((secret.metadata.uid ?? '') !== (k.secret.uid ?? '')) {
        throw new TokenError(`secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${k.secret.uid ?? ''})`);
      }
      if (isDeletedBefore(secret, invalidIfDeletedBefore)) throw new TokenError('service account token has been invalidated');
    }
    const extra: Record<string, string[]> = {};
    const jti = typeof claims.jti === 'string' ? claims.jti : '';
    if (jti) extra[CREDENTIAL_ID_KEY] = [`JTI=${jti}`];
    if (k.pod) {
      const pod = await lookup.get('', 'pods', namespace, k.pod.name ?? '');
      if (!pod) throw new TokenError('service account token has been invalidated');
      if ((pod.metadata.uid ?? '') !== (k.pod.uid ?? '')) {
        throw new TokenError(`pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${k.pod.uid ?? ''})`);
      }
      if (isDeletedBefore(pod, invalidIfDeletedBefore)) throw new TokenError('service account token has been invalidated');
      if (k.node) {
        extra[NODE_NAME_KEY] = [k.node.name ?? ''];
        if (k.node.uid) extra[NODE_UID_KEY] = [k.node.uid];
      }
      extra[POD_NAME_KEY] = [k.pod.name ?? ''];
      extra[POD_UID_KEY] = [k.pod.uid ?? ''];
    } else if (k.node) {
      const node = await lookup.get('', 'nodes', '', k.node.name ?? '');
      if (!node) throw new TokenError('service account token has been invalidated');
      if ((node.metadata.uid ?? '') !== (k.node.uid ?? '')) {
        throw new TokenError(`node UID (${node.metadata.uid ?? ''}) does not match service account node ref claim (${k.node.uid ?? ''})`);
      }
      if (isDeletedBefore(node, invalidIfDeletedBefore)) throw new TokenError('service account token has been invalidated');
      extra[NODE_NAME_KEY] = [k.node.name ?? ''];
      extra[NODE_UID_KEY] = [k.node.uid ?? ''];
    }
    const user: UserInfo = {
      name: serviceAccountUsername(namespace, saName),
      uid: saUID,
      groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`],
      extra,
    };
    return { kind: 'user', user, by: 'serviceaccount', audiences: auds };
  }
}
