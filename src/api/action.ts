// POST to a subresource that takes another kind (pods/binding, serviceaccounts/token): the body
// is decoded as that kind through the schema, the request's write checks judge it, the type's
// action acts on the object, and its answer (a Status or an object) goes back with its code.

import type { ActionSubresource } from '../registry/types.js';
import { parseWriteOptions, writeOwner } from './write-options.js';
import { addAuditAnnotation } from './audit-annotations.js';
import { captureRequestObject } from './audit-capture.js';
import { addWarnings, readWriteBody, type Scope } from './scope.js';
import { respondStatus } from './respond.js';
import { decodeTypedBody } from '../codec/typed-body.js';
import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import type { KObject } from '../machinery/object.js';
import { writeChecksFor } from './authorization.js';

export async function handleAction(s: Scope, action: ActionSubresource): Promise<void> {
  const opts = parseWriteOptions(s.query, 'CreateOptions');
  const body = await readWriteBody(s);
  const { group, version, kind } = action.kind;
  const target = { kind, group, version, definition: rootDefinition(group, version, kind) };
  const { object, warnings } = decodeTypedBody(body, s.ctx.get('content-type') || undefined, target, SCHEMAS, opts.fieldValidation);
  addWarnings(s, warnings);
  const obj = object as KObject;
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  captureRequestObject(s.ctx, obj);
  // What the request's user may post beyond being allowed the verb (NodeRestriction: a node's
  // token requests and pod bindings), as kube's admission sees the decoded object.
  writeChecksFor(s)?.create?.(obj);
  // Beyond the dry-run flag, an action may record its field manager, audit annotations and warnings.
  const extras = {
    dryRun: opts.dryRun,
    manager: writeOwner(opts, s.ctx.get('user-agent')).manager,
    annotate: (key: string, value: string) => addAuditAnnotation(s.ctx, key, value),
    warn: (text: string) => addWarnings(s, [text]),
  };
  const res = await action.post(s.store, s.info.namespace, s.info.name, obj, extras);
  respondStatus(s.ctx, res.body, res.code, s.out, s.pretty);
}
