// GET on one object: resourceVersion unset is a consistent read, "0" any cached state,
// anything else "not older than" (504 Too large resource version after 3 s).

import { respondObject, respondStatus, parseIncludeObject } from './respond.js';
import type { Scope } from './scope.js';
import { genericNotFound } from '../machinery/errors.js';

export async function handleGet(s: Scope): Promise<void> {
  const { info, store } = s;
  // kube decodes GetOptions (resourceVersion only); an empty value means unset.
  const rv = s.query.get('resourceVersion') || undefined;
  const own = store.subresourceREST(info.subresource);
  // A subresource of its own kind (a Scale) is written as a plain document.
  if (own) return respondStatus(s.ctx, await own.get(info.namespace, info.name, rv), 200, s.out, s.pretty);
  if (info.subresource && !s.def.subresources?.[info.subresource]) throw genericNotFound();
  const entry = await store.get(info.namespace, info.name, rv);
  respondObject(s.ctx, 200, s.def, entry.bytes, s.out, s.pretty, parseIncludeObject(s.query.get('includeObject')));
}
