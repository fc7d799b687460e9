// Shared pieces of the controller suites: a stand-in for the kubelet that marks pods Running
// and Ready through pods/status (these servers run without simulated nodes, so nothing else
// would), and waits on stored state.

import { expect } from 'vitest';
import { kubectl } from '../../support/server.js';
import { eventually, expectCode, http, MERGE, type KapiProcess, type Obj } from '../http/helpers.js';

/**
 * `--controllers` of the suites that play the kubelet: every controller but the node and
 * volume ones. Their nodes are written by hand and never report, so the node lifecycle
 * controller would mark their pods NotReady and the pod garbage collector delete pods bound
 * to nodes that do not exist; the volume binder would annotate their claims.
 */
export const KUBELET_PLAYED = ['--controllers', '*,-node-lifecycle-controller,-node-ipam-controller,-pod-garbage-collector-controller,-persistentvolume-binder-controller'];

export const PODS = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/pods${name ? '/' + name : ''}`;
export const PVCS = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/persistentvolumeclaims${name ? '/' + name : ''}`;
export const REVS = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/controllerrevisions`;
export const EVENTS = (ns: string): string => `/api/v1/namespaces/${ns}/events`;


/** What the kubelet would report for a running pod: Running, and Ready as asked. */
export async function setReady(k: KapiProcess, ns: string, name: string, ready = true): Promise<void> {
  const status = {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }],
  };
  expectCode(await http(k, 'PATCH', `${PODS(ns, name)}/status`, { status }, MERGE), 200);
}

/** The pods of a namespace whose labels include `labels`, by name. */
export async function podsOf(k: KapiProcess, ns: string, labels: Record<string, string>): Promise<Obj[]> {
  const sel = Object.entries(labels)
    .map(([a, b]) => `${a}=${b}`)
    .join(',');
  const list = expectCode(await http(k, 'GET', `${PODS(ns)}?labelSelector=${encodeURIComponent(sel)}`), 200);
  return (list.items as Obj[]).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}

export async function podNames(k: KapiProcess, ns: string, labels: Record<string, string>): Promise<string[]> {
  return (await podsOf(k, ns, labels)).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name as string);
}

/** Waits until the live pods are exactly `names` (sorted). */
export async function waitPods(k: KapiProcess, ns: string, labels: Record<string, string>, names: string[], timeoutMs = 20_000): Promise<Obj[]> {
  let last: string[] = [];
  await eventually(
    `pods ${names.join(',')}`,
    async () => {
      last = await podNames(k, ns, labels);
      return JSON.stringify(last) === JSON.stringify([...names].sort());
    },
    timeoutMs,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; last seen: ${last.join(',')}`);
  });
  return podsOf(k, ns, labels);
}

/** Waits until GET `path` answers an object `pred` accepts; answers it. */
export async function waitFor(k: KapiProcess, path: string, what: string, pred: (o: Obj) => boolean, timeoutMs = 20_000): Promise<Obj> {
  let last: Obj | undefined;
  await eventually(
    what,
    async () => {
      const r = await http(k, 'GET', path);
      last = r.json as Obj;
      return r.status === 200 && pred(last);
    },
    timeoutMs,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; last seen: ${JSON.stringify(last).slice(0, 1500)}`);
  });
  return last!;
}

export async function waitGone(k: KapiProcess, path: string, timeoutMs = 20_000): Promise<void> {
  await eventually(`${path} gone`, async () => (await http(k, 'GET', path)).status === 404, timeoutMs);
}

/** The events about an object (involvedObject.name), oldest first. */
export async function eventsAbout(k: KapiProcess, ns: string, name: string): Promise<Obj[]> {
  const list = expectCode(await http(k, 'GET', `${EVENTS(ns)}?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`), 200);
  return list.items as Obj[];
}

/** Runs kubectl against `k`, expecting it to succeed; answers its output. */
export async function kubectlOk(k: KapiProcess, args: string[], input?: string): Promise<string> {
  const r = await kubectl(k, args, input);
  expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The canonical "web" manifest of kube's StatefulSet docs: a headless Service and the set, with a claim template. */
export const web = (ns: string, replicas = 3): string => `apiVersion: v1
kind: Service
metadata:
  name: nginx
  namespace: ${ns}
  labels: {app: nginx}
spec:
  ports: [{port: 80, name: web}]
  clusterIP: None
  selector: {app: nginx}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  namespace: ${ns}
spec:
  selector: {matchLabels: {app: nginx}}
  serviceName: nginx
  replicas: ${replicas}
  minReadySeconds: 0
  template:
    metadata: {labels: {app: nginx}}
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.24
        ports: [{containerPort: 80, name: web}]
        volumeMounts: [{name: www, mountPath: /usr/share/nginx/html}]
  volumeClaimTemplates:
  - metadata: {name: www}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`;
