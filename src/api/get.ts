import { handleScaleGet } from './scale.js';
import { respondObject, parseIncludeObject } from './respond.js';
import type { Scope } from './scope.js';

export async function handleGet(s: Scope): Promise<void> {
  const { info, store } = s;
  if (info.subresource === 'scale') return handleScaleGet(s);
  if (info.subresource && !s.def.subresources?.[info.subresource]) {
    throw (await import('./status-error.js')).genericNotFound();
  }
  const rv = s.query.get('resourceVersion') ?? undefined;
  const entry = await store.get(info.namespace, info.name, rv);
  respondObject(s.ctx, 200, s.def, entry.bytes, s.out, s.pretty, parseIncludeObject(s.query.get('includeObject')));
}
