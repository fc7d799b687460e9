// RoleBinding (rbac.authorization.k8s.io/v1): grants a Role of its namespace, or a ClusterRole
// limited to its namespace; the role reference never changes.

import { bindingTable, rbacDef, rbacStrategy } from '../strategy.js';
import { validateBindingUpdate, validateRoleBinding } from '../validation.js';

export const roleBindings = rbacDef(
  'rolebindings',
  'RoleBinding',
  true,
  rbacStrategy(validateRoleBinding, validateBindingUpdate),
  bindingTable(
    'roleBinding',
    'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
  ),
);
