// StorageClasses (storage.k8s.io/v1), after pkg/registry/storage/storageclass and
// ValidateStorageClass(Update): cluster-scoped; provisioner, parameters and reclaimPolicy fixed
// at creation; reclaimPolicy defaults to Delete and volumeBindingMode to Immediate (schema
// defaults). kapi's first start creates the class `standard`, the default for claims.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef } from '../../types.js';
import { plainStrategy } from '../../plain-strategy.js';
import type { KObject } from '../../../machinery/object.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { forbidden, invalid, notSupported, required, tooLong } from '../../../machinery/validation/field.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { validateTopologySelectorTerm } from './topology.js';

/** The annotation that marks a default class (storageutil.IsDefaultAnnotation also reads the beta one). */
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

/** The provisioner of kapi's simulated volumes. */
export const SIMULATED_PROVISIONER = 'kapi.io/simulated';

export const isDefaultClass = (obj: KObject): boolean => {
  const ann = obj.metadata.annotations ?? {};
  return ann[DEFAULT_CLASS_ANNOTATION] === 'true' || ann[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
};

const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

function validateParameters(params: unknown): FieldError[] {
  const p = asObj(params);
  if (!p) return [];
  const keys = Object.keys(p);
  if (keys.length > MAX_PARAMETERS) return [tooLong('parameters', MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) errs.push(invalid('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(str(p[k]));
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLong('parameters', MAX_PARAMETERS_SIZE));
  return errs;
}

function validateAllowedTopologies(topologies: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const terms = asArr(topologies);
  // kube makes its list of terms seen with one nil map per term, then appends to it; a nil map
  // is Semantic.DeepEqual to an empty one, so an empty term is a duplicate once per term listed.
  const seen: unknown[] = terms.map(() => ({}));
  terms.forEach((term, i) => {
    const { errs: termErrs, expressions } = validateTopologySelectorTerm(term, `allowedTopologies[${i}]`);
    errs.push(...termErrs);
    for (const s of seen) if (deepEqual(s, expressions)) errs.push({ type: 'FieldValueDuplicate', field: `allowedTopologies[${i}].matchLabelExpressions`, badValue: '', detail: '' });
    seen.push(expressions);
  });
  return errs;
}

function validate(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = str(obj.provisioner);
  if (!provisioner) errs.push(required('provisioner', ''));
  else for (const m of isQualifiedName(provisioner.toLowerCase())) errs.push(invalid('provisioner', provisioner.toLowerCase(), m));
  errs.push(...validateParameters(obj.parameters));
  const reclaim = str(obj.reclaimPolicy);
  if (reclaim && !RECLAIM_POLICIES.includes(reclaim)) errs.push(notSupported('reclaimPolicy', reclaim, RECLAIM_POLICIES));
  if (obj.volumeBindingMode === undefined || obj.volumeBindingMode === null) errs.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(str(obj.volumeBindingMode))) errs.push(notSupported('volumeBindingMode', obj.volumeBindingMode, BINDING_MODES));
  errs.push(...validateAllowedTopologies(obj.allowedTopologies));
  return errs;
}

function validateUpdate(obj: KObject, old: KObject): FieldError[] {
  const errs = validate(obj);
  if (!deepEqual(asObj(obj.parameters) ?? {}, asObj(old.parameters) ?? {})) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (obj.provisioner !== old.provisioner) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (obj.reclaimPolicy !== old.reclaimPolicy) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (obj.volumeBindingMode !== old.volumeBindingMode) errs.push(invalid('volumeBindingMode', obj.volumeBindingMode, 'field is immutable'));
  return errs;
}

const strategy = plainStrategy({ validate, validateUpdate });

function cells(obj: KObject, now: Date): unknown[] {
  const name = isDefaultClass(obj) ? `${obj.metadata.name} (default)` : obj.metadata.name;
  return [
    name,
    str(obj.provisioner),
    str(obj.reclaimPolicy) || 'Delete',
    str(obj.volumeBindingMode) || 'Immediate',
    obj.allowVolumeExpansion === true,
    age(obj, now),
  ];
}

/** The class kapi's first start creates: the default, provisioned by kapi's simulated provisioner. */
export const STANDARD_STORAGE_CLASS: KObject = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' } },
  provisioner: SIMULATED_PROVISIONER,
  reclaimPolicy: 'Delete',
  // As kind's default class: a claim binds once a pod that uses it is scheduled.
  volumeBindingMode: 'WaitForFirstConsumer',
} as KObject & Obj;

export const storageClasses: ResourceDef = {
  group: 'storage.k8s.io',
  version: 'v1',
  resource: 'storageclasses',
  kind: 'StorageClass',
  listKind: 'StorageClassList',
  singularName: 'storageclass',
  shortNames: ['sc'],
  categories: [],
  namespaced: false,
  strategy,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: true,
  table: {
    columns: [
      NAME_COLUMN,
      column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
      column('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
      column(
        'VolumeBindingMode',
        'string',
        'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
      ),
      column('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
      AGE_COLUMN,
    ],
    cells,
  },
  bootstrapOnce: [STANDARD_STORAGE_CLASS],
};
