// The classes of issue 16 outside Server-Side Apply, a few hand-written cases each: every
// sequence's name starts with its class number. Each pins down one rule kube-apiserver 1.33
// follows; the generated corpus (conform-corpus.ts) finds the combinations.

import type { Sequence, Suite } from '../format.js';
import { ALL_TYPES, CT, NS, PROTO, Seq, TYPES, objectPath, one, podSpec, stsSpec, type Obj } from './kit.js';

const T = TYPES;
const STS = T.statefulsets.collection();
const PODS = T.pods.collection();
const PVCS = T.persistentvolumeclaims.collection();
const PDBS = T.poddisruptionbudgets.collection();
const PCS = T.priorityclasses.collection();
const CRS = T.controllerrevisions.collection();
const NSS = T.namespaces.collection();

const pod = (name: string, spec: Obj = {}, metadata: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: podSpec(spec) });
const sts = (name: string, spec: Obj = {}, metadata: Obj = {}): Obj => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, ...metadata }, spec: stsSpec(name, spec) });
const pc = (name: string, extra: Obj = {}): Obj => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 1000, ...extra });
const pdb = (name: string, spec: Obj = {}, metadata: Obj = {}): Obj => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, ...metadata },
  spec: { minAvailable: 1, selector: { matchLabels: { app: name } }, ...spec },
});
const pvc = (name: string, spec: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const cr = (name: string, data: unknown = { a: 1 }, extra: Obj = {}): Obj => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data, revision: 1, ...extra });

const fm = (m: string) => `?fieldManager=${m}`;

// ---- 1: admission on every create and update path ----

function class1(): Sequence[] {
  const missingClass = (name: string) => pod(name, { priorityClassName: 'nope' });
  return [
    new Seq('1-post-missing-priority-class').post(PODS, missingClass('a1-1')).done(),
    new Seq('1-apply-create-missing-priority-class').patch(`${PODS}/a1-2${fm('m')}`, 'apply', missingClass('a1-2')).done(),
    new Seq('1-apply-create-sets-priority').patch(`${PODS}/a1-3${fm('m')}`, 'apply', pod('a1-3')).cleanup(T.pods, 'a1-3').get(`${PODS}/a1-3`).done(),
    new Seq('1-apply-create-system-class')
      .patch(`${PODS}/a1-4${fm('m')}`, 'apply', pod('a1-4', { priorityClassName: 'system-node-critical' }))
      .cleanup(T.pods, 'a1-4')
      .done(),
    new Seq('1-post-priority-without-class').post(PODS, pod('a1-5', { priority: 5 })).done(),
    new Seq('1-apply-priority-without-class').patch(`${PODS}/a1-6${fm('m')}`, 'apply', pod('a1-6', { priority: 7 })).done(),
    new Seq('1-preemption-policy-mismatch').post(PODS, pod('a1-7', { preemptionPolicy: 'Never' })).done(),
    new Seq('1-update-keeps-priority')
      .post(PODS, pod('a1-8'))
      .cleanup(T.pods, 'a1-8')
      .patch(`${PODS}/a1-8`, 'merge', { spec: { priority: null, preemptionPolicy: null } })
      .patch(`${PODS}/a1-8`, 'json6902', [{ op: 'remove', path: '/spec/priority' }])
      .patch(`${PODS}/a1-8${fm('m')}`, 'apply', pod('a1-8'))
      .get(`${PODS}/a1-8`)
      .done(),
    new Seq('1-update-changes-class')
      .post(PODS, pod('a1-9'))
      .cleanup(T.pods, 'a1-9')
      .patch(`${PODS}/a1-9`, 'merge', { spec: { priorityClassName: 'system-node-critical' } })
      .patch(`${PODS}/a1-9`, 'merge', { spec: { priorityClassName: 'nope' } })
      .done(),
    new Seq('1-default-tolerations-on-apply')
      .patch(`${PODS}/a1-10${fm('m')}`, 'apply', pod('a1-10', { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }] }))
      .cleanup(T.pods, 'a1-10')
      .done(),
    // Only one global default, whatever the path.
    new Seq('1-second-global-default-by-apply')
      .post(PCS, pc('a1-pc1', { globalDefault: true }))
      .cleanup(T.priorityclasses, 'a1-pc1')
      .patch(`${PCS}/a1-pc2${fm('m')}`, 'apply', pc('a1-pc2', { globalDefault: true }))
      .post(PCS, pc('a1-pc3', { globalDefault: true }))
      .post(PCS, pc('a1-pc4'))
      .cleanup(T.priorityclasses, 'a1-pc4')
      .patch(`${PCS}/a1-pc4`, 'merge', { globalDefault: true })
      .patch(`${PCS}/a1-pc4`, 'json6902', [{ op: 'add', path: '/globalDefault', value: true }])
      .patch(`${PCS}/a1-pc4`, 'smp', { globalDefault: true })
      .patch(`${PCS}/a1-pc4${fm('m')}`, 'apply', pc('a1-pc4', { globalDefault: true }))
      .get(`${PCS}/a1-pc4`)
      .putFrom(`${PCS}/a1-pc4`, 8, { globalDefault: true })
      .done(),
    // A global default's value goes to pods without a class, on every create path.
    new Seq('1-global-default-fills-pods')
      .post(PCS, pc('a1-pc5', { globalDefault: true, value: 42, preemptionPolicy: 'Never' }))
      .cleanup(T.priorityclasses, 'a1-pc5')
      // kube's Priority plugin reads an informer: reads in between give it time to see the class.
      .get(`${PCS}/a1-pc5`)
      .get(PCS)
      .get(`${PCS}/a1-pc5`)
      .post(PODS, pod('a1-11'))
      .cleanup(T.pods, 'a1-11')
      .patch(`${PODS}/a1-12${fm('m')}`, 'apply', pod('a1-12'))
      .cleanup(T.pods, 'a1-12')
      .done(),
    // Namespace lifecycle on apply-create and POST.
    new Seq('1-apply-create-missing-namespace')
      .patch(`${T.pods.collection('nope-ns')}/a1-13${fm('m')}`, 'apply', pod('a1-13'))
      .patch(`${T.statefulsets.collection('nope-ns')}/a1-13${fm('m')}`, 'apply', sts('a1-13'))
      .post(T.pods.collection('nope-ns'), pod('a1-13'))
      .done(),
    // A namespace kept terminating by a finalizer of its own (kapi's namespace controller
    // empties it as kube's would; the reference server runs none).
    new Seq('1-terminating-namespace')
      .post(NSS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a1-term', finalizers: ['example.com/hold'] } })
      .delete(`${NSS}/a1-term`)
      .post(T.pods.collection('a1-term'), pod('a1-15'))
      .patch(`${T.pods.collection('a1-term')}/a1-16${fm('m')}`, 'apply', pod('a1-16'))
      .patch(`${T.statefulsets.collection('a1-term')}/a1-16${fm('m')}`, 'apply', sts('a1-16'))
      .post(T.persistentvolumeclaims.collection('a1-term'), pvc('a1-17'))
      .done(),
    // StorageObjectInUseProtection: the claim's finalizer, on POST and apply.
    new Seq('1-pvc-protection-finalizer')
      .post(PVCS, pvc('a1-c1'))
      .cleanup(T.persistentvolumeclaims, 'a1-c1')
      .patch(`${PVCS}/a1-c2${fm('m')}`, 'apply', pvc('a1-c2'))
      .cleanup(T.persistentvolumeclaims, 'a1-c2')
      .patch(`${PVCS}/a1-c1`, 'merge', { metadata: { finalizers: null } })
      .patch(`${PVCS}/a1-c1`, 'merge', { metadata: { finalizers: ['example.com/x'] } })
      .delete(`${PVCS}/a1-c2`)
      .done(),
    // Admission does not act on /status.
    new Seq('1-status-subresource')
      .post(PODS, pod('a1-17'))
      .cleanup(T.pods, 'a1-17')
      .patch(`${PODS}/a1-17/status`, 'merge', { spec: { priorityClassName: 'nope' }, status: { phase: 'Running' } })
      .done(),
  ];
}

// ---- 4: protected system objects ----

function class4(): Sequence[] {
  return [
    ...['default', 'kube-system', 'kube-public'].map((n) => one(`4-delete-namespace-${n}`, { method: 'DELETE', path: `${NSS}/${n}` })),
    one('4-delete-namespace-kube-node-lease-dry-run', { method: 'DELETE', path: `${NSS}/kube-node-lease?dryRun=All` }),
    one('4-delete-namespace-default-dry-run', { method: 'DELETE', path: `${NSS}/default?dryRun=All` }),
    ...['system-cluster-critical', 'system-node-critical'].map((n) => one(`4-delete-priority-class-${n}`, { method: 'DELETE', path: `${PCS}/${n}` })),
    one('4-delete-priority-class-system-dry-run', { method: 'DELETE', path: `${PCS}/system-node-critical?dryRun=All` }),
    new Seq('4-update-system-priority-class')
      .patch(`${PCS}/system-node-critical`, 'merge', { value: 5 })
      .patch(`${PCS}/system-node-critical`, 'merge', { metadata: { labels: { a: 'b' } } })
      .patch(`${PCS}/system-node-critical`, 'merge', { metadata: { labels: { a: null } } })
      .done(),
    new Seq('4-create-system-priority-class')
      .post(PCS, pc('system-foo'))
      .post(PCS, pc('system-node-critical', { value: 2000001000 }))
      .done(),
    one('4-delete-namespace-default-with-body', { method: 'DELETE', path: `${NSS}/default`, body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } }),
  ];
}

// ---- 5: PartialObjectMetadata ----

function class5(): Sequence[] {
  const pom = (v: string, list = false) => `application/json;as=PartialObjectMetadata${list ? 'List' : ''};g=meta.k8s.io;v=${v}`;
  const seqs: Sequence[] = [];
  for (const t of ALL_TYPES) {
    const name = `p5-${t.key.slice(0, 6)}`;
    if (t.key === 'namespaces') continue;
    const path = objectPath(t, name);
    const s = new Seq(`5-${t.key}`).post(t.collection(), t.make(name)).cleanup(t, name);
    s.get(path, { accept: pom('v1') }, 'get as PartialObjectMetadata v1');
    s.get(path, { accept: pom('v1beta1') }, 'get as PartialObjectMetadata v1beta1');
    s.get(`${t.collection()}?labelSelector=${encodeURIComponent('!nothing')}&fieldSelector=metadata.name%3D${name}`, { accept: pom('v1', true) }, 'list as PartialObjectMetadataList v1');
    s.get(`${t.collection()}?fieldSelector=metadata.name%3D${name}`, { accept: pom('v1beta1', true) }, 'list as PartialObjectMetadataList v1beta1');
    s.get(path, { accept: pom('v1').replace('application/json', 'application/yaml') }, 'get as PartialObjectMetadata YAML');
    s.get(path, { accept: pom('v1').replace('application/json', PROTO) }, 'get as PartialObjectMetadata protobuf');
    s.get(`${t.collection()}?fieldSelector=metadata.name%3D${name}`, { accept: pom('v1', true).replace('application/json', PROTO) }, 'list as PartialObjectMetadataList protobuf');
    s.get(path, { accept: pom('v1', true) }, 'get as PartialObjectMetadataList');
    s.get(t.collection(), { accept: pom('v1') }, 'list as PartialObjectMetadata');
    s.get(`${t.collection()}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3D${name}`, { accept: pom('v1') }, 'watch as PartialObjectMetadata');
    s.get(`${t.collection()}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3D${name}`, { accept: pom('v1').replace('application/json', PROTO) }, 'watch as PartialObjectMetadata protobuf');
    seqs.push(s.done());
  }
  seqs.push(
    new Seq('5-namespaces')
      .get(`${NSS}/default`, { accept: pom('v1') })
      .get(`${NSS}?fieldSelector=metadata.name%3Ddefault`, { accept: pom('v1', true) })
      .get(`${NSS}/default`, { accept: `${pom('v1')}, application/json` })
      .get(`${NSS}/default`, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2' })
      .get(`${NSS}/default`, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2, application/json' })
      .get(`${NSS}/default`, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io' })
      .get(`${NSS}/default`, { accept: 'application/json;as=PartialObjectMetadata;g=other.io;v=v1' })
      .get(`${STS}/nope`, { accept: pom('v1') })
      .get(`${NSS}/default/status`, { accept: pom('v1') })
      .post(PCS, pc('p5-pc'), { accept: pom('v1') })
      .cleanup(T.priorityclasses, 'p5-pc')
      .done(),
  );
  return seqs;
}

// ---- 6: validation kube does that kapi lacked ----

function class6(): Sequence[] {
  const owners = [
    { apiVersion: 'v1', kind: 'Pod', name: 'a', uid: '11111111-1111-1111-1111-111111111111', controller: true },
    { apiVersion: 'v1', kind: 'Pod', name: 'b', uid: '22222222-2222-2222-2222-222222222222', controller: true },
  ];
  return [
    new Seq('6-two-controller-owners').post(STS, sts('v6-1', {}, { ownerReferences: owners })).post(PCS, { ...pc('v6-1'), metadata: { name: 'v6-1', ownerReferences: owners } }).done(),
    new Seq('6-owner-reference-fields')
      .post(PODS, pod('v6-2', {}, { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] }))
      .post(PODS, pod('v6-2', {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'List', name: 'x', uid: 'u' }] }))
      .done(),
    new Seq('6-service-name-not-dns-label').post(STS, sts('v6-3', { serviceName: 'Not_A_Label' })).post(STS, sts('v6-4', { serviceName: 'a.b' })).done(),
    new Seq('6-orphan-and-foreground')
      .post(PDBS, pdb('v6-5'))
      .cleanup(T.poddisruptionbudgets, 'v6-5')
      .post(`${PDBS}`, pdb('v6-6', {}, { finalizers: ['orphan', 'foregroundDeletion'] }))
      .patch(`${PDBS}/v6-5`, 'merge', { metadata: { finalizers: ['orphan', 'foregroundDeletion'] } })
      .done(),
    new Seq('6-patch-sets-deletion-timestamp')
      .post(PDBS, pdb('v6-7'))
      .cleanup(T.poddisruptionbudgets, 'v6-7')
      .patch(`${PDBS}/v6-7`, 'merge', { metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' } })
      .patch(`${PDBS}/v6-7`, 'merge', { metadata: { deletionGracePeriodSeconds: 30 } })
      .get(`${PDBS}/v6-7`)
      .done(),
    new Seq('6-pdb-status-conditions')
      .post(PDBS, pdb('v6-8'))
      .cleanup(T.poddisruptionbudgets, 'v6-8')
      .patch(`${PDBS}/v6-8/status`, 'merge', { status: { conditions: [{ type: 'bad type!', status: 'Maybe', reason: '', message: 'x' }] } })
      .patch(`${PDBS}/v6-8/status`, 'merge', { status: { conditions: [{ type: 'Ok', status: 'True', reason: 'Fine', lastTransitionTime: '2024-01-01T00:00:00Z' }, { type: 'Ok', status: 'False', reason: 'x y', lastTransitionTime: '2024-01-01T00:00:00Z' }] } })
      .patch(`${PDBS}/v6-8/status`, 'merge', { status: { currentHealthy: -1, desiredHealthy: -2, expectedPods: -3, disruptionsAllowed: -4 } })
      .done(),
    new Seq('6-controller-revision-data')
      .post(CRS, cr('v6-9', 'a string'))
      .post(CRS, cr('v6-10', [1, 2]))
      .post(CRS, cr('v6-11', 5))
      .post(CRS, cr('v6-12', null))
      .cleanup(T.controllerrevisions, 'v6-12')
      .post(CRS, cr('v6-13', { a: 1 }, { revision: -1 }))
      .done(),
    new Seq('6-statefulset-body-to-scale')
      .post(STS, sts('v6-14'))
      .cleanup(T.statefulsets, 'v6-14')
      .put(`${STS}/v6-14/scale`, sts('v6-14', { replicas: 3 }))
      .put(`${STS}/v6-14/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'v6-14' }, spec: { replicas: -1 } })
      .put(`${STS}/v6-14/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'other' }, spec: { replicas: 1 } })
      .put(`${STS}/v6-14/scale`, { apiVersion: 'autoscaling/v2', kind: 'Scale', metadata: { name: 'v6-14' }, spec: { replicas: 1 } })
      .put(`${STS}/v6-14/scale`, { metadata: { name: 'v6-14' }, spec: { replicas: 1 } })
      .get(`${STS}/v6-14`)
      .done(),
    new Seq('6-field-manager-text')
      .post(`${PCS}?fieldManager=${encodeURIComponent('a\tb')}`, pc('v6-15'))
      .post(`${PCS}?fieldManager=${'x'.repeat(129)}`, pc('v6-15'))
      .post(`${PCS}?fieldManager=${'x'.repeat(128)}`, pc('v6-15'))
      .cleanup(T.priorityclasses, 'v6-15')
      .patch(`${PCS}/v6-15?fieldManager=${encodeURIComponent('\u0001')}`, 'merge', { description: 'x' })
      .patch(`${PCS}/v6-15?fieldManager=${'y'.repeat(129)}`, 'apply', pc('v6-15'))
      .done(),
  ];
}

// ---- 7: validation kapi did that kube does not ----

function class7(): Sequence[] {
  return [
    new Seq('7-priority-class-without-value').post(PCS, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'v7-1' } }).cleanup(T.priorityclasses, 'v7-1').done(),
    new Seq('7-pdb-names')
      .post(PDBS, pdb('Upper_Case'))
      .cleanup(T.poddisruptionbudgets, 'Upper_Case')
      .post(PDBS, pdb('a%2Fb'))
      .post(PDBS, pdb('..'))
      .post(PDBS, pdb('x'.repeat(300)))
      .done(),
    new Seq('7-finalizer-without-domain')
      .post(PDBS, pdb('v7-2', {}, { finalizers: ['foo'] }))
      .cleanup(T.poddisruptionbudgets, 'v7-2')
      .post(PDBS, pdb('v7-3', {}, { finalizers: ['Foo Bar'] }))
      .post(PDBS, pdb('v7-4', {}, { finalizers: ['kubernetes.io/unknown'] }))
      .post(PDBS, pdb('v7-5', {}, { finalizers: ['example.com/ok', 'example.com/ok'] }))
      .cleanup(T.poddisruptionbudgets, 'v7-5')
      .done(),
    new Seq('7-namespace-field-selectors')
      .get(`${NSS}?fieldSelector=status.phase%3DActive&labelSelector=kubernetes.io%2Fmetadata.name%3Ddefault`)
      .get(`${NSS}?fieldSelector=status.phase%3DTerminating`)
      .get(`${NSS}?fieldSelector=spec.foo%3Dbar`)
      .get(`${NSS}?fieldSelector=metadata.name%3Ddefault`)
      .done(),
    new Seq('7-field-selectors-per-type')
      .get(`${PODS}?fieldSelector=spec.nodeName%3D`)
      .get(`${PODS}?fieldSelector=spec.schedulerName%3Dx`)
      .get(`${PODS}?fieldSelector=spec.serviceAccountName%3Dx`)
      .get(`${PODS}?fieldSelector=status.podIP%3D1.2.3.4`)
      .get(`${PODS}?fieldSelector=status.nominatedNodeName%3Dx`)
      .get(`${PODS}?fieldSelector=spec.restartPolicy%3DAlways`)
      .get(`${PVCS}?fieldSelector=spec.volumeName%3Dx`)
      .get(`${STS}?fieldSelector=status.replicas%3D1`)
      .get(`${PDBS}?fieldSelector=spec.minAvailable%3D1`)
      .get(`${PCS}?fieldSelector=value%3D1`)
      .get(`${CRS}?fieldSelector=revision%3D1`)
      .done(),
  ];
}

// ---- 8: unconditional update per type ----

function class8(): Sequence[] {
  return ALL_TYPES.map((t) => {
    const name = `u8-${t.key.slice(0, 8)}`;
    const s = new Seq(`8-${t.key}`).post(t.collection(), t.make(name)).cleanup(t, name);
    s.put(objectPath(t, name), t.make(name), undefined, 'PUT without resourceVersion');
    for (const sub of t.subresources.filter((x) => x !== 'scale')) s.put(`${objectPath(t, name)}/${sub}`, t.make(name), undefined, `PUT /${sub} without resourceVersion`);
    if (t.subresources.includes('scale')) {
      s.put(`${objectPath(t, name)}/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name }, spec: { replicas: 2 } }, undefined, 'PUT /scale without resourceVersion');
    }
    return s.done();
  });
}

// ---- 10: strategy warnings and defaults ----

function class10(): Sequence[] {
  return [
    new Seq('10-pod-negative-grace-period')
      .post(PODS, pod('w10-1', { terminationGracePeriodSeconds: -5 }))
      .cleanup(T.pods, 'w10-1')
      .patch(`${PODS}/w10-2${fm('m')}`, 'apply', pod('w10-2', { terminationGracePeriodSeconds: -1 }))
      .cleanup(T.pods, 'w10-2')
      .done(),
    new Seq('10-pod-template-grace-period').post(STS, sts('w10-3', { template: { metadata: { labels: { app: 'w10-3' } }, spec: podSpec({ terminationGracePeriodSeconds: -5 }) } })).cleanup(T.statefulsets, 'w10-3').done(),
    new Seq('10-statefulset-negative-history').post(STS, sts('w10-4', { revisionHistoryLimit: -2 })).cleanup(T.statefulsets, 'w10-4').patch(`${STS}/w10-4`, 'merge', { spec: { revisionHistoryLimit: -3 } }).done(),
    new Seq('10-pod-warnings')
      .post(
        PODS,
        pod(
          'w10-5',
          {
            nodeSelector: { 'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux' },
            containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 80 }], resources: { limits: { memory: '100' } } }],
            volumes: [{ name: 'v', emptyDir: {} }, { name: 'g', gitRepo: { repository: 'https://example.com/x.git' } }],
          },
          { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default', 'scheduler.alpha.kubernetes.io/critical-pod': '' } },
        ),
      )
      .cleanup(T.pods, 'w10-5')
      .done(),
    new Seq('10-pod-affinity-warnings')
      .post(
        PODS,
        pod('w10-6', {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] }],
              },
            },
          },
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'failure-domain.beta.kubernetes.io/region', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} }],
        }),
      )
      .cleanup(T.pods, 'w10-6')
      .done(),
    new Seq('10-pvc-warnings')
      .post(PVCS, { ...pvc('w10-7'), metadata: { name: 'w10-7', annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } } })
      .cleanup(T.persistentvolumeclaims, 'w10-7')
      .post(PVCS, pvc('w10-8', { resources: { requests: { storage: '1.5' } } }))
      .cleanup(T.persistentvolumeclaims, 'w10-8')
      .done(),
    new Seq('10-pdb-warnings')
      .post(PDBS, pdb('w10-9', { selector: { matchLabels: { 'Bad Label': 'x' } } }))
      .post(PDBS, pdb('w10-10', { selector: {} }))
      .cleanup(T.poddisruptionbudgets, 'w10-10')
      .done(),
    new Seq('10-template-warnings')
      .post(
        STS,
        sts('w10-11', {
          template: {
            metadata: { labels: { app: 'w10-11' }, annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' } },
            spec: podSpec({ nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } }),
          },
        }),
      )
      .cleanup(T.statefulsets, 'w10-11')
      .done(),
    new Seq('10-defaults-on-every-path')
      .patch(`${STS}/w10-12${fm('m')}`, 'apply', sts('w10-12'))
      .cleanup(T.statefulsets, 'w10-12')
      .patch(`${STS}/w10-12`, 'merge', { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: null } } })
      .patch(`${STS}/w10-12`, 'json6902', [{ op: 'remove', path: '/spec/podManagementPolicy' }])
      .done(),
  ];
}

// ---- 11: wording ----

function class11(): Sequence[] {
  return [
    new Seq('11-not-acceptable')
      .get(`${STS}`, { accept: 'text/html' })
      .get(`${STS}`, { accept: 'application/*' })
      .get(`${STS}/x`, { accept: 'application/xml' })
      .get(`${STS}`, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v2' })
      .done(),
    new Seq('11-unsupported-media-type')
      .raw('patch with text/plain', 'PATCH', `${STS}/x`, { headers: { 'content-type': 'text/plain' }, body: '{}' })
      .raw('post with text/plain', 'POST', STS, { headers: { 'content-type': 'text/plain' }, body: '{}' })
      .raw('put with xml', 'PUT', `${STS}/x`, { headers: { 'content-type': 'application/xml' }, body: '<a/>' })
      .raw('post without content type', 'POST', STS, { headers: { 'content-type': '' }, body: '{}' })
      .raw('patch with apply cbor', 'PATCH', `${STS}/x`, { headers: { 'content-type': 'application/apply-patch+cbor' }, body: Buffer.from([0xa0]) })
      .done(),
    new Seq('11-pod-spec-forbidden-diff')
      .post(PODS, pod('w11-1'))
      .cleanup(T.pods, 'w11-1')
      .patch(`${PODS}/w11-1`, 'merge', { spec: { containers: [{ name: 'c', image: 'nginx:1.27', command: ['sh'] }] } })
      .patch(`${PODS}/w11-1`, 'merge', { spec: { restartPolicy: 'Never' } })
      .done(),
    new Seq('11-pvc-spec-forbidden-diff')
      .post(PVCS, pvc('w11-2'))
      .cleanup(T.persistentvolumeclaims, 'w11-2')
      .patch(`${PVCS}/w11-2`, 'merge', { spec: { accessModes: ['ReadWriteMany'] } })
      .patch(`${PVCS}/w11-2`, 'merge', { spec: { resources: { requests: { storage: '2Gi' } } } })
      .patch(`${PVCS}/w11-2`, 'merge', { spec: { storageClassName: 'x' } })
      .done(),
    new Seq('11-quantities')
      .post(PODS, pod('w11-3', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '1', memory: '512Mi' } } }] }))
      .post(PODS, pod('w11-4', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '-1' } } }] }))
      .post(PODS, pod('w11-5', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1.5m' } } }] }))
      .post(PODS, pod('w11-6', { containers: [{ name: 'c', image: 'x', resources: { requests: { 'example.com/foo': '1.5' } } }] }))
      .post(PVCS, pvc('w11-7', { resources: { requests: { storage: '0' } } }))
      .post(PODS, pod('w11-8', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: 'abc' } } }] }))
      .done(),
    new Seq('11-sizes')
      .post(STS, sts('w11-9', {}, { annotations: { big: 'x'.repeat(262145) } }))
      .post(STS, sts('w11-10', {}, { labels: { ['a'.repeat(64)]: 'b' } }))
      .post(STS, sts('w11-11', {}, { labels: { a: 'b'.repeat(64) } }))
      .post(PCS, { ...pc('w11-12'), description: 'x', metadata: { name: 'w11-12', annotations: { ['b'.repeat(254) + '/x']: '' } } })
      .done(),
    new Seq('11-yaml-errors')
      .raw('tab indentation', 'POST', PCS, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n\tname: x\nvalue: 1\n' })
      .raw('unclosed quote', 'POST', PCS, { headers: { ...CT.yaml }, body: 'apiVersion: "scheduling.k8s.io/v1\nkind: PriorityClass\n' })
      .raw('bad mapping', 'POST', PCS, { headers: { ...CT.yaml }, body: 'a: b: c\n' })
      .raw('flow not closed', 'POST', PCS, { headers: { ...CT.yaml }, body: '{apiVersion: v1, kind: [\n' })
      .raw('wrong type', 'POST', PCS, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: w11-y\nvalue: abc\n' })
      .raw('list document', 'POST', PCS, { headers: { ...CT.yaml }, body: '- a\n- b\n' })
      .raw('scalar document', 'POST', PCS, { headers: { ...CT.yaml }, body: 'hello\n' })
      .raw('duplicate key', 'POST', PCS, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: w11-y\n  name: w11-z\nvalue: 1\n' })
      .cleanup(T.priorityclasses, 'w11-z')
      .raw('apply bad yaml', 'PATCH', `${PCS}/w11-y?fieldManager=m`, { headers: { ...CT.apply }, body: 'a: [\n' })
      .raw('apply tab', 'PATCH', `${PCS}/w11-y?fieldManager=m`, { headers: { ...CT.apply }, body: 'metadata:\n\tname: x\n' })
      .raw('two documents', 'POST', PCS, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: w11-q\nvalue: 1\n---\nfoo: bar\n' })
      .cleanup(T.priorityclasses, 'w11-q')
      .done(),
    new Seq('11-unstructured-converter-words')
      .post(STS, sts('w11-21'))
      .cleanup(T.statefulsets, 'w11-21')
      .patch(`${STS}/w11-21`, 'smp', { metadata: { labels: 'x' } })
      .patch(`${STS}/w11-21`, 'smp', { metadata: { labels: [1] } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { serviceName: 5 } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { serviceName: 5.5 } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { replicas: '3' } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { selector: 'x' } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { selector: { matchLabels: 5 } } })
      .patch(`${STS}/w11-21`, 'smp', { metadata: { finalizers: { a: 1 } } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { template: { spec: { hostNetwork: 1 } } } })
      .patch(`${STS}/w11-21`, 'smp', { metadata: { creationTimestamp: 5 } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: true } } } })
      .patch(`${STS}/w11-21`, 'smp', { spec: { template: { spec: { containers: [{ name: 'nginx', resources: { limits: { cpu: true } } }] } } } })
      .patch(`${STS}/w11-21`, 'smp', { metadata: { $patch: 'bogus' } })
      .done(),
    new Seq('11-merge-patch-not-an-object')
      .post(PCS, pc('w11-22'))
      .cleanup(T.priorityclasses, 'w11-22')
      .patch(`${PCS}/w11-22`, 'merge', 3)
      .patch(`${PCS}/w11-22`, 'merge', [1])
      .patch(`${PCS}/w11-22`, 'merge', null)
      .req('merge patch array, Ignore', { method: 'PATCH', path: `${PCS}/w11-22?fieldValidation=Ignore`, headers: { ...CT.merge }, body: [1, null, { a: null }] })
      .req('merge patch string, Ignore', { method: 'PATCH', path: `${PCS}/w11-22?fieldValidation=Ignore`, headers: { ...CT.merge }, body: '"x"' })
      .req('merge patch bool, Strict', { method: 'PATCH', path: `${PCS}/w11-22?fieldValidation=Strict`, headers: { ...CT.merge }, body: true })
      .done(),
    new Seq('11-protobuf-envelopes')
      .raw('empty', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.alloc(0) })
      .raw('magic only', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b387300', 'hex') })
      .raw('no magic', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('0a0102', 'hex') })
      .raw('truncated envelope', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000a050102', 'hex') })
      .raw('tag 0', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b38730000', 'hex') })
      .raw('wrong wire type', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b38730008', 'hex') })
      .raw('end group', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000c', 'hex') })
      .raw('varint overflow', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000affffffffffffffffffff01', 'hex') })
      .raw('truncated object', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000a090a0276311203506f6412020a05', 'hex') })
      .raw('unknown kind', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000a0b0a0276311205506f6478781200', 'hex') })
      .raw('no kind (the endpoint supplies it)', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000a040a0276311200', 'hex') })
      .raw('type meta tag 0', 'POST', PODS, { headers: { 'content-type': PROTO }, body: Buffer.from('6b3873000a020000', 'hex') })
      .done(),
    new Seq('19-put-resource-version-syntax')
      .post(PCS, pc('w19-1'))
      .cleanup(T.priorityclasses, 'w19-1')
      .putFrom(`${PCS}/w19-1`, 0, { metadata: { resourceVersion: 'abc' } }, 'resourceVersion abc')
      .putFrom(`${PCS}/w19-1`, 0, { metadata: { resourceVersion: '-1' } }, 'resourceVersion -1')
      .putFrom(`${PCS}/w19-1`, 0, { metadata: { resourceVersion: '99999999999999999999' } }, 'resourceVersion beyond uint64')
      .putFrom(`${PCS}/w19-1`, 0, { metadata: { uid: '00000000-0000-0000-0000-000000000000' } }, 'uid precondition')
      .done(),
    new Seq('11-go-values')
      .post(STS, sts('w11-13', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }))
      .post(STS, sts('w11-14', { podManagementPolicy: 'Sometimes' }))
      .post(STS, sts('w11-15', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Later' } }))
      .post(STS, sts('w11-16', { selector: { matchLabels: { app: 'other' } } }))
      .post(PDBS, pdb('w11-17', { maxUnavailable: 1 }))
      .post(PDBS, pdb('w11-18', { minAvailable: '150%' }))
      .post(PDBS, pdb('w11-19', { minAvailable: -1 }))
      .post(PDBS, pdb('w11-20', { unhealthyPodEvictionPolicy: 'Sometimes' }))
      .done(),
  ];
}

// ---- 13: verbs and paths ----

function class13(): Sequence[] {
  const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'x' }, spec: { replicas: 1 } };
  const r = (name: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    one(`13-${name}`, { method, path, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  // What these list differs by design (kube serves more groups, checks and metrics): status and media type only.
  const listing = (name: string, method: string, path: string) => one(`13-${name}`, { method, path }, { ignoreBody: true });
  return [
    r('post-scale', 'POST', `${STS}/x/scale`, scale),
    r('delete-scale', 'DELETE', `${STS}/x/scale`),
    r('post-status', 'POST', `${STS}/x/status`, {}),
    r('delete-status', 'DELETE', `${STS}/x/status`),
    r('delete-pod-status', 'DELETE', `${PODS}/x/status`),
    r('get-finalize', 'GET', `${NSS}/default/finalize`),
    r('patch-finalize', 'PATCH', `${NSS}/default/finalize`, {}, { ...CT.merge }),
    r('delete-finalize', 'DELETE', `${NSS}/default/finalize`),
    r('post-finalize', 'POST', `${NSS}/default/finalize`, {}),
    r('status-extra', 'GET', `${STS}/x/status/extra`),
    r('scale-extra', 'GET', `${STS}/x/scale/extra`),
    r('namespace-status-extra', 'GET', `${NSS}/default/status/extra`),
    r('unknown-subresource', 'GET', `${STS}/x/foo`),
    r('unknown-subresource-put', 'PUT', `${STS}/x/foo`, {}),
    r('pdb-scale', 'GET', `${PDBS}/x/scale`),
    r('pc-status', 'GET', `${PCS}/x/status`),
    r('cr-status', 'GET', `${CRS}/x/status`),
    listing('root', 'GET', '/'),
    r('foo', 'GET', '/foo'),
    r('foo-post', 'POST', '/foo', {}),
    r('apis-foo', 'GET', '/apis/foo'),
    r('apis-foo-v1', 'GET', '/apis/foo/v1'),
    r('apis-apps-v2', 'GET', '/apis/apps/v2'),
    r('api-v2', 'GET', '/api/v2'),
    r('api-v1-foo', 'GET', '/api/v1/foo'),
    r('apis-apps-v1-foo', 'GET', '/apis/apps/v1/foo'),
    r('apis-apps-v1-ns-foo', 'GET', '/apis/apps/v1/namespaces/default/foo'),
    r('cluster-scoped-in-namespace', 'GET', '/apis/scheduling.k8s.io/v1/namespaces/default/priorityclasses'),
    r('namespaced-sts-all', 'GET', '/apis/apps/v1/statefulsets'),
    r('post-collection-all-namespaces', 'POST', '/apis/apps/v1/statefulsets', sts('x')),
    r('put-collection', 'PUT', STS, sts('x')),
    r('patch-collection', 'PATCH', STS, {}, { ...CT.merge }),
    r('post-object', 'POST', `${STS}/x`, sts('x')),
    r('delete-collection-namespaces', 'DELETE', NSS),
    r('options', 'OPTIONS', STS),
    r('trace', 'TRACE', STS),
    r('post-api', 'POST', '/api', {}),
    listing('delete-apis', 'DELETE', '/apis'),
    r('post-version', 'POST', '/version', {}),
    r('readyz-etcd', 'GET', '/readyz/etcd'),
    r('livez-etcd', 'GET', '/livez/etcd'),
    r('healthz-etcd', 'GET', '/healthz/etcd'),
    r('readyz-ping', 'GET', '/readyz/ping'),
    r('readyz-log', 'GET', '/readyz/log'),
    r('readyz-informer-sync', 'GET', '/readyz/informer-sync'),
    r('readyz-shutdown', 'GET', '/readyz/shutdown'),
    r('livez-shutdown', 'GET', '/livez/shutdown'),
    r('readyz-etcd-readiness', 'GET', '/readyz/etcd-readiness'),
    r('readyz-poststarthook', 'GET', '/readyz/poststarthook/start-system-namespaces-controller'),
    r('readyz-poststarthook-pc', 'GET', '/readyz/poststarthook/scheduling/bootstrap-system-priority-classes'),
    r('readyz-nope', 'GET', '/readyz/nope'),
    r('readyz-exclude-etcd', 'GET', '/readyz?exclude=etcd'),
    r('readyz-exclude-unknown', 'GET', '/readyz?exclude=nope'),
    r('livez-verbose-exclude', 'GET', '/livez?verbose&exclude=etcd&exclude=log'),
    r('healthz-post', 'POST', '/healthz', {}),
    r('watch-object-path-extra', 'GET', '/apis/apps/v1/watch/namespaces/default/statefulsets/x/status'),
    r('namespace-resource-missing', 'GET', '/api/v1/namespaces/default/nothing'),
    r('double-slash', 'GET', '/apis/apps/v1//statefulsets'),
    r('trailing-slash', 'GET', `${STS}/`),
    listing('metrics-post', 'POST', '/metrics'),
    r('openapi-v3-missing', 'GET', '/openapi/v3/apis/foo/v1'),
    listing('openapi-v2-post', 'POST', '/openapi/v2'),
  ];
}

// ---- 14: negotiation of errors, Table versions, deletecollection pages, bookmarks ----

function class14(): Sequence[] {
  const table = (v: string) => `application/json;as=Table;g=meta.k8s.io;v=${v}`;
  return [
    new Seq('14-errors-as-yaml')
      .get(`${STS}/nope`, { accept: 'application/yaml' })
      .post(STS, { kind: 'StatefulSet', apiVersion: 'apps/v1', metadata: { name: 'Bad_Name' } }, { accept: 'application/yaml' })
      .get(`${STS}/nope`, { accept: PROTO })
      .get(`${STS}/nope`, { accept: 'application/yaml;q=0.5, application/json' })
      .done(),
    new Seq('14-table-versions')
      .post(PCS, pc('t14-1'))
      .cleanup(T.priorityclasses, 't14-1')
      .get(`${PCS}/t14-1`, { accept: table('v1beta1') })
      .get(`${PCS}?fieldSelector=metadata.name%3Dt14-1`, { accept: table('v1beta1') })
      .get(`${PCS}/t14-1?includeObject=Object`, { accept: table('v1') })
      .get(`${PCS}/t14-1?includeObject=None`, { accept: table('v1beta1') })
      .get(`${PCS}/t14-1`, { accept: table('v1beta1').replace('application/json', 'application/yaml') })
      .get(`${PCS}/t14-1`, { accept: `${table('v1beta1')}, ${table('v1')}` })
      .done(),
    new Seq('14-deletecollection-limit')
      .post(PCS, pc('d14-1', { metadata: { name: 'd14-1', labels: { d14: 'x' } } }))
      .post(PCS, pc('d14-2', { metadata: { name: 'd14-2', labels: { d14: 'x' } } }))
      .post(PCS, pc('d14-3', { metadata: { name: 'd14-3', labels: { d14: 'x' } } }))
      .cleanup(T.priorityclasses, 'd14-1')
      .cleanup(T.priorityclasses, 'd14-2')
      .cleanup(T.priorityclasses, 'd14-3')
      .delete(`${PCS}?labelSelector=d14%3Dx&limit=1`)
      .get(`${PCS}?labelSelector=d14%3Dx`)
      .delete(`${PCS}?labelSelector=d14%3Dx&limit=5`)
      .get(`${PCS}?labelSelector=d14%3Dx`)
      .done(),
    new Seq('14-deletecollection-pods-grace')
      .post(PODS, pod('d14-p1', {}, { labels: { d14: 'p' } }))
      .post(PODS, pod('d14-p2', {}, { labels: { d14: 'p' } }))
      .cleanup(T.pods, 'd14-p1')
      .cleanup(T.pods, 'd14-p2')
      .delete(`${PODS}?labelSelector=d14%3Dp`)
      .get(`${PODS}?labelSelector=d14%3Dp`)
      .done(),
    new Seq('14-deletecollection-options')
      .delete(`${PCS}?labelSelector=d14%3Dnone&limit=-1`)
      .delete(`${PCS}?labelSelector=d14%3Dnone&continue=abc`)
      .delete(`${PCS}?labelSelector=d14%3Dnone&resourceVersion=abc`)
      .delete(`${PCS}?labelSelector=d14%3Dnone&resourceVersionMatch=Exact`)
      .delete(`${PCS}?labelSelector=d14%3Dnone&watch=true`)
      .done(),
  ];
}

// ---- 15: invalid UTF-8 never reaches a header; no error after a commit ----

function class15(): Sequence[] {
  const bytes = (prefix: string, raw: number[], suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from(raw), Buffer.from(suffix)]);
  return [
    new Seq('15-invalid-utf8-field-name')
      .raw('create with an invalid field name', 'POST', PCS, { headers: { ...CT.json }, body: bytes('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-1"},"value":1,"', [0xff, 0xfe], '":1}') })
      .cleanup(T.priorityclasses, 'i15-1')
      .raw('strict', 'POST', `${PCS}?fieldValidation=Strict`, { headers: { ...CT.json }, body: bytes('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-2"},"value":1,"', [0xff], '":1}') })
      .done(),
    new Seq('15-merge-patch-invalid-utf8')
      .post(STS, sts('i15-3'))
      .cleanup(T.statefulsets, 'i15-3')
      .raw('merge patch with a raw U+0101 name', 'PATCH', `${STS}/i15-3`, { headers: { ...CT.merge }, body: Buffer.from('{"zz\u0101":1,"spec":{"replicas":3}}', 'utf8') })
      .raw('merge patch with invalid bytes', 'PATCH', `${STS}/i15-3`, { headers: { ...CT.merge }, body: bytes('{"', [0xc3, 0x28], '":1,"spec":{"replicas":4}}') })
      .raw('strategic patch with invalid bytes', 'PATCH', `${STS}/i15-3`, { headers: { ...CT.smp }, body: bytes('{"spec":{"', [0xe2, 0x82], '":1,"replicas":5}}') })
      .raw('json patch with invalid bytes in a value', 'PATCH', `${STS}/i15-3`, { headers: { ...CT.json6902 }, body: bytes('[{"op":"add","path":"/metadata/labels","value":{"a":"', [0xff], '"}}]') })
      .raw('apply with invalid bytes', 'PATCH', `${STS}/i15-3?fieldManager=m`, { headers: { ...CT.apply }, body: bytes('{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"i15-3"},"', [0xff], '":1}') })
      .get(`${STS}/i15-3`)
      .done(),
    new Seq('15-invalid-utf8-values')
      .raw('label value', 'POST', PCS, { headers: { ...CT.json }, body: bytes('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-4","labels":{"a":"', [0xff], '"}},"value":1}') })
      .raw('description', 'POST', PCS, { headers: { ...CT.json }, body: bytes('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-5"},"value":1,"description":"', [0xfe, 0x41], '"}') })
      .cleanup(T.priorityclasses, 'i15-5')
      .get(`${PCS}/i15-5`)
      .raw('name', 'POST', PCS, { headers: { ...CT.json }, body: bytes('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-', [0xff], '"},"value":1}') })
      .raw('yaml', 'POST', PCS, { headers: { ...CT.yaml }, body: bytes('apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: i15-6\nvalue: 1\n', [0xff, 0xfe], ': 1\n') })
      .done(),
    new Seq('15-text-in-headers')
      .raw('unknown field with a quote and newline', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-7"},"value":1,"a\\"b\\nc\\u0000":1}' })
      .raw('unknown field with U+2028', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-8"},"value":1,"\u2028\u00e9":1}' })
      .raw('duplicate field with invalid bytes', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: bytes('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"i15-9"},"value":1,"', [0xff], '":1,"\xff":2}') })
      .done(),
  ];
}

// ---- 16: deep nesting ----

function nested(depth: number, leaf = '1'): string {
  return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

function class16(): Sequence[] {
  const nestedFields = (depth: number) => '{"f:a":'.repeat(depth) + '{}' + '}'.repeat(depth);
  return [
    new Seq('16-deep-merge-patch')
      .post(STS, sts('n16-1'))
      .cleanup(T.statefulsets, 'n16-1')
      .raw('merge patch 5000 deep', 'PATCH', `${STS}/n16-1`, { headers: { ...CT.merge }, body: `{"metadata":{"annotations":${nested(5000, '"x"')}}}` })
      .raw('strategic patch 5000 deep', 'PATCH', `${STS}/n16-1`, { headers: { ...CT.smp }, body: `{"spec":{"template":${nested(5000)}}}` })
      .raw('json patch value 5000 deep', 'PATCH', `${STS}/n16-1`, { headers: { ...CT.json6902 }, body: `[{"op":"add","path":"/metadata/labels","value":${nested(5000)}}]` })
      .raw('merge patch 9990 deep', 'PATCH', `${STS}/n16-1`, { headers: { ...CT.merge }, body: `{"x":${nested(9990)}}` })
      .raw('merge patch 10001 deep', 'PATCH', `${STS}/n16-1`, { headers: { ...CT.merge }, body: `{"x":${nested(10001)}}` })
      .get(`${STS}/n16-1`)
      .done(),
    new Seq('16-deep-managed-fields')
      .post(STS, sts('n16-2'))
      .cleanup(T.statefulsets, 'n16-2')
      .raw('PUT with deep fieldsV1', 'PUT', `${STS}/n16-2`, {
        headers: { ...CT.json },
        body: JSON.stringify(sts('n16-2')).replace('"metadata":{"name":"n16-2"}', `"metadata":{"name":"n16-2","managedFields":[{"manager":"x","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":${nestedFields(5000)}}]}`),
      })
      .raw('POST with deep fieldsV1', 'POST', STS, {
        headers: { ...CT.json },
        body: JSON.stringify(sts('n16-3')).replace('"metadata":{"name":"n16-3"}', `"metadata":{"name":"n16-3","managedFields":[{"manager":"x","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":${nestedFields(3000)}}]}`),
      })
      .cleanup(T.statefulsets, 'n16-3')
      .done(),
    new Seq('16-deep-bodies')
      .raw('create with a deep unknown field', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"n16-4"},"value":1,"x":${nested(9000)}}` })
      .raw('deep array', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"n16-5"},"value":1,"x":${'['.repeat(9000)}${']'.repeat(9000)}}` })
      .raw('deep yaml', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.yaml }, body: `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: n16-6\nvalue: 1\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n` })
      .raw('deep apply', 'PATCH', `${PCS}/n16-7?fieldManager=m&dryRun=All`, { headers: { ...CT.apply }, body: `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"n16-7","labels":${nested(5000)}},"value":1}` })
      .raw('deep apply unknown', 'PATCH', `${PCS}/n16-7?fieldManager=m&dryRun=All`, { headers: { ...CT.apply }, body: `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"n16-7"},"value":1,"x":${nested(5000)}}` })
      .raw('deep controller revision data', 'POST', `${CRS}?dryRun=All`, { headers: { ...CT.json }, body: `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"n16-8"},"revision":1,"data":${nested(5000)}}` })
      .raw('deep delete options', 'DELETE', `${PCS}/n16-9`, { headers: { ...CT.json }, body: `{"kind":"DeleteOptions","apiVersion":"v1","x":${nested(9000)}}` })
      .done(),
  ];
}

// ---- 17: HEAD ----

function class17(): Sequence[] {
  const head = (name: string, path: string) => one(`17-${name}`, { method: 'HEAD', path }, { headers: ['content-length'] });
  return [
    head('watch-object', `/apis/apps/v1/watch/namespaces/${NS}/statefulsets/y?timeoutSeconds=1`),
    head('watch-collection', `/apis/apps/v1/watch/namespaces/${NS}/statefulsets?timeoutSeconds=1`),
    head('watch-param', `${STS}?watch=true&timeoutSeconds=1`),
    head('get-missing', `${STS}/nope`),
    head('get-namespace', `${NSS}/default`),
    head('list', `${PCS}?fieldSelector=metadata.name%3Dnone`),
    head('discovery', '/apis/apps/v1'),
    head('readyz', '/readyz'),
    head('not-found', '/foo'),
  ];
}

// ---- 18: range checks on every path into the store ----

function class18(): Sequence[] {
  const big = 2147483648;
  return [
    new Seq('18-scale-out-of-range')
      .post(STS, sts('r18-1'))
      .cleanup(T.statefulsets, 'r18-1')
      .patch(`${STS}/r18-1/scale`, 'merge', { spec: { replicas: big } })
      .patch(`${STS}/r18-1/scale`, 'json6902', [{ op: 'replace', path: '/spec/replicas', value: big }])
      .patch(`${STS}/r18-1/scale`, 'smp', { spec: { replicas: big } })
      .put(`${STS}/r18-1/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'r18-1' }, spec: { replicas: big } })
      .patch(`${STS}/r18-1/scale?fieldManager=m`, 'apply', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'r18-1' }, spec: { replicas: big } })
      .patch(`${STS}/r18-1/scale`, 'merge', { spec: { replicas: 1.5 } })
      .patch(`${STS}/r18-1/scale`, 'merge', { spec: { replicas: '3' } })
      .patch(`${STS}/r18-1/scale`, 'merge', { spec: { replicas: -1 } })
      .get(`${STS}/r18-1`, { accept: PROTO })
      .get(`${STS}?fieldSelector=metadata.name%3Dr18-1`, { accept: PROTO })
      .done(),
    new Seq('18-main-resource-out-of-range')
      .post(STS, sts('r18-2'))
      .cleanup(T.statefulsets, 'r18-2')
      .patch(`${STS}/r18-2`, 'merge', { spec: { replicas: big } })
      .patch(`${STS}/r18-2`, 'json6902', [{ op: 'replace', path: '/spec/minReadySeconds', value: -big - 1 }])
      .patch(`${STS}/r18-2`, 'smp', { spec: { revisionHistoryLimit: big } })
      .patch(`${STS}/r18-2?fieldManager=m`, 'apply', sts('r18-2', { replicas: big }))
      .patch(`${STS}/r18-2/status`, 'merge', { status: { replicas: big } })
      .raw('observedGeneration at int64 max', 'PATCH', `${STS}/r18-2/status`, { headers: { ...CT.merge }, body: '{"status":{"observedGeneration":9223372036854775807}}' })
      .raw('observedGeneration past int64', 'PATCH', `${STS}/r18-2/status`, { headers: { ...CT.merge }, body: '{"status":{"observedGeneration":9223372036854775808}}' })
      .patch(`${STS}/r18-2/status`, 'merge', { status: { observedGeneration: 1e20 } })
      .get(`${STS}/r18-2`, { accept: PROTO })
      .done(),
    new Seq('18-other-types-out-of-range')
      .post(PCS, pc('r18-3', { value: big }))
      .post(PCS, pc('r18-3', { value: 1000000001 }))
      .post(PDBS, pdb('r18-4', { minAvailable: big }))
      .raw('activeDeadlineSeconds past int64', 'POST', PODS, { headers: { ...CT.json }, body: JSON.stringify(pod('r18-5', { activeDeadlineSeconds: 1 })).replace('"activeDeadlineSeconds":1', '"activeDeadlineSeconds":9223372036854775808') })
      .post(PODS, pod('r18-6', { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 70000 }] }] }))
      .post(CRS, cr('r18-7', {}, { revision: 1e19 }))
      .post(PVCS, pvc('r18-8'))
      .cleanup(T.persistentvolumeclaims, 'r18-8')
      .patch(`${PVCS}/r18-8/status`, 'merge', { status: { capacity: { storage: '1e400' } } })
      .done(),
  ];
}

// ---- 19: numbers out of range for their Go type ----

function class19(): Sequence[] {
  const num = (json: string) => json;
  return [
    new Seq('19-huge-numbers-in-patches')
      .post(STS, sts('r19-1'))
      .cleanup(T.statefulsets, 'r19-1')
      .raw('merge 1e400', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"spec":{"replicas":1e400}}') })
      .raw('json patch 1e400', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.json6902 }, body: num('[{"op":"replace","path":"/spec/replicas","value":1e400}]') })
      .raw('strategic 1e400', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.smp }, body: num('{"spec":{"replicas":1e400}}') })
      .raw('apply 1e400', 'PATCH', `${STS}/r19-1?fieldManager=m`, { headers: { ...CT.apply }, body: num('{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"r19-1"},"spec":{"replicas":1e400}}') })
      .raw('merge -1e400', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"spec":{"replicas":-1e400}}') })
      .raw('merge 1e-400', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"spec":{"replicas":1e-400}}') })
      .raw('merge 3.0', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"spec":{"replicas":3.0}}') })
      .raw('merge 2e0', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"spec":{"replicas":2e0}}') })
      .raw('merge 1e400 in an unknown field', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"spec":{"foo":1e400}}') })
      .raw('merge huge integer label', 'PATCH', `${STS}/r19-1`, { headers: { ...CT.merge }, body: num('{"metadata":{"labels":{"a":123456789012345678901234567890}}}') })
      .get(`${STS}/r19-1`)
      .done(),
    new Seq('19-huge-numbers-in-bodies')
      .raw('create 1e400', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: num('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"r19-2"},"value":1e400}') })
      .raw('create 9223372036854775808 generation', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: num('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"r19-3","generation":9223372036854775808},"value":1}') })
      .raw('create 1.5 value', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: num('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"r19-4"},"value":1.5}') })
      .raw('create -0', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.json }, body: num('{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"r19-5"},"value":-0}') })
      .raw('yaml 1e400', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: r19-6\nvalue: 1e400\n' })
      .raw('yaml .inf', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: r19-7\nvalue: .inf\n' })
      .raw('yaml 0x10', 'POST', `${PCS}?dryRun=All`, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: r19-8\nvalue: 0x10\n' })
      .raw('delete options grace 1e400', 'DELETE', `${PCS}/nope`, { headers: { ...CT.json }, body: '{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":1e400}' })
      .raw('grace period query huge', 'DELETE', `${PCS}/nope?gracePeriodSeconds=99999999999999999999`)
      .raw('limit huge', 'GET', `${PCS}?limit=99999999999999999999`)
      .raw('timeoutSeconds huge', 'GET', `${PCS}?watch=1&timeoutSeconds=99999999999999999999`)
      .done(),
  ];
}

export const conformClasses: Suite = {
  name: 'conform-classes',
  sequences: (): Sequence[] => [
    ...class1(),
    ...class4(),
    ...class5(),
    ...class6(),
    ...class7(),
    ...class8(),
    ...class10(),
    ...class11(),
    ...class13(),
    ...class14(),
    ...class15(),
    ...class16(),
    ...class17(),
    ...class18(),
    ...class19(),
  ],
};

