// The endpoint for every resource path: finds the route (routes.ts: go-restful's 404 and
// 405), negotiates the response, and dispatches on the route's verb. Only the verbs a type
// serves exist.

import type { Context } from 'koa';
import type { RequestInfo } from './request-info.js';
import type { GenericStore } from '../registry/generic/store.js';
import { isPrettyPrint, negotiateOutput, resourceRouteProduces, routeAccepts, routeNotAcceptable } from '../codec/negotiate.js';
import { PageNotFound, genericNotFound, methodNotAllowed } from '../machinery/errors.js';
import { matchResourceRoute, routeVerb } from './routes.js';
import { supportedPatchTypes, unsupportedPatchType } from './patch-types.js';
import { assertViewFits } from './respond.js';
import { baseMediaType } from '../codec/body.js';
import type { Scope } from './scope.js';
import { handleGet } from './get.js';
import { handleList } from './list.js';
import { handleCreate } from './create.js';
import { handleUpdate } from './update.js';
import { handleDelete, handleDeleteCollection } from './delete.js';
import { handleWatch, type WatchConfig } from './watch.js';
import { handlePatch } from './patch.js';
import { handleReadOnly } from './read-only.js';
import { noteDeprecatedRequest } from './deprecation.js';
import type { ReadOnlyREST } from '../registry/types.js';

export interface ResourceLookup {
  find(group: string, version: string, resource: string): GenericStore | undefined;
  /** Resources served without storage (ComponentStatus). */
  findReadOnly?(group: string, version: string, resource: string): ReadOnlyREST | undefined;
  /** Whether a group (a named one; '' is the legacy group) is served at some version. */
  servesGroup(group: string): boolean;
  servesGroupVersion(group: string, version: string): boolean;
}

/** kube treats any watch value but "0" and "false" (even an empty one) as a watch. */
function isWatchParam(v: string | null): boolean {
  if (v === null) return false;
  const l = v.toLowerCase();
  return l !== '0' && l !== 'false';
}

/** The path's segments below the group-version root (`/api/v1`, `/apis/<group>/<version>`). */
function belowRoot(path: string, prefix: string): string[] {
  return path.replace(/^\/+/, '').split('/').slice(prefix === 'api' ? 2 : 3);
}

export function resourceHandler(lookup: ResourceLookup, watchCfg: WatchConfig) {
  return async (ctx: Context): Promise<void> => {
    const info = ctx.state.requestInfo as RequestInfo;
    // A group nobody serves is outside every go-restful web service: the mux's plain 404.
    if (info.apiPrefix === 'apis' && !lookup.servesGroup(info.apiGroup)) throw new PageNotFound();
    if (!lookup.servesGroupVersion(info.apiGroup, info.apiVersion)) throw genericNotFound();
    // A resource served without storage (ComponentStatus) has its own small handler.
    const ro = lookup.find(info.apiGroup, info.apiVersion, info.resource) ? undefined : lookup.findReadOnly?.(info.apiGroup, info.apiVersion, info.resource);
    if (ro) return handleReadOnly(ctx, info, ro);
    const route = matchResourceRoute(belowRoot(ctx.path, info.apiPrefix), (r) => lookup.find(info.apiGroup, info.apiVersion, r)?.def);
    if (!route) throw genericNotFound();
    const verb = routeVerb(route, ctx.method, isWatchParam(new URLSearchParams(ctx.querystring).get('watch')));
    if (!verb) throw methodNotAllowed();
    const store = lookup.find(info.apiGroup, info.apiVersion, route.def.resource)!;
    const def = store.def;
    // Handlers read the object's coordinates from request info; the route is what counts.
    info.namespace = route.namespace;
    info.name = route.name;
    info.subresource = route.subresource;
    noteDeprecatedRequest(ctx, def, info.subresource);
    // go-restful's route checks in its order: the content type a PATCH route consumes, then
    // what the route produces; then the handler's negotiation (the list route also produces streams).
    if (verb === 'patch' && !supportedPatchTypes().includes(baseMediaType(ctx.get('content-type') || undefined))) throw unsupportedPatchType();
    const accept = ctx.get('accept') || undefined;
    const produces = resourceRouteProduces(verb === 'list' || verb === 'watch');
    if (!routeAccepts(accept, produces)) throw routeNotAcceptable(produces);
    const out = negotiateOutput(accept);
    const query = new URLSearchParams(ctx.querystring);
    const pretty = out.pretty === true || isPrettyPrint(ctx.querystring, ctx.get('user-agent'));
    const s: Scope = { ctx, info, def, store, query, out, pretty };
    // A metadata-only view that cannot fit the answer is refused before anything is written.
    if (verb !== 'watch') {
      const own = store.subresourceREST(info.subresource);
      const answersList = verb === 'list' || verb === 'deletecollection';
      const kind = own ? own.kind : { group: def.group, kind: answersList ? def.listKind : def.kind };
      assertViewFits(out, kind.group, kind.kind, answersList);
    }
    switch (verb) {
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
        return handleDeleteCollection(s);
      case 'patch':
        return handlePatch(s);
    }
  };
}
