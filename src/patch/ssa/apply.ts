// The merge of an apply configuration into a live object and the ownership that follows,
// after structured-merge-diff's merge.Updater.Apply:
//   1. merge the configuration into the live object;
//   2. the applier's set becomes the configuration's field set;
//   3. prune: what the applier owned last time and no longer applies is removed, unless a
//      manager (an applier or an updater: any entry) still owns it;
//   4. compare the live object with the result: every other manager that owns a field the
//      apply adds or modifies is in conflict (fatal unless forced; forced, it loses the
//      field), and every other manager loses the fields the apply removed;
//   5. the result is a no-op when it equals the live object (lists in order: an apply that
//      only reorders a list is a change).

import type { FieldSet, PathElement } from './fieldpath.js';
import type { Conflict, Managed } from './managed-fields.js';
import { changes, ensureNamedFields, merge, removeItems, toFieldSet, type TypeNode, type TypeResolver } from './typed.js';
import { deepEqual } from '../../machinery/json-view.js';

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
    if (!removed.isEmpty()) next = next.difference(removed);
    if (next.isEmpty()) managed.delete(id);
    else if (next !== e.set) managed.set(id, { ...e, set: next });
  }
  if (managed.get(o.id)!.set.isEmpty()) managed.delete(o.id);
  return { object: deepEqual(live, merged) ? undefined : merged, managed };
}

/**
 * Removes what the applier owned last time (lastSet) and no longer applies, unless any
 * manager (the applier's new set included) owns it. Struct fields count as owned when
 * something below them is (ensureNamedFields), so an emptied struct whose fields nobody owns
 * goes whole, while one that still holds an owned field stays.
 */
function prune(r: TypeResolver, root: TypeNode, merged: unknown, managed: Managed, lastSet: FieldSet): unknown {
  const named = (s: FieldSet) => ensureNamedFields(r, root, s);
  const lastNamed = named(lastSet);
  let pruned = removeItems(r, root, merged, lastNamed);
  // Add back what some manager owns.
  let owned: FieldSet | undefined;
  for (const e of managed.values()) owned = owned ? owned.union(e.set) : e.set;
  const mergedSet = named(toFieldSet(r, root, merged));
  let prunedSet = named(toFieldSet(r, root, pruned));
  pruned = removeItems(r, root, merged, mergedSet.difference(prunedSet.union(named(owned!))));
  // Add back what the applier did not own last time (fields nobody owns, or only updaters).
  prunedSet = named(toFieldSet(r, root, pruned));
  return removeItems(r, root, merged, mergedSet.difference(prunedSet).intersection(lastNamed));
}
