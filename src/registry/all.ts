// Every served resource type, in discovery order.

import type { ResourceDef } from './types.js';
import { namespaces } from './core/namespaces/strategy.js';
import { statefulSets } from './apps/statefulsets/strategy.js';
import { podDisruptionBudgets } from './policy/poddisruptionbudgets/strategy.js';
import { priorityClasses } from './scheduling/priorityclasses/strategy.js';

export const RESOURCE_DEFS: ResourceDef[] = [namespaces, statefulSets, podDisruptionBudgets, priorityClasses];
