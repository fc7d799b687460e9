// PersistentVolumeClaims (core/v1), after pkg/registry/core/persistentvolumeclaim, the v1
// defaults (status.phase Pending, spec.volumeMode Filesystem), ValidatePersistentVolumeClaim
// (Update) and the PVC printer. Gates at their 1.33 defaults: VolumeAttributesClass is off
// (the fields are dropped), RecoverVolumeExpansionFailure and AnyVolumeDataSource are on.

import { claimAdmission } from './admission.js';
import { claimWarnings } from '../pods/warnings.js';
import { specDiff } from '../../generic/spec-diff.js';
import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { canonicalQty, cmpQty, qty } from '../../../schema/quantity.js';
import { validatePersistentVolumeClaimSpec } from './spec-validation.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;
const status = (o: KObject): Obj => (o.status ??= {}) as Obj;

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

function canonicalizeResources(s: Obj): void {
  const res = asObj(s.resources);
  for (const k of ['requests', 'limits']) {
    const l = asObj(res?.[k]);
    if (l) for (const n of Object.keys(l)) l[n] = canonicalQty(l[n]);
  }
}

/** NormalizeDataSources (AnyVolumeDataSource is on): dataSource and dataSourceRef mirror each other. */
function normalizeDataSources(s: Obj): void {
  const ds = asObj(s.dataSource);
  const dsr = asObj(s.dataSourceRef);
  if (!ds && dsr) {
    if (!str(dsr.namespace)) {
      const copy: Obj = {};
      if (dsr.apiGroup !== undefined) copy.apiGroup = dsr.apiGroup;
      copy.kind = dsr.kind;
      copy.name = dsr.name;
      s.dataSource = copy;
    }
  } else if (ds && !dsr) {
    const copy: Obj = {};
    if (ds.apiGroup !== undefined) copy.apiGroup = ds.apiGroup;
    copy.kind = ds.kind;
    copy.name = ds.name;
    s.dataSourceRef = copy;
  }
}

/** DropDisabledFields: VolumeAttributesClass (off in 1.33) and cross-namespace data sources. */
function dropDisabledFields(s: Obj, old?: Obj): void {
  if (old?.volumeAttributesClassName === undefined) delete s.volumeAttributesClassName;
  const dsr = asObj(s.dataSourceRef);
  if (dsr && str(dsr.namespace) && !asObj(old?.dataSourceRef)) delete dsr.namespace;
}

function dropDisabledStatusFields(st: Obj, old: Obj): void {
  if (old.currentVolumeAttributesClassName === undefined) delete st.currentVolumeAttributesClassName;
  if (old.modifyVolumeStatus === undefined) delete st.modifyVolumeStatus;
}

function validate(obj: KObject): FieldError[] {
  return validatePersistentVolumeClaimSpec(obj.spec, 'spec');
}

/** Beta storage-class annotation → storageClassName upgrade (validateStorageClassUpgradeFromAnnotation). */
function upgradeFromAnnotation(oldAnn: Record<string, string>, newAnn: Record<string, string>, oldSc: unknown, newSc: unknown): boolean {
  if (!Object.hasOwn(oldAnn, BETA_STORAGE_CLASS)) return false;
  if (oldSc !== undefined && oldSc !== null) return false;
  if (typeof newSc !== 'string' || newSc !== oldAnn[BETA_STORAGE_CLASS]) return false;
  return !Object.hasOwn(newAnn, BETA_STORAGE_CLASS) || newAnn[BETA_STORAGE_CLASS] === oldAnn[BETA_STORAGE_CLASS];
}

function validateUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = spec(obj);
  const o = (old.spec ?? {}) as Obj;
  const errs = validate(obj);
  const newClone: Obj = structuredClone(s);
  const oldClone: Obj = structuredClone(o);
  const oldAnn = old.metadata.annotations ?? {};
  const newAnn = obj.metadata.annotations ?? {};
  // volumeName may be set once (by the binder).
  if (!str(o.volumeName)) {
    if (newClone.volumeName === undefined) delete oldClone.volumeName;
    else oldClone.volumeName = newClone.volumeName;
  }
  if (upgradeFromAnnotation(oldAnn, newAnn, o.storageClassName, s.storageClassName)) {
    delete newClone.storageClassName;
  } else {
    if ((newAnn[BETA_STORAGE_CLASS] ?? '') !== (oldAnn[BETA_STORAGE_CLASS] ?? '')) {
      errs.push({ type: 'FieldValueInvalid', field: `metadata.annotations.${BETA_STORAGE_CLASS}`, badValue: newAnn[BETA_STORAGE_CLASS] ?? '', detail: 'field is immutable' });
    }
    // storageClassName may go from nil to a value (when the annotation agrees).
    const newSc = s.storageClassName;
    if (typeof newSc === 'string' && (o.storageClassName === undefined || o.storageClassName === null)) {
      if (!Object.hasOwn(oldAnn, BETA_STORAGE_CLASS) || oldAnn[BETA_STORAGE_CLASS] === newSc) {
        if (o.storageClassName === undefined) delete newClone.storageClassName;
        else newClone.storageClassName = o.storageClassName;
      }
    }
  }
  const bound = str((obj.status as Obj | undefined)?.phase) === 'Bound';
  const cloneRequests = asObj(asObj(newClone.resources)?.requests);
  if (bound && cloneRequests) {
    const oldStorage = asObj(asObj(o.resources)?.requests)?.storage;
    if (oldStorage === undefined) delete cloneRequests.storage;
    else cloneRequests.storage = oldStorage;
  }
  if (bound && newClone.volumeAttributesClassName !== undefined) {
    if (oldClone.volumeAttributesClassName === undefined) delete newClone.volumeAttributesClassName;
    else newClone.volumeAttributesClassName = oldClone.volumeAttributesClassName;
  }
  if (!deepEqual(newClone, oldClone)) {
    errs.push({
      type: 'FieldValueForbidden',
      field: 'spec',
      detail: `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff('core.PersistentVolumeClaimSpec', oldClone, newClone)}`,
    });
  }
  const newSize = qty(asObj(asObj(s.resources)?.requests)?.storage);
  const oldSize = qty(asObj(asObj(o.resources)?.requests)?.storage);
  if (newSize && oldSize && cmpQty(newSize, oldSize) < 0) {
    // RecoverVolumeExpansionFailure (on): shrinking is allowed down to (not to) status.capacity.
    const cap = qty(asObj((old.status as Obj | undefined)?.capacity)?.storage) ?? qty('0')!;
    if (cmpQty(newSize, cap) <= 0) {
      errs.push({ type: 'FieldValueForbidden', field: 'spec.resources.requests.storage', detail: 'field can not be less than status.capacity' });
    }
  }
  if (!deepEqual(s.volumeMode, o.volumeMode)) {
    errs.push({ type: 'FieldValueInvalid', field: 'volumeMode', badValue: s.volumeMode ?? null, detail: 'field is immutable' });
  }
  return errs;
}

/** Quantity.Value(): rounded up, away from zero. */
const wholeAwayFromZero = (v: number): number => Math.sign(v) * Math.ceil(Math.abs(v));

const RESIZE_STATUSES = ['ControllerResizeInProgress', 'ControllerResizeInfeasible', 'NodeResizeInProgress', 'NodeResizeInfeasible', 'NodeResizePending'];

function resourceKeyErrors(k: string, path: string): FieldError[] {
  const errs: FieldError[] = isQualifiedName(k).map((m) => ({ type: 'FieldValueInvalid', field: path, badValue: k, detail: m }));
  if (errs.length) return errs;
  const native = !k.includes('/') || k.includes('kubernetes.io/');
  if (native && k !== 'storage') return [{ type: 'FieldValueNotSupported', field: path, badValue: k, detail: '', supported: ['storage'] }];
  return [];
}

function validateStatusUpdate(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  if (asArr(spec(obj).accessModes).length === 0) errs.push({ type: 'FieldValueRequired', field: 'Spec.accessModes', detail: '' });
  const st = status(obj);
  for (const [k, v] of Object.entries(asObj(st.capacity) ?? {})) {
    const q = qty(v);
    if (q && wholeAwayFromZero(q.value) < 0) {
      errs.push({ type: 'FieldValueInvalid', field: `status.capacity[${k}]`, badValue: wholeAwayFromZero(q.value), detail: 'must be a valid resource quantity' });
    }
  }
  const resizePath = 'status.allocatedResourceStatus';
  for (const [k, v] of Object.entries(asObj(st.allocatedResourceStatuses) ?? {})) {
    errs.push(...resourceKeyErrors(k, resizePath));
    if (!RESIZE_STATUSES.includes(str(v))) errs.push({ type: 'FieldValueNotSupported', field: resizePath, badValue: k, detail: '', supported: RESIZE_STATUSES });
  }
  const allocPath = 'status.allocatedResources';
  for (const [k, v] of Object.entries(asObj(st.allocatedResources) ?? {})) {
    const keyErrs = resourceKeyErrors(k, allocPath);
    if (keyErrs.length) {
      errs.push(...keyErrs);
      continue;
    }
    const q = qty(v);
    if (q && wholeAwayFromZero(q.value) < 0) {
      errs.push({ type: 'FieldValueInvalid', field: `${allocPath}[${k}]`, badValue: wholeAwayFromZero(q.value), detail: 'must be a valid resource quantity' });
    } else if (q && q.value < 0) {
      errs.push({ type: 'FieldValueInvalid', field: `${allocPath}[${k}]`, badValue: q.canonical, detail: 'must be greater than or equal to 0' });
    }
  }
  return errs;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  applyDefaults(obj) {
    const s = spec(obj);
    s.volumeMode ??= 'Filesystem';
    normalizeDataSources(s);
    canonicalizeResources(s);
  },
  prepareForCreate(obj) {
    dropDisabledFields(spec(obj));
    // The status is cleared; its v1 default (phase Pending) is what reads back.
    obj.status = { phase: 'Pending' };
  },
  prepareForUpdate(obj, old) {
    obj.status = old.status;
    dropDisabledFields(spec(obj), (old.spec ?? {}) as Obj);
  },
  validate,
  validateUpdate,
  warningsOnCreate: (obj) => claimWarnings(obj),
  warningsOnUpdate: (obj) => claimWarnings(obj),
};

const statusStrategy: Strategy = {
  ...strategy,
  warningsOnUpdate: () => [],
  applyDefaults(obj) {
    const st = status(obj);
    if (!st.phase) st.phase = 'Pending';
    for (const k of ['capacity', 'allocatedResources']) {
      const l = asObj(st[k]);
      if (l) for (const n of Object.keys(l)) l[n] = canonicalQty(l[n]);
    }
  },
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
    dropDisabledStatusFields(status(obj), (old.status ?? {}) as Obj);
  },
  validateUpdate: validateStatusUpdate,
};

// ---- table ----

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, deduplicated. */
export function accessModesString(modes: unknown): string {
  const m = asArr(modes);
  const out: string[] = [];
  if (m.includes('ReadWriteOnce')) out.push('RWO');
  if (m.includes('ReadOnlyMany')) out.push('ROX');
  if (m.includes('ReadWriteMany')) out.push('RWX');
  if (m.includes('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

function pvcCells(obj: KObject, now: Date): unknown[] {
  const s = (obj.spec ?? {}) as Obj;
  const st = (obj.status ?? {}) as Obj;
  const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(st.phase);
  const volumeName = str(s.volumeName);
  let capacity = '';
  let modes = '';
  if (volumeName) {
    modes = accessModesString(st.accessModes);
    const c = asObj(st.capacity)?.storage;
    capacity = c === undefined ? '0' : String(canonicalQty(c));
  }
  const ann = obj.metadata.annotations ?? {};
  const storageClass = Object.hasOwn(ann, BETA_STORAGE_CLASS) ? ann[BETA_STORAGE_CLASS] : str(s.storageClassName);
  const vac = typeof s.volumeAttributesClassName === 'string' ? s.volumeAttributesClassName : '<unset>';
  const volumeMode = typeof s.volumeMode === 'string' ? s.volumeMode : '<unset>';
  return [obj.metadata.name, phase, volumeName, capacity, modes, storageClass, vac, age(obj, now), volumeMode];
}

export const persistentVolumeClaims: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  listKind: 'PersistentVolumeClaimList',
  singularName: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  categories: [],
  namespaced: true,
  strategy,
  subresources: { status: statusStrategy },
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: true,
  admission: claimAdmission,
  table: {
    columns: [
      NAME_COLUMN,
      column('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
      column('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
      column('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
      column(
        'Access Modes',
        'string',
        'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
      ),
      column('StorageClass', 'string', 'StorageClass of the pvc'),
      column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
      AGE_COLUMN,
      column('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', 1),
    ],
    cells: pvcCells,
  },
};
