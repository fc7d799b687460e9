// DeleteOptions of a DELETE, as kube-apiserver reads them: from the body when there is
// one (JSON, YAML or protobuf; the query is then not read at all), else from the query,
// then validated (ValidateDeleteOptions: 422 on DeleteOptions.meta.k8s.io).

import { strconvParseBool, strconvParseInt } from '../machinery/go-format.js';
import { readBody, decodeBody } from '../codec/body.js';
import type { DeleteOptions } from '../registry/generic/store.js';
import { deleteOptionsOf } from '../registry/generic/delete-options.js';
import type { Scope } from './scope.js';
import { strconvParam } from './write-options.js';
import { badRequest } from '../machinery/errors.js';

type Raw = Record<string, unknown>;

/** Go's name of a JSON value's kind, for "cannot unmarshal X into ..." texts. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function cannotUnmarshal(v: unknown, field: string, goType: string): never {
  throw badRequest(
    `DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal ${jsonKind(v)} into Go struct field DeleteOptions.${field} of type ${goType}`,
  );
}

/** The typed DeleteOptions fields of a decoded body; a wrong type is the decoder's 400. */
function fromBody(doc: unknown): Raw {
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal ${jsonKind(doc)} into Go value of type v1.DeleteOptions`);
  }
  const d = doc as Raw;
  const out: Raw = {};
  const g = d.gracePeriodSeconds;
  if (g !== undefined && g !== null) {
    if (typeof g !== 'number' || !Number.isInteger(g)) cannotUnmarshal(g, 'gracePeriodSeconds', 'int64');
    out.gracePeriodSeconds = g;
  }
  const o = d.orphanDependents;
  if (o !== undefined && o !== null) {
    if (typeof o !== 'boolean') cannotUnmarshal(o, 'orphanDependents', 'bool');
    out.orphanDependents = o;
  }
  const p = d.propagationPolicy;
  if (p !== undefined && p !== null) {
    if (typeof p !== 'string') cannotUnmarshal(p, 'propagationPolicy', 'v1.DeletionPropagation');
    out.propagationPolicy = p;
  }
  const dry = d.dryRun;
  if (dry !== undefined && dry !== null) {
    if (!Array.isArray(dry) || dry.some((x) => typeof x !== 'string')) cannotUnmarshal(dry, 'dryRun', '[]string');
    out.dryRun = dry;
  }
  const pre = d.preconditions;
  if (pre !== undefined && pre !== null) {
    if (typeof pre !== 'object' || Array.isArray(pre)) cannotUnmarshal(pre, 'preconditions', 'v1.Preconditions');
    const pc = pre as Raw;
    const out2: { uid?: string; resourceVersion?: string } = {};
    for (const f of ['uid', 'resourceVersion'] as const) {
      const v = pc[f];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') cannotUnmarshal(v, `preconditions.${f}`, f === 'uid' ? 'types.UID' : 'string');
      out2[f] = v;
    }
    out.preconditions = out2;
  }
  return out;
}

/** The query form: strconv parsing as kube's parameter codec does it. */
function fromQuery(q: URLSearchParams): Raw {
  const out: Raw = {};
  const g = strconvParam(q, 'gracePeriodSeconds', strconvParseInt);
  if (g !== undefined) out.gracePeriodSeconds = g;
  const o = strconvParam(q, 'orphanDependents', strconvParseBool);
  if (o !== undefined) out.orphanDependents = o;
  const p = q.get('propagationPolicy');
  if (p !== null) out.propagationPolicy = p;
  const dry = q.getAll('dryRun');
  if (dry.length) out.dryRun = dry;
  return out;
}

/** DeleteOptions from the body (if any) or the query, validated as kube validates them. */
export async function parseDeleteOptions(s: Scope): Promise<DeleteOptions> {
  const body = await readBody(s.ctx.req);
  const raw =
    body.length > 0
      ? fromBody(decodeBody(body, s.ctx.get('content-type') || undefined, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' }))
      : fromQuery(s.query);
  return deleteOptionsOf(raw);
}
