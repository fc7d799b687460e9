// Audit annotations of a request (kube's audit.AddAuditAnnotation): key/value pairs the
// handlers note on the request context for its audit event. They live on
// `ctx.state.auditAnnotations`; the audit backend reads them there when it writes the event.

import type { Context } from 'koa';

export type AuditAnnotations = Record<string, string>;

/** Adds an annotation; as in kube, the first value given for a key stays. */
export function addAuditAnnotation(ctx: Context, key: string, value: string): void {
  const state = ctx.state as { auditAnnotations?: AuditAnnotations };
  const annotations = (state.auditAnnotations ??= {});
  if (!(key in annotations)) annotations[key] = value;
}

export function auditAnnotationsOf(ctx: Context): AuditAnnotations {
  return (ctx.state as { auditAnnotations?: AuditAnnotations }).auditAnnotations ?? {};
}
