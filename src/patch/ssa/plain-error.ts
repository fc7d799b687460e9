// kube-apiserver answers an error that is not a Status (a plain Go error from the field
// manager or type converter) as 500 with no reason: ErrorToAPIStatus's StatusReasonUnknown.

import { StatusError } from '../../api/status-error.js';

export function plainError(message: string): StatusError {
  const e = new StatusError(500, '', message);
  delete (e.status as { reason?: string }).reason;
  return e;
}
