// Authentication against a real kapi: the admin kubeconfig's client certificate, other users'
// certificates from the server's CA, anonymous requests, and the credentials that must be a
// 401 with kube-apiserver's Status (a certificate from another CA, an expired one, an unknown
// bearer token), negotiated like any Status. (test/unit/authn.test.ts reads the users and
// groups the authenticator makes of each credential.)

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asUser, http, kubectl, removeDir, startKapi, userKubeconfig, withToken, type KapiProcess, type KubeClient } from '../../support/server.js';
import { ensurePKI } from '../../../src/auth/pki/files.js';
import { decodeProtobufObject } from '../../../src/codec/protobuf/index.js';
import { expectFailure, ns, uniq } from './helpers.js';

const DAY = 86_400_000;
const UNAUTHORIZED = { code: 401, reason: 'Unauthorized', message: 'Unauthorized' };

let k: KapiProcess;
let closed: KapiProcess;
let otherCADir: string;
const clients: KubeClient[] = [];
const track = <T extends KubeClient>(c: T): T => (clients.push(c), c);

beforeAll(async () => {
  [k, closed] = await Promise.all([startKapi(), startKapi({ args: ['--anonymous-auth=false'] })]);
  otherCADir = await mkdtemp(join(tmpdir(), 'kapi-other-ca-'));
  await ensurePKI({ certDir: otherCADir, hosts: ['127.0.0.1'] });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  for (const s of [k, closed]) {
    await s?.stop();
    if (s) await removeDir(s.dataDir);
  }
  await removeDir(otherCADir);
});

describe('credentials that authenticate', () => {
  it('the admin kubeconfig: create, read and list namespaces', async () => {
    const name = uniq('authn');
    expect((await http(k, 'POST', '/api/v1/namespaces', ns(name))).status).toBe(201);
    expect((await http(k, 'GET', `/api/v1/namespaces/${name}`)).status).toBe(200);
    expect((await http(k, 'GET', '/api/v1/namespaces')).status).toBe(200);
  });

  it('a certificate for another user, signed by the server CA', async () => {
    const alice = track(await asUser(k, 'alice', ['dev']));
    const r = await http(alice, 'GET', '/api/v1/namespaces/default');
    expect(r.status, r.text).toBe(200);
    // The same on the server that refuses anonymous requests: the certificate is a user.
    const aliceThere = track(await asUser(closed, 'alice', ['dev']));
    expect((await http(aliceThere, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
  });

  it('kubectl with a kubeconfig for another user', async () => {
    const path = await userKubeconfig(k, 'carol', ['ops']);
    const r = await kubectl({ ...k, kubeconfig: path }, ['get', 'ns', 'default', '-o', 'name']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('namespace/default');
  });

  it('no credential is anonymous while --anonymous-auth is on (authorization is AlwaysAllow for now)', async () => {
    const anon = track(anonymous(k));
    expect((await http(anon, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
    expect((await http(anon, 'GET', '/healthz')).text).toBe('ok');
  });
});

describe('401 Unauthorized', () => {
  it('an unknown bearer token: kube-apiserver\'s exact Status, never anonymous', async () => {
    const r = await http(track(withToken(k, 'wrong')), 'GET', '/api');
    expectFailure(r, UNAUTHORIZED);
    // Go's encoder ends the document with a newline, as kube's does.
    expect(r.text).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n');
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('is negotiated like any Status: protobuf for a protobuf client', async () => {
    const res = await track(withToken(k, 'wrong')).fetch('/api/v1/namespaces', { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const body = decodeProtobufObject(Buffer.from(await res.arrayBuffer())).object;
    expect(body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('a certificate from another CA, even one claiming system:masters', async () => {
    const mallory = track(await asUser(k, 'mallory', ['system:masters'], { caDir: otherCADir }));
    expectFailure(await http(mallory, 'GET', '/api/v1/namespaces'), UNAUTHORIZED);
    expectFailure(await http(mallory, 'POST', '/api/v1/namespaces', ns(uniq('nope'))), UNAUTHORIZED);
  });

  it('an expired certificate, and one not valid yet', async () => {
    const old = track(await asUser(k, 'old', [], { notBefore: new Date(Date.now() - 2 * DAY), notAfter: new Date(Date.now() - DAY) }));
    const soon = track(await asUser(k, 'soon', [], { notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 2 * DAY) }));
    expectFailure(await http(old, 'GET', '/api'), UNAUTHORIZED);
    expectFailure(await http(soon, 'GET', '/api'), UNAUTHORIZED);
  });

  it('a refused write changes nothing', async () => {
    const name = uniq('refused');
    const bad = track(withToken(k, 'wrong'));
    expectFailure(await http(bad, 'POST', '/api/v1/namespaces', ns(name)), UNAUTHORIZED);
    expect((await http(k, 'GET', `/api/v1/namespaces/${name}`)).status).toBe(404);
  });

  it('a watch with a bad credential is refused before it starts', async () => {
    const r = await http(track(withToken(k, 'wrong')), 'GET', '/api/v1/namespaces?watch=true');
    expectFailure(r, UNAUTHORIZED);
  });

  it('with --anonymous-auth=false, no credential at all (health and discovery included)', async () => {
    const anon = track(anonymous(closed));
    for (const path of ['/api', '/healthz', '/readyz', '/version', '/api/v1/namespaces']) {
      expectFailure(await http(anon, 'GET', path), UNAUTHORIZED);
    }
    expect((await http(closed, 'GET', '/readyz')).text).toBe('ok');
  });
});
