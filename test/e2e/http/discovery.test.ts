// Discovery over HTTP: /version, legacy discovery (/api, /apis, per group-version
// resource lists), aggregated discovery with kubectl 1.33's Accept header, and the
// OpenAPI v3 index and group-version documents.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { expectCode, http, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

const KUBECTL_DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const AGGREGATED_CT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const resource = (list: Obj, name: string): Obj | undefined => (list.resources as Obj[]).find((r) => r.name === name);

describe('/version', () => {
  it('answers a 1.33 version.Info', async () => {
    const v = expectCode(await http(k, 'GET', '/version'), 200);
    expect(v.major).toBe('1');
    expect(v.minor).toBe('33');
    expect(v.gitVersion).toMatch(/^v1\.33\./);
    for (const f of ['gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']) expect(typeof v[f]).toBe('string');
  });
});

describe('legacy discovery', () => {
  it('/api lists v1 as APIVersions', async () => {
    const r = await http(k, 'GET', '/api');
    const v = expectCode(r, 200);
    expect(v.kind).toBe('APIVersions');
    expect(v.versions).toStrictEqual(['v1']);
    expect(Array.isArray(v.serverAddressByClientCIDRs)).toBe(true);
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('/apis lists apps, policy and scheduling.k8s.io with their preferred versions', async () => {
    const g = expectCode(await http(k, 'GET', '/apis'), 200);
    expect(g.kind).toBe('APIGroupList');
    expect(g.apiVersion).toBe('v1');
    const byName = new Map((g.groups as Obj[]).map((x) => [x.name, x]));
    for (const [name, gv] of [
      ['apps', 'apps/v1'],
      ['policy', 'policy/v1'],
      ['scheduling.k8s.io', 'scheduling.k8s.io/v1'],
    ]) {
      const grp = byName.get(name);
      expect(grp, name).toBeDefined();
      expect(grp!.versions).toContainEqual({ groupVersion: gv, version: 'v1' });
      expect(grp!.preferredVersion).toStrictEqual({ groupVersion: gv, version: 'v1' });
    }
  });

  it('/apis/apps answers the group alone', async () => {
    const g = expectCode(await http(k, 'GET', '/apis/apps'), 200);
    expect(g.kind).toBe('APIGroup');
    expect(g.name).toBe('apps');
    expect(g.preferredVersion).toStrictEqual({ groupVersion: 'apps/v1', version: 'v1' });
  });

  it('/api/v1 lists namespaces with their verbs, short name and subresources', async () => {
    const l = expectCode(await http(k, 'GET', '/api/v1'), 200);
    expect(l.kind).toBe('APIResourceList');
    expect(l.groupVersion).toBe('v1');
    const ns = resource(l, 'namespaces')!;
    expect(ns).toMatchObject({
      name: 'namespaces',
      singularName: 'namespace',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
    });
    expect(resource(l, 'namespaces/status')).toMatchObject({ namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] });
    expect(resource(l, 'namespaces/finalize')).toMatchObject({ namespaced: false, kind: 'Namespace', verbs: ['update'] });
  });

  it('/apis/apps/v1 lists statefulsets (verbs, sts, all) and statefulsets/status', async () => {
    const l = expectCode(await http(k, 'GET', '/apis/apps/v1'), 200);
    expect(l.kind).toBe('APIResourceList');
    expect(l.apiVersion).toBe('v1');
    expect(l.groupVersion).toBe('apps/v1');
    expect(resource(l, 'statefulsets')).toMatchObject({
      name: 'statefulsets',
      singularName: 'statefulset',
      namespaced: true,
      kind: 'StatefulSet',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['sts'],
      categories: ['all'],
    });
    expect(resource(l, 'statefulsets/status')).toMatchObject({ namespaced: true, kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] });
  });

  it('/apis/apps/v1 lists statefulsets/scale as an autoscaling/v1 Scale', async () => {
    const l = expectCode(await http(k, 'GET', '/apis/apps/v1'), 200);
    expect(resource(l, 'statefulsets/scale')).toMatchObject({
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  });

  it('/apis/policy/v1 and /apis/scheduling.k8s.io/v1 list their resources', async () => {
    const p = expectCode(await http(k, 'GET', '/apis/policy/v1'), 200);
    expect(resource(p, 'poddisruptionbudgets')).toMatchObject({
      singularName: 'poddisruptionbudget',
      namespaced: true,
      kind: 'PodDisruptionBudget',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['pdb'],
    });
    expect(resource(p, 'poddisruptionbudgets/status')).toMatchObject({ verbs: ['get', 'patch', 'update'] });
    const s = expectCode(await http(k, 'GET', '/apis/scheduling.k8s.io/v1'), 200);
    expect(resource(s, 'priorityclasses')).toMatchObject({
      singularName: 'priorityclass',
      namespaced: false,
      kind: 'PriorityClass',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['pc'],
    });
    expect(resource(s, 'priorityclasses/status')).toBeUndefined();
  });
});

describe('aggregated discovery', () => {
  it('/apis with kubectl\'s Accept answers an apidiscovery.k8s.io/v2 APIGroupDiscoveryList', async () => {
    const r = await http(k, 'GET', '/apis', undefined, { accept: KUBECTL_DISCOVERY_ACCEPT });
    const d = expectCode(r, 200);
    expect(r.headers.get('content-type')).toBe(AGGREGATED_CT);
    expect(d.kind).toBe('APIGroupDiscoveryList');
    expect(d.apiVersion).toBe('apidiscovery.k8s.io/v2');
    const apps = (d.items as Obj[]).find((i) => i.metadata.name === 'apps')!;
    expect(apps).toBeDefined();
    const v1 = (apps.versions as Obj[]).find((v) => v.version === 'v1')!;
    expect(v1.freshness).toBe('Current');
    const stsRes = (v1.resources as Obj[]).find((x) => x.resource === 'statefulsets')!;
    expect(stsRes).toMatchObject({
      resource: 'statefulsets',
      responseKind: { group: '', version: '', kind: 'StatefulSet' },
      scope: 'Namespaced',
      singularResource: 'statefulset',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['sts'],
      categories: ['all'],
    });
    expect(stsRes.subresources).toContainEqual({
      subresource: 'status',
      responseKind: { group: '', version: '', kind: 'StatefulSet' },
      verbs: ['get', 'patch', 'update'],
    });
    const names = (d.items as Obj[]).map((i) => i.metadata.name);
    expect(names).toContain('policy');
    expect(names).toContain('scheduling.k8s.io');
  });

  it('/api with kubectl\'s Accept answers the core group with namespaces', async () => {
    const r = await http(k, 'GET', '/api', undefined, { accept: KUBECTL_DISCOVERY_ACCEPT });
    const d = expectCode(r, 200);
    expect(r.headers.get('content-type')).toBe(AGGREGATED_CT);
    expect(d.kind).toBe('APIGroupDiscoveryList');
    const v1 = (d.items[0].versions as Obj[]).find((v) => v.version === 'v1')!;
    const nsRes = (v1.resources as Obj[]).find((x) => x.resource === 'namespaces')!;
    expect(nsRes).toMatchObject({ scope: 'Cluster', singularResource: 'namespace', shortNames: ['ns'] });
  });

  it('answers an ETag and 304 for a matching If-None-Match', async () => {
    const r = await http(k, 'GET', '/apis', undefined, { accept: KUBECTL_DISCOVERY_ACCEPT });
    const etag = r.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await k.fetch('/apis', { headers: { accept: KUBECTL_DISCOVERY_ACCEPT, 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('asking only for v2beta1 (not served by default in 1.33) is 406', async () => {
    const r = await http(k, 'GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
    expect(r.status).toBe(406);
  });
});

describe('OpenAPI v3', () => {
  it('/openapi/v3 lists the group versions with hashed URLs', async () => {
    const idx = expectCode(await http(k, 'GET', '/openapi/v3'), 200);
    for (const gv of ['api/v1', 'apis/apps/v1', 'apis/policy/v1', 'apis/scheduling.k8s.io/v1']) {
      expect(idx.paths[gv], gv).toBeDefined();
      expect(idx.paths[gv].serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${gv.replace(/\./g, '\\.')}\\?hash=[0-9A-F]+$`));
    }
  });

  it('/openapi/v3/apis/apps/v1 has the create operation of statefulsets with its query parameters', async () => {
    const idx = expectCode(await http(k, 'GET', '/openapi/v3'), 200);
    const doc = expectCode(await http(k, 'GET', idx.paths['apis/apps/v1'].serverRelativeURL), 200);
    expect(doc.openapi).toMatch(/^3\./);
    const p = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets'];
    expect(p).toBeDefined();
    expect(p.post.operationId).toBe('createAppsV1NamespacedStatefulSet');
    const names = (p.post.parameters as Obj[]).map((x) => x.name);
    for (const n of ['dryRun', 'fieldManager', 'fieldValidation']) expect(names).toContain(n);
    expect((p.post.parameters as Obj[]).find((x) => x.name === 'fieldValidation')).toMatchObject({ in: 'query', schema: { type: 'string' } });
    expect(Object.keys(p.post.responses)).toEqual(expect.arrayContaining(['200', '201', '202', '401']));
    expect(p.get.operationId).toBe('listAppsV1NamespacedStatefulSet');
    expect(doc.components.schemas['io.k8s.api.apps.v1.StatefulSet']).toBeDefined();
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}'];
    expect(item.put.operationId).toBe('replaceAppsV1NamespacedStatefulSet');
    expect(item.delete.operationId).toBe('deleteAppsV1NamespacedStatefulSet');
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status'].put.operationId).toBe(
      'replaceAppsV1NamespacedStatefulSetStatus',
    );
  });

  it('an unknown group version under /openapi/v3 is 404', async () => {
    const r = await http(k, 'GET', '/openapi/v3/apis/nope/v1');
    expect(r.status).toBe(404);
  });
});
