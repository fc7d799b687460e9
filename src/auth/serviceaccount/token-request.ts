// The `token` subresource of serviceaccounts (kube's TokenREST): a POSTed TokenRequest
// (authentication.k8s.io/v1) answers with a signed token for the service account. Nothing is
// stored. The token may be bound to a Pod, Secret or Node of the service account's namespace,
// which must exist (and match its uid when one is given); it then stops authenticating once
// that object is gone.

import type { ActionSubresource } from '../../registry/types.js';
import type { KObject } from '../../machinery/object.js';
import { badRequest, conflict, invalid, notFound, type FieldError } from '../../machinery/errors.js';
import { applySchemaDefaults, SCHEMAS } from '../../schema/types/index.js';
import { nowTimestamp } from '../../machinery/meta.js';
import { createOnlyManagedFields } from '../create-only.js';
import type { ObjectLookup } from './authenticator.js';
import type { SigningKey } from './keys.js';
import { signToken, tokenClaims, type BoundObjects } from './tokens.js';

export const ISSUED_CREDENTIAL_ID_ANNOTATION = 'authentication.kubernetes.io/issued-credential-id';

const GROUP = 'authentication.k8s.io';
const MIN_SECONDS = 600;
const MAX_SECONDS = 2 ** 32;

export interface TokenIssuer {
  signing: SigningKey;
  /** The first --service-account-issuer: the `iss` of every token made here. */
  issuer: string;
  apiAudiences: string[];
  /** --service-account-max-token-expiration in seconds (0: no cap). */
  maxExpirationSeconds: number;
  lookup: ObjectLookup;
}

/** What the action may add to the request beyond its answer (the create handler passes them). */
export interface ActionRequestExtras {
  /** The field manager of the request (fieldManager, else the user agent). */
  manager?: string;
  /** Adds an audit annotation to the request's event. */
  annotate?: (key: string, value: string) => void;
  /** Adds a Warning header. */
  warn?: (text: string) => void;
}

function tokenRequestInvalid(name: string, errs: FieldError[]) {
  return invalid('TokenRequest', GROUP, name, errs);
}

export function tokenRequestAction(issuer: TokenIssuer): ActionSubresource {
  return {
    kind: { group: GROUP, version: 'v1', kind: 'TokenRequest' },
    async post(_store, namespace, name, body, opts) {
      const extras = opts as { dryRun: boolean } & ActionRequestExtras;
      const req = body as KObject & { spec?: Record<string, unknown> };
      const meta = req.metadata;
      if (meta.name && meta.name !== name) {
        throw tokenRequestInvalid(name, [{ type: 'FieldValueInvalid', field: 'metadata.name', badValue: meta.name, detail: 'must match the service account name if specified' }]);
      }
      if (meta.namespace && meta.namespace !== namespace) {
        throw tokenRequestInvalid(name, [
          { type: 'FieldValueInvalid', field: 'metadata.namespace', badValue: meta.namespace, detail: 'must match the service account namespace if specified' },
        ]);
      }
      const sa = await issuer.lookup.get('', 'serviceaccounts', namespace, name);
      if (!sa) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
      applySchemaDefaults(req, 'io.k8s.api.authentication.v1.TokenRequest', SCHEMAS);
      const managedFields = extras.manager ? createOnlyManagedFields(GROUP, 'v1', 'TokenRequest', req, extras.manager, 'token') : undefined;
      const spec = (req.spec ??= {});
      let audiences = Array.isArray(spec.audiences) ? (spec.audiences as string[]) : [];
      if (audiences.length === 0) audiences = [...issuer.apiAudiences];
      spec.audiences = audiences;
      let seconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : 3600;
      const errs: FieldError[] = [];
      if (seconds < MIN_SECONDS) errs.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', badValue: seconds, detail: 'may not specify a duration less than 10 minutes' });
      if (seconds > MAX_SECONDS) errs.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', badValue: seconds, detail: 'may not specify a duration larger than 2^32 seconds' });
      if (errs.length > 0) throw tokenRequestInvalid('', errs);

      const bound: BoundObjects = {};
      const ref = spec.boundObjectRef as { kind?: string; apiVersion?: string; name?: string; uid?: string } | null | undefined;
      if (ref) {
        const apiVersion = ref.apiVersion ?? '';
        const slash = apiVersion.indexOf('/');
        const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
        const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
        const refName = ref.name ?? '';
        let uid: string | undefined;
        if (group === '' && ref.kind === 'Pod') {
          const pod = await issuer.lookup.get('', 'pods', namespace, refName);
          if (!pod) throw notFound({ group: '', resource: 'pods' }, refName);
          const podSA = (pod.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? '';
          if (podSA !== name) throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
          bound.pod = pod;
          uid = pod.metadata.uid;
          const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
          if (nodeName) bound.node = (await issuer.lookup.get('', 'nodes', '', nodeName)) ?? { metadata: { name: nodeName } };
        } else if (group === '' && ref.kind === 'Node') {
          const node = await issuer.lookup.get('', 'nodes', '', refName);
          if (!node) throw notFound({ group: '', resource: 'nodes' }, refName);
          bound.node = node;
          uid = node.metadata.uid;
        } else if (group === '' && ref.kind === 'Secret') {
          const secret = await issuer.lookup.get('', 'secrets', namespace, refName);
          if (!secret) throw notFound({ group: '', resource: 'secrets' }, refName);
          bound.secret = secret;
          uid = secret.metadata.uid;
        } else {
          // Go's GroupVersionKind.String(): "group/version, Kind=kind".
          throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
        }
        if (ref.uid && uid !== ref.uid) {
          throw conflict(
            { group, resource: ref.kind ?? '' },
            refName,
            `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
          );
        }
      }
      if (issuer.maxExpirationSeconds > 0 && seconds > issuer.maxExpirationSeconds) {
        extras.warn?.(`requested expiration of ${seconds} seconds shortened to ${issuer.maxExpirationSeconds} seconds`);
        seconds = issuer.maxExpirationSeconds;
        spec.expirationSeconds = seconds;
      }
      const now = new Date();
      const claims = tokenClaims(sa, bound, seconds, audiences, issuer.issuer, now);
      const token = await signToken(issuer.signing, claims);
      extras.annotate?.(ISSUED_CREDENTIAL_ID_ANNOTATION, `JTI=${claims.jti}`);
      const metadata: Record<string, unknown> = { name, namespace, creationTimestamp: nowTimestamp(now) };
      if (managedFields) metadata.managedFields = managedFields;
      return {
        code: 201,
        body: {
          kind: 'TokenRequest',
          apiVersion: `${GROUP}/v1`,
          metadata,
          spec: { audiences, expirationSeconds: seconds, boundObjectRef: ref ?? null },
          status: { token, expirationTimestamp: nowTimestamp(new Date(now.getTime() + seconds * 1000)) },
        },
      };
    },
  };
}
