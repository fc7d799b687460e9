// Request info is resolved once at the edge (after k8s.io/apiserver's RequestInfoFactory)
// and read by every later stage: metrics, handlers, errors.

export type Verb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection'
  | 'proxy'
  | string;

export interface RequestInfo {
  isResourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  /** Lower-case kube verb (get, list, ...) or, for non-resource requests, the HTTP method in lower case. */
  verb: Verb;
  apiPrefix: 'api' | 'apis' | '';
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the subresource (none are served today). */
  parts: string[];
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** kube treats any watch value but "0" and "false" (even an empty one) as a watch. */
function isWatchParam(v: string | null): boolean {
  if (v === null) return false;
  const l = v.toLowerCase();
  return l !== '0' && l !== 'false';
}

/** The info of a request outside the resource paths (discovery, health, metrics). */
export function nonResourceInfo(method: string, path: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

/** Parses `/api/v1/...` and `/apis/<group>/<version>/...` into a RequestInfo, as kube does. */
export function parseRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  const path = rawPath;
  const info = nonResourceInfo(method, path);
  const segs = path.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
  if (segs.length === 0 || (segs[0] !== 'api' && segs[0] !== 'apis')) return info;
  info.apiPrefix = segs[0] as 'api' | 'apis';
  let rest = segs.slice(1);
  if (info.apiPrefix === 'apis') {
    if (rest.length < 2) return info; // /apis or /apis/<group>: discovery
    info.apiGroup = rest[0];
    rest = rest.slice(1);
  } else if (rest.length < 1) {
    return info; // /api
  }
  info.apiVersion = rest[0];
  rest = rest.slice(1);
  if (rest.length === 0 || rest[0] === '') return info; // group-version discovery
  info.isResourceRequest = true;

  let isWatchPath = false;
  if (rest[0] === 'watch') {
    isWatchPath = true;
    rest = rest.slice(1);
  }
  // /namespaces/<ns>/<resource>/... except the namespaces resource itself.
  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      info.namespace = rest[1];
      if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) {
        rest = rest.slice(2);
      } else {
        // A namespace object (or its status/finalize subresource): the name is the namespace.
        info.namespace = '';
        info.resource = 'namespaces';
        info.name = rest[1];
        info.subresource = rest[2] ?? '';
        info.parts = rest.slice(1);
        rest = [];
      }
    }
  }
  if (rest.length > 0) {
    info.resource = rest[0];
    info.name = rest[1] ?? '';
    info.subresource = rest[2] ?? '';
    info.parts = rest.slice(1);
  }
  const m = method.toUpperCase();
  const hasName = info.name !== '';
  switch (m) {
    case 'GET':
    case 'HEAD':
      info.verb = isWatchPath || isWatchParam(query.get('watch')) ? 'watch' : hasName ? 'get' : 'list';
      break;
    case 'POST':
      info.verb = 'create';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = hasName ? 'delete' : 'deletecollection';
      break;
    default:
      info.verb = method.toLowerCase();
  }
  // A single-object watch is a list-watch with a name field selector.
  if (info.verb === 'watch' && hasName && info.parts.length > 2) info.verb = 'unknown';
  return info;
}
