import { parseWriteOptions, writeOwner } from './write-options.js';
import { handleScaleUpdate } from './scale.js';
import { addWarnings, readObject, type Scope } from './scope.js';
import { respondObject } from './respond.js';
import { genericNotFound, methodNotAllowed } from '../machinery/errors.js';

export async function handleUpdate(s: Scope): Promise<void> {
  const { info, def } = s;
  if (!info.name) throw methodNotAllowed();
  if (info.subresource === 'scale') return handleScaleUpdate(s);
  if (info.subresource && !def.subresources?.[info.subresource]) throw genericNotFound();
  const opts = parseWriteOptions(s.query, 'UpdateOptions');
  const obj = await readObject(s, opts.fieldValidation);
  const res = await s.store.update(info.namespace, info.name, obj, info.subresource, opts.dryRun, writeOwner(opts, s.ctx.get('user-agent'), info.subresource));
  addWarnings(s, res.warnings);
  respondObject(s.ctx, res.created ? 201 : 200, def, res.bytes, s.out, s.pretty);
}
