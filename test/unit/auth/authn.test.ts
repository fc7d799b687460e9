// The authenticator behind a real TLS listener (src/server/listener.ts): each request is
// answered with what the authenticator made of it, so the user, groups and extra an x509
// certificate maps to can be read directly, over HTTP/1.1 and HTTP/2.

import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Listener } from '../../../src/server/listener.js';
import { buildAuthenticator, type AuthnResult, type TokenAuthenticator } from '../../../src/auth/authn/index.js';
import { createCA, issueCert, type CertKey } from '../../../src/auth/pki/certs.js';
import { ensurePKI, servingHosts, type PKI } from '../../../src/auth/pki/files.js';
import { kubeClient, type Credentials, type KubeClient } from '../../support/kube.js';

const DAY = 86_400_000;

/** A token source for the seam: one known token, one known-bad token. */
const tokens: TokenAuthenticator = {
  name: 'test-tokens',
  authenticateToken: (t) =>
    t === 'good-token'
      ? { kind: 'user', user: { name: 'tok-user', uid: 'u-1', groups: ['tok-group'], extra: {} }, by: 'test-tokens' }
      : t === 'revoked-token'
        ? { kind: 'invalid', reason: 'revoked' }
        : { kind: 'none' },
};

interface Served {
  listener: Listener;
  url: string;
}

async function serve(pki: PKI, anonymous: boolean): Promise<Served> {
  const authn = buildAuthenticator({ clientCertificates: true, tokenAuthenticators: [tokens], anonymous });
  const listener = new Listener(
    (req, res) => {
      void Promise.resolve(authn.authenticate(req)).then((r: AuthnResult) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-http-version', req.httpVersion);
        res.end(JSON.stringify(r));
      });
    },
    { cert: pki.serving.cert, key: pki.serving.key, clientCA: pki.caCert, minVersion: 'TLSv1.2', http2MaxStreams: 250 },
  );
  const addr = await listener.listen(0, '127.0.0.1');
  return { listener, url: `https://127.0.0.1:${addr.port}` };
}

let dir: string;
let pki: PKI;
let ca: CertKey;
let otherCA: CertKey;
let withAnon: Served;
let withoutAnon: Served;
const clients: KubeClient[] = [];

function client(s: Served, creds: Omit<Credentials, 'ca'>): KubeClient {
  const c = kubeClient(s.url, { ca: pki.caCert, ...creds });
  clients.push(c);
  return c;
}

async function whoOver1(s: Served, creds: Omit<Credentials, 'ca'>, headers: Record<string, string> = {}): Promise<AuthnResult> {
  const r = await client(s, creds).request('GET', '/api', undefined, headers);
  expect(r.headers.get('x-http-version')).toBe('1.1');
  return r.json as AuthnResult;
}

/** The same question over HTTP/2. */
async function whoOver2(s: Served, creds: Omit<Credentials, 'ca'>): Promise<AuthnResult> {
  const session = client(s, creds).http2();
  try {
    return await new Promise<AuthnResult>((resolve, reject) => {
      const req = session.request({ ':path': '/api' });
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => resolve(JSON.parse(body) as AuthnResult));
      req.on('error', reject);
    });
  } finally {
    session.close();
  }
}

const fingerprint = (pem: string): string => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-authn-'));
  pki = await ensurePKI({ certDir: join(dir, 'pki'), hosts: servingHosts('127.0.0.1') });
  ca = { cert: pki.caCert, key: pki.caKey! };
  otherCA = await createCA('another-ca');
  [withAnon, withoutAnon] = await Promise.all([serve(pki, true), serve(pki, false)]);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await Promise.all([withAnon?.listener.close(), withoutAnon?.listener.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('x509 client certificates', () => {
  it('the admin certificate is kubernetes-admin in system:masters, plus system:authenticated, with its credential id', async () => {
    const admin = pki.admin!;
    const want = {
      kind: 'user',
      by: 'x509',
      user: {
        name: 'kubernetes-admin',
        uid: '',
        groups: ['system:masters', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint(admin.cert)}`] },
      },
    };
    expect(await whoOver1(withAnon, admin)).toStrictEqual(want);
    expect(await whoOver2(withAnon, admin)).toStrictEqual(want);
  });

  it('the user is the CN and the groups are the O entries, in order', async () => {
    const alice = await issueCert(ca, { commonName: 'alice', organizations: ['dev', 'ops'], usages: ['client'] });
    for (const r of [await whoOver1(withAnon, alice), await whoOver2(withAnon, alice)]) {
      expect(r.kind).toBe('user');
      if (r.kind !== 'user') continue;
      expect(r.user.name).toBe('alice');
      expect(r.user.groups).toStrictEqual(['dev', 'ops', 'system:authenticated']);
    }
  });

  it('a certificate that already names system:authenticated gets it once', async () => {
    const c = await issueCert(ca, { commonName: 'bob', organizations: ['system:authenticated'], usages: ['client'] });
    const r = await whoOver1(withAnon, c);
    expect(r.kind === 'user' && r.user.groups).toStrictEqual(['system:authenticated']);
  });

  it('a certificate from another CA is an invalid credential, never anonymous', async () => {
    const c = await issueCert(otherCA, { commonName: 'mallory', organizations: ['system:masters'], usages: ['client'] });
    for (const r of [await whoOver1(withAnon, c), await whoOver2(withAnon, c)]) expect(r.kind).toBe('invalid');
  });

  it('an expired certificate, or one not yet valid, is an invalid credential', async () => {
    const expired = await issueCert(ca, { commonName: 'old', usages: ['client'], notBefore: new Date(Date.now() - 2 * DAY), notAfter: new Date(Date.now() - DAY) });
    const future = await issueCert(ca, { commonName: 'soon', usages: ['client'], notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 2 * DAY) });
    expect(await whoOver1(withAnon, expired)).toMatchObject({ kind: 'invalid' });
    expect(await whoOver1(withAnon, future)).toMatchObject({ kind: 'invalid' });
  });

  it('a certificate not meant for client authentication (the serving one) is an invalid credential', async () => {
    expect(await whoOver1(withAnon, pki.serving)).toMatchObject({ kind: 'invalid' });
  });

  it('a verified certificate without a CN is no credential: anonymous when allowed, refused when not', async () => {
    const c = await issueCert(ca, { commonName: '', organizations: ['dev'], usages: ['client'] });
    expect(await whoOver1(withAnon, c)).toStrictEqual({
      kind: 'user',
      by: 'anonymous',
      user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} },
    });
    expect(await whoOver1(withoutAnon, c)).toStrictEqual({ kind: 'none' });
  });
});

describe('anonymous and bearer tokens', () => {
  it('no credential is system:anonymous in system:unauthenticated (and not system:authenticated)', async () => {
    const want = { kind: 'user', by: 'anonymous', user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} } };
    expect(await whoOver1(withAnon, {})).toStrictEqual(want);
    expect(await whoOver2(withAnon, {})).toStrictEqual(want);
  });

  it('with --anonymous-auth=false no credential is no user', async () => {
    expect(await whoOver1(withoutAnon, {})).toStrictEqual({ kind: 'none' });
    expect((await whoOver1(withoutAnon, pki.admin!)).kind).toBe('user');
  });

  it('an unknown bearer token is invalid (kube: "invalid bearer token"), a revoked one too', async () => {
    expect(await whoOver1(withAnon, { token: 'wrong' })).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('invalid bearer token') });
    expect(await whoOver1(withAnon, { token: 'revoked-token' })).toMatchObject({ kind: 'invalid' });
  });

  it('a token source joins through the seam; its users get system:authenticated', async () => {
    expect(await whoOver1(withAnon, { token: 'good-token' })).toStrictEqual({
      kind: 'user',
      by: 'test-tokens',
      user: { name: 'tok-user', uid: 'u-1', groups: ['tok-group', 'system:authenticated'], extra: {} },
    });
  });

  it('an empty or non-bearer Authorization header is no credential', async () => {
    for (const h of ['Bearer ', 'Basic YWxpY2U6c2VjcmV0', 'Bearer  two-spaces']) {
      expect((await whoOver1(withAnon, {}, { authorization: h })).kind === 'user' && 'anonymous').toBe('anonymous');
    }
  });

  it('client certificates come before tokens: a valid certificate wins over a bad token, a valid token over a bad certificate', async () => {
    expect(await whoOver1(withAnon, { ...pki.admin!, token: 'wrong' })).toMatchObject({ kind: 'user', by: 'x509' });
    const bad = await issueCert(otherCA, { commonName: 'mallory', usages: ['client'] });
    expect(await whoOver1(withAnon, { ...bad, token: 'good-token' })).toMatchObject({ kind: 'user', by: 'test-tokens' });
  });
});
