// The endpoint for every resource path: finds the type, negotiates the response, and
// dispatches on the verb resolved by request info. Only the verbs a type serves exist.

import type { Context } from 'koa';
import type { RequestInfo } from './request-info.js';
import type { GenericStore } from '../registry/generic/store.js';
import { isPrettyPrint, negotiateOutput, resourceRouteProduces, routeAccepts, routeNotAcceptable } from '../codec/negotiate.js';
import { genericNotFound, methodNotAllowed, badRequest } from '../machinery/errors.js';
import type { Scope } from './scope.js';
import { handleGet } from './get.js';
import { handleList } from './list.js';
import { handleCreate } from './create.js';
import { handleUpdate } from './update.js';
import { handleDelete, handleDeleteCollection } from './delete.js';
import { handleWatch, type WatchConfig } from './watch.js';
import { handlePatch } from './patch.js';

export interface ResourceLookup {
  find(group: string, version: string, resource: string): GenericStore | undefined;
}

export function resourceHandler(lookup: ResourceLookup, watchCfg: WatchConfig) {
  return async (ctx: Context): Promise<void> => {
    const info = ctx.state.requestInfo as RequestInfo;
    const store = lookup.find(info.apiGroup, info.apiVersion, info.resource);
    if (!store) throw genericNotFound();
    const def = store.def;
    if (info.namespace && !def.namespaced) throw genericNotFound();
    // An action subresource (pods/binding) only takes a POST.
    if (info.subresource && info.name && def.actions?.[info.subresource] && info.verb !== 'create') throw methodNotAllowed();
    // go-restful's route check, then the handler's negotiation (the list route also produces streams).
    const accept = ctx.get('accept') || undefined;
    const produces = resourceRouteProduces(info.verb === 'list' || info.verb === 'watch');
    if (!routeAccepts(accept, produces)) throw routeNotAcceptable(produces);
    const out = negotiateOutput(accept);
    const query = new URLSearchParams(ctx.querystring);
    const pretty = out.pretty === true || isPrettyPrint(ctx.querystring, ctx.get('user-agent'));
    const s: Scope = { ctx, info, def, store, query, out, pretty };
    switch (info.verb) {
      case 'get':
        return handleGet(s);
      case 'list':
        return handleList(s);
      case 'watch':
        return handleWatch(s, watchCfg);
      case 'create':
        return handleCreate(s);
      case 'update':
        return handleUpdate(s);
      case 'delete':
        return handleDelete(s);
      case 'deletecollection':
        if (def.verbs && !def.verbs.includes('deletecollection')) throw methodNotAllowed();
        return handleDeleteCollection(s);
      case 'patch':
        return handlePatch(s);
      case 'unknown':
        throw badRequest('invalid request');
      default:
        throw methodNotAllowed();
    }
  };
}
