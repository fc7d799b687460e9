import { parseWriteOptions, writeOwner } from './write-options.js';
import { addWarnings, readObject, readWriteBody, type Scope } from './scope.js';
import { respondObject, respondStatus } from './respond.js';
import { decodeTypedBody } from '../codec/typed-body.js';
import { SCHEMAS } from '../schema/types/index.js';
import type { FieldValidation } from '../machinery/options.js';
import type { SubresourceREST } from '../registry/types.js';
import { badRequest, genericNotFound, methodNotAllowed } from '../machinery/errors.js';

export async function handleUpdate(s: Scope): Promise<void> {
  const { info, def } = s;
  if (!info.name) throw methodNotAllowed();
  const own = s.store.subresourceREST(info.subresource);
  if (!own && info.subresource && !def.subresources?.[info.subresource]) throw genericNotFound();
  const opts = parseWriteOptions(s.query, 'UpdateOptions');
  const owner = writeOwner(opts, s.ctx.get('user-agent'), info.subresource);
  if (own) {
    const body = await readOwnKind(s, own, opts.fieldValidation);
    const res = await own.update(info.namespace, info.name, () => body, opts.dryRun, owner);
    addWarnings(s, res.warnings);
    respondStatus(s.ctx, res.object, 200, s.out, s.pretty);
    return;
  }
  const obj = await readObject(s, opts.fieldValidation);
  const res = await s.store.update(info.namespace, info.name, obj, info.subresource, opts.dryRun, owner);
  addWarnings(s, res.warnings);
  respondObject(s.ctx, res.created ? 201 : 200, def, res.bytes, s.out, s.pretty);
}

/**
 * The body of a PUT to a subresource of its own kind, decoded through the schema as that kind
 * (a Scale: another kind is refused, replicas is an int32), named as the URL names it.
 */
async function readOwnKind(s: Scope, own: SubresourceREST, fieldValidation: FieldValidation): Promise<Record<string, unknown>> {
  const { kind, group, version, definition } = own.kind;
  const { object: doc, warnings } = decodeTypedBody(await readWriteBody(s), s.ctx.get('content-type') || undefined, { kind, group, version, definition }, SCHEMAS, fieldValidation);
  addWarnings(s, warnings);
  const name = (doc as { metadata?: { name?: string } }).metadata?.name;
  if (name !== undefined && name !== s.info.name) {
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${s.info.name})`);
  }
  return doc as Record<string, unknown>;
}
