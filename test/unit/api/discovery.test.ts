import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read field by field
type Json = Record<string, any>;
import { compareKubeAwareVersions, installDiscovery } from '../../../src/api/discovery.js';
import type { ResourceDef, Strategy } from '../../../src/registry/types.js';
import { startHarness, type Harness } from '../../support/koa-harness.js';

const dummyStrategy = {} as Strategy;

function def(partial: Partial<ResourceDef> & Pick<ResourceDef, 'group' | 'version' | 'resource' | 'kind'>): ResourceDef {
  return {
    listKind: `${partial.kind}List`,
    singularName: partial.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced: true,
    strategy: dummyStrategy,
    nameValidator: () => [],
    returnDeletedObject: false,
    ...partial,
  };
}

const DEFS: ResourceDef[] = [
  def({
    group: 'apps',
    version: 'v1',
    resource: 'statefulsets',
    kind: 'StatefulSet',
    shortNames: ['sts'],
    categories: ['all'],
    subresources: { status: dummyStrategy },
  }),
  def({
    group: 'scheduling.k8s.io',
    version: 'v1',
    resource: 'priorityclasses',
    kind: 'PriorityClass',
    namespaced: false,
    shortNames: ['pc'],
  }),
  def({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: { status: dummyStrategy, finalize: dummyStrategy },
  }),
];

const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const AGGREGATED_CT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((router) => installDiscovery(router, () => DEFS));
});

afterAll(() => harness.close());

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => harness.client().fetch(path, { headers });

const svh = (gvk: string): string => createHash('sha256').update(gvk).digest().subarray(0, 8).toString('base64');

describe('plain discovery', () => {
  it('GET /api lists v1 and the address the client used', async () => {
    const res = await get('/api');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('vary')).toBeNull();
    const port = new URL(harness.base).port;
    expect(await res.json()).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${port}` }],
    });
  });

  it('writes compact JSON with a trailing newline, indented for curl', async () => {
    const compact = await (await get('/api')).text();
    expect(compact.endsWith('}\n')).toBe(true);
    expect(compact).not.toContain('\n ');
    const pretty = await (await get('/api', { 'User-Agent': 'curl/8.5.0' })).text();
    expect(pretty).toContain('\n  "kind": "APIVersions"');
    const viaQuery = await (await get('/api?pretty=true')).text();
    expect(viaQuery).toContain('\n  "kind"');
  });

  it('GET /apis lists named groups in registration order, core excluded', async () => {
    const body = await (await get('/apis')).json() as Json;
    expect(body).toEqual({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        {
          name: 'apps',
          versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
          preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
        },
        {
          name: 'scheduling.k8s.io',
          versions: [{ groupVersion: 'scheduling.k8s.io/v1', version: 'v1' }],
          preferredVersion: { groupVersion: 'scheduling.k8s.io/v1', version: 'v1' },
        },
      ],
    });
  });

  it('GET /apis/<group> answers an APIGroup', async () => {
    const body = await (await get('/apis/scheduling.k8s.io')).json() as Json;
    expect(body).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'scheduling.k8s.io',
      versions: [{ groupVersion: 'scheduling.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'scheduling.k8s.io/v1', version: 'v1' },
    });
  });

  it('GET /apis/apps/v1 lists resources and subresources sorted by name', async () => {
    const text = await (await get('/apis/apps/v1')).text();
    expect(JSON.parse(text)).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'apps/v1',
      resources: [
        {
          name: 'statefulsets',
          singularName: 'statefulset',
          namespaced: true,
          kind: 'StatefulSet',
          verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          shortNames: ['sts'],
          categories: ['all'],
          storageVersionHash: svh('apps/v1/StatefulSet'),
        },
        { name: 'statefulsets/status', singularName: '', namespaced: true, kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] },
      ],
    });
    // Field order matches kube's APIResource struct.
    expect(text.indexOf('"singularName"')).toBeLessThan(text.indexOf('"namespaced"'));
    expect(text.indexOf('"categories"')).toBeLessThan(text.indexOf('"storageVersionHash"'));
  });

  it('omits empty shortNames/categories and reports cluster scope', async () => {
    const body = await (await get('/apis/scheduling.k8s.io/v1')).json() as Json;
    expect(body.resources).toEqual([
      {
        name: 'priorityclasses',
        singularName: 'priorityclass',
        namespaced: false,
        kind: 'PriorityClass',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['pc'],
        storageVersionHash: svh('scheduling.k8s.io/v1/PriorityClass'),
      },
    ]);
  });

  it('GET /api/v1 has no apiVersion (as kube) and lists namespaces with their subresources', async () => {
    const body = await (await get('/api/v1')).json() as Json;
    expect(body.kind).toBe('APIResourceList');
    expect(body).not.toHaveProperty('apiVersion');
    expect(body.groupVersion).toBe('v1');
    expect(body.resources.map((r: { name: string }) => r.name)).toEqual([
      'namespaces',
      'namespaces/finalize',
      'namespaces/status',
    ]);
    expect(body.resources[0]).toMatchObject({
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      storageVersionHash: svh('/v1/Namespace'),
    });
    expect(body.resources[0]).not.toHaveProperty('categories');
    expect(body.resources[1].verbs).toEqual(['update']);
  });

  it.each(['/apis/foo', '/apis/foo/v1'])("%s (a group nobody serves) is the mux's plain-text 404", async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('404 page not found\n');
  });

  it.each(['/apis/apps/v2', '/api/v2'])('%s is a 404 Status', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
      code: 404,
    });
  });

  it('serves YAML when asked', async () => {
    const res = await get('/apis/apps', { Accept: 'application/yaml' });
    expect(res.headers.get('content-type')).toBe('application/yaml');
    const text = await res.text();
    // Keys come out sorted, as sigs.k8s.io/yaml writes them.
    expect(text.indexOf('apiVersion:')).toBeLessThan(text.indexOf('kind:'));
    expect(parseYaml(text)).toMatchObject({ kind: 'APIGroup', name: 'apps' });
  });

  it('answers 406 when no acceptable type is offered', async () => {
    const res = await get('/apis/apps/v1', { Accept: 'text/plain' });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });

  it('answers 406 for the aggregated type on a group endpoint', async () => {
    const res = await get('/apis/apps', { Accept: AGGREGATED_CT });
    expect(res.status).toBe(406);
  });
});

describe('aggregated discovery', () => {
  it('GET /apis with kubectl 1.33 Accept answers the v2 list of named groups', async () => {
    const res = await get('/apis', { Accept: KUBECTL_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(AGGREGATED_CT);
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('cache-control')).toBe('public');
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    const body = await res.json() as Json;
    expect(body.kind).toBe('APIGroupDiscoveryList');
    expect(body.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(body.metadata).toEqual({});
    expect(body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['apps', 'scheduling.k8s.io']);
    expect(body.items[0]).toEqual({
      metadata: { name: 'apps' },
      versions: [
        {
          version: 'v1',
          resources: [
            {
              resource: 'statefulsets',
              responseKind: { group: '', version: '', kind: 'StatefulSet' },
              scope: 'Namespaced',
              singularResource: 'statefulset',
              verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
              shortNames: ['sts'],
              categories: ['all'],
              subresources: [
                { subresource: 'status', responseKind: { group: '', version: '', kind: 'StatefulSet' }, verbs: ['get', 'patch', 'update'] },
              ],
            },
          ],
          freshness: 'Current',
        },
      ],
    });
    expect(body.items[1].versions[0].resources[0]).toEqual({
      resource: 'priorityclasses',
      responseKind: { group: '', version: '', kind: 'PriorityClass' },
      scope: 'Cluster',
      singularResource: 'priorityclass',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['pc'],
    });
  });

  it('GET /api answers only the core group', async () => {
    const body = await (await get('/api', { Accept: KUBECTL_ACCEPT })).json() as Json;
    expect(body.kind).toBe('APIGroupDiscoveryList');
    expect(body.items).toHaveLength(1);
    expect(body.items[0].metadata).toEqual({});
    const ns = body.items[0].versions[0].resources[0];
    expect(ns.resource).toBe('namespaces');
    expect(ns.scope).toBe('Cluster');
    expect(ns.subresources.map((s: { subresource: string }) => s.subresource)).toEqual(['finalize', 'status']);
  });

  it('honours If-None-Match with 304, per document', async () => {
    const first = await get('/apis', { Accept: KUBECTL_ACCEPT });
    const etag = first.headers.get('etag') ?? '';
    const again = await get('/apis', { Accept: KUBECTL_ACCEPT, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const core = await get('/api', { Accept: KUBECTL_ACCEPT, 'If-None-Match': etag });
    expect(core.status).toBe(200);
    expect(core.headers.get('etag')).not.toBe(etag);
    const stale = await get('/apis', { Accept: KUBECTL_ACCEPT, 'If-None-Match': '"nope"' });
    expect(stale.status).toBe(200);
  });

  it('does not serve v2beta1: plain document when JSON is also acceptable, else 406', async () => {
    const beta = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
    const withJson = await get('/apis', { Accept: `${beta},application/json` });
    expect(withJson.status).toBe(200);
    expect(withJson.headers.get('content-type')).toBe('application/json');
    expect(((await withJson.json()) as Json).kind).toBe('APIGroupList');
    const only = await get('/apis', { Accept: beta });
    expect(only.status).toBe(406);
    expect(((await only.json()) as Json).reason).toBe('NotAcceptable');
  });

  it('serves the aggregated list whenever any clause asks for it, as kube does', async () => {
    // kube first negotiates under the discovery restrictions, which skip plain clauses, so a
    // lower q does not demote the aggregated form.
    const res = await get('/apis', { Accept: `${AGGREGATED_CT};q=0.5,application/json` });
    expect(((await res.json()) as Json).kind).toBe('APIGroupDiscoveryList');
  });

  it('serves the aggregated list as YAML too', async () => {
    const res = await get('/apis', { Accept: 'application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    expect(res.headers.get('content-type')).toBe('application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(parseYaml(await res.text()).kind).toBe('APIGroupDiscoveryList');
  });
});

describe('/version', () => {
  it('answers the 1.33 fields as indented JSON', async () => {
    const res = await get('/version');
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(text.startsWith('{\n  "major": "1",\n  "minor": "33",\n  "emulationMajor": "1"')).toBe(true);
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      major: '1',
      minor: '33',
      emulationMajor: '1',
      emulationMinor: '33',
      minCompatibilityMajor: '1',
      minCompatibilityMinor: '32',
      gitTreeState: 'clean',
      compiler: 'gc',
    });
    expect(body.gitVersion).toMatch(/^v1\.33\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(Object.keys(body)).toEqual([
      'major',
      'minor',
      'emulationMajor',
      'emulationMinor',
      'minCompatibilityMajor',
      'minCompatibilityMinor',
      'gitVersion',
      'gitCommit',
      'gitTreeState',
      'buildDate',
      'goVersion',
      'compiler',
      'platform',
    ]);
  });
});

describe('versions', () => {
  it('sorts versions kube-aware', () => {
    const v = ['v1beta1', 'foo', 'v2alpha1', 'v1', 'v2', 'v1beta2', 'v10'];
    expect([...v].sort(compareKubeAwareVersions)).toEqual(['v10', 'v2', 'v1', 'v1beta2', 'v1beta1', 'v2alpha1', 'foo']);
  });
});
