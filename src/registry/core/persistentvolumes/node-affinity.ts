// Node selectors as volumes use them (a PersistentVolume's nodeAffinity, a StorageClass's
// allowedTopologies), with kube's paths and messages (ValidateNodeSelector,
// ValidateTopologySelectorTerm in pkg/apis/core/validation).

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, invalid, required } from '../../../machinery/validation/field.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { asArr, asObj, str } from '../../../machinery/json-view.js';

const labelName = (key: string, field: string): FieldError[] => isQualifiedName(key).map((m) => invalid(field, key, m));

function validateRequirement(rq: unknown, path: string): FieldError[] {
  const r = asObj(rq) ?? {};
  const values = asArr(r.values);
  const errs: FieldError[] = [];
  switch (r.operator) {
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
      errs.push(invalid(`${path}.operator`, str(r.operator), 'not a valid selector operator'));
  }
  errs.push(...labelName(str(r.key), `${path}.key`));
  values.forEach((v, i) => {
    for (const m of isValidLabelValue(str(v))) errs.push(invalid(`${path}.values[${i}]`, str(v), m));
  });
  return errs;
}

function validateFieldRequirement(rq: unknown, path: string): FieldError[] {
  const r = asObj(rq) ?? {};
  const values = asArr(r.values);
  const errs: FieldError[] = [];
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(`${path}.operator`, str(r.operator), 'not a valid selector operator'));
  }
  if (r.key !== 'metadata.name') {
    errs.push(invalid(`${path}.key`, str(r.key), 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => {
      for (const m of nameIsDNSSubdomain(str(v), false)) errs.push(invalid(`${path}.values[${i}]`, str(v), m));
    });
  }
  return errs;
}

/** ValidateNodeSelector: at least one term; each term's expressions and fields. */
export function validateNodeSelector(sel: unknown, path: string): FieldError[] {
  const terms = asArr(asObj(sel)?.nodeSelectorTerms);
  if (terms.length === 0) return [required(`${path}.nodeSelectorTerms`, 'must have at least one node selector term')];
  const errs: FieldError[] = [];
  terms.forEach((t, i) => {
    const term = asObj(t) ?? {};
    const tp = `${path}.nodeSelectorTerms[${i}]`;
    asArr(term.matchExpressions).forEach((rq, j) => errs.push(...validateRequirement(rq, `${tp}.matchExpressions[${j}]`)));
    asArr(term.matchFields).forEach((rq, j) => errs.push(...validateFieldRequirement(rq, `${tp}.matchFields[${j}]`)));
  });
  return errs;
}

/**
 * ValidateTopologySelectorTerm: each expression's values (required, no duplicates) and key (no
 * duplicate keys). `expressions` is the term in raw form (key to sorted values), for callers
 * that look for duplicate terms.
 */
export function validateTopologySelectorTerm(term: unknown, path: string): { errs: FieldError[]; expressions: Record<string, string[]> } {
  const errs: FieldError[] = [];
  const expressions: Record<string, string[]> = {};
  asArr(asObj(term)?.matchLabelExpressions).forEach((rq, i) => {
    const r = asObj(rq) ?? {};
    const p = `${path}.matchLabelExpressions[${i}]`;
    const values = asArr(r.values).map(str);
    if (values.length === 0) errs.push(required(`${p}.values`));
    const seen = new Set<string>();
    values.forEach((v, j) => {
      if (seen.has(v)) errs.push(duplicate(`${p}.values[${j}]`, v));
      seen.add(v);
    });
    const key = str(r.key);
    errs.push(...labelName(key, `${p}.key`));
    if (Object.hasOwn(expressions, key)) errs.push(duplicate(`${p}.key`, key));
    expressions[key] = [...seen].sort();
  });
  return { errs, expressions };
}
