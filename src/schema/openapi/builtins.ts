// Definitions the OpenAPI documents need beyond the served kinds: the special scalar types
// (Time, Quantity, IntOrString, ...) that have their own OpenAPI shape in kube, and the
// meta/v1 (and autoscaling/v1 Scale) structs that operations reference. The struct ones
// are fallbacks: a registry entry of the same name always wins.

import type { FieldSchema, StructSchema, TypeRef } from '../model.js';

type Json = Record<string, unknown>;

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** Definition names of the types with a custom (non-struct) OpenAPI shape. */
export const SPECIAL = {
  time: `${META}.Time`,
  microTime: `${META}.MicroTime`,
  fieldsV1: `${META}.FieldsV1`,
  any: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
  intOrString: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  quantity: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
} as const;

const SPECIAL_NAMES = new Set<string>(Object.values(SPECIAL));

export const isSpecial = (name: string): boolean => SPECIAL_NAMES.has(name);

/** kube's OpenAPI for the special types, per document version (v2 has no oneOf). */
export function specialSchema(name: string, v3: boolean): Json | undefined {
  switch (name) {
    case SPECIAL.time:
      return {
        description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON (RFC 3339, second precision).',
        format: 'date-time',
        type: 'string',
      };
    case SPECIAL.microTime:
      return {
        description: 'MicroTime is version of Time with microsecond level precision.',
        format: 'date-time',
        type: 'string',
      };
    case SPECIAL.fieldsV1:
      return {
        description:
          "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format. Each key is either a '.' representing the field itself, or a field ('f:<name>'), value ('v:<value>'), index ('i:<index>') or key ('k:<keys>') of a sub-field or item.",
        type: 'object',
      };
    case SPECIAL.any:
      return {
        description: 'RawExtension is used to hold extensions in external versions: any JSON value, kept as sent.',
        type: 'object',
      };
    case SPECIAL.intOrString:
      return v3
        ? {
            description: 'IntOrString is a type that can hold an int32 or a string. In JSON or YAML it is the inner type: a number or a string.',
            format: 'int-or-string',
            oneOf: [{ type: 'integer' }, { type: 'string' }],
          }
        : {
            description: 'IntOrString is a type that can hold an int32 or a string. In JSON or YAML it is the inner type: a number or a string.',
            format: 'int-or-string',
            type: 'string',
          };
    case SPECIAL.quantity: {
      const description =
        'Quantity is a fixed-point representation of a number, written as a string in the syntax <signedNumber><suffix>, where suffix is a binary SI suffix (Ki, Mi, Gi, Ti, Pi, Ei), a decimal SI suffix (m, "", k, M, G, T, P, E) or a decimal exponent (e<n>, E<n>); for example "1500m", "1.5Gi" or "2". Plain JSON numbers are accepted too.';
      return v3 ? { description, oneOf: [{ type: 'string' }, { type: 'number' }] } : { description, type: 'string' };
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Fallback struct schemas.

const str: TypeRef = { kind: 'string' };
const strs: TypeRef = { kind: 'array', items: str };
const strMap: TypeRef = { kind: 'map', values: str };
const ref = (name: string): TypeRef => ({ kind: 'ref', name });
const f = (name: string, type: TypeRef, rest: Partial<FieldSchema> = {}): FieldSchema => ({ name, type, omitempty: true, ...rest });

export const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
export const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const LIST_METADATA_DESCRIPTION = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const typeMeta = (): FieldSchema[] => [
  f('apiVersion', str, { description: API_VERSION_DESCRIPTION }),
  f('kind', str, { description: KIND_DESCRIPTION }),
];

const structs: StructSchema[] = [
  {
    name: `${META}.ObjectMeta`,
    description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    fields: [
      f('annotations', strMap, { description: 'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.' }),
      f('creationTimestamp', { kind: 'time' }, { description: 'CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only. Null for lists.' }),
      f('deletionGracePeriodSeconds', { kind: 'int64' }, { pointer: true, description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. Read-only.' }),
      f('deletionTimestamp', { kind: 'time' }, { pointer: true, description: 'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Set by the server when a graceful deletion is requested. Read-only.' }),
      f('finalizers', strs, {
        listType: 'set',
        patchStrategy: 'merge',
        description: 'Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list.',
      }),
      f('generateName', str, { description: 'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.' }),
      f('generation', { kind: 'int64' }, { description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.' }),
      f('labels', strMap, { description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.' }),
      f('managedFields', { kind: 'array', items: ref(`${META}.ManagedFieldsEntry`) }, {
        listType: 'atomic',
        description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
      }),
      f('name', str, { description: 'Name must be unique within a namespace. Cannot be updated.' }),
      f('namespace', str, { description: 'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace. Cannot be updated.' }),
      f('ownerReferences', { kind: 'array', items: ref(`${META}.OwnerReference`) }, {
        listType: 'map',
        listMapKeys: ['uid'],
        patchStrategy: 'merge',
        patchMergeKey: 'uid',
        description: 'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected.',
      }),
      f('resourceVersion', str, { description: 'An opaque value that represents the internal version of this object. Populated by the system. Read-only.' }),
      f('selfLink', str, { description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.' }),
      f('uid', str, { description: 'UID is the unique in time and space value for this object. Populated by the system. Read-only.' }),
    ],
  },
  {
    name: `${META}.OwnerReference`,
    description: 'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
    structType: 'atomic',
    fields: [
      f('apiVersion', str, { required: true, omitempty: false, description: 'API version of the referent.' }),
      f('blockOwnerDeletion', { kind: 'boolean' }, { pointer: true, description: 'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.' }),
      f('controller', { kind: 'boolean' }, { pointer: true, description: 'If true, this reference points to the managing controller.' }),
      f('kind', str, { required: true, omitempty: false, description: 'Kind of the referent.' }),
      f('name', str, { required: true, omitempty: false, description: 'Name of the referent.' }),
      f('uid', str, { required: true, omitempty: false, description: 'UID of the referent.' }),
    ],
  },
  {
    name: `${META}.ManagedFieldsEntry`,
    description: 'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
    fields: [
      f('apiVersion', str, { description: 'APIVersion defines the version of this resource that this field set applies to.' }),
      f('fieldsType', str, { description: 'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"' }),
      f('fieldsV1', { kind: 'fieldsV1' }, { pointer: true, description: 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.' }),
      f('manager', str, { description: 'Manager is an identifier of the workflow managing these fields.' }),
      f('operation', str, { description: "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'." }),
      f('subresource', str, { description: 'Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.' }),
      f('time', { kind: 'time' }, { pointer: true, description: 'Time is the timestamp of when the ManagedFields entry was added.' }),
    ],
  },
  {
    name: `${META}.ListMeta`,
    description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
    fields: [
      f('continue', str, { description: 'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.' }),
      f('remainingItemCount', { kind: 'int64' }, { pointer: true, description: 'remainingItemCount is the number of subsequent items in the list which are not included in this list response.' }),
      f('resourceVersion', str, { description: "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed." }),
      f('selfLink', str, { description: 'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.' }),
    ],
  },
  {
    name: `${META}.LabelSelector`,
    description: 'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
    structType: 'atomic',
    fields: [
      f('matchExpressions', { kind: 'array', items: ref(`${META}.LabelSelectorRequirement`) }, { listType: 'atomic', description: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.' }),
      f('matchLabels', strMap, { description: 'matchLabels is a map of {key,value} pairs.' }),
    ],
  },
  {
    name: `${META}.LabelSelectorRequirement`,
    description: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
    fields: [
      f('key', str, { required: true, omitempty: false, description: 'key is the label key that the selector applies to.' }),
      f('operator', str, { required: true, omitempty: false, description: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." }),
      f('values', strs, { listType: 'atomic', description: 'values is an array of string values.' }),
    ],
  },
  {
    name: `${META}.Status`,
    description: 'Status is a return value for calls that don\'t return other objects.',
    gvk: { group: '', version: 'v1', kind: 'Status' },
    fields: [
      typeMeta()[0],
      f('code', { kind: 'int32' }, { description: 'Suggested HTTP return code for this status, 0 if not set.' }),
      f('details', ref(`${META}.StatusDetails`), { pointer: true, description: 'Extended data associated with the reason.' }),
      typeMeta()[1],
      f('message', str, { description: 'A human-readable description of the status of this operation.' }),
      f('metadata', ref(`${META}.ListMeta`), { description: LIST_METADATA_DESCRIPTION }),
      f('reason', str, { description: 'A machine-readable description of why this operation is in the "Failure" status.' }),
      f('status', str, { description: 'Status of the operation. One of: "Success" or "Failure".' }),
    ],
  },
  {
    name: `${META}.StatusDetails`,
    description: 'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.',
    fields: [
      f('causes', { kind: 'array', items: ref(`${META}.StatusCause`) }, { listType: 'atomic', description: 'The Causes array includes more details associated with the StatusReason failure.' }),
      f('group', str, { description: 'The group attribute of the resource associated with the status StatusReason.' }),
      f('kind', str, { description: 'The kind attribute of the resource associated with the status StatusReason.' }),
      f('name', str, { description: 'The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).' }),
      f('retryAfterSeconds', { kind: 'int32' }, { description: 'If specified, the time in seconds before the operation should be retried.' }),
      f('uid', str, { description: 'UID of the resource. (when there is a single resource which can be described).' }),
    ],
  },
  {
    name: `${META}.StatusCause`,
    description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
    fields: [
      f('field', str, { description: 'The field of the resource that has caused this error, as named by its JSON serialization.' }),
      f('message', str, { description: 'A human-readable description of the cause of the error.' }),
      f('reason', str, { description: 'A machine-readable description of the cause of the error. If this value is empty there is no information available.' }),
    ],
  },
  {
    name: `${META}.DeleteOptions`,
    description: 'DeleteOptions may be provided when deleting an API object.',
    fields: [
      typeMeta()[0],
      f('dryRun', strs, { listType: 'atomic', description: 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed' }),
      f('gracePeriodSeconds', { kind: 'int64' }, { pointer: true, description: 'The duration in seconds before the object should be deleted. The value zero indicates delete immediately.' }),
      f('ignoreStoreReadErrorWithClusterBreakingPotential', { kind: 'boolean' }, { pointer: true, description: 'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.' }),
      typeMeta()[1],
      f('orphanDependents', { kind: 'boolean' }, { pointer: true, description: 'Deprecated: please use the PropagationPolicy.' }),
      f('preconditions', ref(`${META}.Preconditions`), { pointer: true, description: 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.' }),
      f('propagationPolicy', str, { pointer: true, description: "Whether and how garbage collection will be performed: 'Orphan', 'Background' or 'Foreground'." }),
    ],
  },
  {
    name: `${META}.Preconditions`,
    description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
    fields: [
      f('resourceVersion', str, { pointer: true, description: 'Specifies the target ResourceVersion' }),
      f('uid', str, { pointer: true, description: 'Specifies the target UID.' }),
    ],
  },
  {
    name: `${META}.Patch`,
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    fields: [],
  },
  {
    name: `${META}.WatchEvent`,
    description: 'Event represents a single event to a watched resource.',
    fields: [
      f('object', { kind: 'any' }, { required: true, omitempty: false, description: 'Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Error: *Status is recommended; other types may make sense\n   depending on context.' }),
      f('type', str, { required: true, omitempty: false }),
    ],
  },
  {
    name: `${META}.APIResourceList`,
    description: 'APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.',
    gvk: { group: '', version: 'v1', kind: 'APIResourceList' },
    fields: [
      typeMeta()[0],
      f('groupVersion', str, { required: true, omitempty: false, description: 'groupVersion is the group and version this APIResourceList is for.' }),
      typeMeta()[1],
      f('resources', { kind: 'array', items: ref(`${META}.APIResource`) }, { required: true, omitempty: false, listType: 'atomic', description: 'resources contains the name of the resources and if they are namespaced.' }),
    ],
  },
  {
    name: `${META}.APIResource`,
    description: 'APIResource specifies the name of a resource and whether it is namespaced.',
    fields: [
      f('categories', strs, { listType: 'atomic', description: "categories is a list of the grouped resources this resource belongs to (e.g. 'all')" }),
      f('group', str, { description: 'group is the preferred group of the resource.' }),
      f('kind', str, { required: true, omitempty: false, description: "kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')" }),
      f('name', str, { required: true, omitempty: false, description: 'name is the plural name of the resource.' }),
      f('namespaced', { kind: 'boolean' }, { required: true, omitempty: false, description: 'namespaced indicates if a resource is namespaced or not.' }),
      f('shortNames', strs, { listType: 'atomic', description: 'shortNames is a list of suggested short names of the resource.' }),
      f('singularName', str, { required: true, omitempty: false, description: 'singularName is the singular name of the resource.' }),
      f('storageVersionHash', str, { description: 'The hash value of the storage version, the version this resource is converted to when written to the data store.' }),
      f('verbs', strs, { required: true, omitempty: false, description: 'verbs is a list of supported kube verbs (this includes get, list, watch, create, update, patch, delete, deletecollection, and proxy)' }),
      f('version', str, { description: 'version is the preferred version of the resource.' }),
    ],
  },
  {
    name: `${META}.APIGroupList`,
    description: 'APIGroupList is a list of APIGroup, to allow clients to discover the API at /apis.',
    gvk: { group: '', version: 'v1', kind: 'APIGroupList' },
    fields: [
      typeMeta()[0],
      f('groups', { kind: 'array', items: ref(`${META}.APIGroup`) }, { required: true, omitempty: false, listType: 'atomic', description: 'groups is a list of APIGroup.' }),
      typeMeta()[1],
    ],
  },
  {
    name: `${META}.APIGroup`,
    description: 'APIGroup contains the name, the supported versions, and the preferred version of a group.',
    gvk: { group: '', version: 'v1', kind: 'APIGroup' },
    fields: [
      typeMeta()[0],
      typeMeta()[1],
      f('name', str, { required: true, omitempty: false, description: 'name is the name of the group.' }),
      f('preferredVersion', ref(`${META}.GroupVersionForDiscovery`), { description: 'preferredVersion is the version preferred by the API server, which probably is the storage version.' }),
      f('serverAddressByClientCIDRs', { kind: 'array', items: ref(`${META}.ServerAddressByClientCIDR`) }, { listType: 'atomic', description: 'a map of client CIDR to server address that is serving this group.' }),
      f('versions', { kind: 'array', items: ref(`${META}.GroupVersionForDiscovery`) }, { required: true, omitempty: false, listType: 'atomic', description: 'versions are the versions supported in this group.' }),
    ],
  },
  {
    name: `${META}.APIVersions`,
    description: 'APIVersions lists the versions that are available, to allow clients to discover the API at /api, which is the root path of the legacy v1 API.',
    gvk: { group: '', version: 'v1', kind: 'APIVersions' },
    fields: [
      typeMeta()[0],
      typeMeta()[1],
      f('serverAddressByClientCIDRs', { kind: 'array', items: ref(`${META}.ServerAddressByClientCIDR`) }, { required: true, omitempty: false, listType: 'atomic', description: 'a map of client CIDR to server address that is serving this group.' }),
      f('versions', strs, { required: true, omitempty: false, listType: 'atomic', description: 'versions are the api versions that are available.' }),
    ],
  },
  {
    name: `${META}.GroupVersionForDiscovery`,
    description: 'GroupVersion contains the "group/version" and "version" string of a version. It is made a struct to keep extensibility.',
    fields: [
      f('groupVersion', str, { required: true, omitempty: false, description: 'groupVersion specifies the API group and version in the form "group/version"' }),
      f('version', str, { required: true, omitempty: false, description: 'version specifies the version in the form of "version".' }),
    ],
  },
  {
    name: `${META}.ServerAddressByClientCIDR`,
    description: 'ServerAddressByClientCIDR helps the client to determine the server address that they should use, depending on the clientCIDR that they match.',
    fields: [
      f('clientCIDR', str, { required: true, omitempty: false, description: 'The CIDR with which clients can match their IP to figure out the server address that they should use.' }),
      f('serverAddress', str, { required: true, omitempty: false, description: 'Address of this server, suitable for a client that matches the above CIDR.' }),
    ],
  },
  {
    name: 'io.k8s.api.autoscaling.v1.Scale',
    description: 'Scale represents a scaling request for a resource.',
    gvk: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    fields: [
      typeMeta()[0],
      typeMeta()[1],
      f('metadata', ref(`${META}.ObjectMeta`), { description: 'Standard object metadata; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata.' }),
      f('spec', ref('io.k8s.api.autoscaling.v1.ScaleSpec'), { description: 'spec defines the behavior of the scale.' }),
      f('status', ref('io.k8s.api.autoscaling.v1.ScaleStatus'), { description: 'status is the current status of the scale. Read-only.' }),
    ],
  },
  {
    name: 'io.k8s.api.autoscaling.v1.ScaleSpec',
    description: 'ScaleSpec describes the attributes of a scale subresource.',
    fields: [f('replicas', { kind: 'int32' }, { description: 'replicas is the desired number of instances for the scaled object.' })],
  },
  {
    name: 'io.k8s.api.autoscaling.v1.ScaleStatus',
    description: 'ScaleStatus represents the current status of a scale subresource.',
    fields: [
      f('replicas', { kind: 'int32' }, { required: true, omitempty: false, description: 'replicas is the actual number of observed instances of the scaled object.' }),
      f('selector', str, { description: 'selector is the label query over pods that should match the replicas count, in its string form.' }),
    ],
  },
];

export const FALLBACK_STRUCTS: ReadonlyMap<string, StructSchema> = new Map(structs.map((s) => [s.name, s]));

/** Definitions whose x-kubernetes-group-version-kind lists every served group version (kube registers them everywhere). */
export const EVERY_GROUP_VERSION_KINDS: ReadonlyMap<string, string> = new Map([
  [`${META}.DeleteOptions`, 'DeleteOptions'],
  [`${META}.WatchEvent`, 'WatchEvent'],
]);

/** A list kind's schema, for registries that do not spell the list types out. */
export function syntheticList(listName: string, itemName: string, gvk: { group: string; version: string; kind: string }, itemKind: string): StructSchema {
  return {
    name: listName,
    description: `${gvk.kind} is a list of ${itemKind} objects.`,
    gvk,
    fields: [
      f('apiVersion', str, { description: API_VERSION_DESCRIPTION }),
      f('items', { kind: 'array', items: ref(itemName) }, { required: true, omitempty: false, description: `Items is the list of ${itemKind} objects.` }),
      f('kind', str, { description: KIND_DESCRIPTION }),
      f('metadata', ref(`${META}.ListMeta`), { description: LIST_METADATA_DESCRIPTION }),
    ],
  };
}
