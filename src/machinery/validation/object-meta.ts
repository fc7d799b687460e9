// Object metadata and name validation with kube-apiserver's field paths and messages
// (k8s.io/apimachinery/pkg/api/validation and pkg/util/validation).

import type { FieldError } from '../errors.js';
import type { ObjectMeta } from '../object.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, type NameValidator } from './names.js';

export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (labels === undefined || labels === null) return errs;
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const m of isQualifiedName(k)) errs.push({ type: 'FieldValueInvalid', field: path, badValue: k, detail: m });
    if (typeof v === 'string') {
      for (const m of isValidLabelValue(v)) errs.push({ type: 'FieldValueInvalid', field: path, badValue: v, detail: m });
    }
  }
  return errs;
}

const TOTAL_ANNOTATION_SIZE = 256 * 1024;

export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations === undefined || annotations === null) return errs;
  let total = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push({ type: 'FieldValueInvalid', field: path, badValue: k, detail: m });
    total += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  }
  if (total > TOTAL_ANNOTATION_SIZE) {
    errs.push({ type: 'FieldValueTooLong', field: path, detail: `may not be more than ${TOTAL_ANNOTATION_SIZE} bytes` });
  }
  return errs;
}

/** Finalizer names without a domain must be one of kube's own (core's validateKubeFinalizerName). */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/**
 * ValidateFinalizers: each a qualified name; `orphan` with `foregroundDeletion` is refused.
 * `kubeNames` adds core validation's rule (a name without a `/` must be a standard one), which
 * every type validated through core's ValidateObjectMeta gets, and a PodDisruptionBudget not.
 */
function validateFinalizers(finalizers: unknown, path: string, kubeNames: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(finalizers)) return errs;
  const names = finalizers.filter((f): f is string => typeof f === 'string');
  for (const f of names) for (const m of isQualifiedName(f)) errs.push({ type: 'FieldValueInvalid', field: path, badValue: f, detail: m });
  if (names.includes('orphan') && names.includes('foregroundDeletion')) {
    errs.push({ type: 'FieldValueInvalid', field: path, badValue: names, detail: 'finalizer orphan and foregroundDeletion cannot be both set' });
  }
  if (kubeNames) {
    finalizers.forEach((f: unknown, i) => {
      if (typeof f === 'string' && f.split('/').length === 1 && !STANDARD_FINALIZERS.has(f)) {
        errs.push({ type: 'FieldValueInvalid', field: `${path}[${i}]`, badValue: f, detail: 'name is neither a standard finalizer name nor is it fully qualified' });
      }
    });
  }
  return errs;
}

interface OwnerRef {
  apiVersion?: unknown;
  kind?: unknown;
  name?: unknown;
  uid?: unknown;
  controller?: unknown;
  blockOwnerDeletion?: unknown;
}

/** Go's %#v of a *bool, as kube prints an owner reference (the address masked by nobody: kube's own). */
const goBoolPtr = (v: unknown): string => (v === undefined || v === null ? '(*bool)(nil)' : `(*bool)(0xc000000000)`);

/** Go's %#v of a metav1.OwnerReference. */
function goOwnerReference(r: OwnerRef): string {
  const s = (v: unknown) => JSON.stringify(typeof v === 'string' ? v : '');
  return `v1.OwnerReference{APIVersion:${s(r.apiVersion)}, Kind:${s(r.kind)}, Name:${s(r.name)}, UID:${s(r.uid)}, Controller:${goBoolPtr(r.controller)}, BlockOwnerDeletion:${goBoolPtr(r.blockOwnerDeletion)}}`;
}

/** ValidateOwnerReferences: each reference complete, Events never owners, at most one controller. */
export function validateOwnerReferences(refs: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(refs)) return errs;
  let firstController = '';
  for (const raw of refs) {
    const r = (raw ?? {}) as OwnerRef;
    const apiVersion = typeof r.apiVersion === 'string' ? r.apiVersion : '';
    const kind = typeof r.kind === 'string' ? r.kind : '';
    // schema.FromAPIVersionAndKind: the version is what follows the last '/' (or the whole text).
    const slash = apiVersion.indexOf('/');
    const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
    const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
    if (version === '') errs.push({ type: 'FieldValueInvalid', field: `${path}.apiVersion`, badValue: apiVersion, detail: 'version must not be empty' });
    if (kind === '') errs.push({ type: 'FieldValueInvalid', field: `${path}.kind`, badValue: kind, detail: 'kind must not be empty' });
    if (typeof r.name !== 'string' || r.name === '') errs.push({ type: 'FieldValueInvalid', field: `${path}.name`, badValue: typeof r.name === 'string' ? r.name : '', detail: 'name must not be empty' });
    if (typeof r.uid !== 'string' || r.uid === '') errs.push({ type: 'FieldValueInvalid', field: `${path}.uid`, badValue: typeof r.uid === 'string' ? r.uid : '', detail: 'uid must not be empty' });
    if (group === '' && version === 'v1' && kind === 'Event') {
      errs.push({ type: 'FieldValueInvalid', field: path, badValue: { goString: goOwnerReference(r) }, detail: '/v1, Kind=Event is disallowed from being an owner' });
    }
    if (r.controller === true) {
      const cur = `${kind}/${typeof r.name === 'string' ? r.name : ''}`;
      if (firstController !== '') {
        errs.push({
          type: 'FieldValueInvalid',
          field: path,
          badValue: { goString: `[]v1.OwnerReference{${(refs as OwnerRef[]).map((x) => goOwnerReference(x ?? {})).join(', ')}}` },
          detail: `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
        });
      } else firstController = cur;
    }
  }
  return errs;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** ValidateFieldManager: at most 128 bytes, printable characters only (one error per other one). */
export function validateFieldManager(manager: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (manager !== '' && Buffer.byteLength(manager) > 128) errs.push({ type: 'FieldValueTooLong', field: path, detail: 'may not be more than 128 bytes' });
  let at = 0;
  for (const ch of manager) {
    if (!PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      errs.push({ type: 'FieldValueInvalid', field: path, badValue: manager, detail: `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${at})` });
    }
    at += Buffer.byteLength(ch);
  }
  return errs;
}

/** ValidateManagedFields: operations, fieldsType, managers and subresource lengths. */
function validateManagedFields(entries: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(entries)) return errs;
  entries.forEach((raw, i) => {
    const e = (raw ?? {}) as { operation?: unknown; fieldsType?: unknown; manager?: unknown; subresource?: unknown };
    const p = `${path}[${i}]`;
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push({ type: 'FieldValueInvalid', field: `${p}.operation`, badValue: typeof e.operation === 'string' ? e.operation : '', detail: 'must be `Apply` or `Update`' });
    }
    if (typeof e.fieldsType === 'string' && e.fieldsType !== '' && e.fieldsType !== 'FieldsV1') {
      errs.push({ type: 'FieldValueInvalid', field: `${p}.fieldsType`, badValue: e.fieldsType, detail: 'must be `FieldsV1`' });
    }
    errs.push(...validateFieldManager(typeof e.manager === 'string' ? e.manager : '', `${p}.manager`));
    if (typeof e.subresource === 'string' && Buffer.byteLength(e.subresource) > 256) {
      errs.push({ type: 'FieldValueTooLong', field: `${p}.subresource`, detail: 'may not be more than 256 bytes' });
    }
  });
  return errs;
}

export interface ObjectMetaRules {
  /** core validation's finalizer names (every served type but the PodDisruptionBudget). */
  kubeFinalizerNames?: boolean;
}

/** ValidateObjectMeta: name or generateName, namespace presence, labels, annotations, owners, finalizers, managedFields. */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, validateName: NameValidator, rules: ObjectMetaRules = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const m of validateName(meta.generateName, true)) {
      errs.push({ type: 'FieldValueInvalid', field: 'metadata.generateName', badValue: meta.generateName, detail: m });
    }
  }
  if (!meta.name) {
    errs.push({ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' });
  } else {
    for (const m of validateName(meta.name, false)) {
      errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', badValue: meta.name, detail: m });
    }
  }
  if (namespaced) {
    if (!meta.namespace) {
      errs.push({ type: 'FieldValueRequired', field: 'metadata.namespace', detail: '' });
    } else {
      for (const m of isDNS1123Label(meta.namespace)) {
        errs.push({ type: 'FieldValueInvalid', field: 'metadata.namespace', badValue: meta.namespace, detail: m });
      }
    }
  } else if (meta.namespace) {
    errs.push({ type: 'FieldValueForbidden', field: 'metadata.namespace', detail: 'not allowed on this type' });
  }
  if (typeof meta.generation === 'number' && meta.generation < 0) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.generation', badValue: meta.generation, detail: 'must be greater than or equal to 0' });
  }
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers', rules.kubeFinalizerNames !== false));
  errs.push(...validateManagedFields(meta.managedFields, 'metadata.managedFields'));
  return errs;
}

const immutable = (field: string, value: unknown): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  badValue: value,
  detail: 'field is immutable',
});

/** Go's time.Time String() of an RFC 3339 timestamp, as kube prints a *metav1.Time value. */
function goTimeString(ts: string): string {
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000 UTC`;
}

/** core validation's validateKubeFinalizerName for each finalizer (what core's ValidateObjectMeta* adds). */
export function validateKubeFinalizerNames(meta: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  (meta.finalizers ?? []).forEach((f, i) => {
    if (typeof f === 'string' && f.split('/').length === 1 && !STANDARD_FINALIZERS.has(f)) {
      errs.push({ type: 'FieldValueInvalid', field: `metadata.finalizers[${i}]`, badValue: f, detail: 'name is neither a standard finalizer name nor is it fully qualified' });
    }
  });
  return errs;
}

/**
 * apimachinery's ValidateObjectMetaAccessorUpdate: no new finalizers once deleting, generation
 * never decremented, identity fields and the deletion marks unchanged (the store keeps a mark
 * an update leaves out, so only setting or changing one is refused), then labels, annotations,
 * owners and managedFields as on create.
 */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp) {
    const had = new Set(old.finalizers ?? []);
    const added = [...new Set((meta.finalizers ?? []).filter((f) => !had.has(f)))].sort();
    if (added.length) {
      errs.push({
        type: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
      });
    }
  }
  if (typeof meta.generation === 'number' && typeof old.generation === 'number' && meta.generation < old.generation) {
    errs.push({ type: 'FieldValueInvalid', field: 'metadata.generation', badValue: meta.generation, detail: 'must not be decremented' });
  }
  if (meta.name !== old.name) errs.push(immutable('metadata.name', meta.name));
  if ((meta.namespace ?? '') !== (old.namespace ?? '')) errs.push(immutable('metadata.namespace', meta.namespace));
  if (meta.uid !== old.uid) errs.push(immutable('metadata.uid', meta.uid));
  if (meta.creationTimestamp !== old.creationTimestamp) errs.push(immutable('metadata.creationTimestamp', meta.creationTimestamp));
  if ((meta.deletionTimestamp ?? null) !== (old.deletionTimestamp ?? null)) {
    errs.push(immutable('metadata.deletionTimestamp', meta.deletionTimestamp ? { goString: goTimeString(meta.deletionTimestamp) } : null));
  }
  if ((meta.deletionGracePeriodSeconds ?? null) !== (old.deletionGracePeriodSeconds ?? null)) {
    errs.push(immutable('metadata.deletionGracePeriodSeconds', meta.deletionGracePeriodSeconds ?? null));
  }
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateOwnerReferences(meta.ownerReferences, 'metadata.ownerReferences'));
  errs.push(...validateManagedFields(meta.managedFields, 'metadata.managedFields'));
  return errs;
}

/** Validates a LabelSelector (matchLabels and matchExpressions) at `path`. */
export function validateLabelSelector(sel: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (sel === undefined || sel === null || typeof sel !== 'object') return errs;
  const s = sel as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  errs.push(...validateLabels(s.matchLabels, `${path}.matchLabels`));
  (s.matchExpressions ?? []).forEach((raw, i) => {
    const e = raw as { key?: string; operator?: string; values?: string[] };
    const p = `${path}.matchExpressions[${i}]`;
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          errs.push({ type: 'FieldValueRequired', field: `${p}.values`, detail: 'must be specified when `operator` is \'In\' or \'NotIn\'' });
        }
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push({ type: 'FieldValueForbidden', field: `${p}.values`, detail: 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'' });
        }
        break;
      default:
        errs.push({ type: 'FieldValueInvalid', field: `${p}.operator`, badValue: e.operator, detail: 'not a valid selector operator' });
    }
    for (const m of isQualifiedName(e.key ?? '')) errs.push({ type: 'FieldValueInvalid', field: `${p}.key`, badValue: e.key ?? '', detail: m });
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(v)) errs.push({ type: 'FieldValueInvalid', field: `${p}.values[${j}]`, badValue: v, detail: m });
    });
  });
  return errs;
}

/** Whether a LabelSelector matches a label set (matchLabels and matchExpressions ANDed). */
export function selectorMatches(sel: unknown, labels: Record<string, string> | undefined): boolean {
  if (!sel || typeof sel !== 'object') return false;
  const s = sel as { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  const l = labels ?? {};
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of s.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, e.key);
    const vals = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !vals.includes(l[e.key])) return false;
        break;
      case 'NotIn':
        if (has && vals.includes(l[e.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

export const isEmptySelector = (sel: unknown): boolean => {
  const s = (sel ?? {}) as { matchLabels?: object; matchExpressions?: unknown[] };
  return Object.keys(s.matchLabels ?? {}).length + (s.matchExpressions ?? []).length === 0;
};

