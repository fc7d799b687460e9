// What a DELETE does to one object, after kube's Store.Delete, rest.BeforeDelete,
// updateForGracefulDeletionAndFinalizers and markAsDeleting (and the namespace registry's
// own first step): the object either goes now or is marked (deletionTimestamp) and stays
// until its finalizers, or its grace period, are done. Runs inside the store's write, so
// it sees the latest object and may throw to refuse.

import type { ResourceDef } from '../types.js';
import type { KObject } from '../../machinery/object.js';
import { gcFinalizersOnDelete, namespaceFinalizersOnDelete, setFinalizers, type PropagationOptions } from './deletion.js';
import { hasPendingFinalizers, nowTimestamp } from '../../machinery/meta.js';

export interface DeletePlanOptions extends PropagationOptions {
  gracePeriodSeconds?: number;
}

/** Mutates `obj` into its marked state unless the answer is 'delete'. */
export function planDeletion(def: ResourceDef, obj: KObject, opts: DeletePlanOptions): 'delete' | 'mark' | 'mark-then-delete' {
  const meta = obj.metadata;
  const alreadyMarked = Boolean(meta.deletionTimestamp);
  const pending = () => hasPendingFinalizers(obj) || (def.pendingTypeFinalizers?.(obj) ?? false);

  if (def.ownDeletion && !alreadyMarked) {
    // A namespace's first DELETE: it turns Terminating and its content is cleaned up first.
    def.prepareForDelete?.(obj, false);
    const f = namespaceFinalizersOnDelete(obj, opts);
    if (f) setFinalizers(obj, f);
    if (!pending()) return 'delete';
    meta.deletionTimestamp = nowTimestamp();
    return 'mark';
  }
  def.prepareForDelete?.(obj, alreadyMarked);

  let graceful = false;
  if (def.gracefulDeletePeriod) {
    const requested = opts.gracePeriodSeconds === undefined ? undefined : opts.gracePeriodSeconds < 0 ? 1 : opts.gracePeriodSeconds;
    const current = meta.deletionGracePeriodSeconds ?? 0;
    if (alreadyMarked && current > 0) {
      // Deletion is under way: only a shorter grace period changes anything.
      if (requested === undefined || requested >= current) return 'mark';
      const started = Date.parse(String(meta.deletionTimestamp)) - current * 1000;
      meta.deletionTimestamp = nowTimestamp(new Date(started + requested * 1000));
      meta.deletionGracePeriodSeconds = requested;
      graceful = true;
    } else if (!alreadyMarked) {
      const period = def.gracefulDeletePeriod(obj, requested);
      meta.deletionTimestamp = nowTimestamp(new Date(Date.now() + period * 1000));
      meta.deletionGracePeriodSeconds = period;
      if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
      graceful = true;
    }
  }

  const f = gcFinalizersOnDelete(obj, opts, def.garbageCollectionPolicy);
  if (f) setFinalizers(obj, f);
  // A graceful type whose period came out 0 is still written marked first (watchers see
  // the deletionTimestamp), then removed, as kube's store does it.
  if (graceful) return (meta.deletionGracePeriodSeconds ?? 0) > 0 || pending() ? 'mark' : 'mark-then-delete';
  if (!pending()) return 'delete';
  // markAsDeleting: marking is a change of intent, so generation moves the first time.
  if (!alreadyMarked && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  const now = nowTimestamp();
  if (!meta.deletionTimestamp || String(meta.deletionTimestamp) > now) meta.deletionTimestamp = now;
  meta.deletionGracePeriodSeconds = 0;
  return 'mark';
}
