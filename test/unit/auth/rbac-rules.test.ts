// What a PolicyRule allows, and the escalation check's comparison of rule sets, against the
// behaviour of kube's rbac helpers (RuleAllows, Covers, CompactRules, CompactString).

import { describe, expect, it } from 'vitest';
import type { Attributes } from '../../../src/auth/authz/authorizer.js';
import { compactRules, compactString, covers, ruleAllows } from '../../../src/auth/authz/rbac/rules.js';
import type { PolicyRule } from '../../../src/registry/rbac/types.js';

const user = { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} };

function res(verb: string, apiGroup: string, resource: string, opts: Partial<Attributes> = {}): Attributes {
  return { user, verb, isResourceRequest: true, path: '', apiGroup, apiVersion: 'v1', namespace: 'web', resource, subresource: '', name: '', ...opts };
}

const url = (verb: string, path: string): Attributes => ({ ...res(verb, '', ''), isResourceRequest: false, path });

describe('ruleAllows', () => {
  it('verbs, groups and resources must all match; * matches any', () => {
    const rule: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['statefulsets'] };
    expect(ruleAllows(res('get', 'apps', 'statefulsets'), rule)).toBe(true);
    expect(ruleAllows(res('watch', 'apps', 'statefulsets'), rule)).toBe(false);
    expect(ruleAllows(res('get', '', 'statefulsets'), rule)).toBe(false);
    expect(ruleAllows(res('get', 'apps', 'controllerrevisions'), rule)).toBe(false);
    const all: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
    expect(ruleAllows(res('deletecollection', 'policy', 'poddisruptionbudgets'), all)).toBe(true);
    expect(ruleAllows(res('patch', 'apps', 'statefulsets', { subresource: 'scale' }), all)).toBe(true);
  });

  it('a subresource is its own resource: statefulsets does not cover statefulsets/scale', () => {
    const rule: PolicyRule = { verbs: ['update'], apiGroups: ['apps'], resources: ['statefulsets'] };
    expect(ruleAllows(res('update', 'apps', 'statefulsets', { subresource: 'scale', name: 'web' }), rule)).toBe(false);
    const sub: PolicyRule = { verbs: ['update'], apiGroups: ['apps'], resources: ['statefulsets/scale'] };
    expect(ruleAllows(res('update', 'apps', 'statefulsets', { subresource: 'scale', name: 'web' }), sub)).toBe(true);
    expect(ruleAllows(res('update', 'apps', 'statefulsets', { name: 'web' }), sub)).toBe(false);
  });

  it('*/status matches the status subresource of every resource, and nothing else', () => {
    const rule: PolicyRule = { verbs: ['patch'], apiGroups: ['*'], resources: ['*/status'] };
    expect(ruleAllows(res('patch', '', 'pods', { subresource: 'status', name: 'p' }), rule)).toBe(true);
    expect(ruleAllows(res('patch', 'apps', 'statefulsets', { subresource: 'status', name: 's' }), rule)).toBe(true);
    expect(ruleAllows(res('patch', 'apps', 'statefulsets', { subresource: 'scale', name: 's' }), rule)).toBe(false);
    expect(ruleAllows(res('patch', '', 'pods', { name: 'p' }), rule)).toBe(false);
  });

  it('resourceNames limit requests that name an object; a list or create names none', () => {
    const rule: PolicyRule = { verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['pods'], resourceNames: ['a', 'b'] };
    expect(ruleAllows(res('get', '', 'pods', { name: 'a' }), rule)).toBe(true);
    expect(ruleAllows(res('get', '', 'pods', { name: 'c' }), rule)).toBe(false);
    expect(ruleAllows(res('list', '', 'pods'), rule)).toBe(false);
    expect(ruleAllows(res('create', '', 'pods'), rule)).toBe(false);
    // A list narrowed to one name by field selector carries that name (kube's request info).
    expect(ruleAllows(res('list', '', 'pods', { name: 'b' }), rule)).toBe(true);
  });

  it('non-resource URLs: exact, a trailing * as a prefix, and * alone', () => {
    const rule: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
    expect(ruleAllows(url('get', '/healthz'), rule)).toBe(true);
    expect(ruleAllows(url('get', '/healthz/etcd'), rule)).toBe(false);
    expect(ruleAllows(url('get', '/apis/apps/v1'), rule)).toBe(true);
    expect(ruleAllows(url('get', '/apis'), rule)).toBe(false);
    expect(ruleAllows(url('post', '/healthz'), rule)).toBe(false);
    expect(ruleAllows(url('put', '/anything'), { verbs: ['*'], nonResourceURLs: ['*'] })).toBe(true);
    // A resource rule never matches a path, nor a URL rule a resource.
    expect(ruleAllows(url('get', '/api'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] })).toBe(false);
    expect(ruleAllows(res('get', '', 'pods'), { verbs: ['*'], nonResourceURLs: ['*'] })).toBe(false);
  });
});

describe('covers (escalation prevention)', () => {
  it('the owner covers what it holds, broken down to one verb, resource and name at a time', () => {
    const owner: PolicyRule[] = [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['statefulsets'], resourceNames: ['web'] },
    ];
    expect(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]).covered).toBe(true);
    expect(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['x'] }]).covered).toBe(true);
    expect(covers(owner, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['statefulsets'], resourceNames: ['web'] }]).covered).toBe(true);
    // A rule for every name is more than one name.
    const r = covers(owner, [{ verbs: ['get', 'watch'], apiGroups: ['apps', ''], resources: ['statefulsets'] }]);
    expect(r.covered).toBe(false);
    expect(r.missing).toEqual([
      { verbs: ['get'], apiGroups: ['apps'], resources: ['statefulsets'] },
      { verbs: ['watch'], apiGroups: ['apps'], resources: ['statefulsets'] },
      { verbs: ['get'], apiGroups: [''], resources: ['statefulsets'] },
      { verbs: ['watch'], apiGroups: [''], resources: ['statefulsets'] },
    ]);
  });

  it('*/sub covers that subresource; * covers everything; URL prefixes cover longer paths', () => {
    expect(covers([{ verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }], [{ verbs: ['update'], apiGroups: ['apps'], resources: ['statefulsets/scale'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }], [{ verbs: ['update'], apiGroups: ['apps'], resources: ['statefulsets'] }]).covered).toBe(false);
    expect(covers([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/logs/a/b'] }]).covered).toBe(true);
    expect(covers([{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]).covered).toBe(false);
  });

  it('compacts the missing pieces by verb and prints them as kube does', () => {
    const { missing } = covers([], [
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['statefulsets', 'statefulsets/scale'], resourceNames: ['a'] },
      { verbs: ['get'], nonResourceURLs: ['/healthz'] },
    ]);
    const texts = [...new Set(compactRules(missing).map(compactString))].sort();
    expect(texts).toEqual([
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list" "watch"]}',
      '{APIGroups:["apps"], Resources:["statefulsets"], ResourceNames:["a"], Verbs:["get"]}',
      '{APIGroups:["apps"], Resources:["statefulsets/scale"], ResourceNames:["a"], Verbs:["get"]}',
      '{NonResourceURLs:["/healthz"], Verbs:["get"]}',
    ]);
  });
});
