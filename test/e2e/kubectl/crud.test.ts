// kubectl 1.33 create/get/replace/delete of StatefulSets, PodDisruptionBudgets and
// PriorityClasses from manifest files, with the output a real kube-apiserver 1.33 gives.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import {
  BAD_STS_YAML,
  PC_YAML,
  PDB_MAX_YAML,
  PDB_YAML,
  RV_RE,
  STS_YAML,
  TIMESTAMP_RE,
  UID_RE,
  boundKubectl,
  expectErr,
  expectOut,
  expectTable,
  globalDefaultPC,
  normalizeYaml,
  tempDir,
  writeManifest,
  type Kubectl,
} from './helpers.js';

let k: KapiProcess;
let kc: Kubectl;
let dir: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
  dir = await tempDir();
  files.sts = await writeManifest(dir, 'web-sts.yaml', STS_YAML);
  files.pdb = await writeManifest(dir, 'web-pdb.yaml', PDB_YAML);
  files.pc = await writeManifest(dir, 'high-pc.yaml', PC_YAML);
  files.bad = await writeManifest(dir, 'bad-sts.yaml', BAD_STS_YAML);
  files.gd1 = await writeManifest(dir, 'gd-first.yaml', globalDefaultPC('first', 100));
  files.gd2 = await writeManifest(dir, 'gd-second.yaml', globalDefaultPC('second', 200));
  files.sts5 = await writeManifest(dir, 'web-sts-5.yaml', STS_YAML.replace('replicas: 3', 'replicas: 5'));
});

afterAll(async () => {
  await k?.stop();
  if (k) await removeDir(k.dataDir);
  if (dir) await removeDir(dir);
});

describe('kubectl create/get/replace/delete against kapi', () => {
  it('lists the four default namespaces as Active', async () => {
    expectTable(await kc(['get', 'ns']), [
      'NAME              STATUS   AGE',
      'default           Active   <age>',
      'kube-node-lease   Active   <age>',
      'kube-public       Active   <age>',
      'kube-system       Active   <age>',
    ]);
    const r = await kc(['get', 'ns', 'default', '-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(normalizeYaml(r.stdout)).toBe(`apiVersion: v1
kind: Namespace
metadata:
  creationTimestamp: <ts>
  labels:
    kubernetes.io/metadata.name: default
  name: default
  resourceVersion: <rv>
  uid: <uid>
spec:
  finalizers:
  - kubernetes
status:
  phase: Active
`);
  });

  it('creates a StatefulSet, a PDB and a PriorityClass from files', async () => {
    expectOut(await kc(['create', '-f', files.sts]), 'statefulset.apps/web created\n');
    expectOut(await kc(['create', '-f', files.pdb]), 'poddisruptionbudget.policy/web-pdb created\n');
    expectOut(await kc(['create', '-f', files.pc]), 'priorityclass.scheduling.k8s.io/high-priority created\n');
  });

  it('creates from stdin with -f -', async () => {
    expectOut(await kc(['create', '-f', '-'], PDB_MAX_YAML), 'poddisruptionbudget.policy/web-pdb-max created\n');
  });

  it('kubectl get sts prints NAME READY AGE', async () => {
    expectTable(await kc(['get', 'sts']), ['NAME   READY   AGE', 'web    0/3     <age>']);
    expectTable(await kc(['get', 'statefulsets.apps', 'web']), ['NAME   READY   AGE', 'web    0/3     <age>']);
  });

  it('kubectl get sts -o wide adds CONTAINERS and IMAGES', async () => {
    expectTable(await kc(['get', 'sts', '-o', 'wide']), [
      'NAME   READY   AGE   CONTAINERS   IMAGES',
      'web    0/3     <age>   nginx        registry.k8s.io/nginx-slim:0.8',
    ]);
  });

  it('kubectl get sts -o yaml shows the stored object with defaults', async () => {
    const r = await kc(['get', 'sts', 'web', '-o', 'yaml']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(normalizeYaml(r.stdout)).toBe(`apiVersion: apps/v1
kind: StatefulSet
metadata:
  creationTimestamp: <ts>
  generation: 1
  labels:
    app: web
  name: web
  namespace: default
  resourceVersion: <rv>
  uid: <uid>
spec:
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Retain
    whenScaled: Retain
  podManagementPolicy: OrderedReady
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: web
  serviceName: nginx
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: registry.k8s.io/nginx-slim:0.8
        imagePullPolicy: IfNotPresent
        name: nginx
        ports:
        - containerPort: 80
          name: web
          protocol: TCP
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
  updateStrategy:
    rollingUpdate:
      partition: 0
    type: RollingUpdate
status:
  availableReplicas: 0
  replicas: 0
`);
  });

  it('kubectl get sts -o json shows the same object with uid and resourceVersion', async () => {
    const r = await kc(['get', 'sts', 'web', '-o', 'json']);
    expect(r.code).toBe(0);
    // kubectl's JSON printer indents with four spaces.
    expect(r.stdout.startsWith('{\n    "apiVersion": "apps/v1",\n    "kind": "StatefulSet",\n')).toBe(true);
    const obj = JSON.parse(r.stdout) as {
      metadata: Record<string, unknown>;
      spec: Record<string, unknown>;
      status: Record<string, unknown>;
    };
    expect(obj.metadata.uid).toMatch(UID_RE);
    expect(obj.metadata.resourceVersion).toMatch(RV_RE);
    expect(obj.metadata.creationTimestamp).toMatch(TIMESTAMP_RE);
    expect(obj.metadata.generation).toBe(1);
    expect(obj.spec.replicas).toBe(3);
    expect(obj.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(obj.status).toEqual({ replicas: 0, availableReplicas: 0 });
    // The list form: kubectl wraps items in a client-side v1 List.
    const list = await kc(['get', 'sts', '-o', 'json']);
    const parsed = JSON.parse(list.stdout) as { kind: string; apiVersion: string; items: Array<{ metadata: { uid: string } }> };
    expect(parsed.kind).toBe('List');
    expect(parsed.apiVersion).toBe('v1');
    expect(parsed.items.map((i) => i.metadata.uid)).toEqual([obj.metadata.uid]);
  });

  it('serviceName is not omitempty: a StatefulSet without one shows serviceName ""', async () => {
    const noSvc = STS_YAML.replace('  serviceName: nginx\n', '').replace('name: web\n  labels', 'name: nosvc\n  labels');
    expectOut(await kc(['create', '-f', '-'], noSvc), 'statefulset.apps/nosvc created\n');
    const r = await kc(['get', 'sts', 'nosvc', '-o', 'json']);
    expect(r.code).toBe(0);
    expectOut(await kc(['delete', 'sts', 'nosvc']), 'statefulset.apps "nosvc" deleted\n');
    const obj = JSON.parse(r.stdout) as { spec: Record<string, unknown> };
    expect(obj.spec).toHaveProperty('serviceName', '');
  });

  it('kubectl get pdb shows N/A for the unset bound', async () => {
    expectTable(await kc(['get', 'pdb']), [
      'NAME          MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE',
      'web-pdb       2               N/A               0                     <age>',
      'web-pdb-max   N/A             25%               0                     <age>',
    ]);
    const r = await kc(['get', 'pdb', 'web-pdb', '-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(normalizeYaml(r.stdout)).toBe(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  creationTimestamp: <ts>
  generation: 1
  name: web-pdb
  namespace: default
  resourceVersion: <rv>
  uid: <uid>
spec:
  minAvailable: 2
  selector:
    matchLabels:
      app: web
status:
  currentHealthy: 0
  desiredHealthy: 0
  disruptionsAllowed: 0
  expectedPods: 0
`);
  });

  it('kubectl get pc lists the new class and the two system classes', async () => {
    expectTable(await kc(['get', 'pc']), [
      'NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY',
      'high-priority             1000000      false            <age>   PreemptLowerPriority',
      'system-cluster-critical   2000000000   false            <age>   PreemptLowerPriority',
      'system-node-critical      2000001000   false            <age>   PreemptLowerPriority',
    ]);
  });

  it('kubectl get pc -o yaml: generation 1, globalDefault false omitted (omitempty), preemptionPolicy defaulted', async () => {
    const r = await kc(['get', 'pc', 'high-priority', '-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(normalizeYaml(r.stdout)).toBe(`apiVersion: scheduling.k8s.io/v1
description: for important pods
kind: PriorityClass
metadata:
  creationTimestamp: <ts>
  generation: 1
  name: high-priority
  resourceVersion: <rv>
  uid: <uid>
preemptionPolicy: PreemptLowerPriority
value: 1000000
`);
  });

  it('the built-in system-node-critical class as kubectl -o yaml shows it', async () => {
    const r = await kc(['get', 'pc', 'system-node-critical', '-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(normalizeYaml(r.stdout)).toBe(`apiVersion: scheduling.k8s.io/v1
description: Used for system critical pods that must not be moved from their current
  node.
kind: PriorityClass
metadata:
  creationTimestamp: <ts>
  generation: 1
  name: system-node-critical
  resourceVersion: <rv>
  uid: <uid>
preemptionPolicy: PreemptLowerPriority
value: 2000001000
`);
  });

  it('kubectl replace -f after editing replicas bumps the generation', async () => {
    expectOut(await kc(['replace', '-f', files.sts5]), 'statefulset.apps/web replaced\n');
    expectOut(
      await kc(['get', 'sts', 'web', '-o', 'jsonpath={.metadata.generation} {.spec.replicas}']),
      '2 5',
    );
    expectTable(await kc(['get', 'sts']), ['NAME   READY   AGE', 'web    0/5     <age>']);
  });

  it('creating a duplicate is AlreadyExists with the file name', async () => {
    expectErr(
      await kc(['create', '-f', files.sts]),
      `Error from server (AlreadyExists): error when creating "${files.sts}": statefulsets.apps "web" already exists\n`,
    );
  });

  it('an invalid StatefulSet prints the 422 causes the way kubectl does', async () => {
    // kube renders a map badValue with Go's %#v.
    expectErr(
      await kc(['create', '-f', files.bad]),
      'The StatefulSet "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`\n',
    );
  });

  it('a second globalDefault PriorityClass is Forbidden', async () => {
    expectOut(await kc(['create', '-f', files.gd1]), 'priorityclass.scheduling.k8s.io/first created\n');
    expectErr(
      await kc(['create', '-f', files.gd2]),
      `Error from server (Forbidden): error when creating "${files.gd2}": priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist\n`,
    );
    expectOut(await kc(['delete', 'pc', 'first']), 'priorityclass.scheduling.k8s.io "first" deleted\n');
  });

  it('kubectl delete -f and kubectl delete sts; then get is NotFound with exit code 1', async () => {
    expectOut(await kc(['delete', '-f', files.pdb]), 'poddisruptionbudget.policy "web-pdb" deleted\n');
    expectOut(await kc(['delete', '-f', files.pc]), 'priorityclass.scheduling.k8s.io "high-priority" deleted\n');
    expectOut(await kc(['delete', 'sts', 'web']), 'statefulset.apps "web" deleted\n');
    expectErr(await kc(['get', 'sts', 'web']), 'Error from server (NotFound): statefulsets.apps "web" not found\n');
    expectErr(
      await kc(['get', 'pdb', 'web-pdb']),
      'Error from server (NotFound): poddisruptionbudgets.policy "web-pdb" not found\n',
    );
    expectErr(
      await kc(['get', 'pc', 'high-priority']),
      'Error from server (NotFound): priorityclasses.scheduling.k8s.io "high-priority" not found\n',
    );
    // delete -f of something already gone
    expectErr(
      await kc(['delete', '-f', files.sts]),
      'Error from server (NotFound): error when deleting "' + files.sts + '": statefulsets.apps "web" not found\n',
    );
    const empty = await kc(['get', 'sts']);
    expect(empty).toEqual({ code: 0, stdout: '', stderr: 'No resources found in default namespace.\n' });
  });
});
