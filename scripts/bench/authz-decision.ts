// What one RBAC decision costs, in process and without a server: kube 1.33's bootstrap policy
// (admin, edit and view aggregated as the controller does), a RoleBinding of `edit` to
// bench-user in namespace bench, and the chain the server runs (system:masters, then RBAC)
// asked about a get and a create of a StatefulSet, a million times each after a warm-up. The
// figure to set beside a request's whole server CPU (scripts/bench/authz.ts).
//
//   npx tsc -p tsconfig.json && node dist/scripts/bench/authz-decision.js

import { RbacIndex } from '../../src/auth/authz/rbac/index.js';
import { RBACAuthorizer } from '../../src/auth/authz/rbac/authorizer.js';
import { authorizerChain, privilegedGroups, type Attributes } from '../../src/auth/authz/authorizer.js';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_ROLES, BOOTSTRAP_ROLE_BINDINGS } from '../../src/auth/authz/rbac/bootstrap/policy.generated.js';
import { aggregatedRules } from '../../src/controllers/clusterrole-aggregation.js';
import type { KObject } from '../../src/machinery/object.js';
import type { GenericStore } from '../../src/registry/generic/store.js';
import type { RoleObject } from '../../src/registry/rbac/types.js';

const ITERATIONS = Number(process.env.AUTHZ_DECISIONS ?? 1_000_000);

/** The part of a store the index reads: its cache's entries (no events: the policy is fixed). */
function fixedStore(prefix: string, objs: readonly KObject[]): GenericStore {
  const keyFor = (ns: string, name: string): string => `${prefix}${ns ? `${ns}/` : ''}${name}`;
  const entries = objs.map((o) => ({ key: keyFor(o.metadata.namespace ?? '', o.metadata.name ?? ''), bytes: Buffer.from(JSON.stringify(o)) }));
  const store = { prefix, keyFor, cache: { subscribe: () => () => undefined, onReset: () => () => undefined, list: () => entries } };
  return store as unknown as GenericStore;
}

const clusterRoles = BOOTSTRAP_CLUSTER_ROLES.map((r) => structuredClone(r) as RoleObject);
for (const name of ['view', 'edit', 'admin']) {
  const role = clusterRoles.find((r) => r.metadata.name === name)!;
  role.rules = aggregatedRules(role, clusterRoles);
}
const binding = {
  metadata: { name: 'bench-edit', namespace: 'bench' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
  subjects: [{ kind: 'User', name: 'bench-user' }],
};
const index = new RbacIndex({
  roles: fixedStore('/roles/', BOOTSTRAP_ROLES),
  clusterRoles: fixedStore('/clusterroles/', clusterRoles),
  roleBindings: fixedStore('/rolebindings/', [...BOOTSTRAP_ROLE_BINDINGS, binding]),
  clusterRoleBindings: fixedStore('/clusterrolebindings/', BOOTSTRAP_CLUSTER_ROLE_BINDINGS),
});
index.start();
const chain = authorizerChain([privilegedGroups, new RBACAuthorizer(index)]);
const user = { name: 'bench-user', uid: '', groups: ['system:authenticated'], extra: {} };

for (const verb of ['get', 'create'] as const) {
  const a: Attributes = { user, verb, isResourceRequest: true, path: '', apiGroup: 'apps', apiVersion: 'v1', namespace: 'bench', resource: 'statefulsets', subresource: '', name: verb === 'get' ? 'web' : '' };
  const first = chain.authorize(a);
  if (first.decision !== 'allow') throw new Error(`${verb}: ${first.decision} (${first.reason})`);
  for (let i = 0; i < ITERATIONS / 5; i++) chain.authorize(a);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) chain.authorize(a);
  const ns = Number(process.hrtime.bigint() - t0) / ITERATIONS;
  process.stdout.write(`${verb} statefulsets.apps as bench-user (edit): ${(ns / 1000).toFixed(2)} µs per decision (${first.reason})\n`);
}
index.stop();
