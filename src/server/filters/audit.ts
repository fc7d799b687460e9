// Auditing, in kube's places (k8s.io/apiserver/pkg/endpoints/filters/audit*.go):
//
//   - `auditInit`, first of all: every response gets an `Audit-Id` header (the request's own
//     `Audit-ID` when it sent one, else a new UUID), with or without an audit log, and the time
//     the request was received is noted;
//   - `failedAuthenticationAudit`, before authentication: a request answered 401 is logged as
//     one ResponseStarted event with an empty user (kube's WithFailedAuthenticationAudit);
//   - `auditFilter`, after authentication: the policy gives the request's level; the event is
//     written at RequestReceived and ResponseComplete (and ResponseStarted first for
//     long-running requests: watches), with the impersonated user, the response status, the
//     request and response objects at the levels that log them, and the annotations the other
//     filters and handlers added (authorization's decision and reason, deprecation, issued
//     credentials).

import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { auditAnnotationsOf } from '../../api/audit-annotations.js';
import type { AuditCapture } from '../../api/audit-capture.js';
import type { RequestInfo } from '../../api/request-info.js';
import { levelAtLeast, microTime, nowMicros, responseStatusOf, withoutManagedFields, type AuditEvent, type Auditor, type AuditUser, type RequestAuditConfig, type Stage } from '../../auth/audit/index.js';
import { StatusError, internalError } from '../../machinery/errors.js';
import { yamlModule } from '../../machinery/lazy-module.js';

export const AUDIT_ID_HEADER = 'Audit-Id';

interface AuditState {
  auditID: string;
  receivedMicros: number;
}

function auditState(ctx: Koa.Context): AuditState {
  return ctx.state.audit as AuditState;
}

/** `auditing`: whether events are written (only then is the receipt time taken). */
export function auditInit(auditing: boolean): Koa.Middleware {
  return (ctx, next) => {
    const given = ctx.req.headers['audit-id'];
    const auditID = (typeof given === 'string' && given) || randomUUID();
    ctx.state.audit = { auditID, receivedMicros: auditing ? nowMicros() : 0 } satisfies AuditState;
    // Straight to the response: Koa's set() costs more than the header is worth on every request.
    ctx.res.setHeader(AUDIT_ID_HEADER, auditID);
    return next();
  };
}

/** net.SourceIPs as kube reads them: X-Forwarded-For, X-Real-Ip, then the peer. */
function sourceIPs(ctx: Koa.Context): string[] {
  const out: string[] = [];
  const xff = ctx.get('x-forwarded-for');
  if (xff) for (const p of xff.split(',')) if (p.trim()) out.push(p.trim());
  const real = ctx.get('x-real-ip');
  if (real && !out.includes(real)) out.push(real);
  let peer = ctx.req.socket?.remoteAddress ?? '';
  if (peer.startsWith('::ffff:')) peer = peer.slice(7);
  if (peer && !out.includes(peer)) out.push(peer);
  return out;
}

function baseEvent(ctx: Koa.Context, level: RequestAuditConfig['level'], user: AuditUser | undefined): AuditEvent {
  const info = ctx.state.requestInfo as RequestInfo;
  const st = auditState(ctx);
  const received = microTime(st.receivedMicros);
  const e: AuditEvent = {
    level,
    auditID: st.auditID,
    stage: 'RequestReceived',
    requestURI: ctx.originalUrl,
    verb: info.verb,
    user,
    sourceIPs: sourceIPs(ctx),
    userAgent: ctx.get('user-agent'),
    requestReceivedTimestamp: received,
    stageTimestamp: received,
  };
  if (info.isResourceRequest) {
    e.objectRef = {
      resource: info.resource,
      namespace: info.namespace,
      name: info.name,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      subresource: info.subresource,
    };
  }
  return e;
}

function statusOfError(err: unknown): StatusError {
  return err instanceof StatusError ? err : internalError(err);
}

export function failedAuthenticationAudit(auditor: Auditor): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const se = statusOfError(err);
      if (se.code === 401 && ctx.state.user === undefined) {
        const info = ctx.state.requestInfo as RequestInfo;
        const cfg = auditor.evaluate({ ...info, user: undefined });
        if (cfg.level !== 'None' && !cfg.omitStages.includes('ResponseStarted')) {
          const e = baseEvent(ctx, cfg.level, undefined);
          e.stage = 'ResponseStarted';
          e.responseStatus = responseStatusOf(se.code, se.status as unknown as Record<string, unknown>);
          if (levelAtLeast(cfg.level, 'RequestResponse')) e.responseObject = se.status;
          e.stageTimestamp = microTime(nowMicros());
          auditor.emit(e);
        }
      }
      throw err;
    }
  };
}

function parseBody(body: string | Buffer | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A patch body as kube logs it (the patch itself), when it is JSON or YAML. */
async function readRawRequest(ctx: Koa.Context): Promise<unknown> {
  const raw = (ctx.state as { auditRawBody?: Buffer }).auditRawBody;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    try {
      return yamlModule().parse(raw.toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }
}

export function auditFilter(auditor: Auditor): Koa.Middleware {
  return async (ctx, next) => {
    const info = ctx.state.requestInfo as RequestInfo;
    const user = ctx.state.user as AuditUser;
    const cfg = auditor.evaluate({ ...info, user });
    if (cfg.level === 'None') return next();
    const emit = (e: AuditEvent, stage: Stage) => {
      if (cfg.omitStages.includes(stage)) return;
      auditor.emit({ ...e, stage });
    };
    const base = baseEvent(ctx, cfg.level, user);
    emit(base, 'RequestReceived');
    const capture: AuditCapture = { wantsRequest: levelAtLeast(cfg.level, 'Request'), wantsResponse: levelAtLeast(cfg.level, 'RequestResponse') };
    ctx.state.auditCapture = capture;
    let failure: StatusError | undefined;
    try {
      await next();
    } catch (err) {
      failure = statusOfError(err);
      throw err;
    } finally {
      const e: AuditEvent = { ...base };
      const impersonated = ctx.state.impersonatedUser as AuditUser | undefined;
      if (impersonated) e.impersonatedUser = impersonated;
      const code = failure ? failure.code : ctx.status;
      e.responseStatus = responseStatusOf(code, failure ? (failure.status as unknown as Record<string, unknown>) : undefined);
      if (capture.wantsRequest) {
        let req = capture.requestObject ?? (info.verb === 'patch' ? await readRawRequest(ctx) : undefined);
        if (req !== undefined && cfg.omitManagedFields) req = withoutManagedFields(req);
        if (req !== undefined) e.requestObject = req;
      }
      const response = failure ? failure.status : parseBody(capture.responseBody);
      if (e.objectRef && !e.objectRef.name && response && typeof response === 'object') {
        // kube names the object a create made once it is known.
        const name = ((response as { metadata?: { name?: unknown } }).metadata?.name ?? '') as string;
        const kind = (response as { kind?: string }).kind;
        if (name && kind !== 'Status' && !kind?.endsWith('List') && info.verb !== 'list') e.objectRef = { ...e.objectRef, name };
      }
      if (capture.wantsResponse && response !== undefined) e.responseObject = cfg.omitManagedFields ? withoutManagedFields(response) : response;
      const streaming = !failure && ctx.respond === false;
      if (streaming) {
        // A watch: its answer has started; it completes when the stream ends.
        const started: AuditEvent = { ...e, responseObject: undefined, annotations: { ...auditAnnotationsOf(ctx) }, stageTimestamp: microTime(nowMicros()) };
        emit(started, 'ResponseStarted');
        const done = () => emit({ ...started, annotations: { ...auditAnnotationsOf(ctx) }, stageTimestamp: microTime(nowMicros()) }, 'ResponseComplete');
        const upgraded = ctx.get('upgrade').toLowerCase() === 'websocket';
        if (upgraded) ctx.req.socket.once('close', done);
        else ctx.res.once('close', done);
      } else {
        e.annotations = { ...auditAnnotationsOf(ctx) };
        e.stageTimestamp = microTime(nowMicros());
        emit(e, 'ResponseComplete');
      }
    }
  };
}
