// The shapes of rbac.authorization.k8s.io/v1 objects as the registry, the authorizers and the
// aggregation controller read them (the wire form is the schema's).

import type { KObject } from '../../machinery/object.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface LabelSelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface RoleObject extends KObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorLike[] | null } | null;
}

export interface BindingObject extends KObject {
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

/** The rules of a Role or ClusterRole (none when unset). */
export const rulesOf = (role: KObject): PolicyRule[] => (role as RoleObject).rules ?? [];

/** Whether a ClusterRole gathers its rules from others. */
export const hasAggregationRule = (role: KObject | undefined | null): boolean =>
  (((role as RoleObject | undefined)?.aggregationRule?.clusterRoleSelectors) ?? []).length > 0;
