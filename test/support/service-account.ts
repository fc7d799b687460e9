// A kubeconfig for a service account, as a workload's client would hold one: the account is
// created, given cluster-admin when the server serves RBAC (so the client tests keep passing
// once authorization is enforced), and its token comes from the `token` subresource, as
// `kubectl create token` asks for it.

import { tokenKubeconfig } from './kube.js';
import { http, type KapiProcess } from './server.js';

export async function serviceAccountKubeconfig(k: KapiProcess, name: string, namespace = 'default'): Promise<{ kubeconfig: string; token: string }> {
  const sa = await http(k, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  if (sa.status !== 201 && sa.status !== 409) throw new Error(`creating service account ${name}: ${sa.status} ${sa.text}`);
  const binding = await http(k, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `test-${namespace}-${name}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name, namespace }],
  });
  // 404: no RBAC served (every request is allowed); 409: bound already.
  if (![201, 404, 409].includes(binding.status)) throw new Error(`binding ${name} to cluster-admin: ${binding.status} ${binding.text}`);
  const tr = await http(k, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
  if (tr.status !== 201) throw new Error(`token for ${name}: ${tr.status} ${tr.text}`);
  const token = (tr.json as { status: { token: string } }).status.token;
  return { kubeconfig: await tokenKubeconfig(k, token, `system:serviceaccount:${namespace}:${name}`), token };
}
