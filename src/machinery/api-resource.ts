// What a served resource looks like from outside (metav1.APIResource, plus what the OpenAPI
// document needs to know): the registry describes each of its types this way for discovery and
// OpenAPI, which must not depend on the registry's strategies.

/** How a resource type is named and scoped: what discovery lists for it. */
export interface ResourceNames {
  group: string;
  version: string;
  /** Plural, lower case: the URL segment. */
  resource: string;
  kind: string;
  listKind: string;
  singularName: string;
  shortNames: readonly string[];
  categories: readonly string[];
  namespaced: boolean;
}

export interface APIResource extends ResourceNames {
  verbs: readonly string[];
  /** Subresources that take the whole object (status, finalize). */
  objectSubresources: readonly string[];
  /** Subresources that take another kind by POST (pods/binding), with that kind. */
  actions: readonly ({ name: string } & GroupVersionKind)[];
  /** Whether the type has an autoscaling/v1 /scale subresource. */
  scale: boolean;
  /** Whether DELETE is documented as answering the deleted object rather than a Status. */
  deleteReturnsObject: boolean;
}

/** schema.GroupVersionKind: a kind in one version of one group ('' is the core group). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export const apiVersionOf = (r: { group: string; version: string }): string => (r.group ? `${r.group}/${r.version}` : r.version);

/** The Go package of a group's internal types, as kube's messages name them (`core.Pod`, `apps.StatefulSet`). */
export function internalPackage(group: string): string {
  return group === '' || group === 'events.k8s.io' ? 'core' : group.split('.')[0];
}
