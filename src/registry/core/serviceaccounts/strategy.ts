// ServiceAccount (core v1): an identity for pods. kube validates only its metadata (the name
// is a DNS subdomain); tokens are not stored here but issued through the `token` action,
// which the server attaches (it needs the signing key: see src/auth/serviceaccount/).

import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { ENFORCE_MOUNTABLE_SECRETS } from '../pods/service-account-admission.js';
import { plainStrategy } from '../../plain-strategy.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';

/**
 * The enforce-mountable-secrets annotation is deprecated (1.32): a warning when a write sets
 * it, on create or as a change of an update (an update that leaves it as it was says nothing).
 */
function warnings(obj: KObject, old?: KObject): string[] {
  const ann = obj.metadata.annotations ?? {};
  if (!Object.hasOwn(ann, ENFORCE_MOUNTABLE_SECRETS)) return [];
  const before = old?.metadata.annotations ?? {};
  if (old && Object.hasOwn(before, ENFORCE_MOUNTABLE_SECRETS) && before[ENFORCE_MOUNTABLE_SECRETS] === ann[ENFORCE_MOUNTABLE_SECRETS]) return [];
  return [`metadata.annotations[${ENFORCE_MOUNTABLE_SECRETS}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`];
}

/** cleanSecretReferences: a secret reference keeps its name only. */
function cleanSecretReferences(obj: KObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = (obj.secrets as unknown[]).map((s) => {
    const name = (s as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? { name } : {};
  });
}

const base = plainStrategy();
const strategy: Strategy = {
  ...base,
  prepareForCreate(obj) {
    base.prepareForCreate(obj);
    cleanSecretReferences(obj);
  },
  prepareForUpdate(obj, old) {
    base.prepareForUpdate(obj, old);
    cleanSecretReferences(obj);
  },
  warningsOnCreate: (obj) => warnings(obj),
  warningsOnUpdate: (obj, old) => warnings(obj, old),
};

export const SECRETS_COLUMN_DESCRIPTION =
  'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret';

export const serviceAccounts: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'serviceaccounts',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  singularName: 'serviceaccount',
  shortNames: ['sa'],
  categories: [],
  namespaced: true,
  strategy,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: true,
  table: {
    // kube's printer declares the column a string and fills it with the count.
    columns: [NAME_COLUMN, column('Secrets', 'string', SECRETS_COLUMN_DESCRIPTION), AGE_COLUMN],
    cells: (obj, now) => [obj.metadata.name, Array.isArray(obj.secrets) ? obj.secrets.length : 0, age(obj, now)],
  },
};
