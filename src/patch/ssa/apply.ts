// The merge of an apply configuration into a live object and the ownership that follows,
// after structured-merge-diff's merge.Updater.Apply: merge, take the configuration's field
// set, prune what this applier dropped since its last apply (unless another applier owns
// it), then take fields from other managers, failing on conflicts unless forced.

import { FieldSet, type PathElement } from './fieldpath.js';
import type { Conflict, Managed } from './managed-fields.js';
import { changes, merge, removeItems, toFieldSet, type TypeNode, type TypeResolver } from './typed.js';

export interface ApplyOptions {
  /** The applier's manager identifier. */
  id: string;
  manager: string;
  apiVersion: string;
  subresource: string;
  force: boolean;
  /** Top-level fields this endpoint never owns ('f:status' on the main resource). */
  ignored: PathElement[];
}

export interface ApplyResult {
  /** The merged object; undefined when the apply changes nothing. */
  object?: unknown;
  managed: Managed;
  conflicts?: Conflict[];
}

export function applyConfig(r: TypeResolver, root: TypeNode, live: unknown, config: unknown, managedIn: Managed, o: ApplyOptions): ApplyResult {
  const managed: Managed = new Map(managedIn);
  let merged = merge(r, root, live, config);
  const last = managed.get(o.id);
  const set = toFieldSet(r, root, config).withoutTopLevel(o.ignored);
  managed.set(o.id, {
    manager: o.manager,
    operation: 'Apply',
    apiVersion: o.apiVersion,
    ...(o.subresource ? { subresource: o.subresource } : {}),
    set,
    ...(last?.time ? { time: last.time } : {}),
  });
  if (last && !last.set.isEmpty()) merged = prune(r, root, merged, managed, last.set);

  const c = changes(r, root, live, merged);
  const changed = c.changed.withoutTopLevel(o.ignored);
  const removed = c.removed.withoutTopLevel(o.ignored);
  const conflicts: Conflict[] = [];
  const taken = new Map<string, FieldSet>();
  for (const id of [...managed.keys()].sort()) {
    if (id === o.id) continue;
    const inter = managed.get(id)!.set.intersection(changed);
    if (!inter.isEmpty()) {
      taken.set(id, inter);
      inter.iterate((path) => conflicts.push({ id, path }));
    }
  }
  if (conflicts.length && !o.force) return { managed: managedIn, conflicts };
  for (const [id, e] of managed) {
    if (id === o.id) continue;
    let next = e.set;
    const t = taken.get(id);
    if (t) next = next.difference(t);
    if (next.overlaps(removed)) next = next.difference(removed);
    if (next.isEmpty()) managed.delete(id);
    else if (next !== e.set) managed.set(id, { ...e, set: next });
  }
  if (managed.get(o.id)!.set.isEmpty()) managed.delete(o.id);
  return { object: c.changed.isEmpty() && c.removed.isEmpty() ? undefined : merged, managed };
}

/**
 * Removes what the applier owned last time and no longer applies, unless some applier
 * (this one included) still owns it; fields only Update managers own are removed too.
 */
function prune(r: TypeResolver, root: TypeNode, merged: unknown, managed: Managed, lastSet: FieldSet): unknown {
  const applied: FieldSet[] = [];
  for (const e of managed.values()) if (e.operation === 'Apply') applied.push(e.set);
  if (lastSet.subsetOfUnion(applied)) return merged;
  let appliers = new FieldSet();
  for (const s of applied) appliers = appliers.union(s);
  const pruned = removeItems(r, root, merged, lastSet);
  const mergedSet = toFieldSet(r, root, merged);
  const prunedSet = toFieldSet(r, root, pruned);
  const ownedBack = removeItems(r, root, merged, mergedSet.difference(prunedSet.union(appliers)));
  const ownedBackSet = toFieldSet(r, root, ownedBack);
  return removeItems(r, root, merged, mergedSet.difference(ownedBackSet).intersection(lastSet));
}
