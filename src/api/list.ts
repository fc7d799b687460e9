import { intParam, type Scope } from './scope.js';
import { respondList, parseIncludeObject } from './respond.js';
import { buildFilter } from './filters.js';

export async function handleList(s: Scope): Promise<void> {
  const q = s.query;
  const filter = buildFilter(s.def, q);
  const res = await s.store.list(s.info.namespace, {
    resourceVersion: q.get('resourceVersion') ?? undefined,
    limit: intParam(q, 'limit'),
    continue: q.get('continue') ?? undefined,
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
