// TLS by default: the PKI a first start makes under <data-dir>/pki and later starts reuse,
// what admin.kubeconfig carries, the TLS flags (--tls-min-version, --tls-cipher-suites,
// --tls-san, --tls-cert-file/--tls-private-key-file, --client-ca-file, --cert-dir), one CA
// shared by several nodes (`kapi pki`), and plain HTTP only behind --insecure-plain-http.

import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { http, kubeClient, kubectl, readKubeconfig, removeDir, startKapi, type KapiProcess, type KubeClient } from '../support/server.js';

const CLI = resolve(import.meta.dirname, '..', '..', 'dist', 'src', 'cli.js');
const run = promisify(execFile);

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  // Every step runs, in reverse order, even when one fails, so no server outlives the suite.
  let failure: unknown;
  for (const c of cleanup.reverse()) {
    try {
      await c();
    } catch (e) {
      failure ??= e;
    }
  }
  if (failure) throw failure;
});

async function started(opts: Parameters<typeof startKapi>[0] = {}): Promise<KapiProcess> {
  const k = await startKapi(opts);
  cleanup.push(async () => {
    await k.stop();
    if (!opts.dataDir) await removeDir(k.dataDir);
  });
  return k;
}

async function tempDir(prefix: string): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), prefix));
  cleanup.push(() => removeDir(d));
  return d;
}

function client(url: string, creds: Parameters<typeof kubeClient>[1]): KubeClient {
  const c = kubeClient(url, creds);
  cleanup.push(() => c.close());
  return c;
}

/** The subjectAltName entries of a PEM certificate ("DNS:x", "IP Address:y"). */
const sans = (pem: string): string[] => (new X509Certificate(pem).subjectAltName ?? '').split(', ').filter(Boolean);

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

/** The CLI's exit code and stderr for arguments that should be refused. */
async function refused(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [CLI, ...args], { timeout: 20_000 });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { code?: number; stderr?: string };
    return { code: err.code ?? -1, stderr: err.stderr ?? '' };
  }
}

/** Handshakes with the given client TLS options; resolves with the protocol and cipher, or the error. */
function handshake(k: KapiProcess, opts: tls.ConnectionOptions): Promise<{ protocol?: string | null; cipher?: string; error?: string }> {
  const u = new URL(k.url);
  return new Promise((resolvePromise) => {
    const sock = tls.connect({ host: u.hostname, port: Number(u.port), ca: k.credentials.ca, ...opts }, () => {
      resolvePromise({ protocol: sock.getProtocol(), cipher: sock.getCipher().name });
      sock.destroy();
    });
    sock.on('error', (e) => resolvePromise({ error: e.message }));
  });
}

describe('the PKI of a first start', () => {
  it('a CA, a serving certificate for kube\'s names, an admin certificate; keys 0600; the kubeconfig carries them', async () => {
    const k = await started({ args: ['--tls-san', 'kapi.example.com,10.1.2.3', '--tls-san', 'other.example.com'] });
    const pki = join(k.dataDir, 'pki');
    const ca = new X509Certificate(await readFile(join(pki, 'ca.crt')));
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe('CN=kubernetes');
    const serving = await readFile(join(pki, 'apiserver.crt'), 'utf8');
    expect(new X509Certificate(serving).checkIssued(ca)).toBe(true);
    expect(new X509Certificate(serving).keyUsage).toStrictEqual(['1.3.6.1.5.5.7.3.1']);
    expect(sans(serving).sort()).toStrictEqual(
      [
        'DNS:localhost',
        'DNS:kubernetes',
        'DNS:kubernetes.default',
        'DNS:kubernetes.default.svc',
        'DNS:kubernetes.default.svc.cluster.local',
        'DNS:kapi.example.com',
        'DNS:other.example.com',
        'IP Address:127.0.0.1',
        'IP Address:10.1.2.3',
        // The kubernetes Service's address (the first of --service-cluster-ip-range), as kube-apiserver's.
        'IP Address:10.96.0.1',
      ].sort(),
    );
    const admin = new X509Certificate(await readFile(join(pki, 'admin.crt')));
    expect(admin.subject).toBe('O=system:masters\nCN=kubernetes-admin');
    expect(admin.keyUsage).toStrictEqual(['1.3.6.1.5.5.7.3.2']);
    expect(admin.checkIssued(ca)).toBe(true);
    for (const key of ['ca.key', 'apiserver.key', 'admin.key']) expect(await mode(join(pki, key)), key).toBe(0o600);
    expect(await mode(k.kubeconfig)).toBe(0o600);

    const kc = readKubeconfig(k.kubeconfig);
    expect(kc.server).toBe(k.url);
    expect(kc.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(kc.credentials.ca).toBe(await readFile(join(pki, 'ca.crt'), 'utf8'));
    expect(kc.credentials.cert).toBe(await readFile(join(pki, 'admin.crt'), 'utf8'));
    expect(kc.credentials.key).toBe(await readFile(join(pki, 'admin.key'), 'utf8'));
    // The serving certificate answers for its names: localhost verifies as well as 127.0.0.1.
    const byName = client(k.url.replace('127.0.0.1', 'localhost'), kc.credentials);
    expect((await http(byName, 'GET', '/readyz')).text).toBe('ok');
  });

  it('a restart reuses every file; a new --tls-san reissues only the serving certificate', async () => {
    const first = await startKapi();
    const dataDir = first.dataDir;
    cleanup.push(() => removeDir(dataDir));
    const pki = join(dataDir, 'pki');
    const files = ['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key', 'admin.crt', 'admin.key'];
    const before = await Promise.all(files.map((f) => readFile(join(pki, f), 'utf8')));
    const port = Number(new URL(first.url).port);
    await first.stop();

    const again = await started({ dataDir, port });
    expect(await Promise.all(files.map((f) => readFile(join(pki, f), 'utf8')))).toStrictEqual(before);
    const r = await kubectl(again, ['get', 'ns', 'default', '-o', 'name']);
    expect(r.stdout.trim()).toBe('namespace/default');
    await again.stop();

    const wider = await started({ dataDir, port, args: ['--tls-san', 'kapi.internal'] });
    const after = await Promise.all(files.map((f) => readFile(join(pki, f), 'utf8')));
    expect(after[files.indexOf('ca.crt')]).toBe(before[files.indexOf('ca.crt')]);
    expect(after[files.indexOf('admin.crt')]).toBe(before[files.indexOf('admin.crt')]);
    expect(after[files.indexOf('apiserver.crt')]).not.toBe(before[files.indexOf('apiserver.crt')]);
    expect(sans(after[files.indexOf('apiserver.crt')])).toContain('DNS:kapi.internal');
    expect((await http(wider, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
  });
});

describe('TLS flags', () => {
  it('--tls-min-version=VersionTLS13 refuses a TLS 1.2 client', async () => {
    const k = await started({ args: ['--tls-min-version', 'VersionTLS13'] });
    expect((await handshake(k, { maxVersion: 'TLSv1.2' })).error).toBeTruthy();
    expect((await handshake(k, {})).protocol).toBe('TLSv1.3');
    // The default is TLS 1.2 and up.
    const d = await started();
    expect((await handshake(d, { maxVersion: 'TLSv1.2' })).protocol).toBe('TLSv1.2');
  });

  it('--tls-cipher-suites takes Go\'s names and limits TLS 1.2 to them', async () => {
    const k = await started({ args: ['--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_AES_128_GCM_SHA256'] });
    expect(await handshake(k, { maxVersion: 'TLSv1.2' })).toStrictEqual({ protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-AES256-GCM-SHA384' });
    expect((await handshake(k, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' })).error).toBeTruthy();
    // TLS 1.3 suites are not configurable (as in Go): 1.3 clients are served as before.
    expect((await handshake(k, {})).protocol).toBe('TLSv1.3');
  });

  it('bad TLS flags are refused with kube\'s messages', async () => {
    const dir = await tempDir('kapi-flags-');
    const a = await refused(['serve', '--data-dir', dir, '--secure-port', '0', '--tls-min-version', 'VersionTLS99']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('unknown tls version "VersionTLS99"');
    const b = await refused(['serve', '--data-dir', dir, '--secure-port', '0', '--tls-cipher-suites', 'TLS_NOPE']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("Cipher suite TLS_NOPE not supported or doesn't exist");
    const c = await refused(['serve', '--data-dir', dir, '--secure-port', '0', '--tls-cert-file', join(dir, 'x.crt')]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--tls-cert-file and --tls-private-key-file must be given together');
    const d = await refused(['serve', '--data-dir', dir, '--secure-port', '0', '--anonymous-auth=maybe']);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('invalid argument "maybe" for "--anonymous-auth" flag');
  });
});

describe('one CA for several nodes', () => {
  it('kapi pki makes the CA and a serving certificate for every node; nodes sharing --cert-dir trust each other\'s clients', async () => {
    const shared = await tempDir('kapi-shared-pki-');
    const out = await run(process.execPath, [
      CLI,
      'pki',
      '--cert-dir',
      shared,
      '--tls-san',
      'node-1.kapi,node-2.kapi,127.0.0.2',
      '--kubeconfig',
      join(shared, 'lb.kubeconfig'),
      '--server',
      'https://127.0.0.1:6443',
    ]);
    expect(out.stdout).toContain(join(shared, 'ca.crt'));
    const servingBefore = await readFile(join(shared, 'apiserver.crt'), 'utf8');
    // Also the kubernetes Service's address, as serve's generated certificate has it.
    expect(sans(servingBefore)).toEqual(expect.arrayContaining(['DNS:node-1.kapi', 'DNS:node-2.kapi', 'IP Address:127.0.0.2', 'IP Address:10.96.0.1']));
    const lb = readKubeconfig(join(shared, 'lb.kubeconfig'));
    expect(lb.server).toBe('https://127.0.0.1:6443');

    const caBefore = await readFile(join(shared, 'ca.crt'), 'utf8');
    const san = ['--tls-san', 'node-1.kapi,node-2.kapi,127.0.0.2'];
    const [n1, n2] = await Promise.all([started({ args: ['--cert-dir', shared, ...san] }), started({ args: ['--cert-dir', shared, ...san] })]);
    expect(await readFile(join(shared, 'ca.crt'), 'utf8')).toBe(caBefore);
    // The nodes find the serving certificate good as it is.
    expect(await readFile(join(shared, 'apiserver.crt'), 'utf8')).toBe(servingBefore);
    // The kubeconfig made ahead of time (for a balancer's address) works against either node.
    for (const n of [n1, n2]) {
      expect(readKubeconfig(n.kubeconfig).credentials.ca).toBe(caBefore);
      const viaShared = client(n.url, lb.credentials);
      expect((await http(viaShared, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
    }
    // kapi pki --user: a kubeconfig for any user from the shared CA.
    await run(process.execPath, [CLI, 'pki', '--cert-dir', shared, '--kubeconfig', join(shared, 'dave.kubeconfig'), '--server', n1.url, '--user', 'dave', '--group', 'devs']);
    const dave = readKubeconfig(join(shared, 'dave.kubeconfig'));
    expect(new X509Certificate(dave.credentials.cert!).subject).toBe('O=devs\nCN=dave');
    expect((await http(client(n2.url, dave.credentials), 'GET', '/api')).status).toBe(200);
  });

  it('--tls-cert-file, --tls-private-key-file and --client-ca-file bring a PKI made elsewhere', async () => {
    const shared = await tempDir('kapi-byo-pki-');
    await run(process.execPath, [CLI, 'pki', '--cert-dir', shared]);
    const k = await started({
      args: [
        '--tls-cert-file',
        join(shared, 'apiserver.crt'),
        '--tls-private-key-file',
        join(shared, 'apiserver.key'),
        '--client-ca-file',
        join(shared, 'ca.crt'),
      ],
    });
    // The node's own CA did not sign the served certificate: its kubeconfig trusts the client
    // CA that did, and carries no client certificate (that CA is not the node's own).
    const kc = readKubeconfig(k.kubeconfig);
    expect(kc.credentials.ca).toBe(await readFile(join(shared, 'ca.crt'), 'utf8'));
    expect(kc.credentials.cert).toBeUndefined();
    expect(k.logs()).toContain('the admin kubeconfig has no client certificate');
    const sharedAdmin = client(k.url, { ca: kc.credentials.ca, cert: await readFile(join(shared, 'admin.crt'), 'utf8'), key: await readFile(join(shared, 'admin.key'), 'utf8') });
    expect((await http(sharedAdmin, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
    const ownAdmin = client(k.url, {
      ca: kc.credentials.ca,
      cert: await readFile(join(k.dataDir, 'pki', 'admin.crt'), 'utf8'),
      key: await readFile(join(k.dataDir, 'pki', 'admin.key'), 'utf8'),
    });
    expect((await http(ownAdmin, 'GET', '/api')).status).toBe(401);
  });
});

describe('--insecure-plain-http', () => {
  it('serves plain HTTP/1.1 with no authentication (every request is system:unsecured); kubectl works', async () => {
    const k = await started({ args: ['--insecure-plain-http'] });
    expect(k.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readKubeconfig(k.kubeconfig).credentials).toStrictEqual({ ca: undefined, cert: undefined, key: undefined, token: undefined });
    expect((await http(k, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
    const r = await kubectl(k, ['get', 'ns', 'default', '-o', 'name']);
    expect(r.stdout.trim()).toBe('namespace/default');
  });

  it('is off by default: a plain HTTP request to the TLS port gets Go\'s 400, as from kube-apiserver', async () => {
    const k = await started();
    const plain = client(k.url.replace('https:', 'http:'), {});
    const r = await http(plain, 'GET', '/readyz');
    expect(r.status).toBe(400);
    expect(r.text).toBe('Client sent an HTTP request to an HTTPS server.\n');
    // TLS on the same port still works after that.
    expect((await http(k, 'GET', '/readyz')).text).toBe('ok');
  });
});
