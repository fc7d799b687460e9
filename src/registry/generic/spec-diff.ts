// A short cmp.Diff-like rendering of what changed between two specs, which kube prints
// after "... may not change fields other than ..." style messages.

import { deepEqual, type Obj } from '../../machinery/json-view.js';

export function specDiff(goType: string, before: Obj, after: Obj): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lines = [`  ${goType}{`];
  for (const k of keys) {
    if (deepEqual(before[k], after[k])) continue;
    const field = k[0].toUpperCase() + k.slice(1);
    if (before[k] !== undefined) lines.push(`- \t${field}: ${JSON.stringify(before[k])},`);
    if (after[k] !== undefined) lines.push(`+ \t${field}: ${JSON.stringify(after[k])},`);
  }
  lines.push('  }');
  return lines.join('\n') + '\n';
}
