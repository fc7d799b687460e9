// The ServiceAccount admission plugin, as far as kapi needs it: a pod created without
// `serviceAccountName` runs as `default`, and the account it names must exist in its namespace
// (kube's 403 otherwise). The deprecated `serviceAccount` field mirrors it, as kube's v1
// conversion writes it. No token volume is added: kapi runs no containers.

import { forbidden } from '../../../machinery/errors.js';
import type { AdmissionContext } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { str, type Obj } from '../../../machinery/json-view.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const DEFAULT = 'default';
const SA_GR = { group: '', resource: 'serviceaccounts' };
const PODS_GR = { group: '', resource: 'pods' };
/** How long a pod waits for its namespace's default account (the controller makes it as the namespace appears). */
const DEFAULT_ACCOUNT_WAIT_MS = 2000;

const isMirror = (obj: KObject): boolean => obj.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
const accountOf = (obj: KObject): string => str((obj.spec as Obj | undefined)?.serviceAccountName) || str((obj.spec as Obj | undefined)?.serviceAccount) || DEFAULT;

function hasAccount(ctx: AdmissionContext, namespace: string, name: string): boolean {
  return ctx.list(SA_GR, namespace).some((a) => a.metadata.name === name && a.metadata.namespace === namespace);
}

/**
 * Before a pod's create: kube's plugin retries its lookup of the default account, which the
 * service account controller makes as a namespace appears; this waits for it the same way.
 */
export async function awaitServiceAccount(obj: KObject, ctx: AdmissionContext): Promise<void> {
  const namespace = obj.metadata.namespace ?? '';
  const account = accountOf(obj);
  if (isMirror(obj) || account !== DEFAULT) return;
  const deadline = Date.now() + DEFAULT_ACCOUNT_WAIT_MS;
  while (!hasAccount(ctx, namespace, account) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

export function admitServiceAccount(obj: KObject, ctx: AdmissionContext): void {
  const spec = (obj.spec ??= {}) as Obj;
  const name = obj.metadata.name ?? '';
  const namespace = obj.metadata.namespace ?? '';
  if (isMirror(obj)) {
    if (str(spec.serviceAccountName) || str(spec.serviceAccount)) throw forbidden(PODS_GR, name, 'a mirror pod may not reference service accounts');
    return;
  }
  const account = accountOf(obj);
  spec.serviceAccountName = account;
  spec.serviceAccount = account;
  if (!hasAccount(ctx, namespace, account)) {
    throw forbidden(PODS_GR, name, `error looking up service account ${namespace}/${account}: serviceaccount ${JSON.stringify(account)} not found`);
  }
}
