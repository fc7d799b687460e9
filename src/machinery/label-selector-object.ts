// metav1.LabelSelectorAsSelector: a LabelSelector object (matchLabels, matchExpressions) as a
// selector. A null selector selects nothing, an empty one everything (as the policy/v1 and
// apps/v1 APIs read them).

import { LabelSelector, type LabelRequirement } from './selectors.js';
import { asArr, isObj, str } from './json-view.js';

export type Selector = Pick<LabelSelector, 'matches' | 'empty' | 'toString'>;

/** A selector that matches nothing (labels.Nothing()). */
export const NOTHING: Selector = { matches: () => false, empty: false, toString: () => '' };

/** Throws for an operator kube does not know (validation keeps those out of stored objects). */
export function selectorFromObject(sel: unknown): Selector {
  if (!isObj(sel)) return NOTHING;
  const reqs: LabelRequirement[] = [];
  const labels = isObj(sel.matchLabels) ? sel.matchLabels : {};
  for (const [k, v] of Object.entries(labels)) reqs.push({ key: k, operator: '=', values: [String(v)] });
  for (const e of asArr(sel.matchExpressions).filter(isObj)) {
    const key = str(e.key);
    const values = [...new Set(asArr(e.values).map(String))].sort();
    switch (e.operator) {
      case 'In':
        reqs.push({ key, operator: 'in', values });
        break;
      case 'NotIn':
        reqs.push({ key, operator: 'notin', values });
        break;
      case 'Exists':
        reqs.push({ key, operator: 'exists', values: [] });
        break;
      case 'DoesNotExist':
        reqs.push({ key, operator: '!', values: [] });
        break;
      default:
        throw new Error(`${JSON.stringify(str(e.operator))} is not a valid label selector operator`);
    }
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return new LabelSelector(reqs);
}
