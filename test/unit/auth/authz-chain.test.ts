// --authorization-mode as kube validates it, the union of authorizers, the bootstrap policy's
// reconciliation rules and the aggregation of ClusterRoles, without a server.

import { describe, expect, it } from 'vitest';
import { alwaysAllow, alwaysDeny, authorizerChain, privilegedGroups, type Attributes, type Authorizer } from '../../../src/auth/authz/authorizer.js';
import { parseAuthorizationModes } from '../../../src/auth/authz/modes.js';
import { reconcileBinding, reconcileRole } from '../../../src/auth/authz/rbac/bootstrap/reconcile.js';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_ROLES, CONTROLLERS } from '../../../src/auth/authz/rbac/bootstrap/policy.generated.js';
import { aggregatedRules } from '../../../src/controllers/clusterrole-aggregation.js';
import type { KObject } from '../../../src/machinery/object.js';
import type { RoleObject } from '../../../src/registry/rbac/types.js';

const attrs = (groups: string[] = []): Attributes => ({
  user: { name: 'alice', uid: '', groups, extra: {} },
  verb: 'get',
  isResourceRequest: true,
  path: '',
  apiGroup: '',
  apiVersion: 'v1',
  namespace: 'web',
  resource: 'pods',
  subresource: '',
  name: 'p',
});

describe('--authorization-mode', () => {
  it('takes the modes in order, and refuses what kube refuses', () => {
    expect(parseAuthorizationModes('Node,RBAC')).toEqual(['Node', 'RBAC']);
    expect(parseAuthorizationModes('AlwaysAllow')).toEqual(['AlwaysAllow']);
    expect(() => parseAuthorizationModes('')).toThrow('at least one authorization-mode must be passed');
    expect(() => parseAuthorizationModes('RBAC,Magic')).toThrow('authorization-mode "Magic" is not a valid mode');
    expect(() => parseAuthorizationModes('RBAC,RBAC')).toThrow('authorization-mode ["RBAC" "RBAC"] has mode specified more than once');
    expect(() => parseAuthorizationModes('Webhook')).toThrow('authorization-mode "Webhook" is not supported by kapi');
  });
});

describe('the union of authorizers', () => {
  const noOpinion = (reason: string): Authorizer => ({ name: reason, authorize: () => ({ decision: 'no-opinion', reason }) });
  const deny: Authorizer = { name: 'deny', authorize: () => ({ decision: 'deny', reason: 'no way' }) };

  it('the first allow or deny decides, with its reason', () => {
    expect(authorizerChain([noOpinion('a'), deny, alwaysAllow]).authorize(attrs())).toEqual({ decision: 'deny', reason: 'no way' });
    expect(authorizerChain([noOpinion('a'), alwaysAllow, deny]).authorize(attrs())).toEqual({ decision: 'allow', reason: '' });
  });

  it('when none decides, the reasons of all, one a line', () => {
    expect(authorizerChain([noOpinion('a'), noOpinion(''), alwaysDeny]).authorize(attrs())).toEqual({ decision: 'no-opinion', reason: 'a\nEverything is forbidden.' });
  });

  it('system:masters may do anything; AlwaysDeny has no opinion, so a later authorizer may allow', () => {
    expect(privilegedGroups.authorize(attrs(['system:masters'])).decision).toBe('allow');
    expect(privilegedGroups.authorize(attrs(['system:authenticated'])).decision).toBe('no-opinion');
    expect(authorizerChain([alwaysDeny, alwaysAllow]).authorize(attrs()).decision).toBe('allow');
  });
});

describe('the bootstrap policy data', () => {
  it('is kube 1.33\'s: the roles named by the policy, and controller roles only for the controllers kapi runs', () => {
    const names = BOOTSTRAP_CLUSTER_ROLES.map((r) => r.metadata.name);
    expect(names).toContain('system:monitoring');
    expect(names.filter((n) => n!.startsWith('system:controller:')).sort()).toEqual(CONTROLLERS.map((c) => `system:controller:${c}`).sort());
    const cra = BOOTSTRAP_CLUSTER_ROLES.find((r) => r.metadata.name === 'cluster-admin') as RoleObject;
    expect(cra.rules).toEqual([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]);
    expect(BOOTSTRAP_CLUSTER_ROLE_BINDINGS.map((b) => b.metadata.name)).toContain('system:public-info-viewer');
    expect(BOOTSTRAP_ROLES.map((r) => `${r.metadata.namespace}/${r.metadata.name}`)).toContain('kube-system/system::leader-locking-kube-scheduler');
  });
});

describe('reconciliation (union: nothing a user added is removed)', () => {
  const role = (rules: unknown[], meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', ...meta }, rules });
  const expected = role([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], { labels: { a: 'policy' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } });

  it('appends the missing pieces of rules and merges labels and annotations under the user\'s', () => {
    const existing = role([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['*'], apiGroups: ['x'], resources: ['y'] }], { labels: { a: 'mine', b: 'c' } });
    const r = reconcileRole(existing, expected);
    expect(r.operation).toBe('update');
    expect((r.object as RoleObject).rules).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['*'], apiGroups: ['x'], resources: ['y'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
    expect(r.object.metadata.labels).toEqual({ a: 'mine', b: 'c' });
    expect(r.object.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
  });

  it('nothing to do when the role holds the policy; autoupdate=false protects it', () => {
    expect(reconcileRole(expected, expected).operation).toBe('none');
    const mine = role([], { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } });
    const r = reconcileRole(mine, expected);
    expect(r).toMatchObject({ operation: 'update', protected: true });
  });

  it('bindings: missing subjects added, a different role reference recreated', () => {
    const binding = (name: string, subjects: unknown[]): KObject => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects,
    });
    const want = binding('r', [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }]);
    const r = reconcileBinding(binding('r', [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }]), want);
    expect(r.operation).toBe('update');
    expect((r.object as unknown as { subjects: unknown[] }).subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' },
    ]);
    expect(reconcileBinding(binding('other', []), want).operation).toBe('recreate');
  });
});

describe('ClusterRole aggregation', () => {
  const cr = (name: string, labels: Record<string, string>, rules: unknown[], selectors?: unknown[]): RoleObject =>
    ({ metadata: { name, labels }, rules, ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}) }) as RoleObject;

  it('the rules of matching roles, in name order, each once; never its own', () => {
    const target = cr('agg', { x: '1' }, [], [{ matchLabels: { x: '1' } }, { matchExpressions: [{ key: 'y', operator: 'Exists' }] }]);
    const all = [
      target,
      cr('b', { x: '1' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
      cr('a', { x: '1' }, [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]),
      cr('c', { y: '' }, [{ verbs: ['get'], nonResourceURLs: ['/x'] }]),
      cr('d', {}, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    ];
    expect(aggregatedRules(target, all)).toEqual([
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], nonResourceURLs: ['/x'] },
    ]);
  });
});
