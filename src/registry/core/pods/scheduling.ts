// Where a pod may run: node and pod affinity, tolerations and topology spread constraints,
// with kube 1.33's paths and messages.

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, invalid, notSupported, required } from '../../../machinery/validation/field.js';
import { isValidLabelValue, validateDNS1123Label, validateQualifiedName } from '../../../machinery/validation/names.js';
import { validateLabelSelector } from '../../../machinery/validation/object-meta.js';
import { validateNodeSelectorTerm } from '../node-selector.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';

function validatePodAffinityTerm(term: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector, `${path}.labelSelector`));
  errs.push(...validateLabelSelector(term.namespaceSelector, `${path}.namespaceSelector`));
  for (const ns of asArr(term.namespaces)) errs.push(...validateDNS1123Label(str(ns), `${path}.namespace`));
  const tk = str(term.topologyKey);
  if (!tk) errs.push(required(`${path}.topologyKey`, 'can not be empty'));
  errs.push(...validateQualifiedName(tk, `${path}.topologyKey`));
  return errs;
}

export function validateAffinity(aff: unknown, path: string): FieldError[] {
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
    if (k) errs.push(...validateQualifiedName(k, `${p}.key`));
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

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(list: unknown, path: string): FieldError[] {
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
