// Pod spec and pod template validation with kube-apiserver 1.33's field paths and messages
// (after pkg/apis/core/validation: ValidatePodSpec, ValidatePodTemplateSpec, the container,
// volume, probe, resource and security-context rules, and the PersistentVolumeClaim spec
// rules that ephemeral volumes and PVCs share). Feature gates are taken at their 1.33
// defaults: relaxed env var names, relaxed DNS search paths and zero-second sleep actions
// are allowed; pod-level resources and image volumes are off.
//
// Go prints a bad value through its String() method when it has one (resource names,
// quantities): those values are wrapped in GoStringer so they render bare, not quoted.

import type { FieldError } from '../../machinery/errors.js';
import { validateAnnotations, validateLabelSelector, validateLabels } from '../../machinery/validation/object-meta.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.js';
import { goFloatString, parseQuantity } from '../../schema/quantity.js';
import { OBJECT_META_FIELDS } from '../../machinery/meta.js';
import { asArr, asObj, isObj, str, type Obj } from '../../machinery/json-view.js';

/** A bad value Go renders with its String() method: printed bare, without quotes. */
export class GoStringer {
  constructor(readonly goString: string) {}
  toJSON(): string {
    return this.goString;
  }
}

export interface PodValidationOptions {
  /** The object is a Pod (not a template embedded in another resource). */
  resourceIsPod?: boolean;
  /** The pod's metadata, for the names of generic ephemeral volume claims (pods only). */
  podName?: string;
  /** The old pod already had an invalid pod-deletion-cost annotation (update ratcheting). */
  allowInvalidPodDeletionCost?: boolean;
  /**
   * Volumes the pods will get from elsewhere (a StatefulSet's claim templates): each is a
   * persistentVolumeClaim volume of that name, and replaces a spec volume of the same name.
   */
  claimVolumes?: readonly string[];
}

// ---- quantities (src/schema/quantity.ts parses; comparisons here use its numeric value) ----

export interface Qty {
  canonical: string;
  value: number;
  isZero: boolean;
  add(o: Qty): Qty;
}

const mkQty = (canonical: string, value: number): Qty => ({
  canonical,
  value,
  isZero: value === 0,
  add: (o) => mkQty('', value + o.value),
});

/** A quantity from its JSON form (string or number), or undefined when it does not parse. */
export function qty(v: unknown): Qty | undefined {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' && Number.isFinite(v)) s = goFloatString(v);
  else return undefined;
  const r = parseQuantity(s);
  return r.ok ? mkQty(r.canonical, r.value) : undefined;
}

/** The canonical form of a JSON quantity, or the input unchanged when it does not parse. */
export function canonicalQty(v: unknown): unknown {
  const q = qty(v);
  return q ? q.canonical : v;
}

/** Compares two quantities (relative tolerance for float rounding of sums). */
export function cmpQty(a: Qty, b: Qty): number {
  const d = a.value - b.value;
  if (Math.abs(d) <= 1e-12 * Math.max(Math.abs(a.value), Math.abs(b.value))) return 0;
  return d < 0 ? -1 : 1;
}
const isQtyNegative = (q: Qty): boolean => q.value < 0;
const isQtyPositive = (q: Qty): boolean => q.value > 0;
/** MilliValue() % 1000 == 0 (MilliValue rounds up). */
function milliIsWhole(q: Qty): boolean {
  const m = q.value * 1000;
  const r = Math.round(m);
  const milli = Math.abs(m - r) <= 1e-9 * Math.max(1, Math.abs(m)) ? r : Math.ceil(m);
  return milli % 1000 === 0;
}

// ---- small helpers ----

const has = (o: Obj | undefined, k: string): boolean => o !== undefined && o[k] !== undefined && o[k] !== null;

const required = (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail });
const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail });
const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
const duplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' });
const notSupported = (field: string, badValue: unknown, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  badValue,
  detail: '',
  supported,
});
/** field.NotFound (kube's FieldValueNotFound, rendered "Not found"). */
const notFound = (field: string, badValue: unknown): FieldError =>
  ({ type: 'FieldValueNotFound', field, badValue, detail: '' }) as unknown as FieldError;
const tooLong = (field: string, max: number): FieldError => ({ type: 'FieldValueTooLong', field, detail: `may not be more than ${max} bytes` });

const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;
const NON_NEGATIVE = 'must be greater than or equal to 0';
const MAX_INT32 = 2147483647;

const nonNegative = (v: unknown, field: string): FieldError[] => (typeof v === 'number' && v < 0 ? [invalid(field, v, NON_NEGATIVE)] : []);

/** path.Key(k): `path[k]`. */
const key = (path: string, k: string): string => `${path}[${k}]`;

const dnsLabel = (v: string, field: string): FieldError[] => isDNS1123Label(v).map((m) => invalid(field, v, m));
const dnsSubdomain = (v: string, field: string): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(field, v, m));
const qualifiedName = (v: string, field: string): FieldError[] => isQualifiedName(v).map((m) => invalid(field, v, m));
/** NameIsDNSSubdomain with a generateName-style prefix (a trailing '-' is allowed). */
const subdomainPrefix = (v: string): string[] => isDNS1123Subdomain(v.length > 1 && v.endsWith('-') ? v.slice(0, -1) + 'a' : v);

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

function hasChDirPrefix(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  if (v.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation is on in 1.33). */
function isRelaxedEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (v.length === 0) errs.push('environment variable name must be non-empty');
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (c > 127 || c < 32 || c === 127 || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

function isConfigMapKey(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!/^[-._a-zA-Z0-9]+$/.test(v)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", '[-._a-zA-Z0-9]+', 'key.name', 'KEY_NAME', 'key-name'));
  }
  errs.push(...hasChDirPrefix(v));
  return errs;
}

const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** netutils.ParseIPSloppy: IPv4 (leading zeros allowed) or IPv6. */
export function isIP(v: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(v)) return v.split('.').every((p) => Number(p) <= 255);
  if (!v.includes(':') || /[^0-9a-fA-F:.]/.test(v)) return false;
  let s = v;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  let groups = 8;
  if (tail.includes('.')) {
    if (!isIP(tail) || tail.includes(':')) return false;
    s = s.slice(0, lastColon + 1) + '0:0';
    groups = 8;
  }
  const dbl = s.split('::');
  if (dbl.length > 2) return false;
  const parts = (x: string): string[] => (x === '' ? [] : x.split(':'));
  const head = parts(dbl[0]);
  const rest = dbl.length === 2 ? parts(dbl[1]) : [];
  const all = [...head, ...rest];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return dbl.length === 2 ? all.length < groups : all.length === groups;
}

const ipErrors = (v: string, field: string): FieldError[] => (isIP(v) ? [] : [invalid(field, v, IP_MSG)]);

/** path.IsAbs, no `..` elements (validateLocalDescendingPath). */
function localDescendingPath(p: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.startsWith('/')) errs.push(invalid(field, p, 'must be a relative path'));
  errs.push(...noBacksteps(p, field));
  return errs;
}

function noBacksteps(p: string, field: string): FieldError[] {
  return p.split('/').includes('..') ? [invalid(field, p, "must not contain '..'")] : [];
}

function localNonReservedPath(p: string, field: string): FieldError[] {
  const errs = localDescendingPath(p, field);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(invalid(field, p, "must not start with '..'"));
  return errs;
}

const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
const fileMode = (v: unknown, field: string): FieldError[] =>
  typeof v === 'number' && (v > 0o777 || v < 0) ? [invalid(field, v, FILE_MODE_MSG)] : [];

// ---- resource names and quantities ----

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

const isHugePages = (n: string): boolean => n.startsWith('hugepages-');
const isNativeResource = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/');
const isExtendedResource = (n: string): boolean =>
  !isNativeResource(n) && !n.startsWith('requests.') && isQualifiedName(`requests.${n}`).length === 0;
const isOvercommitAllowed = (n: string): boolean => isNativeResource(n) && !isHugePages(n);
const isIntegerResource = (n: string): boolean => INTEGER_RESOURCES.has(n) || isExtendedResource(n);

function validateResourceName(name: string, field: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(field, new GoStringer(name), m));
  if (errs.length) return errs;
  if (!name.includes('/') && !(STANDARD_RESOURCES.has(name) || isHugePages(name))) {
    errs.push(invalid(field, new GoStringer(name), 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

function validateContainerResourceName(name: string, field: string): FieldError[] {
  const errs = validateResourceName(name, field);
  if (!name.includes('/')) {
    if (!(STANDARD_CONTAINER_RESOURCES.has(name) || isHugePages(name))) {
      errs.push(invalid(field, new GoStringer(name), 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    errs.push(invalid(field, new GoStringer(name), "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue: not negative; whole for integer resources. */
function validateQuantityValue(name: string, q: Qty, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isQtyNegative(q)) errs.push(invalid(field, q.canonical, NON_NEGATIVE));
  if (isIntegerResource(name) && !milliIsWhole(q)) errs.push(invalid(field, new GoStringer(q.canonical), 'must be an integer'));
  return errs;
}

/** validateResourceQuantityHugePageValue: a whole multiple of the page size. */
function hugePageValue(name: string, q: Qty, field: string): FieldError[] {
  const page = qty(name.slice('hugepages-'.length));
  const whole = (v: number): number => Math.sign(v) * Math.ceil(Math.abs(v) - 1e-9);
  const ok = page !== undefined && page.value > 0 && milliIsWhole(page) && whole(q.value) % whole(page.value) === 0;
  return ok ? [] : [invalid(field, q.canonical, `${q.canonical} is not positive integer multiple of ${name}`)];
}

/** ValidateContainerResourceRequirements (also used for pod overhead). */
export function validateResourceRequirements(res: unknown, podClaimNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = asObj(res) ?? {};
  const limits = asObj(r.limits) ?? {};
  const requests = asObj(r.requests) ?? {};
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  let limCpuMem = false;
  let reqCpuMem = false;
  let limHuge = false;
  let reqHuge = false;
  for (const [name, raw] of Object.entries(limits)) {
    const f = key(limPath, name);
    errs.push(...validateContainerResourceName(name, f));
    const q = qty(raw);
    if (q) errs.push(...validateQuantityValue(name, q, f));
    if (isHugePages(name)) {
      limHuge = true;
      if (q) errs.push(...hugePageValue(name, q, f));
    }
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const [name, raw] of Object.entries(requests)) {
    const f = key(reqPath, name);
    errs.push(...validateContainerResourceName(name, f));
    const q = qty(raw);
    if (q) errs.push(...validateQuantityValue(name, q, f));
    const lim = Object.hasOwn(limits, name) ? qty(limits[name]) : undefined;
    if (Object.hasOwn(limits, name)) {
      if (q && lim) {
        const c = cmpQty(q, lim);
        if (c !== 0 && !isOvercommitAllowed(name)) {
          errs.push(invalid(reqPath, q.canonical, `must be equal to ${name} limit of ${lim.canonical}`));
        } else if (c > 0) {
          errs.push(invalid(reqPath, q.canonical, `must be less than or equal to ${name} limit of ${lim.canonical}`));
        }
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) {
      reqHuge = true;
      if (q) errs.push(...hugePageValue(name, q, f));
    }
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && (reqHuge || limHuge)) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(r.claims, podClaimNames, `${path}.claims`));
  return errs;
}

function validateResourceClaimNames(claims: unknown, podClaimNames: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArr(claims).forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const name = str(c.name);
    const p = `${path}[${i}]`;
    if (!name) {
      errs.push(required(p));
      return;
    }
    const request = str(c.request);
    if (names.has(name)) {
      errs.push(duplicate(p, name));
    } else {
      let k = name;
      if (request) {
        errs.push(...dnsLabel(request, `${p}.request`));
        k += `/${request}`;
      }
      if (names.has(k)) errs.push(duplicate(p, k));
      else if (!request) {
        for (const n of names) {
          const idx = n.indexOf('/');
          if (idx >= 0 && n.slice(0, idx) === name) errs.push(duplicate(p, name));
        }
      }
      names.add(k);
    }
    if (!podClaimNames.has(name)) {
      const list = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${list.length === 0 ? ' which is empty' : `: ${list.join(', ')}`}`;
      errs.push({ ...notFound(p, name), detail });
    }
  });
  return errs;
}

// ---- PersistentVolumeClaim spec (PVCs and generic ephemeral volumes) ----

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

export function validatePersistentVolumeClaimSpec(spec: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const s = asObj(spec) ?? {};
  const modes = asArr(s.accessModes);
  if (modes.length === 0) errs.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (s.selector !== undefined && s.selector !== null) errs.push(...validateLabelSelector(s.selector, `${path}.selector`));
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!ACCESS_MODES.includes(str(m))) errs.push(notSupported(`${path}.accessModes`, m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(str(m))) other = true;
  }
  if (rwop && other) errs.push(forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const requests = asObj(asObj(s.resources)?.requests) ?? {};
  const storagePath = key(`${path}.resources`, 'storage');
  if (!Object.hasOwn(requests, 'storage')) {
    errs.push(required(storagePath));
  } else {
    const q = qty(requests.storage);
    if (q && !isQtyPositive(q)) errs.push(invalid(storagePath, q.canonical, 'must be greater than zero'));
  }
  const sc = s.storageClassName;
  if (typeof sc === 'string' && sc.length > 0) errs.push(...dnsSubdomain(sc, `${path}.storageClassName`));
  if (s.volumeMode !== undefined && s.volumeMode !== null && !VOLUME_MODES.includes(str(s.volumeMode))) {
    errs.push(notSupported(`${path}.volumeMode`, s.volumeMode, VOLUME_MODES));
  }
  const ds = asObj(s.dataSource);
  const dsr = asObj(s.dataSourceRef);
  if (ds) errs.push(...validateDataSource(ds, `${path}.dataSource`, false));
  if (dsr) errs.push(...validateDataSource(dsr, `${path}.dataSourceRef`, true));
  if (dsr && str(dsr.namespace)) {
    if (ds) errs.push(invalid(path, `${path}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (ds && dsr) {
    if ((ds.apiGroup ?? null) !== (dsr.apiGroup ?? null) || ds.kind !== dsr.kind || ds.name !== dsr.name) {
      errs.push(invalid(path, `${path}.dataSource`, 'must match dataSourceRef'));
    }
  }
  return errs;
}

function validateDataSource(d: Obj, path: string, isRef: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(d.name)) errs.push(required(`${path}.name`));
  if (!str(d.kind)) errs.push(required(`${path}.kind`));
  const group = str(d.apiGroup);
  if (!group && d.kind !== 'PersistentVolumeClaim') {
    errs.push(invalid(path, str(d.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (group) errs.push(...isDNS1123Subdomain(group).map((m) => invalid(`${path}.apiGroup`, group, m)));
  if (isRef && str(d.namespace)) errs.push(...dnsLabel(str(d.namespace), `${path}.namespace`));
  return errs;
}

/** A template's metadata may hold labels and annotations only. */
const TEMPLATE_META_FORBIDDEN = OBJECT_META_FIELDS.filter((f) => f !== 'labels' && f !== 'annotations');

/** ValidateTemplateObjectMeta: only labels and annotations may be set. */
function validateTemplateObjectMeta(meta: unknown, path: string): FieldError[] {
  const m = asObj(meta) ?? {};
  const errs = validateAnnotations(m.annotations, `${path}.annotations`);
  errs.push(...validateLabels(m.labels, `${path}.labels`));
  for (const f of TEMPLATE_META_FORBIDDEN) {
    const v = m[f];
    const zero = v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);
    if (!zero) errs.push(forbidden(`${path}.${f}`, 'cannot be set'));
  }
  return errs;
}

export function validatePersistentVolumeClaimTemplate(tpl: unknown, path: string): FieldError[] {
  const t = asObj(tpl) ?? {};
  return [...validateTemplateObjectMeta(t.metadata, `${path}.metadata`), ...validatePersistentVolumeClaimSpec(t.spec, `${path}.spec`)];
}

// ---- volumes ----

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

const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
const DOWNWARD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);
const CONTAINER_RESOURCE_FIELDS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function splitSubscripted(p: string): [string, string] | undefined {
  if (!p.endsWith("']")) return undefined;
  const s = p.slice(0, -2);
  const i = s.indexOf("['");
  if (i <= 0) return undefined;
  return [s.slice(0, i), s.slice(i + 2)];
}

function validateObjectFieldSelector(fs: Obj, expressions: string[], path: string): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (!apiVersion) return [required(`${path}.apiVersion`)];
  if (!fieldPath) return [required(`${path}.fieldPath`)];
  let internal = fieldPath;
  let convErr: string | undefined;
  if (apiVersion !== 'v1') convErr = `unsupported pod version: ${apiVersion}`;
  else {
    const sub = splitSubscripted(fieldPath);
    if (sub) {
      if (sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convErr = `field label does not support subscript: ${fieldPath}`;
    } else if (fieldPath === 'spec.host') internal = 'spec.nodeName';
    else if (!DOWNWARD_LABELS.has(fieldPath)) convErr = `field label not supported: ${fieldPath}`;
  }
  if (convErr) return [invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${convErr}`)];
  const sub = splitSubscripted(internal);
  if (sub) {
    if (sub[0] === 'metadata.annotations') return qualifiedName(sub[1].toLowerCase(), path);
    return qualifiedName(sub[1], path);
  }
  if (!expressions.includes(internal)) return [notSupported(`${path}.fieldPath`, internal, expressions)];
  return [];
}

const DIVISORS_CPU = new Set(['1m', '1']);
const DIVISORS_MEM = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);

function validateContainerResourceFieldSelector(fs: Obj, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && !str(fs.containerName)) errs.push(required(`${path}.containerName`));
  else if (!resource) errs.push(required(`${path}.resource`));
  else if (!CONTAINER_RESOURCE_FIELDS.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    errs.push(notSupported(`${path}.resource`, resource, CONTAINER_RESOURCE_FIELDS));
  }
  const d = fs.divisor === undefined || fs.divisor === null ? undefined : qty(fs.divisor);
  if (d && !d.isZero) {
    const ds = d.canonical;
    if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !DIVISORS_CPU.has(ds)) {
      errs.push(invalid(`${path}.divisor`, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
    } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !DIVISORS_MEM.has(ds)) {
      errs.push(invalid(`${path}.divisor`, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"));
    } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !DIVISORS_MEM.has(ds)) {
      errs.push(
        invalid(`${path}.divisor`, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"),
      );
    }
    if ((resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) && !DIVISORS_MEM.has(ds)) {
      errs.push(invalid(`${path}.divisor`, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"));
    }
  }
  return errs;
}

function validateDownwardAPIFile(file: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(file.path)) errs.push(required(`${path}.path`));
  errs.push(...localNonReservedPath(str(file.path), `${path}.path`));
  const fr = asObj(file.fieldRef);
  const rr = asObj(file.resourceFieldRef);
  if (fr) {
    errs.push(...validateObjectFieldSelector(fr, VOLUME_FIELD_PATHS, `${path}.fieldRef`));
    if (rr) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (rr) {
    errs.push(...validateContainerResourceFieldSelector(rr, `${path}.resourceFieldRef`, true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...fileMode(file.mode, `${path}.mode`));
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
  [
    'secret',
    'secret',
    (src, path) => {
      const errs = str(src.secretName) ? [] : [required(`${path}.secretName`)];
      errs.push(...fileMode(src.defaultMode, `${path}.defaultMode`));
      asArr(src.items).forEach((it, i) => errs.push(...validateKeyToPath(asObj(it) ?? {}, `${path}.items[${i}]`)));
      return errs;
    },
  ],
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
  [
    'configMap',
    'configMap',
    (src, path) => {
      const errs = str(src.name) ? [] : [required(`${path}.name`)];
      errs.push(...fileMode(src.defaultMode, `${path}.defaultMode`));
      asArr(src.items).forEach((it, i) => errs.push(...validateKeyToPath(asObj(it) ?? {}, `${path}.items[${i}]`)));
      return errs;
    },
  ],
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

export const VOLUME_SOURCE_KEYS = VOLUME_SOURCES.map(([k]) => k);

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
export function validateVolumes(
  volumes: unknown,
  path: string,
  podName?: string,
  claimVolumes: readonly string[] = [],
): { vols: Map<string, Obj>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const vols = new Map<string, Obj>();
  const names = new Set<string>();
  const created = new Set<string>();
  const list = asArr(volumes);
  if (podName) for (const raw of list) if (isObj(asObj(raw)?.ephemeral)) created.add(`${podName}-${str(asObj(raw)?.name)}`);
  list.forEach((raw, i) => {
    const vol = asObj(raw) ?? {};
    const name = str(vol.name);
    if (claimVolumes.length > 0 && claimVolumes.includes(name)) return;
    const p = `${path}[${i}]`;
    const el = validateVolumeSource(vol, p, { volName: name, volPath: p, podName });
    if (!name) el.push(required(`${p}.name`));
    else el.push(...dnsLabel(name, `${p}.name`));
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
  for (const name of claimVolumes) if (name) vols.set(name, { name, persistentVolumeClaim: { claimName: name } });
  return { vols, errs };
}

// ---- containers ----

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RRO = ['Disabled', 'Enabled', 'IfPossible'];

function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArr(ports).forEach((raw, i) => {
    const port = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(port.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) errs.push(...msgs.map((m) => invalid(`${p}.name`, name, m)));
      else if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
      else names.add(name);
    }
    const cp = port.containerPort;
    if (cp === undefined || cp === null || cp === 0) errs.push(required(`${p}.containerPort`));
    else if (typeof cp === 'number') errs.push(...isValidPortNum(cp).map((m) => invalid(`${p}.containerPort`, cp, m)));
    const hp = port.hostPort;
    if (typeof hp === 'number' && hp !== 0) errs.push(...isValidPortNum(hp).map((m) => invalid(`${p}.hostPort`, hp, m)));
    const proto = port.protocol;
    if (proto === undefined || proto === null || proto === '') errs.push(required(`${p}.protocol`));
    else if (!PROTOCOLS.includes(str(proto))) errs.push(notSupported(`${p}.protocol`, proto, PROTOCOLS));
  });
  return errs;
}

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(env).forEach((raw, i) => {
    const ev = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(ev.name);
    if (!name) errs.push(required(`${p}.name`));
    else errs.push(...isRelaxedEnvVarName(name).map((m) => invalid(`${p}.name`, name, m)));
    errs.push(...validateEnvVarValueFrom(ev, `${p}.valueFrom`));
  });
  return errs;
}

function validateKeySelector(s: Obj, path: string): FieldError[] {
  const errs = isDNS1123Subdomain(str(s.name)).map((m) => invalid(`${path}.name`, str(s.name), m));
  const k = str(s.key);
  if (!k) errs.push(required(`${path}.key`));
  else errs.push(...isConfigMapKey(k).map((m) => invalid(`${path}.key`, k, m)));
  return errs;
}

function validateEnvVarValueFrom(ev: Obj, path: string): FieldError[] {
  const vf = asObj(ev.valueFrom);
  if (!vf) return [];
  const errs: FieldError[] = [];
  let n = 0;
  const fr = asObj(vf.fieldRef);
  if (fr) {
    n++;
    errs.push(...validateObjectFieldSelector(fr, ENV_FIELD_PATHS, `${path}.fieldRef`));
  }
  const rr = asObj(vf.resourceFieldRef);
  if (rr) {
    n++;
    errs.push(...validateContainerResourceFieldSelector(rr, `${path}.resourceFieldRef`, false));
  }
  const cm = asObj(vf.configMapKeyRef);
  if (cm) {
    n++;
    errs.push(...validateKeySelector(cm, `${path}.configMapKeyRef`));
  }
  const sk = asObj(vf.secretKeyRef);
  if (sk) {
    n++;
    errs.push(...validateKeySelector(sk, `${path}.secretKeyRef`));
  }
  if (n === 0) errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value)) errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (n > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

function validateEnvFrom(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(envFrom).forEach((raw, i) => {
    const ev = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix) errs.push(...isRelaxedEnvVarName(prefix).map((m) => invalid(`${p}.prefix`, prefix, m)));
    let n = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = asObj(ev[kind]);
      if (!ref) continue;
      n++;
      const name = str(ref.name);
      if (!name) errs.push(required(`${p}.${kind}.name`));
      else errs.push(...subdomainPrefix(name).map((m) => invalid(`${p}.${kind}.name`, name, m)));
    }
    if (n === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateVolumeMounts(mounts: unknown, devices: Map<string, string>, vols: Map<string, Obj>, ctr: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountpoints = new Set<string>();
  const privileged = asObj(ctr.securityContext)?.privileged === true;
  asArr(mounts).forEach((raw, i) => {
    const m = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!name) errs.push(required(`${p}.name`));
    if (!vols.has(name)) errs.push(notFound(`${p}.name`, name));
    if (!mountPath) errs.push(required(`${p}.mountPath`));
    if (mountpoints.has(mountPath)) errs.push(invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountpoints.add(mountPath);
    if (devices.has(name)) errs.push(invalid(`${p}.name`, name, 'must not already exist in volumeDevices'));
    if ([...devices.values()].includes(mountPath)) errs.push(invalid(`${p}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (has(vols.get(name), 'image')) {
      if (subPath) errs.push(invalid(`${p}.subPath`, subPath, 'not allowed in image volume sources'));
      if (subPathExpr) errs.push(invalid(`${p}.subPathExpr`, subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath) errs.push(...localDescendingPath(subPath, `${path}.subPath`));
    if (subPathExpr) {
      if (subPath) errs.push(invalid(`${p}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    const mp = m.mountPropagation;
    if (mp !== undefined && mp !== null) {
      if (!MOUNT_PROPAGATIONS.includes(str(mp))) errs.push(notSupported(`${path}.mountPropagation`, mp, MOUNT_PROPAGATIONS));
      if (mp === 'Bidirectional' && !privileged) {
        errs.push(forbidden(`${path}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    const rro = m.recursiveReadOnly;
    if (rro !== undefined && rro !== null && rro !== 'Disabled') {
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (m.readOnly !== true) errs.push(forbidden(`${path}.recursiveReadOnly`, 'may only be specified when readOnly is true'));
        if (mp !== undefined && mp !== null && mp !== 'None') {
          errs.push(forbidden(`${path}.recursiveReadOnly`, 'may only be specified when mountPropagation is None or not specified'));
        }
      } else errs.push(notSupported(`${path}.recursiveReadOnly`, rro, RRO));
    }
  });
  return errs;
}

function validateVolumeDevices(devices: unknown, mounts: Map<string, string>, vols: Map<string, Obj>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  asArr(devices).forEach((raw, i) => {
    const d = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(d.name);
    const devPath = str(d.devicePath);
    const vol = vols.get(name);
    const isPVC = has(vol, 'persistentVolumeClaim') || has(vol, 'ephemeral');
    if (!name) errs.push(required(`${p}.name`));
    if (names.has(name)) errs.push(invalid(`${p}.name`, name, 'must be unique'));
    if (vol && !isPVC) errs.push(invalid(`${p}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!vol) errs.push(notFound(`${p}.name`, name));
    if (!devPath) errs.push(required(`${p}.devicePath`));
    if (paths.has(devPath)) errs.push(invalid(`${p}.devicePath`, devPath, 'must be unique'));
    if (devPath && devPath.split('/').includes('..')) errs.push(invalid(`${p}.devicePath`, devPath, "can not contain backsteps ('..')"));
    else paths.add(devPath);
    if (mounts.has(name)) errs.push(invalid(`${p}.name`, name, 'must not already exist in volumeMounts'));
    if ([...mounts.values()].includes(devPath)) errs.push(invalid(`${p}.devicePath`, devPath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}

function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return isValidPortNum(0).map((m) => invalid(path, 0, m));
}

interface Handler {
  exec?: unknown;
  httpGet?: unknown;
  tcpSocket?: unknown;
  grpc?: unknown;
  sleep?: unknown;
}

function validateHandler(h: Handler, grace: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const take = (k: keyof Handler, validate: (o: Obj, p: string) => FieldError[]): void => {
    if (h[k] === undefined || h[k] === null) return;
    if (n > 0) {
      errs.push(forbidden(`${path}.${k}`, 'may not specify more than 1 handler type'));
      return;
    }
    n++;
    errs.push(...validate(asObj(h[k]) ?? {}, `${path}.${k}`));
  };
  take('exec', (o, p) => (asArr(o.command).length === 0 ? [required(`${p}.command`)] : []));
  take('httpGet', (o, p) => {
    const e: FieldError[] = [];
    if (!str(o.path)) e.push(required(`${p}.path`));
    e.push(...validatePortNumOrName(o.port, `${p}.port`));
    if (!HTTP_SCHEMES.includes(str(o.scheme))) e.push(notSupported(`${p}.scheme`, str(o.scheme), HTTP_SCHEMES));
    for (const hdr of asArr(o.httpHeaders)) {
      const hn = str(asObj(hdr)?.name);
      if (!/^[-A-Za-z0-9]+$/.test(hn)) {
        e.push(invalid(`${p}.httpHeaders`, hn, regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name')));
      }
    }
    return e;
  });
  take('tcpSocket', (o, p) => validatePortNumOrName(o.port, `${p}.port`));
  take('grpc', (o, p) => validatePortNumOrName(typeof o.port === 'number' ? o.port : 0, `${p}.port`));
  take('sleep', (o, p) => {
    const s = typeof o.seconds === 'number' ? o.seconds : 0;
    if (grace !== undefined && (s < 0 || s > grace)) {
      return [invalid(p, s, `must be non-negative and less than terminationGracePeriodSeconds (${grace})`)];
    }
    return [];
  });
  if (n === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

function validateProbe(probe: Obj, grace: number | undefined, path: string): FieldError[] {
  const errs = validateHandler({ exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc }, grace, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...nonNegative(probe[f], `${path}.${f}`));
  }
  const t = probe.terminationGracePeriodSeconds;
  if (typeof t === 'number' && t <= 0) errs.push(invalid(`${path}.terminationGracePeriodSeconds`, t, 'must be greater than 0'));
  return errs;
}

function validateLivenessOrStartup(probe: unknown, grace: number | undefined, path: string): FieldError[] {
  const p = asObj(probe);
  if (!p) return [];
  const errs = validateProbe(p, grace, path);
  const st = typeof p.successThreshold === 'number' ? p.successThreshold : 0;
  if (st !== 1) errs.push(invalid(`${path}.successThreshold`, st, 'must be 1'));
  return errs;
}

function validateReadinessProbe(probe: unknown, grace: number | undefined, path: string): FieldError[] {
  const p = asObj(probe);
  if (!p) return [];
  const errs = validateProbe(p, grace, path);
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null) {
    errs.push(invalid(`${path}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

function validateLifecycle(lc: Obj, grace: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['postStart', 'preStop'] as const) {
    const h = asObj(lc[k]);
    if (h) errs.push(...validateHandler({ exec: h.exec, httpGet: h.httpGet, tcpSocket: h.tcpSocket, sleep: h.sleep }, grace, `${path}.${k}`));
  }
  return errs;
}

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function validateSeccompProfileField(sp: unknown, path: string): FieldError[] {
  const s = asObj(sp);
  if (!s) return [];
  const errs: FieldError[] = [];
  const t = str(s.type);
  if (!t) errs.push(required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(t)) errs.push(notSupported(`${path}.type`, t, SECCOMP_TYPES));
  if (t === 'Localhost') {
    if (s.localhostProfile === undefined || s.localhostProfile === null) errs.push(required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPath(str(s.localhostProfile), `${path}.localhostProfile`));
  } else if (s.localhostProfile !== undefined && s.localhostProfile !== null) {
    errs.push(invalid(`${path}.localhostProfile`, s, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateAppArmorProfileField(ap: unknown, path: string): FieldError[] {
  const a = asObj(ap);
  if (!a) return [];
  const errs: FieldError[] = [];
  const t = str(a.type);
  const lp = a.localhostProfile;
  if (t === 'Localhost') {
    if (lp === undefined || lp === null) errs.push(required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
    else {
      const s = str(lp);
      if (s.trim() !== s) errs.push(invalid(`${path}.localhostProfile`, s, 'must not be padded with whitespace'));
      else if (s === '') errs.push(required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
      if (s.length > 4095) errs.push(tooLong(`${path}.localhostProfile`, 4095));
    }
  } else if (t === 'RuntimeDefault' || t === 'Unconfined') {
    if (lp !== undefined && lp !== null) errs.push(invalid(`${path}.localhostProfile`, lp, 'can only be set when AppArmor type is Localhost'));
  } else if (t === '') errs.push(required(`${path}.type`, 'type is required when appArmorProfile is set'));
  else errs.push(notSupported(`${path}.type`, t, APPARMOR_TYPES));
  return errs;
}

const ID_RANGE = inclusiveRange(0, 4294967295);
const validId = (v: unknown, field: string): FieldError[] =>
  typeof v === 'number' && (v < 0 || v > 4294967295) ? [invalid(field, v, ID_RANGE)] : [];

function validateSecurityContext(sc: unknown, path: string, hostUsers: boolean): FieldError[] {
  const s = asObj(sc);
  if (!s) return [];
  const errs: FieldError[] = [];
  errs.push(...validId(s.runAsUser, `${path}.runAsUser`));
  errs.push(...validId(s.runAsGroup, `${path}.runAsGroup`));
  if (s.procMount !== undefined && s.procMount !== null) {
    if (s.procMount !== 'Default' && s.procMount !== 'Unmasked') errs.push(notSupported(`${path}.procMount`, s.procMount, ['Default', 'Unmasked']));
    if (hostUsers && s.procMount === 'Unmasked') errs.push(invalid(`${path}.procMount`, s.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfileField(s.seccompProfile, `${path}.seccompProfile`));
  if (s.allowPrivilegeEscalation === false) {
    if (s.privileged === true) errs.push(invalid(path, s, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const c of asArr(asObj(s.capabilities)?.add)) {
      if (c === 'CAP_SYS_ADMIN') errs.push(invalid(path, s, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateAppArmorProfileField(s.appArmorProfile, `${path}.appArmorProfile`));
  return errs;
}

const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];

function validateResizePolicy(list: unknown, path: string, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  asArr(list).forEach((raw, i) => {
    const p = asObj(raw) ?? {};
    const rn = str(p.resourceName);
    const rp = str(p.restartPolicy);
    if (seen.has(rn)) errs.push(duplicate(`${path}[${i}]`, rn));
    seen.add(rn);
    if (!rn) errs.push(required(path));
    else if (!RESIZE_RESOURCES.includes(rn)) errs.push(notSupported(path, rn, RESIZE_RESOURCES));
    if (!rp) errs.push(required(path));
    else if (!RESIZE_POLICIES.includes(rp)) errs.push(notSupported(path, rp, RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && rp !== 'NotRequired') errs.push(invalid(path, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

interface SpecContext {
  vols: Map<string, Obj>;
  claims: Set<string>;
  grace: number | undefined;
  restartPolicy: string;
  hostUsers: boolean;
}

function validateContainerCommon(c: Obj, path: string, ctx: SpecContext): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push(required(`${path}.name`));
  else errs.push(...dnsLabel(name, `${path}.name`));
  if (!str(c.image)) errs.push(required(`${path}.image`));
  const tmp = c.terminationMessagePolicy;
  if (tmp === undefined || tmp === null || tmp === '') errs.push(required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(str(tmp))) errs.push(notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  const mounts = new Map<string, string>();
  for (const m of asArr(c.volumeMounts)) mounts.set(str(asObj(m)?.name), str(asObj(m)?.mountPath));
  const devices = new Map<string, string>();
  for (const d of asArr(c.volumeDevices)) devices.set(str(asObj(d)?.name), str(asObj(d)?.devicePath));
  errs.push(...validateContainerPorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c.volumeMounts, devices, ctx.vols, c, `${path}.volumeMounts`));
  errs.push(...validateVolumeDevices(c.volumeDevices, mounts, ctx.vols, `${path}.volumeDevices`));
  const pp = c.imagePullPolicy;
  if (pp === undefined || pp === null || pp === '') errs.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(str(pp))) errs.push(notSupported(`${path}.imagePullPolicy`, pp, PULL_POLICIES));
  errs.push(...validateResourceRequirements(c.resources, ctx.claims, `${path}.resources`));
  errs.push(...validateResizePolicy(c.resizePolicy, `${path}.resizePolicy`, ctx.restartPolicy));
  errs.push(...validateSecurityContext(c.securityContext, `${path}.securityContext`, ctx.hostUsers));
  return errs;
}

/** Host ports must not collide across `containers` (keyed protocol/hostIP/port). */
function hostPortConflicts(containers: unknown[], path: string, acc = new Set<string>()): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((raw, ci) => {
    const c = asObj(raw) ?? {};
    asArr(c.ports).forEach((pr, pi) => {
      const port = asObj(pr) ?? {};
      const hp = port.hostPort;
      if (typeof hp !== 'number' || hp === 0) return;
      const k = `${str(port.protocol)}/${str(port.hostIP)}/${hp}`;
      if (acc.has(k)) errs.push(duplicate(`${path}[${ci}].ports[${pi}].hostPort`, k));
      else acc.add(k);
    });
  });
  return errs;
}

function validateContainers(containers: unknown, path: string, ctx: SpecContext): FieldError[] {
  const list = asArr(containers);
  if (list.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p, ctx));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
    else names.add(name);
    const lc = asObj(c.lifecycle);
    if (lc) errs.push(...validateLifecycle(lc, ctx.grace, `${p}.lifecycle`));
    errs.push(...validateLivenessOrStartup(c.livenessProbe, ctx.grace, `${p}.livenessProbe`));
    errs.push(...validateReadinessProbe(c.readinessProbe, ctx.grace, `${p}.readinessProbe`));
    errs.push(...validateLivenessOrStartup(c.startupProbe, ctx.grace, `${p}.startupProbe`));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
  });
  errs.push(...hostPortConflicts(list, path));
  return errs;
}

function validateInitContainers(init: unknown, regular: unknown, path: string, ctx: SpecContext): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>(asArr(regular).map((c) => str(asObj(c)?.name)));
  asArr(init).forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p, ctx));
    let restartAlways = false;
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      if (c.restartPolicy !== 'Always') errs.push(notSupported(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
      restartAlways = c.restartPolicy === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
    else if (name) names.add(name);
    errs.push(...hostPortConflicts([c], path));
    if (restartAlways) {
      const lc = asObj(c.lifecycle);
      if (lc) errs.push(...validateLifecycle(lc, ctx.grace, `${p}.lifecycle`));
      errs.push(...validateLivenessOrStartup(c.livenessProbe, ctx.grace, `${p}.livenessProbe`));
      errs.push(...validateReadinessProbe(c.readinessProbe, ctx.grace, `${p}.readinessProbe`));
      errs.push(...validateLivenessOrStartup(c.startupProbe, ctx.grace, `${p}.startupProbe`));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[f] !== undefined && c[f] !== null) errs.push(forbidden(`${p}.${f}`, 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

const EPHEMERAL_FORBIDDEN: Record<string, string> = {
  ports: 'ports',
  resources: 'resources',
  livenessProbe: 'livenessProbe',
  readinessProbe: 'readinessProbe',
  startupProbe: 'startupProbe',
  lifecycle: 'lifecycle',
};

function validateEphemeralContainers(list: unknown, containers: unknown, init: unknown, path: string, ctx: SpecContext): FieldError[] {
  const ecs = asArr(list);
  if (ecs.length === 0) return [];
  const errs: FieldError[] = [];
  const other = new Set<string>([...asArr(containers), ...asArr(init)].map((c) => str(asObj(c)?.name)));
  const all = new Set(other);
  ecs.forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p, ctx));
    errs.push(...validateContainerOnlyForPod(c, p));
    const name = str(c.name);
    if (all.has(name)) errs.push(duplicate(`${p}.name`, name));
    else all.add(name);
    const target = str(c.targetContainerName);
    if (target && !other.has(target)) errs.push(notFound(`${p}.targetContainerName`, target));
    for (const f of Object.keys(EPHEMERAL_FORBIDDEN)) {
      const v = c[f];
      const empty = v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
      if (!empty) errs.push(forbidden(`${p}.${f}`, 'cannot be set for an Ephemeral Container'));
    }
    if (c.resizePolicy !== undefined && asArr(c.resizePolicy).length > 0) errs.push(forbidden(`${p}.resizePolicy`, 'cannot be set for an Ephemeral Container'));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(`${p}.restartPolicy`, 'cannot be set for an Ephemeral Container'));
    asArr(c.volumeMounts).forEach((vm, j) => {
      const m = asObj(vm) ?? {};
      if (str(m.subPath)) errs.push(forbidden(`${p}.volumeMounts[${j}].subPath`, 'cannot be set for an Ephemeral Container'));
      if (str(m.subPathExpr)) errs.push(forbidden(`${p}.volumeMounts[${j}].subPathExpr`, 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** Pod-only container checks (not for templates). */
function validateContainerOnlyForPod(c: Obj, path: string): FieldError[] {
  const image = str(c.image);
  return image.length !== image.trim().length ? [invalid(`${path}.image`, image, 'must not have leading or trailing whitespace')] : [];
}

export function validateContainersOnlyForPod(containers: unknown, path: string): FieldError[] {
  return asArr(containers).flatMap((c, i) => validateContainerOnlyForPod(asObj(c) ?? {}, `${path}[${i}]`));
}

// ---- pod-level fields ----

function validateNodeSelectorRequirement(rq: Obj, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = asArr(rq.values);
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(`${path}.operator`, str(rq.operator), 'not a valid selector operator'));
  }
  errs.push(...qualifiedName(str(rq.key), `${path}.key`));
  if (!allowInvalidValues) {
    values.forEach((v, i) => errs.push(...isValidLabelValue(str(v)).map((m) => invalid(`${path}.values[${i}]`, str(v), m))));
  }
  return errs;
}

function validateNodeFieldSelectorRequirement(rq: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = asArr(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(invalid(`${path}.operator`, str(rq.operator), 'not a valid selector operator'));
  if (rq.key !== 'metadata.name') errs.push(invalid(`${path}.key`, str(rq.key), 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...dnsSubdomain(str(v), `${path}.values[${i}]`)));
  return errs;
}

function validateNodeSelectorTerm(term: Obj, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(term.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(asObj(r) ?? {}, allowInvalidValues, `${path}.matchExpressions[${j}]`)));
  asArr(term.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(asObj(r) ?? {}, `${path}.matchFields[${j}]`)));
  return errs;
}

function validatePodAffinityTerm(term: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector, `${path}.labelSelector`));
  errs.push(...validateLabelSelector(term.namespaceSelector, `${path}.namespaceSelector`));
  for (const ns of asArr(term.namespaces)) errs.push(...dnsLabel(str(ns), `${path}.namespace`));
  const tk = str(term.topologyKey);
  if (!tk) errs.push(required(`${path}.topologyKey`, 'can not be empty'));
  errs.push(...qualifiedName(tk, `${path}.topologyKey`));
  return errs;
}

function validateAffinity(aff: unknown, path: string): FieldError[] {
  const a = asObj(aff);
  if (!a) return [];
  const errs: FieldError[] = [];
  const na = asObj(a.nodeAffinity);
  if (na) {
    const p = `${path}.nodeAffinity`;
    const req = asObj(na.requiredDuringSchedulingIgnoredDuringExecution);
    if (req) {
      const terms = asArr(req.nodeSelectorTerms);
      const tp = `${p}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
      if (terms.length === 0) errs.push(required(tp, 'must have at least one node selector term'));
      terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(asObj(t) ?? {}, false, `${tp}[${i}]`)));
    }
    asArr(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw, i) => {
      const t = asObj(raw) ?? {};
      const tp = `${p}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      const w = typeof t.weight === 'number' ? t.weight : 0;
      if (w <= 0 || w > 100) errs.push(invalid(`${tp}.weight`, w, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(asObj(t.preference) ?? {}, true, `${tp}.preference`));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = asObj(a[kind]);
    if (!pa) continue;
    const p = `${path}.${kind}`;
    asArr(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
      errs.push(...validatePodAffinityTerm(asObj(t) ?? {}, `${p}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)),
    );
    asArr(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw, i) => {
      const t = asObj(raw) ?? {};
      const tp = `${p}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      const w = typeof t.weight === 'number' ? t.weight : 0;
      if (w <= 0 || w > 100) errs.push(invalid(`${tp}.weight`, w, 'must be in the range 1-100'));
      errs.push(...validatePodAffinityTerm(asObj(t.podAffinityTerm) ?? {}, `${tp}.podAffinityTerm`));
    });
  }
  return errs;
}

const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(tolerations).forEach((raw, i) => {
    const t = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const k = str(t.key);
    const op = str(t.operator);
    const effect = str(t.effect);
    if (k) errs.push(...qualifiedName(k, `${p}.key`));
    if (!k && op !== 'Exists') errs.push(invalid(`${p}.operator`, op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(invalid(`${p}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (op) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(str(t.value));
        if (msgs.length) errs.push(invalid(`${p}.operator`, str(t.value), msgs.join(';')));
        break;
      }
      case 'Exists':
        if (str(t.value)) errs.push(invalid(`${p}.operator`, str(t.value), "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(notSupported(`${p}.operator`, op, TOLERATION_OPERATORS));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(`${p}.effect`, effect, TAINT_EFFECTS));
  });
  return errs;
}

function validateDNSConfig(cfg: unknown, dnsPolicy: unknown, path: string): FieldError[] {
  const c = asObj(cfg);
  if (dnsPolicy === 'None') {
    if (!c) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (asArr(c.nameservers).length === 0) return [required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!c) return [];
  const errs: FieldError[] = [];
  const ns = asArr(c.nameservers).map(str);
  if (ns.length > 3) errs.push(invalid(`${path}.nameservers`, ns, 'must not have more than 3 nameservers'));
  ns.forEach((n, i) => errs.push(...ipErrors(n, `${path}.nameservers[${i}]`)));
  const searches = asArr(c.searches).map(str);
  if (searches.length > 32) errs.push(invalid(`${path}.searches`, searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) errs.push(invalid(`${path}.searches`, searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => {
    if (s === '.') return;
    const v = s.endsWith('.') ? s.slice(0, -1) : s;
    const msgs: string[] = [];
    if (v.length > 253) msgs.push('must be no more than 253 characters');
    if (!/^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$/.test(v)) {
      msgs.push(
        regexError(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
          '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*',
          'example.com',
        ),
      );
    }
    errs.push(...msgs.map((m) => invalid(`${path}.searches[${i}]`, v, m)));
  });
  asArr(c.options).forEach((o, i) => {
    if (!str(asObj(o)?.name)) errs.push(required(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

const SYSCTL_REGEX = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_REGEX_TEXT = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';

function sysctlNamespace(name: string): 'net' | 'ipc' | 'uts' | '' {
  const n = name.replaceAll('/', '.');
  if (n === 'kernel.sem') return 'ipc';
  if (n === 'kernel.domainname' || n === 'kernel.hostname') return 'uts';
  if (n.startsWith('kernel.shm') || n.startsWith('kernel.msg') || n.startsWith('fs.mqueue.')) return 'ipc';
  if (n.startsWith('net.')) return 'net';
  return '';
}

const FS_GROUP_POLICIES = ['Always', 'OnRootMismatch'];
const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict'];
const SELINUX_CHANGE_POLICIES = ['MountOption', 'Recursive'];

function validatePodSecurityContext(spec: Obj, path: string): FieldError[] {
  const sc = asObj(spec.securityContext);
  const errs: FieldError[] = [];
  // hostPID/hostIPC/shareProcessNamespace live in the internal PodSecurityContext: kube's paths say so.
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(`${path}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (!sc) return errs;
  const out: FieldError[] = [];
  out.push(...validId(sc.fsGroup, `${path}.fsGroup`));
  out.push(...validId(sc.runAsUser, `${path}.runAsUser`));
  out.push(...validId(sc.runAsGroup, `${path}.runAsGroup`));
  asArr(sc.supplementalGroups).forEach((g, i) => out.push(...validId(g, `${path}.supplementalGroups[${i}]`)));
  out.push(...errs);
  const names = new Set<string>();
  asArr(sc.sysctls).forEach((raw, i) => {
    const s = asObj(raw) ?? {};
    const name = str(s.name);
    const p = `${path}.sysctls[${i}].name`;
    if (!name) out.push(required(p));
    else if (name.length > 253 || !SYSCTL_REGEX.test(name)) out.push(invalid(p, name, `must have at most 253 characters and match regex ${SYSCTL_REGEX_TEXT}`));
    else if (names.has(name)) out.push(duplicate(p, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') out.push(invalid(p, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') out.push(invalid(p, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  if (sc.fsGroupChangePolicy !== undefined && sc.fsGroupChangePolicy !== null && !FS_GROUP_POLICIES.includes(str(sc.fsGroupChangePolicy))) {
    out.push(notSupported(`${path}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, FS_GROUP_POLICIES));
  }
  out.push(...validateSeccompProfileField(sc.seccompProfile, `${path}.seccompProfile`));
  out.push(...validateAppArmorProfileField(sc.appArmorProfile, `${path}.appArmorProfile`));
  if (sc.supplementalGroupsPolicy !== undefined && sc.supplementalGroupsPolicy !== null && !SUPPLEMENTAL_GROUPS_POLICIES.includes(str(sc.supplementalGroupsPolicy))) {
    out.push(notSupported(`${path}.supplementalGroupsPolicy`, sc.supplementalGroupsPolicy, SUPPLEMENTAL_GROUPS_POLICIES));
  }
  if (sc.seLinuxChangePolicy !== undefined && sc.seLinuxChangePolicy !== null && !SELINUX_CHANGE_POLICIES.includes(str(sc.seLinuxChangePolicy))) {
    out.push(notSupported(`${path}.seLinuxChangePolicy`, sc.seLinuxChangePolicy, SELINUX_CHANGE_POLICIES));
  }
  return out;
}

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION = ['Honor', 'Ignore'];

function validateTopologySpreadConstraints(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const cs = asArr(list).map((c) => asObj(c) ?? {});
  cs.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const skew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (skew <= 0) errs.push(invalid(`${p}.maxSkew`, skew, 'must be greater than zero'));
    if (!str(c.topologyKey)) errs.push(required(`${p}.topologyKey`, 'can not be empty'));
    if (!WHEN_UNSATISFIABLE.includes(str(c.whenUnsatisfiable))) errs.push(notSupported(`${p}.whenUnsatisfiable`, str(c.whenUnsatisfiable), WHEN_UNSATISFIABLE));
    for (const rest of cs.slice(i + 1)) {
      if (str(rest.topologyKey) === str(c.topologyKey) && str(rest.whenUnsatisfiable) === str(c.whenUnsatisfiable)) {
        errs.push(duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${str(c.topologyKey)}, ${str(c.whenUnsatisfiable)}}`));
        break;
      }
    }
    if (c.minDomains !== undefined && c.minDomains !== null) {
      const md = c.minDomains;
      if (typeof md === 'number' && md <= 0) errs.push(invalid(`${p}.minDomains`, md, 'must be greater than zero'));
      if (c.whenUnsatisfiable !== 'DoNotSchedule') {
        errs.push(invalid(`${p}.minDomains`, md, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${str(c.whenUnsatisfiable)}`));
      }
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (c[f] !== undefined && c[f] !== null && !NODE_INCLUSION.includes(str(c[f]))) errs.push(notSupported(`${p}.${f}`, c[f], NODE_INCLUSION));
    }
    errs.push(...validateLabelSelector(c.labelSelector, `${p}.labelSelector`));
  });
  return errs;
}

function validateOS(spec: Obj, path: string): FieldError[] {
  const os = asObj(spec.os);
  if (!os) return [];
  const name = str(os.name);
  if (!name) return [required(`${path}.os.name`, 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [notSupported(`${path}.os`, name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const containers = (['containers', 'initContainers', 'ephemeralContainers'] as const).flatMap((k) =>
    asArr(spec[k]).map((c, i) => [asObj(c) ?? {}, `${path}.${k}[${i}]`] as const),
  );
  const psc = asObj(spec.securityContext);
  if (name === 'linux') {
    if (psc && isObj(psc.windowsOptions)) errs.push(forbidden(`${path}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    for (const [c, p] of containers) {
      if (isObj(asObj(c.securityContext)?.windowsOptions)) errs.push(forbidden(`${p}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    }
    return errs;
  }
  const set = (v: unknown): boolean => v !== undefined && v !== null;
  const win = (p: string): FieldError => forbidden(p, 'cannot be set for a windows pod');
  if (psc) {
    if (set(psc.appArmorProfile)) errs.push(win(`${path}.securityContext.appArmorProfile`));
    if (set(psc.seLinuxOptions)) errs.push(win(`${path}.securityContext.seLinuxOptions`));
  }
  if (set(spec.hostUsers)) errs.push(win(`${path}.hostUsers`));
  if (spec.hostPID === true) errs.push(win(`${path}.hostPID`));
  if (spec.hostIPC === true) errs.push(win(`${path}.hostIPC`));
  if (psc) {
    if (set(psc.seccompProfile)) errs.push(win(`${path}.securityContext.seccompProfile`));
    if (set(psc.fsGroup)) errs.push(win(`${path}.securityContext.fsGroup`));
    if (set(psc.fsGroupChangePolicy)) errs.push(win(`${path}.securityContext.fsGroupChangePolicy`));
    if (asArr(psc.sysctls).length > 0) errs.push(win(`${path}.securityContext.sysctls`));
  }
  if (set(spec.shareProcessNamespace)) errs.push(win(`${path}.shareProcessNamespace`));
  if (psc) {
    if (set(psc.runAsUser)) errs.push(win(`${path}.securityContext.runAsUser`));
    if (set(psc.runAsGroup)) errs.push(win(`${path}.securityContext.runAsGroup`));
    if (set(psc.supplementalGroups)) errs.push(win(`${path}.securityContext.supplementalGroups`));
    if (set(psc.supplementalGroupsPolicy)) errs.push(win(`${path}.securityContext.supplementalGroupsPolicy`));
    if (set(psc.seLinuxChangePolicy)) errs.push(win(`${path}.securityContext.seLinuxChangePolicy`));
  }
  for (const [c, p] of containers) {
    const sc = asObj(c.securityContext);
    if (!sc) continue;
    for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      if (set(sc[f])) errs.push(win(`${p}.securityContext.${f}`));
    }
  }
  return errs;
}

function validateImagePullSecrets(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(list).forEach((raw, i) => {
    const s = asObj(raw) ?? {};
    if (Object.keys(s).some((k) => k !== 'name' && s[k] !== undefined)) errs.push(invalid(`${path}[${i}]`, s, 'only name may be set'));
  });
  return errs;
}

function validatePodResourceClaims(claims: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArr(claims).forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(c.name);
    if (!name) errs.push(required(`${p}.name`));
    else if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
    else {
      errs.push(...dnsLabel(name, `${p}.name`));
      names.add(name);
    }
    const rcn = c.resourceClaimName;
    const rctn = c.resourceClaimTemplateName;
    const set = (v: unknown): boolean => v !== undefined && v !== null;
    if (set(rcn) && set(rctn)) errs.push(invalid(p, c, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!set(rcn) && !set(rctn)) errs.push(invalid(p, c, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (set(rcn)) errs.push(...dnsSubdomain(str(rcn), `${p}.resourceClaimName`));
    if (set(rctn)) errs.push(...dnsSubdomain(str(rctn), `${p}.resourceClaimTemplateName`));
  });
  return errs;
}

/**
 * ValidatePodSpec. `path` is the spec's own path ("spec" for a pod,
 * "spec.template.spec" for a template).
 */
export function validatePodSpec(specIn: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const spec = asObj(specIn) ?? {};
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    errs.push(required(`${path}.terminationGracePeriodSeconds`));
  }
  const grace = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : undefined;
  const hostUsers = spec.hostUsers !== false;
  const { vols, errs: volErrs } = validateVolumes(spec.volumes, `${path}.volumes`, opts.podName, opts.claimVolumes);
  errs.push(...volErrs);
  const claims = new Set(asArr(spec.resourceClaims).map((c) => str(asObj(c)?.name)).filter(Boolean));
  errs.push(...validatePodResourceClaims(spec.resourceClaims, `${path}.resourceClaims`));
  const ctx: SpecContext = { vols, claims, grace, restartPolicy: str(spec.restartPolicy), hostUsers };
  errs.push(...validateContainers(spec.containers, `${path}.containers`, ctx));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, `${path}.initContainers`, ctx));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, `${path}.ephemeralContainers`, ctx));
  if (spec.hostNetwork === true) {
    asArr(spec.containers).forEach((raw, i) => {
      asArr(asObj(raw)?.ports).forEach((pr, j) => {
        const port = asObj(pr) ?? {};
        const hp = typeof port.hostPort === 'number' ? port.hostPort : 0;
        const cp = typeof port.containerPort === 'number' ? port.containerPort : 0;
        if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
          errs.push(invalid(`${path}.containers[${i}].ports[${j}].hostPort`, hp, 'must match `containerPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  const rp = spec.restartPolicy;
  if (rp === undefined || rp === null || rp === '') errs.push(required(`${path}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(str(rp))) errs.push(notSupported(`${path}.restartPolicy`, rp, RESTART_POLICIES));
  const dp = spec.dnsPolicy;
  if (dp === undefined || dp === null || dp === '') errs.push(required(`${path}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(str(dp))) errs.push(notSupported(`${path}.dnsPolicy`, dp, DNS_POLICIES));
  errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  errs.push(...validatePodSecurityContext(spec, `${path}.securityContext`));
  errs.push(...validateImagePullSecrets(spec.imagePullSecrets, `${path}.imagePullSecrets`));
  errs.push(...validateAffinity(spec.affinity, `${path}.affinity`));
  errs.push(...validateDNSConfig(spec.dnsConfig, spec.dnsPolicy, `${path}.dnsConfig`));
  asArr(spec.readinessGates).forEach((g, i) => errs.push(...qualifiedName(str(asObj(g)?.conditionType), `${path}.readinessGates[${i}].conditionType`)));
  const gates = new Set<string>();
  asArr(spec.schedulingGates).forEach((g, i) => {
    const name = str(asObj(g)?.name);
    errs.push(...qualifiedName(name, `${path}.schedulingGates[${i}]`));
    if (gates.has(name)) errs.push(duplicate(`${path}.schedulingGates[${i}]`, name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${path}.topologySpreadConstraints`));
  if (spec.hostUsers === false) {
    if (spec.hostNetwork === true) errs.push(forbidden(`${path}.hostNetwork`, 'when `pod.Spec.HostUsers` is false'));
    if (spec.hostPID === true) errs.push(forbidden(`${path}.HostPID`, 'when `pod.Spec.HostUsers` is false'));
    if (spec.hostIPC === true) errs.push(forbidden(`${path}.HostIPC`, 'when `pod.Spec.HostUsers` is false'));
  }
  const sa = str(spec.serviceAccountName);
  if (sa) errs.push(...dnsSubdomain(sa, `${path}.serviceAccountName`));
  const node = str(spec.nodeName);
  if (node) errs.push(...dnsSubdomain(node, `${path}.nodeName`));
  const ads = spec.activeDeadlineSeconds;
  if (typeof ads === 'number' && (ads < 1 || ads > MAX_INT32)) errs.push(invalid(`${path}.activeDeadlineSeconds`, ads, inclusiveRange(1, MAX_INT32)));
  if (str(spec.hostname)) errs.push(...dnsLabel(str(spec.hostname), `${path}.hostname`));
  if (str(spec.subdomain)) errs.push(...dnsLabel(str(spec.subdomain), `${path}.subdomain`));
  if (asArr(spec.tolerations).length > 0) errs.push(...validateTolerations(spec.tolerations, `${path}.tolerations`));
  asArr(spec.hostAliases).forEach((raw, i) => {
    const ha = asObj(raw) ?? {};
    errs.push(...ipErrors(str(ha.ip), `${path}.hostAliases[${i}].ip`));
    asArr(ha.hostnames).forEach((h, j) => errs.push(...dnsSubdomain(str(h), `${path}.hostAliases[${i}].hostnames[${j}]`)));
  });
  if (str(spec.priorityClassName)) errs.push(...dnsSubdomain(str(spec.priorityClassName), `${path}.priorityClassName`));
  if (spec.runtimeClassName !== undefined && spec.runtimeClassName !== null) errs.push(...dnsSubdomain(str(spec.runtimeClassName), `${path}.runtimeClassName`));
  const pp = spec.preemptionPolicy;
  if (pp !== undefined && pp !== null) {
    if (pp === '') errs.push(required(`${path}.preemptionPolicy`));
    else if (pp !== 'PreemptLowerPriority' && pp !== 'Never') errs.push(notSupported(`${path}.preemptionPolicy`, pp, ['PreemptLowerPriority', 'Never']));
  }
  if (isObj(spec.overhead)) errs.push(...validateResourceRequirements({ limits: spec.overhead }, new Set(), `${path}.overhead`));
  errs.push(...validateOS(spec, path));
  return errs;
}

// ---- pod-specific annotations ----

const MIRROR_POD = 'kubernetes.io/config.mirror';
export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
export const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** GetDeletionCostFromPodAnnotations accepts it: a 32-bit integer without '+' or leading zeros. */
export function validDeletionCost(v: string): boolean {
  if (!(v.startsWith('-') || v === '0' || /^[1-9]/.test(v))) return false;
  if (!/^[-+]?\d+$/.test(v)) return false;
  const n = Number(v);
  return n >= -2147483648 && n <= MAX_INT32;
}

function validateSeccompAnnotationValue(p: string, path: string): FieldError[] {
  if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return [];
  if (p.startsWith('localhost/')) return localDescendingPath(p.slice('localhost/'.length), path);
  return [invalid(path, p, 'must be a valid seccomp profile')];
}

function specHasContainer(spec: Obj, name: string): boolean {
  return (['containers', 'initContainers', 'ephemeralContainers'] as const).some((k) => asArr(spec[k]).some((c) => asObj(c)?.name === name));
}

/** ValidatePodSpecificAnnotations at `path` (metadata.annotations or template.annotations). */
export function validatePodSpecificAnnotations(annotations: unknown, specIn: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const a = (asObj(annotations) ?? {}) as Record<string, string>;
  const spec = asObj(specIn) ?? {};
  const errs: FieldError[] = [];
  if (Object.hasOwn(a, MIRROR_POD) && !str(spec.nodeName)) {
    errs.push(invalid(key(path, MIRROR_POD), a[MIRROR_POD], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  if (!opts.allowInvalidPodDeletionCost && Object.hasOwn(a, DELETION_COST) && !validDeletionCost(a[DELETION_COST])) {
    errs.push(invalid(key(path, DELETION_COST), a[DELETION_COST], 'must be a 32bit integer'));
  }
  if (Object.hasOwn(a, SECCOMP_POD)) errs.push(...validateSeccompAnnotationValue(a[SECCOMP_POD], `${path}.${SECCOMP_POD}`));
  for (const [k, v] of Object.entries(a)) {
    if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...validateSeccompAnnotationValue(v, `${path}.${k}`));
  }
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(APPARMOR_PREFIX)) continue;
    const c = k.slice(APPARMOR_PREFIX.length);
    if (!specHasContainer(spec, c)) errs.push(invalid(key(path, k), c, 'container not found'));
    if (!(v === '' || v === 'runtime/default' || v === 'unconfined' || v.startsWith('localhost/'))) {
      errs.push(invalid(key(path, k), v, `invalid AppArmor profile name: ${JSON.stringify(v)}`));
    }
  }
  return errs;
}

/** ValidatePodSpecificAnnotationUpdates' own rules (AppArmor and mirror-pod annotations may not change). */
export function validatePodSpecificAnnotationUpdates(newAnn: unknown, oldAnn: unknown, path: string): FieldError[] {
  const n = (asObj(newAnn) ?? {}) as Record<string, string>;
  const o = (asObj(oldAnn) ?? {}) as Record<string, string>;
  const errs: FieldError[] = [];
  for (const [k, ov] of Object.entries(o)) {
    if (Object.hasOwn(n, k) && n[k] === ov) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(key(path, k), 'may not remove or update AppArmor annotations'));
    if (k === MIRROR_POD) errs.push(forbidden(key(path, k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(n)) {
    if (Object.hasOwn(o, k)) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(key(path, k), 'may not add AppArmor annotations'));
    if (k === MIRROR_POD) errs.push(forbidden(key(path, k), 'may not add mirror pod annotation'));
  }
  return errs;
}

// ---- gated fields ----

const podContainers = (s: Obj): Obj[] =>
  (['containers', 'initContainers', 'ephemeralContainers'] as const).flatMap((k) => asArr(s[k]).filter(isObj));

/** DropDisabledPodFields for the gates that are off in 1.33 (unless the old object used them). */
export function dropDisabledPodSpecFields(s: Obj, old?: Obj): void {
  // PodLevelResources (alpha): spec.resources.
  if (!old?.resources) delete s.resources;
  // DynamicResourceAllocation (beta, off by default): resourceClaims and container claims.
  const oldUsesClaims = old !== undefined && (asArr(old.resourceClaims).length > 0 || podContainers(old).some((c) => asArr(asObj(c.resources)?.claims).length > 0));
  if (!oldUsesClaims) {
    delete s.resourceClaims;
    for (const c of podContainers(s)) {
      const res = asObj(c.resources);
      if (res) delete res.claims;
    }
  }
  // ImageVolume (beta, off by default): image volume sources.
  const oldUsesImage = old !== undefined && asArr(old.volumes).some((v) => asObj(v)?.image !== undefined);
  if (!oldUsesImage) for (const v of asArr(s.volumes).filter(isObj)) delete v.image;
}

// ---- templates ----

/**
 * ValidatePodTemplateSpec at `path` (e.g. "spec.template"): labels and annotations at
 * `<path>.labels` / `<path>.annotations` (kube's paths), then the pod spec at `<path>.spec`.
 */
export function validatePodTemplateSpec(template: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const t = asObj(template) ?? {};
  const meta = asObj(t.metadata) ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateLabels(meta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errs.push(...validatePodSpecificAnnotations(meta.annotations, t.spec, `${path}.annotations`, opts));
  errs.push(...validatePodSpec(t.spec, `${path}.spec`, { ...opts, podName: undefined }));
  if (asArr(asObj(t.spec)?.ephemeralContainers).length > 0) {
    errs.push(forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

// ---- QoS ----

/** qos.ComputePodQOS over containers and init containers (cpu and memory only). */
export function computePodQOS(specIn: unknown): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const spec = asObj(specIn) ?? {};
  const requests = new Map<string, Qty>();
  const limits = new Map<string, Qty>();
  let guaranteed = true;
  const add = (m: Map<string, Qty>, name: string, q: Qty): void => {
    const prev = m.get(name);
    m.set(name, prev ? prev.add(q) : q);
  };
  for (const raw of [...asArr(spec.containers), ...asArr(spec.initContainers)]) {
    const res = asObj(asObj(raw)?.resources) ?? {};
    for (const [name, v] of Object.entries(asObj(res.requests) ?? {})) {
      if (name !== 'cpu' && name !== 'memory') continue;
      const q = qty(v);
      if (q && isQtyPositive(q)) add(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, v] of Object.entries(asObj(res.limits) ?? {})) {
      if (name !== 'cpu' && name !== 'memory') continue;
      const q = qty(v);
      if (q && isQtyPositive(q)) {
        found.add(name);
        add(limits, name, q);
      }
    }
    if (!(found.has('cpu') && found.has('memory'))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || cmpQty(lim, req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
