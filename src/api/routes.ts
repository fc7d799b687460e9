// The routes kube-apiserver's go-restful container installs for a resource (endpoints/
// installer.go), matched as go-restful matches them. A path no route matches is a 404; a path
// some route matches under another method is a 405 (HEAD and OPTIONS included: go-restful
// serves neither). What a route does depends on the route, not on request info: a GET of a
// named object with `?watch=true` is a get, and only collections and /watch/ paths watch.

import type { ResourceDef } from '../registry/types.js';
import { verbsOf } from '../registry/types.js';

export type RouteVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourceRoute {
  def: ResourceDef;
  /** '' for all namespaces, or a cluster-scoped resource. */
  namespace: string;
  name: string;
  subresource: string;
  /** The verb each method of the route serves. */
  methods: Partial<Record<string, RouteVerb>>;
}

/** A route's verb for `method`, or undefined (405). A collection GET lists or watches by `?watch`. */
export function routeVerb(route: ResourceRoute, method: string, watchParam: boolean): RouteVerb | undefined {
  const v = route.methods[method.toUpperCase()];
  return v === 'list' && watchParam ? 'watch' : v;
}

const objectMethods = (def: ResourceDef): Partial<Record<string, RouteVerb>> => {
  const verbs = new Set(verbsOf(def));
  const m: Partial<Record<string, RouteVerb>> = {};
  if (verbs.has('get')) m.GET = 'get';
  if (verbs.has('update')) m.PUT = 'update';
  if (verbs.has('patch')) m.PATCH = 'patch';
  if (verbs.has('delete')) m.DELETE = 'delete';
  return m;
};

const collectionMethods = (def: ResourceDef, allNamespaces: boolean): Partial<Record<string, RouteVerb>> => {
  const verbs = new Set(verbsOf(def));
  const m: Partial<Record<string, RouteVerb>> = {};
  if (verbs.has('list')) m.GET = 'list';
  if (allNamespaces) return m;
  if (verbs.has('create')) m.POST = 'create';
  if (verbs.has('deletecollection')) m.DELETE = 'deletecollection';
  return m;
};

/** A subresource's methods: status and scale are read, replaced and patched; finalize is only replaced. */
const subresourceMethods = (sub: string): Partial<Record<string, RouteVerb>> =>
  sub === 'finalize' ? { PUT: 'update' } : { GET: 'get', PUT: 'update', PATCH: 'patch' };

/**
 * The route of a path below a served group-version root (`segs`: the segments after
 * `/api/v1` or `/apis/<group>/<version>`), or undefined when no route matches (404).
 * Trailing slashes are ignored and an empty segment is an empty value, as go-restful reads
 * paths (`namespaces//pods` lists every namespace).
 */
export function matchResourceRoute(segs: string[], find: (resource: string) => ResourceDef | undefined): ResourceRoute | undefined {
  const s = segs.slice();
  while (s.length > 0 && s[s.length - 1] === '') s.pop();
  let watch = false;
  if (s[0] === 'watch') {
    watch = true;
    s.shift();
  }
  let namespace = '';
  let def: ResourceDef | undefined;
  let tail: string[];
  const nsDef = s[0] === 'namespaces' && s.length >= 3 ? find(s[2]) : undefined;
  if (nsDef?.namespaced) {
    def = nsDef;
    namespace = s[1];
    tail = s.slice(3);
  } else {
    def = s.length > 0 ? find(s[0]) : undefined;
    if (!def) return undefined;
    tail = s.slice(1);
    // A namespaced resource outside a namespace is only its list (and watch) of every namespace.
    if (def.namespaced && tail.length > 0) return undefined;
  }
  const base = { def, namespace, name: tail[0] ?? '', subresource: tail[1] ?? '' };
  const allNamespaces = def.namespaced && s[0] !== 'namespaces';
  if (watch) {
    if (tail.length > 1) return undefined;
    return { ...base, methods: verbsOf(def).includes('watch') ? { GET: 'watch' } : {} };
  }
  if (tail.length === 0) return { ...base, methods: collectionMethods(def, allNamespaces) };
  if (tail.length === 1) return { ...base, methods: objectMethods(def) };
  if (tail.length === 2) {
    const sub = tail[1];
    // An action subresource (pods/binding) is a POST route only.
    if (def.actions?.[sub] !== undefined) return { ...base, methods: { POST: 'create' } };
    const served = def.subresources?.[sub] !== undefined || (sub === 'scale' && def.scale !== undefined);
    return served ? { ...base, methods: subresourceMethods(sub) } : undefined;
  }
  return undefined;
}
