// The identity parts without a server: the token file's CSV as Go's encoding/csv reads it, the
// WebSocket bearer subprotocol, impersonation requests and the user they build (with an
// authorizer that denies), the audit policy's rule matching, and the audit log's rotation.

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGoCSV, tokensFromCSV } from '../../../src/auth/authn/token-file.js';
import { webSocketProtocolAuthenticator, type TokenAuthenticator } from '../../../src/auth/authn/bearer-token.js';
import { impersonate, impersonationRequests } from '../../../src/auth/impersonation.js';
import type { Attributes, Authorizer } from '../../../src/auth/authz/authorizer.js';
import { evaluatePolicy, parsePolicy, type AuditAttributes } from '../../../src/auth/audit/policy.js';
import { FileAuditSink } from '../../../src/auth/audit/log-backend.js';
import { eventJSON, microTime } from '../../../src/auth/audit/event.js';
import { forbiddenError } from '../../../src/server/filters/authorization.js';

describe('token file', () => {
  it('reads records as Go\'s csv reader does', () => {
    expect(parseGoCSV('a,b,c\n\n"x,y","say ""hi""",z,"g1,g2"\r\nlast,1,2')).toEqual([
      ['a', 'b', 'c'],
      ['x,y', 'say "hi"', 'z', 'g1,g2'],
      ['last', '1', '2'],
    ]);
    expect(() => parseGoCSV('a,b"c,d')).toThrow('bare " in non-quoted-field');
    expect(() => parseGoCSV('"open,b')).toThrow('extraneous or missing " in quoted-field');
  });

  it('token, user, uid and comma-separated groups; empty tokens skipped; the last of a repeated token wins', () => {
    const t = tokensFromCSV('t1,alice,u1,"dev,qa"\n,nobody,u0\nt2,bob,u2\nt2,carol,u3\n', 'f.csv');
    expect([...t.keys()]).toEqual(['t1', 't2']);
    expect(t.get('t1')).toEqual({ name: 'alice', uid: 'u1', groups: ['dev', 'qa'], extra: {} });
    expect(t.get('t2')).toEqual({ name: 'carol', uid: 'u3', groups: [], extra: {} });
    expect(() => tokensFromCSV('t1,alice\n', 'f.csv')).toThrow("token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 2");
  });
});

describe('WebSocket bearer subprotocol', () => {
  const tokens: TokenAuthenticator[] = [
    { name: 't', authenticateToken: (t) => (t === 'good' ? { kind: 'user', user: { name: 'u', uid: '', groups: [], extra: {} }, by: 't' } : { kind: 'none' }) },
  ];
  const a = webSocketProtocolAuthenticator(tokens);
  const enc = (t: string) => `base64url.bearer.authorization.k8s.io.${Buffer.from(t).toString('base64url')}`;
  const req = (protocols: string | undefined, upgrade = 'websocket') => ({
    headers: { upgrade, ...(protocols === undefined ? {} : { 'sec-websocket-protocol': protocols }) } as Record<string, string>,
    socket: undefined,
  });

  it('reads the token and leaves only the other subprotocols', async () => {
    const r = req(`${enc('good')}, v4.channel.k8s.io`);
    expect(await a.authenticate(r)).toMatchObject({ kind: 'user', user: { name: 'u' } });
    expect(r.headers['sec-websocket-protocol']).toBe('v4.channel.k8s.io');
  });

  it('answers kube\'s errors, and nothing for requests that are not upgrades or carry no token', async () => {
    expect(await a.authenticate(req(`${enc('bad')}, x`))).toEqual({ kind: 'invalid', reason: 'invalid bearer token' });
    expect(await a.authenticate(req(enc('good')))).toEqual({ kind: 'invalid', reason: 'missing additional subprotocol' });
    expect(await a.authenticate(req(`${enc('good')}, ${enc('good')}, x`))).toEqual({ kind: 'invalid', reason: 'multiple base64.bearer.authorization tokens specified' });
    expect(await a.authenticate(req('base64url.bearer.authorization.k8s.io.a+b, x'))).toEqual({ kind: 'invalid', reason: 'invalid base64.bearer.authorization token encoding' });
    expect(await a.authenticate(req(`${enc('good')}, x`, 'h2c'))).toEqual({ kind: 'none' });
    expect(await a.authenticate(req('v4.channel.k8s.io'))).toEqual({ kind: 'none' });
  });
});

describe('impersonation', () => {
  const alice = { name: 'alice', uid: 'a', groups: ['dev', 'system:authenticated'], extra: {} };
  /** Allows what `allowed` names as "resource/name" (userextras as "userextras/key/value"). */
  const authorizer = (allowed: string[]): Authorizer & { asked: Attributes[] } => {
    const asked: Attributes[] = [];
    return {
      name: 'test',
      asked,
      authorize(a: Attributes) {
        asked.push(a);
        const key = [a.resource, a.subresource, a.name].filter(Boolean).join('/');
        return { decision: allowed.includes(key) ? 'allow' : 'no-opinion', reason: '' };
      },
    };
  };

  it('builds one request per thing asked for, service accounts by their namespace', () => {
    const rs = impersonationRequests({
      'impersonate-user': ['system:serviceaccount:ns1:sa1'],
      'impersonate-group': ['g1', 'g2'],
      'impersonate-extra-acme.com%2fscope': ['a', 'b'],
      'impersonate-uid': ['u1'],
    });
    expect(rs.map((r) => [r.kind, r.namespace, r.name, r.fieldPath])).toEqual([
      ['ServiceAccount', 'ns1', 'sa1', ''],
      ['Group', '', 'g1', ''],
      ['Group', '', 'g2', ''],
      ['UserExtra', '', 'a', 'acme.com/scope'],
      ['UserExtra', '', 'b', 'acme.com/scope'],
      ['UID', '', 'u1', ''],
    ]);
    // Not a valid service account name: a plain user.
    expect(impersonationRequests({ 'impersonate-user': ['system:serviceaccount:Bad_NS:x'] })[0].kind).toBe('User');
    expect(() => impersonationRequests({ 'impersonate-uid': ['u1'] })).toThrow('requested [{UID  u1  authentication.k8s.io/v1  }] without impersonating a user');
  });

  it('asks the authorizer about each with the impersonate verb; the first denial is kube\'s 403', async () => {
    const authz = authorizer(['users/bob', 'groups/g1']);
    const ok = await impersonate(alice, impersonationRequests({ 'impersonate-user': ['bob'], 'impersonate-group': ['g1'] }), authz, true);
    expect(ok).toEqual({ user: { name: 'bob', uid: '', groups: ['g1', 'system:authenticated'], extra: {} } });
    expect(authz.asked.map((a) => [a.verb, a.apiGroup, a.resource, a.name])).toEqual([
      ['impersonate', '', 'users', 'bob'],
      ['impersonate', '', 'groups', 'g1'],
    ]);

    const cases: [Record<string, string[]>, string, Record<string, unknown>][] = [
      [{ 'impersonate-user': ['bob'], 'impersonate-group': ['g2'] }, 'groups "g2" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope', { name: 'g2', kind: 'groups' }],
      [{ 'impersonate-user': ['bob'], 'impersonate-uid': ['u1'] }, 'uids.authentication.k8s.io "u1" is forbidden: User "alice" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope', { name: 'u1', group: 'authentication.k8s.io', kind: 'uids' }],
      [{ 'impersonate-user': ['bob'], 'impersonate-extra-foo-bar': ['x'] }, 'userextras.authentication.k8s.io "x" is forbidden: User "alice" cannot impersonate resource "userextras/foo-bar" in API group "authentication.k8s.io" at the cluster scope', { name: 'x', group: 'authentication.k8s.io', kind: 'userextras' }],
      [{ 'impersonate-user': ['system:serviceaccount:default:robot'] }, 'serviceaccounts "robot" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"', { name: 'robot', kind: 'serviceaccounts' }],
      [{ 'impersonate-user': ['carol'] }, 'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope', { name: 'carol', kind: 'users' }],
    ];
    for (const [headers, message, details] of cases) {
      const out = await impersonate(alice, impersonationRequests(headers), authorizer(['users/bob']), (headers['impersonate-group']?.length ?? 0) > 0);
      expect('denied' in out).toBe(true);
      if (!('denied' in out)) continue;
      const err = forbiddenError(out.denied, out.reason);
      expect(err.code).toBe(403);
      expect(err.status.message).toBe(message);
      expect(err.status.details).toEqual(details);
    }
  });

  it('adds system:authenticated (system:unauthenticated for anonymous) unless given', async () => {
    const all = authorizer(['users/system:anonymous', 'users/x', 'groups/system:unauthenticated']);
    expect(await impersonate(alice, impersonationRequests({ 'impersonate-user': ['system:anonymous'] }), all, false)).toEqual({
      user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} },
    });
    expect(await impersonate(alice, impersonationRequests({ 'impersonate-user': ['x'], 'impersonate-group': ['system:unauthenticated'] }), all, true)).toEqual({
      user: { name: 'x', uid: '', groups: ['system:unauthenticated'], extra: {} },
    });
  });
});

describe('audit policy', () => {
  const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["Panic"]
rules:
- level: None
  users: ["system:kube-proxy"]
  verbs: ["watch"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["pods/status", "*/scale", "secrets/*"]
- level: Request
  resources:
  - group: "apps"
    resources: ["statefulsets"]
    resourceNames: ["web"]
  namespaces: ["prod"]
  omitStages: ["RequestReceived"]
- level: Metadata
  nonResourceURLs: ["/apis*", "/version"]
- level: Request
  userGroups: ["admins"]
`);
  const attrs = (o: Partial<AuditAttributes>): AuditAttributes => ({
    user: { name: 'u', groups: [] },
    verb: 'get',
    isResourceRequest: true,
    path: '',
    apiGroup: '',
    namespace: 'default',
    resource: 'pods',
    subresource: '',
    name: 'p',
    ...o,
  });

  it('the first matching rule decides; no match is None', () => {
    expect(evaluatePolicy(policy, attrs({ user: { name: 'system:kube-proxy', groups: [] }, verb: 'watch' })).level).toBe('None');
    expect(evaluatePolicy(policy, attrs({ user: { name: 'system:kube-proxy', groups: [] }, verb: 'list' })).level).toBe('None');
    expect(evaluatePolicy(policy, attrs({ subresource: 'status' })).level).toBe('RequestResponse');
    expect(evaluatePolicy(policy, attrs({ resource: 'replicationcontrollers', subresource: 'scale' })).level).toBe('RequestResponse');
    expect(evaluatePolicy(policy, attrs({ resource: 'secrets', subresource: 'anything' })).level).toBe('RequestResponse');
    // kube's "resource/*" matches the resource itself too.
    expect(evaluatePolicy(policy, attrs({ resource: 'secrets' })).level).toBe('RequestResponse');
    const sts = attrs({ apiGroup: 'apps', resource: 'statefulsets', name: 'web', namespace: 'prod' });
    expect(evaluatePolicy(policy, sts)).toEqual({ level: 'Request', omitStages: ['Panic', 'RequestReceived'], omitManagedFields: false });
    expect(evaluatePolicy(policy, { ...sts, name: 'db' }).level).toBe('None');
    expect(evaluatePolicy(policy, { ...sts, namespace: 'dev' }).level).toBe('None');
    const nonResource = attrs({ isResourceRequest: false, resource: '', name: '', namespace: '' });
    expect(evaluatePolicy(policy, { ...nonResource, path: '/apis/apps/v1' }).level).toBe('Metadata');
    expect(evaluatePolicy(policy, { ...nonResource, path: '/version' }).level).toBe('Metadata');
    expect(evaluatePolicy(policy, { ...nonResource, path: '/versions' }).level).toBe('None');
    expect(evaluatePolicy(policy, { ...nonResource, path: '/healthz', user: { name: 'x', groups: ['admins'] } }).level).toBe('Request');
    expect(evaluatePolicy(policy, { ...nonResource, path: '/healthz', user: undefined }).level).toBe('None');
  });

  it('refuses what kube\'s validation refuses', () => {
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\n')).toThrow('apiVersion must be "audit.k8s.io/v1"');
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  omitStages: [Later]\n')).toThrow('rules[0].omitStages: Unsupported value: "Later"');
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  nonResourceURLs: ["/x"]\n  namespaces: [a]\n')).toThrow(
      'rules cannot apply to both regular resources and non-resource URLs',
    );
  });
});

describe('audit log', () => {
  it('rotates by size into lumberjack\'s names and keeps maxBackups', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-audit-unit-'));
    try {
      const sink = new FileAuditSink({ path: join(dir, 'audit.json'), maxSizeMB: 1, maxBackups: 1, maxAgeDays: 0 });
      const line = 'x'.repeat(300 * 1024);
      for (let i = 0; i < 4; i++) {
        sink.write(line);
        await new Promise((r) => setTimeout(r, 3));
      }
      sink.close();
      const files = (await readdir(dir)).sort();
      expect(files).toHaveLength(2);
      expect(files[0]).toMatch(/^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.json$/);
      expect(files[1]).toBe('audit.json');
      expect((await readFile(join(dir, 'audit.json'), 'utf8')).length).toBe(line.length + 1);
      // An existing file is appended to, its size counted.
      await writeFile(join(dir, 'other.log'), 'y'.repeat(1024 * 1024 - 10));
      const again = new FileAuditSink({ path: join(dir, 'other.log'), maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0 });
      again.write('0123456789abc');
      again.close();
      expect((await readdir(dir)).filter((f) => f.startsWith('other-'))).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes microsecond times and kube\'s key order, leaving out what is empty', () => {
    expect(microTime(Date.UTC(2026, 10, 25, 19, 31, 5, 94) * 1000 + 352)).toBe('2026-11-25T19:31:05.094352Z');
    const line = eventJSON({
      level: 'Metadata',
      auditID: 'id',
      stage: 'ResponseStarted',
      requestURI: '/api',
      verb: 'get',
      sourceIPs: ['127.0.0.1'],
      userAgent: '',
      requestReceivedTimestamp: 't0',
      stageTimestamp: 't1',
      annotations: { b: '2', a: '1' },
    });
    expect(line).toBe(
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"id","stage":"ResponseStarted","requestURI":"/api","verb":"get","user":{},"sourceIPs":["127.0.0.1"],"requestReceivedTimestamp":"t0","stageTimestamp":"t1","annotations":{"a":"1","b":"2"}}',
    );
  });
});
