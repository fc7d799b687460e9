import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildOpenAPIV2, buildOpenAPIV3, decodeOpenAPIV2Protobuf, encodeOpenAPIV2Protobuf, openAPIV2Root, openapiHash, openapiV3Index } from '../../../src/schema/openapi/index.js';
import { apiResourceOf } from '../../../src/registry/types.js';
import { negotiateOpenAPIV2, negotiateOpenAPIV3 } from '../../../src/api/openapi.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI documents are read field by field
type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Fixture: a small registry in the project's schema format and four resources.

import { APPS, CORE, DEFS, META, REGISTRY } from './openapi-fixtures.js';

function refsOf(doc: unknown, path = '#'): [string, string][] {
  const out: [string, string][] = [];
  if (Array.isArray(doc)) doc.forEach((v, i) => out.push(...refsOf(v, `${path}/${i}`)));
  else if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) {
      if (k === '$ref' && typeof v === 'string') out.push([path, v]);
      else out.push(...refsOf(v, `${path}/${k}`));
    }
  }
  return out;
}

function resolve(doc: Json, ref: string): unknown {
  expect(ref.startsWith('#/')).toBe(true);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((o, seg) => (o && typeof o === 'object' ? (o as Json)[seg] : undefined), doc);
}

function everyKey(doc: unknown, key: string): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === key) out.push(x);
        walk(x);
      }
    }
  };
  walk(doc);
  return out;
}

const names = (params: Json[] | undefined): string[] => (params ?? []).map((p) => p.name);

// ---------------------------------------------------------------------------------------------

describe('OpenAPI v3 (per group version)', () => {
  const doc = buildOpenAPIV3(DEFS.map(apiResourceOf), REGISTRY, 'apps/v1') as Json;
  const schemas = doc.components.schemas as Record<string, Json>;
  const sts = `${APPS}.StatefulSet`;

  it('has the document header and only this group version', () => {
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: 'v1.33.0' });
    expect(doc.components.securitySchemes.BearerToken).toEqual({ description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' });
    expect(Object.keys(doc.paths)).toEqual([
      '/apis/apps/v1/',
      '/apis/apps/v1/namespaces/{namespace}/statefulsets',
      '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}',
      '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale',
      '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status',
      '/apis/apps/v1/statefulsets',
      '/apis/apps/v1/watch/namespaces/{namespace}/statefulsets',
      '/apis/apps/v1/watch/namespaces/{namespace}/statefulsets/{name}',
      '/apis/apps/v1/watch/statefulsets',
    ]);
    expect(schemas['io.k8s.api.scheduling.v1.PriorityClass']).toBeUndefined();
    expect(schemas[`${CORE}.Namespace`]).toBeUndefined();
    // The same document for the /openapi/v3 key form.
    expect(buildOpenAPIV3(DEFS.map(apiResourceOf), REGISTRY, 'apis/apps/v1')).toEqual(doc);
  });

  it("uses kube's operation ids, tags, actions and group-version-kinds", () => {
    const p = doc.paths;
    const coll = p['/apis/apps/v1/namespaces/{namespace}/statefulsets'];
    const item = p['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}'];
    const ids = Object.values(p as Record<string, Json>).flatMap((pi) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => pi[m]).map((m) => pi[m].operationId));
    expect(ids.sort()).toEqual(
      [
        'getAppsV1APIResources',
        'deleteAppsV1CollectionNamespacedStatefulSet',
        'listAppsV1NamespacedStatefulSet',
        'createAppsV1NamespacedStatefulSet',
        'deleteAppsV1NamespacedStatefulSet',
        'readAppsV1NamespacedStatefulSet',
        'patchAppsV1NamespacedStatefulSet',
        'replaceAppsV1NamespacedStatefulSet',
        'readAppsV1NamespacedStatefulSetScale',
        'patchAppsV1NamespacedStatefulSetScale',
        'replaceAppsV1NamespacedStatefulSetScale',
        'readAppsV1NamespacedStatefulSetStatus',
        'patchAppsV1NamespacedStatefulSetStatus',
        'replaceAppsV1NamespacedStatefulSetStatus',
        'listAppsV1StatefulSetForAllNamespaces',
        'watchAppsV1NamespacedStatefulSetList',
        'watchAppsV1NamespacedStatefulSet',
        'watchAppsV1StatefulSetListForAllNamespaces',
      ].sort(),
    );
    expect(coll.post.tags).toEqual(['apps_v1']);
    expect(coll.post['x-kubernetes-action']).toBe('post');
    expect(coll.post['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'StatefulSet', version: 'v1' });
    expect(coll.delete['x-kubernetes-action']).toBe('deletecollection');
    expect(coll.get['x-kubernetes-action']).toBe('list');
    expect(item.put['x-kubernetes-action']).toBe('put');
    expect(p['/apis/apps/v1/watch/statefulsets'].get['x-kubernetes-action']).toBe('watchlist');
    expect(p['/apis/apps/v1/watch/namespaces/{namespace}/statefulsets/{name}'].get['x-kubernetes-action']).toBe('watch');
    const scalePath = p['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale'];
    expect(scalePath.patch['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
    expect(scalePath.parameters[0].description).toBe('name of the Scale');
    expect(p['/apis/apps/v1/'].get['x-kubernetes-action']).toBeUndefined();
    expect(item.patch.description).toBe('partially update the specified StatefulSet');
    expect(p['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status'].get.description).toBe('read status of the specified StatefulSet');
  });

  it('lists the parameters kubectl looks for', () => {
    const coll = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets'];
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}'];
    expect(names(coll.parameters)).toEqual(['namespace', 'pretty']);
    expect(coll.parameters[0]).toEqual({
      description: 'object name and auth scope, such as for teams and projects',
      in: 'path',
      name: 'namespace',
      required: true,
      schema: { type: 'string', uniqueItems: true },
    });
    expect(names(item.parameters)).toEqual(['name', 'namespace', 'pretty']);
    expect(names(coll.post.parameters)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(names(item.put.parameters)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(names(item.patch.parameters)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(item.patch.parameters[3].schema).toEqual({ type: 'boolean', uniqueItems: true });
    expect(names(coll.get.parameters)).toEqual([
      'allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit',
      'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch',
    ]);
    expect(names(coll.delete.parameters)).toEqual([
      'continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential',
      'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch',
      'sendInitialEvents', 'timeoutSeconds',
    ]);
    expect(names(item.delete.parameters)).toEqual(['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy']);
    expect(item.get.parameters).toBeUndefined();
    const all = doc.paths['/apis/apps/v1/statefulsets'];
    expect(all.get.parameters).toBeUndefined();
    expect(names(all.parameters)).toContain('watch');
    expect(names(all.parameters)).toContain('pretty');
  });

  it('has request bodies and responses with media types and schema refs', () => {
    const coll = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets'];
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}'];
    const r = (name: string) => ({ schema: { $ref: `#/components/schemas/${name}` } });
    expect(coll.post.requestBody).toEqual({ content: { '*/*': r(sts) }, required: true });
    expect(Object.keys(coll.post.responses)).toEqual(['200', '201', '202', '401']);
    expect(coll.post.responses['201']).toEqual({
      content: { 'application/json': r(sts), 'application/vnd.kubernetes.protobuf': r(sts), 'application/yaml': r(sts) },
      description: 'Created',
    });
    expect(coll.post.responses['401']).toEqual({ description: 'Unauthorized' });
    expect(Object.keys(coll.get.responses['200'].content)).toEqual([
      'application/json',
      'application/json;stream=watch',
      'application/vnd.kubernetes.protobuf',
      'application/vnd.kubernetes.protobuf;stream=watch',
      'application/yaml',
    ]);
    expect(coll.get.responses['200'].content['application/json']).toEqual(r(`${APPS}.StatefulSetList`));
    expect(Object.keys(item.patch.requestBody.content)).toEqual([
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    expect(item.patch.requestBody.content['application/merge-patch+json']).toEqual(r(`${META}.Patch`));
    expect(Object.keys(item.patch.responses)).toEqual(['200', '201', '401']);
    expect(item.delete.requestBody).toEqual({ content: { '*/*': r(`${META}.DeleteOptions`) } });
    expect(item.delete.responses['202'].content['application/json']).toEqual(r(`${META}.Status`));
    expect(doc.paths['/apis/apps/v1/watch/statefulsets'].get.responses['200'].content['application/json']).toEqual(r(`${META}.WatchEvent`));
  });

  it('resolves every $ref to a component schema', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const [at, ref] of refs) {
      expect(ref, at).toMatch(/^#\/components\/schemas\//);
      expect(resolve(doc, ref), `${at} -> ${ref}`).toBeTypeOf('object');
    }
    // Placeholders only where the registry has no schema at all.
    for (const [name, s] of Object.entries(schemas)) expect(String(s.description ?? ''), name).not.toContain('no schema is registered');
  });

  it("converts structs in kube's v3 style", () => {
    const s = schemas[sts];
    expect(s['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'StatefulSet', version: 'v1' }]);
    expect(s.type).toBe('object');
    expect(Object.keys(s.properties)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(s.properties.metadata).toEqual({ allOf: [{ $ref: `#/components/schemas/${META}.ObjectMeta` }], default: {}, description: "Standard object's metadata." });
    expect(s.properties.kind).toEqual({ description: 'Kind of the object.', type: 'string' });

    const spec = schemas[`${APPS}.StatefulSetSpec`];
    expect(spec.required).toEqual(['selector', 'template']);
    expect(spec.properties.replicas).toEqual({ description: 'replicas is the desired number of replicas.', format: 'int32', type: 'integer' });
    // A pointer struct: no default.
    expect(spec.properties.selector).toEqual({ allOf: [{ $ref: `#/components/schemas/${META}.LabelSelector` }], description: 'selector is a label query over pods.' });
    expect(spec.properties.template.default).toEqual({});
    expect(spec.properties.updateStrategy['x-kubernetes-patch-strategy']).toBe('retainKeys');
    expect(spec.properties.updateStrategy.allOf).toHaveLength(1);
    expect(spec.properties.podManagementPolicy.enum).toEqual(['OrderedReady', 'Parallel']);
    // A ref without siblings stays a bare $ref.
    expect(schemas[`${APPS}.StatefulSetUpdateStrategy`].properties.rollingUpdate).toEqual({ $ref: `#/components/schemas/${APPS}.RollingUpdateStatefulSetStrategy` });

    const status = schemas[`${APPS}.StatefulSetStatus`];
    expect(status.properties.replicas).toEqual({ default: 0, description: 'replicas is the number of Pods created.', format: 'int32', type: 'integer' });
    expect(status.properties.observedGeneration).toEqual({ format: 'int64', type: 'integer' });
    expect(status.properties.conditions).toEqual({
      description: "Represents the latest available observations of a statefulset's current state.",
      items: { allOf: [{ $ref: `#/components/schemas/${APPS}.StatefulSetCondition` }], default: {} },
      type: 'array',
      'x-kubernetes-list-map-keys': ['type'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(schemas[`${APPS}.StatefulSetCondition`].properties.type).toEqual({ default: '', type: 'string' });
    expect(schemas[`${APPS}.StatefulSetCondition`].properties.lastTransitionTime).toEqual({ $ref: `#/components/schemas/${META}.Time` });

    const podSpec = schemas[`${CORE}.PodSpec`];
    expect(podSpec.properties.nodeSelector).toEqual({ additionalProperties: { default: '', type: 'string' }, type: 'object', 'x-kubernetes-map-type': 'atomic' });
    expect(schemas[`${CORE}.Container`].properties.args.items).toEqual({ default: '', type: 'string' });
    expect(schemas[`${CORE}.ContainerPort`].properties.protocol).toEqual({ default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'], type: 'string' });
    expect(schemas[`${CORE}.ResourceRequirements`].properties.limits).toEqual({
      additionalProperties: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
      type: 'object',
    });
  });

  it('defines the special types as kube does', () => {
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({ oneOf: [{ type: 'string' }, { type: 'number' }] });
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity'].description).toMatch(/Quantity/);
    expect(schemas[`${META}.Time`]).toMatchObject({ format: 'date-time', type: 'string' });
    expect(schemas[`${META}.ObjectMeta`].properties.ownerReferences).toMatchObject({
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    });
    expect(schemas[`${META}.OwnerReference`]['x-kubernetes-map-type']).toBe('atomic');
    expect(schemas[`${META}.Status`]['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Status', version: 'v1' }]);
    // DeleteOptions and WatchEvent are registered in every served group version.
    expect(schemas[`${META}.DeleteOptions`]['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'DeleteOptions', version: 'v1' },
      { group: 'apps', kind: 'DeleteOptions', version: 'v1' },
      { group: 'example.kapi.io', kind: 'DeleteOptions', version: 'v1' },
      { group: 'scheduling.k8s.io', kind: 'DeleteOptions', version: 'v1' },
    ]);
    expect(schemas['io.k8s.api.autoscaling.v1.Scale']['x-kubernetes-group-version-kind']).toEqual([{ group: 'autoscaling', kind: 'Scale', version: 'v1' }]);
    expect(schemas[`${META}.Patch`]).toEqual({ description: expect.any(String), type: 'object' });
  });

  it('maps every type kind and inlines embedded structs', () => {
    const w = buildOpenAPIV3(DEFS.map(apiResourceOf), REGISTRY, 'example.kapi.io/v1') as Json;
    const s = w.components.schemas['io.kapi.example.v1.Widget'];
    expect(s['x-kubernetes-map-type']).toBe('atomic');
    expect(s['x-kubernetes-unions']).toEqual([{ discriminator: 'mode', 'fields-to-discriminateBy': { a: 'A' } }]);
    expect(s.properties.fromEmbed).toEqual({ description: 'A field of an embedded struct.', type: 'string' });
    expect(s.properties.inlined).toBeUndefined();
    expect(s.properties.i64).toEqual({ default: 0, format: 'int64', type: 'integer' });
    expect(s.properties.num).toEqual({ format: 'double', type: 'number' });
    expect(s.properties.flag).toEqual({ default: false, type: 'boolean' });
    expect(s.properties.blob).toEqual({ format: 'byte', type: 'string' });
    expect(s.properties.raw).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension' });
    expect(s.properties.fields).toEqual({ $ref: `#/components/schemas/${META}.FieldsV1` });
    expect(s.properties.micro).toEqual({ $ref: `#/components/schemas/${META}.MicroTime` });
    expect(s.properties.uid).toEqual({ format: 'uuid', type: 'string' });
    expect(w.components.schemas['io.k8s.apimachinery.pkg.runtime.RawExtension']).toMatchObject({ type: 'object' });
    // Only the verbs the resource has: no delete, update, patch or watch paths.
    expect(Object.keys(w.paths)).toEqual(['/apis/example.kapi.io/v1/', '/apis/example.kapi.io/v1/namespaces/{namespace}/widgets', '/apis/example.kapi.io/v1/namespaces/{namespace}/widgets/{name}', '/apis/example.kapi.io/v1/widgets']);
    expect(Object.keys(w.paths['/apis/example.kapi.io/v1/namespaces/{namespace}/widgets/{name}'])).toEqual(['get', 'parameters']);
    expect(w.paths['/apis/example.kapi.io/v1/namespaces/{namespace}/widgets'].post.operationId).toBe('createExampleKapiIoV1NamespacedWidget');
    expect(w.paths['/apis/example.kapi.io/v1/namespaces/{namespace}/widgets'].post.tags).toEqual(['exampleKapiIo_v1']);
    // A list kind the registry lacks is synthesized.
    const listName = 'io.k8s.api.example.v1.WidgetList';
    expect(w.components.schemas[listName]['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.kapi.io', kind: 'WidgetList', version: 'v1' }]);
    expect(w.components.schemas[listName].required).toEqual(['items']);
  });

  it('builds the core group version: namespaces with finalize and status', () => {
    const core = buildOpenAPIV3(DEFS.map(apiResourceOf), REGISTRY, 'v1') as Json;
    expect(Object.keys(core.paths)).toEqual([
      '/api/v1/',
      '/api/v1/namespaces',
      '/api/v1/namespaces/{name}',
      '/api/v1/namespaces/{name}/finalize',
      '/api/v1/namespaces/{name}/status',
      '/api/v1/watch/namespaces',
      '/api/v1/watch/namespaces/{name}',
    ]);
    const coll = core.paths['/api/v1/namespaces'];
    expect(coll.delete).toBeUndefined(); // no deletecollection for namespaces
    expect(coll.post.operationId).toBe('createCoreV1Namespace');
    expect(coll.post.tags).toEqual(['core_v1']);
    expect(core.paths['/api/v1/'].get.operationId).toBe('getCoreV1APIResources');
    const fin = core.paths['/api/v1/namespaces/{name}/finalize'];
    expect(Object.keys(fin)).toEqual(['parameters', 'put']);
    expect(fin.put.operationId).toBe('replaceCoreV1NamespaceFinalize');
    expect(names(fin.parameters)).toEqual(['name', 'pretty']);
    expect(core.paths['/api/v1/namespaces/{name}'].delete.responses['200'].content['application/json'].schema.$ref).toBe(`#/components/schemas/${META}.Status`);
    expect(core.paths['/api/v1/namespaces/{name}/status'].put.operationId).toBe('replaceCoreV1NamespaceStatus');
    expect(core.paths['/api/v1/watch/namespaces'].get.operationId).toBe('watchCoreV1NamespaceList');
    expect(core.components.schemas[`${CORE}.NamespaceList`].properties.items.items).toEqual({ allOf: [{ $ref: `#/components/schemas/${CORE}.Namespace` }], default: {} });
    for (const [at, ref] of refsOf(core)) expect(resolve(core, ref), `${at} -> ${ref}`).toBeTypeOf('object');
  });
});

describe('OpenAPI v2 (swagger, all groups)', () => {
  const doc = buildOpenAPIV2(DEFS.map(apiResourceOf), REGISTRY) as Json;

  it("has kube's top level and discovery paths", () => {
    expect(Object.keys(doc)).toEqual(['definitions', 'info', 'parameters', 'paths', 'security', 'securityDefinitions', 'swagger']);
    expect(doc.swagger).toBe('2.0');
    expect(doc.security).toEqual([{ BearerToken: [] }]);
    for (const p of ['/api/', '/api/v1/', '/apis/', '/apis/apps/', '/apis/apps/v1/', '/apis/scheduling.k8s.io/', '/apis/scheduling.k8s.io/v1/']) expect(doc.paths[p], p).toBeDefined();
    expect(doc.paths['/apis/'].get.operationId).toBe('getAPIVersions');
    expect(doc.paths['/api/'].get.operationId).toBe('getCoreAPIVersions');
    expect(doc.paths['/apis/scheduling.k8s.io/'].get.operationId).toBe('getSchedulingAPIGroup');
    expect(doc.paths['/apis/scheduling.k8s.io/'].get.tags).toEqual(['scheduling']);
    expect(doc.paths['/apis/scheduling.k8s.io/v1/priorityclasses'].post.operationId).toBe('createSchedulingV1PriorityClass');
    expect(doc.paths['/apis/scheduling.k8s.io/v1/priorityclasses'].delete.operationId).toBe('deleteSchedulingV1CollectionPriorityClass');
    expect(doc.paths['/apis/scheduling.k8s.io/v1/watch/priorityclasses/{name}'].get.operationId).toBe('watchSchedulingV1PriorityClass');
  });

  it("shares parameters under #/parameters with kube-openapi's names", () => {
    // The names are kube's own (FNV hash of Go's JSON of the parameter).
    expect(Object.keys(doc.parameters)).toEqual(
      expect.arrayContaining(['pretty-tJGM1-ng', 'namespace-vgWSWtn3', 'fieldManager-Qy4HdaTW', 'gracePeriodSeconds--K5HaBOS', 'body-2Y1dVQaQ']),
    );
    expect(doc.parameters['body-2Y1dVQaQ']).toEqual({ in: 'body', name: 'body', schema: { $ref: `#/definitions/${META}.DeleteOptions` } });
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}'];
    expect(item.parameters).toEqual([
      { description: 'name of the StatefulSet', in: 'path', name: 'name', required: true, type: 'string', uniqueItems: true },
      { $ref: '#/parameters/namespace-vgWSWtn3' },
      { $ref: '#/parameters/pretty-tJGM1-ng' },
    ]);
    // dryRun and fieldValidation stay inline: kubectl <= 1.27 looks for them there.
    const patch = item.patch;
    // The generic Patch body is shared too, under kube's name.
    expect(patch.parameters[0]).toEqual({ $ref: '#/parameters/body-78PwaGsr' });
    expect(doc.parameters['body-78PwaGsr']).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: `#/definitions/${META}.Patch` } });
    expect(patch.parameters.find((p: Json) => p.name === 'fieldValidation')).toMatchObject({ in: 'query', type: 'string', uniqueItems: true });
    expect(patch.parameters.find((p: Json) => p.name === 'dryRun')).toMatchObject({ in: 'query' });
    expect(patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    expect(patch.produces).toEqual(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    expect(patch.schemes).toEqual(['https']);
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'StatefulSet', version: 'v1' });
    const create = doc.paths['/apis/apps/v1/namespaces/{namespace}/statefulsets'].post;
    expect(create.parameters[0]).toEqual({ in: 'body', name: 'body', required: true, schema: { $ref: `#/definitions/${APPS}.StatefulSet` } });
    expect(create.responses['201']).toEqual({ description: 'Created', schema: { $ref: `#/definitions/${APPS}.StatefulSet` } });
  });

  it('resolves every $ref and has no v3-only constructs', () => {
    for (const [at, ref] of refsOf(doc)) {
      expect(ref, at).toMatch(/^#\/(definitions|parameters)\//);
      expect(resolve(doc, ref), `${at} -> ${ref}`).toBeTypeOf('object');
    }
    expect(everyKey(doc, 'default')).toEqual([]);
    expect(everyKey(doc, 'allOf')).toEqual([]);
    expect(everyKey(doc, 'oneOf')).toEqual([]);
    const d = doc.definitions as Record<string, Json>;
    expect(d['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', type: 'string' });
    expect(d['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({ type: 'string' });
    expect(d[`${APPS}.StatefulSet`].properties.metadata).toEqual({ $ref: `#/definitions/${META}.ObjectMeta`, description: "Standard object's metadata." });
    expect(d[`${APPS}.StatefulSetSpec`].properties.updateStrategy).toEqual({
      $ref: `#/definitions/${APPS}.StatefulSetUpdateStrategy`,
      description: 'updateStrategy indicates the StatefulSetUpdateStrategy.',
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
    for (const k of [`${APPS}.StatefulSet`, `${CORE}.Namespace`, 'io.k8s.api.scheduling.v1.PriorityClass', 'io.kapi.example.v1.Widget']) {
      expect(d[k]?.['x-kubernetes-group-version-kind'], k).toHaveLength(1);
    }
  });
});

describe('gnostic protobuf (application/com.github.proto-openapi.spec.v2@v1.0+protobuf)', () => {
  const doc = buildOpenAPIV2(DEFS.map(apiResourceOf), REGISTRY) as Json;
  const pb = encodeOpenAPIV2Protobuf(doc);

  it('decodes back to the same document', () => {
    expect(pb.length).toBeGreaterThan(1000);
    expect(decodeOpenAPIV2Protobuf(pb)).toEqual(doc);
  });

  it('has the gnostic field layout', () => {
    const type = openAPIV2Root().lookupType('openapi.v2.Document');
    const m = type.toObject(type.decode(pb), { arrays: true }) as Json;
    expect(m.swagger).toBe('2.0');
    // Field 9 (definitions), entries as NamedSchema.
    const sts = m.definitions.additional_properties.find((n: Json) => n.name === `${APPS}.StatefulSet`);
    expect(sts.value.type.value).toEqual(['object']);
    const gvk = sts.value.vendor_extension.find((e: Json) => e.name === 'x-kubernetes-group-version-kind');
    expect(parseYaml(gvk.value.yaml)).toEqual([{ group: 'apps', kind: 'StatefulSet', version: 'v1' }]);
    // A PATCH operation with its gvk extension and the inline fieldValidation query parameter.
    const item = m.paths.path.find((p: Json) => p.name === '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}');
    const patch = item.value.patch;
    expect(patch.operation_id).toBe('patchAppsV1NamespacedStatefulSet');
    expect(patch.vendor_extension.map((e: Json) => e.name)).toEqual(['x-kubernetes-action', 'x-kubernetes-group-version-kind']);
    expect(parseYaml(patch.vendor_extension[1].value.yaml)).toEqual({ group: 'apps', kind: 'StatefulSet', version: 'v1' });
    const fv = patch.parameters.find((p: Json) => p.parameter?.non_body_parameter?.query_parameter_sub_schema?.name === 'fieldValidation');
    expect(fv.parameter.non_body_parameter.query_parameter_sub_schema).toMatchObject({ in: 'query', type: 'string', unique_items: true });
    expect(patch.parameters[0].json_reference._ref).toBe('#/parameters/body-78PwaGsr');
    // A $ref with a sibling description, as kube's v2 writes it.
    const spec = m.definitions.additional_properties.find((n: Json) => n.name === `${APPS}.StatefulSet`).value.properties.additional_properties.find((p: Json) => p.name === 'spec');
    expect(spec.value._ref).toBe(`#/definitions/${APPS}.StatefulSetSpec`);
    // Field numbers, checked on the wire: Document.swagger (1, string) comes first.
    expect(pb[0]).toBe((1 << 3) | 2);
    expect(pb.subarray(2, 2 + pb[1]).toString()).toBe('2.0');
  });
});

describe('/openapi/v3 index, hashes and negotiation', () => {
  it('builds the index with hash query parameters', () => {
    const body = JSON.stringify(buildOpenAPIV3(DEFS.map(apiResourceOf), REGISTRY, 'apps/v1'));
    const hash = openapiHash(body);
    expect(hash).toMatch(/^[0-9A-F]{128}$/);
    expect(openapiV3Index(['apps/v1', 'v1', 'apis'], { 'apps/v1': hash, 'api/v1': 'ABC' })).toEqual({
      paths: {
        'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=ABC' },
        apis: { serverRelativeURL: '/openapi/v3/apis' },
        'apis/apps/v1': { serverRelativeURL: `/openapi/v3/apis/apps/v1?hash=${hash}` },
      },
    });
    expect(Object.keys(openapiV3Index(['apis/apps/v1', 'apis/apps'], {}).paths)).toEqual(['apis/apps', 'apis/apps/v1']);
  });

  it('negotiates representations as kube-openapi does', () => {
    expect(negotiateOpenAPIV2(undefined)).toEqual({ format: 'json', contentType: 'application/json' });
    expect(negotiateOpenAPIV2('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toEqual({
      format: 'protobuf',
      contentType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    });
    expect(negotiateOpenAPIV2('application/*')?.format).toBe('json');
    expect(negotiateOpenAPIV2('*/*')?.format).toBe('json');
    expect(negotiateOpenAPIV2('application/com.github.proto-openapi.spec.v2.v1.0+protobuf')?.format).toBe('protobuf');
    expect(negotiateOpenAPIV2('application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json')?.format).toBe('protobuf');
    expect(negotiateOpenAPIV2('text/html')).toBeUndefined();
    expect(negotiateOpenAPIV3('application/json, */*')).toEqual({ format: 'json', contentType: 'application/json' });
    expect(negotiateOpenAPIV3('application/com.github.proto-openapi.spec.v3@v1.0+protobuf')).toBeUndefined();
    expect(negotiateOpenAPIV3('application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json')?.format).toBe('json');
    expect(negotiateOpenAPIV3('text/plain')).toBeUndefined();
  });
});
