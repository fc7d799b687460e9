// What access control's write checks (escalation prevention, NodeRestriction) are handed: the
// write as the request names it, and the checks they answer with (a delete can be refused too).

import type { KObject } from '../../machinery/object.js';
import type { WriteChecks } from '../../registry/types.js';
import type { UserInfo } from '../authn/user.js';

/** The request a write comes with, as the write checks need it. */
export interface WriteRequest {
  user: UserInfo;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  /** The object the URL names ('' for a create). */
  name: string;
}

export type RequestWriteChecks = WriteChecks & { delete?(obj: KObject): void };
