// The paths and operations of the served resources, as kube-apiserver's OpenAPI documents
// list them: every verb of each resource, its status/scale/finalize subresources, the
// all-namespaces list, the deprecated /watch/ paths and the group-version root, with kube's
// operation ids, tags, descriptions, parameters and x-kubernetes-* extensions.
//
// Operations are built once in a version-neutral form and rendered in v2 or v3 style.

import type { APIResource } from '../../machinery/api-resource.js';
import { META } from './builtins.js';
import { refPrefix, type Json } from './schemas.js';

// ---------------------------------------------------------------------------------------------
// Parameters (kube's texts, which clients show to users).

export interface Param {
  name: string;
  in: 'query' | 'path' | 'body';
  description?: string;
  type?: 'string' | 'boolean' | 'integer';
  required?: boolean;
  /** Body parameters: the definition the body is. */
  schemaRef?: string;
}

const query = (name: string, type: Param['type'], description: string): Param => ({ name, in: 'query', type, description });

const FIELD_MANAGER =
  'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.';

export const PARAMS = {
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget)."),
  namespace: { name: 'namespace', in: 'path', type: 'string', required: true, description: 'object name and auth scope, such as for teams and projects' } as Param,
  allowWatchBookmarks: query(
    'allowWatchBookmarks',
    'boolean',
    'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
  ),
  continue: query(
    'continue',
    'string',
    'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the "next key".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.',
  ),
  fieldSelector: query('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  labelSelector: query('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: query(
    'limit',
    'integer',
    'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.',
  ),
  resourceVersion: query(
    'resourceVersion',
    'string',
    'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset',
  ),
  resourceVersionMatch: query(
    'resourceVersionMatch',
    'string',
    'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset',
  ),
  sendInitialEvents: query(
    'sendInitialEvents',
    'boolean',
    '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched.\n\nWhen `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set. The semantic of the watch request is as following: - `resourceVersionMatch` = NotOlderThan\n  is interpreted as "data at least as new as the provided `resourceVersion`"\n  and the bookmark event is send when the state is synced\n  to a `resourceVersion` at least as fresh as the one provided by the ListOptions.\n  If `resourceVersion` is unset, this is interpreted as "consistent read" and the\n  bookmark event is send when the state is synced at least to the moment\n  when request started being processed.\n- `resourceVersionMatch` set to any other value or unset\n  Invalid error is returned.\n\nDefaults to true if `resourceVersion=""` or `resourceVersion="0"` (for backward compatibility reasons) and to false otherwise.',
  ),
  timeoutSeconds: query('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  watch: query('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
  dryRun: query(
    'dryRun',
    'string',
    'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  ),
  fieldManager: query('fieldManager', 'string', FIELD_MANAGER),
  fieldManagerPatch: query(
    'fieldManager',
    'string',
    `${FIELD_MANAGER} This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).`,
  ),
  fieldValidation: query(
    'fieldValidation',
    'string',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  ),
  force: query(
    'force',
    'boolean',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  ),
  gracePeriodSeconds: query(
    'gracePeriodSeconds',
    'integer',
    'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
  ),
  ignoreStoreReadError: query(
    'ignoreStoreReadErrorWithClusterBreakingPotential',
    'boolean',
    'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it',
  ),
  orphanDependents: query(
    'orphanDependents',
    'boolean',
    'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
  ),
  propagationPolicy: query(
    'propagationPolicy',
    'string',
    "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
  ),
} as const;

const nameParam = (kind: string): Param => ({ name: 'name', in: 'path', type: 'string', required: true, description: `name of the ${kind}` });

const LIST_PARAMS: Param[] = [
  PARAMS.allowWatchBookmarks,
  PARAMS.continue,
  PARAMS.fieldSelector,
  PARAMS.labelSelector,
  PARAMS.limit,
  PARAMS.resourceVersion,
  PARAMS.resourceVersionMatch,
  PARAMS.sendInitialEvents,
  PARAMS.timeoutSeconds,
  PARAMS.watch,
];
const DELETECOLLECTION_PARAMS: Param[] = [
  PARAMS.continue,
  PARAMS.dryRun,
  PARAMS.fieldSelector,
  PARAMS.gracePeriodSeconds,
  PARAMS.ignoreStoreReadError,
  PARAMS.labelSelector,
  PARAMS.limit,
  PARAMS.orphanDependents,
  PARAMS.propagationPolicy,
  PARAMS.resourceVersion,
  PARAMS.resourceVersionMatch,
  PARAMS.sendInitialEvents,
  PARAMS.timeoutSeconds,
];
const DELETE_PARAMS: Param[] = [PARAMS.dryRun, PARAMS.gracePeriodSeconds, PARAMS.ignoreStoreReadError, PARAMS.orphanDependents, PARAMS.propagationPolicy];
const WRITE_PARAMS: Param[] = [PARAMS.dryRun, PARAMS.fieldManager, PARAMS.fieldValidation];
const PATCH_PARAMS: Param[] = [PARAMS.dryRun, PARAMS.fieldManagerPatch, PARAMS.fieldValidation, PARAMS.force];

const byName = (a: Param, b: Param): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Version-neutral operations.

/** What an operation answers with, which decides the media types kube lists. */
type Produces = 'object' | 'list' | 'discovery';
type Consumes = 'any' | 'patch' | 'discovery' | 'none';

export interface Operation {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  description: string;
  operationId: string;
  tag: string;
  action?: string;
  gvk?: { group: string; version: string; kind: string };
  params: Param[];
  /** The request body: a definition name, and whether it is required. */
  body?: { ref: string; required: boolean; patch?: boolean };
  /** Response code -> [description, definition name or undefined]. */
  responses: [string, string, string | undefined][];
  produces: Produces;
  consumes: Consumes;
}

export interface PathItem {
  path: string;
  ops: Operation[];
  params: Param[];
}

export interface KindNaming {
  /** The definition name of a kind of a group version. */
  definitionOf(group: string, version: string, kind: string): string;
}

/** kube's "friendly" group name in operation ids: apps -> Apps, rbac.authorization.k8s.io -> RbacAuthorization, "" -> Core. */
export function groupCamel(group: string): string {
  const g = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return g
    .split(/[.-]/)
    .filter((p) => p.length > 0)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
}

const upperFirst = (s: string): string => (s ? s[0].toUpperCase() + s.slice(1) : s);
const lowerFirst = (s: string): string => (s ? s[0].toLowerCase() + s.slice(1) : s);

/** kube's tag of a group version: apps_v1, core_v1, rbacAuthorization_v1. */
export const tagOf = (group: string, version: string): string => `${lowerFirst(groupCamel(group))}_${version}`;

/** The URL prefix of a group version: /api/v1 or /apis/apps/v1. */
export const gvPrefix = (group: string, version: string): string => (group ? `/apis/${group}/${version}` : `/api/${version}`);

const RESPONSE_OK = 'OK';
const STATUS = `${META}.Status`;

/** The paths of one resource. */
export function resourcePaths(def: APIResource, naming: KindNaming): PathItem[] {
  const verbs = new Set(def.verbs);
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const tag = tagOf(def.group, def.version);
  const id = `${groupCamel(def.group)}${upperFirst(def.version)}`;
  const ns = def.namespaced ? 'Namespaced' : '';
  const obj = naming.definitionOf(def.group, def.version, def.kind);
  const list = naming.definitionOf(def.group, def.version, def.listKind);
  const deleted = def.deleteReturnsObject ? obj : STATUS;
  const base = gvPrefix(def.group, def.version);
  const nsPath = def.namespaced ? `${base}/namespaces/{namespace}/${def.resource}` : `${base}/${def.resource}`;
  const scopeParams = def.namespaced ? [PARAMS.namespace] : [];
  const op = (o: Omit<Operation, 'tag'>): Operation => ({ ...o, tag });
  const items: PathItem[] = [];

  // Collection: list, create, deletecollection.
  const collection: Operation[] = [];
  if (verbs.has('deletecollection')) {
    collection.push(
      op({
        method: 'delete',
        description: `delete collection of ${def.kind}`,
        operationId: `delete${id}Collection${ns}${def.kind}`,
        action: 'deletecollection',
        gvk,
        params: DELETECOLLECTION_PARAMS,
        body: { ref: `${META}.DeleteOptions`, required: false },
        responses: [['200', RESPONSE_OK, STATUS], ['401', 'Unauthorized', undefined]],
        produces: 'object',
        consumes: 'any',
      }),
    );
  }
  if (verbs.has('list')) {
    collection.push(
      op({
        method: 'get',
        description: `list or watch objects of kind ${def.kind}`,
        operationId: `list${id}${ns}${def.kind}`,
        action: 'list',
        gvk,
        params: LIST_PARAMS,
        responses: [['200', RESPONSE_OK, list], ['401', 'Unauthorized', undefined]],
        produces: 'list',
        consumes: 'any',
      }),
    );
  }
  if (verbs.has('create')) {
    collection.push(
      op({
        method: 'post',
        description: `create a ${def.kind}`,
        operationId: `create${id}${ns}${def.kind}`,
        action: 'post',
        gvk,
        params: WRITE_PARAMS,
        body: { ref: obj, required: true },
        responses: [['200', RESPONSE_OK, obj], ['201', 'Created', obj], ['202', 'Accepted', obj], ['401', 'Unauthorized', undefined]],
        produces: 'object',
        consumes: 'any',
      }),
    );
  }
  if (collection.length > 0) items.push({ path: nsPath, ops: collection, params: [...scopeParams, PARAMS.pretty] });

  // One object: read, replace, patch, delete.
  const itemOps = (kindName: string, suffix: string, g: typeof gvk): Operation[] => {
    const out: Operation[] = [];
    const of = suffix ? `${suffix.toLowerCase()} of the specified ${def.kind}` : `the specified ${def.kind}`;
    if (verbs.has('get')) {
      out.push(
        op({
          method: 'get',
          description: `read ${of}`,
          operationId: `read${id}${ns}${def.kind}${suffix}`,
          action: 'get',
          gvk: g,
          params: [],
          responses: [['200', RESPONSE_OK, kindName], ['401', 'Unauthorized', undefined]],
          produces: 'object',
          consumes: 'any',
        }),
      );
    }
    if (verbs.has('patch')) {
      out.push(
        op({
          method: 'patch',
          description: `partially update ${of}`,
          operationId: `patch${id}${ns}${def.kind}${suffix}`,
          action: 'patch',
          gvk: g,
          params: PATCH_PARAMS,
          body: { ref: `${META}.Patch`, required: true, patch: true },
          responses: [['200', RESPONSE_OK, kindName], ['201', 'Created', kindName], ['401', 'Unauthorized', undefined]],
          produces: 'object',
          consumes: 'patch',
        }),
      );
    }
    if (verbs.has('update')) {
      out.push(
        op({
          method: 'put',
          description: `replace ${of}`,
          operationId: `replace${id}${ns}${def.kind}${suffix}`,
          action: 'put',
          gvk: g,
          params: WRITE_PARAMS,
          body: { ref: kindName, required: true },
          responses: [['200', RESPONSE_OK, kindName], ['201', 'Created', kindName], ['401', 'Unauthorized', undefined]],
          produces: 'object',
          consumes: 'any',
        }),
      );
    }
    return out;
  };

  const main = itemOps(obj, '', gvk);
  if (verbs.has('delete')) {
    main.unshift(
      op({
        method: 'delete',
        description: `delete a ${def.kind}`,
        operationId: `delete${id}${ns}${def.kind}`,
        action: 'delete',
        gvk,
        params: DELETE_PARAMS,
        body: { ref: `${META}.DeleteOptions`, required: false },
        responses: [['200', RESPONSE_OK, deleted], ['202', 'Accepted', deleted], ['401', 'Unauthorized', undefined]],
        produces: 'object',
        consumes: 'any',
      }),
    );
  }
  if (main.length > 0) items.push({ path: `${nsPath}/{name}`, ops: main, params: [nameParam(def.kind), ...scopeParams, PARAMS.pretty] });

  // Subresources.
  for (const sub of def.objectSubresources) {
    const suffix = upperFirst(sub);
    if (sub === 'finalize') {
      if (!verbs.has('update')) continue;
      items.push({
        path: `${nsPath}/{name}/finalize`,
        ops: [
          op({
            method: 'put',
            description: `replace finalize of the specified ${def.kind}`,
            operationId: `replace${id}${ns}${def.kind}Finalize`,
            action: 'put',
            gvk,
            params: WRITE_PARAMS,
            body: { ref: obj, required: true },
            responses: [['200', RESPONSE_OK, obj], ['201', 'Created', obj], ['401', 'Unauthorized', undefined]],
            produces: 'object',
            consumes: 'any',
          }),
        ],
        params: [nameParam(def.kind), ...scopeParams, PARAMS.pretty],
      });
      continue;
    }
    const ops = itemOps(obj, suffix, gvk);
    if (ops.length > 0) items.push({ path: `${nsPath}/{name}/${sub}`, ops, params: [nameParam(def.kind), ...scopeParams, PARAMS.pretty] });
  }
  for (const action of def.actions) {
    const body = naming.definitionOf(action.group, action.version, action.kind);
    items.push({
      path: `${nsPath}/{name}/${action.name}`,
      ops: [
        op({
          method: 'post',
          description: `create ${action.name} of a ${def.kind}`,
          operationId: `create${id}${ns}${def.kind}${upperFirst(action.name)}`,
          action: 'post',
          gvk: { group: action.group, version: action.version, kind: action.kind },
          params: WRITE_PARAMS,
          body: { ref: body, required: true },
          responses: [['200', RESPONSE_OK, body], ['201', 'Created', body], ['202', 'Accepted', body], ['401', 'Unauthorized', undefined]],
          produces: 'object',
          consumes: 'any',
        }),
      ],
      params: [nameParam(action.kind), ...scopeParams, PARAMS.pretty],
    });
  }
  if (def.scale) {
    const scale = 'io.k8s.api.autoscaling.v1.Scale';
    const ops = itemOps(scale, 'Scale', { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    if (ops.length > 0) items.push({ path: `${nsPath}/{name}/scale`, ops, params: [nameParam('Scale'), ...scopeParams, PARAMS.pretty] });
  }

  // Lists across namespaces.
  if (def.namespaced && verbs.has('list')) {
    items.push({
      path: `${base}/${def.resource}`,
      ops: [
        op({
          method: 'get',
          description: `list or watch objects of kind ${def.kind}`,
          operationId: `list${id}${def.kind}ForAllNamespaces`,
          action: 'list',
          gvk,
          params: [],
          responses: [['200', RESPONSE_OK, list], ['401', 'Unauthorized', undefined]],
          produces: 'list',
          consumes: 'any',
        }),
      ],
      params: [...LIST_PARAMS, PARAMS.pretty],
    });
  }

  // The deprecated /watch/ paths.
  if (verbs.has('watch')) {
    const watchEvent = `${META}.WatchEvent`;
    const watchOp = (operationId: string, description: string, action: string): Operation =>
      op({
        method: 'get',
        description,
        operationId,
        action,
        gvk,
        params: [],
        responses: [['200', RESPONSE_OK, watchEvent], ['401', 'Unauthorized', undefined]],
        produces: 'list',
        consumes: 'any',
      });
    const listDescription = `watch individual changes to a list of ${def.kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
    const watchBase = def.namespaced ? `${base}/watch/namespaces/{namespace}/${def.resource}` : `${base}/watch/${def.resource}`;
    items.push({
      path: watchBase,
      ops: [watchOp(`watch${id}${ns}${def.kind}List`, listDescription, 'watchlist')],
      params: [...LIST_PARAMS, ...scopeParams, PARAMS.pretty],
    });
    items.push({
      path: `${watchBase}/{name}`,
      ops: [
        watchOp(
          `watch${id}${ns}${def.kind}`,
          `watch changes to an object of kind ${def.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
          'watch',
        ),
      ],
      params: [...LIST_PARAMS, nameParam(def.kind), ...scopeParams, PARAMS.pretty],
    });
    if (def.namespaced) {
      items.push({
        path: `${base}/watch/${def.resource}`,
        ops: [watchOp(`watch${id}${def.kind}ListForAllNamespaces`, listDescription, 'watchlist')],
        params: [...LIST_PARAMS, PARAMS.pretty],
      });
    }
  }
  for (const item of items) {
    item.params = [...item.params].sort(byName);
    for (const o of item.ops) o.params = [...o.params].sort(byName);
  }
  return items;
}

/** GET /apis/<group>/<version>/ (or /api/v1/): the group version's APIResourceList. */
export function groupVersionRootPath(group: string, version: string): PathItem {
  return {
    path: `${gvPrefix(group, version)}/`,
    ops: [
      {
        method: 'get',
        description: 'get available resources',
        operationId: `get${groupCamel(group)}${upperFirst(version)}APIResources`,
        tag: tagOf(group, version),
        params: [],
        responses: [['200', RESPONSE_OK, `${META}.APIResourceList`], ['401', 'Unauthorized', undefined]],
        produces: 'discovery',
        consumes: 'discovery',
      },
    ],
    params: [],
  };
}

/** GET /apis/<group>/: the APIGroup (in the v2 document). */
export function groupRootPath(group: string): PathItem {
  return {
    path: `/apis/${group}/`,
    ops: [
      {
        method: 'get',
        description: 'get information of a group',
        operationId: `get${groupCamel(group)}APIGroup`,
        tag: lowerFirst(groupCamel(group)),
        params: [],
        responses: [['200', RESPONSE_OK, `${META}.APIGroup`], ['401', 'Unauthorized', undefined]],
        produces: 'discovery',
        consumes: 'discovery',
      },
    ],
    params: [],
  };
}

/** GET /api/ and /apis/ (in the v2 document). */
export function discoveryRootPaths(): PathItem[] {
  const one = (path: string, operationId: string, tag: string, description: string, def: string): PathItem => ({
    path,
    ops: [
      {
        method: 'get',
        description,
        operationId,
        tag,
        params: [],
        responses: [['200', RESPONSE_OK, def], ['401', 'Unauthorized', undefined]],
        produces: 'discovery',
        consumes: 'discovery',
      },
    ],
    params: [],
  });
  return [
    one('/api/', 'getCoreAPIVersions', 'core', 'get available API versions', `${META}.APIVersions`),
    one('/apis/', 'getAPIVersions', 'apis', 'get available API versions', `${META}.APIGroupList`),
  ];
}

/** Every definition an operation refers to. */
export function referencedDefinitions(items: PathItem[]): Set<string> {
  const out = new Set<string>();
  for (const item of items) {
    for (const o of item.ops) {
      if (o.body) out.add(o.body.ref);
      for (const [, , ref] of o.responses) if (ref) out.add(ref);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rendering.

const OBJECT_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const LIST_TYPES = [...OBJECT_TYPES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

const producesOf = (p: Produces): string[] => (p === 'list' ? LIST_TYPES : OBJECT_TYPES);
const consumesOf = (c: Consumes): string[] => (c === 'patch' ? PATCH_TYPES : c === 'discovery' ? OBJECT_TYPES : ['*/*']);

function gvkExt(o: Operation): Json {
  const out: Json = {};
  if (o.action) out['x-kubernetes-action'] = o.action;
  if (o.gvk) out['x-kubernetes-group-version-kind'] = { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version };
  return out;
}

function v3Param(p: Param): Json {
  const out: Json = { description: p.description, in: p.in, name: p.name };
  if (p.required) out.required = true;
  out.schema = { type: p.type, uniqueItems: true };
  return out;
}

export function renderV3(items: PathItem[]): Record<string, Json> {
  const prefix = refPrefix(true);
  const content = (types: string[], ref: string): Json => Object.fromEntries(types.map((t) => [t, { schema: { $ref: `${prefix}${ref}` } }]));
  const paths: Record<string, Json> = {};
  for (const item of items) {
    const out: Json = {};
    for (const o of item.ops) {
      const rendered: Json = { description: o.description, operationId: o.operationId };
      if (o.params.length > 0) rendered.parameters = o.params.map(v3Param);
      if (o.body) {
        const body: Json = { content: content(o.body.patch ? PATCH_TYPES : ['*/*'], o.body.ref) };
        if (o.body.required) body.required = true;
        rendered.requestBody = body;
      }
      const responses: Json = {};
      for (const [code, description, ref] of o.responses) {
        responses[code] = ref ? { content: content(producesOf(o.produces), ref), description } : { description };
      }
      rendered.responses = responses;
      rendered.tags = [o.tag];
      Object.assign(rendered, gvkExt(o));
      out[o.method] = rendered;
    }
    if (item.params.length > 0) out.parameters = item.params.map(v3Param);
    paths[item.path] = out;
  }
  return paths;
}

function v2Param(p: Param): Json {
  if (p.in === 'body') {
    const out: Json = { in: 'body', name: p.name };
    if (p.required) out.required = true;
    out.schema = { $ref: `${refPrefix(false)}${p.schemaRef}` };
    return out;
  }
  const out: Json = { description: p.description, in: p.in, name: p.name };
  if (p.required) out.required = true;
  out.type = p.type;
  out.uniqueItems = true;
  return out;
}

/** The JSON kube-openapi hashes to name a shared parameter (Go's field order and HTML escaping). */
function goParamJSON(p: Param): string {
  const s = (v: string) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  const parts: string[] = [];
  if (p.in !== 'body') {
    parts.push('"uniqueItems":true');
    if (p.type) parts.push(`"type":${s(p.type)}`);
  }
  if (p.description) parts.push(`"description":${s(p.description)}`);
  parts.push(`"name":${s(p.name)}`, `"in":${s(p.in)}`);
  if (p.required) parts.push('"required":true');
  if (p.in === 'body') parts.push(`"schema":{"$ref":${s(`${refPrefix(false)}${p.schemaRef}`)}}`);
  return `{${parts.join(',')}}`;
}

/** kube-openapi's base64Hash: FNV-1 64-bit, first 6 bytes, URL-safe base64 (8 characters). */
function base64Hash(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, 'utf8')) {
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
    h ^= BigInt(b);
  }
  const buf = Buffer.alloc(8);
  buf.writeBigUInt64BE(h);
  return buf.subarray(0, 6).toString('base64url');
}

/**
 * Whether kube-openapi shares a parameter under #/parameters: everything but the per-kind
 * `name` and body parameters, and dryRun/fieldValidation, which kubectl (up to 1.27) looks
 * for inline to detect server-side dry-run and field validation.
 */
function shareable(p: Param): boolean {
  if ((p.in === 'query' || p.in === 'path') && p.name === 'name') return false;
  if (p.in === 'query' && (p.name === 'fieldValidation' || p.name === 'dryRun')) return false;
  if (p.in === 'body' && !(p.schemaRef ?? '').startsWith('io.k8s.apimachinery')) return false;
  return true;
}

export function renderV2(items: PathItem[]): { paths: Record<string, Json>; parameters: Record<string, Json> } {
  const prefix = refPrefix(false);
  const shared = new Map<string, { name: string; param: Param }>();
  const paramRef = (p: Param): Json => {
    if (!shareable(p)) return v2Param(p);
    const key = goParamJSON(p);
    let entry = shared.get(key);
    if (!entry) {
      entry = { name: `${p.name}-${base64Hash(key)}`, param: p };
      shared.set(key, entry);
    }
    return { $ref: `#/parameters/${entry.name}` };
  };
  const paths: Record<string, Json> = {};
  for (const item of items) {
    const out: Json = {};
    for (const o of item.ops) {
      const rendered: Json = { consumes: consumesOf(o.consumes), description: o.description, operationId: o.operationId };
      const params: Param[] = [];
      if (o.body) params.push({ name: 'body', in: 'body', required: o.body.required || undefined, schemaRef: o.body.ref });
      params.push(...o.params);
      if (params.length > 0) rendered.parameters = params.map(paramRef);
      rendered.produces = producesOf(o.produces);
      const responses: Json = {};
      for (const [code, description, ref] of o.responses) responses[code] = ref ? { description, schema: { $ref: `${prefix}${ref}` } } : { description };
      rendered.responses = responses;
      rendered.schemes = ['https'];
      rendered.tags = [o.tag];
      Object.assign(rendered, gvkExt(o));
      out[o.method] = rendered;
    }
    if (item.params.length > 0) out.parameters = item.params.map(paramRef);
    paths[item.path] = out;
  }
  const parameters: Record<string, Json> = {};
  for (const { name, param } of shared.values()) parameters[name] = v2Param(param);
  return { paths, parameters };
}
