// ClusterRole (rbac.authorization.k8s.io/v1): rules across the cluster, or gathered from
// other ClusterRoles by label (aggregationRule; src/controllers/clusterrole-aggregation.ts
// writes the gathered rules).

import { rbacDef, rbacStrategy } from '../strategy.js';
import { validateClusterRole } from '../validation.js';

export const clusterRoles = rbacDef('clusterroles', 'ClusterRole', false, rbacStrategy(validateClusterRole));
