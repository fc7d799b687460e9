// Every served resource type, in kube's discovery order (groups as kube registers them:
// apps, policy, rbac.authorization.k8s.io, scheduling.k8s.io). The resources without storage
// (the access reviews) join from the server, which holds what answers them.

import type { ResourceDef } from './types.js';
import { namespaces } from './core/namespaces/strategy.js';
import { persistentVolumeClaims } from './core/persistentvolumeclaims/strategy.js';
import { pods } from './core/pods/strategy.js';
import { controllerRevisions } from './apps/controllerrevisions/strategy.js';
import { statefulSets } from './apps/statefulsets/strategy.js';
import { podDisruptionBudgets } from './policy/poddisruptionbudgets/strategy.js';
import { priorityClasses } from './scheduling/priorityclasses/strategy.js';
import { roles } from './rbac/roles/strategy.js';
import { clusterRoles } from './rbac/clusterroles/strategy.js';
import { roleBindings } from './rbac/rolebindings/strategy.js';
import { clusterRoleBindings } from './rbac/clusterrolebindings/strategy.js';

export const RESOURCE_DEFS: ResourceDef[] = [
  namespaces,
  persistentVolumeClaims,
  pods,
  controllerRevisions,
  statefulSets,
  podDisruptionBudgets,
  clusterRoleBindings,
  clusterRoles,
  roleBindings,
  roles,
  priorityClasses,
];
