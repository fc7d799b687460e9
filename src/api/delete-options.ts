// DeleteOptions of a DELETE, as kube-apiserver reads them: from the body when there is
// one (JSON, YAML or protobuf; the query is then not read at all), else from the query,
// then validated (ValidateDeleteOptions: 422 on DeleteOptions.meta.k8s.io).

import { parseInt64, strconvParseBool, strconvParseInt } from '../machinery/go-format.js';
import { baseMediaType, readBody, decodeBody } from '../codec/body.js';
import { JsonNumber, JsonSyntaxError, scanJson } from '../machinery/json-scan.js';
import { goDecodeUtf8 } from '../machinery/utf8.js';
import type { DeleteOptions } from '../registry/generic/store.js';
import { deleteOptionsOf } from '../registry/generic/delete-options.js';
import type { Scope } from './scope.js';
import { strconvParam } from './write-options.js';
import { badRequest, invalid } from '../machinery/errors.js';
import { featureEnabled } from '../machinery/feature-gates.js';

type Raw = Record<string, unknown>;

// kube decodes the body with the meta codecs and hands a failure to its error writer as it
// is: a bare 500 whose message is the decoder's own text. Bad input never gets a 500 here: the
// same text comes back as a 400 BadRequest (README, Deliberate differences).

/** Go's name of a JSON value's kind, for "cannot unmarshal X into ..." texts. */
function jsonKind(v: unknown): string {
  if (v instanceof JsonNumber || typeof v === 'number') return 'number';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** A number's literal as the body wrote it. */
const literal = (v: unknown): string => (v instanceof JsonNumber ? v.raw : String(v));

function cannotUnmarshal(v: unknown, field: string, goType: string, struct = 'DeleteOptions'): never {
  // A number an integer field cannot take is named with its literal; any other mismatch by kind.
  const what = goType === 'int64' && jsonKind(v) === 'number' ? `number ${literal(v)}` : jsonKind(v);
  throw badRequest(`json: cannot unmarshal ${what} into Go struct field ${struct}.${field} of type ${goType}`);
}

/** kube's TypeMeta read of the body, which comes first: what fails it fails there. */
const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** An int64 field's value, as Go's decoder takes it: an integer literal in range. */
function isInt64(v: unknown): boolean {
  if (typeof v === 'number') return Number.isSafeInteger(v);
  if (v instanceof JsonNumber) return /^-?[0-9]+$/.test(v.raw) && parseInt64(v.raw) !== undefined;
  return false;
}

/** The typed DeleteOptions fields of a decoded body; a wrong type is the decoder's text. */
function fromBody(doc: unknown): Raw {
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc) || doc instanceof JsonNumber) {
    throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(doc)} into Go value of type ${TYPE_META_STRUCT}`);
  }
  const d = doc as Raw;
  const kind = d.kind;
  if (typeof kind === 'string' && kind !== '' && kind !== 'DeleteOptions') {
    const av = typeof d.apiVersion === 'string' ? d.apiVersion : '';
    throw badRequest(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(av)} in scheme "pkg/runtime/scheme.go:110"`);
  }
  const out: Raw = {};
  const g = d.gracePeriodSeconds;
  if (g !== undefined && g !== null) {
    if (!isInt64(g)) cannotUnmarshal(g, 'gracePeriodSeconds', 'int64');
    out.gracePeriodSeconds = Number(g);
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
      if (typeof v !== 'string') cannotUnmarshal(v, `preconditions.${f}`, f === 'uid' ? 'types.UID' : 'string', 'Preconditions');
      out2[f] = v;
    }
    out.preconditions = out2;
  }
  const ign = d.ignoreStoreReadErrorWithClusterBreakingPotential;
  if (ign !== undefined && ign !== null) {
    if (typeof ign !== 'boolean') cannotUnmarshal(ign, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool');
    out.ignoreStoreReadError = ign;
  }
  return out;
}

/** A JSON body read as Go reads it (numbers keep their literal); other media types through decodeBody. */
function decodeDeleteBody(body: Buffer, contentType: string | undefined): unknown {
  const mt = baseMediaType(contentType) || 'application/json';
  if (mt !== 'application/json') return decodeBody(body, contentType, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
  try {
    return scanJson(goDecodeUtf8(body), { numbers: 'literal' }).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(`couldn't get version/kind; json parse error: ${e.message}`);
    throw e;
  }
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
  const ign = strconvParam(q, 'ignoreStoreReadErrorWithClusterBreakingPotential', strconvParseBool);
  if (ign !== undefined) out.ignoreStoreReadError = ign;
  return out;
}

/** DeleteOptions from the body (if any) or the query, validated as kube validates them. */
export async function parseDeleteOptions(s: Scope, collection = false): Promise<DeleteOptions & { ignoreStoreReadError?: boolean }> {
  const body = await readBody(s.ctx.req);
  const raw = body.length > 0 ? fromBody(decodeDeleteBody(body, s.ctx.get('content-type') || undefined)) : fromQuery(s.query);
  // Without the gate kube drops the option before anything looks at it.
  if (!featureEnabled('AllowUnsafeMalformedObjectDeletion')) delete raw.ignoreStoreReadError;
  // Validated (shared with the Eviction's DeleteOptions) before the collection check, as kube does.
  const opts = deleteOptionsOf(raw);
  if (collection && raw.ignoreStoreReadError === true) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [
      {
        type: 'FieldValueInvalid',
        field: 'ignoreStoreReadErrorWithClusterBreakingPotential',
        badValue: true,
        detail: 'is not allowed with DELETECOLLECTION, try again after removing the option',
      },
    ]);
  }
  if (raw.ignoreStoreReadError === true) return { ...opts, ignoreStoreReadError: true };
  return opts;
}
