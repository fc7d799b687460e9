// GET on a collection: kube's ListResource. The query is decoded (a malformed integer or
// selector is 400), validated (422 on ListOptions), the field selector converted for the
// type (400), and the store serves the list with kube's resourceVersion semantics.

import type { Scope } from './scope.js';
import { respondList, parseIncludeObject } from './respond.js';
import { parseSelectors, selectorFilter } from './filters.js';
import { decodeListQuery, validateListQuery } from './list-options.js';

export async function handleList(s: Scope): Promise<void> {
  const q = s.query;
  const opts = decodeListQuery(q);
  const selectors = parseSelectors(q);
  validateListQuery(opts);
  const filter = selectorFilter(s.def, selectors);
  // timeoutSeconds bounds a list's server-side work in kube; a list here takes far less
  // (the longest wait, for a resourceVersion, is 3 s), so it is only checked for syntax.
  const res = await s.store.list(s.info.namespace, {
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    limit: opts.limit,
    continue: opts.continue || undefined,
    filter,
  });
  respondList(
    s.ctx,
    s.def,
    res.items,
    { resourceVersion: String(res.resourceVersion), continue: res.continue, remainingItemCount: res.remainingItemCount },
    s.out,
    s.pretty,
    parseIncludeObject(q.get('includeObject')),
  );
}
