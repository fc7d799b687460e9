// The ServiceAccount admission plugin on pod creates: the `kube-api-access-*` projected volume
// and its mounts (init containers and containers; an existing mount at the path or a volume
// of that prefix kept), `automountServiceAccountToken: false` on the pod or its account, the
// account's image pull secrets, `kubernetes.io/enforce-mountable-secrets`, mirror pods, and
// updates, patches and applies of a pod after it (the volume stays). Record it from a
// reference server started WITH the plugin (a copy of the shared start.sh without
// `--disable-admission-plugins=ServiceAccount`) once the namespace's `default` account exists
// (no controller manager makes it there: create it by hand); replayed by
// test/e2e/http/oracle-sa-token-volume.test.ts. Every sequence deletes what it created.

import type { Sequence, Suite } from '../format.js';
import { NS, PROTO, Seq, TYPES, type Obj, type TypeInfo } from './kit.js';

const PODS = TYPES.pods.collection();
const SAS = `/api/v1/namespaces/${NS}/serviceaccounts`;
const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Service accounts, for the clean-up steps only (kit's TYPES holds the first-wave types). */
const SERVICE_ACCOUNTS: TypeInfo = {
  key: 'serviceaccounts',
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  collection: (ns = NS) => `/api/v1/namespaces/${ns}/serviceaccounts`,
  namespaced: true,
  make: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }),
  change: { metadata: { labels: { changed: 'yes' } } },
  subresources: ['token'],
};

const pod = (name: string, spec: Obj, metadata: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec });
const c = (name: string, extra: Obj = {}): Obj => ({ name, image: 'nginx:1.27', ...extra });
const account = (name: string, extra: Obj = {}, metadata: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, ...metadata }, ...extra });

function shapes(): Sequence[] {
  return [
    new Seq('volume-and-mounts')
      .post(PODS, pod('tv-1', { initContainers: [c('init')], containers: [c('a'), c('b', { volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] })], volumes: [{ name: 'scratch', emptyDir: {} }] }))
      .get(`${PODS}/tv-1`)
      .get(`${PODS}/tv-1`, { accept: PROTO }, 'get as protobuf')
      .done(),
    new Seq('sidecar-gets-mount').post(PODS, pod('tv-2', { initContainers: [c('side', { restartPolicy: 'Always' })], containers: [c('a')] })).done(),
    new Seq('pod-automount-false').post(PODS, pod('tv-3', { automountServiceAccountToken: false, containers: [c('a')] })).done(),
    new Seq('pod-automount-true').post(PODS, pod('tv-4', { automountServiceAccountToken: true, containers: [c('a')] })).done(),
    new Seq('existing-mount-kept')
      .post(PODS, pod('tv-5', { containers: [c('a', { volumeMounts: [{ name: 'own', mountPath: MOUNT_PATH }] }), c('b')], volumes: [{ name: 'own', emptyDir: {} }] }))
      .done(),
    new Seq('every-container-mounts-the-path').post(PODS, pod('tv-6', { containers: [c('a', { volumeMounts: [{ name: 'own', mountPath: MOUNT_PATH, readOnly: true }] })], volumes: [{ name: 'own', emptyDir: {} }] })).done(),
    new Seq('existing-api-access-volume-taken').post(PODS, pod('tv-7', { containers: [c('a')], volumes: [{ name: 'kube-api-access-mine', emptyDir: {} }] })).done(),
    new Seq('dry-run-create').post(`${PODS}?dryRun=All`, pod('tv-8', { containers: [c('a')] })).done(),
    new Seq('apply-create')
      .patch(`${PODS}/tv-9?fieldManager=tv`, 'apply', pod('tv-9', { containers: [c('a')] }))
      .get(`${PODS}/tv-9`)
      .done(),
    new Seq('missing-account').post(PODS, pod('tv-10', { serviceAccountName: 'tv-ghost', containers: [c('a')] })).done(),
  ];
}

function accounts(): Sequence[] {
  return [
    new Seq('account-automount-false')
      .post(SAS, account('tv-quiet', { automountServiceAccountToken: false }))
      .cleanup(SERVICE_ACCOUNTS, 'tv-quiet')
      .post(PODS, pod('tv-20', { serviceAccountName: 'tv-quiet', containers: [c('a')] }))
      .post(PODS, pod('tv-21', { serviceAccountName: 'tv-quiet', automountServiceAccountToken: true, containers: [c('a')] }))
      .done(),
    new Seq('account-pull-secrets')
      .post(SAS, account('tv-pulls', { imagePullSecrets: [{ name: 'reg-1' }, { name: 'reg-2' }] }))
      .cleanup(SERVICE_ACCOUNTS, 'tv-pulls')
      .post(PODS, pod('tv-22', { serviceAccountName: 'tv-pulls', containers: [c('a')] }))
      .post(PODS, pod('tv-23', { serviceAccountName: 'tv-pulls', imagePullSecrets: [{ name: 'mine' }], containers: [c('a')] }))
      .done(),
    new Seq('enforce-mountable-secrets')
      .post(SAS, account('tv-strict', { secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'reg' }] }, { annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }))
      .cleanup(SERVICE_ACCOUNTS, 'tv-strict')
      .post(PODS, pod('tv-24', { serviceAccountName: 'tv-strict', containers: [c('a')], volumes: [{ name: 's', secret: { secretName: 'ok' } }] }))
      .post(PODS, pod('tv-25', { serviceAccountName: 'tv-strict', containers: [c('a')], volumes: [{ name: 's', secret: { secretName: 'other' } }] }))
      .post(PODS, pod('tv-26', { serviceAccountName: 'tv-strict', initContainers: [c('i', { env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] })], containers: [c('a')] }))
      .post(PODS, pod('tv-27', { serviceAccountName: 'tv-strict', containers: [c('a', { envFrom: [{ secretRef: { name: 'other' } }] })] }))
      .post(PODS, pod('tv-28', { serviceAccountName: 'tv-strict', imagePullSecrets: [{ name: 'other' }], containers: [c('a')] }))
      .patch(`${SAS}/tv-strict`, 'merge', { metadata: { labels: { a: 'b' } } }, 'an update keeping the annotation')
      .done(),
    new Seq('enforce-annotation-added').post(SAS, account('tv-later')).cleanup(SERVICE_ACCOUNTS, 'tv-later').patch(`${SAS}/tv-later`, 'merge', { metadata: { annotations: { 'kubernetes.io/enforce-mountable-secrets': 'false' } } }).done(),
  ];
}

function mirrors(): Sequence[] {
  const mirror = (name: string, spec: Obj): Obj => pod(name, { nodeName: 'tv-node', containers: [c('a')], ...spec }, { annotations: { 'kubernetes.io/config.mirror': 'hash' } });
  return [
    new Seq('mirror-pod-untouched').post(PODS, mirror('tv-30', {})).done(),
    new Seq('mirror-pod-account').post(PODS, mirror('tv-31', { serviceAccountName: 'default' })).done(),
    new Seq('mirror-pod-secret-volume').post(PODS, mirror('tv-32', { volumes: [{ name: 's', secret: { secretName: 's' } }] })).done(),
    new Seq('mirror-pod-pull-secret').post(PODS, mirror('tv-33', { imagePullSecrets: [{ name: 'r' }] })).done(),
    new Seq('mirror-pod-token-projection').post(PODS, mirror('tv-34', { volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] })).done(),
    new Seq('mirror-pod-projected-secret').post(PODS, mirror('tv-35', { volumes: [{ name: 't', projected: { sources: [{ secret: { name: 's' } }] } }] })).done(),
  ];
}

function updates(): Sequence[] {
  const s = new Seq('updates-keep-the-volume');
  s.post(PODS, pod('tv-40', { containers: [c('a')] }));
  const created = s.last;
  s.putFrom(`${PODS}/tv-40`, created, { spec: { activeDeadlineSeconds: 600 } }, 'a PUT of the pod as read, with a mutable field changed');
  s.patch(`${PODS}/tv-40`, 'smp', { spec: { containers: [{ name: 'a', image: 'nginx:1.28' }] } }, 'a strategic merge patch of the image');
  s.get(`${PODS}/tv-40`);
  s.patch(`${PODS}/tv-40?fieldManager=tv&force=true`, 'apply', pod('tv-40', { containers: [c('a', { image: 'nginx:1.29' })] }), 'apply of the manifest without the volume');
  s.get(`${PODS}/tv-40`);
  s.patch(`${PODS}/tv-40`, 'json6902', [{ op: 'remove', path: '/spec/volumes' }], 'removing the volume');
  s.patch(`${PODS}/tv-40`, 'json6902', [{ op: 'remove', path: '/spec/containers/0/volumeMounts' }], 'removing the mount');
  return [s.done()];
}

export const saTokenVolume: Suite = {
  name: 'sa-token-volume',
  sequences: () => [...shapes(), ...accounts(), ...mirrors(), ...updates()],
};
