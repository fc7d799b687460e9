// kubectl 1.33 and RBAC against kapi: `kubectl create role|rolebinding|clusterrole|
// clusterrolebinding`, `get -o wide` and `describe` of them, and `kubectl auth can-i` (a verb
// on a resource, a subresource, a non-resource URL, --list) for a user with a kubeconfig of
// their own, `kubectl auth reconcile`, and escalation prevention as kubectl shows it. The expected outputs are what kubectl prints against kube-apiserver 1.33 with the
// same roles (checked side by side with the reference server).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, userKubeconfig, type KapiProcess } from '../../support/server.js';
import { boundKubectl, expectOut, expectTable, type Kubectl } from './helpers.js';

let k: KapiProcess;
let kc: Kubectl;
let alice: Kubectl;

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
  alice = await boundKubectl({ ...k, kubeconfig: await userKubeconfig(k, 'alice') });
  expectOut(await kc(['create', 'namespace', 'web']), 'namespace/web created\n');
});

afterAll(() => stopKapi(k));

describe('kubectl create and read RBAC objects', () => {
  it('create role with resource names, read it back and describe it', async () => {
    expectOut(
      await kc(['-n', 'web', 'create', 'role', 'r-test', '--verb=get,list', '--resource=pods,statefulsets.apps', '--resource-name=a']),
      'role.rbac.authorization.k8s.io/r-test created\n',
    );
    const r = await kc(['-n', 'web', 'get', 'role', 'r-test', '-o', 'jsonpath={.rules}']);
    expect(JSON.parse(r.stdout)).toEqual([
      { apiGroups: [''], resourceNames: ['a'], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resourceNames: ['a'], resources: ['statefulsets'], verbs: ['get', 'list'] },
    ]);
    expectOut(
      await kc(['-n', 'web', 'describe', 'role', 'r-test']),
      [
        'Name:         r-test',
        'Labels:       <none>',
        'Annotations:  <none>',
        'PolicyRule:',
        '  Resources          Non-Resource URLs  Resource Names  Verbs',
        '  ---------          -----------------  --------------  -----',
        '  pods               []                 [a]             [get list]',
        '  statefulsets.apps  []                 [a]             [get list]',
        '',
      ].join('\n'),
    );
  });

  it('create rolebinding; get -o wide shows the role and each kind of subject', async () => {
    expectOut(
      await kc(['-n', 'web', 'create', 'rolebinding', 'rb-test', '--clusterrole=view', '--user=u1', '--group=g1', '--serviceaccount=web:sa1']),
      'rolebinding.rbac.authorization.k8s.io/rb-test created\n',
    );
    expectTable(await kc(['-n', 'web', 'get', 'rolebinding', 'rb-test', '-o', 'wide']), [
      'NAME      ROLE               AGE   USERS   GROUPS   SERVICEACCOUNTS',
      'rb-test   ClusterRole/view   <age> u1      g1       web/sa1',
    ]);
    expectOut(
      await kc(['-n', 'web', 'describe', 'rolebinding', 'rb-test']),
      [
        'Name:         rb-test',
        'Labels:       <none>',
        'Annotations:  <none>',
        'Role:',
        '  Kind:  ClusterRole',
        '  Name:  view',
        'Subjects:',
        '  Kind            Name  Namespace',
        '  ----            ----  ---------',
        '  User            u1    ',
        '  Group           g1    ',
        '  ServiceAccount  sa1   web',
        '',
      ].join('\n'),
    );
  });

  it('clusterroles of non-resource URLs and aggregation rules; clusterrolebindings', async () => {
    expectOut(await kc(['create', 'clusterrole', 'cr-test', '--verb=get', '--non-resource-url=/logs/*']), 'clusterrole.rbac.authorization.k8s.io/cr-test created\n');
    expectOut(
      await kc(['describe', 'clusterrole', 'cr-test']),
      [
        'Name:         cr-test',
        'Labels:       <none>',
        'Annotations:  <none>',
        'PolicyRule:',
        '  Resources  Non-Resource URLs  Resource Names  Verbs',
        '  ---------  -----------------  --------------  -----',
        '             [/logs/*]          []              [get]',
        '',
      ].join('\n'),
    );
    expectOut(await kc(['create', 'clusterrole', 'cr-agg', '--aggregation-rule=a=b']), 'clusterrole.rbac.authorization.k8s.io/cr-agg created\n');
    expectOut(await kc(['get', 'clusterrole', 'cr-agg', '-o', 'jsonpath={.aggregationRule}']), '{"clusterRoleSelectors":[{"matchLabels":{"a":"b"}}]}');
    expectOut(await kc(['create', 'clusterrolebinding', 'crb-test', '--clusterrole=cr-test', '--group=ops']), 'clusterrolebinding.rbac.authorization.k8s.io/crb-test created\n');
    expectTable(await kc(['get', 'clusterrolebinding', 'crb-test']), ['NAME       ROLE                  AGE', 'crb-test   ClusterRole/cr-test   <age>']);
    // The bootstrap roles are there, as on any cluster.
    const roles = await kc(['get', 'clusterroles', '-o', 'name']);
    expect(roles.stdout.split('\n')).toEqual(expect.arrayContaining(['clusterrole.rbac.authorization.k8s.io/cluster-admin', 'clusterrole.rbac.authorization.k8s.io/system:node']));
  });
});

describe('kubectl auth can-i', () => {
  beforeAll(async () => {
    expectOut(await kc(['-n', 'web', 'create', 'role', 'podreader', '--verb=get', '--resource=pods']), 'role.rbac.authorization.k8s.io/podreader created\n');
    expectOut(await kc(['-n', 'web', 'create', 'rolebinding', 'podreader', '--role=podreader', '--user=alice']), 'rolebinding.rbac.authorization.k8s.io/podreader created\n');
    expectOut(await kc(['-n', 'web', 'create', 'role', 'patcher', '--verb=patch', '--resource=statefulsets,priorityclasses']), 'role.rbac.authorization.k8s.io/patcher created\n');
    expectOut(await kc(['-n', 'web', 'create', 'rolebinding', 'patcher', '--role=patcher', '--user=alice']), 'rolebinding.rbac.authorization.k8s.io/patcher created\n');
  });

  it('answers yes (exit 0) or no (exit 1) for a verb on a resource, a subresource, a URL', async () => {
    expectOut(await alice(['auth', 'can-i', 'get', 'pods', '-n', 'web']), 'yes\n');
    expect(await alice(['auth', 'can-i', 'list', 'pods', '-n', 'web'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    expectOut(await alice(['auth', 'can-i', 'patch', 'statefulsets', '-n', 'web']), 'yes\n');
    expect(await alice(['auth', 'can-i', 'patch', 'statefulsets', '--subresource=scale', '-n', 'web'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    expect(await alice(['auth', 'can-i', 'get', 'pods', '--all-namespaces'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    expectOut(await alice(['auth', 'can-i', 'get', '/api']), 'yes\n');
    expect(await alice(['auth', 'can-i', 'get', '/metrics'])).toEqual({ code: 1, stdout: 'no\n', stderr: '' });
    expectOut(await kc(['auth', 'can-i', '*', '*']), 'yes\n');
  });

  it('--list prints the user\'s rules in the namespace, as on kube', async () => {
    expectOut(
      await alice(['auth', 'can-i', '--list', '-n', 'web']),
      [
        'Resources                                       Non-Resource URLs   Resource Names   Verbs',
        'selfsubjectreviews.authentication.k8s.io        []                  []               [create]',
        'selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]',
        'selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]',
        '                                                [/api/*]            []               [get]',
        '                                                [/api]              []               [get]',
        '                                                [/apis/*]           []               [get]',
        '                                                [/apis]             []               [get]',
        '                                                [/healthz]          []               [get]',
        '                                                [/healthz]          []               [get]',
        '                                                [/livez]            []               [get]',
        '                                                [/livez]            []               [get]',
        '                                                [/openapi/*]        []               [get]',
        '                                                [/openapi]          []               [get]',
        '                                                [/readyz]           []               [get]',
        '                                                [/readyz]           []               [get]',
        '                                                [/version/]         []               [get]',
        '                                                [/version/]         []               [get]',
        '                                                [/version]          []               [get]',
        '                                                [/version]          []               [get]',
        'pods                                            []                  []               [get]',
        'statefulsets.apps                               []                  []               [patch]',
        'priorityclasses.scheduling.k8s.io               []                  []               [patch]',
        '',
      ].join('\n'),
    );
    const admin = await kc(['auth', 'can-i', '--list']);
    expect(admin.stdout.split('\n').slice(0, 3)).toEqual([
      'Resources                                       Non-Resource URLs   Resource Names   Verbs',
      '*.*                                             []                  []               [*]',
      '                                                [*]                 []               [*]',
    ]);
  });
});

describe('kubectl auth reconcile', () => {
  const manifest = (resources: string): string => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: rec-role}
rules:
- {verbs: [get], apiGroups: [""], resources: [${resources}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rec-rb, namespace: web}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: rec-role}
subjects: [{kind: User, name: zed}]
`;

  /** kubectl prints what it reconciled on stdout and the details on stderr. */
  const expectSplit = (r: { code: number; stdout: string; stderr: string }, stdout: string, stderr: string): void => {
    expect(r).toEqual({ code: 0, stdout, stderr });
  };

  // The outputs are kubectl's against kube-apiserver 1.33.13 with the same manifests, quirks
  // included: kubectl reports the binding's subject as added on every run, as it does on kube.
  it('creates, adds missing rules, and with --remove-extra-permissions removes extra ones', async () => {
    expectSplit(
      await kc(['auth', 'reconcile', '-f', '-'], manifest('pods')),
      [
        'clusterrole.rbac.authorization.k8s.io/rec-role reconciled',
        'rolebinding.rbac.authorization.k8s.io/rec-rb reconciled',
        '',
      ].join('\n'),
      [
        '\treconciliation required create',
        '\tmissing rules added:',
        '\t\t{Verbs:[get] APIGroups:[] Resources:[pods] ResourceNames:[] NonResourceURLs:[]}',
        '\treconciliation required create',
        '\tmissing subjects added:',
        '\t\t{Kind:User APIGroup: Name:zed Namespace:}',
        '',
      ].join('\n'),
    );
    expectSplit(
      await kc(['auth', 'reconcile', '-f', '-'], manifest('pods, services')),
      [
        'clusterrole.rbac.authorization.k8s.io/rec-role reconciled',
        'rolebinding.rbac.authorization.k8s.io/rec-rb reconciled',
        '',
      ].join('\n'),
      [
        '\treconciliation required update',
        '\tmissing rules added:',
        '\t\t{Verbs:[get] APIGroups:[] Resources:[services] ResourceNames:[] NonResourceURLs:[]}',
        '\treconciliation required update',
        '\tmissing subjects added:',
        '\t\t{Kind:User APIGroup: Name:zed Namespace:}',
        '',
      ].join('\n'),
    );
    expect(JSON.parse((await kc(['get', 'clusterrole', 'rec-role', '-o', 'jsonpath={.rules}'])).stdout)).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['services'], verbs: ['get'] },
    ]);
    expectSplit(
      await kc(['auth', 'reconcile', '-f', '-', '--remove-extra-permissions'], manifest('pods')),
      [
        'clusterrole.rbac.authorization.k8s.io/rec-role reconciled',
        'rolebinding.rbac.authorization.k8s.io/rec-rb reconciled',
        '',
      ].join('\n'),
      [
        '\treconciliation required update',
        '\textra rules removed:',
        '\t\t{Verbs:[get] APIGroups:[] Resources:[services] ResourceNames:[] NonResourceURLs:[]}',
        '\treconciliation required update',
        '\tmissing subjects added:',
        '\t\t{Kind:User APIGroup: Name:zed Namespace:}',
        '',
      ].join('\n'),
    );
    expect(JSON.parse((await kc(['get', 'clusterrole', 'rec-role', '-o', 'jsonpath={.rules}'])).stdout)).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
  });

  it('a user without the permissions a role grants is refused with kube\'s words', async () => {
    const esc = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: esc-role, namespace: web}
rules:
- {verbs: [get, list], apiGroups: [""], resources: [nodes, pods]}
- {verbs: ["*"], apiGroups: ["apps"], resources: ["statefulsets"], resourceNames: [a]}
`;
    expectOut(await kc(['-n', 'web', 'create', 'rolebinding', 'alice-admin', '--clusterrole=admin', '--user=alice']), 'rolebinding.rbac.authorization.k8s.io/alice-admin created\n');
    const r = await alice(['create', '-f', '-'], esc);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        'Error from server (Forbidden): error when creating "STDIN": roles.rbac.authorization.k8s.io "esc-role" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
        '{APIGroups:[""], Resources:["nodes"], Verbs:["get" "list"]}',
        '{APIGroups:["apps"], Resources:["statefulsets"], ResourceNames:["a"], Verbs:["*"]}',
        '',
      ].join('\n'),
    );
  });
});
