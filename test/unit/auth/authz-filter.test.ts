// The authorization filter notes kube's audit annotations of the decision when requests are
// audited (the audit backend reads them from the request's state), and not otherwise.

import type Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { authorizationFilter, DECISION_ANNOTATION, REASON_ANNOTATION } from '../../../src/server/filters/authorization.js';
import { auditAnnotationsOf } from '../../../src/api/audit-annotations.js';
import { parseRequestInfo } from '../../../src/api/request-info.js';
import type { Authorizer } from '../../../src/auth/authz/authorizer.js';
import { StatusError } from '../../../src/machinery/errors.js';

const onlyAlice: Authorizer = {
  name: 'test',
  authorize: (a) => (a.user.name === 'alice' ? { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "alice"' } : { decision: 'no-opinion', reason: '' }),
};

function ctxFor(user: string): Koa.Context {
  const query = new URLSearchParams();
  return {
    querystring: '',
    state: { user: { name: user, uid: '', groups: ['system:authenticated'], extra: {} }, requestInfo: parseRequestInfo('GET', '/api/v1/namespaces/web/pods/p', query) },
  } as unknown as Koa.Context;
}

describe('the authorization filter and audit', () => {
  it('notes allow and the reason, or forbid, on audited requests', async () => {
    const filter = authorizationFilter(onlyAlice, { audit: true });
    const ok = ctxFor('alice');
    let reached = false;
    await filter(ok, async () => {
      reached = true;
    });
    expect(reached).toBe(true);
    expect(auditAnnotationsOf(ok)).toEqual({ [DECISION_ANNOTATION]: 'allow', [REASON_ANNOTATION]: 'RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "alice"' });

    const no = ctxFor('bob');
    await expect(filter(no, async () => undefined)).rejects.toBeInstanceOf(StatusError);
    expect(auditAnnotationsOf(no)).toEqual({ [DECISION_ANNOTATION]: 'forbid', [REASON_ANNOTATION]: '' });
  });

  it('notes nothing when requests are not audited', async () => {
    const c = ctxFor('alice');
    await authorizationFilter(onlyAlice)(c, async () => undefined);
    expect(auditAnnotationsOf(c)).toEqual({});
  });
});
