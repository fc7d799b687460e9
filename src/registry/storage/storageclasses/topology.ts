// A StorageClass's allowedTopologies, with kube's paths and messages (ValidateTopologySelectorTerm
// in pkg/apis/core/validation). A PersistentVolume's nodeAffinity is a node selector: src/registry/core/node-selector.ts.

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, invalid, required } from '../../../machinery/validation/field.js';
import { isQualifiedName } from '../../../machinery/validation/names.js';
import { asArr, asObj, str } from '../../../machinery/json-view.js';

const labelName = (key: string, field: string): FieldError[] => isQualifiedName(key).map((m) => invalid(field, key, m));

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
