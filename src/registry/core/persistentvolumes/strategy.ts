// PersistentVolumes (core/v1, cluster-scoped), after pkg/registry/core/persistentvolume and
// ValidatePersistentVolume(Update): exactly one volume source, immutable once created; the
// status (phase Pending on create, lastPhaseTransitionTime stamped on every phase change) only
// through /status. VolumeAttributesClass is off in 1.33 (its field is dropped).

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { forbidden, invalid, notSupported, required, tooLong } from '../../../machinery/validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';
import { nowTimestamp } from '../../../machinery/meta.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { listQuantityGoSharpV, qty, quantityGoSharpV } from '../../../schema/quantity.js';
import { accessModesString } from '../persistentvolumeclaims/strategy.js';
import { validateNodeSelector } from '../node-selector.js';
import { specDiff } from '../../generic/spec-diff.js';
import { persistentVolumeWarnings } from '../pods/warnings.js';
import { goPointerValue } from '../../../machinery/go-format.js';
import { volumeAdmission } from './admission.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;
const status = (o: KObject): Obj => (o.status ??= {}) as Obj;

const noBacksteps = (p: string, field: string): FieldError[] => (p.split('/').includes('..') ? [invalid(field, p, "must not contain '..'")] : []);

function secretRef(ref: unknown, path: string): FieldError[] {
  const r = asObj(ref) ?? {};
  const errs: FieldError[] = [];
  const name = str(r.name);
  if (!name) errs.push(required(`${path}.name`));
  else for (const m of isDNS1123Subdomain(name)) errs.push(invalid(`${path}.name`, name, m));
  const ns = str(r.namespace);
  if (!ns) errs.push(required(`${path}.namespace`));
  else for (const m of isDNS1123Label(ns)) errs.push(invalid(`${path}.namespace`, ns, m));
  return errs;
}

// The checks of the sources kapi's users and its own provisioner write; the other sources are
// held to "exactly one source" only.
const SOURCE_CHECKS: Record<string, (src: Obj, path: string) => FieldError[]> = {
  hostPath(s, p) {
    const path = str(s.path);
    if (!path) return [required(`${p}.path`)];
    const errs = noBacksteps(path, `${p}.path`);
    if (s.type !== undefined && s.type !== null && !HOST_PATH_TYPES.includes(str(s.type))) errs.push(notSupported(`${p}.type`, s.type, HOST_PATH_TYPES));
    return errs;
  },
  local(s, p) {
    const path = str(s.path);
    return path ? noBacksteps(path, `${p}.path`) : [required(`${p}.path`)];
  },
  nfs(s, p) {
    const errs: FieldError[] = [];
    if (!str(s.server)) errs.push(required(`${p}.server`));
    const path = str(s.path);
    if (!path) errs.push(required(`${p}.path`));
    if (!path.startsWith('/')) errs.push(invalid(`${p}.path`, path, 'must be an absolute path'));
    return errs;
  },
  csi(s, p) {
    const errs: FieldError[] = [];
    const driver = str(s.driver);
    if (!driver) errs.push(required(`${p}.driver`));
    if (Buffer.byteLength(driver) > 63) errs.push(tooLong(`${p}.driver`, 63));
    for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(`${p}.driver`, driver, m));
    if (!str(s.volumeHandle)) errs.push(required(`${p}.volumeHandle`));
    for (const k of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
      if (asObj(s[k])) errs.push(...secretRef(s[k], `${p}.${k}`));
    }
    return errs;
  },
};

// The sources in kube's order of checks, with the path it reports each under when it
// validates the source (two differ from the JSON name).
const SOURCES: Array<[string, string]> = [
  ['hostPath', 'hostPath'],
  ['gcePersistentDisk', 'persistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['nfs', 'nfs'],
  ['rbd', 'rbd'],
  ['quobyte', 'quobyte'],
  ['cephfs', 'cephfs'],
  ['iscsi', 'iscsi'],
  ['cinder', 'cinder'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['scaleIO', 'scaleIO'],
  ['local', 'local'],
  ['storageos', 'storageos'],
  ['csi', 'csi'],
];
export const PV_SOURCE_KEYS = SOURCES.map(([k]) => k);

/** ValidatePersistentVolumeSpec for a PersistentVolume object (not an inline volume). */
function validateSpec(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const modes = asArr(s.accessModes);
  if (modes.length === 0) errs.push(required('spec.accessModes'));
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!ACCESS_MODES.includes(str(m))) errs.push(notSupported('spec.accessModes', m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(str(m))) other = true;
  }
  if (rwop && other) errs.push(forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  const capacityIn = asObj(s.capacity);
  const capacity = capacityIn ?? {};
  const capKeys = Object.keys(capacity);
  if (capKeys.length === 0) errs.push(required('spec.capacity'));
  if (!capKeys.includes('storage') || capKeys.length > 1) {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.capacity', badValue: capacityGo(capacityIn), detail: '', supported: ['storage'] });
  }
  for (const k of capKeys) {
    const q = qty(capacity[k]);
    const path = `spec.capacity[${k}]`;
    if (!q) continue;
    const whole = Math.sign(q.value) * Math.ceil(Math.abs(q.value));
    if (whole < 0) errs.push(invalid(path, whole, 'must be a valid resource quantity'));
    if (q.value <= 0) errs.push(invalid(path, q.canonical, 'must be greater than zero'));
  }
  const reclaim = str(s.persistentVolumeReclaimPolicy);
  if (reclaim && !RECLAIM_POLICIES.includes(reclaim)) errs.push(notSupported('spec.persistentVolumeReclaimPolicy', reclaim, RECLAIM_POLICIES));
  let affinitySet = false;
  const na = asObj(s.nodeAffinity);
  if (na) {
    affinitySet = true;
    if (asObj(na.required)) errs.push(...validateNodeSelector(na.required, 'spec.nodeAffinity.required'));
    else errs.push(required('spec.nodeAffinity.required', 'must specify required node constraints'));
  }
  let count = 0;
  for (const [key, path] of SOURCES) {
    const src = asObj(s[key]);
    if (!src) continue;
    // flexVolume is counted without the "more than one" check, as kube does.
    if (count > 0 && key !== 'flexVolume') {
      errs.push(forbidden(`spec.${key === 'cephfs' ? 'cephFS' : key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...(SOURCE_CHECKS[key]?.(src, `spec.${path}`) ?? []));
    if (key === 'local' && !affinitySet) errs.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (count === 0) errs.push(required('spec', 'must specify a volume type'));
  const hp = asObj(s.hostPath);
  if (hp && reclaim === 'Recycle' && cleanPath(str(hp.path)) === '/') {
    errs.push(forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const sc = str(s.storageClassName);
  if (sc) for (const m of nameIsDNSSubdomain(sc, false)) errs.push(invalid('spec.storageClassName', sc, m));
  if (s.volumeMode !== undefined && s.volumeMode !== null && !VOLUME_MODES.includes(str(s.volumeMode))) {
    errs.push(notSupported('spec.volumeMode', s.volumeMode, VOLUME_MODES));
  }
  return errs;
}

/**
 * Go's %#v of a ResourceList, as NotSupported prints it: nil when absent, and each quantity with
 * the fields of resource.Quantity (its int64 mantissa and decimal scale, the cached canonical
 * string and the format).
 */
function capacityGo(capacity: Obj | undefined): { goString: string } {
  if (!capacity) return { goString: 'core.ResourceList(nil)' };
  const entries = Object.keys(capacity)
    .sort()
    .map((k) => {
      const q = listQuantityGoSharpV(capacity, k) ?? quantityGoSharpV('0');
      return `${JSON.stringify(k)}:${q}`;
    });
  return { goString: `core.ResourceList{${entries.join(', ')}}` };
}

/** path.Clean for the one case kube tests ("/" however written). */
const cleanPath = (p: string): string => (p.length > 0 && /^\/+(\.\/*|\/)*$/.test(p) ? '/' : p);

function validate(obj: KObject): FieldError[] {
  return validateSpec(spec(obj));
}

/** The PersistentVolumeSource part of a spec: every volume source field. */
function sourceOf(s: Obj): Obj {
  const out: Obj = {};
  for (const k of PV_SOURCE_KEYS) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

function validateUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = spec(obj);
  const o = (old.spec ?? {}) as Obj;
  const errs = validate(obj);
  const newSource = structuredClone(sourceOf(s));
  const oldSource = sourceOf(o);
  // A CSI volume may gain a controllerExpandSecretRef.
  const newCsi = asObj(newSource.csi);
  if (asObj(oldSource.csi) && asObj(oldSource.csi)!.controllerExpandSecretRef === undefined && newCsi?.controllerExpandSecretRef !== undefined) {
    delete newCsi.controllerExpandSecretRef;
  }
  if (!deepEqual(newSource, oldSource)) {
    errs.push(forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${specDiff('core.PersistentVolumeSource', oldSource, newSource)}`));
  }
  if (!deepEqual(s.volumeMode, o.volumeMode)) errs.push(invalid('volumeMode', s.volumeMode ?? null, 'field is immutable'));
  if (asObj(o.nodeAffinity) && !deepEqual(s.nodeAffinity, o.nodeAffinity)) {
    // The *VolumeNodeAffinity dereferenced, %#v: its Required pointer shows as an address.
    const na = asObj(s.nodeAffinity);
    const value = na ? { goString: `core.VolumeNodeAffinity{Required:${goPointerValue('core.NodeSelector', asObj(na.required) !== undefined)}}` } : null;
    errs.push(invalid('nodeAffinity', value, 'field is immutable, except for updating from beta label to GA'));
  }
  return errs;
}

/** DropDisabledSpecFields: VolumeAttributesClass is off unless the old object used it. */
function dropDisabledFields(s: Obj, old?: Obj): void {
  if (old?.volumeAttributesClassName === undefined) delete s.volumeAttributesClassName;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  applyDefaults: () => undefined,
  prepareForCreate(obj) {
    dropDisabledFields(spec(obj));
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: nowTimestamp() };
  },
  prepareForUpdate(obj, old) {
    obj.status = old.status;
    dropDisabledFields(spec(obj), (old.spec ?? {}) as Obj);
  },
  validate,
  validateUpdate,
  warningsOnCreate: (obj) => persistentVolumeWarnings(obj),
  warningsOnUpdate: (obj) => persistentVolumeWarnings(obj),
};

const statusStrategy: Strategy = {
  ...strategy,
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
    const st = status(obj);
    const os = (old.status ?? {}) as Obj;
    const samePhase = str(st.phase) === str(os.phase);
    if (samePhase && st.lastPhaseTransitionTime === undefined) {
      if (os.lastPhaseTransitionTime !== undefined) st.lastPhaseTransitionTime = os.lastPhaseTransitionTime;
    } else if (!samePhase && (st.lastPhaseTransitionTime === undefined || st.lastPhaseTransitionTime === os.lastPhaseTransitionTime)) {
      st.lastPhaseTransitionTime = nowTimestamp();
    }
  },
  warningsOnUpdate: () => [],
  validateUpdate(obj) {
    // kube reads the object's own resourceVersion here: an unconditional status update is refused.
    return obj.metadata.resourceVersion ? [] : [required('resourceVersion')];
  },
};

/** helper.GetPersistentVolumeClass: the beta annotation wins over spec.storageClassName. */
function storageClassOf(obj: KObject): string {
  const ann = obj.metadata.annotations ?? {};
  if (Object.hasOwn(ann, BETA_STORAGE_CLASS)) return ann[BETA_STORAGE_CLASS]!;
  return str(spec(obj).storageClassName);
}

function cells(obj: KObject, now: Date): unknown[] {
  const s = (obj.spec ?? {}) as Obj;
  const st = (obj.status ?? {}) as Obj;
  const claim = asObj(s.claimRef);
  const claimText = claim ? `${str(claim.namespace)}/${str(claim.name)}` : '';
  const q = qty(asObj(s.capacity)?.storage);
  const size = q ? q.canonical : '0';
  const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(st.phase);
  const vac = typeof s.volumeAttributesClassName === 'string' ? s.volumeAttributesClassName : '<unset>';
  const volumeMode = typeof s.volumeMode === 'string' ? s.volumeMode : '<unset>';
  return [
    obj.metadata.name,
    size,
    accessModesString(s.accessModes),
    str(s.persistentVolumeReclaimPolicy),
    phase,
    claimText,
    storageClassOf(obj),
    vac,
    str(st.reason),
    age(obj, now),
    volumeMode,
  ];
}

export const persistentVolumes: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'persistentvolumes',
  kind: 'PersistentVolume',
  listKind: 'PersistentVolumeList',
  singularName: 'persistentvolume',
  shortNames: ['pv'],
  categories: [],
  namespaced: false,
  strategy,
  subresources: { status: statusStrategy },
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: true,
  admission: volumeAdmission,
  table: {
    columns: [
      NAME_COLUMN,
      column('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"),
      column('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes'),
      column(
        'Reclaim Policy',
        'string',
        'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
      ),
      column('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase'),
      column(
        'Claim',
        'string',
        'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
      ),
      column('StorageClass', 'string', 'StorageClass of the pv'),
      column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
      column('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.'),
      AGE_COLUMN,
      column('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.', 1),
    ],
    cells,
  },
};
