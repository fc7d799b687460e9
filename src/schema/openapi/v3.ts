// The OpenAPI 3.0 document of one group version, as kube-apiserver serves it at
// /openapi/v3/apis/<group>/<version> (or /openapi/v3/api/v1).

import type { SchemaRegistry } from '../model.js';
import type { APIResource } from '../../machinery/api-resource.js';
import { BEARER_TOKEN, DEFAULT_INFO_VERSION, parseGroupVersion, prepare } from './context.js';
import { groupVersionRootPath, referencedDefinitions, renderV3, resourcePaths, type PathItem } from './paths.js';
import { SchemaConverter, sortKeys, type Json } from './schemas.js';

export interface OpenAPIOptions {
  /** info.version (kube: the server's git version). */
  infoVersion?: string;
}

/**
 * @param defs every served resource (those of other group versions are left out of paths and
 *   components, but name the group versions in DeleteOptions/WatchEvent kind lists)
 * @param groupVersion "apps/v1", "v1", or the /openapi/v3 key form "apis/apps/v1" / "api/v1"
 */
export function buildOpenAPIV3(defs: APIResource[], registry: SchemaRegistry, groupVersion: string, opts: OpenAPIOptions = {}): Json {
  const gv = parseGroupVersion(groupVersion);
  const prepared = prepare(defs, registry);
  const mine = defs.filter((d) => d.group === gv.group && d.version === gv.version);
  const items: PathItem[] = [groupVersionRootPath(gv.group, gv.version), ...mine.flatMap((d) => resourcePaths(d, prepared.naming))];
  const roots = referencedDefinitions(items);
  for (const d of mine) {
    const k = prepared.kindDefinitions(d);
    roots.add(k.kind);
    roots.add(k.list);
  }
  const converter = new SchemaConverter({ v3: true, lookup: prepared.lookup, groupVersions: prepared.groupVersions });
  const schemas = converter.reachable([...roots].sort());
  return sortKeys({
    components: { schemas, securitySchemes: { BearerToken: { ...BEARER_TOKEN } } },
    info: { title: 'Kubernetes', version: opts.infoVersion ?? DEFAULT_INFO_VERSION },
    openapi: '3.0.0',
    paths: renderV3(items),
  });
}
