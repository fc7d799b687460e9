// A LabelSelector in kube's string form (metav1.LabelSelectorAsSelector(...).String()),
// as a Scale's status.selector carries it.

import { parseLabelSelector } from '../../machinery/selectors.js';

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

export function selectorString(sel: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined): string {
  if (!sel) return '';
  const terms: string[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) terms.push(`${k}=${v}`);
  for (const raw of sel.matchExpressions ?? []) {
    const r = raw as Requirement;
    const vals = [...(r.values ?? [])].sort().join(',');
    switch (r.operator) {
      case 'In':
        terms.push(`${r.key} in (${vals})`);
        break;
      case 'NotIn':
        terms.push(`${r.key} notin (${vals})`);
        break;
      case 'Exists':
        terms.push(r.key);
        break;
      case 'DoesNotExist':
        terms.push(`!${r.key}`);
        break;
    }
  }
  if (terms.length === 0) return '';
  // Parsing and printing gives kube's canonical order and spelling.
  return parseLabelSelector(terms.join(',')).toString();
}
