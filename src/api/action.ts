// POST to a subresource that takes another kind (pods/binding): the body is decoded as that
// kind through the schema, the type's action acts on the object, and its answer (a Status or
// an object) goes back with its code.

import type { ActionSubresource } from '../registry/types.js';
import { parseWriteOptions } from './write-options.js';
import { addWarnings, readWriteBody, type Scope } from './scope.js';
import { respondStatus } from './respond.js';
import { decodeTypedBody } from '../codec/typed-body.js';
import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import type { KObject } from '../machinery/object.js';

export async function handleAction(s: Scope, action: ActionSubresource): Promise<void> {
  const opts = parseWriteOptions(s.query, 'CreateOptions');
  const body = await readWriteBody(s);
  const { group, version, kind } = action.kind;
  const target = { kind, group, version, definition: rootDefinition(group, version, kind) };
  const { object, warnings } = decodeTypedBody(body, s.ctx.get('content-type') || undefined, target, SCHEMAS, opts.fieldValidation);
  addWarnings(s, warnings);
  const obj = object as KObject;
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  const res = await action.post(s.store, s.info.namespace, s.info.name, obj, { dryRun: opts.dryRun });
  respondStatus(s.ctx, res.body, res.code, s.out, s.pretty);
}
