// A small schema registry and resource definitions that the OpenAPI tests build documents from.

import type { SchemaRegistry } from '../../../src/schema/model.js';
import type { ResourceDef, ScaleSpec, Strategy } from '../../../src/registry/types.js';

export const APPS = 'io.k8s.api.apps.v1';
export const CORE = 'io.k8s.api.core.v1';
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const ref = (name: string) => ({ kind: 'ref', name }) as const;
const typeMeta = [
  { name: 'kind', type: { kind: 'string' }, omitempty: true, description: 'Kind of the object.' },
  { name: 'apiVersion', type: { kind: 'string' }, omitempty: true, description: 'Version of the schema.' },
] as const;

export const REGISTRY: SchemaRegistry = {
  [`${APPS}.StatefulSet`]: {
    name: `${APPS}.StatefulSet`,
    description: 'StatefulSet represents a set of pods with consistent identities.',
    gvk: { group: 'apps', version: 'v1', kind: 'StatefulSet' },
    fields: [
      ...typeMeta,
      { name: 'metadata', type: ref(`${META}.ObjectMeta`), omitempty: true, description: "Standard object's metadata." },
      { name: 'spec', type: ref(`${APPS}.StatefulSetSpec`), omitempty: true, description: 'Spec defines the desired identities of pods in this set.' },
      { name: 'status', type: ref(`${APPS}.StatefulSetStatus`), omitempty: true, description: 'Status is the current status of Pods in this StatefulSet.' },
    ],
  },
  [`${APPS}.StatefulSetList`]: {
    name: `${APPS}.StatefulSetList`,
    description: 'StatefulSetList is a collection of StatefulSets.',
    gvk: { group: 'apps', version: 'v1', kind: 'StatefulSetList' },
    fields: [
      ...typeMeta,
      { name: 'metadata', type: ref(`${META}.ListMeta`), omitempty: true },
      { name: 'items', type: { kind: 'array', items: ref(`${APPS}.StatefulSet`) }, required: true, description: 'Items is the list of stateful sets.' },
    ],
  },
  [`${APPS}.StatefulSetSpec`]: {
    name: `${APPS}.StatefulSetSpec`,
    description: 'A StatefulSetSpec is the specification of a StatefulSet.',
    fields: [
      { name: 'replicas', type: { kind: 'int32' }, omitempty: true, pointer: true, description: 'replicas is the desired number of replicas.' },
      { name: 'selector', type: ref(`${META}.LabelSelector`), required: true, pointer: true, description: 'selector is a label query over pods.' },
      { name: 'template', type: ref(`${CORE}.PodTemplateSpec`), required: true, description: 'template is the object that describes the pod.' },
      { name: 'serviceName', type: { kind: 'string' }, omitempty: true, description: 'serviceName is the name of the service that governs this StatefulSet.' },
      {
        name: 'podManagementPolicy',
        type: { kind: 'string', enum: ['OrderedReady', 'Parallel'] },
        omitempty: true,
        description: 'podManagementPolicy controls how pods are created during initial scale up.',
      },
      {
        name: 'updateStrategy',
        type: ref(`${APPS}.StatefulSetUpdateStrategy`),
        omitempty: true,
        patchStrategy: 'retainKeys',
        description: 'updateStrategy indicates the StatefulSetUpdateStrategy.',
      },
      { name: 'revisionHistoryLimit', type: { kind: 'int32' }, omitempty: true, pointer: true },
      { name: 'minReadySeconds', type: { kind: 'int32' }, omitempty: true },
    ],
  },
  [`${APPS}.StatefulSetUpdateStrategy`]: {
    name: `${APPS}.StatefulSetUpdateStrategy`,
    fields: [
      { name: 'type', type: { kind: 'string', enum: ['OnDelete', 'RollingUpdate'] }, omitempty: true },
      { name: 'rollingUpdate', type: ref(`${APPS}.RollingUpdateStatefulSetStrategy`), omitempty: true, pointer: true },
    ],
  },
  [`${APPS}.RollingUpdateStatefulSetStrategy`]: {
    name: `${APPS}.RollingUpdateStatefulSetStrategy`,
    fields: [
      { name: 'partition', type: { kind: 'int32' }, omitempty: true, pointer: true },
      { name: 'maxUnavailable', type: { kind: 'intOrString' }, omitempty: true, pointer: true, description: 'The maximum number of pods that can be unavailable during the update.' },
    ],
  },
  [`${APPS}.StatefulSetStatus`]: {
    name: `${APPS}.StatefulSetStatus`,
    fields: [
      { name: 'observedGeneration', type: { kind: 'int64' }, omitempty: true },
      { name: 'replicas', type: { kind: 'int32' }, required: true, description: 'replicas is the number of Pods created.' },
      { name: 'readyReplicas', type: { kind: 'int32' }, omitempty: true },
      {
        name: 'conditions',
        type: { kind: 'array', items: ref(`${APPS}.StatefulSetCondition`) },
        omitempty: true,
        listType: 'map',
        listMapKeys: ['type'],
        patchStrategy: 'merge',
        patchMergeKey: 'type',
        description: "Represents the latest available observations of a statefulset's current state.",
      },
    ],
  },
  [`${APPS}.StatefulSetCondition`]: {
    name: `${APPS}.StatefulSetCondition`,
    fields: [
      { name: 'type', type: { kind: 'string' }, required: true },
      { name: 'status', type: { kind: 'string' }, required: true },
      { name: 'lastTransitionTime', type: { kind: 'time' }, omitempty: true },
      { name: 'reason', type: { kind: 'string' }, omitempty: true },
      { name: 'message', type: { kind: 'string' }, omitempty: true },
    ],
  },
  [`${CORE}.PodTemplateSpec`]: {
    name: `${CORE}.PodTemplateSpec`,
    fields: [
      { name: 'metadata', type: ref(`${META}.ObjectMeta`), omitempty: true },
      { name: 'spec', type: ref(`${CORE}.PodSpec`), omitempty: true },
    ],
  },
  [`${CORE}.PodSpec`]: {
    name: `${CORE}.PodSpec`,
    fields: [
      {
        name: 'containers',
        type: { kind: 'array', items: ref(`${CORE}.Container`) },
        required: true,
        listType: 'map',
        listMapKeys: ['name'],
        patchStrategy: 'merge',
        patchMergeKey: 'name',
      },
      { name: 'nodeSelector', type: { kind: 'map', values: { kind: 'string' } }, omitempty: true, mapType: 'atomic' },
      { name: 'terminationGracePeriodSeconds', type: { kind: 'int64' }, omitempty: true, pointer: true },
    ],
  },
  [`${CORE}.Container`]: {
    name: `${CORE}.Container`,
    fields: [
      { name: 'name', type: { kind: 'string' }, required: true },
      { name: 'image', type: { kind: 'string' }, omitempty: true },
      { name: 'args', type: { kind: 'array', items: { kind: 'string' } }, omitempty: true, listType: 'atomic' },
      {
        name: 'ports',
        type: { kind: 'array', items: ref(`${CORE}.ContainerPort`) },
        omitempty: true,
        listType: 'map',
        listMapKeys: ['containerPort', 'protocol'],
        patchStrategy: 'merge',
        patchMergeKey: 'containerPort',
      },
      { name: 'resources', type: ref(`${CORE}.ResourceRequirements`), omitempty: true },
    ],
  },
  [`${CORE}.ContainerPort`]: {
    name: `${CORE}.ContainerPort`,
    fields: [
      { name: 'name', type: { kind: 'string' }, omitempty: true },
      { name: 'containerPort', type: { kind: 'int32' }, required: true },
      { name: 'protocol', type: { kind: 'string', enum: ['SCTP', 'TCP', 'UDP'] }, omitempty: true, default: 'TCP' },
    ],
  },
  [`${CORE}.ResourceRequirements`]: {
    name: `${CORE}.ResourceRequirements`,
    fields: [
      { name: 'limits', type: { kind: 'map', values: { kind: 'quantity' } }, omitempty: true },
      { name: 'requests', type: { kind: 'map', values: { kind: 'quantity' } }, omitempty: true },
    ],
  },
  [`${CORE}.Namespace`]: {
    name: `${CORE}.Namespace`,
    gvk: { group: '', version: 'v1', kind: 'Namespace' },
    fields: [
      ...typeMeta,
      { name: 'metadata', type: ref(`${META}.ObjectMeta`), omitempty: true },
      { name: 'spec', type: ref(`${CORE}.NamespaceSpec`), omitempty: true },
    ],
  },
  [`${CORE}.NamespaceSpec`]: {
    name: `${CORE}.NamespaceSpec`,
    fields: [{ name: 'finalizers', type: { kind: 'array', items: { kind: 'string' } }, omitempty: true, listType: 'atomic' }],
  },
  'io.kapi.example.v1.Widget': {
    name: 'io.kapi.example.v1.Widget',
    gvk: { group: 'example.kapi.io', version: 'v1', kind: 'Widget' },
    structType: 'atomic',
    extensions: { 'x-kubernetes-unions': [{ discriminator: 'mode', 'fields-to-discriminateBy': { a: 'A' } }] },
    fields: [
      ...typeMeta,
      { name: 'metadata', type: ref(`${META}.ObjectMeta`), omitempty: true },
      { name: 'inlined', type: ref('io.kapi.example.v1.Embedded'), inline: true },
      { name: 'i64', type: { kind: 'int64' } },
      { name: 'num', type: { kind: 'number' }, omitempty: true },
      { name: 'flag', type: { kind: 'boolean' } },
      { name: 'blob', type: { kind: 'bytes' }, omitempty: true },
      { name: 'raw', type: { kind: 'any' }, omitempty: true },
      { name: 'fields', type: { kind: 'fieldsV1' }, omitempty: true, pointer: true },
      { name: 'micro', type: { kind: 'microTime' }, omitempty: true },
      { name: 'uid', type: { kind: 'string', format: 'uuid' }, omitempty: true },
    ],
  },
  'io.kapi.example.v1.Embedded': {
    name: 'io.kapi.example.v1.Embedded',
    fields: [{ name: 'fromEmbed', type: { kind: 'string' }, omitempty: true, description: 'A field of an embedded struct.' }],
  },
};

const strategy = {} as Strategy;
const scale = {} as ScaleSpec;

function def(partial: Partial<ResourceDef> & Pick<ResourceDef, 'group' | 'version' | 'resource' | 'kind'>): ResourceDef {
  return {
    listKind: `${partial.kind}List`,
    singularName: partial.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced: true,
    strategy,
    nameValidator: () => [],
    returnDeletedObject: false,
    ...partial,
  };
}

export const DEFS: ResourceDef[] = [
  def({ group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, subresources: { status: strategy, finalize: strategy }, returnDeletedObject: true, ownDeletion: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }),
  def({ group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', subresources: { status: strategy }, scale }),
  def({ group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false }),
  def({ group: 'example.kapi.io', version: 'v1', resource: 'widgets', kind: 'Widget', verbs: ['get', 'list', 'create'] }),
];

// ---------------------------------------------------------------------------------------------
// Helpers.

/** Every `$ref` string in a document, with the JSON path it sits at. */
