// The kind a typed request body must be: the endpoint's. A body's own apiVersion/kind, read
// first as kube's decoder reads them, may leave either out (the endpoint supplies it) but may not
// name another.

import type { GroupVersionKind } from '../machinery/api-resource.js';
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

/** The body's kind and group/version must be the endpoint's (missing ones default to it). */
export function checkTarget(gvk: GroupVersionKind, target: TypedTarget): void {
  const kind = gvk.kind || target.kind;
  const version = gvk.version || target.version;
  if (kind !== target.kind) {
    throw badRequest(
      cannotBeHandledMessage(kind, version, target.kind, `no kind "${kind}" is registered for version "${gvk.group ? `${gvk.group}/` : ''}${version}"`),
    );
  }
  if ((gvk.version && gvk.group !== target.group) || (gvk.version && gvk.version !== target.version)) {
    const got = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    const want = target.group ? `${target.group}/${target.version}` : target.version;
    throw badRequest(`the API version in the data (${got}) does not match the expected API version (${want})`);
  }
}
