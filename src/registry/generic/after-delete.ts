// kube's AfterDelete hook of the generic store, run by every path that removes an object
// (DELETE, a graceful deletion's second step, an update that drops the last finalizer).

import type { KObject } from '../../machinery/object.js';
import type { StoreContext } from './context.js';

/** kube's AfterDelete hook: once an object is gone (never for a dry run). */
export async function afterDelete(ctx: StoreContext, obj: KObject, dryRun: boolean): Promise<void> {
  const hooks = ctx.hooks;
  if (!hooks || dryRun) return;
  try {
    await hooks.afterDelete(obj);
  } catch (e) {
    // As in kube, a failed cleanup leaves the deletion standing; the allocations' repair catches up.
    ctx.deps.log.warn({ err: (e as Error).message, resource: ctx.def.resource, name: obj.metadata.name }, 'after-delete hook failed');
  }
}
