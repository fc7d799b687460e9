// RBAC objects and access reviews as an administrator sees them (the recorder has one
// identity, in system:masters): kube's validation messages and defaults for roles and
// bindings, and the answers of SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectAccessReview and SelfSubjectRulesReview about users bound in various ways,
// reasons included. Every sequence deletes what it created.

import type { RequestSpec, Sequence, Step } from '../format.js';

type Obj = Record<string, unknown>;

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const AUTHZ = '/apis/authorization.k8s.io/v1';
const ROLES = `${RBAC}/namespaces/default/roles`;
const ROLE_BINDINGS = `${RBAC}/namespaces/default/rolebindings`;
const CLUSTER_ROLES = `${RBAC}/clusterroles`;
const CLUSTER_ROLE_BINDINGS = `${RBAC}/clusterrolebindings`;
const REF = (kind: string, name: string): Obj => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

class Seq {
  readonly steps: Step[] = [];
  constructor(readonly name: string) {}

  req(note: string, req: RequestSpec): this {
    this.steps.push({ note, req });
    return this;
  }

  post(note: string, path: string, body: unknown): this {
    return this.req(note, { method: 'POST', path, body });
  }

  get(note: string, path: string): this {
    return this.req(note, { method: 'GET', path });
  }

  del(note: string, path: string): this {
    return this.req(note, { method: 'DELETE', path });
  }

  sar(note: string, spec: Obj): this {
    return this.post(note, `${AUTHZ}/subjectaccessreviews`, { spec });
  }

  build(): Sequence {
    return { name: this.name, steps: this.steps };
  }
}

function roleValidation(): Sequence {
  const s = new Seq('role-validation');
  const bad = (note: string, path: string, rules: unknown, extra: Obj = {}): void => {
    s.post(note, path, { metadata: { name: 'oracle-rbac-bad' }, rules, ...extra });
  };
  bad('a rule without verbs', ROLES, [{ apiGroups: [''], resources: ['pods'] }]);
  bad('a Role rule of non-resource URLs', ROLES, [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]);
  bad('a rule of resources without apiGroups', CLUSTER_ROLES, [{ verbs: ['get'], resources: ['pods'] }]);
  bad('a rule of resources and non-resource URLs', CLUSTER_ROLES, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/healthz'] }]);
  bad('a rule of neither', CLUSTER_ROLES, [{ verbs: ['get'] }]);
  bad('non-resource URLs with resource names', CLUSTER_ROLES, [{ verbs: ['get'], nonResourceURLs: ['/healthz'], resourceNames: ['x'] }]);
  bad('an aggregation rule with a bad selector', CLUSTER_ROLES, [], { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }] } });
  s.post('a valid Role, rules kept as given', ROLES, {
    metadata: { name: 'oracle-rbac-ok' },
    rules: [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'statefulsets/scale'], resourceNames: ['a'] }],
  });
  s.get('read back', `${ROLES}/oracle-rbac-ok`);
  // (No aggregation rule here: kapi's aggregation controller would fill the rules in, and the
  // reference server runs no controllers.)
  s.post('a valid ClusterRole of URLs', CLUSTER_ROLES, {
    metadata: { name: 'oracle-rbac-ok' },
    rules: [{ verbs: ['get'], nonResourceURLs: ['/oracle/*'] }],
  });
  s.get('read back', `${CLUSTER_ROLES}/oracle-rbac-ok`);
  s.del('delete the Role', `${ROLES}/oracle-rbac-ok`);
  s.del('delete the ClusterRole', `${CLUSTER_ROLES}/oracle-rbac-ok`);
  return s.build();
}

function bindingValidation(): Sequence {
  const s = new Seq('binding-validation');
  const bad = (note: string, path: string, roleRef: unknown, subjects: unknown): void => {
    s.post(note, path, { metadata: { name: 'oracle-rbac-bad' }, roleRef, subjects });
  };
  const user = [{ kind: 'User', name: 'oracle-alice' }];
  bad('a role reference of an unknown kind', ROLE_BINDINGS, REF('Robot', 'x'), user);
  bad('a role reference outside the RBAC group', ROLE_BINDINGS, { apiGroup: 'apps', kind: 'Role', name: 'x' }, user);
  bad('a role reference without a name', ROLE_BINDINGS, REF('Role', ''), user);
  bad('a ClusterRoleBinding of a Role', CLUSTER_ROLE_BINDINGS, REF('Role', 'x'), user);
  bad('a subject of an unknown kind', ROLE_BINDINGS, REF('ClusterRole', 'view'), [{ kind: 'Robot', name: 'r' }]);
  bad('a subject without a name', ROLE_BINDINGS, REF('ClusterRole', 'view'), [{ kind: 'User', name: '' }]);
  bad('a ServiceAccount subject without a namespace, cluster-wide', CLUSTER_ROLE_BINDINGS, REF('ClusterRole', 'view'), [{ kind: 'ServiceAccount', name: 'sa' }]);
  bad('a ServiceAccount subject in the RBAC group', ROLE_BINDINGS, REF('ClusterRole', 'view'), [{ kind: 'ServiceAccount', name: 'sa', apiGroup: 'rbac.authorization.k8s.io' }]);
  bad('a User subject in another group', ROLE_BINDINGS, REF('ClusterRole', 'view'), [{ kind: 'User', name: 'u', apiGroup: 'apps' }]);
  bad('a ServiceAccount subject with a bad name', ROLE_BINDINGS, REF('ClusterRole', 'view'), [{ kind: 'ServiceAccount', name: 'Not_Valid' }]);
  s.post('a RoleBinding of a missing ClusterRole, subjects without apiGroup (defaulted)', ROLE_BINDINGS, {
    metadata: { name: 'oracle-rbac-ok' },
    roleRef: { kind: 'ClusterRole', name: 'oracle-rbac-missing' },
    subjects: [
      { kind: 'User', name: 'oracle-alice' },
      { kind: 'Group', name: 'oracle-devs' },
      { kind: 'ServiceAccount', name: 'default' },
    ],
  });
  s.get('read back', `${ROLE_BINDINGS}/oracle-rbac-ok`);
  s.req('the role reference cannot change', {
    method: 'PATCH',
    path: `${ROLE_BINDINGS}/oracle-rbac-ok`,
    headers: { 'content-type': 'application/merge-patch+json' },
    body: { roleRef: { name: 'view' } },
  });
  s.req('subjects can', {
    method: 'PATCH',
    path: `${ROLE_BINDINGS}/oracle-rbac-ok`,
    headers: { 'content-type': 'application/merge-patch+json' },
    body: { subjects: [{ kind: 'User', name: 'oracle-bob' }] },
  });
  s.del('delete it', `${ROLE_BINDINGS}/oracle-rbac-ok`);
  return s.build();
}

function reviews(): Sequence {
  const s = new Seq('access-reviews');
  s.post('a ClusterRole that reads pods and one URL', CLUSTER_ROLES, {
    metadata: { name: 'oracle-rbac-reader' },
    rules: [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] },
      { verbs: ['update'], apiGroups: ['apps'], resources: ['statefulsets/scale'], resourceNames: ['web'] },
      { verbs: ['get'], nonResourceURLs: ['/oracle/*'] },
    ],
  });
  s.post('bound in default to a user', ROLE_BINDINGS, { metadata: { name: 'oracle-rbac-user' }, roleRef: REF('ClusterRole', 'oracle-rbac-reader'), subjects: [{ kind: 'User', name: 'oracle-alice' }] });
  s.post('cluster-wide to a group', CLUSTER_ROLE_BINDINGS, { metadata: { name: 'oracle-rbac-group' }, roleRef: REF('ClusterRole', 'oracle-rbac-reader'), subjects: [{ kind: 'Group', name: 'oracle-devs' }] });
  s.post('in default to a service account', ROLE_BINDINGS, { metadata: { name: 'oracle-rbac-sa' }, roleRef: REF('ClusterRole', 'oracle-rbac-reader'), subjects: [{ kind: 'ServiceAccount', name: 'robot' }] });
  s.post('a binding of a missing role', ROLE_BINDINGS, { metadata: { name: 'oracle-rbac-missing' }, roleRef: REF('Role', 'oracle-rbac-nothing'), subjects: [{ kind: 'User', name: 'oracle-bob' }] });

  const attrs = (verb: string, resource: string, extra: Obj = {}): Obj => ({ verb, resource, ...extra });
  s.sar('a user: get pods in the namespace of the binding', { user: 'oracle-alice', resourceAttributes: attrs('get', 'pods', { namespace: 'default', version: 'v1' }) });
  s.sar('a user: pods/log by its subresource', { user: 'oracle-alice', resourceAttributes: attrs('get', 'pods', { namespace: 'default', subresource: 'log' }) });
  s.sar('a user: another namespace', { user: 'oracle-alice', resourceAttributes: attrs('get', 'pods', { namespace: 'kube-system' }) });
  s.sar('a user: every namespace', { user: 'oracle-alice', resourceAttributes: attrs('list', 'pods') });
  s.sar('a user: a verb the role lacks', { user: 'oracle-alice', resourceAttributes: attrs('delete', 'pods', { namespace: 'default' }) });
  s.sar('a user: the named scale', { user: 'oracle-alice', resourceAttributes: attrs('update', 'statefulsets', { group: 'apps', subresource: 'scale', name: 'web', namespace: 'default' }) });
  s.sar('a user: another name', { user: 'oracle-alice', resourceAttributes: attrs('update', 'statefulsets', { group: 'apps', subresource: 'scale', name: 'db', namespace: 'default' }) });
  s.sar('a user: a URL only a cluster binding grants', { user: 'oracle-alice', nonResourceAttributes: { path: '/oracle/x', verb: 'get' } });
  s.sar('a group member: every namespace', { user: 'oracle-carol', groups: ['oracle-devs'], resourceAttributes: attrs('list', 'pods') });
  s.sar('a group member: the URL prefix', { user: 'oracle-carol', groups: ['oracle-devs'], nonResourceAttributes: { path: '/oracle/x/y', verb: 'get' } });
  s.sar('a group member: outside the prefix', { user: 'oracle-carol', groups: ['oracle-devs'], nonResourceAttributes: { path: '/oracle', verb: 'get' } });
  s.sar('a service account of the binding\'s namespace', { user: 'system:serviceaccount:default:robot', resourceAttributes: attrs('get', 'pods', { namespace: 'default' }) });
  s.sar('anonymous: health', { user: 'system:anonymous', groups: ['system:unauthenticated'], nonResourceAttributes: { path: '/healthz', verb: 'get' } });
  s.sar('anonymous: discovery', { user: 'system:anonymous', groups: ['system:unauthenticated'], nonResourceAttributes: { path: '/apis', verb: 'get' } });
  s.sar('authenticated: discovery', { user: 'oracle-dave', groups: ['system:authenticated'], nonResourceAttributes: { path: '/apis', verb: 'get' } });
  s.sar('system:masters', { user: 'oracle-root', groups: ['system:masters'], resourceAttributes: attrs('delete', 'nodes', { name: 'n1' }) });
  s.sar('a binding of a missing role', { user: 'oracle-bob', resourceAttributes: attrs('get', 'pods', { namespace: 'default' }) });
  s.sar('a node: its own Node (the Node authorizer)', { user: 'system:node:oracle-n1', groups: ['system:nodes', 'system:authenticated'], resourceAttributes: attrs('get', 'nodes', { name: 'oracle-n1' }) });
  s.sar("a node: another Node's status", { user: 'system:node:oracle-n1', groups: ['system:nodes', 'system:authenticated'], resourceAttributes: attrs('update', 'nodes', { name: 'oracle-n2', subresource: 'status' }) });
  s.sar('no user and no groups', { resourceAttributes: attrs('get', 'pods') });
  s.sar('resource and non-resource attributes both', { user: 'u', resourceAttributes: attrs('get', 'pods'), nonResourceAttributes: { path: '/x', verb: 'get' } });
  s.sar('neither', { user: 'u' });
  s.post('a local review in its namespace', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'oracle-alice', resourceAttributes: attrs('list', 'pods', { namespace: 'default' }) } });
  s.post('a local review about another namespace', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'oracle-alice', resourceAttributes: attrs('list', 'pods', { namespace: 'kube-system' }) } });
  s.post('a local review of a URL', `${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'oracle-alice', nonResourceAttributes: { path: '/x', verb: 'get' } } });
  s.post('a self review (the administrator)', `${AUTHZ}/selfsubjectaccessreviews`, { spec: { resourceAttributes: attrs('create', 'statefulsets', { group: 'apps', namespace: 'default' }) } });
  s.post('a self review of neither', `${AUTHZ}/selfsubjectaccessreviews`, { spec: {} });
  s.post('a self rules review without a namespace', `${AUTHZ}/selfsubjectrulesreviews`, { spec: {} });

  s.del('clean up', `${ROLE_BINDINGS}/oracle-rbac-user`);
  s.del('clean up', `${CLUSTER_ROLE_BINDINGS}/oracle-rbac-group`);
  s.del('clean up', `${ROLE_BINDINGS}/oracle-rbac-sa`);
  s.del('clean up', `${ROLE_BINDINGS}/oracle-rbac-missing`);
  s.del('clean up', `${CLUSTER_ROLES}/oracle-rbac-reader`);
  return s.build();
}

/** Field and label selectors of a review: what validation refuses, and what the authorizer drops. */
function reviewSelectors(): Sequence {
  const s = new Seq('review-selectors');
  const sel = (note: string, selectors: Obj): void => {
    s.sar(note, { user: 'oracle-alice', resourceAttributes: { verb: 'list', resource: 'pods', ...selectors } });
  };
  const field = (...requirements: Obj[]): Obj => ({ fieldSelector: { requirements } });
  const label = (...requirements: Obj[]): Obj => ({ labelSelector: { requirements } });
  sel('field: a raw selector', { fieldSelector: { rawSelector: 'spec.nodeName=n1' } });
  sel('field: a raw selector that does not parse', { fieldSelector: { rawSelector: 'a in (x)' } });
  sel('field: In with one value', field({ key: 'spec.nodeName', operator: 'In', values: ['n1'] }));
  sel('field: In with two values (dropped)', field({ key: 'a', operator: 'In', values: ['x', 'y'] }));
  sel('field: In without values', field({ key: 'a', operator: 'In' }));
  sel('field: Exists (dropped)', field({ key: 'a', operator: 'Exists' }));
  sel('field: Exists with values', field({ key: 'a', operator: 'Exists', values: ['x'] }));
  sel('field: no key', field({ key: '', operator: 'Exists', values: ['x'] }));
  sel('field: an unknown operator (dropped)', field({ key: 'a', operator: 'Bogus', values: ['x'] }));
  sel('field: one of two dropped', field({ key: 'a', operator: 'In', values: ['x'] }, { key: 'b', operator: 'Bogus' }));
  sel('field: raw and requirements', { fieldSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } });
  sel('field: neither', { fieldSelector: {} });
  sel('label: a raw selector', { labelSelector: { rawSelector: 'a in (x),!b' } });
  sel('label: a raw selector that does not parse', { labelSelector: { rawSelector: 'a in (' } });
  sel('label: In without values', label({ key: 'a', operator: 'In' }));
  sel('label: Exists with values', label({ key: 'a', operator: 'Exists', values: ['x'] }));
  sel('label: a bad key', label({ key: 'a b', operator: 'Exists' }));
  sel('label: no key', label({ key: '', operator: 'Exists' }));
  sel('label: a bad value', label({ key: 'a', operator: 'In', values: ['x y'] }));
  sel('label: Gt (dropped)', label({ key: 'a', operator: 'Gt', values: ['1'] }));
  sel('label: one of two dropped', label({ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Bogus' }));
  sel('both dropped in part', { ...field({ key: 'a', operator: 'In', values: ['x'] }, { key: 'b', operator: 'Bogus' }), ...label({ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Bogus' }) });
  sel('both refused', { ...field({ key: '', operator: 'In' }), ...label({ key: 'a b', operator: 'In', values: ['x y'] }) });
  return s.build();
}

/**
 * The Node authorizer: a pod bound to node oracle-n1 that uses secrets, config maps, a claim
 * and a service account; what the node may read of them, what another node may not, and the
 * rules for kinds kapi does not serve (decided by their names alone).
 */
function nodeAuthorizer(): Sequence {
  const s = new Seq('node-authorizer');
  const POD = '/api/v1/namespaces/default/pods';
  s.post('a pod bound to oracle-n1', POD, {
    metadata: { name: 'oracle-node-pod' },
    spec: {
      nodeName: 'oracle-n1',
      serviceAccountName: 'oracle-sa',
      // Given as kube would fill it in (the deprecated field kube copies from serviceAccountName).
      serviceAccount: 'oracle-sa',
      imagePullSecrets: [{ name: 'oracle-pull' }],
      containers: [
        {
          name: 'c',
          image: 'busybox',
          env: [
            { name: 'A', valueFrom: { secretKeyRef: { name: 'oracle-env-secret', key: 'k' } } },
            { name: 'B', valueFrom: { configMapKeyRef: { name: 'oracle-env-cm', key: 'k' } } },
          ],
          envFrom: [{ configMapRef: { name: 'oracle-envfrom-cm' } }, { secretRef: { name: 'oracle-envfrom-secret' } }],
        },
      ],
      volumes: [
        { name: 'sec', secret: { secretName: 'oracle-vol-secret' } },
        { name: 'cm', configMap: { name: 'oracle-vol-cm' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'oracle-claim' } },
        { name: 'proj', projected: { sources: [{ secret: { name: 'oracle-proj-secret' } }, { configMap: { name: 'oracle-proj-cm' } }] } },
      ],
    },
  });
  s.get('read it back (the graph follows the pod)', `${POD}/oracle-node-pod`);
  const n1 = { user: 'system:node:oracle-n1', groups: ['system:nodes', 'system:authenticated'] };
  const n2 = { user: 'system:node:oracle-n2', groups: ['system:nodes', 'system:authenticated'] };
  const ask = (note: string, who: Obj, ra: Obj): void => {
    s.sar(note, { ...who, resourceAttributes: ra });
  };
  const ns = { namespace: 'default' };
  ask('its pod', n1, { verb: 'get', resource: 'pods', ...ns, name: 'oracle-node-pod' });
  ask('not another node\'s', n2, { verb: 'get', resource: 'pods', ...ns, name: 'oracle-node-pod' });
  for (const name of ['oracle-pull', 'oracle-env-secret', 'oracle-envfrom-secret', 'oracle-vol-secret', 'oracle-proj-secret']) ask(`secret ${name}`, n1, { verb: 'get', resource: 'secrets', ...ns, name });
  for (const name of ['oracle-env-cm', 'oracle-envfrom-cm', 'oracle-vol-cm', 'oracle-proj-cm']) ask(`config map ${name}`, n1, { verb: 'get', resource: 'configmaps', ...ns, name });
  ask('a secret no pod uses', n1, { verb: 'get', resource: 'secrets', ...ns, name: 'oracle-other' });
  ask('a used secret, by another node', n2, { verb: 'get', resource: 'secrets', ...ns, name: 'oracle-vol-secret' });
  ask('a used secret, listed by name', n1, { verb: 'list', resource: 'secrets', ...ns, name: 'oracle-vol-secret' });
  ask('secrets, listed', n1, { verb: 'list', resource: 'secrets', ...ns });
  ask('a used secret, updated', n1, { verb: 'update', resource: 'secrets', ...ns, name: 'oracle-vol-secret' });
  ask('a secret at the cluster scope', n1, { verb: 'get', resource: 'secrets', name: 'oracle-vol-secret' });
  ask('a config map subresource', n1, { verb: 'get', resource: 'configmaps', subresource: 'x', ...ns, name: 'oracle-vol-cm' });
  ask('its claim', n1, { verb: 'get', resource: 'persistentvolumeclaims', ...ns, name: 'oracle-claim' });
  ask('its claim\'s status', n1, { verb: 'patch', resource: 'persistentvolumeclaims', subresource: 'status', ...ns, name: 'oracle-claim' });
  ask('its claim, listed', n1, { verb: 'list', resource: 'persistentvolumeclaims', ...ns });
  ask('a token for its pod\'s account', n1, { verb: 'create', resource: 'serviceaccounts', subresource: 'token', ...ns, name: 'oracle-sa' });
  ask('a token for another account', n1, { verb: 'create', resource: 'serviceaccounts', subresource: 'token', ...ns, name: 'default' });
  ask('a resource claim', n1, { verb: 'get', resource: 'resourceclaims', group: 'resource.k8s.io', ...ns, name: 'x' });
  ask('resource claims, listed', n1, { verb: 'list', resource: 'resourceclaims', group: 'resource.k8s.io', ...ns });
  ask('a volume attachment', n1, { verb: 'get', resource: 'volumeattachments', group: 'storage.k8s.io', name: 'x' });
  ask('volume attachments, listed', n1, { verb: 'list', resource: 'volumeattachments', group: 'storage.k8s.io' });
  ask('its CSINode', n1, { verb: 'update', resource: 'csinodes', group: 'storage.k8s.io', name: 'oracle-n1' });
  ask('another CSINode', n1, { verb: 'get', resource: 'csinodes', group: 'storage.k8s.io', name: 'oracle-n2' });
  ask('CSINodes, listed', n1, { verb: 'list', resource: 'csinodes', group: 'storage.k8s.io' });
  ask('a CSINode created', n1, { verb: 'create', resource: 'csinodes', group: 'storage.k8s.io' });
  ask('a CSINode subresource', n1, { verb: 'get', resource: 'csinodes', group: 'storage.k8s.io', subresource: 'x', name: 'oracle-n1' });
  ask('resource slices of its own', n1, { verb: 'list', resource: 'resourceslices', group: 'resource.k8s.io', fieldSelector: { rawSelector: 'spec.nodeName=oracle-n1' } });
  ask('resource slices of another node', n1, { verb: 'watch', resource: 'resourceslices', group: 'resource.k8s.io', fieldSelector: { rawSelector: 'spec.nodeName=oracle-n2' } });
  ask('a resource slice by name', n1, { verb: 'get', resource: 'resourceslices', group: 'resource.k8s.io', name: 'x' });
  ask('a resource slice created', n1, { verb: 'create', resource: 'resourceslices', group: 'resource.k8s.io' });
  ask('a resource slice, escalated', n1, { verb: 'escalate', resource: 'resourceslices', group: 'resource.k8s.io' });
  s.del('delete the pod at once', `${POD}/oracle-node-pod?gracePeriodSeconds=0`);
  return s.build();
}

export const rbac = {
  name: 'rbac',
  sequences: (): Sequence[] => [roleValidation(), bindingValidation(), reviews(), reviewSelectors(), nodeAuthorizer()],
};
