// What every verb handler needs about the request, resolved once by the dispatcher.

import type { Context } from 'koa';
import type { OutputFormat } from '../codec/negotiate.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { KObject, ResourceDef } from '../registry/types.js';
import type { RequestInfo } from '../server/request-info.js';
import { decodeBody, readBody } from '../codec/body.js';
import { apiVersionOf } from '../registry/types.js';
import { badRequest } from './status-error.js';

export interface Scope {
  ctx: Context;
  info: RequestInfo;
  def: ResourceDef;
  store: GenericStore;
  query: URLSearchParams;
  out: OutputFormat;
  pretty: boolean;
}

/** Reads and decodes the request body as an object of the scope's kind. */
export async function readObject(s: Scope): Promise<KObject> {
  const body = await readBody(s.ctx.req);
  const target = { kind: s.def.kind, apiVersion: apiVersionOf(s.def) };
  const doc = decodeBody(body, s.ctx.get('content-type') || undefined, target);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw badRequest(`${target.kind} in version "${s.def.version}" cannot be handled as a ${target.kind}: json: cannot unmarshal ${Array.isArray(doc) ? 'array' : typeof doc} into Go value of type struct`);
  }
  const obj = doc as KObject;
  const want = apiVersionOf(s.def);
  if (obj.kind !== undefined && obj.kind !== s.def.kind && typeof obj.kind === 'string') {
    // Another kind cannot be converted into this one, whatever its version.
    const v = typeof obj.apiVersion === 'string' ? obj.apiVersion.split('/').pop() : '';
    throw badRequest(
      `${obj.kind} in version "${v}" cannot be handled as a ${s.def.kind}: no conversion from kind "${obj.kind}" (${String(obj.apiVersion)}) to kind "${s.def.kind}" (${want})`,
    );
  }
  if (obj.apiVersion !== undefined && obj.apiVersion !== want) {
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${want})`);
  }
  if (obj.kind !== undefined && obj.kind !== s.def.kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${s.def.kind})`);
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) {
    throw badRequest(`${s.def.kind} in version "${s.def.version}" cannot be handled as a ${s.def.kind}: json: cannot unmarshal ${typeof obj.metadata} into Go struct field ${s.def.kind}.metadata of type v1.ObjectMeta`);
  }
  return obj;
}

/** Parses an optional non-negative integer query parameter. */
export function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?[0-9]+$/.test(v)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}`);
  return Number(v);
}
