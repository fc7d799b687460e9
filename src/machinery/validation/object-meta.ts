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
    total += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (total > TOTAL_ANNOTATION_SIZE) {
    errs.push({ type: 'FieldValueTooLong', field: path, detail: `must have at most ${TOTAL_ANNOTATION_SIZE} bytes` });
  }
  return errs;
}

/** Finalizer names without a domain must be one of kube's own. */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

function validateFinalizers(finalizers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(finalizers)) return errs;
  finalizers.forEach((f: unknown, i) => {
    if (typeof f !== 'string') return;
    const msgs = isQualifiedName(f);
    for (const m of msgs) errs.push({ type: 'FieldValueInvalid', field: path, badValue: f, detail: m });
    if (msgs.length === 0 && !f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push({ type: 'FieldValueInvalid', field: `${path}[${i}]`, badValue: f, detail: 'name is neither a standard finalizer name nor is it fully qualified' });
    }
  });
  return errs;
}

/** ValidateObjectMeta: name or generateName, namespace presence, labels, annotations, finalizers. */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, validateName: NameValidator): FieldError[] {
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
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
  return errs;
}

const immutable = (field: string, value: unknown): FieldError => ({
  type: 'FieldValueInvalid',
  field,
  badValue: value,
  detail: 'field is immutable',
});

/** ValidateObjectMetaUpdate: identity fields may not change. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.name !== old.name) errs.push(immutable('metadata.name', meta.name));
  if ((meta.namespace ?? '') !== (old.namespace ?? '')) errs.push(immutable('metadata.namespace', meta.namespace));
  if (meta.uid !== old.uid) errs.push(immutable('metadata.uid', meta.uid));
  if (meta.creationTimestamp !== old.creationTimestamp) errs.push(immutable('metadata.creationTimestamp', meta.creationTimestamp));
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateFinalizers(meta.finalizers, 'metadata.finalizers'));
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

