// The force delete's extra permission: asked of the request's authorizer hook, refused with
// kube's Forbidden.

import Koa from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { authorizeUnsafeDelete, type AuthorizationAttributes } from '../../../src/api/unsafe-delete-authz.js';
import { parseRequestInfo } from '../../../src/api/request-info.js';
import { StatusError } from '../../../src/machinery/errors.js';
import { priorityClasses } from '../../../src/registry/scheduling/priorityclasses/strategy.js';

function context(): Koa.Context {
  const req = new IncomingMessage(new Socket());
  return new Koa().createContext(req, new ServerResponse(req));
}

const info = parseRequestInfo('DELETE', '/apis/scheduling.k8s.io/v1/priorityclasses/bad', new URLSearchParams());

describe('authorizeUnsafeDelete', () => {
  it('asks for unsafe-delete-ignore-read-errors on the object', async () => {
    const ctx = context();
    const asked: AuthorizationAttributes[] = [];
    ctx.state.authorize = async (a: AuthorizationAttributes) => (asked.push(a), { decision: 'allow', reason: '' });
    await authorizeUnsafeDelete(ctx, info, priorityClasses);
    expect(asked).toEqual([
      expect.objectContaining({ verb: 'unsafe-delete-ignore-read-errors', apiGroup: 'scheduling.k8s.io', apiVersion: 'v1', resource: 'priorityclasses', name: 'bad', namespace: '', subresource: '' }),
    ]);
  });

  it('refuses with kube\'s Forbidden when the authorizer does not allow it', async () => {
    const ctx = context();
    ctx.state.authorize = async () => ({ decision: 'no-opinion', reason: 'RBAC: no rule' });
    const err = await authorizeUnsafeDelete(ctx, info, priorityClasses).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'priorityclasses.scheduling.k8s.io "bad" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: RBAC: no rule',
      details: { name: 'bad', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
  });

  it('allows everything without an authorizer (AlwaysAllow)', async () => {
    await expect(authorizeUnsafeDelete(context(), info, priorityClasses)).resolves.toBeUndefined();
  });
});
