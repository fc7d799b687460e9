// kube's 403 for a request the authorizers did not allow (responsewriters.ForbiddenStatusError):
// `<resource> "<name>" is forbidden: User "u" cannot <verb> resource "<resource[/sub]>" in API
// group "<group>" in the namespace "<ns>"` (or `at the cluster scope`), then `: <reason>` when
// the authorizers gave one; a non-resource request is `forbidden: User "u" cannot get path "/x"`.

import { forbidden, StatusError } from '../../machinery/errors.js';
import { goQuote } from '../../machinery/go-format.js';
import type { Attributes } from './authorizer.js';

export function forbiddenError(a: Attributes, reason: string): StatusError {
  let msg: string;
  const user = goQuote(a.user.name);
  if (!a.isResourceRequest) {
    msg = `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    const where = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
    msg = `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)} ${where}`;
  }
  if (reason) msg += `: ${reason}`;
  if (!a.isResourceRequest) return new StatusError(403, 'Forbidden', `forbidden: ${msg}`, {});
  return forbidden({ group: a.apiGroup, resource: a.resource }, a.name, msg);
}
