import { parseWriteOptions, writeOwner } from './write-options.js';
import { addWarnings, readObject, type Scope } from './scope.js';
import { respondObject } from './respond.js';
import { genericNotFound, methodNotAllowed } from '../machinery/errors.js';
import { handleAction } from './action.js';

export async function handleCreate(s: Scope): Promise<void> {
  // POST goes to a collection or to an action subresource (pods/binding); an object path has
  // no create verb, another subresource path no route.
  const action = s.info.subresource && s.info.name ? s.def.actions?.[s.info.subresource] : undefined;
  if (action) return handleAction(s, action);
  if (s.info.subresource) throw genericNotFound();
  if (s.info.name) throw methodNotAllowed();
  const opts = parseWriteOptions(s.query, 'CreateOptions');
  const obj = await readObject(s, opts.fieldValidation);
  const { bytes, warnings } = await s.store.create(s.info.namespace, obj, opts.dryRun, writeOwner(opts, s.ctx.get('user-agent')));
  addWarnings(s, warnings);
  respondObject(s.ctx, 201, s.def, bytes, s.out, s.pretty);
}
