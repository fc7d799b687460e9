// Node selectors (a pod's required node affinity, a PersistentVolume's nodeAffinity) with kube
// 1.33's paths and messages (ValidateNodeSelector and its requirements in pkg/apis/core/validation).

import type { FieldError } from '../../machinery/errors.js';
import { forbidden, invalid, required } from '../../machinery/validation/field.js';
import { isValidLabelValue, validateDNS1123Subdomain, validateQualifiedName } from '../../machinery/validation/names.js';
import { asArr, asObj, str, type Obj } from '../../machinery/json-view.js';

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
  errs.push(...validateQualifiedName(str(rq.key), `${path}.key`));
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
  else values.forEach((v, i) => errs.push(...validateDNS1123Subdomain(str(v), `${path}.values[${i}]`)));
  return errs;
}

export function validateNodeSelectorTerm(term: Obj, allowInvalidValues: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(term.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(asObj(r) ?? {}, allowInvalidValues, `${path}.matchExpressions[${j}]`)));
  asArr(term.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(asObj(r) ?? {}, `${path}.matchFields[${j}]`)));
  return errs;
}

/** ValidateNodeSelector: at least one term; each term's expressions and fields. */
export function validateNodeSelector(sel: unknown, path: string): FieldError[] {
  const terms = asArr(asObj(sel)?.nodeSelectorTerms);
  if (terms.length === 0) return [required(`${path}.nodeSelectorTerms`, 'must have at least one node selector term')];
  const errs: FieldError[] = [];
  terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(asObj(t) ?? {}, false, `${path}.nodeSelectorTerms[${i}]`)));
  return errs;
}
