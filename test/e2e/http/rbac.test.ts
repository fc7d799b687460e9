// RBAC against a real kapi (the default --authorization-mode, Node,RBAC): users with client
// certificates from the server's CA, granted roles by the admin; every answer checked for what
// kube-apiserver 1.33 answers (the 403 texts were taken from the reference server with the
// same roles and requests). Escalation prevention, aggregation, the bootstrap policy and its
// reconciliation at start, non-resource URLs, and the special permissions of the spec (apply
// that creates, dry run) are here; the reviews are in access-reviews.test.ts, the verb x
// resource x role matrix in authz-matrix.test.ts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asUser, http, removeDir, startKapi, type KapiProcess, type KubeClient } from '../../support/server.js';
import { NS, STS, eventually, expectCode, expectFailure, json, ns, sts, uniq, type HttpResult, type Obj } from './helpers.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const ROLES = (n: string, name = ''): string => `${RBAC}/namespaces/${n}/roles${name ? '/' + name : ''}`;
const ROLEBINDINGS = (n: string, name = ''): string => `${RBAC}/namespaces/${n}/rolebindings${name ? '/' + name : ''}`;
const CLUSTERROLES = (name = ''): string => `${RBAC}/clusterroles${name ? '/' + name : ''}`;
const CLUSTERROLEBINDINGS = (name = ''): string => `${RBAC}/clusterrolebindings${name ? '/' + name : ''}`;

type Rule = { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };

let k: KapiProcess;
const clients: KubeClient[] = [];
const track = <T extends KubeClient>(c: T): T => (clients.push(c), c);
const user = async (name: string, groups: string[] = []): Promise<KubeClient> => track(await asUser(k, name, groups));

/** A Role in `namespace` with `rules`, bound to the user (by the admin). */
async function grant(namespace: string, userName: string, rules: Rule[], name = uniq('role')): Promise<string> {
  expectCode(await http(k, 'POST', ROLES(namespace), { metadata: { name }, rules }), 201);
  expectCode(
    await http(k, 'POST', ROLEBINDINGS(namespace), {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: userName }],
    }),
    201,
  );
  return name;
}

/** A ClusterRole with `rules`, bound everywhere to the user (by the admin). */
async function grantCluster(userName: string, rules: Rule[], name = uniq('crole')): Promise<string> {
  expectCode(await http(k, 'POST', CLUSTERROLES(), { metadata: { name }, rules }), 201);
  expectCode(
    await http(k, 'POST', CLUSTERROLEBINDINGS(), {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: userName }],
    }),
    201,
  );
  return name;
}

async function newNamespace(prefix: string): Promise<string> {
  const name = uniq(prefix);
  expectCode(await http(k, 'POST', NS(), ns(name)), 201);
  return name;
}

/** kube's 422 for RBAC objects: one cause per field error, and the message that aggregates them. */
function expectInvalid(r: HttpResult, kind: string, name: string, causes: { field: string; reason: string; message?: string }[]): void {
  expect(r.status, r.text).toBe(422);
  const body = json(r);
  expect(body.details.causes.map((c: Obj) => ({ field: c.field, reason: c.reason, ...(causes.some((x) => x.message) ? { message: c.message } : {}) }))).toEqual(causes);
  const texts = body.details.causes.map((c: Obj) => `${c.field}: ${c.message}`);
  const group = kind === 'StatefulSet' ? 'apps' : 'rbac.authorization.k8s.io';
  expect(body.message).toBe(`${kind}.${group} "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`);
}

const forbiddenStatus = (message: string, details: Obj): Obj => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });

beforeAll(async () => {
  k = await startKapi();
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('403 and 401 as kube-apiserver answers them', () => {
  it('a resource request: kube\'s Status, word for word', async () => {
    const alice = await user('alice');
    const r = await http(alice, 'GET', STS('web'));
    expect(r.status).toBe(403);
    expect(r.json).toEqual(
      forbiddenStatus('statefulsets.apps is forbidden: User "alice" cannot list resource "statefulsets" in API group "apps" in the namespace "web"', {
        group: 'apps',
        kind: 'statefulsets',
      }),
    );
    // Keys in kube's order, details before code.
    expect(r.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"statefulsets.apps is forbidden: User \\"alice\\" cannot list resource \\"statefulsets\\" in API group \\"apps\\" in the namespace \\"web\\"","reason":"Forbidden","details":{"group":"apps","kind":"statefulsets"},"code":403}\n',
    );
  });

  it('names the object, the subresource, the cluster scope, and a namespace object\'s own namespace', async () => {
    const alice = await user('alice');
    const cases: [string, string, string, Obj][] = [
      ['GET', `${STS('web', 'x')}/scale`, 'statefulsets.apps "x" is forbidden: User "alice" cannot get resource "statefulsets/scale" in API group "apps" in the namespace "web"', { name: 'x', group: 'apps', kind: 'statefulsets' }],
      ['PATCH', STS('web', 'x'), 'statefulsets.apps "x" is forbidden: User "alice" cannot patch resource "statefulsets" in API group "apps" in the namespace "web"', { name: 'x', group: 'apps', kind: 'statefulsets' }],
      ['DELETE', STS('web'), 'statefulsets.apps is forbidden: User "alice" cannot deletecollection resource "statefulsets" in API group "apps" in the namespace "web"', { group: 'apps', kind: 'statefulsets' }],
      ['GET', '/apis/apps/v1/statefulsets', 'statefulsets.apps is forbidden: User "alice" cannot list resource "statefulsets" in API group "apps" at the cluster scope', { group: 'apps', kind: 'statefulsets' }],
      ['GET', `${STS('web')}?watch=1`, 'statefulsets.apps is forbidden: User "alice" cannot watch resource "statefulsets" in API group "apps" in the namespace "web"', { group: 'apps', kind: 'statefulsets' }],
      ['GET', NS('web'), 'namespaces "web" is forbidden: User "alice" cannot get resource "namespaces" in API group "" in the namespace "web"', { name: 'web', kind: 'namespaces' }],
      ['GET', `${NS()}?watch=1`, 'namespaces is forbidden: User "alice" cannot watch resource "namespaces" in API group "" at the cluster scope', { kind: 'namespaces' }],
      ['POST', `${RBAC}/clusterroles`, 'clusterroles.rbac.authorization.k8s.io is forbidden: User "alice" cannot create resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope', { group: 'rbac.authorization.k8s.io', kind: 'clusterroles' }],
    ];
    for (const [method, path, message, details] of cases) {
      const r = await http(alice, method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : {});
      expect(r.json, `${method} ${path}`).toEqual(forbiddenStatus(message, details));
    }
  });

  it('a non-resource path: `forbidden: User "u" cannot get path "/foo"`', async () => {
    const r = await http(track(anonymous(k)), 'GET', '/foo');
    expect(r.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/foo\\"","reason":"Forbidden","details":{},"code":403}\n',
    );
    const alice = await user('alice');
    expect(json(await http(alice, 'POST', '/version', {})).message).toBe('forbidden: User "alice" cannot post path "/version"');
  });

  it('a user is known by every group: a group binding grants its members', async () => {
    const namespace = await newNamespace('grp');
    expectCode(
      await http(k, 'POST', ROLEBINDINGS(namespace), {
        metadata: { name: 'viewers' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'Group', name: 'readers' }],
      }),
      201,
    );
    expectCode(await http(await user('carol', ['readers']), 'GET', STS(namespace)), 200);
    expectCode(await http(await user('dave', ['writers']), 'GET', STS(namespace)), 403);
  });
});

describe('non-resource URLs, through the bootstrap roles', () => {
  it('anonymous: health and version (system:public-info-viewer), nothing else', async () => {
    const anon = track(anonymous(k));
    for (const p of ['/healthz', '/livez', '/readyz', '/version', '/version/']) expectCode(await http(anon, 'GET', p), 200);
    for (const p of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2', '/openapi/v3', '/metrics', '/readyz/etcd', '/healthz/ping']) {
      expect((await http(anon, 'GET', p)).status, p).toBe(403);
    }
  });

  it('an authenticated user: discovery and OpenAPI too (system:discovery); /metrics only in system:monitoring', async () => {
    const alice = await user('alice');
    for (const p of ['/api', '/api/v1', '/apis', '/apis/apps/v1', '/openapi/v2', '/openapi/v3', '/version', '/livez']) expectCode(await http(alice, 'GET', p), 200);
    expect(json(await http(alice, 'GET', '/metrics')).message).toBe('forbidden: User "alice" cannot get path "/metrics"');
    const prometheus = await user('prometheus', ['system:monitoring']);
    expectCode(await http(prometheus, 'GET', '/metrics'), 200);
    expectCode(await http(prometheus, 'GET', '/livez/ping'), 200);
  });

  it('a ClusterRole rule of URLs with a trailing * grants the prefix', async () => {
    const erin = await user('erin');
    expect((await http(erin, 'GET', '/metrics')).status).toBe(403);
    await grantCluster('erin', [{ verbs: ['get'], nonResourceURLs: ['/metri*'] }]);
    expectCode(await http(erin, 'GET', '/metrics'), 200);
  });
});

describe('rule shapes', () => {
  it('resourceNames: the named objects only; a list names none', async () => {
    const namespace = await newNamespace('names');
    expectCode(await http(k, 'POST', STS(namespace), sts('a')), 201);
    expectCode(await http(k, 'POST', STS(namespace), sts('b')), 201);
    const frank = await user('frank');
    await grant(namespace, 'frank', [{ verbs: ['get', 'list', 'watch'], apiGroups: ['apps'], resources: ['statefulsets'], resourceNames: ['a'] }]);
    expectCode(await http(frank, 'GET', STS(namespace, 'a')), 200);
    expect(json(await http(frank, 'GET', STS(namespace, 'b'))).message).toBe(
      `statefulsets.apps "b" is forbidden: User "frank" cannot get resource "statefulsets" in API group "apps" in the namespace "${namespace}"`,
    );
    expectCode(await http(frank, 'GET', STS(namespace)), 403);
    // A list or watch narrowed to the name by field selector is about that object, as in kube.
    const listed = expectCode(await http(frank, 'GET', `${STS(namespace)}?fieldSelector=metadata.name%3Da`), 200);
    expect(listed.items.map((i: Obj) => i.metadata.name)).toEqual(['a']);
    expect(json(await http(frank, 'GET', `${STS(namespace)}?fieldSelector=metadata.name%3Db`)).message).toBe(
      `statefulsets.apps "b" is forbidden: User "frank" cannot list resource "statefulsets" in API group "apps" in the namespace "${namespace}"`,
    );
  });

  it('subresources by name: statefulsets/scale without statefulsets, and */status for every resource', async () => {
    const namespace = await newNamespace('subres');
    expectCode(await http(k, 'POST', STS(namespace), sts('web', { replicas: 1 })), 201);
    const gina = await user('gina');
    await grant(namespace, 'gina', [{ verbs: ['get', 'patch'], apiGroups: ['apps'], resources: ['statefulsets/scale'] }]);
    expectCode(await http(gina, 'GET', `${STS(namespace, 'web')}/scale`), 200);
    expectCode(await http(gina, 'PATCH', `${STS(namespace, 'web')}/scale`, { spec: { replicas: 3 } }, { 'content-type': 'application/merge-patch+json' }), 200);
    expectCode(await http(gina, 'GET', STS(namespace, 'web')), 403);
    expectCode(await http(gina, 'GET', `${STS(namespace, 'web')}/status`), 403);
    await grant(namespace, 'gina', [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] }]);
    expectCode(await http(gina, 'GET', `${STS(namespace, 'web')}/status`), 200);
    expectCode(await http(gina, 'GET', `/api/v1/namespaces/${namespace}/pods/none/status`), 404);
    expectCode(await http(gina, 'GET', STS(namespace, 'web')), 403);
  });

  it('wildcards: * verbs on * resources of * groups', async () => {
    const namespace = await newNamespace('wild');
    const hank = await user('hank');
    await grant(namespace, 'hank', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expectCode(await http(hank, 'POST', STS(namespace), sts('web')), 201);
    expectCode(await http(hank, 'DELETE', STS(namespace, 'web')), 200);
    expectCode(await http(hank, 'GET', `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`), 200);
    // Namespaced rules stop at the namespace.
    expectCode(await http(hank, 'GET', '/apis/apps/v1/statefulsets'), 403);
    expectCode(await http(hank, 'GET', STS('default')), 403);
  });

  it('a RoleBinding of a ClusterRole grants it in its namespace only; a ClusterRoleBinding everywhere, and cluster-wide lists', async () => {
    const a = await newNamespace('scope-a');
    const b = await newNamespace('scope-b');
    const ivan = await user('ivan');
    expectCode(
      await http(k, 'POST', ROLEBINDINGS(a), { metadata: { name: 'v' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'ivan' }] }),
      201,
    );
    expectCode(await http(ivan, 'GET', STS(a)), 200);
    expectCode(await http(ivan, 'GET', NS(a)), 200);
    expectCode(await http(ivan, 'GET', STS(b)), 403);
    expectCode(await http(ivan, 'GET', '/apis/apps/v1/statefulsets'), 403);
    expectCode(await http(ivan, 'GET', NS()), 403);
    await grantCluster('ivan', [{ verbs: ['list', 'watch'], apiGroups: ['apps'], resources: ['statefulsets'] }]);
    expectCode(await http(ivan, 'GET', '/apis/apps/v1/statefulsets'), 200);
    expectCode(await http(ivan, 'GET', STS(b)), 200);
  });

  it('a binding to a role that does not exist grants nothing, and the 403 says why', async () => {
    const namespace = await newNamespace('missing');
    expectCode(
      await http(k, 'POST', ROLEBINDINGS(namespace), { metadata: { name: 'ghost' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'ghost' }, subjects: [{ kind: 'User', name: 'judy' }] }),
      201,
    );
    const r = await http(await user('judy'), 'GET', STS(namespace));
    expect(json(r).message).toBe(
      `statefulsets.apps is forbidden: User "judy" cannot list resource "statefulsets" in API group "apps" in the namespace "${namespace}": RBAC: role.rbac.authorization.k8s.io "ghost" not found`,
    );
  });

  it('a ServiceAccount subject grants its user name; without a namespace it is the binding\'s', async () => {
    const namespace = await newNamespace('sa');
    expectCode(
      await http(k, 'POST', ROLEBINDINGS(namespace), {
        metadata: { name: 'sa' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
      }),
      201,
    );
    const sa = await user(`system:serviceaccount:${namespace}:builder`, ['system:serviceaccounts', `system:serviceaccounts:${namespace}`]);
    expectCode(await http(sa, 'GET', STS(namespace)), 200);
    const other = await user('system:serviceaccount:default:builder', ['system:serviceaccounts']);
    expectCode(await http(other, 'GET', STS(namespace)), 403);
  });
});

describe('aggregation', () => {
  it('an aggregated ClusterRole gathers the rules of the roles its selectors match, and follows them', async () => {
    const label = uniq('agg');
    const target = uniq('aggregated');
    expectCode(await http(k, 'POST', CLUSTERROLES(), { metadata: { name: target }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'kapi.test/agg': label } }] } }), 201);
    expectCode(await http(k, 'POST', CLUSTERROLEBINDINGS(), { metadata: { name: target }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: target }, subjects: [{ kind: 'User', name: 'kate' }] }), 201);
    const kate = await user('kate');
    expectCode(await http(kate, 'GET', '/apis/apps/v1/statefulsets'), 403);
    const part = uniq('part');
    expectCode(
      await http(k, 'POST', CLUSTERROLES(), { metadata: { name: part, labels: { 'kapi.test/agg': label } }, rules: [{ verbs: ['list'], apiGroups: ['apps'], resources: ['statefulsets'] }] }),
      201,
    );
    await eventually('the rules are aggregated', async () => (await http(kate, 'GET', '/apis/apps/v1/statefulsets')).status === 200);
    const agg = expectCode(await http(k, 'GET', CLUSTERROLES(target)), 200);
    expect(agg.rules).toEqual([{ verbs: ['list'], apiGroups: ['apps'], resources: ['statefulsets'] }]);
    expect(agg.metadata.managedFields.map((m: Obj) => [m.manager, m.operation])).toContainEqual(['clusterrole-aggregation-controller', 'Apply']);
    // The part loses its label: the aggregated role loses its rules.
    expectCode(await http(k, 'PATCH', CLUSTERROLES(part), { metadata: { labels: { 'kapi.test/agg': null } } }, { 'content-type': 'application/merge-patch+json' }), 200);
    await eventually('the rules are gone', async () => (await http(kate, 'GET', '/apis/apps/v1/statefulsets')).status === 403);
  });

  it('the bootstrap admin, edit and view are aggregated from system:aggregate-to-*', async () => {
    const view = expectCode(await http(k, 'GET', CLUSTERROLES('view')), 200);
    expect(view.rules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'] });
    const admin = expectCode(await http(k, 'GET', CLUSTERROLES('admin')), 200);
    // admin holds edit's rules (edit is labelled aggregate-to-admin) and view's (through edit).
    expect(admin.rules).toContainEqual({ verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'] });
    expect(admin.rules).toContainEqual(view.rules[0]);
  });
});

describe('escalation prevention', () => {
  it('a role granting more than its writer holds is refused with the missing rules', async () => {
    const namespace = await newNamespace('esc');
    const leo = await user('leo');
    await grant(namespace, 'leo', [
      { verbs: ['create', 'update', 'patch', 'get'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    ]);
    const r = await http(leo, 'POST', ROLES(namespace), {
      metadata: { name: 'r1' },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apps'], resources: ['statefulsets', 'statefulsets/scale'], verbs: ['get'], resourceNames: ['a'] },
      ],
    });
    expect(r.json).toEqual(
      forbiddenStatus(
        'roles.rbac.authorization.k8s.io "r1" is forbidden: user "leo" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}\n' +
          '{APIGroups:["apps"], Resources:["statefulsets"], ResourceNames:["a"], Verbs:["get"]}\n' +
          '{APIGroups:["apps"], Resources:["statefulsets/scale"], ResourceNames:["a"], Verbs:["get"]}',
        { name: 'r1', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      ),
    );
    expectCode(await http(k, 'GET', ROLES(namespace, 'r1')), 404);
    // What leo holds he may grant, and change a role to.
    expectCode(await http(leo, 'POST', ROLES(namespace), { metadata: { name: 'r2' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }), 201);
    const patched = await http(leo, 'PATCH', ROLES(namespace, 'r2'), [{ op: 'add', path: '/rules/0/verbs/-', value: 'delete' }], { 'content-type': 'application/json-patch+json' });
    expect(json(patched).message).toContain('is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
    // An update that only changes finalizers or owner references is never checked.
    expectCode(await http(k, 'PATCH', ROLES(namespace, 'r2'), { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }] }, { 'content-type': 'application/merge-patch+json' }), 200);
    expectCode(await http(leo, 'PATCH', ROLES(namespace, 'r2'), { metadata: { finalizers: ['kapi.test/keep'] } }, { 'content-type': 'application/merge-patch+json' }), 200);
    expectCode(await http(k, 'PATCH', ROLES(namespace, 'r2'), { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' }), 200);
  });

  it('`escalate` on roles lifts the check; system:masters never has it', async () => {
    const namespace = await newNamespace('escalate');
    const mia = await user('mia');
    await grant(namespace, 'mia', [{ verbs: ['create', 'escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] }]);
    expectCode(await http(mia, 'POST', ROLES(namespace), { metadata: { name: 'everything' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }), 201);
    const boss = await user('boss', ['system:masters']);
    expectCode(await http(boss, 'POST', CLUSTERROLES(), { metadata: { name: uniq('anything') }, rules: [{ nonResourceURLs: ['*'], verbs: ['*'] }] }), 201);
  });

  it('a binding of a role whose rules its writer does not hold is refused, unless they may `bind` it', async () => {
    const namespace = await newNamespace('bind');
    const ned = await user('ned');
    await grant(namespace, 'ned', [{ verbs: ['create', 'get'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'] }]);
    const binding = (name: string, role: string): Obj => ({
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'User', name: 'olga' }],
    });
    const r = await http(ned, 'POST', ROLEBINDINGS(namespace), binding('b1', 'view'));
    expect(json(r).message).toMatch(/^rolebindings\.rbac\.authorization\.k8s\.io "b1" is forbidden: user "ned" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
    // A role that does not exist: kube's store answers NotFound, named by the request's resource.
    expect((await http(ned, 'POST', ROLEBINDINGS(namespace), binding('b2', 'nope'))).json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'rolebindings.rbac.authorization.k8s.io "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
      code: 404,
    });
    await grant(namespace, 'ned', [{ verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['view'] }]);
    expectCode(await http(ned, 'POST', ROLEBINDINGS(namespace), binding('b3', 'view')), 201);
    expectCode(await http(ned, 'POST', ROLEBINDINGS(namespace), binding('b4', 'edit')), 403);
  });

  it('an aggregationRule needs everything (it can gather any rule)', async () => {
    const pia = await user('pia');
    await grantCluster('pia', [{ verbs: ['create', 'update', 'get'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }]);
    const name = uniq('agg-by-pia');
    const r = await http(pia, 'POST', CLUSTERROLES(), { metadata: { name }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } });
    expect(r.json).toEqual(forbiddenStatus(`clusterroles.rbac.authorization.k8s.io "${name}" is forbidden: must have cluster-admin privileges to use the aggregationRule`, { name, group: 'rbac.authorization.k8s.io', kind: 'clusterroles' }));
  });

  it('a create-on-PUT of a role is authorized as a create and checked for escalation too', async () => {
    const namespace = await newNamespace('putcreate');
    const quinn = await user('quinn');
    await grant(namespace, 'quinn', [{ verbs: ['update'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] }]);
    const r = await http(quinn, 'PUT', ROLES(namespace, 'fresh'), { metadata: { name: 'fresh' }, rules: [] });
    expect(json(r).message).toBe(`roles.rbac.authorization.k8s.io "fresh" is forbidden: User "quinn" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "${namespace}"`);
  });
});

describe('the special permissions of the spec', () => {
  it('Server-Side Apply needs patch, and create when it creates; validation comes first', async () => {
    const namespace = await newNamespace('apply');
    const ray = await user('ray');
    await grant(namespace, 'ray', [{ verbs: ['patch'], apiGroups: ['apps'], resources: ['statefulsets'] }]);
    const apply = (c: KubeClient, body: Obj, q = ''): Promise<HttpResult> =>
      http(c, 'PATCH', `${STS(namespace, 'web')}?fieldManager=ray${q}`, JSON.stringify(body), { 'content-type': 'application/apply-patch+yaml' });
    expect(json(await apply(ray, sts('web'))).message).toBe(
      `statefulsets.apps "web" is forbidden: User "ray" cannot create resource "statefulsets" in API group "apps" in the namespace "${namespace}"`,
    );
    // An invalid object is refused as invalid before the create is authorized (kube's order).
    expectInvalid(await apply(ray, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' } }), 'StatefulSet', 'web', [
      { field: 'spec.selector', reason: 'FieldValueRequired' },
      { field: 'spec.template.metadata.labels', reason: 'FieldValueInvalid' },
    ]);
    expectCode(await http(k, 'POST', STS(namespace), sts('web')), 201);
    // The object exists: patch is enough.
    expectCode(await apply(ray, { ...sts('web'), spec: { ...sts('web').spec, replicas: 2 } }, '&force=true'), 200);
    const rob = await user('rob');
    expect((await apply(rob, sts('web'))).status).toBe(403);
  });

  it('a dry run needs what the real request needs', async () => {
    const namespace = await newNamespace('dry');
    const sam = await user('sam');
    await grant(namespace, 'sam', [{ verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['statefulsets'] }]);
    expect(json(await http(sam, 'POST', `${STS(namespace)}?dryRun=All`, sts('web'))).message).toBe(
      `statefulsets.apps is forbidden: User "sam" cannot create resource "statefulsets" in API group "apps" in the namespace "${namespace}"`,
    );
    await grant(namespace, 'sam', [{ verbs: ['create'], apiGroups: ['apps'], resources: ['statefulsets'] }]);
    expectCode(await http(sam, 'POST', `${STS(namespace)}?dryRun=All`, sts('web')), 201);
    expectCode(await http(k, 'GET', STS(namespace, 'web')), 404);
  });
});

describe('RBAC objects: validation with kube\'s messages', () => {
  it('rules, role references and subjects', async () => {
    const namespace = await newNamespace('valid');
    expectInvalid(await http(k, 'POST', ROLES(namespace), { metadata: { name: 'bad' }, rules: [{ apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/x'] }, { verbs: ['get'] }] }), 'Role', 'bad', [
      { field: 'rules[0].verbs', reason: 'FieldValueRequired', message: 'Required value: verbs must contain at least one value' },
      { field: 'rules[1].nonResourceURLs', reason: 'FieldValueInvalid', message: 'Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs' },
      { field: 'rules[2].apiGroups', reason: 'FieldValueRequired', message: 'Required value: resource rules must supply at least one api group' },
      { field: 'rules[2].resources', reason: 'FieldValueRequired', message: 'Required value: resource rules must supply at least one resource' },
    ]);
    expectInvalid(await http(k, 'POST', CLUSTERROLES(), { metadata: { name: 'bad/name' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }] }), 'ClusterRole', 'bad/name', [
      { field: 'metadata.name', reason: 'FieldValueInvalid', message: 'Invalid value: "bad/name": may not contain \'/\'' },
      { field: 'rules[0].nonResourceURLs', reason: 'FieldValueInvalid', message: 'Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs' },
    ]);
    expectInvalid(
      await http(k, 'POST', CLUSTERROLEBINDINGS(), {
        metadata: { name: 'bad' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' },
        subjects: [{ kind: 'ServiceAccount', name: 'sa' }, { kind: 'Robot', name: 'r2' }, { kind: 'User', apiGroup: 'other', name: 'u' }],
      }),
      'ClusterRoleBinding',
      'bad',
      [
        { field: 'roleRef.kind', reason: 'FieldValueNotSupported', message: 'Unsupported value: "Role": supported values: "ClusterRole"' },
        { field: 'subjects[0].namespace', reason: 'FieldValueRequired', message: 'Required value' },
        { field: 'subjects[1].kind', reason: 'FieldValueNotSupported', message: 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"' },
        { field: 'subjects[2].apiGroup', reason: 'FieldValueNotSupported', message: 'Unsupported value: "other": supported values: "rbac.authorization.k8s.io"' },
      ],
    );
  });

  it('a binding\'s roleRef cannot change; defaults fill apiGroups of User and Group subjects and of roleRef', async () => {
    const namespace = await newNamespace('roleref');
    const created = expectCode(await http(k, 'POST', ROLEBINDINGS(namespace), { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'd' }] }), 201);
    expect(created.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    expect(created.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }, { kind: 'ServiceAccount', name: 'd' }]);
    expectInvalid(
      await http(k, 'PATCH', ROLEBINDINGS(namespace, 'b'), { roleRef: { name: 'edit' } }, { 'content-type': 'application/merge-patch+json' }),
      'RoleBinding',
      'b',
      [{ field: 'roleRef', reason: 'FieldValueInvalid', message: 'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef' }],
    );
  });
});

describe('the bootstrap policy', () => {
  it('has kube\'s bootstrap roles and bindings', async () => {
    const roles = expectCode(await http(k, 'GET', CLUSTERROLES()), 200).items.map((i: Obj) => i.metadata.name);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:basic-user', 'system:discovery', 'system:public-info-viewer', 'system:node', 'system:node-proxier', 'system:monitoring', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:kube-controller-manager', 'system:kube-scheduler', 'system:controller:namespace-controller', 'system:controller:statefulset-controller', 'system:controller:clusterrole-aggregation-controller']) {
      expect(roles, name).toContain(name);
    }
    const cra = expectCode(await http(k, 'GET', CLUSTERROLEBINDINGS('cluster-admin')), 200);
    expect(cra.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }]);
    expect(cra.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    expect(cra.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    const kubeSystem = expectCode(await http(k, 'GET', ROLES('kube-system')), 200).items.map((i: Obj) => i.metadata.name);
    expect(kubeSystem).toContain('system::leader-locking-kube-controller-manager');
  });
});

describe('the bootstrap policy is reconciled at every start, keeping what users added', () => {
  let s: KapiProcess;

  beforeAll(async () => {
    s = await startKapi();
  });

  afterAll(async () => {
    await s?.stop();
    if (s) await removeDir(s.dataDir);
  });

  it('missing rules and subjects come back; added ones stay; autoupdate=false is left alone; a deleted binding is made again', async () => {
    const merge = { 'content-type': 'application/merge-patch+json' };
    // system:basic-user loses its rules and gains one of ours; its binding gains a subject.
    expectCode(await http(s, 'PATCH', CLUSTERROLES('system:basic-user'), { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, merge), 200);
    expectCode(await http(s, 'PATCH', CLUSTERROLEBINDINGS('system:basic-user'), { subjects: [{ kind: 'User', name: 'extra' }] }, merge), 200);
    // system:discovery is protected and loses its rules.
    expectCode(await http(s, 'PATCH', CLUSTERROLES('system:discovery'), { metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] }, merge), 200);
    expectCode(await http(s, 'DELETE', CLUSTERROLEBINDINGS('system:public-info-viewer')), 200);
    const port = Number(new URL(s.url).port);
    await s.stop();
    s = await startKapi({ dataDir: s.dataDir, port });

    const basic = expectCode(await http(s, 'GET', CLUSTERROLES('system:basic-user')), 200);
    expect(basic.rules).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    const binding = expectCode(await http(s, 'GET', CLUSTERROLEBINDINGS('system:basic-user')), 200);
    expect(binding.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'extra' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
    ]);
    const discovery = expectCode(await http(s, 'GET', CLUSTERROLES('system:discovery')), 200);
    expect(discovery.rules ?? []).toEqual([]);
    expectCode(await http(s, 'GET', CLUSTERROLEBINDINGS('system:public-info-viewer')), 200);
    expectCode(await http(track(anonymous(s)), 'GET', '/version'), 200);
  });
});

describe('other authorization modes', () => {
  let allow: KapiProcess;
  let deny: KapiProcess;

  beforeAll(async () => {
    [allow, deny] = await Promise.all([startKapi({ args: ['--authorization-mode=AlwaysAllow'] }), startKapi({ args: ['--authorization-mode', 'AlwaysDeny'] })]);
  });

  afterAll(async () => {
    for (const s of [allow, deny]) {
      await s?.stop();
      if (s) await removeDir(s.dataDir);
    }
  });

  it('AlwaysAllow: every authenticated user may do anything; anonymous requests are turned off, as kube does', async () => {
    const tom = track(await asUser(allow, 'tom'));
    expectCode(await http(tom, 'POST', NS(), ns(uniq('tom'))), 201);
    expectFailure(await http(track(anonymous(allow)), 'GET', '/healthz'), { code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    expect(allow.logs()).toContain('AnonymousAuth is not allowed with the AlwaysAllow authorizer');
  });

  it('AlwaysDeny: nothing but system:masters, with kube\'s reason', async () => {
    const tom = track(await asUser(deny, 'tom'));
    expect(json(await http(tom, 'GET', STS('web'))).message).toBe(
      'statefulsets.apps is forbidden: User "tom" cannot list resource "statefulsets" in API group "apps" in the namespace "web": Everything is forbidden.',
    );
    expectCode(await http(deny, 'GET', STS('web')), 200);
  });

  it('a bad --authorization-mode is refused with kube\'s words', async () => {
    await expect(startKapi({ args: ['--authorization-mode=RBAC,Magic,RBAC'] })).rejects.toThrow(
      'authorization-mode "Magic" is not a valid mode; authorization-mode ["RBAC" "Magic" "RBAC"] has mode specified more than once',
    );
  });
});
