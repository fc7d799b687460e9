// Every served resource type, in kube's discovery order.

import type { ResourceDef } from './types.js';
import { namespaces } from './core/namespaces/strategy.js';
import { persistentVolumeClaims } from './core/persistentvolumeclaims/strategy.js';
import { pods } from './core/pods/strategy.js';
import { serviceAccounts } from './core/serviceaccounts/strategy.js';
import { controllerRevisions } from './apps/controllerrevisions/strategy.js';
import { statefulSets } from './apps/statefulsets/strategy.js';
import { podDisruptionBudgets } from './policy/poddisruptionbudgets/strategy.js';
import { priorityClasses } from './scheduling/priorityclasses/strategy.js';

export const RESOURCE_DEFS: ResourceDef[] = [
  namespaces,
  persistentVolumeClaims,
  pods,
  serviceAccounts,
  controllerRevisions,
  statefulSets,
  podDisruptionBudgets,
  priorityClasses,
];
