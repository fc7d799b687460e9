// kube-apiserver answers an error that is not a Status (a plain Go error from the field
// manager or type converter) as a 500 with no reason. These errors are all about what the
// client sent (an apply configuration that does not fit the schema, managedFields that do
// not decode), and kapi never answers bad input with a 500: they are 400 BadRequest with
// kube's message.

import { type StatusError, badRequest } from '../../machinery/errors.js';

export function plainError(message: string): StatusError {
  return badRequest(message);
}
