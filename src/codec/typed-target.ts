// The kind a typed request body must be: the endpoint's. A body's own apiVersion/kind, read
// first as kube's decoder reads them, may leave either out (the endpoint supplies it) but may not
// name another.

import { internalPackage, type GroupVersionKind } from '../machinery/api-resource.js';
import { SCHEME_KINDS } from '../schema/types/generated.js';
import { badRequest } from '../machinery/errors.js';
import { cannotBeHandledMessage } from '../schema/decode.js';

export interface TypedTarget {
  /** The endpoint's kind and group/version. */
  kind: string;
  group: string;
  version: string;
  /** The schema definition of the kind. */
  definition: string;
}

/**
 * metav1's kinds every group version of kube's scheme holds (AddToGroupVersion: WatchEvent and
 * the options; Status, APIVersions, APIGroupList, APIGroup and APIResourceList as unversioned
 * kinds, known in any version). Their Go package is metav1's, `v1`.
 */
const META_KINDS = new Set(['WatchEvent', 'ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/**
 * The body's kind and group/version must be the endpoint's (missing ones default to it). What
 * kube answers otherwise depends on whether its scheme knows the body's kind: another known kind
 * cannot be converted, the same kind in another known version is a version mismatch, and a kind
 * the scheme does not know is not registered.
 */
export function checkTarget(gvk: GroupVersionKind, target: TypedTarget): void {
  const kind = gvk.kind || target.kind;
  const version = gvk.version || target.version;
  const group = gvk.version ? gvk.group : target.group;
  const gv = group ? `${group}/${version}` : version;
  const want = target.group ? `${target.group}/${target.version}` : target.version;
  if (kind === target.kind && gv === want) return;
  const meta = META_KINDS.has(kind) && (SCHEME_KINDS[gv] !== undefined || gv === 'meta.k8s.io/v1');
  if (meta && kind !== target.kind) {
    throw badRequest(cannotBeHandledMessage(kind, version, target.kind, `converting (v1.${kind}) to (${internalPackage(target.group)}.${target.kind}): unknown conversion`));
  }
  const registered = SCHEME_KINDS[gv]?.includes(kind) ?? false;
  if (!registered) {
    throw badRequest(cannotBeHandledMessage(kind, version, target.kind, `no kind "${kind}" is registered for version "${gv}" in scheme "pkg/runtime/scheme.go:110"`));
  }
  if (kind === target.kind) throw badRequest(`the API version in the data (${gv}) does not match the expected API version (${want})`);
  throw badRequest(cannotBeHandledMessage(kind, version, target.kind, `converting (${version}.${kind}) to (${internalPackage(target.group)}.${target.kind}): unknown conversion`));
}
