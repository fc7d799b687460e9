// managedFields through /scale, after apimachinery's managedfields.ScaleHandler: a write
// to /scale is field-managed on the autoscaling/v1 Scale, whose entries are derived from
// the parent's, and the result is folded back into the parent's entries.
//
// Identifiers matter here as they do in kube: an Update entry's identifier holds its
// apiVersion, so the parent's `dave` (apps/v1) and the Scale's `dave` (autoscaling/v1) are
// different managers. Folding back, a parent Update owner of replicas always loses
// replicas, and whoever owns spec.replicas on the Scale gets an entry of its own holding
// only the parent's replicas path, without a time (kube takes the time from the parent's
// entry of that identifier, which never exists for these).

import { FieldSet, type PathElement } from './fieldpath.js';
import { managerId, type Managed } from './managed-fields.js';

/** Where replicas are in the Scale. */
export const SCALE_REPLICAS: readonly PathElement[] = ['f:spec', 'f:replicas'];
export const SCALE_API_VERSION = 'autoscaling/v1';

function pathSet(path: readonly PathElement[]): FieldSet {
  const s = new FieldSet();
  s.insert(path);
  return s;
}

/**
 * The Scale's entries: every parent entry that owns the replicas path becomes an
 * autoscaling/v1 entry owning the Scale's spec.replicas (ToSubresource). Identifiers are
 * rebuilt as decoding the Scale's managedFields would build them.
 */
export function toSubresource(parent: Managed, replicasPath: readonly PathElement[]): Managed {
  const out: Managed = new Map();
  for (const e of parent.values()) {
    if (!e.set.has(replicasPath)) continue;
    const id = managerId(e.manager, e.operation, SCALE_API_VERSION, e.subresource);
    out.set(id, {
      manager: e.manager,
      operation: e.operation,
      apiVersion: SCALE_API_VERSION,
      ...(e.subresource ? { subresource: e.subresource } : {}),
      set: pathSet(SCALE_REPLICAS),
      ...(e.time ? { time: e.time } : {}),
    });
  }
  return out;
}

/**
 * The parent's entries after a Scale write (ToParent): parent entries without replicas stay;
 * an owner of replicas keeps its entry only when the Scale still has an entry of the same
 * identifier (an applier), otherwise loses replicas; every remaining Scale owner of
 * spec.replicas gets an entry of its own with the parent's replicas path.
 */
export function toParent(parent: Managed, scale: Managed, replicasPath: readonly PathElement[], parentApiVersion: string): Managed {
  const out: Managed = new Map();
  const rest = new Map(scale);
  for (const [id, e] of parent) {
    if (!e.set.has(replicasPath)) {
      out.set(id, e);
      continue;
    }
    if (!rest.has(id)) {
      const next = e.set.difference(pathSet(replicasPath));
      if (!next.isEmpty()) out.set(id, { ...e, set: next });
    } else {
      out.set(id, e);
      rest.delete(id);
    }
  }
  for (const [id, e] of rest) {
    if (!e.set.has(SCALE_REPLICAS)) continue;
    const time = parent.get(id)?.time;
    out.set(id, {
      manager: e.manager,
      operation: e.operation,
      apiVersion: parentApiVersion,
      ...(e.subresource ? { subresource: e.subresource } : {}),
      set: pathSet(replicasPath),
      ...(time ? { time } : {}),
    });
  }
  return out;
}
