// kapi's OpenAPI documents, generated from the ResourceDefs and the schema registry:
//   /openapi/v2                  buildOpenAPIV2 (JSON) / encodeOpenAPIV2Protobuf (gnostic protobuf)
//   /openapi/v3                  openapiV3Index
//   /openapi/v3/apis/<g>/<v>     buildOpenAPIV3
// plus kube-openapi's ETag hash, which the routes need to answer as kube-apiserver does.

import { createHash } from 'node:crypto';
import { sortKeys } from './schemas.js';

export { buildOpenAPIV3, type OpenAPIOptions } from './v3.js';
export { buildOpenAPIV2 } from './v2.js';
export { encodeOpenAPIV2Protobuf, decodeOpenAPIV2Protobuf, OPENAPI_V2_PROTO, openAPIV2Root } from './gnostic-proto.js';
export { groupCamel, tagOf } from './paths.js';
export { parseGroupVersion, v3Key } from './context.js';

/** kube-openapi's ETag and `hash` value: the upper-case hex SHA-512 of the exact JSON bytes served. */
export function openapiHash(body: string | Uint8Array): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

const VERSION = /^v\d+(?:(?:alpha|beta)\d+)?$/;

/** "apps/v1" -> "apis/apps/v1", "v1" -> "api/v1"; served keys ("apis/apps/v1", "apis", "version", ...) stay as they are. */
function v3IndexKey(gv: string): string {
  if (gv === 'api' || gv === 'apis' || gv.startsWith('api/') || gv.startsWith('apis/')) return gv;
  if (VERSION.test(gv)) return `api/${gv}`;
  const i = gv.indexOf('/');
  if (i > 0 && gv.indexOf('/', i + 1) < 0 && VERSION.test(gv.slice(i + 1))) return `apis/${gv}`;
  return gv;
}

/**
 * The /openapi/v3 discovery document.
 * @param groupVersions "apps/v1", "v1", or keys as served ("apis/apps/v1", "api/v1", "apis", ...)
 * @param hashes openapiHash of each document's JSON, keyed like `groupVersions` (or by the served key)
 */
export function openapiV3Index(groupVersions: string[], hashes: Record<string, string>): { paths: Record<string, { serverRelativeURL: string }> } {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of groupVersions) {
    const key = v3IndexKey(gv);
    const hash = hashes[gv] ?? hashes[key];
    paths[key] = { serverRelativeURL: hash ? `/openapi/v3/${key}?hash=${hash}` : `/openapi/v3/${key}` };
  }
  return sortKeys({ paths });
}
