// The watch request's own options, as kube-apiserver's ListResource reads them for a watch:
// the bool parameters as its query conversion reads them, and validateWatchOptions
// (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation), whose findings are one
// 422 `ListOptions.meta.k8s.io "" is invalid: ...`.

import { featureEnabled } from '../machinery/feature-gates.js';
import { invalid, type FieldError } from '../machinery/errors.js';

/** kube's bool query conversion: anything but "false" and "0" (even empty) is true. */
export function boolParam(v: string | null): boolean {
  if (v === null) return false;
  const l = v.toLowerCase();
  return l !== 'false' && l !== '0';
}

/** sendInitialEvents as given (validation makes sure it comes with NotOlderThan). */
export function sendInitialEventsOf(q: URLSearchParams): boolean | undefined {
  return q.has('sendInitialEvents') ? boolParam(q.get('sendInitialEvents')) : undefined;
}

/** validateWatchOptions: every finding in one 422. */
export function validateWatchOptions(q: URLSearchParams): void {
  const errs: FieldError[] = [];
  const sendInitialEvents = q.has('sendInitialEvents');
  const match = q.get('resourceVersionMatch') ?? '';
  const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
  if (sendInitialEvents) {
    if (match !== 'NotOlderThan') {
      errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    // The WatchList gate is off by default in 1.33.
    if (!featureEnabled('WatchList')) {
      errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
  }
  if (match) {
    if (!sendInitialEvents) {
      errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== 'NotOlderThan') {
      errs.push({ type: 'FieldValueNotSupported', field: 'resourceVersionMatch', badValue: match, supported: ['NotOlderThan'], detail: '' });
    }
    if (q.get('continue')) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length > 0) throw invalid('ListOptions', 'meta.k8s.io', '', errs);
}
