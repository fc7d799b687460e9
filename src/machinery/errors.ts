import { goQuote } from './go-format.js';
import { recentExactInt } from './raw-json.js';
// Errors are data: every failure the API reports is a StatusError carrying the
// metav1.Status that kube-apiserver would send, built by the constructors below.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** StatusDetails' fields are omitempty in kube: empty strings never appear. */
function compactDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes?.length) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

export class StatusError extends Error {
  readonly status: Status;
  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'StatusError';
    // Keys in the order of kube's Status struct: details comes before code.
    this.status = details
      ? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: compactDetails(details), code }
      : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string {
    return this.status.reason ?? '';
  }
}

/** Identifies a resource in messages: `statefulsets.apps` or `namespaces` for the core group. */
export interface GroupResource {
  group: string;
  resource: string;
}

export const qualifiedResource = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

export function notFound(gr: GroupResource, name: string): StatusError {
  const msg = name ? `${qualifiedResource(gr)} "${name}" not found` : `${qualifiedResource(gr)} not found`;
  return new StatusError(404, 'NotFound', msg, { name, group: gr.group, kind: gr.resource });
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export function conflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
    { name, group: gr.group, kind: gr.resource },
  );
}

export const OPTIMISTIC_LOCK_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

/** A verb the path does not serve, as kube's router answers it. */
export function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function forbidden(gr: GroupResource, name: string, why: string): StatusError {
  const subject = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${why}`, { name, group: gr.group, kind: gr.resource });
}

/**
 * A path outside every API web service: kube's mux answers `404 page not found` in plain
 * text (Go's http.NotFound), not a Status.
 */
export class PageNotFound extends Error {
  constructor() {
    super('404 page not found');
    this.name = 'PageNotFound';
  }
}

/** A request whose credential failed (or, with --anonymous-auth=false, that has none), as kube's authentication filter answers it. */
export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export function genericNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function notAcceptable(accepted: string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

export function unsupportedMediaType(contentType: string, accepted: string[]): StatusError {
  void contentType;
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

export function requestEntityTooLarge(limit: number): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

export function internalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

/**
 * What kube-apiserver answers for an error that is not a Status (its ErrorToAPIStatus): the
 * code, the error's own text, and no reason (StatusReasonUnknown is empty, so omitted). This
 * is its answer when etcd times out or cannot be reached.
 */
export function unknownError(code: number, message: string): StatusError {
  const e = new StatusError(code, '', message);
  delete e.status.reason;
  return e;
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

export function timeout(message: string, retryAfterSeconds?: number): StatusError {
  return new StatusError(504, 'Timeout', message, retryAfterSeconds ? { retryAfterSeconds } : undefined);
}

export function gone(message: string, reason: 'Expired' | 'Gone' = 'Expired'): StatusError {
  return new StatusError(410, reason, message);
}

/** One validation failure, shaped like field.Error in k8s.io/apimachinery. */
export interface FieldError {
  type:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueNotFound'
    | 'FieldValueNotSupported'
    | 'FieldValueForbidden'
    | 'FieldValueDuplicate'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany'
    | 'FieldValueTypeInvalid';
  field: string;
  /** The offending value as kube prints it in the message; undefined for "Required". */
  badValue?: unknown;
  detail: string;
  /** For NotSupported: the allowed values. */
  supported?: string[];
}

const TYPE_TEXT: Record<FieldError['type'], string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotFound: 'Not found',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
};

const isStringMap = (v: object): v is Record<string, string> =>
  !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * Bad values as field.Error prints them: scalars plainly (strings quoted), and other
 * values with Go's %#v, which for the common label maps and string lists reads
 * `map[string]string{"app":"web"}` and `[]string{"a", "b"}`. Structs have no faithful
 * rendering here, so they fall back to JSON.
 */
function renderValue(v: unknown): string {
  // Values Go prints through a String() or GoString() method carry their text with them.
  if (v && typeof v === 'object' && typeof (v as { goString?: unknown }).goString === 'string') return (v as { goString: string }).goString;
  if (typeof v === 'string') return goQuote(v);
  // An int64 beyond 2^53 as it was written, not as a JS number rounds it (raw-json.ts).
  if (typeof v === 'number' && !Number.isSafeInteger(v) && Number.isInteger(v)) return recentExactInt(v) ?? String(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  // field.Error turns a nil value (or nil pointer) into the string "null", printed with %q.
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'object') {
    if (isStringMap(v)) {
      const entries = Object.keys(v)
        .sort()
        .map((k) => `${goQuote(k)}:${goQuote(v[k])}`);
      return `map[string]string{${entries.join(', ')}}`;
    }
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
      return `[]string{${v.map((x) => goQuote(x)).join(', ')}}`;
    }
  }
  return JSON.stringify(v);
}

/** The text of one field error, as field.Error.Error() prints it. */
export function fieldErrorMessage(e: FieldError): string {
  const head = `${e.field}: ${TYPE_TEXT[e.type]}`;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'FieldValueTooMany':
      return e.detail ? `${head}: ${e.detail}` : head;
    case 'FieldValueNotSupported': {
      let s = `${head}: ${renderValue(e.badValue)}`;
      if (e.supported?.length) s += `: supported values: ${e.supported.map((x) => JSON.stringify(x)).join(', ')}`;
      return s;
    }
    default: {
      const s = `${head}: ${renderValue(e.badValue)}`;
      return e.detail ? `${s}: ${e.detail}` : s;
    }
  }
}

/** 422 Invalid with one cause per field error, worded as kube-apiserver words it. */
export function invalid(kind: string, group: string, name: string, errs: FieldError[]): StatusError {
  // field.ErrorList.ToAggregate: the message lists each distinct text once; the causes keep all.
  const texts = [...new Set(errs.map(fieldErrorMessage))];
  const agg = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${agg}`, {
    name,
    group,
    kind,
    causes: errs.map((e) => ({
      reason: e.type,
      message: fieldErrorMessage(e).slice(e.field.length + 2),
      field: e.field,
    })),
  });
}
