// Every served resource type, in kube's discovery order (named groups in the order
// kube-apiserver lists them under /apis).

import type { ResourceDef } from './types.js';
import { events } from './core/events/strategy.js';
import { namespaces } from './core/namespaces/strategy.js';
import { nodes } from './core/nodes/strategy.js';
import { persistentVolumeClaims } from './core/persistentvolumeclaims/strategy.js';
import { persistentVolumes } from './core/persistentvolumes/strategy.js';
import { pods } from './core/pods/strategy.js';
import { services } from './core/services/strategy.js';
import { controllerRevisions } from './apps/controllerrevisions/strategy.js';
import { statefulSets } from './apps/statefulsets/strategy.js';
import { eventsV1 } from './events/events/strategy.js';
import { ipAddresses } from './networking/ipaddresses/strategy.js';
import { podDisruptionBudgets } from './policy/poddisruptionbudgets/strategy.js';
import { storageClasses } from './storage/storageclasses/strategy.js';
import { priorityClasses } from './scheduling/priorityclasses/strategy.js';
import { leases } from './coordination/leases/strategy.js';

export const RESOURCE_DEFS: ResourceDef[] = [
  events,
  namespaces,
  nodes,
  persistentVolumeClaims,
  persistentVolumes,
  pods,
  services,
  controllerRevisions,
  statefulSets,
  eventsV1,
  ipAddresses,
  podDisruptionBudgets,
  storageClasses,
  priorityClasses,
  leases,
];
