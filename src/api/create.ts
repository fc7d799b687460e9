import { readObject, type Scope } from './scope.js';
import { respondObject } from './respond.js';
import { genericNotFound } from './status-error.js';

export async function handleCreate(s: Scope): Promise<void> {
  // POST goes to a collection; a name or subresource in the path has no create verb.
  if (s.info.name || s.info.subresource) throw genericNotFound();
  const obj = await readObject(s);
  const { bytes } = await s.store.create(s.info.namespace, obj);
  respondObject(s.ctx, 201, s.def, bytes, s.out, s.pretty);
}
