// Role (rbac.authorization.k8s.io/v1): rules in one namespace. Escalation prevention (a user
// may not write a role granting more than they hold) is the authorization floor's check on
// writes (src/auth/authz/rbac/escalation.ts), as kube's policy-based storage wraps the store.

import { rbacDef, rbacStrategy } from '../strategy.js';
import { validateRole } from '../validation.js';

export const roles = rbacDef('roles', 'Role', true, rbacStrategy(validateRole));
