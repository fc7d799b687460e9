// HTTP/2 over TLS as kubectl and client-go use it: ALPN picks h2 (or http/1.1 for clients that
// ask for it), and one connection carries many concurrent streams, watches among them.

import type { ClientHttp2Session, IncomingHttpHeaders } from 'node:http2';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { expectCode, ns, STS, sts, uniq, type Obj } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

interface StreamResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on `session`, read whole. */
function h2request(session: ClientHttp2Session, method: string, path: string, body?: unknown): Promise<StreamResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ':method': method, ':path': path };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const req = session.request(headers, { endStream: body === undefined });
    let status = 0;
    let hdrs: IncomingHttpHeaders = {};
    let text = '';
    req.setEncoding('utf8');
    req.on('response', (h) => {
      status = Number(h[':status']);
      hdrs = h;
    });
    req.on('data', (d: string) => (text += d));
    req.on('end', () => resolve({ status, headers: hdrs, body: text }));
    req.on('error', reject);
    if (body !== undefined) req.end(JSON.stringify(body));
  });
}

/** A watch on `session`: its events as they arrive, until closed. */
function h2watch(session: ClientHttp2Session, path: string): { events: Obj[]; headers: Promise<IncomingHttpHeaders>; close: () => void } {
  const req = session.request({ ':path': path });
  const events: Obj[] = [];
  let buf = '';
  req.setEncoding('utf8');
  req.on('data', (d: string) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      events.push(JSON.parse(buf.slice(0, i)) as Obj);
      buf = buf.slice(i + 1);
    }
  });
  req.on('error', () => undefined);
  const headers = new Promise<IncomingHttpHeaders>((r) => req.once('response', r));
  return { events, headers, close: () => req.close() };
}

async function waitFor(what: string, pred: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ALPN', () => {
  const negotiate = (protocols: string[]): Promise<string | false> =>
    new Promise((resolve, reject) => {
      const u = new URL(k.url);
      const c = k.credentials;
      const sock = tls.connect({ host: u.hostname, port: Number(u.port), ca: c.ca, cert: c.cert, key: c.key, ALPNProtocols: protocols }, () => {
        resolve(sock.alpnProtocol ?? false);
        sock.destroy();
      });
      sock.on('error', reject);
    });

  it('offers h2 first and http/1.1, as kube-apiserver does', async () => {
    expect(await negotiate(['h2', 'http/1.1'])).toBe('h2');
    expect(await negotiate(['http/1.1', 'h2'])).toBe('h2');
    expect(await negotiate(['http/1.1'])).toBe('http/1.1');
  });

  it('a client without ALPN is served HTTP/1.1', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = k.httpRequest('/version', {}, (res) => {
        expect(res.httpVersion).toBe('1.1');
        expect(res.statusCode).toBe(200);
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  });
});

describe('HTTP/2', () => {
  it('answers over h2 with the usual headers and bodies, and advertises 250 concurrent streams', async () => {
    const session = k.http2();
    try {
      const r = await h2request(session, 'GET', '/api/v1/namespaces/default');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect((JSON.parse(r.body) as Obj).metadata.name).toBe('default');
      expect(session.alpnProtocol).toBe('h2');
      expect(session.remoteSettings.maxConcurrentStreams).toBe(250);
    } finally {
      session.close();
    }
  });

  it('100 concurrent streams on one connection: 20 watches see every one of 40 creates, 40 gets answer meanwhile', async () => {
    const n = uniq('h2');
    expectCode(await http(k, 'POST', '/api/v1/namespaces', ns(n)), 201);
    const session = k.http2();
    let sockets = 0;
    session.on('connect', () => (sockets += 1));
    try {
      const watches = Array.from({ length: 20 }, () => h2watch(session, `${STS(n)}?watch=true`));
      for (const w of watches) expect((await w.headers)[':status']).toBe(200);
      const creates = Array.from({ length: 40 }, (_, i) => h2request(session, 'POST', STS(n), sts(`s-${i}`)));
      const gets = Array.from({ length: 40 }, () => h2request(session, 'GET', '/api/v1/namespaces/default'));
      const [created, got] = await Promise.all([Promise.all(creates), Promise.all(gets)]);
      for (const r of created) expect(r.status, r.body).toBe(201);
      for (const r of got) expect(r.status).toBe(200);
      await waitFor('every watch to see the 40 creates', () => watches.every((w) => w.events.length >= 40));
      const want = created.map((r) => (JSON.parse(r.body) as Obj).metadata.resourceVersion as string).sort();
      for (const w of watches) {
        expect(w.events.every((e) => e.type === 'ADDED')).toBe(true);
        expect(w.events.map((e) => e.object.metadata.resourceVersion as string).sort()).toStrictEqual(want);
      }
      for (const w of watches) w.close();
      expect(sockets).toBe(1);
    } finally {
      session.close();
    }
  });

  it('a watch over h2 ends when its timeoutSeconds runs out, and the connection stays usable', async () => {
    const session = k.http2();
    try {
      const r = await h2request(session, 'GET', '/api/v1/namespaces?watch=true&timeoutSeconds=1');
      expect(r.status).toBe(200);
      expect(r.body.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(4);
      expect((await h2request(session, 'GET', '/readyz')).body).toBe('ok');
    } finally {
      session.close();
    }
  });
});
