// Pod volumes (ValidateVolumes): one source per volume, each source's own rules, in kube
// 1.33's order and with its paths (including its misspellings).

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, inclusiveRange, invalid, notSupported, required, tooLong } from '../../../machinery/validation/field.js';
import { isDNS1123Subdomain, validateDNS1123Label } from '../../../machinery/validation/names.js';
import { isQtyNegative, qty } from '../../../schema/quantity.js';
import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { validatePersistentVolumeClaimTemplate } from '../persistentvolumeclaims/spec-validation.js';
import { validateDownwardAPIFile } from './downward-api.js';
import { fileMode, localDescendingPath, localNonReservedPath, noBacksteps } from './paths.js';

const has = (o: Obj | undefined, k: string): boolean => o !== undefined && o[k] !== undefined && o[k] !== null;

type SourceValidator = (src: Obj, path: string, ctx: VolumeContext) => FieldError[];
interface VolumeContext {
  volName: string;
  volPath: string;
  podName?: string;
}

const requireFields =
  (...fields: string[]): SourceValidator =>
  (src, path) =>
    fields.filter((f) => !has(src, f) || src[f] === '' || (Array.isArray(src[f]) && (src[f] as unknown[]).length === 0)).map((f) => required(`${path}.${f}`));

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function validateKeyToPath(kp: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(kp.key)) errs.push(required(`${path}.key`));
  if (!str(kp.path)) errs.push(required(`${path}.path`));
  errs.push(...localNonReservedPath(str(kp.path), `${path}.path`));
  errs.push(...fileMode(kp.mode, `${path}.mode`));
  return errs;
}


function validateProjected(src: Obj, path: string): FieldError[] {
  const errs = fileMode(src.defaultMode, `${path}.defaultMode`);
  const paths = new Set<string>();
  const seen = (p: string, bad: unknown): void => {
    if (paths.has(p)) errs.push(invalid(path, bad, 'conflicting duplicate paths'));
    else paths.add(p);
  };
  asArr(src.sources).forEach((raw, i) => {
    const s = asObj(raw) ?? {};
    const sp = `${path}.sources[${i}]`;
    let n = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const o = asObj(s[kind]);
      if (!o) continue;
      n++;
      if (!str(o.name)) errs.push(required(`${sp}.${kind}.name`));
      asArr(o.items).forEach((it, j) => {
        const kp = asObj(it) ?? {};
        errs.push(...validateKeyToPath(kp, `${sp}.${kind}.items[${j}]`));
        if (str(kp.path)) seen(str(kp.path), str(o.name));
      });
    }
    const dapi = asObj(s.downwardAPI);
    if (dapi) {
      n++;
      for (const f of asArr(dapi.items)) {
        const file = asObj(f) ?? {};
        errs.push(...validateDownwardAPIFile(file, `${sp}.downwardAPI`));
        if (str(file.path)) seen(str(file.path), str(file.path));
      }
    }
    const sat = asObj(s.serviceAccountToken);
    if (sat) {
      n++;
      const exp = sat.expirationSeconds;
      if (typeof exp === 'number' && exp < 600) errs.push(invalid(`${sp}.serviceAccountToken.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
      if (typeof exp === 'number' && exp > 2 ** 32) errs.push(invalid(`${sp}.serviceAccountToken.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
      if (!str(sat.path)) errs.push(required(`${path}.path`));
      else errs.push(...localNonReservedPath(str(sat.path), `${path}.path`));
    }
    const ctb = asObj(s.clusterTrustBundle);
    if (ctb) {
      n++;
      if (!str(ctb.path)) errs.push(required(`${sp}.clusterTrustBundle.path`));
      errs.push(...localNonReservedPath(str(ctb.path), `${sp}.clusterTrustBundle.path`));
      seen(str(ctb.path), str(ctb.path));
    }
    if (n > 1) errs.push(forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

function validateCSIDriverName(driver: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(required(path));
  if (driver.length > 63) errs.push(tooLong(path, 63));
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(path, driver, m)));
  return errs;
}

/** A secret or config map source: its name (in `nameField`), a default mode, key-to-path items. */
const keyToPathSource =
  (nameField: string): SourceValidator =>
  (src, path) => {
    const errs = str(src[nameField]) ? [] : [required(`${path}.${nameField}`)];
    errs.push(...fileMode(src.defaultMode, `${path}.defaultMode`));
    asArr(src.items).forEach((it, i) => errs.push(...validateKeyToPath(asObj(it) ?? {}, `${path}.items[${i}]`)));
    return errs;
  };

/** The volume sources in kube's order: [json key, path used in "more than 1" errors, validator]. */
const VOLUME_SOURCES: [string, string, SourceValidator][] = [
  [
    'emptyDir',
    'emptyDir',
    (src, path) => {
      const q = src.sizeLimit === undefined || src.sizeLimit === null ? undefined : qty(src.sizeLimit);
      return q && isQtyNegative(q) ? [forbidden(`${path}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')] : [];
    },
  ],
  [
    'hostPath',
    'hostPath',
    (src, path) => {
      if (!str(src.path)) return [required(`${path}.path`)];
      const errs = noBacksteps(str(src.path), `${path}.path`);
      if (src.type !== undefined && src.type !== null && !HOST_PATH_TYPES.includes(str(src.type))) {
        errs.push(notSupported(`${path}.type`, src.type, HOST_PATH_TYPES));
      }
      return errs;
    },
  ],
  [
    'gitRepo',
    'gitRepo',
    (src, path) => {
      const errs = str(src.repository) ? [] : [required(`${path}.repository`)];
      return [...errs, ...localDescendingPath(str(src.directory), `${path}.directory`)];
    },
  ],
  [
    'gcePersistentDisk',
    'gcePersistentDisk',
    (src, _path, ctx) => {
      // kube validates this source under `persistentDisk` (sic).
      const p = `${ctx.volPath}.persistentDisk`;
      const errs = str(src.pdName) ? [] : [required(`${p}.pdName`)];
      const part = src.partition;
      if (typeof part === 'number' && (part < 0 || part > 255)) errs.push(invalid(`${p}.partition`, part, inclusiveRange(1, 255)));
      return errs;
    },
  ],
  ['awsElasticBlockStore', 'awsElasticBlockStore', requireFields('volumeID')],
  ['secret', 'secret', keyToPathSource('secretName')],
  [
    'nfs',
    'nfs',
    (src, path) => {
      const errs = requireFields('server', 'path')(src, path, {} as VolumeContext);
      if (!str(src.path).startsWith('/')) errs.push(invalid(`${path}.path`, str(src.path), 'must be an absolute path'));
      return errs;
    },
  ],
  ['iscsi', 'iscsi', requireFields('targetPortal', 'iqn')],
  ['glusterfs', 'glusterfs', requireFields('endpoints', 'path')],
  ['flocker', 'flocker', () => []],
  ['persistentVolumeClaim', 'persistentVolumeClaim', requireFields('claimName')],
  ['rbd', 'rbd', requireFields('monitors', 'image')],
  ['cinder', 'cinder', requireFields('volumeID')],
  ['cephfs', 'cephFS', requireFields('monitors')],
  ['quobyte', 'quobyte', requireFields('volume')],
  [
    'downwardAPI',
    'downwarAPI',
    (src, path) => {
      const errs = fileMode(src.defaultMode, `${path}.defaultMode`);
      for (const f of asArr(src.items)) errs.push(...validateDownwardAPIFile(asObj(f) ?? {}, path));
      return errs;
    },
  ],
  ['fc', 'fc', () => []],
  ['flexVolume', 'flexVolume', requireFields('driver')],
  ['configMap', 'configMap', keyToPathSource('name')],
  ['azureFile', 'azureFile', requireFields('secretName', 'shareName')],
  ['vsphereVolume', 'vsphereVolume', requireFields('volumePath')],
  ['photonPersistentDisk', 'photonPersistentDisk', requireFields('pdID')],
  ['portworxVolume', 'portworxVolume', requireFields('volumeID')],
  ['azureDisk', 'azureDisk', requireFields('diskName', 'diskURI')],
  ['storageos', 'storageos', requireFields('volumeName')],
  ['projected', 'projected', (src, path) => validateProjected(src, path)],
  ['scaleIO', 'scaleIO', requireFields('gateway', 'system', 'volumeName')],
  ['csi', 'csi', (src, path) => validateCSIDriverName(str(src.driver), `${path}.driver`)],
  [
    'ephemeral',
    'ephemeral',
    (src, path, ctx) => {
      const errs: FieldError[] = [];
      if (!isObj(src.volumeClaimTemplate)) errs.push(required(`${path}.volumeClaimTemplate`));
      else errs.push(...validatePersistentVolumeClaimTemplate(src.volumeClaimTemplate, `${path}.volumeClaimTemplate`));
      if (ctx.podName && ctx.volName) {
        const pvc = `${ctx.podName}-${ctx.volName}`;
        for (const m of isDNS1123Subdomain(pvc)) errs.push(invalid(`${ctx.volPath}.name`, ctx.volName, `PVC name ${JSON.stringify(pvc)}: ${m}`));
      }
      return errs;
    },
  ],
  ['image', 'image', () => []],
];

function validateVolumeSource(vol: Obj, path: string, ctx: VolumeContext): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const [k, forbidPath, validator] of VOLUME_SOURCES) {
    const src = vol[k];
    if (src === undefined || src === null) continue;
    if (n > 0) {
      errs.push(forbidden(`${path}.${forbidPath}`, 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...validator(asObj(src) ?? {}, `${path}.${k}`, ctx));
  }
  if (n === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: the valid volumes by name, and the errors. */
export function validateVolumes(volumes: unknown, path: string, podName?: string): { vols: Map<string, Obj>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const vols = new Map<string, Obj>();
  const names = new Set<string>();
  const created = new Set<string>();
  const list = asArr(volumes);
  if (podName) for (const raw of list) if (isObj(asObj(raw)?.ephemeral)) created.add(`${podName}-${str(asObj(raw)?.name)}`);
  list.forEach((raw, i) => {
    const vol = asObj(raw) ?? {};
    const name = str(vol.name);
    const p = `${path}[${i}]`;
    const el = validateVolumeSource(vol, p, { volName: name, volPath: p, podName });
    if (!name) el.push(required(`${p}.name`));
    else el.push(...validateDNS1123Label(name, `${p}.name`));
    if (names.has(name)) el.push(duplicate(`${p}.name`, name));
    if (el.length === 0) {
      names.add(name);
      vols.set(name, vol);
    } else errs.push(...el);
    const claim = str(asObj(vol.persistentVolumeClaim)?.claimName);
    if (claim && created.has(claim)) {
      errs.push(invalid(`${p}.persistentVolumeClaim.claimName`, claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { vols, errs };
}
