// kubectl 1.33 against the kinds the controllers' workflow needs: services (create service, the
// canonical headless Service + StatefulSet manifest), nodes, events (get, describe, kubectl
// events), persistent volumes, storage classes and explain. Outputs were compared with
// kubectl 1.33 against kube-apiserver v1.33.13.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { http } from '../../support/server.js';
import { boundKubectl, expectOut, expectTable, type Kubectl } from './helpers.js';

let k: KapiProcess;
let kc: Kubectl;
const NS = 'wk';

const WEB = `apiVersion: v1
kind: Service
metadata:
  name: nginx
  labels:
    app: nginx
spec:
  ports:
  - port: 80
    name: web
  clusterIP: None
  selector:
    app: nginx
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: nginx
  serviceName: "nginx"
  replicas: 3
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.24
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ "ReadWriteOnce" ]
      resources:
        requests:
          storage: 1Gi
`;

const NODE_AND_PV = `apiVersion: v1
kind: Node
metadata:
  name: kapi-node-1
  labels:
    node-role.kubernetes.io/worker: ""
status:
  capacity: {cpu: "2", memory: 4Gi, pods: "110"}
  nodeInfo: {kubeletVersion: v1.33.0}
  conditions:
  - {type: Ready, status: "True", reason: KubeletReady, message: ok}
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-a
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /tmp/pv-a}
`;

/** An events.k8s.io/v1 Event about a pod, as a controller writes one. */
function event(reason: string, pod: { name: string; uid: string }): Record<string, unknown> {
  return {
    metadata: { generateName: `${pod.name}-` },
    eventTime: new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
    reportingController: 'kapi.io/test',
    reportingInstance: 'kapi-node-1',
    action: 'Test',
    reason,
    regarding: { kind: 'Pod', name: pod.name, namespace: NS, uid: pod.uid, apiVersion: 'v1' },
    note: `the pod was ${reason.toLowerCase()}`,
    type: 'Normal',
  };
}

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
  expectOut(await kc(['create', 'namespace', NS]), `namespace/${NS} created\n`);
});

afterAll(() => stopKapi(k));

describe('services with kubectl', () => {
  it('the canonical web manifest: a headless Service and a StatefulSet', async () => {
    expectOut(await kc(['-n', NS, 'apply', '-f', '-'], WEB), 'service/nginx created\nstatefulset.apps/web created\n');
    // Applied again: the Service is unchanged (its allocated fields are nobody's to fight over);
    // kubectl re-sends the claim templates (an atomic list) and says "configured", as it does
    // against kube-apiserver 1.33.
    expectOut(await kc(['-n', NS, 'apply', '-f', '-'], WEB), 'service/nginx unchanged\nstatefulset.apps/web configured\n');
  });

  it('kubectl create service clusterip, nodeport and externalname', async () => {
    expectOut(await kc(['-n', NS, 'create', 'service', 'clusterip', 'foo', '--tcp=80:8080']), 'service/foo created\n');
    expectOut(await kc(['-n', NS, 'create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30001']), 'service/np created\n');
    expectOut(await kc(['-n', NS, 'create', 'service', 'externalname', 'ext', '--external-name=example.com']), 'service/ext created\n');
    const ip = (await kc(['-n', NS, 'get', 'svc', 'foo', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
    expect(ip).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    const r = await kc(['-n', NS, 'get', 'svc']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const rows = r.stdout.trim().split('\n').map((l) => l.split(/\s+/));
    expect(rows[0]).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    expect(rows.slice(1).map((c) => [c[0], c[1], c[3], c[4]])).toEqual([
      ['ext', 'ExternalName', 'example.com', '<none>'],
      ['foo', 'ClusterIP', '<none>', '80/TCP'],
      ['nginx', 'ClusterIP', '<none>', '80/TCP'],
      ['np', 'NodePort', '<none>', '80:30001/TCP'],
    ]);
    expect(rows[3]![2]).toBe('None');
    const d = await kc(['-n', NS, 'describe', 'svc', 'foo']);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('IP Family Policy:         SingleStack');
    expect(d.stdout).toContain(`IPs:                      ${ip}\n`);
    expect(d.stdout).toContain('Port:                     80-8080  80/TCP\nTargetPort:               8080/TCP\n');
  });

  it('a taken node port is refused with kube\'s message', async () => {
    const r = await kc(['-n', NS, 'create', 'service', 'nodeport', 'np2', '--tcp=80:8080', '--node-port=30001']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe('error: failed to create NodePort service: Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30001: provided port is already allocated\n');
  });

  it('kubectl explain service.spec reads the schema', async () => {
    const r = await kc(['explain', 'service.spec']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^KIND:\s+Service\nVERSION:\s+v1\n\nFIELD: spec <ServiceSpec>\n/);
    expect(r.stdout).toMatch(/\n\s+clusterIP\s+<string>\n/);
    expect(r.stdout).toMatch(/\n\s+type\s+<string>\n\s+enum: ClusterIP, ExternalName, LoadBalancer, NodePort\n/);
    const ports = await kc(['explain', 'svc.spec.ports.nodePort']);
    expect(ports.stdout).toMatch(/FIELD: nodePort <integer>/);
  });
});

describe('nodes, volumes, classes and events with kubectl', () => {
  it('kubectl get svc,nodes,events,pv,sc', async () => {
    expectOut(await kc(['create', '-f', '-'], NODE_AND_PV), 'node/kapi-node-1 created\npersistentvolume/pv-a created\n');
    const r = await kc(['-n', NS, 'get', 'nodes,pv,sc']);
    expectTable(r, [
      'NAME               STATUS   ROLES    AGE   VERSION',
      'node/kapi-node-1   Ready    worker   <age>   v1.33.0',
      '',
      'NAME                    CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS    CLAIM   STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE',
      'persistentvolume/pv-a   2Gi        RWO            Retain           Pending                          <unset>                          <age>',
      '',
      'NAME                                             PROVISIONER         RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE',
      'storageclass.storage.k8s.io/standard (default)   kapi.io/simulated   Delete          WaitForFirstConsumer   false                  <age>',
    ]);
    const all = await kc(['-n', NS, 'get', 'svc,nodes,events,pv,sc', '-o', 'name']);
    expect(all.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'node/kapi-node-1',
      'persistentvolume/pv-a',
      'service/ext',
      'service/foo',
      'service/nginx',
      'service/np',
      'storageclass.storage.k8s.io/standard',
    ]);
    const node = await kc(['describe', 'node', 'kapi-node-1']);
    expect(node.stdout).toContain('Taints:             node.kubernetes.io/not-ready:NoSchedule\n');
    expect(node.stdout).toMatch(/Allocatable:\n {2}cpu:\s+2\n {2}memory:\s+4Gi\n {2}pods:\s+110\n/);
  });

  it('kubectl get events, kubectl events and describe show what was reported', async () => {
    expectOut(await kc(['-n', NS, 'run', 'dp', '--image=nginx']), 'pod/dp created\n');
    const uid = (await kc(['-n', NS, 'get', 'pod', 'dp', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    for (const reason of ['Scheduled', 'Pulled']) {
      const r = await http(k, 'POST', `/apis/events.k8s.io/v1/namespaces/${NS}/events`, event(reason, { name: 'dp', uid }));
      expect(r.status, r.text).toBe(201);
    }
    // Old-style core/v1 events are listed with the new ones.
    const legacy = await http(k, 'POST', `/api/v1/namespaces/${NS}/events`, {
      metadata: { name: 'dp.legacy' },
      involvedObject: { kind: 'Pod', name: 'dp', namespace: NS, uid, apiVersion: 'v1' },
      reason: 'Started',
      message: 'Started container dp',
      type: 'Normal',
      source: { component: 'kubelet', host: 'kapi-node-1' },
      firstTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      lastTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      count: 2,
    });
    expect(legacy.status, legacy.text).toBe(201);
    const get = await kc(['-n', NS, 'get', 'events', '--sort-by=.reason']);
    expectTable(get, [
      'LAST SEEN   TYPE     REASON      OBJECT   MESSAGE',
      '<age>          Normal   Pulled      pod/dp   the pod was pulled',
      '<age>          Normal   Scheduled   pod/dp   the pod was scheduled',
      '<age>          Normal   Started     pod/dp   Started container dp',
    ]);
    const wide = await kc(['-n', NS, 'get', 'events', '-o', 'wide', '--field-selector', 'reason=Started']);
    expectTable(wide, [
      'LAST SEEN   TYPE     REASON    OBJECT   SUBOBJECT   SOURCE                 MESSAGE                FIRST SEEN   COUNT   NAME',
      '<age>          Normal   Started   pod/dp               kubelet, kapi-node-1   Started container dp   <age>           2       dp.legacy',
    ]);
    const forPod = await kc(['-n', NS, 'events', '--for', 'pod/dp']);
    expect(forPod.code).toBe(0);
    expect(forPod.stdout).toContain('Pod/dp');
    expect(forPod.stdout.split('\n').filter(Boolean)).toHaveLength(4);
    const d = await kc(['-n', NS, 'describe', 'pod', 'dp']);
    expect(d.stdout).toMatch(/\nEvents:\n {2}Type +Reason +Age +From +Message\n/);
    expect(d.stdout).toMatch(/\n {2}Normal +Pulled +\S+ +kapi\.io\/test +the pod was pulled\n/);
    // The legacy event was seen twice: kubectl shows its count.
    expect(d.stdout).toMatch(/\n {2}Normal +Started +\S+ \(x2 over \S+\) +kubelet +Started container dp\n/);
    const sts = await kc(['-n', NS, 'describe', 'statefulset', 'web']);
    expect(sts.code).toBe(0);
    expect(sts.stdout).toContain('Events:');
  });
});
