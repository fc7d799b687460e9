// Pods (core/v1), after pkg/registry/core/pod (strategy.go, storage.go): the strategies of
// the pod and its /status, graceful deletion and field selectors. The rules live by section
// in this folder: defaults.ts, admission.ts (DefaultTolerationSeconds, Priority),
// disabled-fields.ts, validate.ts and pod-spec.ts (with containers, volumes, resources,
// probes, env, security contexts, scheduling, annotations), status.ts, table.ts.

import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';
import { podAdmission } from './admission.js';
import { podCreateWarnings } from './warnings.js';
import { isDNS1123Label } from '../../../machinery/validation/names.js';
import { addEmptyStructs } from './defaults.js';
import { dropDisabledPodSpecFields, dropDisabledStatusFields } from './disabled-fields.js';
import { computePodQOS } from './resources.js';
import { validatePodStatusUpdate } from './status.js';
import { podTable } from './table.js';
import { validatePodCreate, validatePodUpdate } from './validate.js';
import { podBinding } from './binding.js';
import { podEviction } from './eviction.js';
import { syncPodIPs } from './pod-ips.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;
const status = (o: KObject): Obj => (o.status ??= {}) as Obj;

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  // Pods carry metadata.generation from 1.33 on (bumped on every spec change).
  tracksGeneration: true,
  applyDefaults(obj) {
    const s = spec(obj);
    addEmptyStructs(s);
    // kube's v1-to-internal conversion of a Pod (not of a PodSpec in a template) makes a
    // negative grace period 1.
    if (typeof s.terminationGracePeriodSeconds === 'number' && s.terminationGracePeriodSeconds < 0) s.terminationGracePeriodSeconds = 1;
    syncPodIPs(obj.status);
  },
  prepareForCreate(obj) {
    const s = spec(obj);
    dropDisabledPodSpecFields(s);
    obj.status = { phase: 'Pending', qosClass: computePodQOS(s) };
  },
  prepareForUpdate(obj, old) {
    const s = spec(obj);
    const o = (old.spec ?? {}) as Obj;
    obj.status = old.status;
    dropDisabledPodSpecFields(s, o);
    if (!deepEqual(s, o)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: validatePodCreate,
  validateUpdate: validatePodUpdate,
  warningsOnCreate: (obj) => podCreateWarnings(obj, isDNS1123Label),
};

const statusStrategy: Strategy = {
  ...strategy,
  applyDefaults: (obj) => syncPodIPs(obj.status),
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
    // /status may not touch owner references (old kubelets corrupted them).
    if (old.metadata.ownerReferences === undefined) delete obj.metadata.ownerReferences;
    else obj.metadata.ownerReferences = old.metadata.ownerReferences;
    const st = status(obj);
    const ost = (old.status ?? {}) as Obj;
    // qosClass is set at creation; an empty one is backfilled from the old pod.
    if (!st.qosClass && ost.qosClass) st.qosClass = ost.qosClass;
    dropDisabledStatusFields(st, ost);
  },
  validateUpdate: validatePodStatusUpdate,
};

/**
 * CheckGracefulDelete: the grace period a DELETE gets (0 means at once). Unscheduled and
 * terminated pods go at once; otherwise the requested period, else the pod's
 * terminationGracePeriodSeconds; a negative period becomes 1.
 */
function podDeleteGracePeriod(pod: KObject, requested?: number): number {
  const s = (pod.spec ?? {}) as Obj;
  let period = requested ?? (typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 0);
  if (!str(s.nodeName)) period = 0;
  const phase = str((pod.status as Obj | undefined)?.phase);
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

const nodeName = (o: KObject): string => str((o.spec as Obj | undefined)?.nodeName);

/**
 * The field labels the v1 Pod conversion accepts beyond metadata.name/namespace, each
 * reading its value (ToSelectableFields; anything else: "field label not supported").
 * `spec.host` is the old name of `spec.nodeName`; `status.podIPs` is accepted but not
 * selectable (it always reads "").
 */
const podFieldLabels: Record<string, (obj: KObject) => string> = {
  'spec.nodeName': nodeName,
  'spec.restartPolicy': (o) => str((o.spec as Obj | undefined)?.restartPolicy),
  'spec.schedulerName': (o) => str((o.spec as Obj | undefined)?.schedulerName),
  'spec.serviceAccountName': (o) => str((o.spec as Obj | undefined)?.serviceAccountName),
  'spec.hostNetwork': (o) => String((o.spec as Obj | undefined)?.hostNetwork === true),
  'status.phase': (o) => str((o.status as Obj | undefined)?.phase),
  'status.podIP': (o) => str(asObj(asArr((o.status as Obj | undefined)?.podIPs)[0])?.ip),
  'status.nominatedNodeName': (o) => str((o.status as Obj | undefined)?.nominatedNodeName),
  'spec.host': nodeName,
  'status.podIPs': () => '',
};

export const pods: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'pods',
  kind: 'Pod',
  listKind: 'PodList',
  singularName: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  strategy,
  subresources: { status: statusStrategy },
  actions: { binding: podBinding, eviction: podEviction },
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: true,
  gracefulDeletePeriod: podDeleteGracePeriod,
  fieldLabels: podFieldLabels,
  admission: podAdmission,
  table: podTable,
};
