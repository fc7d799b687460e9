// Audit events (audit.k8s.io/v1 Event) in the shape and key order kube-apiserver writes them:
// kind, apiVersion, level, auditID, stage, requestURI, verb, user, impersonatedUser,
// sourceIPs, userAgent, objectRef, responseStatus, requestObject, responseObject,
// requestReceivedTimestamp, stageTimestamp, annotations; empty fields left out (omitempty).

import type { Level, Stage } from './policy.js';

export interface AuditUser {
  name: string;
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
}

export interface ObjectRef {
  resource: string;
  namespace: string;
  name: string;
  apiGroup: string;
  apiVersion: string;
  subresource: string;
}

export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  /** Undefined when authentication failed: the event then says `"user":{}`. */
  user?: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs: string[];
  userAgent: string;
  objectRef?: ObjectRef;
  responseStatus?: Record<string, unknown>;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** metav1.MicroTime: RFC 3339 with six fractional digits, UTC. */
export function microTime(epochMicros: number): string {
  const ms = Math.floor(epochMicros / 1000);
  const iso = new Date(ms).toISOString(); // 2026-11-25T19:31:05.094Z
  const micros = String(Math.floor(epochMicros % 1_000_000)).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}Z`;
}

export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

function userJSON(u: AuditUser | undefined): Record<string, unknown> {
  if (!u) return {};
  const out: Record<string, unknown> = {};
  if (u.name) out.username = u.name;
  if (u.uid) out.uid = u.uid;
  if (u.groups.length > 0) out.groups = u.groups;
  const keys = Object.keys(u.extra);
  if (keys.length > 0) out.extra = Object.fromEntries(keys.sort().map((k) => [k, u.extra[k]]));
  return out;
}

function refJSON(r: ObjectRef): Record<string, unknown> {
  const out: Record<string, unknown> = { resource: r.resource };
  if (r.namespace) out.namespace = r.namespace;
  if (r.name) out.name = r.name;
  if (r.apiGroup) out.apiGroup = r.apiGroup;
  if (r.apiVersion) out.apiVersion = r.apiVersion;
  if (r.subresource) out.subresource = r.subresource;
  return out;
}

export function eventJSON(e: AuditEvent): string {
  const out: Record<string, unknown> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: e.level,
    auditID: e.auditID,
    stage: e.stage,
    requestURI: e.requestURI,
    verb: e.verb,
    user: userJSON(e.user),
  };
  if (e.impersonatedUser) out.impersonatedUser = userJSON(e.impersonatedUser);
  if (e.sourceIPs.length > 0) out.sourceIPs = e.sourceIPs;
  if (e.userAgent) out.userAgent = e.userAgent;
  if (e.objectRef) out.objectRef = refJSON(e.objectRef);
  if (e.responseStatus) out.responseStatus = e.responseStatus;
  if (e.requestObject !== undefined) out.requestObject = e.requestObject;
  if (e.responseObject !== undefined) out.responseObject = e.responseObject;
  out.requestReceivedTimestamp = e.requestReceivedTimestamp;
  out.stageTimestamp = e.stageTimestamp;
  if (e.annotations && Object.keys(e.annotations).length > 0) out.annotations = Object.fromEntries(Object.keys(e.annotations).sort().map((k) => [k, e.annotations![k]]));
  return JSON.stringify(out);
}

/** The responseStatus of an event: a Status without kind and apiVersion; success is only its code. */
export function responseStatusOf(code: number, status?: Record<string, unknown>): Record<string, unknown> {
  if (!status) return { metadata: {}, code };
  const { kind: _k, apiVersion: _a, ...rest } = status;
  void _k;
  void _a;
  return rest;
}

/** Drops metadata.managedFields from an object or the items of a list (omitManagedFields). */
export function withoutManagedFields(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  let out = o;
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (meta && typeof meta === 'object' && 'managedFields' in meta) {
    const { managedFields: _mf, ...m } = meta;
    void _mf;
    out = { ...o, metadata: m };
  }
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(withoutManagedFields) };
  return out;
}
