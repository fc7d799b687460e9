// The Node authorizer and NodeRestriction over HTTP: a node agent's client certificate
// (system:node:<name> in system:nodes) reads and updates only what is bound to its node. RBAC
// gives nodes nothing (kube's system:node binding has no subjects); everything here is the
// Node mode's, on by default.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, http, removeDir, startKapi, type KapiProcess, type KubeClient } from '../../support/server.js';
import { NS, expectCode, json, ns, type Obj } from './helpers.js';

const PODS = (n: string, name = ''): string => `/api/v1/namespaces/${n}/pods${name ? '/' + name : ''}`;
const pod = (name: string, nodeName?: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx:1.27' }] },
});

let k: KapiProcess;
let n1: KubeClient;

beforeAll(async () => {
  k = await startKapi();
  expectCode(await http(k, 'POST', NS(), ns('work')), 201);
  for (const [name, node] of [['a', 'n1'], ['b', 'n2'], ['c', undefined]] as const) expectCode(await http(k, 'POST', PODS('work'), pod(name, node)), 201);
  n1 = await asUser(k, 'system:node:n1', ['system:nodes']);
});

afterAll(async () => {
  await n1?.close();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('a node agent', () => {
  it('reads the pods bound to it, by name or by spec.nodeName, and no others', async () => {
    expectCode(await http(n1, 'GET', PODS('work', 'a')), 200);
    expect(json(await http(n1, 'GET', PODS('work', 'b'))).message).toBe(
      'pods "b" is forbidden: User "system:node:n1" cannot get resource "pods" in API group "" in the namespace "work": no relationship found between node \'n1\' and this object',
    );
    const mine = expectCode(await http(n1, 'GET', `/api/v1/pods?fieldSelector=spec.nodeName%3Dn1`), 200);
    expect(mine.items.map((p: Obj) => p.metadata.name)).toEqual(['a']);
    expect(json(await http(n1, 'GET', '/api/v1/pods')).message).toBe(
      'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    );
  });

  it('writes the status of its own pods only, and deletes only them', async () => {
    const a = expectCode(await http(n1, 'GET', PODS('work', 'a')), 200);
    a.status = { phase: 'Running' };
    expect(expectCode(await http(n1, 'PUT', `${PODS('work', 'a')}/status`, a), 200).status.phase).toBe('Running');
    const r = await http(n1, 'PATCH', `${PODS('work', 'b')}/status`, { status: { phase: 'Running' } }, { 'content-type': 'application/merge-patch+json' });
    expect(r.json).toMatchObject({ code: 403, message: 'pods "b" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself' });
    expect(json(await http(n1, 'DELETE', PODS('work', 'b'))).message).toBe('pods "b" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
    expectCode(await http(n1, 'DELETE', PODS('work', 'a')), 200);
  });

  it('evicts only the pods bound to it (NodeRestriction)', async () => {
    expectCode(await http(k, 'POST', PODS('work'), pod('e', 'n1')), 201);
    const eviction = (name: string): Obj => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'work' } });
    const other = await http(n1, 'POST', `${PODS('work', 'b')}/eviction`, eviction('b'));
    expect(other.json).toMatchObject({ code: 403, reason: 'Forbidden', message: 'pods "b" is forbidden: node n1 can only evict pods with spec.nodeName set to itself' });
    expectCode(await http(k, 'GET', PODS('work', 'b')), 200);
    expectCode(await http(n1, 'POST', `${PODS('work', 'e')}/eviction`, eviction('e')), 201);
    const gone = await http(k, 'GET', PODS('work', 'e'));
    // Evicted: gone, or going with its grace period.
    expect(gone.status === 404 || json(gone).metadata.deletionTimestamp !== undefined).toBe(true);
  });

  it('creates mirror pods only', async () => {
    expect(json(await http(n1, 'POST', PODS('work'), pod('m', 'n1'))).message).toBe(
      'pods "m" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
    );
  });

  // Each answer is kube-apiserver 1.33.13's to the same request (--enable-admission-plugins=NodeRestriction).
  it('its own Node only, without taints, owner references or labels outside the kubelet\'s; its own Lease', async () => {
    const MERGE = { 'content-type': 'application/merge-patch+json' };
    const refused = async (method: string, path: string, body: unknown, message: string, headers?: Record<string, string>): Promise<void> => {
      const r = await http(n1, method, path, body, headers);
      expect(r.json).toMatchObject({ code: 403, reason: 'Forbidden', message });
    };
    await refused('POST', '/api/v1/nodes', { metadata: { name: 'n2' } }, 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    await refused(
      'POST',
      '/api/v1/nodes',
      { metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', 'node-role.kubernetes.io/master': '' } } },
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-role.kubernetes.io/master',
    );
    expectCode(await http(n1, 'POST', '/api/v1/nodes', { metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1', 'foo.example.com/x': 'y' } } }), 201);
    await refused('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'node-restriction.kubernetes.io/x': 'y' } } }, 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/x', MERGE);
    await refused('PATCH', '/api/v1/nodes/n1', { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } }, 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints', MERGE);
    await refused(
      'PATCH',
      '/api/v1/nodes/n1',
      { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x', uid: '1' }] } },
      'nodes "n1" is forbidden: node "n1" is not allowed to modify ownerReferences',
      MERGE,
    );
    expectCode(await http(n1, 'PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'topology.kubernetes.io/zone': 'z' } } }, MERGE), 200);
    expectCode(await http(n1, 'PATCH', '/api/v1/nodes/n1/status', { status: { capacity: { cpu: '2' } } }, MERGE), 200);
    expectCode(await http(k, 'POST', '/api/v1/nodes', { metadata: { name: 'n2' } }), 201);
    await refused('PATCH', '/api/v1/nodes/n2/status', { status: { capacity: { cpu: '2' } } }, 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"', MERGE);
    await refused('DELETE', '/api/v1/nodes/n1', undefined, 'nodes "n1" is forbidden: User "system:node:n1" cannot delete resource "nodes" in API group "" at the cluster scope');

    const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
    await http(k, 'POST', NS(), ns('kube-node-lease'));
    await refused('POST', LEASES, { metadata: { name: 'n2' }, spec: { holderIdentity: 'n2' } }, 'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node');
    expectCode(await http(n1, 'POST', LEASES, { metadata: { name: 'n1' }, spec: { holderIdentity: 'n1' } }), 201);
  });

  it('asks for service account tokens only bound to a pod of its own, for an audience the pod uses (NodeRestriction)', async () => {
    // The answers kube-apiserver 1.33.13 gives with --enable-admission-plugins=NodeRestriction.
    expectCode(await http(k, 'POST', NS(), ns('tok')), 201);
    expectCode(await http(k, 'POST', '/api/v1/namespaces/tok/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent' } }), 201);
    // Without the ServiceAccount plugin's API access volume (a token of the API's audience):
    // each pod's tokens are those its own volumes ask for.
    const withSA = (name: string, nodeName: string, volumes?: Obj[]): Obj => {
      const p = pod(name, nodeName);
      p.spec.serviceAccountName = 'agent';
      p.spec.automountServiceAccountToken = false;
      if (volumes) p.spec.volumes = volumes;
      return p;
    };
    const uid = async (o: Obj) => expectCode(await http(k, 'POST', PODS('tok'), o), 201).metadata.uid as string;
    const own = await uid(withSA('own', 'n1'));
    const other = await uid(withSA('other', 'n2'));
    const projected = await uid(withSA('projected', 'n1', [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }, { serviceAccountToken: { path: 'v', audience: 'vault' } }] } }]));
    const TOKEN = '/api/v1/namespaces/tok/serviceaccounts/agent/token';
    const ask = (spec: Obj) => http(n1, 'POST', TOKEN, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
    const bound = (name: string, podUID?: string) => ({ apiVersion: 'v1', kind: 'Pod', name, ...(podUID ? { uid: podUID } : {}) });
    const refused = async (spec: Obj, why: string) => expect((await ask(spec)).json).toMatchObject({ code: 403, message: `serviceaccounts "agent" is forbidden: ${why}` });
    await refused({}, 'node requested token not bound to a pod');
    await refused({ boundObjectRef: { apiVersion: 'v1', kind: 'Node', name: 'n1' } }, 'node requested token not bound to a pod');
    await refused({ boundObjectRef: bound('own') }, 'node requested token with a pod binding without a uid');
    await refused(
      { boundObjectRef: bound('own', 'x') },
      'the UID in the bound object reference (x) does not match the UID in record. The object might have been deleted and then recreated',
    );
    expect((await ask({ boundObjectRef: bound('ghost', 'x') })).json).toMatchObject({ code: 404, message: 'pod "ghost" not found' });
    await refused({ boundObjectRef: bound('other', other) }, 'node requested token bound to a pod scheduled on a different node');
    // ServiceAccountNodeAudienceRestriction: an audience the pod's projected tokens use ('' is the API's).
    await refused({ boundObjectRef: bound('own', own) }, 'audience "" not found in pod spec volume, system:node:n1 is not authorized to request tokens for this audience');
    expectCode(await ask({ boundObjectRef: bound('projected', projected) }), 201);
    expectCode(await ask({ audiences: ['vault'], boundObjectRef: bound('projected', projected) }), 201);
    await refused({ audiences: ['vault', 'x'], boundObjectRef: bound('projected', projected) }, 'node may only request 0 or 1 audiences');
    const otherAudience = { audiences: ['other'], boundObjectRef: bound('own', own) };
    await refused(otherAudience, 'audience "other" not found in pod spec volume, system:node:n1 is not authorized to request tokens for this audience');
    // ... or one RBAC lets the node ask for, for that account.
    const RBAC = '/apis/rbac.authorization.k8s.io/v1';
    expectCode(await http(k, 'POST', `${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'aud-other' }, rules: [{ apiGroups: [''], resources: ['other'], verbs: ['request-serviceaccounts-token-audience'], resourceNames: ['agent'] }] }), 201);
    const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:node:n1' }];
    expectCode(await http(k, 'POST', `${RBAC}/clusterrolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'aud-other' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'aud-other' }, subjects }), 201);
    expectCode(await ask(otherAudience), 201);
    // Another account than its pods' is the Node authorizer's no.
    expect(json(await http(n1, 'POST', '/api/v1/namespaces/tok/serviceaccounts/default/token', { spec: { boundObjectRef: bound('own', own) } })).message).toBe(
      'serviceaccounts "default" is forbidden: User "system:node:n1" cannot create resource "serviceaccounts/token" in API group "" in the namespace "tok": no relationship found between node \'n1\' and this object',
    );
  });

  it('another user in system:nodes without a node name is not a node', async () => {
    const impostor = await asUser(k, 'mallory', ['system:nodes']);
    expect(json(await http(impostor, 'GET', PODS('work', 'a'))).message).toBe('pods "a" is forbidden: User "mallory" cannot get resource "pods" in API group "" in the namespace "work"');
    await impostor.close();
  });
});
