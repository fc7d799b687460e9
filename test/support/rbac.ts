// Test users need permissions once RBAC is on: a ClusterRoleBinding from a cluster role to a
// user or group, made by the admin (system:masters would also lift the in-flight limits).

import { http, type KapiProcess } from './server.js';

export async function bindClusterRole(k: KapiProcess, role: string, subject: { kind: 'User' | 'Group'; name: string }): Promise<void> {
  const r = await http(k, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `test-${role}-${subject.kind.toLowerCase()}-${subject.name}`.replace(/[^a-z0-9.-]/g, '-') },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
  });
  if (r.status !== 201 && r.status !== 409) throw new Error(`binding ${subject.name} to ${role}: ${r.status} ${r.text}`);
}
