// DELETE and deletecollection: options come from delete-options.ts, the rules from the
// generic store (registry/generic/delete-plan.ts); this only answers as kube does.

import { parseDeleteOptions } from './delete-options.js';
import { parseSelectors, selectorFilter } from './filters.js';
import { decodeListQuery, validateListQuery } from './list-options.js';
import type { Scope } from './scope.js';
import { respondList, respondObject, respondStatus } from './respond.js';
import { forbidden, genericNotFound } from '../machinery/errors.js';
import { addAuditAnnotation } from './audit-annotations.js';
import { authorizeUnsafeDelete } from './unsafe-delete-authz.js';

export async function handleDelete(s: Scope): Promise<void> {
  const { info, def } = s;
  if (info.subresource) throw genericNotFound();
  const opts = await parseDeleteOptions(s);
  if (opts.ignoreStoreReadError) return unsafeDelete(s);
  const why = def.deleteForbidden?.(info.name);
  if (why) throw forbidden(s.store.gr, info.name, why);
  const res = await s.store.delete(info.namespace, info.name, opts);
  if (res.kind === 'marked') {
    // kube answers 202 only to the deprecated orphanDependents=false on an object that stays.
    respondObject(s.ctx, opts.orphanDependents === false ? 202 : 200, def, res.object.bytes, s.out, s.pretty);
    return;
  }
  if (def.returnDeletedObject) {
    respondObject(s.ctx, 200, def, res.object.bytes, s.out, s.pretty);
    return;
  }
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    // Status details leave out an empty group, as Go's omitempty does.
    details: { name: info.name, ...(def.group ? { group: def.group } : {}), kind: def.resource, uid: res.obj.metadata.uid },
  };
  respondStatus(s.ctx, status, 200, s.out, s.pretty);
}

/**
 * The force delete of an object that cannot be read (ignoreStoreReadErrorWithClusterBreakingPotential,
 * with the AllowUnsafeMalformedObjectDeletion gate): it needs the `unsafe-delete-ignore-read-errors`
 * permission on top of `delete`, and removes the object without admission or finalizers.
 */
async function unsafeDelete(s: Scope): Promise<void> {
  const { info, def, ctx } = s;
  addAuditAnnotation(ctx, 'apiserver.k8s.io/unsafe-delete-ignore-read-error', '');
  await authorizeUnsafeDelete(ctx, info, def);
  await s.store.unsafeDelete(info.namespace, info.name);
  // No object to answer with (it could not be read): kube's bare Status.
  respondStatus(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: info.name, kind: def.kind }, code: 200 }, 200, s.out, s.pretty);
}

/**
 * deletecollection: the query is decoded and validated as a list's (400 and 422 on
 * ListOptions), the field selector converted, then DeleteOptions; the store deletes what the
 * list (or its page, with `limit`) holds and answers that list.
 */
export async function handleDeleteCollection(s: Scope): Promise<void> {
  const q = decodeListQuery(s.query);
  const selectors = parseSelectors(s.query);
  validateListQuery(q);
  const filter = selectorFilter(s.def, selectors);
  const opts = await parseDeleteOptions(s, true);
  const res = await s.store.deleteCollection(
    s.info.namespace,
    { resourceVersion: q.resourceVersion, resourceVersionMatch: q.resourceVersionMatch, limit: q.limit, continue: q.continue || undefined, filter },
    opts,
  );
  respondList(
    s.ctx,
    s.def,
    res.items,
    { resourceVersion: String(res.resourceVersion), continue: res.continue, remainingItemCount: res.remainingItemCount },
    { mediaType: s.out.mediaType, ...(s.out.partial ? { partial: s.out.partial } : {}) },
    s.pretty,
  );
}
