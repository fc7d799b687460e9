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

/** ObjectMeta's fields in Go's order, up to creationTimestamp (which Go always writes, null when unset). */
const BEFORE_CREATION = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation'];

/** The decoded object as Go's JSON writes it back: metadata with `creationTimestamp: null` when unset. */
function asGoWrites(obj: unknown): unknown {
  if (!obj || typeof obj !== 'object') return obj;
  const o = obj as Record<string, unknown>;
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object' || 'creationTimestamp' in meta) return o;
  const m: Record<string, unknown> = {};
  for (const k of BEFORE_CREATION) if (k in meta) m[k] = meta[k];
  m.creationTimestamp = null;
  for (const [k, v] of Object.entries(meta)) if (!(k in m)) m[k] = v;
  o.metadata = m;
  return o;
}

/** Keeps a copy of the decoded request object (the handlers go on changing theirs). */
export function captureRequestObject(ctx: Context, obj: unknown): void {
  const c = auditCapture(ctx);
  if (c?.wantsRequest && c.requestObject === undefined) c.requestObject = asGoWrites(structuredClone(obj));
}

export function captureResponseBody(ctx: Context, body: string | Buffer): void {
  const c = auditCapture(ctx);
  if (c?.wantsResponse) c.responseBody = body;
}
