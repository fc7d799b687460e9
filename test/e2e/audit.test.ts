// Auditing: --audit-policy-file and --audit-log-path (JSON lines as kube-apiserver 1.33 writes
// them, compared field by field with events the reference server wrote for the same requests),
// each level, a policy of several rules (users, groups, verbs, resources with names and
// subresources, namespaces, non-resource URLs, omitStages, omitManagedFields), failed
// authentication, impersonation, watches, rotation, stdout, and the Audit-Id header on every
// response.

import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, http, kubectl, removeDir, startKapi, stopKapi, withToken, type KapiProcess } from '../support/server.js';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: []
rules:
- level: None
  nonResourceURLs: ["/readyz", "/livez", "/healthz"]
- level: None
  users: ["quiet"]
- level: RequestResponse
  omitManagedFields: true
  resources:
  - group: ""
    resources: ["serviceaccounts", "serviceaccounts/token"]
  - group: "authentication.k8s.io"
- level: Request
  verbs: ["create", "update", "patch"]
  namespaces: ["req"]
- level: Metadata
  omitStages: ["RequestReceived"]
  userGroups: ["terse"]
- level: RequestResponse
  resources:
  - group: "scheduling.k8s.io"
    resources: ["priorityclasses"]
    resourceNames: ["loud"]
- level: Metadata
`;

interface Event {
  kind: string;
  apiVersion: string;
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: Record<string, unknown>;
  impersonatedUser?: Record<string, unknown>;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: Record<string, unknown>;
  responseStatus?: Record<string, unknown>;
  requestObject?: Record<string, unknown>;
  responseObject?: Record<string, unknown>;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

let k: KapiProcess;
let dir: string;
let log: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-audit-'));
  await writeFile(join(dir, 'policy.yaml'), POLICY);
  await writeFile(join(dir, 'tokens.csv'), 'quiet-token,quiet,q1\nterse-token,terse,t1,terse\n');
  log = join(dir, 'audit', 'audit.log');
  k = await startKapi({
    dataDir: join(dir, 'data'),
    args: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', log, '--token-auth-file', join(dir, 'tokens.csv')],
  });
});

afterAll(async () => {
  await k?.stop();
  if (dir) await removeDir(dir);
});

async function events(): Promise<Event[]> {
  const text = await readFile(log, 'utf8');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Event);
}

/** The events of the request that answered with `auditID`. */
async function eventsOf(auditID: string | null): Promise<Event[]> {
  expect(auditID).toMatch(/^[0-9a-f-]{36}$/);
  return (await events()).filter((e) => e.auditID === auditID);
}

const MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

describe('Audit-Id', () => {
  it('every response carries one; a request\'s own Audit-ID is kept', async () => {
    const ok = await http(k, 'GET', '/version');
    const notFound = await http(k, 'GET', '/api/v1/namespaces/nope');
    const c = withToken(k, 'bad-token');
    const unauthorized = await http(c, 'GET', '/api');
    await c.close();
    const ids = [ok, notFound, unauthorized].map((r) => r.headers.get('audit-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
    const mine = await http(k, 'GET', '/version', undefined, { 'Audit-ID': 'my-own-id' });
    expect(mine.headers.get('audit-id')).toBe('my-own-id');
  });

  it('every answer is private and not cached, unless its handler says otherwise (kube\'s WithCacheControl)', async () => {
    const c = withToken(k, 'bad-token');
    const unauthorized = await http(c, 'GET', '/api');
    await c.close();
    for (const r of [await http(k, 'GET', '/version'), await http(k, 'GET', '/api/v1/namespaces/nope'), await http(k, 'GET', '/readyz'), unauthorized]) {
      expect(r.headers.get('cache-control')).toBe('no-cache, private');
    }
    expect((await http(k, 'GET', '/openid/v1/jwks')).headers.get('cache-control')).toBe('public, max-age=3600');
  });
});

describe('audit events', () => {
  it('Metadata: RequestReceived and ResponseComplete, in kube\'s shape and key order', async () => {
    const r = await http(k, 'GET', '/api/v1/namespaces/default/pods?limit=5');
    const evs = await eventsOf(r.headers.get('audit-id'));
    expect(evs.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const [rr, rc] = evs;
    expect(Object.keys(rr)).toEqual(['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'requestReceivedTimestamp', 'stageTimestamp']);
    expect(Object.keys(rc)).toEqual(['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'responseStatus', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
    expect(rc).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      requestURI: '/api/v1/namespaces/default/pods?limit=5',
      verb: 'list',
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    });
    expect(rr.requestReceivedTimestamp).toMatch(MICRO);
    expect(rr.stageTimestamp).toBe(rr.requestReceivedTimestamp);
    expect(rc.stageTimestamp >= rc.requestReceivedTimestamp).toBe(true);
  });

  it('RequestResponse (with omitManagedFields): the request and response objects, the created object named', async () => {
    const r = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'audited' } });
    expect(r.status).toBe(201);
    const [, rc] = await eventsOf(r.headers.get('audit-id'));
    expect(rc.level).toBe('RequestResponse');
    expect(rc.objectRef).toEqual({ resource: 'serviceaccounts', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    expect(rc.responseStatus).toEqual({ metadata: {}, code: 201 });
    // The object as Go writes it back: an unset creationTimestamp is null.
    expect(rc.requestObject).toEqual({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'audited', creationTimestamp: null } });
    expect(rc.responseObject).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'audited', namespace: 'default' } });
    expect((rc.responseObject!.metadata as Record<string, unknown>).managedFields).toBeUndefined();
    // A TokenRequest: the token subresource, and the issued credential's id.
    const t = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/audited/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    const [, trc] = await eventsOf(t.headers.get('audit-id'));
    expect(trc.objectRef).toEqual({ resource: 'serviceaccounts', namespace: 'default', name: 'audited', apiVersion: 'v1', subresource: 'token' });
    expect(trc.annotations?.['authentication.kubernetes.io/issued-credential-id']).toMatch(/^JTI=[0-9a-f-]{36}$/);
    expect(trc.responseObject).toMatchObject({ kind: 'TokenRequest', status: { token: expect.any(String) } });
  });

  it('Request: the request object and no response object; a failure\'s status', async () => {
    await kubectl(k, ['create', 'namespace', 'req']);
    const r = await http(k, 'POST', '/api/v1/namespaces/req/persistentvolumeclaims', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(r.status).toBe(201);
    const [, rc] = await eventsOf(r.headers.get('audit-id'));
    expect(rc.level).toBe('Request');
    expect(rc.requestObject).toMatchObject({ kind: 'PersistentVolumeClaim', metadata: { name: 'c' } });
    expect(rc.responseObject).toBeUndefined();
    // A patch logs the patch as sent.
    const p = await http(k, 'PATCH', '/api/v1/namespaces/req/persistentvolumeclaims/c', { metadata: { labels: { a: 'b' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(p.status).toBe(200);
    const [, prc] = await eventsOf(p.headers.get('audit-id'));
    expect(prc.requestObject).toEqual({ metadata: { labels: { a: 'b' } } });
    // A refused write: the Status as the responseStatus.
    const bad = await http(k, 'POST', '/api/v1/namespaces/req/persistentvolumeclaims', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(bad.status).toBe(409);
    const [, brc] = await eventsOf(bad.headers.get('audit-id'));
    expect(brc.responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'persistentvolumeclaims "c" already exists', reason: 'AlreadyExists', details: { name: 'c', kind: 'persistentvolumeclaims' }, code: 409 });
    // Reads in that namespace are not create/update/patch: the last rule, Metadata.
    const get = await http(k, 'GET', '/api/v1/namespaces/req/persistentvolumeclaims/c');
    expect((await eventsOf(get.headers.get('audit-id')))[1].level).toBe('Metadata');
  });

  it('resourceNames: one object logged in full, its siblings at the default level', async () => {
    for (const name of ['loud', 'soft']) {
      const r = await http(k, 'POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 10 });
      expect(r.status).toBe(201);
    }
    const loud = await http(k, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses/loud');
    const soft = await http(k, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses/soft');
    const [, l] = await eventsOf(loud.headers.get('audit-id'));
    const [, s] = await eventsOf(soft.headers.get('audit-id'));
    expect(l.level).toBe('RequestResponse');
    expect(l.responseObject).toMatchObject({ kind: 'PriorityClass', metadata: { name: 'loud', managedFields: expect.any(Array) } });
    expect(s.level).toBe('Metadata');
    expect(s.responseObject).toBeUndefined();
  });

  it('None by user and by non-resource URL; userGroups with omitStages', async () => {
    const before = (await events()).length;
    const quiet = withToken(k, 'quiet-token');
    await http(quiet, 'GET', '/api/v1/namespaces');
    await quiet.close();
    await http(k, 'GET', '/readyz');
    await http(k, 'GET', '/livez');
    expect((await events()).length).toBe(before);
    const terse = withToken(k, 'terse-token');
    const r = await http(terse, 'GET', '/api/v1/namespaces');
    await terse.close();
    const evs = await eventsOf(r.headers.get('audit-id'));
    expect(evs.map((e) => e.stage)).toEqual(['ResponseComplete']);
    expect(evs[0].user).toEqual({ username: 'terse', uid: 't1', groups: ['terse', 'system:authenticated'] });
    // A non-resource request that is audited: no objectRef.
    const v = await http(k, 'GET', '/version');
    const [, vrc] = await eventsOf(v.headers.get('audit-id'));
    expect(vrc).toMatchObject({ verb: 'get', requestURI: '/version', responseStatus: { code: 200 } });
    expect(vrc.objectRef).toBeUndefined();
  });

  it('a failed authentication: one ResponseStarted event with an empty user', async () => {
    const c = withToken(k, 'bad-token');
    const r = await http(c, 'GET', '/api/v1/namespaces/default/pods');
    await c.close();
    expect(r.status).toBe(401);
    const evs = await eventsOf(r.headers.get('audit-id'));
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({
      level: 'Metadata',
      stage: 'ResponseStarted',
      verb: 'list',
      user: {},
      responseStatus: { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
    });
  });

  it('impersonation: the real user and the impersonated one', async () => {
    const r = await http(k, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { 'Impersonate-User': 'bob', 'Impersonate-Group': 'g1' });
    const [rr, rc] = await eventsOf(r.headers.get('audit-id'));
    expect(rr.impersonatedUser).toBeUndefined();
    expect(rc.user).toMatchObject({ username: 'kubernetes-admin' });
    expect(rc.impersonatedUser).toEqual({ username: 'bob', groups: ['g1', 'system:authenticated'] });
    expect(Object.keys(rc).indexOf('impersonatedUser')).toBe(Object.keys(rc).indexOf('user') + 1);
    expect(rc.responseObject).toMatchObject({ status: { userInfo: { username: 'bob' } } });
  });

  it('a watch: RequestReceived, ResponseStarted, and ResponseComplete when it ends', async () => {
    const r = await http(k, 'GET', '/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1');
    expect(r.status).toBe(200);
    const id = r.headers.get('audit-id');
    await expect.poll(async () => (await eventsOf(id)).map((e) => e.stage), { timeout: 5000 }).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    const [, started, done] = await eventsOf(id);
    expect(started).toMatchObject({ verb: 'watch', responseStatus: { metadata: {}, code: 200 } });
    expect(done.stageTimestamp >= started.stageTimestamp).toBe(true);
  });

  it('kubectl through the audited server: every request logged, every Audit-Id matched', async () => {
    const before = (await events()).length;
    expect((await kubectl(k, ['get', 'sa', '-A'])).code).toBe(0);
    const after = await events();
    const fresh = after.slice(before);
    const listed = fresh.filter((e) => e.userAgent?.startsWith('kubectl') && e.verb === 'list' && e.objectRef?.resource === 'serviceaccounts');
    expect(listed.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(listed[1].level).toBe('RequestResponse');
    // kubectl asks for a Table, and the Table is what is logged, as kube logs it.
    expect(listed[1].responseObject).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
  });
});

describe('audit start-up and backends', () => {
  it('a bad policy stops the start with the reason', async () => {
    const bad = join(dir, 'bad-policy.yaml');
    await writeFile(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
    const err = await startKapi({ args: ['--audit-policy-file', bad, '--audit-log-path', join(dir, 'x.log')] }).catch((e: Error) => e);
    expect(String(err)).toContain(`failed to load the audit policy ${bad}: rules[0].level: Unsupported value:`);
  });

  it('--audit-log-path - writes the events to stdout', async () => {
    const s = await startKapi({ args: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', '-'] });
    try {
      const r = await http(s, 'GET', '/api/v1/namespaces');
      const id = r.headers.get('audit-id')!;
      await expect.poll(() => s.logs().split('\n').filter((l) => l.includes(id) && l.includes('"kind":"Event"')).length, { timeout: 5000 }).toBe(2);
    } finally {
      await stopKapi(s);
    }
  });

  it('rotates at --audit-log-maxsize and keeps --audit-log-maxbackup files', async () => {
    const d = join(dir, 'rotate');
    const path = join(d, 'audit.log');
    const s = await startKapi({
      args: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', path, '--audit-log-maxsize', '1', '--audit-log-maxbackup', '2'],
    });
    try {
      // Service accounts are logged with both objects: 60 KB of annotation makes ~250 KB an event pair.
      const big = 'x'.repeat(60_000);
      for (let i = 0; i < 20; i++) {
        const r = await http(s, 'POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `big-${i}`, annotations: { big } } });
        expect(r.status).toBe(201);
        // Rotated file names carry the time to the millisecond: keep rotations apart.
        await new Promise((res) => setTimeout(res, 5));
      }
      const files = (await readdir(d)).sort();
      const backups = files.filter((f) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f));
      expect(files).toContain('audit.log');
      expect(backups.length).toBe(2);
      for (const f of files) {
        const text = await readFile(join(d, f), 'utf8');
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
        for (const line of text.split('\n').filter(Boolean)) expect((JSON.parse(line) as Event).kind).toBe('Event');
      }
    } finally {
      await stopKapi(s);
    }
  });

  it('without a policy nothing is logged, and Audit-Id is still sent', async () => {
    const path = join(dir, 'nopolicy', 'audit.log');
    const s = await startKapi({ args: ['--audit-log-path', path] });
    try {
      const c = anonymous(s);
      const r = await http(c, 'GET', '/version');
      await c.close();
      expect(r.headers.get('audit-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await readdir(join(dir)).then((f) => f.includes('nopolicy'))).toBe(false);
    } finally {
      await stopKapi(s);
    }
  });
});
