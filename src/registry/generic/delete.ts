// Deletion in the generic store, after kube's Store.Delete and DeleteCollection: the
// object goes at once or is marked (deletionTimestamp) and stays while finalizers or a grace
// period hold it (delete-plan.ts decides which, deletion.ts sets the GC finalizers).

import { type Decision } from '../../actors/kind-actor.js';
import { StatusError, conflict, notFound } from '../../machinery/errors.js';
import { type KObject } from '../../machinery/object.js';
import { decodeObject, encodeForStorage, withResourceVersion, type VersionedBytes } from '../../machinery/stored-bytes.js';
import { deepEqual } from '../../machinery/json-view.js';
import { planDeletion } from './delete-plan.js';
import type { PropagationOptions } from './deletion.js';
import { canonical, type StoreContext } from './context.js';
import { listObjects, type ListOptions, type ListResult } from './read.js';
import { commit } from './write.js';
import { afterDelete } from './after-delete.js';

export interface DeleteOptions extends PropagationOptions {
  dryRun?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

export type DeleteResult =
  | { kind: 'marked'; object: VersionedBytes }
  | { kind: 'deleted'; object: VersionedBytes; obj: KObject };

/**
 * DELETE, after kube's Store.Delete: the options' GC finalizers are set first; an object
 * left with finalizers (or, for graceful types, a grace period) is marked for deletion
 * and stays, anything else is removed.
 */
export async function deleteObject(ctx: StoreContext, namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
  const key = ctx.keyFor(namespace, name);
  let marked: KObject | undefined;
  let thenDelete = false;
  const out = await commit(ctx, key, (cur): Decision => {
    if (!cur) throw notFound(ctx.gr, name);
    const obj = ctx.stored.decode(cur);
    checkDeletePreconditions(ctx, obj, opts);
    const plan = planDeletion(ctx.def, obj, opts);
    thenDelete = plan === 'mark-then-delete';
    if (plan === 'delete') {
      marked = undefined;
      return { kind: 'delete' };
    }
    marked = obj;
    if (deepEqual(canonical(obj), canonical(ctx.stored.decode(cur)))) return { kind: 'none' };
    return { kind: 'put', value: ctx.stored.encode(obj) };
  }, opts.dryRun === true);
  if (thenDelete && marked) return deleteMarked(ctx, key, name, marked, out.revision, opts.dryRun === true);
  if (out.decision === 'delete') {
    const obj = ctx.stored.decode(out.previous!);
    obj.metadata.resourceVersion = String(out.revision);
    await afterDelete(ctx, obj, opts.dryRun === true);
    return { kind: 'deleted', object: withResourceVersion(ctx.stored.view(out.previous!.value), out.revision), obj };
  }
  if (out.decision === 'none' && out.current) {
    return { kind: 'marked', object: withResourceVersion(ctx.stored.view(out.current.value), out.current.modRevision) };
  }
  if (!marked) throw notFound(ctx.gr, name);
  return { kind: 'marked', object: withResourceVersion(encodeForStorage(marked), out.revision) };
}

/**
 * The second step of a graceful deletion whose period is 0: the marked object (just
 * written) is removed. Someone else removing it first is fine; a dry run stops at the mark.
 */
async function deleteMarked(ctx: StoreContext, key: string, name: string, marked: KObject, revision: number, dryRun: boolean): Promise<DeleteResult> {
  const markedBytes = withResourceVersion(encodeForStorage(marked), revision);
  if (dryRun) return { kind: 'deleted', object: markedBytes, obj: marked };
  try {
    const out = await commit(ctx, key, (cur): Decision => {
      if (!cur) throw notFound(ctx.gr, name);
      return { kind: 'delete' };
    }, false);
    const obj = ctx.stored.decode(out.previous!);
    obj.metadata.resourceVersion = String(out.revision);
    await afterDelete(ctx, obj, false);
    return { kind: 'deleted', object: withResourceVersion(ctx.stored.view(out.previous!.value), out.revision), obj };
  } catch (e) {
    if (e instanceof StatusError && e.code === 404) return { kind: 'deleted', object: markedBytes, obj: marked };
    throw e;
  }
}

/** kube's storage preconditions, worded as its etcd3 store words them. */
function checkDeletePreconditions(ctx: StoreContext, obj: KObject, opts: DeleteOptions): void {
  const pre = opts.preconditions;
  // kube names the kind of the storage's own type (events.k8s.io keeps core Events: group "").
  const kindGr = { group: ctx.def.storedAs?.group ?? ctx.def.group, resource: ctx.def.kind };
  const name = obj.metadata.name ?? '';
  if (ctx.def.ownDeletion) {
    // The namespace registry checks the preconditions itself, in its own words.
    if (pre?.uid && pre.uid !== obj.metadata.uid) {
      throw conflict(ctx.gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
      throw conflict(ctx.gr, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
    }
    return;
  }
  if (pre?.uid && pre.uid !== obj.metadata.uid) {
    throw conflict(
      kindGr,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${obj.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(
      kindGr,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

/** kube lists a deletecollection without a limit in pages of this size. */
const DELETE_COLLECTION_PAGE = 10_000;

/**
 * kube's DeleteCollection: lists with the request's options (a `limit` deletes one page and
 * answers that page's continue token; no limit walks every page), deletes what it listed
 * (another deleter getting there first is fine) and answers the list as it was read.
 */
export async function deleteCollection(ctx: StoreContext, namespace: string, list: ListOptions, opts: DeleteOptions): Promise<ListResult> {
  const hasLimit = (list.limit ?? 0) > 0;
  let page = await listObjects(ctx, namespace, hasLimit ? list : { ...list, limit: DELETE_COLLECTION_PAGE });
  const first = page;
  const items: VersionedBytes[] = [];
  for (;;) {
    items.push(...page.items);
    await Promise.all(
      page.items.map(async (item) => {
        const o = decodeObject(item.bytes);
        try {
          await deleteObject(ctx, o.metadata.namespace ?? '', o.metadata.name!, opts);
        } catch (e) {
          if (!(e instanceof StatusError && e.code === 404)) throw e;
        }
      }),
    );
    if (hasLimit) return page;
    if (!page.continue) break;
    page = await listObjects(ctx, namespace, { ...list, limit: DELETE_COLLECTION_PAGE, continue: page.continue, resourceVersion: undefined, resourceVersionMatch: undefined });
  }
  // Without a limit the answer is the first page's list metadata with every item.
  return { items, resourceVersion: first.resourceVersion, ...(first.continue ? { continue: first.continue } : {}) };
}
