// Validation of RBAC objects with kube's field paths and messages (pkg/apis/rbac/validation):
// rules, aggregation rules, role references and subjects. Names of roles and bindings only
// have to be URL path segments (they may hold ':' and upper case: `system:node`).

import type { FieldError } from '../../machinery/errors.js';
import { invalid, notSupported, required } from '../../machinery/validation/field.js';
import { GoStringer } from '../../machinery/validation/field.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../machinery/validation/names.js';
import { validateLabelSelector } from '../../machinery/validation/object-meta.js';
import type { KObject } from '../../machinery/object.js';
import { RBAC_GROUP, type BindingObject, type PolicyRule, type RoleObject, type RoleRef, type Subject } from './types.js';

const len = (v: unknown[] | null | undefined): number => v?.length ?? 0;

/** ValidatePolicyRule: verbs required; non-resource URLs alone and only in cluster roles; otherwise groups and resources. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    if (namespaced) errs.push(invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(role: RoleObject, namespaced: boolean): FieldError[] {
  return (role.rules ?? []).flatMap((r, i) => validatePolicyRule(r, namespaced, `rules[${i}]`));
}

export function validateRole(obj: KObject): FieldError[] {
  return validateRules(obj as RoleObject, true);
}

export function validateClusterRole(obj: KObject): FieldError[] {
  const role = obj as RoleObject;
  const errs = validateRules(role, false);
  const agg = role.aggregationRule;
  if (agg !== undefined && agg !== null) {
    const selectors = agg.clusterRoleSelectors ?? [];
    if (selectors.length === 0) {
      errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((s, i) => {
      const path = `aggregationRule.clusterRoleSelectors[${i}]`;
      const selectorErrs = validateLabelSelector(s, path);
      errs.push(...selectorErrs);
      // kube also converts each selector, and a selector that does not convert (whatever the
      // checks above found) is reported once more, with the converted selector's nil ("null").
      if (selectorErrs.length > 0) errs.push(invalid(path, 'null', 'invalid label selector.'));
    });
  }
  return errs;
}

/** What Go's %#v prints for a role reference (the internal type's). */
const roleRefValue = (r: RoleRef): GoStringer =>
  new GoStringer(`rbac.RoleRef{APIGroup:${JSON.stringify(r.apiGroup ?? '')}, Kind:${JSON.stringify(r.kind ?? '')}, Name:${JSON.stringify(r.name ?? '')}}`);

function validateRoleRef(ref: RoleRef, kinds: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const r = ref ?? ({} as RoleRef);
  if (r.apiGroup !== RBAC_GROUP) errs.push(notSupported('roleRef.apiGroup', r.apiGroup ?? '', [RBAC_GROUP]));
  if (!kinds.includes(r.kind)) errs.push(notSupported('roleRef.kind', r.kind ?? '', kinds));
  if (!r.name) errs.push(required('roleRef.name'));
  else for (const m of isValidPathSegmentName(r.name)) errs.push(invalid('roleRef.name', r.name, m));
  return errs;
}

/** ValidateRoleBindingSubject. */
export function validateSubject(s: Subject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(required(`${path}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name) for (const m of isDNS1123Subdomain(s.name)) errs.push(invalid(`${path}.name`, s.name, m));
      if (s.apiGroup) errs.push(notSupported(`${path}.apiGroup`, s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (s.apiGroup !== RBAC_GROUP) errs.push(notSupported(`${path}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(obj: KObject, namespaced: boolean): FieldError[] {
  const b = obj as BindingObject;
  const errs = validateRoleRef(b.roleRef, namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole']);
  (b.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s, namespaced, `subjects[${i}]`)));
  return errs;
}

export const validateRoleBinding = (obj: KObject): FieldError[] => validateBinding(obj, true);
export const validateClusterRoleBinding = (obj: KObject): FieldError[] => validateBinding(obj, false);

/** A binding's role reference may not change: bind another role with another binding. */
export function validateBindingUpdate(obj: KObject, old: KObject): FieldError[] {
  const a = (obj as BindingObject).roleRef ?? ({} as RoleRef);
  const b = (old as BindingObject).roleRef ?? ({} as RoleRef);
  if (a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name) return [];
  return [invalid('roleRef', roleRefValue(a), 'cannot change roleRef')];
}
