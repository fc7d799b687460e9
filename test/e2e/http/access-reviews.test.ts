// The access reviews of authorization.k8s.io/v1 against a real kapi, each answered as
// kube-apiserver 1.33 answers the same request with the same roles (the answers below were
// compared with the reference server's, field for field and key for key): SubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectAccessReview and SelfSubjectRulesReview, their
// validation, and the verbs they do not have.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asUser, http, removeDir, startKapi, type KapiProcess, type KubeClient } from '../../support/server.js';
import { NS, expectCode, json, ns, type Obj } from './helpers.js';

const A = '/apis/authorization.k8s.io/v1';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let k: KapiProcess;
let alice: KubeClient;

beforeAll(async () => {
  k = await startKapi();
  alice = await asUser(k, 'alice');
  expectCode(await http(k, 'POST', NS(), ns('web')), 201);
  expectCode(await http(k, 'POST', `${RBAC}/namespaces/web/roles`, { metadata: { name: 'podreader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }), 201);
  expectCode(
    await http(k, 'POST', `${RBAC}/namespaces/web/rolebindings`, { metadata: { name: 'podreader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'podreader' }, subjects: [{ kind: 'User', name: 'alice' }] }),
    201,
  );
});

afterAll(async () => {
  await alice?.close();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

/** The Update entry kube's create handler records for a review's fields (time masked). */
const managed = (fieldsV1: Obj): Obj[] => [{ manager: 'undici', operation: 'Update', apiVersion: 'authorization.k8s.io/v1', time: 'T', fieldsType: 'FieldsV1', fieldsV1 }];
const maskTime = (o: Obj): Obj => {
  for (const m of o.metadata?.managedFields ?? []) {
    expect(m.time).toMatch(TIME);
    m.time = 'T';
  }
  return o;
};

describe('SelfSubjectAccessReview: what may I do?', () => {
  it('allowed, with the binding that allowed it; the answer is the object with its status, 201', async () => {
    const r = await http(alice, 'POST', `${A}/selfsubjectaccessreviews`, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'web' } } });
    expect(r.status).toBe(201);
    expect(Object.keys(json(r))).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(maskTime(json(r))).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null, managedFields: managed({ 'f:spec': { 'f:resourceAttributes': { '.': {}, 'f:namespace': {}, 'f:resource': {}, 'f:verb': {} } } }) },
      spec: { resourceAttributes: { namespace: 'web', verb: 'get', resource: 'pods' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "podreader/web" of Role "podreader" to User "alice"' },
    });
  });

  it('not allowed: allowed false and no reason; a non-resource URL; anonymous users too', async () => {
    const r = await http(alice, 'POST', `${A}/selfsubjectaccessreviews`, { spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'web' } } });
    expect(json(r).status).toEqual({ allowed: false });
    const url = await http(alice, 'POST', `${A}/selfsubjectaccessreviews`, { spec: { nonResourceAttributes: { verb: 'get', path: '/api' } } });
    expect(json(url).status).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
    // Creating one is system:basic-user's, which anonymous requests do not have.
    const anon = anonymous(k);
    expect(json(await http(anon, 'POST', `${A}/selfsubjectaccessreviews`, { spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' } } })).message).toBe(
      'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
    await anon.close();
  });

  it('validation: exactly one kind of attributes, empty metadata', async () => {
    const none = await http(alice, 'POST', `${A}/selfsubjectaccessreviews`, { spec: {} });
    expect(none.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      reason: 'Invalid',
      details: {
        group: 'authorization.k8s.io',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified', field: 'spec.resourceAttributes' }],
      },
      code: 422,
    });
    const both = await http(alice, 'POST', `${A}/selfsubjectaccessreviews`, { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { verb: 'get', path: '/x' } } });
    expect(json(both).message).toBe(
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
    const named = await http(alice, 'POST', `${A}/selfsubjectaccessreviews`, { metadata: { name: 'x' }, spec: { resourceAttributes: { verb: 'get' } } });
    expect(named.status).toBe(422);
    expect(json(named).message).toMatch(/^\.authorization\.k8s\.io "" is invalid: metadata: Invalid value: v1\.ObjectMeta\{Name:"x", GenerateName:"", Namespace:"", .*ManagedFields:\[\]v1\.ManagedFieldsEntry\{v1\.ManagedFieldsEntry\{Manager:"undici", .*\}\}\}: must be empty$/);
  });

  it('creates only: other verbs are 405, a name in the path 404', async () => {
    expect((await http(alice, 'GET', `${A}/selfsubjectaccessreviews`)).status).toBe(403);
    expect((await http(k, 'GET', `${A}/selfsubjectaccessreviews`)).json).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
    expect((await http(k, 'DELETE', `${A}/selfsubjectaccessreviews`)).json).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
    expect((await http(k, 'POST', `${A}/selfsubjectaccessreviews/x`, {})).json).toMatchObject({ code: 404, reason: 'NotFound' });
  });
});

describe('SubjectAccessReview and LocalSubjectAccessReview: may they?', () => {
  it('about any user and groups; system:masters may do anything', async () => {
    const r = await http(k, 'POST', `${A}/subjectaccessreviews`, { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'web' } } });
    expect(maskTime(json(r))).toEqual({
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null, managedFields: managed({ 'f:spec': { 'f:resourceAttributes': { '.': {}, 'f:namespace': {}, 'f:resource': {}, 'f:verb': {} }, 'f:user': {} } }) },
      spec: { resourceAttributes: { namespace: 'web', verb: 'get', resource: 'pods' }, user: 'alice' },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "podreader/web" of Role "podreader" to User "alice"' },
    });
    const masters = await http(k, 'POST', `${A}/subjectaccessreviews`, { spec: { user: 'bob', groups: ['system:masters'], resourceAttributes: { verb: 'delete', resource: 'namespaces' } } });
    expect(json(masters).status).toEqual({ allowed: true });
    const missing = await http(k, 'POST', `${A}/subjectaccessreviews`, { spec: { resourceAttributes: { verb: 'get' } } });
    expect(json(missing).message).toBe('.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
  });

  it('a binding to a missing role is an evaluation error, and the review still answers', async () => {
    expectCode(
      await http(k, 'POST', `${RBAC}/namespaces/web/rolebindings`, { metadata: { name: 'ghost' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ghost' }, subjects: [{ kind: 'User', name: 'zed' }] }),
      201,
    );
    const r = await http(k, 'POST', `${A}/subjectaccessreviews`, { spec: { user: 'zed', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'web' } } });
    expect(json(r).status).toEqual({ allowed: false, reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found' });
  });

  it('not everyone may ask about others', async () => {
    expect(json(await http(alice, 'POST', `${A}/subjectaccessreviews`, { spec: { user: 'bob', resourceAttributes: { verb: 'get' } } })).message).toBe(
      'subjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
  });

  it('LocalSubjectAccessReview: the namespace of the review is the question\'s', async () => {
    const path = `${A}/namespaces/web/localsubjectaccessreviews`;
    const r = await http(k, 'POST', path, { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'web' } } });
    expect(Object.keys(json(r).metadata)).toEqual(['namespace', 'creationTimestamp', 'managedFields']);
    expect(json(r).status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "podreader/web" of Role "podreader" to User "alice"' });
    expect(json(await http(k, 'POST', path, { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } } })).message).toBe(
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    );
    expect(json(await http(k, 'POST', path, { metadata: { namespace: 'other' }, spec: { user: 'alice', resourceAttributes: { verb: 'get', namespace: 'web' } } }))).toMatchObject({
      code: 400,
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
    expect(json(await http(k, 'POST', path, { spec: { user: 'alice', nonResourceAttributes: { verb: 'get', path: '/x' } } })).message).toBe(
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
    );
  });

  it('field selectors: validated, and a node sees its pods only through spec.nodeName', async () => {
    const both = await http(k, 'POST', `${A}/subjectaccessreviews`, {
      spec: { user: 'bob', resourceAttributes: { verb: 'list', resource: 'pods', fieldSelector: { rawSelector: 'spec.nodeName=a', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } } },
    });
    expect(json(both).message).toBe('.authorization.k8s.io "" is invalid: spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "spec.nodeName=a": may not specified at the same time as requirements');
    const node = { user: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
    const ask = async (fieldSelector?: Obj): Promise<Obj> =>
      json(await http(k, 'POST', `${A}/subjectaccessreviews`, { spec: { ...node, resourceAttributes: { verb: 'list', resource: 'pods', ...(fieldSelector ? { fieldSelector } : {}) } } })).status;
    expect(await ask({ rawSelector: 'spec.nodeName=n1' })).toEqual({ allowed: true });
    expect(await ask({ requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] })).toEqual({ allowed: true });
    expect(await ask({ rawSelector: 'spec.nodeName=n2' })).toEqual({ allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector' });
    expect(await ask()).toEqual({ allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector' });
  });
});

describe('SelfSubjectRulesReview: everything I may do in a namespace', () => {
  it('the rules of every binding that applies, resources and URLs apart', async () => {
    const r = await http(alice, 'POST', `${A}/selfsubjectrulesreviews`, { spec: { namespace: 'web' } });
    expect(r.status).toBe(201);
    const body = json(r);
    expect(Object.keys(body)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(body.metadata).toEqual({ creationTimestamp: null });
    expect(body.spec).toEqual({});
    expect(body.status.incomplete).toBe(false);
    expect(body.status.resourceRules).toEqual(
      expect.arrayContaining([
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
        { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      ]),
    );
    expect(body.status.resourceRules).toHaveLength(3);
    expect(body.status.nonResourceRules).toEqual(
      expect.arrayContaining([{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }]),
    );
    expect(json(await http(alice, 'POST', `${A}/selfsubjectrulesreviews`, { spec: {} }))).toMatchObject({ code: 400, reason: 'BadRequest', message: 'no namespace on request' });
  });

  it('a node\'s rules are incomplete: the Node authorizer cannot list them', async () => {
    const node = await asUser(k, 'system:node:n1', ['system:nodes']);
    const body = json(await http(node, 'POST', `${A}/selfsubjectrulesreviews`, { spec: { namespace: 'web' } }));
    expect(body.status.incomplete).toBe(true);
    expect(body.status.evaluationError).toBe('node authorizer does not support user rule resolution');
    await node.close();
  });
});
