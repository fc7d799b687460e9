// kube 1.33's ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount), on a
// pod's create only (a pod's spec is immutable afterwards, so nothing it adds can be taken
// away by an update):
// - a pod without `serviceAccountName` runs as `default`; the deprecated `serviceAccount`
//   mirrors it, as kube's v1 conversion writes it; the account must exist (kube's 403);
// - unless the pod, else its account, sets `automountServiceAccountToken: false`, the API
//   access volume is projected: a volume `kube-api-access-<5 random chars>` (a bound token,
//   the cluster CA from the `kube-root-ca.crt` ConfigMap, the namespace), appended after the
//   pod's own, and a read-only mount of it at /var/run/secrets/kubernetes.io/serviceaccount
//   appended to each init container and container (ephemeral containers are never mounted)
//   that has nothing mounted there yet. A volume already named `kube-api-access-*` is taken
//   as that volume (no second one is added); a pod whose containers all mount something at
//   the path gets no volume;
// - a pod without image pull secrets gets its account's;
// - an account annotated `kubernetes.io/enforce-mountable-secrets: "true"` limits the
//   secrets the pod may name (volumes, environment, pull secrets) to its own;
// - a mirror pod (the kubelet's copy of a static pod) is never changed, since the kubelet
//   deletes a mirror pod whose spec differs from its file: it may not name an account, a
//   secret or a token projection instead.

import { forbidden } from '../../../machinery/errors.js';
import { parseBool } from '../../../machinery/go-format.js';
import { generateName } from '../../../machinery/meta.js';
import type { AdmissionContext } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** The account annotation that limits its pods' secrets to its own (deprecated in 1.32: serviceaccounts/strategy.ts warns). */
export const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';
const DEFAULT = 'default';
/** The prefix of the projected volume's name (kube's ServiceAccountVolumeName plus the generator's dash). */
export const API_ACCESS_VOLUME_PREFIX = 'kube-api-access-';
export const API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/**
 * The token's lifetime: kube's WarnOnlyBoundTokenExpirationSeconds, an hour and 7 seconds, so
 * the authenticator can tell these tokens (which kubelet refreshes) from others.
 */
const API_TOKEN_EXPIRATION_SECONDS = 3607;
/** ProjectedVolumeSourceDefaultMode (0644): kube sets it explicitly rather than leave it to defaulting. */
const PROJECTED_DEFAULT_MODE = 420;
const SA_GR = { group: '', resource: 'serviceaccounts' };
const PODS_GR = { group: '', resource: 'pods' };
/** How long a pod waits for its namespace's default account (the controller makes it as the namespace appears). */
const DEFAULT_ACCOUNT_WAIT_MS = 2000;

const isMirror = (obj: KObject): boolean => obj.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
const accountOf = (obj: KObject): string => str((obj.spec as Obj | undefined)?.serviceAccountName) || str((obj.spec as Obj | undefined)?.serviceAccount) || DEFAULT;
const objs = (v: unknown): Obj[] => asArr(v).filter(isObj);

function findAccount(ctx: AdmissionContext, namespace: string, name: string): KObject | undefined {
  return ctx.list(SA_GR, namespace).find((a) => a.metadata.name === name && a.metadata.namespace === namespace);
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
  while (!findAccount(ctx, namespace, account) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

export function admitServiceAccount(obj: KObject, ctx: AdmissionContext): void {
  const spec = (obj.spec ??= {}) as Obj;
  const name = obj.metadata.name ?? '';
  const namespace = obj.metadata.namespace ?? '';
  if (isMirror(obj)) {
    const why = mirrorPodRefusal(spec);
    if (why) throw forbidden(PODS_GR, name, why);
    return;
  }
  const account = accountOf(obj);
  spec.serviceAccountName = account;
  spec.serviceAccount = account;
  const sa = findAccount(ctx, namespace, account);
  if (!sa) throw forbidden(PODS_GR, name, `error looking up service account ${namespace}/${account}: serviceaccount ${JSON.stringify(account)} not found`);
  if (shouldAutomount(sa, spec)) mountApiAccess(spec);
  const pullSecrets = objs(sa.imagePullSecrets);
  if (asArr(spec.imagePullSecrets).length === 0 && pullSecrets.length > 0) spec.imagePullSecrets = pullSecrets.map((r) => ({ name: str(r.name) }));
  // kube's Validate half, run on the mutated pod.
  // strconv.ParseBool, an error read as false, as kube's plugin reads the annotation.
  const enforce = sa.metadata.annotations?.[ENFORCE_MOUNTABLE_SECRETS];
  if (enforce !== undefined && parseBool(enforce) === true) {
    const why = unmountableSecret(sa, spec);
    if (why) throw forbidden(PODS_GR, name, why);
  }
}

/** The pod's choice wins, then the account's; mounting is the default. */
function shouldAutomount(sa: KObject, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

/** The projected volume kube adds (its fields in the Go types' order, as kube writes them). */
export function apiAccessVolume(name: string): Obj {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: API_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: PROJECTED_DEFAULT_MODE,
    },
  };
}

function mountApiAccess(spec: Obj): void {
  const volumes = objs(spec.volumes);
  // The first volume of the plugin's name prefix is taken as the one it would add (whatever its source).
  const existing = volumes.find((v) => str(v.name).startsWith(API_ACCESS_VOLUME_PREFIX));
  const volumeName = existing ? str(existing.name) : generateName(API_ACCESS_VOLUME_PREFIX);
  let needed = false;
  for (const list of ['initContainers', 'containers'] as const) {
    for (const c of objs(spec[list])) {
      if (objs(c.volumeMounts).some((m) => m.mountPath === API_TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...asArr(c.volumeMounts), { name: volumeName, readOnly: true, mountPath: API_TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (needed && !existing) spec.volumes = [...asArr(spec.volumes), apiAccessVolume(volumeName)];
}

/** Volume sources that name a secret by `secretRef.name`. */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

/** Whether a pod names any secret: kube's VisitPodSecretNames over every kind of container. */
function namesSecrets(spec: Obj): boolean {
  if (objs(spec.imagePullSecrets).some((r) => str(r.name))) return true;
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objs(spec[list])) {
      if (objs(c.env).some((e) => str(asObj(asObj(e.valueFrom)?.secretKeyRef)?.name))) return true;
      if (objs(c.envFrom).some((e) => str(asObj(e.secretRef)?.name))) return true;
    }
  }
  for (const v of objs(spec.volumes)) {
    if (str(asObj(v.secret)?.secretName) || str(asObj(v.azureFile)?.secretName)) return true;
    if (str(asObj(asObj(v.csi)?.nodePublishSecretRef)?.name)) return true;
    if (SECRET_REF_SOURCES.some((k) => str(asObj(asObj(v[k])?.secretRef)?.name))) return true;
    if (objs(asObj(v.projected)?.sources).some((p) => str(asObj(p.secret)?.name))) return true;
  }
  return false;
}

function mirrorPodRefusal(spec: Obj): string | undefined {
  if (str(spec.serviceAccountName) || str(spec.serviceAccount)) return 'a mirror pod may not reference service accounts';
  if (namesSecrets(spec)) return 'a mirror pod may not reference secrets';
  if (objs(spec.volumes).some((v) => objs(asObj(v.projected)?.sources).some((p) => p.serviceAccountToken))) {
    return 'a mirror pod may not use ServiceAccountToken volume projections';
  }
  return undefined;
}

/** kube's limitSecretReferences: the first secret the pod names that its account does not. */
function unmountableSecret(sa: KObject, spec: Obj): string | undefined {
  const account = sa.metadata.name ?? '';
  const mountable = new Set(objs(sa.secrets).map((r) => str(r.name)));
  for (const v of objs(spec.volumes)) {
    const secret = asObj(v.secret);
    if (secret && !mountable.has(str(secret.secretName))) {
      return `volume with secret.secretName="${str(secret.secretName)}" is not allowed because service account ${account} does not reference that secret`;
    }
  }
  for (const [list, what] of [
    ['initContainers', 'init container'],
    ['containers', 'container'],
  ] as const) {
    for (const c of objs(spec[list])) {
      for (const e of objs(c.env)) {
        const ref = asObj(asObj(e.valueFrom)?.secretKeyRef);
        if (ref && !mountable.has(str(ref.name))) {
          return `${what} ${str(c.name)} with envVar ${str(e.name)} referencing secret.secretName="${str(ref.name)}" is not allowed because service account ${account} does not reference that secret`;
        }
      }
      for (const e of objs(c.envFrom)) {
        const ref = asObj(e.secretRef);
        if (ref && !mountable.has(str(ref.name))) {
          return `${what} ${str(c.name)} with envFrom referencing secret.secretName="${str(ref.name)}" is not allowed because service account ${account} does not reference that secret`;
        }
      }
    }
  }
  const pullable = new Set(objs(sa.imagePullSecrets).map((r) => str(r.name)));
  const pulls = objs(spec.imagePullSecrets);
  for (let i = 0; i < pulls.length; i++) {
    if (!pullable.has(str(pulls[i].name))) {
      return `imagePullSecrets[${i}].name="${str(pulls[i].name)}" is not allowed because service account ${account} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}
