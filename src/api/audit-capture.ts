// What the audit filter asks the handlers to keep for a request's event, at the levels that
// log bodies: the decoded request object (Request and up) and the JSON answered
// (RequestResponse). The filter puts a capture on the request context only then, so requests
// of other levels (and every request when auditing is off) pay nothing.

import type { Context } from 'koa';

export interface AuditCapture {
  wantsRequest: boolean;
  wantsResponse: boolean;
  requestObject?: unknown;
  /** The JSON of the answer (before any protobuf, CBOR or YAML encoding). */
  responseBody?: string | Buffer;
}

export function auditCapture(ctx: Context): AuditCapture | undefined {
  return (ctx.state as { auditCapture?: AuditCapture }).auditCapture;
}

/** Keeps a copy of the decoded request object (the handlers go on changing theirs). */
export function captureRequestObject(ctx: Context, obj: unknown): void {
  const c = auditCapture(ctx);
  if (c?.wantsRequest && c.requestObject === undefined) c.requestObject = structuredClone(obj);
}

export function captureResponseBody(ctx: Context, body: string | Buffer): void {
  const c = auditCapture(ctx);
  if (c?.wantsResponse) c.responseBody = body;
}
