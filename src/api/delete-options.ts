// DeleteOptions of a DELETE, as kube-apiserver reads them: from the body when there is
// one (JSON, YAML or protobuf; the query is then not read at all), else from the query,
// then validated (ValidateDeleteOptions: 422 on DeleteOptions.meta.k8s.io).

import { strconvParseBool, strconvParseInt } from '../machinery/go-format.js';
import { readBody, decodeBody } from '../codec/body.js';
import type { DeleteOptions } from '../registry/generic/store.js';
import type { Scope } from './scope.js';
import { strconvParam } from './write-options.js';
import { badRequest, invalid, type FieldError } from '../machinery/errors.js';
import { featureEnabled } from '../machinery/feature-gates.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'];

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
  const ign = d.ignoreStoreReadErrorWithClusterBreakingPotential;
  if (ign !== undefined && ign !== null) {
    if (typeof ign !== 'boolean') cannotUnmarshal(ign, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool');
    out.ignoreStoreReadError = ign;
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
  const ign = strconvParam(q, 'ignoreStoreReadErrorWithClusterBreakingPotential', strconvParseBool);
  if (ign !== undefined) out.ignoreStoreReadError = ign;
  return out;
}

/** ValidateDeleteOptions. */
function validate(raw: Raw): void {
  const errs: FieldError[] = [];
  const policy = raw.propagationPolicy as string | undefined;
  if (raw.orphanDependents !== undefined && policy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', badValue: policy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (policy !== undefined && !POLICIES.includes(policy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', badValue: policy, detail: '', supported: [...POLICIES, 'nil'] });
  }
  const dry = raw.dryRun as string[] | undefined;
  if (dry?.some((v) => v !== 'All')) {
    errs.push({ type: 'FieldValueNotSupported', field: 'dryRun', badValue: dry, detail: '', supported: ['All'] });
  }
  // ValidateIgnoreStoreReadError: the force delete takes no other option.
  if (raw.ignoreStoreReadError === true) {
    const field = 'ignoreStoreReadErrorWithClusterBreakingPotential';
    for (const [opt, set] of [
      ['dryRun', (dry ?? []).length > 0],
      ['propagationPolicy', policy !== undefined],
      ['orphanDependents', raw.orphanDependents !== undefined],
      ['gracePeriodSeconds', raw.gracePeriodSeconds !== undefined],
      ['preconditions', raw.preconditions !== undefined],
    ] as const) {
      if (set) errs.push({ type: 'FieldValueInvalid', field, badValue: true, detail: `cannot be set together with .${opt}` });
    }
  }
  if (errs.length) throw invalid('DeleteOptions', 'meta.k8s.io', '', errs);
}

/** DeleteOptions from the body (if any) or the query, validated as kube validates them. */
export async function parseDeleteOptions(s: Scope, collection = false): Promise<DeleteOptions & { ignoreStoreReadError?: boolean }> {
  const body = await readBody(s.ctx.req);
  const raw =
    body.length > 0
      ? fromBody(decodeBody(body, s.ctx.get('content-type') || undefined, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' }))
      : fromQuery(s.query);
  // Without the gate kube drops the option before anything looks at it.
  if (!featureEnabled('AllowUnsafeMalformedObjectDeletion')) delete raw.ignoreStoreReadError;
  validate(raw);
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
  const opts: DeleteOptions = { dryRun: ((raw.dryRun as string[] | undefined) ?? []).length > 0 };
  if (raw.propagationPolicy !== undefined) opts.propagationPolicy = raw.propagationPolicy as DeleteOptions['propagationPolicy'];
  if (raw.orphanDependents !== undefined) opts.orphanDependents = raw.orphanDependents as boolean;
  if (raw.gracePeriodSeconds !== undefined) opts.gracePeriodSeconds = raw.gracePeriodSeconds as number;
  if (raw.preconditions !== undefined) opts.preconditions = raw.preconditions as DeleteOptions['preconditions'];
  if (raw.ignoreStoreReadError === true) return { ...opts, ignoreStoreReadError: true };
  return opts;
}
