// Requests to a read-only resource without storage (ComponentStatus): get and list, with the
// same negotiation, Table and deprecation handling as stored types; a watch is kube's 405.

import type { Context } from 'koa';
import type { RequestInfo } from './request-info.js';
import type { ReadOnlyREST } from '../registry/types.js';
import { isPrettyPrint, negotiateOutput, resourceRouteProduces, routeAccepts, routeNotAcceptable } from '../codec/negotiate.js';
import { StatusError, genericNotFound, methodNotAllowed } from '../machinery/errors.js';
import { parseIncludeObject, respondStatus, tableOf } from './respond.js';
import { noteDeprecatedRequest } from './deprecation.js';

export async function handleReadOnly(ctx: Context, info: RequestInfo, rest: ReadOnlyREST): Promise<void> {
  const def = rest.def;
  if ((info.namespace && !def.namespaced) || info.subresource) throw genericNotFound();
  if (info.verb !== 'get' && info.verb !== 'list' && info.verb !== 'watch') throw methodNotAllowed();
  // Kube's routes for the resource carry the deprecation warning, the watch's 405 included.
  noteDeprecatedRequest(ctx, def, info.subresource);
  if (info.verb === 'watch') {
    throw new StatusError(405, 'MethodNotAllowed', `watch is not supported on resources of kind ${JSON.stringify(def.resource)}`, { kind: def.resource });
  }
  const accept = ctx.get('accept') || undefined;
  const produces = resourceRouteProduces(info.verb === 'list');
  if (!routeAccepts(accept, produces)) throw routeNotAcceptable(produces);
  const out = negotiateOutput(accept);
  const query = new URLSearchParams(ctx.querystring);
  const pretty = out.pretty === true || isPrettyPrint(ctx.querystring, ctx.get('user-agent'));
  const objs = info.verb === 'get' ? [await rest.get(info.name)] : await rest.list();
  if (out.table) {
    respondStatus(ctx, tableOf(def, objs, {}, out, parseIncludeObject(query.get('includeObject'))), 200, out, pretty);
    return;
  }
  const doc = info.verb === 'get' ? objs[0] : { kind: def.listKind, apiVersion: def.version, metadata: {}, items: objs.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) };
  respondStatus(ctx, doc, 200, out, pretty);
}
