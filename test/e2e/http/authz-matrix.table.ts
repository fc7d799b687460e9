// What kube 1.33's bootstrap roles admin, edit and view allow in a namespace they are bound to
// by a RoleBinding, for every resource kapi serves: written from the rules of
// system:aggregate-to-view, -edit and -admin in kube's bootstrap policy (view reads the
// workloads and their status and scale; edit also writes them but not their status, and not
// ControllerRevisions; admin also manages roles and role bindings and asks
// LocalSubjectAccessReviews), not from kapi's answers. Every authenticated user, bound or not,
// may create SelfSubjectAccessReviews, SelfSubjectRulesReviews and SelfSubjectReviews
// (system:basic-user).
// scripts/oracle-record/authz-matrix.ts checks this table against a kube-apiserver.

export const READ = ['get', 'list', 'watch'];
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const RW = [...READ, ...WRITE];

export type MatrixRole = 'admin' | 'edit' | 'view' | 'none';
export const MATRIX_ROLES: MatrixRole[] = ['admin', 'edit', 'view', 'none'];

export interface Expected {
  view?: string[];
  edit?: string[];
  admin?: string[];
  /** Allowed to every authenticated user, bound or not. */
  everyone?: string[];
}

/**
 * Keyed by `resource[/subresource][.group]`, as discovery lists them. A namespace-bound role
 * reaches a cluster-scoped resource only through a namespace's own object (its name is the
 * namespace), and never for a list or watch of every namespace.
 */
export const MATRIX: Record<string, Expected> = {
  // ComponentStatus (read-only, cluster-scoped) is in no namespace-bound role.
  componentstatuses: {},
  events: { view: READ, edit: RW, admin: RW },
  // The events.k8s.io group is in no bootstrap role.
  'events.events.k8s.io': {},
  namespaces: { view: ['get'], edit: ['get'], admin: ['get'] },
  'namespaces/status': { view: ['get'], edit: ['get'], admin: ['get'] },
  'namespaces/finalize': {},
  nodes: {},
  'nodes/status': {},
  persistentvolumes: {},
  'persistentvolumes/status': {},
  // pods/binding is the scheduler's (bindings, a resource of its own, is what view reads).
  'pods/binding': {},
  // An eviction is a write of edit's (system:aggregate-to-edit creates pods/eviction).
  'pods/eviction': { edit: ['create'], admin: ['create'] },
  services: { view: READ, edit: RW, admin: RW },
  serviceaccounts: { view: READ, edit: RW, admin: RW },
  // Asking for a service account's token is a write (edit and admin).
  'serviceaccounts/token': { edit: ['create'], admin: ['create'] },
  'services/status': { view: ['get'], edit: ['get'], admin: ['get'] },
  'leases.coordination.k8s.io': { edit: RW, admin: RW },
  'ipaddresses.networking.k8s.io': {},
  'storageclasses.storage.k8s.io': {},
  pods: { view: READ, edit: RW, admin: RW },
  'pods/status': { view: ['get'], edit: ['get'], admin: ['get'] },
  persistentvolumeclaims: { view: READ, edit: RW, admin: RW },
  'persistentvolumeclaims/status': { view: ['get'], edit: ['get'], admin: ['get'] },
  'controllerrevisions.apps': { view: READ, edit: READ, admin: READ },
  'statefulsets.apps': { view: READ, edit: RW, admin: RW },
  'statefulsets/status.apps': { view: ['get'], edit: ['get'], admin: ['get'] },
  'statefulsets/scale.apps': { view: ['get'], edit: ['get', 'update', 'patch'], admin: ['get', 'update', 'patch'] },
  // TokenReviews are system:auth-delegator's (and the control plane's); anyone may ask who they are.
  'tokenreviews.authentication.k8s.io': {},
  'selfsubjectreviews.authentication.k8s.io': { everyone: ['create'] },
  'localsubjectaccessreviews.authorization.k8s.io': { admin: ['create'] },
  'selfsubjectaccessreviews.authorization.k8s.io': { everyone: ['create'] },
  'selfsubjectrulesreviews.authorization.k8s.io': { everyone: ['create'] },
  'subjectaccessreviews.authorization.k8s.io': {},
  'poddisruptionbudgets.policy': { view: READ, edit: RW, admin: RW },
  'poddisruptionbudgets/status.policy': { view: ['get'], edit: ['get'], admin: ['get'] },
  'clusterrolebindings.rbac.authorization.k8s.io': {},
  'clusterroles.rbac.authorization.k8s.io': {},
  'rolebindings.rbac.authorization.k8s.io': { admin: RW },
  'roles.rbac.authorization.k8s.io': { admin: RW },
  'priorityclasses.scheduling.k8s.io': {},
};

export function allowed(key: string, role: MatrixRole, verb: string): boolean {
  const e = MATRIX[key];
  if (!e) throw new Error(`no row for ${key} in the authorization matrix`);
  if (e.everyone?.includes(verb)) return true;
  return role !== 'none' && (e[role]?.includes(verb) ?? false);
}
