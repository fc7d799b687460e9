// DELETE and deletecollection: options come from delete-options.ts, the rules from the
// generic store (registry/generic/delete-plan.ts); this only answers as kube does.

import { parseDeleteOptions } from './delete-options.js';
import { buildFilter } from './filters.js';
import type { Scope } from './scope.js';
import { respondList, respondObject, respondStatus } from './respond.js';
import { genericNotFound } from '../machinery/errors.js';

export async function handleDelete(s: Scope): Promise<void> {
  const { info, def } = s;
  if (info.subresource) throw genericNotFound();
  const opts = await parseDeleteOptions(s);
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

export async function handleDeleteCollection(s: Scope): Promise<void> {
  const opts = await parseDeleteOptions(s);
  const res = await s.store.deleteCollection(s.info.namespace, { filter: buildFilter(s.def, s.query) }, opts);
  respondList(s.ctx, s.def, res.items, { resourceVersion: String(res.resourceVersion) }, { mediaType: s.out.mediaType }, s.pretty);
}
