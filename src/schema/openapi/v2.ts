// The swagger 2.0 document of the whole server, as kube-apiserver serves it at /openapi/v2:
// every group version's paths, shared parameters under #/parameters (named as kube-openapi
// names them), and every reachable definition under #/definitions, without `default`s.

import type { SchemaRegistry } from '../model.js';
import type { APIResource } from '../../machinery/api-resource.js';
import { BEARER_TOKEN, DEFAULT_INFO_VERSION, prepare } from './context.js';
import { discoveryRootPaths, groupRootPath, groupVersionRootPath, referencedDefinitions, renderV2, resourcePaths, type PathItem } from './paths.js';
import { SchemaConverter, sortKeys, type Json } from './schemas.js';
import type { OpenAPIOptions } from './v3.js';

export function buildOpenAPIV2(defs: APIResource[], registry: SchemaRegistry, opts: OpenAPIOptions = {}): Json {
  const prepared = prepare(defs, registry);
  const items: PathItem[] = [...discoveryRootPaths()];
  const groups = new Set<string>();
  const gvs = new Set<string>();
  for (const d of defs) {
    if (d.group && !groups.has(d.group)) {
      groups.add(d.group);
      items.push(groupRootPath(d.group));
    }
    const gvKey = `${d.group}/${d.version}`;
    if (!gvs.has(gvKey)) {
      gvs.add(gvKey);
      items.push(groupVersionRootPath(d.group, d.version));
    }
    items.push(...resourcePaths(d, prepared.naming));
  }
  const roots = referencedDefinitions(items);
  for (const d of defs) {
    const k = prepared.kindDefinitions(d);
    roots.add(k.kind);
    roots.add(k.list);
  }
  const converter = new SchemaConverter({ v3: false, lookup: prepared.lookup, groupVersions: prepared.groupVersions });
  const definitions = converter.reachable([...roots].sort());
  const { paths, parameters } = renderV2(items);
  return sortKeys({
    definitions,
    info: { title: 'Kubernetes', version: opts.infoVersion ?? DEFAULT_INFO_VERSION },
    parameters,
    paths,
    security: [{ BearerToken: [] }],
    securityDefinitions: { BearerToken: { ...BEARER_TOKEN } },
    swagger: '2.0',
  });
}
