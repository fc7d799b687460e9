// The Node authorizer and NodeRestriction, for the resources a node agent uses (its Node, its
// Lease, the pods bound to it and their claims and volumes), decided as kube's plugin decides
// them; the stores are stand-ins holding a few objects.

import { describe, expect, it } from 'vitest';
import type { GenericStore } from '../../../src/registry/generic/store.js';
import type { KObject } from '../../../src/machinery/object.js';
import type { Attributes } from '../../../src/auth/authz/authorizer.js';
import { NodeAuthorizer } from '../../../src/auth/authz/node/authorizer.js';
import { nodeWriteChecks } from '../../../src/auth/authz/node/restriction.js';
import { BOOTSTRAP_CLUSTER_ROLES } from '../../../src/auth/authz/rbac/bootstrap/policy.generated.js';
import type { PolicyRule } from '../../../src/registry/rbac/types.js';
import { StatusError } from '../../../src/machinery/errors.js';

/** The parts of a store the Node authorizer reads: its cache, keys and prefix. */
function fakeStore(prefix: string, namespaced: boolean, objects: KObject[]): GenericStore {
  const key = (ns: string, name: string): string => (namespaced ? `${prefix}${ns}/${name}` : `${prefix}${name}`);
  const entries = objects.map((o) => ({ key: key(o.metadata.namespace ?? '', o.metadata.name!), bytes: Buffer.from(JSON.stringify(o)) }));
  const cache = {
    subscribe: () => () => undefined,
    onReset: () => () => undefined,
    list: () => entries,
    get: (k: string) => entries.find((e) => e.key === k),
  };
  return { prefix, cache, keyFor: key } as unknown as GenericStore;
}

const pod = (ns: string, name: string, node: string, extra: Record<string, unknown> = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }], ...extra },
});

const nodeRules = (BOOTSTRAP_CLUSTER_ROLES.find((r) => r.metadata.name === 'system:node') as unknown as { rules: PolicyRule[] }).rules;
const stores: Record<string, GenericStore> = {
  '/pods': fakeStore('/registry/core/pods/', true, [
    pod('web', 'web-0', 'n1', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }, { name: 'scratch', ephemeral: {} }], serviceAccountName: 'builder' }),
    pod('web', 'web-1', 'n2'),
  ]),
  '/persistentvolumeclaims': fakeStore('/registry/core/persistentvolumeclaims/', true, [
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-web-0', namespace: 'web' }, spec: { volumeName: 'pv-7' } },
  ]),
  '/persistentvolumes': fakeStore('/registry/core/persistentvolumes/', false, [
    { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-7' }, spec: { csi: { driver: 'd', volumeHandle: 'h', nodeStageSecretRef: { name: 'csi-creds', namespace: 'storage' } } } },
    { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-8' }, spec: { csi: { driver: 'd', volumeHandle: 'h', nodeStageSecretRef: { name: 'other-creds', namespace: 'storage' } } } },
  ]),
};
const authz = new NodeAuthorizer({ store: (g, r) => stores[`${g}/${r}`], nodeRules });
authz.start();

const n1 = { name: 'system:node:n1', uid: '', groups: ['system:nodes', 'system:authenticated'], extra: {} };
const a = (verb: string, resource: string, opts: Partial<Attributes> = {}): Attributes => ({
  user: n1,
  verb,
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  namespace: '',
  resource,
  subresource: '',
  name: '',
  ...opts,
});
const decide = (x: Attributes): string => {
  const r = authz.authorize(x);
  return r.decision === 'allow' ? 'allow' : `no: ${r.reason}`;
};

describe('the Node authorizer', () => {
  it('has no opinion about users that are not nodes (a node name needs the system:nodes group too)', () => {
    expect(authz.authorize({ ...a('get', 'nodes', { name: 'n1' }), user: { ...n1, groups: ['system:authenticated'] } })).toEqual({ decision: 'no-opinion', reason: '' });
    expect(authz.authorize({ ...a('get', 'nodes'), user: { ...n1, name: 'system:node:' } })).toEqual({ decision: 'no-opinion', reason: 'unknown node for user "system:node:"' });
  });

  it('its own Node: read by name, write (NodeRestriction narrows it); other Nodes and all of them: no', () => {
    expect(decide(a('get', 'nodes', { name: 'n1' }))).toBe('allow');
    expect(decide(a('watch', 'nodes', { name: 'n1' }))).toBe('allow');
    expect(decide(a('get', 'nodes', { name: 'n2' }))).toBe("no: node 'n1' cannot read 'n2', only its own Node object");
    expect(decide(a('list', 'nodes'))).toBe("no: node 'n1' cannot read all nodes, only its own Node object");
    expect(decide(a('create', 'nodes'))).toBe('allow');
    expect(decide(a('patch', 'nodes', { name: 'n1', subresource: 'status' }))).toBe('allow');
    expect(decide(a('delete', 'nodes', { name: 'n1' }))).toBe('no: ');
  });

  it('pods bound to it: get by name, list and watch with spec.nodeName, status writes; not other pods', () => {
    expect(decide(a('get', 'pods', { namespace: 'web', name: 'web-0' }))).toBe('allow');
    expect(decide(a('get', 'pods', { namespace: 'web', name: 'web-1' }))).toBe("no: no relationship found between node 'n1' and this object");
    expect(decide(a('list', 'pods', { fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] }))).toBe('allow');
    expect(decide(a('watch', 'pods', { fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n2' }] }))).toBe('no: can only list/watch pods with spec.nodeName field selector');
    expect(decide(a('list', 'pods', { namespace: 'web', name: 'web-0' }))).toBe('allow');
    expect(decide(a('patch', 'pods', { namespace: 'web', name: 'web-1', subresource: 'status' }))).toBe('allow');
    expect(decide(a('create', 'pods', { namespace: 'web', name: 'web-0', subresource: 'eviction' }))).toBe('allow');
    expect(decide(a('update', 'pods', { namespace: 'web', name: 'web-0' }))).toBe('no: ');
  });

  it('the claims, volumes and service accounts of its pods', () => {
    expect(decide(a('get', 'persistentvolumeclaims', { namespace: 'web', name: 'data-web-0' }))).toBe('allow');
    expect(decide(a('get', 'persistentvolumeclaims', { namespace: 'web', name: 'web-0-scratch' }))).toBe('allow');
    expect(decide(a('get', 'persistentvolumeclaims', { namespace: 'web', name: 'other' }))).toBe("no: no relationship found between node 'n1' and this object");
    expect(decide(a('list', 'persistentvolumeclaims', { namespace: 'web' }))).toBe('no: can only get individual resources of this type');
    expect(decide(a('patch', 'persistentvolumeclaims', { namespace: 'web', name: 'data-web-0', subresource: 'status' }))).toBe('allow');
    expect(decide(a('get', 'persistentvolumes', { name: 'pv-7' }))).toBe('allow');
    expect(decide(a('get', 'persistentvolumes', { name: 'pv-8' }))).toBe("no: no relationship found between node 'n1' and this object");
    expect(decide(a('create', 'serviceaccounts', { namespace: 'web', name: 'builder', subresource: 'token' }))).toBe('allow');
    expect(decide(a('create', 'serviceaccounts', { namespace: 'web', name: 'default', subresource: 'token' }))).toBe("no: no relationship found between node 'n1' and this object");
    expect(decide(a('get', 'serviceaccounts', { namespace: 'web', name: 'builder' }))).toBe('no: not allowed to get service accounts');
  });

  it('the secrets of the volumes its pods\' claims are bound to (node <- pod <- pvc <- pv <- secret)', () => {
    expect(decide(a('get', 'secrets', { namespace: 'storage', name: 'csi-creds' }))).toBe('allow');
    expect(decide(a('watch', 'secrets', { namespace: 'storage', name: 'csi-creds' }))).toBe('allow');
    expect(decide(a('get', 'secrets', { namespace: 'storage', name: 'other-creds' }))).toBe("no: no relationship found between node 'n1' and this object");
    expect(decide(a('get', 'secrets', { namespace: 'web', name: 'csi-creds' }))).toBe("no: no relationship found between node 'n1' and this object");
    expect(decide(a('list', 'secrets', { namespace: 'storage' }))).toBe('no: No Object name found');
  });

  it('its Lease in kube-node-lease only; everything else by the static node rules', () => {
    const lease = (verb: string, namespace: string, name: string): Attributes => a(verb, 'leases', { apiGroup: 'coordination.k8s.io', namespace, name });
    expect(decide(lease('update', 'kube-node-lease', 'n1'))).toBe('allow');
    expect(decide(lease('create', 'kube-node-lease', ''))).toBe('allow');
    expect(decide(lease('get', 'kube-node-lease', 'n2'))).toBe('no: can only access node lease with the same name as the requesting node');
    expect(decide(lease('get', 'default', 'n1'))).toBe('no: can only access leases in the "kube-node-lease" system namespace');
    expect(decide(lease('list', 'kube-node-lease', ''))).toBe('no: can only get, create, update, patch, or delete a node lease');
    expect(decide(a('create', 'events', { namespace: 'web' }))).toBe('allow');
    expect(decide(a('list', 'services'))).toBe('allow');
    expect(decide(a('create', 'subjectaccessreviews', { apiGroup: 'authorization.k8s.io' }))).toBe('allow');
    expect(decide(a('list', 'statefulsets', { apiGroup: 'apps' }))).toBe('no: ');
  });
});

describe('NodeRestriction', () => {
  const refused = (f: () => void): string => {
    try {
      f();
    } catch (e) {
      if (e instanceof StatusError) return e.status.message ?? '';
      throw e;
    }
    return 'allowed';
  };
  const w = (resource: string, opts: { group?: string; subresource?: string; namespace?: string; name?: string } = {}) =>
    nodeWriteChecks({ user: n1, group: opts.group ?? '', resource, subresource: opts.subresource ?? '', namespace: opts.namespace ?? '', name: opts.name ?? '' })!;
  const node = (name: string, extra: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, ...extra }, spec: {} });

  it('is only for nodes', () => {
    expect(nodeWriteChecks({ user: { ...n1, name: 'alice' }, group: '', resource: 'pods', subresource: '', namespace: 'web', name: 'x' })).toBeUndefined();
  });

  it('a node writes its own Node, not its taints, owner references or kube labels outside the kubelet\'s', () => {
    expect(refused(() => w('nodes').create!(node('n1', { labels: { 'kubernetes.io/hostname': 'n1', 'topology.kubernetes.io/zone': 'a', 'example.com/x': 'y' } })))).toBe('allowed');
    expect(refused(() => w('nodes').create!(node('n2')))).toBe('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    expect(refused(() => w('nodes').create!(node('n1', { labels: { 'node-role.kubernetes.io/master': '', 'node-restriction.kubernetes.io/x': 'y' } })))).toBe(
      'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/x, node-role.kubernetes.io/master',
    );
    const old = node('n1');
    const tainted = { ...node('n1'), spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } };
    expect(refused(() => w('nodes', { name: 'n1' }).update!(tainted, old))).toBe('nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
    expect(refused(() => w('nodes', { name: 'n1' }).update!(node('n1', { labels: { 'kubernetes.io/os': 'linux' } }), old))).toBe('allowed');
  });

  it('pods: mirror pods bound to itself only; status and delete of its own pods only', () => {
    const mirror = {
      ...pod('web', 'static', 'n1'),
      metadata: { name: 'static', namespace: 'web', annotations: { 'kubernetes.io/config.mirror': 'x' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u', controller: true }] },
    };
    expect(refused(() => w('pods', { namespace: 'web' }).create!(mirror))).toBe('allowed');
    expect(refused(() => w('pods', { namespace: 'web' }).create!(pod('web', 'p', 'n1')))).toBe('pods "p" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods');
    expect(refused(() => w('pods', { namespace: 'web' }).create!({ ...mirror, spec: { ...mirror.spec, serviceAccountName: 'sa' } }))).toBe('pods "static" is forbidden: node "n1" can not create pods that reference a service account');
    expect(refused(() => w('pods', { subresource: 'status' }).update!(pod('web', 'web-1', 'n2'), pod('web', 'web-1', 'n2')))).toBe(
      'pods "web-1" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
    );
    const relabelled = { ...pod('web', 'web-0', 'n1'), metadata: { name: 'web-0', namespace: 'web', labels: { a: 'b' } } };
    expect(refused(() => w('pods', { subresource: 'status' }).update!(relabelled, pod('web', 'web-0', 'n1')))).toBe('pods "web-0" is forbidden: node "n1" cannot update labels through pod status');
    expect(refused(() => w('pods').delete!(pod('web', 'web-1', 'n2')))).toBe('pods "web-1" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
    expect(refused(() => w('pods').delete!(pod('web', 'web-0', 'n1')))).toBe('allowed');
  });

  it('leases: its own, in kube-node-lease', () => {
    const lease = (name: string): KObject => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name } });
    expect(refused(() => w('leases', { group: 'coordination.k8s.io', namespace: 'kube-node-lease' }).create!(lease('n1')))).toBe('allowed');
    expect(refused(() => w('leases', { group: 'coordination.k8s.io', namespace: 'kube-node-lease' }).create!(lease('n2')))).toBe(
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    );
  });
});
