// Who a request is, end to end: every authenticator (the admin's certificate, a token file user,
// a service account token from `kubectl create token`, anonymous), service accounts and their
// `token` subresource, bound and revoked tokens, bad JWTs (expired, tampered, another audience,
// another issuer, another key: 401, never a 500, never anonymous), tokenreviews and
// selfsubjectreviews (`kubectl auth whoami`), impersonation (`kubectl --as`), the WebSocket
// bearer subprotocol and node certificates. Answers and messages as kube-apiserver 1.33.13
// gave them.

import { execFile } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, http, kubeClient, kubectl, removeDir, startKapi, stopKapi, tokenKubeconfig, withToken, type KapiProcess } from '../support/server.js';

const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'src', 'cli.js');
const run = promisify(execFile);

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

let k: KapiProcess;
let tokensFile: string;

beforeAll(async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(join(tmpdir(), 'kapi-identity-'));
  tokensFile = join(dir, 'tokens.csv');
  await writeFile(tokensFile, 'alice-token,alice,alice-uid,"dev,qa"\nbob-token,bob,bob-uid\n');
  k = await startKapi({ dataDir: dir, args: ['--token-auth-file', tokensFile] });
});

afterAll(() => stopKapi(k));

/** kubectl with a kubeconfig that carries `token`. */
async function kubectlWithToken(token: string, args: string[]) {
  const kubeconfig = await tokenKubeconfig(k, token);
  return kubectl({ ...k, kubeconfig }, args);
}

async function whoami(token: string): Promise<Record<string, unknown>> {
  const c = withToken(k, token);
  try {
    const r = await http(c, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(r.status).toBe(201);
    return (r.json as { status: { userInfo: Record<string, unknown> } }).status.userInfo;
  } finally {
    await c.close();
  }
}

async function createToken(sa: string, spec: Record<string, unknown> = {}, ns = 'default'): Promise<string> {
  const r = await http(k, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
  expect(r.status, r.text).toBe(201);
  return (r.json as { status: { token: string } }).status.token;
}

/** The answer to a request made with `token`: 401 with kube's body, never anything else. */
async function expectUnauthorized(token: string): Promise<void> {
  const c = withToken(k, token);
  try {
    for (const path of ['/api/v1/namespaces/default/pods', '/version', '/apis/authentication.k8s.io/v1/selfsubjectreviews']) {
      const r = path.endsWith('reviews') ? await http(c, 'POST', path, { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }) : await http(c, 'GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    }
  } finally {
    await c.close();
  }
}

async function saKey(): Promise<{ key: ReturnType<typeof createPrivateKey>; kid: string }> {
  const pem = await readFile(join(k.dataDir, 'pki', 'sa.key'), 'utf8');
  const { keyId } = await import('../../src/auth/serviceaccount/keys.js');
  const { createPublicKey } = await import('node:crypto');
  const key = createPrivateKey(pem);
  return { key, kid: keyId(createPublicKey(key)) };
}

async function uidOf(path: string): Promise<string> {
  const r = await http(k, 'GET', path);
  expect(r.status, r.text).toBe(200);
  return (r.json as { metadata: { uid: string } }).metadata.uid;
}

/** An RBAC object made by the admin (409: made already by an earlier test). */
async function grant(path: string, obj: Record<string, unknown>, on: KapiProcess = k): Promise<void> {
  const r = await http(on, 'POST', path, { apiVersion: 'rbac.authorization.k8s.io/v1', ...obj });
  expect([201, 409], r.text).toContain(r.status);
}

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const clusterRoleBinding = (name: string, role: string, subject: Record<string, unknown>, on?: KapiProcess) =>
  grant(`${RBAC}/clusterrolebindings`, { kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [subject] }, on);
const roleBinding = (ns: string, name: string, role: string, subject: Record<string, unknown>, on?: KapiProcess) =>
  grant(`${RBAC}/namespaces/${ns}/rolebindings`, { kind: 'RoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [subject] }, on);
const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });

/**
 * kube's bootstrap policy lets only authenticated users ask who they are (system:basic-user is
 * bound to system:authenticated): the tests of the anonymous user bind it for them too.
 */
const letAnonymousAskWhoTheyAre = () => clusterRoleBinding('test-anonymous-basic-user', 'system:basic-user', { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' });

describe('authenticators', () => {
  it('the admin kubeconfig is kubernetes-admin in system:masters', async () => {
    const r = await kubectl(k, ['auth', 'whoami', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const info = (JSON.parse(r.stdout) as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo;
    expect(info.username).toBe('kubernetes-admin');
    expect(info.groups).toEqual(['system:masters', 'system:authenticated']);
  });

  it('a token file user: name, uid and groups from the CSV, plus system:authenticated', async () => {
    expect(await whoami('alice-token')).toEqual({ username: 'alice', uid: 'alice-uid', groups: ['dev', 'qa', 'system:authenticated'] });
    expect(await whoami('bob-token')).toEqual({ username: 'bob', uid: 'bob-uid', groups: ['system:authenticated'] });
    const r = await kubectlWithToken('alice-token', ['auth', 'whoami']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Username\s+alice/);
    expect(r.stdout).toMatch(/Groups\s+\[dev qa system:authenticated\]/);
  });

  it('an unknown bearer token is 401 with kube\'s body, never anonymous', async () => {
    await expectUnauthorized('nope');
    await expectUnauthorized('alice-token-with-a-suffix');
  });

  it('no credential is system:anonymous in system:unauthenticated', async () => {
    const c = anonymous(k);
    try {
      const ssr = () => http(c, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' });
      // As on kube with RBAC: the anonymous user is recognised, and may not ask by default.
      const denied = await ssr();
      expect(denied.status).toBe(403);
      expect((denied.json as { message: string }).message).toBe(
        'selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope',
      );
      await letAnonymousAskWhoTheyAre();
      const r = await ssr();
      expect(r.status).toBe(201);
      expect((r.json as { status: unknown }).status).toEqual({ userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
    } finally {
      await c.close();
    }
  });

  it('a service account token from kubectl create token', async () => {
    expect((await kubectl(k, ['create', 'serviceaccount', 'robot'])).code).toBe(0);
    const uid = await uidOf('/api/v1/namespaces/default/serviceaccounts/robot');
    const made = await kubectl(k, ['create', 'token', 'robot']);
    expect(made.code, made.stderr).toBe(0);
    const token = made.stdout.trim();
    const info = await whoami(token);
    expect(info).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect(Object.keys(info.extra as object)).toEqual(['authentication.kubernetes.io/credential-id']);
    const r = await kubectlWithToken(token, ['auth', 'whoami']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Username\s+system:serviceaccount:default:robot/);
    // RBAC decides for the account by its name: nothing bound, nothing read; bound to view in
    // its namespace, kubectl with the token reads as well as any client.
    const denied = await kubectlWithToken(token, ['get', 'serviceaccounts', '-o', 'name']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain(
      'Error from server (Forbidden): serviceaccounts is forbidden: User "system:serviceaccount:default:robot" cannot list resource "serviceaccounts" in API group "" in the namespace "default"',
    );
    await roleBinding('default', 'robot-view', 'view', { kind: 'ServiceAccount', name: 'robot', namespace: 'default' });
    const get = await kubectlWithToken(token, ['get', 'serviceaccounts', '-o', 'name']);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toContain('serviceaccount/robot');
    expect((await kubectlWithToken(token, ['get', 'serviceaccounts', '-n', 'kube-system'])).code).not.toBe(0);
  });
});

describe('service account tokens', () => {
  it('are JWTs as kube 1.33 writes them', async () => {
    await kubectl(k, ['create', 'serviceaccount', 'claims']);
    const uid = await uidOf('/api/v1/namespaces/default/serviceaccounts/claims');
    const token = await createToken('claims');
    const [h, p] = token.split('.').slice(0, 2).map((x) => JSON.parse(Buffer.from(x, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(h).toEqual({ alg: 'ES256', kid: (await saKey()).kid });
    expect(Object.keys(p)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    expect(p).toMatchObject({ aud: [ISSUER], iss: ISSUER, sub: 'system:serviceaccount:default:claims', 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'claims', uid } } });
    expect((p.exp as number) - (p.iat as number)).toBe(3600);
    expect(p.nbf).toBe(p.iat);
  });

  it('a TokenRequest answers kube\'s object; bad ones get kube\'s errors', async () => {
    const r = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['a1', 'a2'], expirationSeconds: 700 } });
    expect(r.status).toBe(201);
    const tr = r.json as Record<string, Record<string, unknown>>;
    expect(tr.kind).toBe('TokenRequest');
    expect(tr.metadata).toMatchObject({ name: 'robot', namespace: 'default', managedFields: [{ operation: 'Update', apiVersion: 'authentication.k8s.io/v1', fieldsV1: { 'f:spec': { 'f:audiences': {}, 'f:expirationSeconds': {} } }, subresource: 'token' }] });
    expect(tr.spec).toEqual({ audiences: ['a1', 'a2'], expirationSeconds: 700, boundObjectRef: null });
    const exp = Date.parse(tr.status.expirationTimestamp as string);
    expect(Math.abs(exp - (Date.now() + 700_000))).toBeLessThan(5000);

    const short = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { expirationSeconds: 100 } });
    expect(short.status).toBe(422);
    expect((short.json as { message: string }).message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 100: may not specify a duration less than 10 minutes',
    );
    const missing = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/nobody/token', { spec: {} });
    expect(missing.status).toBe(404);
    expect((missing.json as { message: string }).message).toBe('serviceaccounts "nobody" not found');
    const kind = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } } });
    expect(kind.status).toBe(400);
    expect((kind.json as { message: string }).message).toBe('cannot bind token to object of type /v1, Kind=ConfigMap');
    // Only POST: a GET of the subresource is 405.
    expect((await http(k, 'GET', '/api/v1/namespaces/default/serviceaccounts/robot/token')).status).toBe(405);
  });

  it('a token bound to a pod stops working when the pod goes, and when a new pod takes its name', async () => {
    await kubectl(k, ['create', 'serviceaccount', 'pod-sa']);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bound' }, spec: { serviceAccountName: 'pod-sa', containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await http(k, 'POST', '/api/v1/namespaces/default/pods', pod)).status).toBe(201);
    const podUID = await uidOf('/api/v1/namespaces/default/pods/bound');
    const other = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound' } } });
    expect(other.status).toBe(400);
    expect((other.json as { message: string }).message).toBe('cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    const wrongUID = await http(k, 'POST', '/api/v1/namespaces/default/serviceaccounts/pod-sa/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound', uid: 'x' } } });
    expect(wrongUID.status).toBe(409);
    expect((wrongUID.json as { message: string }).message).toBe(
      'Operation cannot be fulfilled on Pod "bound": the UID in the bound object reference (x) does not match the UID in record. The object might have been deleted and then recreated',
    );

    const token = await createToken('pod-sa', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound', uid: podUID } });
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, Record<string, unknown>>;
    expect(claims['kubernetes.io'].pod).toEqual({ name: 'bound', uid: podUID });
    const info = await whoami(token);
    expect(info.extra).toMatchObject({ 'authentication.kubernetes.io/pod-name': ['bound'], 'authentication.kubernetes.io/pod-uid': [podUID] });

    expect((await http(k, 'DELETE', '/api/v1/namespaces/default/pods/bound?gracePeriodSeconds=0')).status).toBe(200);
    await expectUnauthorized(token);
    expect((await http(k, 'POST', '/api/v1/namespaces/default/pods', pod)).status).toBe(201);
    await expectUnauthorized(token);
  });

  it('a token bound to a node, and a pod on a node: node claims and extras; deleting the node revokes the node-bound token', async () => {
    await kubectl(k, ['create', 'serviceaccount', 'agent']);
    expect((await http(k, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } })).status).toBe(201);
    const nodeUID = await uidOf('/api/v1/nodes/n1');
    const token = await createToken('agent', { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n1' } });
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, Record<string, unknown>>;
    expect(claims['kubernetes.io']).toMatchObject({ namespace: 'default', node: { name: 'n1', uid: nodeUID } });
    expect((await whoami(token)).extra).toMatchObject({ 'authentication.kubernetes.io/node-name': ['n1'], 'authentication.kubernetes.io/node-uid': [nodeUID] });

    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'on-n1' }, spec: { serviceAccountName: 'agent', nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await http(k, 'POST', '/api/v1/namespaces/default/pods', pod)).status).toBe(201);
    const podToken = await createToken('agent', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'on-n1' } });
    const podClaims = JSON.parse(Buffer.from(podToken.split('.')[1], 'base64url').toString('utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(podClaims['kubernetes.io'])).toEqual(['namespace', 'node', 'pod', 'serviceaccount']);
    expect(Object.keys((await whoami(podToken)).extra as object)).toEqual([
      'authentication.kubernetes.io/credential-id',
      'authentication.kubernetes.io/node-name',
      'authentication.kubernetes.io/node-uid',
      'authentication.kubernetes.io/pod-name',
      'authentication.kubernetes.io/pod-uid',
    ]);

    expect((await http(k, 'DELETE', '/api/v1/nodes/n1')).status).toBe(200);
    await expectUnauthorized(token);
  });

  it('a deleted service account revokes its tokens, also once recreated under the same name', async () => {
    await kubectl(k, ['create', 'serviceaccount', 'doomed']);
    const token = await createToken('doomed');
    expect((await whoami(token)).username).toBe('system:serviceaccount:default:doomed');
    expect((await kubectl(k, ['delete', 'serviceaccount', 'doomed'])).code).toBe(0);
    await expectUnauthorized(token);
    await kubectl(k, ['create', 'serviceaccount', 'doomed']);
    await expectUnauthorized(token);
  });

  it('expired, not yet valid, tampered, foreign-key, wrong-issuer and wrong-audience tokens are 401', async () => {
    await kubectl(k, ['create', 'serviceaccount', 'jwt']);
    const uid = await uidOf('/api/v1/namespaces/default/serviceaccounts/jwt');
    const { key, kid } = await saKey();
    const now = Math.floor(Date.now() / 1000);
    const claims = (over: Record<string, unknown>) => ({
      aud: [ISSUER],
      exp: now + 600,
      iat: now,
      iss: ISSUER,
      jti: 'j1',
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'jwt', uid } },
      nbf: now,
      sub: 'system:serviceaccount:default:jwt',
      ...over,
    });
    const sign = (c: Record<string, unknown>, k2 = key, kid2 = kid) => new SignJWT(c).setProtectedHeader({ alg: 'ES256', kid: kid2 }).sign(k2);
    // The same claims signed by the server's key authenticate: the forgeries below differ in one thing each.
    expect((await whoami(await sign(claims({})))).username).toBe('system:serviceaccount:default:jwt');
    await expectUnauthorized(await sign(claims({ exp: now - 120, iat: now - 800, nbf: now - 800 })));
    await expectUnauthorized(await sign(claims({ nbf: now + 600, iat: now + 600, exp: now + 1200 })));
    await expectUnauthorized(await sign(claims({ aud: ['somebody-else'] })));
    await expectUnauthorized(await sign(claims({ 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'jwt', uid: 'not-the-uid' } } })));
    const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    await expectUnauthorized(await sign(claims({}), foreign));
    await expectUnauthorized(await sign(claims({}), foreign, 'unknown-kid'));
    // Another issuer is not a service account token at all: still an invalid bearer token.
    await expectUnauthorized(await sign(claims({ iss: 'https://elsewhere' })));
    const good = await sign(claims({}));
    const [h, p, s] = good.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    payload.sub = 'system:serviceaccount:kube-system:default';
    await expectUnauthorized(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`);
    await expectUnauthorized(`${h}.${p}.${s.slice(0, -4)}AAAA`);
    await expectUnauthorized(`${h}.${p}`);
    // A token for another audience, as kubectl makes it.
    const aud = await kubectl(k, ['create', 'token', 'jwt', '--audience', 'vault']);
    expect(aud.code, aud.stderr).toBe(0);
    await expectUnauthorized(aud.stdout.trim());
  });

  it('every namespace has a default service account, made again when deleted', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      expect((await http(k, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status, ns).toBe(200);
    }
    expect((await kubectl(k, ['create', 'namespace', 'fresh'])).code).toBe(0);
    await expect.poll(async () => (await http(k, 'GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).status, { timeout: 5000 }).toBe(200);
    const sa = (await http(k, 'GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).json as { metadata: Record<string, unknown> };
    const uid = sa.metadata.uid;
    expect(sa.metadata.managedFields).toBeUndefined();
    expect((await http(k, 'DELETE', '/api/v1/namespaces/fresh/serviceaccounts/default')).status).toBe(200);
    await expect
      .poll(async () => ((await http(k, 'GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).json as { metadata?: { uid?: string } }).metadata?.uid, { timeout: 5000 })
      .not.toBe(uid);
    // A pod created at once in a new namespace gets its default account.
    await kubectl(k, ['create', 'namespace', 'fresh2']);
    const pod = await http(k, 'POST', '/api/v1/namespaces/fresh2/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(pod.status, pod.text).toBe(201);
    expect((pod.json as { spec: Record<string, unknown> }).spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
  });

  it('a pod naming a missing service account is refused as kube refuses it', async () => {
    const r = await http(k, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nosa' }, spec: { serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'nginx' }] } });
    expect(r.status).toBe(403);
    expect((r.json as { message: string }).message).toBe('pods "nosa" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
  });

  it('serviceaccounts are served as kube serves them (discovery, table, protobuf)', async () => {
    const disc = (await http(k, 'GET', '/api/v1')).json as { resources: Record<string, unknown>[] };
    expect(disc.resources.find((r) => r.name === 'serviceaccounts')).toMatchObject({ kind: 'ServiceAccount', shortNames: ['sa'], namespaced: true });
    expect(disc.resources.find((r) => r.name === 'serviceaccounts/token')).toEqual({ name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
    const auth = (await http(k, 'GET', '/apis/authentication.k8s.io/v1')).json as { resources: Record<string, unknown>[] };
    expect(auth.resources).toEqual([
      { name: 'selfsubjectreviews', singularName: 'selfsubjectreview', namespaced: false, kind: 'SelfSubjectReview', verbs: ['create'] },
      { name: 'tokenreviews', singularName: 'tokenreview', namespaced: false, kind: 'TokenReview', verbs: ['create'] },
    ]);
    const get = await kubectl(k, ['get', 'sa', '-n', 'kube-system']);
    expect(get.stdout).toMatch(/^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+/);
    const explain = await kubectl(k, ['explain', 'serviceaccount.automountServiceAccountToken']);
    expect(explain.code, explain.stderr).toBe(0);
  });
});

describe('reviews', () => {
  it('tokenreviews: who a token is, for which audiences, or why not', async () => {
    const token = await createToken('robot', { audiences: ['a1', 'a2'] });
    const review = async (spec: Record<string, unknown>) => {
      const r = await http(k, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec });
      return r;
    };
    const ok = await review({ token, audiences: ['a2', 'zz'] });
    expect(ok.status).toBe(201);
    const okBody = ok.json as { status: { authenticated: boolean; user: { username: string; groups: string[] }; audiences: string[] }; metadata: Record<string, unknown> };
    expect(okBody.status.authenticated).toBe(true);
    expect(okBody.status.user.username).toBe('system:serviceaccount:default:robot');
    expect(okBody.status.user.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    expect(okBody.status.audiences).toEqual(['a2']);
    expect(okBody.metadata.creationTimestamp).toBeNull();
    // Without audiences the API's own are asked for, which this token was not made for.
    const wrong = await review({ token });
    expect((wrong.json as { status: unknown }).status).toEqual({
      user: {},
      error: `[invalid bearer token, token audiences ["a1" "a2"] is invalid for the target audiences ["${ISSUER}"]]`,
    });
    expect((await review({ token: 'alice-token' })).json).toMatchObject({ status: { authenticated: true, user: { username: 'alice', uid: 'alice-uid', groups: ['dev', 'qa', 'system:authenticated'] }, audiences: [ISSUER] } });
    expect((await review({ token: 'nope' })).json).toMatchObject({ status: { user: {}, error: 'invalid bearer token' } });
    const empty = await review({});
    expect(empty.status).toBe(400);
    expect((empty.json as { message: string }).message).toBe('token is required for TokenReview in authentication');
    expect((await http(k, 'GET', '/apis/authentication.k8s.io/v1/tokenreviews')).status).toBe(405);
  });

  it('kubectl auth whoami for each kind of user, in protobuf as kubectl asks', async () => {
    const sa = await kubectlWithToken((await kubectl(k, ['create', 'token', 'robot'])).stdout.trim(), ['auth', 'whoami']);
    expect(sa.stdout).toMatch(/Extra: authentication.kubernetes.io\/credential-id\s+\[JTI=[0-9a-f-]+\]/);
    const admin = await kubectl(k, ['auth', 'whoami']);
    expect(admin.stdout).toMatch(/Username\s+kubernetes-admin/);
    expect(admin.stdout).toMatch(/Extra: authentication.kubernetes.io\/credential-id\s+\[X509SHA256=[0-9a-f]{64}\]/);
  });
});

describe('impersonation', () => {
  it('kubectl --as, --as-group, --as-uid and extras, as kube builds the user', async () => {
    const r = await kubectl(k, ['--as', 'bob', '--as-group', 'g1', '--as-group', 'g2', '--as-uid', 'u1', 'auth', 'whoami', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { status: unknown }).status).toEqual({ userInfo: { username: 'bob', uid: 'u1', groups: ['g1', 'g2', 'system:authenticated'] } });
    const sa = await kubectl(k, ['--as', 'system:serviceaccount:ns1:sa1', 'auth', 'whoami', '-o', 'json']);
    expect((JSON.parse(sa.stdout) as { status: unknown }).status).toEqual({
      userInfo: { username: 'system:serviceaccount:ns1:sa1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] },
    });
    await letAnonymousAskWhoTheyAre();
    const extra = await http(k, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }, {
      'Impersonate-User': 'system:anonymous',
      'Impersonate-Extra-Scopes': 'view',
      'Impersonate-Extra-acme.com%2Fproject': 'p1',
    });
    expect((extra.json as { status: unknown }).status).toEqual({
      userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'], extra: { 'acme.com/project': ['p1'], scopes: ['view'] } },
    });
  });

  it('each part impersonated is authorized by RBAC with the impersonate verb', async () => {
    const bob = withToken(k, 'bob-token');
    const as = (headers: Record<string, string>) => http(bob, 'GET', '/api/v1/namespaces/default/pods', undefined, headers);
    const message = (r: { json: unknown }) => (r.json as { message: string }).message;
    try {
      // bob holds nothing: impersonating anyone is kube's 403, for each part asked for.
      const denied = await as({ 'Impersonate-User': 'carol' });
      expect(denied.status).toBe(403);
      expect(message(denied)).toBe('users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
      // (kubectl shows that message, or "unknown" when its discovery is the request refused, as against kube.)
      const kc = await kubectlWithToken('bob-token', ['--as', 'carol', 'get', 'pods']);
      expect(kc.code).not.toBe(0);
      expect(kc.stderr).toContain('Error from server (Forbidden): ');
      await grant(`${RBAC}/clusterroles`, {
        kind: 'ClusterRole',
        metadata: { name: 'impersonate-carol' },
        rules: [
          { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['carol'] },
          { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['devs'] },
        ],
      });
      await clusterRoleBinding('bob-impersonates-carol', 'impersonate-carol', user('bob'));
      const carol = await kubectlWithToken('bob-token', ['--as', 'carol', '--as-group', 'devs', 'auth', 'whoami', '-o', 'json']);
      expect(carol.code, carol.stderr).toBe(0);
      expect((JSON.parse(carol.stdout) as { status: unknown }).status).toEqual({ userInfo: { username: 'carol', groups: ['devs', 'system:authenticated'] } });
      // Another group, a uid, an extra or a service account are each a check of their own.
      expect(message(await as({ 'Impersonate-User': 'carol', 'Impersonate-Group': 'ops' }))).toBe(
        'groups "ops" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
      );
      expect(message(await as({ 'Impersonate-User': 'carol', 'Impersonate-Uid': 'u9' }))).toBe(
        'uids.authentication.k8s.io "u9" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
      );
      expect(message(await as({ 'Impersonate-User': 'carol', 'Impersonate-Extra-Scopes': 'view' }))).toBe(
        'userextras.authentication.k8s.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      );
      expect(message(await as({ 'Impersonate-User': 'system:serviceaccount:default:robot' }))).toBe(
        'serviceaccounts "robot" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"',
      );
      // The request then goes on as carol, whom RBAC judges in turn: kubectl auth can-i --as asks for her.
      const pods = await as({ 'Impersonate-User': 'carol' });
      expect(pods.status).toBe(403);
      expect(message(pods)).toBe('pods is forbidden: User "carol" cannot list resource "pods" in API group "" in the namespace "default"');
      const canI = (who: string[], ns: string) => kubectlWithToken('bob-token', [...who, 'auth', 'can-i', 'list', 'pods', '-n', ns]);
      expect((await canI(['--as', 'carol'], 'default')).stdout.trim()).toBe('no');
      await roleBinding('default', 'carol-view', 'view', user('carol'));
      expect((await canI(['--as', 'carol'], 'default')).stdout.trim()).toBe('yes');
      expect((await canI(['--as', 'carol'], 'kube-system')).stdout.trim()).toBe('no');
      expect((await kubectlWithToken('bob-token', ['--as', 'carol', 'get', 'pods', '-n', 'default'])).code).toBe(0);
      // The admin (system:masters) may impersonate anyone, and asks RBAC about them.
      expect((await kubectl(k, ['auth', 'can-i', 'list', 'pods', '-n', 'default', '--as', 'carol'])).stdout.trim()).toBe('yes');
      expect((await kubectl(k, ['auth', 'can-i', 'list', 'pods', '-n', 'kube-system', '--as', 'carol'])).stdout.trim()).toBe('no');
    } finally {
      await bob.close();
    }
  });

  it('groups, extras or a uid without a user are refused (kube: a bare 500; kapi: 400)', async () => {
    const r = await http(k, 'GET', '/api/v1/namespaces/default/pods', undefined, { 'Impersonate-Group': 'g1' });
    expect(r.status).toBe(400);
    expect((r.json as { message: string }).message).toBe('requested [{Group  g1    }] without impersonating a user');
  });
});

describe('WebSocket bearer subprotocol', () => {
  function upgrade(protocols: string[]): Promise<{ status: number; protocol?: string }> {
    return new Promise((done) => {
      const c = anonymous(k);
      const ws = c.webSocket('/api/v1/namespaces/default/serviceaccounts?watch=true', protocols, { headers: { Origin: 'http://localhost' } });
      ws.on('open', () => {
        done({ status: 101, protocol: ws.protocol });
        ws.close();
        void c.close();
      });
      ws.on('unexpected-response', (_req, res) => {
        done({ status: res.statusCode ?? 0 });
        res.resume();
        void c.close();
      });
      ws.on('error', () => undefined);
    });
  }
  const enc = (t: string) => `base64url.bearer.authorization.k8s.io.${Buffer.from(t).toString('base64url')}`;

  it('a valid token authenticates the watch and only the real subprotocol is echoed', async () => {
    // The token is alice's: RBAC refuses her the watch until she may read the namespace.
    await http(k, 'DELETE', `${RBAC}/namespaces/default/rolebindings/alice-view`);
    expect((await upgrade([enc('alice-token'), 'base64.binary.k8s.io'])).status).toBe(403);
    await roleBinding('default', 'alice-view', 'view', user('alice'));
    expect(await upgrade([enc('alice-token'), 'base64.binary.k8s.io'])).toEqual({ status: 101, protocol: 'base64.binary.k8s.io' });
  });

  it('an invalid token, two tokens, or a token alone are 401, never anonymous', async () => {
    expect((await upgrade([enc('nope'), 'base64.binary.k8s.io'])).status).toBe(401);
    expect((await upgrade([enc('alice-token'), enc('bob-token'), 'x'])).status).toBe(401);
    expect((await upgrade([enc('alice-token')])).status).toBe(401);
  });
});

describe('WebSocket bearer subprotocol without anonymous access', () => {
  it('the token alone lets the upgrade in; without it the upgrade is 401', async () => {
    const strict = await startKapi({ args: ['--anonymous-auth=false', '--token-auth-file', tokensFile] });
    try {
      const upgrade = (protocols: string[]) =>
        new Promise<number>((done) => {
          const c = anonymous(strict);
          const ws = c.webSocket('/api/v1/namespaces/default/pods?watch=true', protocols, { headers: { Origin: 'http://localhost' } });
          ws.on('open', () => {
            done(101);
            ws.close();
            void c.close();
          });
          ws.on('unexpected-response', (_req, res) => {
            done(res.statusCode ?? 0);
            res.resume();
            void c.close();
          });
          ws.on('error', () => undefined);
        });
      await roleBinding('default', 'bob-view', 'view', user('bob'), strict);
      const withToken = [`base64url.bearer.authorization.k8s.io.${Buffer.from('bob-token').toString('base64url')}`, 'base64.binary.k8s.io'];
      // The authorizer learns of the new binding from its watch: a moment after the create, as on kube.
      let status = await upgrade(withToken);
      for (let i = 0; status === 403 && i < 30; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = await upgrade(withToken);
      }
      expect(status).toBe(101);
      expect(await upgrade(['base64.binary.k8s.io'])).toBe(401);
    } finally {
      await stopKapi(strict);
    }
  });
});

describe('node certificates', () => {
  it('kapi pki node-cert issues system:node:<name> in system:nodes from the cluster CA', async () => {
    const kubeconfig = join(k.dataDir, 'node-n1.kubeconfig');
    const out = await run(process.execPath, [CLI, 'pki', 'node-cert', 'n1', '--data-dir', k.dataDir, '--kubeconfig', kubeconfig, '--server', k.url]);
    expect(out.stdout).toContain(join(k.dataDir, 'pki', 'nodes', 'n1.crt'));
    const r = await kubectl({ ...k, kubeconfig }, ['auth', 'whoami', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { status: { userInfo: { username: string; groups: string[] } } }).status.userInfo).toMatchObject({
      username: 'system:node:n1',
      groups: ['system:nodes', 'system:authenticated'],
    });
    const bad = await run(process.execPath, [CLI, 'pki', 'node-cert', 'Not_A_Name', '--data-dir', k.dataDir]).catch((e: { stderr: string }) => e);
    expect((bad as { stderr: string }).stderr).toContain('invalid node name');
  });
});

describe('service account issuer discovery', () => {
  it('serves the OpenID configuration and the key set tokens verify with, as kube does', async () => {
    const cfg = await http(k, 'GET', '/.well-known/openid-configuration');
    expect(cfg.status).toBe(200);
    expect(cfg.headers.get('content-type')).toBe('application/json');
    expect(cfg.headers.get('cache-control')).toBe('public, max-age=3600');
    const host = new URL(k.url).host;
    // kube's exact text: its fields in this order, no spaces.
    expect(cfg.text).toBe(`{"issuer":"${ISSUER}","jwks_uri":"https://${host}/openid/v1/jwks","response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES256"]}`);

    const keys = await http(k, 'GET', '/openid/v1/jwks');
    expect(keys.status).toBe(200);
    expect(keys.headers.get('content-type')).toBe('application/jwk-set+json');
    expect(keys.headers.get('cache-control')).toBe('public, max-age=3600');
    const set = keys.json as { keys: Record<string, string>[] };
    expect(set.keys).toHaveLength(1);
    expect(Object.keys(set.keys[0])).toEqual(['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    expect(set.keys[0]).toMatchObject({ use: 'sig', kty: 'EC', kid: (await saKey()).kid, crv: 'P-256', alg: 'ES256' });
    expect((await http(k, 'GET', '/openid/v1/jwks/')).text).toBe(keys.text);

    // A relying party outside the cluster verifies a token with nothing but these documents.
    await kubectl(k, ['create', 'serviceaccount', 'oidc']);
    const token = await createToken('oidc', { audiences: ['vault'] });
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(token, createLocalJWKSet(set as unknown as Parameters<typeof createLocalJWKSet>[0]), { issuer: ISSUER, audience: 'vault' });
    expect(payload.sub).toBe('system:serviceaccount:default:oidc');

    const post = await http(k, 'POST', '/openid/v1/jwks', {});
    expect(post.status).toBe(405);
    expect((post.json as { reason: string }).reason).toBe('MethodNotAllowed');
  });

  it('--service-account-jwks-uri names the key set; an issuer that is not an https URL serves neither document', async () => {
    const { discoveryProblem } = await import('../../src/auth/serviceaccount/openid-metadata.js');
    expect(discoveryProblem('kubernetes/serviceaccount', undefined)).toBe('issuer URL kubernetes/serviceaccount is not a URL');
    expect(discoveryProblem('http://issuer.example', undefined)).toBe('issuer URL must use https scheme, got: http://issuer.example');
    expect(discoveryProblem('https://issuer.example?a=b', undefined)).toBe('issuer URL may not include a query, got: https://issuer.example?a=b');
    expect(discoveryProblem('https://issuer.example', 'http://keys.example/jwks')).toBe('jwksURI requires https scheme, parsed as: http://keys.example/jwks');

    const other = await startKapi({ args: ['--service-account-issuer', 'https://issuer.example', '--service-account-jwks-uri', 'https://keys.example/jwks'] });
    const plain = await startKapi({ args: ['--service-account-issuer', 'http://issuer.example'] });
    try {
      const cfg = await http(other, 'GET', '/.well-known/openid-configuration');
      expect(cfg.json).toMatchObject({ issuer: 'https://issuer.example', jwks_uri: 'https://keys.example/jwks' });
      for (const path of ['/.well-known/openid-configuration', '/openid/v1/jwks']) expect((await http(plain, 'GET', path)).status).toBe(404);
    } finally {
      await other.stop();
      await plain.stop();
      await removeDir(other.dataDir);
      await removeDir(plain.dataDir);
    }
  });
});

describe('start-up errors', () => {
  it('a token file with fewer than three columns stops the start with kube\'s message', async () => {
    const bad = join(k.dataDir, 'bad-tokens.csv');
    await writeFile(bad, 'only,two\n');
    const err = await startKapi({ args: ['--token-auth-file', bad] }).catch((e: Error) => e);
    expect(String(err)).toContain(`token file '${bad}' must have at least 3 columns (token, user name, user uid), found 2`);
  });

  it('kubeClient with a token from the file reads like any client', async () => {
    const c = kubeClient(k.url, { ca: k.credentials.ca, token: 'bob-token' });
    try {
      await clusterRoleBinding('bob-view', 'view', user('bob'));
      expect((await http(c, 'GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
