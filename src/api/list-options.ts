// The list request's options as kube-apiserver's ListResource reads them
// (k8s.io/apiserver/pkg/endpoints/handlers/get.go): decoding the query into ListOptions
// (a failure is 400 with the conversion error as the message), then
// ValidateListOptions (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation),
// whose findings are one 422 `ListOptions.meta.k8s.io "" is invalid: ...`.
//
// What the storage layer checks later (the continue token, continue with a resourceVersion,
// a malformed resourceVersion) lives with the store, as in kube.

import { strconvParseInt } from '../machinery/go-format.js';
import { badRequest, invalid, type FieldError } from '../machinery/errors.js';

export interface ListQuery {
  /** undefined when absent or empty (kube treats both as unset). */
  resourceVersion?: string;
  /** '' when absent. */
  resourceVersionMatch: string;
  /** The parsed limit; 0 or negative means no limit. */
  limit: number;
  /** '' when absent. */
  continue: string;
  timeoutSeconds?: number;
  /** sendInitialEvents was given (any value), which a list refuses. */
  sendInitialEvents: boolean;
}

function intOption(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  try {
    return strconvParseInt(v);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}

/**
 * Decodes the query (ParameterCodec.DecodeParameters into ListOptions). Fields convert in
 * ListOptions' order, so timeoutSeconds fails before limit. Selectors are parsed by the caller.
 */
export function decodeListQuery(q: URLSearchParams): ListQuery {
  const timeoutSeconds = intOption(q, 'timeoutSeconds');
  const limit = intOption(q, 'limit') ?? 0;
  const rv = q.get('resourceVersion');
  return {
    resourceVersion: rv === null || rv === '' ? undefined : rv,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? '',
    limit,
    continue: q.get('continue') ?? '',
    timeoutSeconds,
    sendInitialEvents: q.has('sendInitialEvents'),
  };
}

/** ValidateListOptions for a list (not a watch): every finding in one 422. */
export function validateListQuery(o: ListQuery): void {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (match !== '') {
    if (o.resourceVersion === undefined) {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' });
    }
    if (o.continue !== '') {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch is forbidden when continue is provided' });
    }
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push({ type: 'FieldValueNotSupported', field: 'resourceVersionMatch', badValue: match, detail: '', supported: ['Exact', 'NotOlderThan', ''] });
    }
    if (match === 'Exact' && o.resourceVersion === '0') {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch', detail: 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"' });
    }
  }
  if (o.sendInitialEvents) {
    errs.push({ type: 'FieldValueForbidden', field: 'sendInitialEvents', detail: 'sendInitialEvents is forbidden for list' });
  }
  if (errs.length) throw invalid('ListOptions', 'meta.k8s.io', '', errs);
}
