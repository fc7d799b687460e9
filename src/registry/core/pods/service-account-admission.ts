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

async function findAccount(ctx: AdmissionContext, namespace: string, name: string): Promise<boolean> {
  const deadline = Date.now() + (name === DEFAULT ? DEFAULT_ACCOUNT_WAIT_MS : 0);
  for (;;) {
    const accounts = await ctx.list(SA_GR, namespace);
    if (accounts.some((a) => a.metadata.name === name && a.metadata.namespace === namespace)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function admitServiceAccount(obj: KObject, ctx: AdmissionContext): Promise<void> {
  const spec = (obj.spec ??= {}) as Obj;
  const name = obj.metadata.name ?? '';
  const namespace = obj.metadata.namespace ?? '';
  if (obj.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) {
    if (str(spec.serviceAccountName) || str(spec.serviceAccount)) throw forbidden(PODS_GR, name, 'a mirror pod may not reference service accounts');
    return;
  }
  let account = str(spec.serviceAccountName) || str(spec.serviceAccount) || DEFAULT;
  spec.serviceAccountName = account;
  spec.serviceAccount = account;
  if (!(await findAccount(ctx, namespace, account))) {
    account = JSON.stringify(account);
    throw forbidden(PODS_GR, name, `error looking up service account ${namespace}/${String(spec.serviceAccountName)}: serviceaccount ${account} not found`);
  }
}
