// The OpenAPI endpoints: /openapi/v2 (JSON, or gnostic protobuf for older clients) and
// /openapi/v3 with one document per group-version, all generated from the schema source.
// Documents are built once and kept as bytes with their hashes (kube-openapi's caching).

import type Router from '@koa/router';
import type { Context } from 'koa';
import { apiResourceOf, type ResourceDef } from '../registry/types.js';
import { parseAccept } from '../codec/negotiate.js';
import { describedSchemas } from '../schema/types/index.js';
import type { SchemaRegistry } from '../schema/model.js';
import { apiVersionOf } from '../machinery/api-resource.js';
import { notAcceptable } from '../machinery/errors.js';

interface Doc {
  json: Buffer;
  hash: string;
}

// The OpenAPI builders and the descriptions are loaded on the first request for a
// document: kubectl asks for them once and caches them; start-up should not pay for them.
type OpenAPIModule = typeof import('../schema/openapi/index.js');
let loaded: Promise<{ api: OpenAPIModule; schemas: SchemaRegistry }> | undefined;
let openapiHash: (body: string | Uint8Array) => string;
const load = () =>
  (loaded ??= Promise.all([import('../schema/openapi/index.js'), describedSchemas()]).then(([api, schemas]) => {
    openapiHash = api.openapiHash;
    return { api, schemas };
  }));

const doc = (value: object): Doc => {
  const json = Buffer.from(JSON.stringify(value));
  return { json, hash: openapiHash(json) };
};

const v3Key = (gv: string): string => (gv.includes('/') ? `apis/${gv}` : `api/${gv}`);

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/** The protobuf media type kube answers /openapi/v2 with (Go's mime parser rejects the '@' form). */
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

export interface OpenAPIRepresentation {
  format: 'json' | 'protobuf';
  /** The Content-Type to answer with. */
  contentType: string;
}

type Row = [type: string, subType: string, rep: OpenAPIRepresentation];

function negotiate(accept: string | undefined, table: Row[]): OpenAPIRepresentation | undefined {
  // As kube-openapi's handlers: an empty header means */*, clauses are tried in goautoneg's
  // order (q is not a filter), and the first table row a clause matches wins.
  const clauses = parseAccept(accept && accept.length > 0 ? accept : '*/*');
  for (const c of clauses) {
    for (const [type, subType, rep] of table) {
      if (c.type !== type && c.type !== '*') continue;
      if (c.subType !== subType && c.subType !== '*') continue;
      return rep;
    }
  }
  return undefined;
}

const JSON_REP: OpenAPIRepresentation = { format: 'json', contentType: 'application/json' };
const V2_PROTOBUF: OpenAPIRepresentation = { format: 'protobuf', contentType: OPENAPI_V2_PROTOBUF_CONTENT_TYPE };

/**
 * The representation of /openapi/v2 for an Accept header, or undefined (answer 406).
 * kubectl <= 1.27 and client-go's OpenAPISchema() send
 * `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`; kube answers with
 * Content-Type application/com.github.proto-openapi.spec.v2.v1.0+protobuf.
 */
export function negotiateOpenAPIV2(accept: string | undefined): OpenAPIRepresentation | undefined {
  return negotiate(accept, [
    ['application', 'json', JSON_REP],
    ['application', 'com.github.proto-openapi.spec.v2@v1.0+protobuf', V2_PROTOBUF],
    ['application', 'com.github.proto-openapi.spec.v2.v1.0+protobuf', V2_PROTOBUF],
  ]);
}

/**
 * The representation of /openapi/v3/<gv> for an Accept header, or undefined (answer 406).
 * kube also offers application/com.github.proto-openapi.spec.v3.v1.0+protobuf; kapi serves
 * JSON only (kubectl and client-go ask for JSON).
 */
export function negotiateOpenAPIV3(accept: string | undefined): OpenAPIRepresentation | undefined {
  return negotiate(accept, [['application', 'json', JSON_REP]]);
}

export function installOpenAPI(router: Router, defs: () => ResourceDef[], serverVersion = 'v1.33.0'): void {
  let v2: Doc | undefined;
  let v2Protobuf: Buffer | undefined;
  let v3: Map<string, Doc> | undefined;
  let index: Doc | undefined;
  const lastModified = new Date().toUTCString();

  const v2Doc = async () => {
    if (v2) return v2;
    const { api, schemas } = await load();
    return (v2 = doc(api.buildOpenAPIV2(defs().map(apiResourceOf), schemas, { infoVersion: serverVersion })));
  };
  const v3Docs = async () => {
    if (v3) return v3;
    const { api, schemas } = await load();
    const all = defs().map(apiResourceOf);
    const gvs = [...new Set(all.map((d) => apiVersionOf(d)))];
    v3 = new Map(gvs.map((gv) => [v3Key(gv), doc(api.buildOpenAPIV3(all, schemas, gv, { infoVersion: serverVersion }))]));
    return v3;
  };
  const v3Index = async () => {
    if (index) return index;
    const docs = await v3Docs();
    const { api } = await load();
    const hashes = Object.fromEntries([...docs].map(([k, d]) => [k, d.hash]));
    index = doc(api.openapiV3Index([...docs.keys()], hashes));
    return index;
  };

  /** ETag and 304 handling shared by every document; true when the answer is a 304. */
  const notModified = (ctx: Context, hash: string): boolean => {
    ctx.set('ETag', `"${hash}"`);
    ctx.set('Vary', 'Accept');
    if (ctx.get('if-none-match') === `"${hash}"`) {
      ctx.status = 304;
      return true;
    }
    return false;
  };

  // kube's mux serves the documents for any method, at exact paths.
  router.all(/^\/openapi\/v2$/, async (ctx) => {
    const { api } = await load();
    const rep = negotiateOpenAPIV2(ctx.get('accept') || undefined);
    if (!rep) throw notAcceptable(['application/json', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf']);
    const d = await v2Doc();
    ctx.set('Last-Modified', lastModified);
    if (notModified(ctx, d.hash)) return;
    ctx.set('Content-Type', rep.contentType);
    ctx.body = rep.format === 'protobuf' ? (v2Protobuf ??= api.encodeOpenAPIV2Protobuf(JSON.parse(d.json.toString('utf8')) as object)) : d.json;
  });

  router.all(/^\/openapi\/v3\/?$/, async (ctx) => {
    const d = await v3Index();
    if (notModified(ctx, d.hash)) return;
    ctx.set('Content-Type', 'application/json');
    ctx.body = d.json;
  });

  router.all(/^\/openapi\/v3\/(.+)$/, async (ctx) => {
    const key = ctx.path.slice('/openapi/v3/'.length);
    const d = (await v3Docs()).get(key);
    if (!d) {
      // kube-openapi's v3 handler answers an unknown group-version with a bare 404.
      ctx.status = 404;
      ctx.body = '';
      ctx.remove('Content-Type');
      return;
    }
    const rep = negotiateOpenAPIV3(ctx.get('accept') || undefined);
    if (!rep) throw notAcceptable(['application/json']);
    const hash = typeof ctx.query.hash === 'string' ? ctx.query.hash : undefined;
    if (hash !== undefined && hash !== d.hash) {
      // An outdated hash: send the client to the current document, as kube-openapi does.
      ctx.status = 301;
      ctx.set('Location', `/openapi/v3/${key}?hash=${d.hash}`);
      return;
    }
    if (hash !== undefined) {
      ctx.set('Cache-Control', 'public, immutable');
      ctx.set('Expires', new Date(Date.now() + ONE_YEAR_MS).toUTCString());
    }
    if (notModified(ctx, d.hash)) return;
    ctx.set('Content-Type', 'application/json');
    ctx.body = d.json;
  });
}
