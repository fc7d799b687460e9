// ClusterRoleBinding (rbac.authorization.k8s.io/v1): grants a ClusterRole everywhere; the role
// reference never changes.

import { bindingTable, rbacDef, rbacStrategy } from '../strategy.js';
import { validateBindingUpdate, validateClusterRoleBinding } from '../validation.js';

export const clusterRoleBindings = rbacDef(
  'clusterrolebindings',
  'ClusterRoleBinding',
  false,
  rbacStrategy(validateClusterRoleBinding, validateBindingUpdate),
  bindingTable('clusterRoleBinding', 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.'),
);
