// OpenAPI documents generated from the served resource types. For now they describe
// the operations and their parameters (which is how kubectl detects server-side field
// validation and dry run); object schemas are open objects until the schema layer lands.

import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { apiVersionOf, verbsOf, type ResourceDef } from '../registry/types.js';
import { genericNotFound } from './status-error.js';

type Json = Record<string, unknown>;

const param = (name: string, type: string, description: string, where = 'query'): Json => ({
  name,
  in: where,
  description,
  schema: { type, uniqueItems: true },
});

const Q = {
  pretty: param('pretty', 'string', "If 'true', then the output is pretty printed."),
  dryRun: param('dryRun', 'string', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: param('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  fieldValidation: param('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn (default), Strict.'),
  force: param('force', 'boolean', 'Force is going to "force" Apply requests.'),
  gracePeriodSeconds: param('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted.'),
  propagationPolicy: param('propagationPolicy', 'string', "Whether and how garbage collection will be performed: 'Orphan', 'Background' or 'Foreground'."),
  ignoreStoreReadError: param('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean', 'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.'),
  list: ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'].map((n) =>
    param(n, ['allowWatchBookmarks', 'sendInitialEvents', 'watch'].includes(n) ? 'boolean' : ['limit', 'timeoutSeconds'].includes(n) ? 'integer' : 'string', n),
  ),
};

/** The group as kube's operation ids spell it: apps -> Apps, scheduling.k8s.io -> Scheduling, core -> Core. */
function groupCamel(def: ResourceDef): string {
  const g = def.group === '' ? 'core' : def.group.replace(/\.k8s\.io$/, '');
  return g
    .split(/[.-]/)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
}

function gvkExt(def: ResourceDef, kind = def.kind): Json {
  return { group: def.group, version: def.version, kind };
}

function refName(def: ResourceDef, kind = def.kind): string {
  const g = def.group ? def.group.split('.').reverse().join('.') : 'core';
  // kube's definition names: io.k8s.api.<group>.<version>.<Kind>
  const group = def.group === '' ? 'core' : def.group.replace(/\.k8s\.io$/, '');
  void g;
  return `io.k8s.api.${group}.${def.version}.${kind}`;
}

function operations(def: ResourceDef, v3: boolean): Record<string, Json> {
  const ref = (kind?: string) =>
    v3 ? { content: { 'application/json': { schema: { $ref: `#/components/schemas/${refName(def, kind)}` } } } } : { schema: { $ref: `#/definitions/${refName(def, kind)}` } };
  const body = (kind?: string) => (v3 ? { requestBody: { required: true, ...ref(kind) } } : { parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: `#/definitions/${refName(def, kind)}` } }] });
  const ok = (kind?: string) => ({ '200': { description: 'OK', ...ref(kind) } });
  const ext = (action: string, kind?: string) => ({ 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvkExt(def, kind) });
  const tag = `${def.group ? def.group.replace(/\./g, '_') : 'core'}_${def.version}`;
  // kube's operation ids: <verb><Group><Version>[Namespaced]<Kind>, e.g. createAppsV1NamespacedStatefulSet.
  const ns = `${groupCamel(def)}${def.version[0].toUpperCase()}${def.version.slice(1)}${def.namespaced ? 'Namespaced' : ''}`;
  const verbs = verbsOf(def);
  const withParams = (op: Json, params: Json[]) => {
    const existing = (op.parameters as Json[] | undefined) ?? [];
    return { ...op, parameters: [...existing, ...params] };
  };
  const collection: Json = {};
  collection.get = withParams({ tags: [tag], operationId: `list${ns}${def.kind}`, responses: ok(def.listKind), ...ext('list', def.kind) }, [Q.pretty, ...Q.list]);
  collection.post = withParams(
    {
      tags: [tag],
      operationId: `create${ns}${def.kind}`,
      ...body(),
      responses: { ...ok(), '201': { description: 'Created', ...ref() }, '202': { description: 'Accepted', ...ref() }, '401': { description: 'Unauthorized' } },
      ...ext('post'),
    },
    [Q.pretty, Q.dryRun, Q.fieldManager, Q.fieldValidation],
  );
  if (verbs.includes('deletecollection')) {
    collection.delete = withParams({ tags: [tag], operationId: `deletecollection${ns}${def.kind}`, responses: { '200': { description: 'OK' } }, ...ext('deletecollection') }, [Q.pretty, Q.dryRun, Q.gracePeriodSeconds, Q.ignoreStoreReadError, Q.propagationPolicy, ...Q.list]);
  }
  const item: Json = {
    get: withParams({ tags: [tag], operationId: `read${ns}${def.kind}`, responses: ok(), ...ext('get') }, [Q.pretty]),
    put: withParams({ tags: [tag], operationId: `replace${ns}${def.kind}`, ...body(), responses: ok(), ...ext('put') }, [Q.pretty, Q.dryRun, Q.fieldManager, Q.fieldValidation]),
    patch: withParams({ tags: [tag], operationId: `patch${ns}${def.kind}`, responses: ok(), ...ext('patch') }, [Q.pretty, Q.dryRun, Q.fieldManager, Q.fieldValidation, Q.force]),
    delete: withParams({ tags: [tag], operationId: `delete${ns}${def.kind}`, responses: { '200': { description: 'OK' } }, ...ext('delete') }, [Q.pretty, Q.dryRun, Q.gracePeriodSeconds, Q.ignoreStoreReadError, Q.propagationPolicy]),
  };
  const base = `/${def.group ? `apis/${def.group}` : 'api'}/${def.version}`;
  const nsParam = param('namespace', 'string', 'object name and auth scope, such as for teams and projects', 'path');
  const nameParam = param('name', 'string', `name of the ${def.kind}`, 'path');
  const paths: Record<string, Json> = {};
  if (def.namespaced) {
    paths[`${base}/namespaces/{namespace}/${def.resource}`] = { ...collection, parameters: [nsParam] };
    paths[`${base}/namespaces/{namespace}/${def.resource}/{name}`] = { ...item, parameters: [nameParam, nsParam] };
    for (const sub of Object.keys(def.subresources ?? {})) {
      paths[`${base}/namespaces/{namespace}/${def.resource}/{name}/${sub}`] = { ...subresourceOps(item, sub), parameters: [nameParam, nsParam] };
    }
    paths[`${base}/${def.resource}`] = { get: collection.get };
  } else {
    paths[`${base}/${def.resource}`] = collection;
    paths[`${base}/${def.resource}/{name}`] = { ...item, parameters: [nameParam] };
    for (const sub of Object.keys(def.subresources ?? {})) {
      paths[`${base}/${def.resource}/{name}/${sub}`] = { ...subresourceOps(item, sub), parameters: [nameParam] };
    }
  }
  return paths;
}

/** A subresource's operations: the object's, with kube's ids (replace...StatefulSetStatus). */
function subresourceOps(item: Json, sub: string): Json {
  const suffix = sub[0].toUpperCase() + sub.slice(1);
  const verbs = sub === 'finalize' ? ['put'] : ['get', 'put', 'patch'];
  const out: Json = {};
  for (const v of verbs) {
    const op = item[v] as Json;
    out[v] = { ...op, operationId: `${String(op.operationId)}${suffix}` };
  }
  return out;
}

function schemas(def: ResourceDef): Record<string, Json> {
  const obj = (kind: string): Json => ({
    type: 'object',
    description: `${kind} (${apiVersionOf(def)})`,
    'x-kubernetes-group-version-kind': [gvkExt(def, kind)],
  });
  return { [refName(def)]: obj(def.kind), [refName(def, def.listKind)]: obj(def.listKind) };
}

function groupVersionKey(def: ResourceDef): string {
  return def.group ? `apis/${def.group}/${def.version}` : `api/${def.version}`;
}

function v3Doc(defs: ResourceDef[]): Json {
  const paths: Record<string, Json> = {};
  const comps: Record<string, Json> = {};
  for (const d of defs) {
    Object.assign(paths, operations(d, true));
    Object.assign(comps, schemas(d));
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.33.0' }, paths, components: { schemas: comps } };
}

function v2Doc(defs: ResourceDef[]): Json {
  const paths: Record<string, Json> = {};
  const definitions: Record<string, Json> = {};
  for (const d of defs) {
    Object.assign(paths, operations(d, false));
    Object.assign(definitions, schemas(d));
  }
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.33.0' }, paths, definitions };
}

interface Rendered {
  body: string;
  etag: string;
}

const render = (doc: Json): Rendered => {
  const body = JSON.stringify(doc);
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').slice(0, 64).toUpperCase()}"` };
};

function serve(ctx: Context, r: Rendered, immutable: boolean): void {
  ctx.set('ETag', r.etag);
  ctx.set('Vary', 'Accept');
  ctx.set('Cache-Control', immutable ? 'public, immutable' : 'no-cache, private');
  if (ctx.get('if-none-match') === r.etag) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = r.body;
}

export function installOpenAPI(router: Router, defs: () => ResourceDef[]): void {
  let cache: { v2: Rendered; gv: Map<string, Rendered> } | undefined;
  const docs = () => {
    if (cache) return cache;
    const all = defs();
    const byGv = new Map<string, ResourceDef[]>();
    for (const d of all) byGv.set(groupVersionKey(d), [...(byGv.get(groupVersionKey(d)) ?? []), d]);
    cache = { v2: render(v2Doc(all)), gv: new Map([...byGv].map(([k, ds]) => [k, render(v3Doc(ds))])) };
    return cache;
  };
  router.get('/openapi/v2', (ctx) => serve(ctx, docs().v2, false));
  router.get('/openapi/v3', (ctx) => {
    const paths: Record<string, Json> = {};
    for (const [k, r] of docs().gv) paths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=${r.etag.slice(1, -1)}` };
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ paths });
  });
  router.get(/^\/openapi\/v3\/(.+)$/, (ctx) => {
    const key = (ctx.params as Record<string, string>)[0] ?? ctx.path.slice('/openapi/v3/'.length);
    const r = docs().gv.get(key);
    if (!r) throw genericNotFound();
    serve(ctx, r, ctx.query.hash !== undefined);
  });
}
