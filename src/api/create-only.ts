// POST to a resource that is never stored (TokenReview, SelfSubjectReview, the access
// reviews): the body is decoded as the type's kind, the type answers it with the object filled
// in, and that goes back with 201, as kube's create handler answers for them.

import type { CreateOnlyREST, RequestUser } from '../registry/types.js';
import { parseWriteOptions, writeOwner } from './write-options.js';
import { readObject, type Scope } from './scope.js';
import { respondStatus } from './respond.js';
import { addAuditAnnotation } from './audit-annotations.js';

export async function handleCreateOnly(s: Scope, rest: CreateOnlyREST): Promise<void> {
  const opts = parseWriteOptions(s.query, 'CreateOptions');
  const obj = await readObject(s, opts.fieldValidation);
  const answer = await rest.create(obj, {
    namespace: s.info.namespace,
    // Set by the authentication filter (and replaced by impersonation) before any handler runs.
    user: s.ctx.state.user as RequestUser,
    dryRun: opts.dryRun,
    manager: writeOwner(opts, s.ctx.get('user-agent')).manager,
    annotate: (key, value) => addAuditAnnotation(s.ctx, key, value),
  });
  respondStatus(s.ctx, answer, 201, s.out, s.pretty);
}
