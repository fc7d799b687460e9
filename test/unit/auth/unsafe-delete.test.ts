// The authorization of a force delete of a corrupt object (DeleteOptions'
// ignoreStoreReadErrorWithClusterBreakingPotential): beyond the `delete` the request filter
// already checked, kube asks for `unsafe-delete-ignore-read-errors` on the same object and
// refuses it on subresources. The delete handler calls this check whenever the option is set;
// the option itself belongs to the corrupt-object work, so the check is driven here directly.

import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { authorizeUnsafeDelete } from '../../../src/api/authorization.js';
import type { RequestInfo } from '../../../src/api/request-info.js';
import type { AccessControl } from '../../../src/auth/authz/access.js';
import { authorizerChain, privilegedGroups, type Attributes, type Authorizer } from '../../../src/auth/authz/authorizer.js';
import { StatusError } from '../../../src/machinery/errors.js';

const info = (over: Partial<RequestInfo> = {}): RequestInfo => ({
  isResourceRequest: true,
  path: '/apis/apps/v1/namespaces/web/statefulsets/db',
  verb: 'delete',
  apiPrefix: 'apis',
  apiGroup: 'apps',
  apiVersion: 'v1',
  namespace: 'web',
  resource: 'statefulsets',
  subresource: '',
  name: 'db',
  parts: [],
  ...over,
});

const asked: Attributes[] = [];
/** Allows alice everything, bob only `delete`; says why it does not allow. */
const rules: Authorizer = {
  name: 'test',
  authorize: (a) => {
    asked.push(a);
    if (a.user.name === 'alice' || (a.user.name === 'bob' && a.verb === 'delete')) return { decision: 'allow', reason: '' };
    return { decision: 'no-opinion', reason: 'no rule for it' };
  },
};
const access = { authorizer: authorizerChain([privilegedGroups, rules]) } as unknown as AccessControl;
const ctxOf = (name: string, groups: string[] = ['system:authenticated']): Context => ({ state: { user: { name, uid: '', groups, extra: {} } } }) as unknown as Context;

function refusal(f: () => void): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('unsafe-delete-ignore-read-errors', () => {
  it('is asked about the same object, with that verb', () => {
    asked.length = 0;
    authorizeUnsafeDelete({ ctx: ctxOf('alice'), info: info(), access }, new URLSearchParams());
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ verb: 'unsafe-delete-ignore-read-errors', apiGroup: 'apps', resource: 'statefulsets', namespace: 'web', name: 'db' });
  });

  it('delete alone is not enough: 403 with kube\'s words and the authorizer\'s reason', () => {
    const e = refusal(() => authorizeUnsafeDelete({ ctx: ctxOf('bob'), info: info(), access }, new URLSearchParams()));
    expect(e.code).toBe(403);
    expect(e.status.message).toBe('statefulsets.apps "db" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: no rule for it');
  });

  it('system:masters may', () => {
    expect(() => authorizeUnsafeDelete({ ctx: ctxOf('root', ['system:masters']), info: info(), access }, new URLSearchParams())).not.toThrow();
  });

  it('never on a subresource, whoever asks', () => {
    const e = refusal(() => authorizeUnsafeDelete({ ctx: ctxOf('alice'), info: info({ subresource: 'status' }), access }, new URLSearchParams()));
    expect(e.code).toBe(403);
    expect(e.status.message).toBe('statefulsets.apps "db" is forbidden: ignoreStoreReadErrorWithClusterBreakingPotential delete option is not allowed on a subresource or non-resource request');
  });
});
