// Watch over WebSocket, as kube-apiserver 1.33's WatchServer.HandleWS serves it through
// golang.org/x/net/websocket: each event is one text message holding the JSON event and its
// trailing newline (protobuf: one binary message per event, without the length prefix);
// subprotocols are not used for framing, one offered subprotocol is echoed, two or more are
// 400; a handshake without Origin is 403. Everything before the upgrade (request info,
// options, negotiation) answers over HTTP as for any watch.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { startKapi, stopKapi } from '../../support/server.js';
import { decodeProtobufWatchFrames } from '../../../src/codec/protobuf/index.js';
import { NS, PC, STS, expectCode, expiredWatchEvent, http, ns, pc, sleep, sts, uniq, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  // A short history, for the ERROR event of a too old resourceVersion.
  k = await startKapi({ args: ['--watch-history', '1s'] });
});

afterAll(() => stopKapi(k));

interface Msg {
  data: Buffer;
  binary: boolean;
}

/** A WebSocket watch client that keeps every message and how the socket closed. */
class WsWatch {
  readonly messages: Msg[] = [];
  protocol = '';
  closeCode = 0;
  closed = false;
  private wakers: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, binary: boolean) => {
      this.messages.push({ data: Buffer.from(data), binary });
      this.wake();
    });
    ws.on('close', (code: number) => {
      this.closed = true;
      this.closeCode = code;
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  static open(path: string, protocols: string[] = [], headers: Record<string, string> = { Origin: 'http://localhost' }): Promise<WsWatch> {
    return new Promise((resolve, reject) => {
      const ws = k.webSocket(path, protocols, { headers });
      const w = new WsWatch(ws);
      ws.once('open', () => {
        w.protocol = ws.protocol;
        resolve(w);
      });
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => reject(new Error(`unexpected ${res.statusCode}: ${body}`)));
      });
      ws.once('error', reject);
    });
  }

  private wake(): void {
    const ws = this.wakers;
    this.wakers = [];
    ws.forEach((f) => f());
  }

  async until(pred: () => boolean, timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      if (this.closed) return pred();
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.wakers.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return true;
  }

  /** The first `n` messages as JSON events (each must be a text message ending in a newline). */
  async events(n: number, timeoutMs = 5000): Promise<{ type: string; object: Obj }[]> {
    if (!(await this.until(() => this.messages.length >= n, timeoutMs))) {
      throw new Error(`expected ${n} messages, got ${this.messages.length}: ${this.messages.map((m) => m.data.toString()).join(' | ')}`);
    }
    return this.messages.slice(0, n).map((m) => {
      expect(m.binary).toBe(false);
      const text = m.data.toString('utf8');
      expect(text.endsWith('}\n'), text).toBe(true);
      expect(text.indexOf('\n')).toBe(text.length - 1);
      return JSON.parse(text) as { type: string; object: Obj };
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Sends a raw handshake and returns the server's whole answer (it closes the connection). */
function rawHandshake(path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = k.connect(() => {
      const lines = [`GET ${path} HTTP/1.1`, `Host: ${k.host}`, ...Object.entries(headers).map(([h, v]) => `${h}: ${v}`)];
      sock.write(lines.join('\r\n') + '\r\n\r\n');
    });
    let out = '';
    sock.on('data', (d) => (out += d.toString()));
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
    sock.setTimeout(5000, () => {
      sock.destroy();
      reject(new Error(`no close; got ${JSON.stringify(out)}`));
    });
  });
}

const UPGRADE = {
  Connection: 'Upgrade',
  Upgrade: 'websocket',
  'Sec-WebSocket-Version': '13',
  'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

async function freshNamespace(prefix: string): Promise<string> {
  const name = uniq(prefix);
  expectCode(await http(k, 'POST', NS(), ns(name)), 201);
  return name;
}

describe('watch over WebSocket', () => {
  it('each event is one text message: the JSON event and its newline', async () => {
    const n = await freshNamespace('wsa');
    const a = expectCode(await http(k, 'POST', STS(n), sts('a')), 201);
    const w = await WsWatch.open(`${STS(n)}?watch=true`);
    try {
      expect(w.protocol).toBe('');
      const [e] = await w.events(1);
      expect(e).toStrictEqual({ type: 'ADDED', object: a });
      const cur = structuredClone(a);
      cur.spec.replicas = 3;
      const updated = expectCode(await http(k, 'PUT', STS(n, 'a'), cur), 200);
      expectCode(await http(k, 'DELETE', STS(n, 'a')), 200);
      const evs = await w.events(3);
      expect(evs[1]).toStrictEqual({ type: 'MODIFIED', object: updated });
      expect(evs[2].type).toBe('DELETED');
      expect(evs[2].object.metadata.name).toBe('a');
      // Messages from the client are ignored; the watch goes on.
      w.ws.send('hello');
      const b = expectCode(await http(k, 'POST', STS(n), sts('b')), 201);
      const evs2 = await w.events(4);
      expect(evs2[3]).toStrictEqual({ type: 'ADDED', object: b });
    } finally {
      w.close();
    }
  });

  it('one offered subprotocol is echoed and changes nothing in the framing', async () => {
    const n = await freshNamespace('wsp');
    const a = expectCode(await http(k, 'POST', STS(n), sts('a')), 201);
    for (const proto of ['base64.binary.k8s.io', 'binary.k8s.io']) {
      const w = await WsWatch.open(`${STS(n)}?watch=true`, [proto]);
      try {
        expect(w.protocol).toBe(proto);
        const [e] = await w.events(1);
        expect(e).toStrictEqual({ type: 'ADDED', object: a });
      } finally {
        w.close();
      }
    }
  });

  it('two or more offered subprotocols: 400 with an empty body', async () => {
    const out = await rawHandshake(`${STS('default')}?watch=true`, {
      ...UPGRADE,
      Origin: 'http://localhost',
      'Sec-WebSocket-Protocol': 'base64.binary.k8s.io, binary.k8s.io',
    });
    expect(out).toBe('HTTP/1.1 400 Bad Request\r\n\r\n');
    await expect(WsWatch.open(`${STS('default')}?watch=true`, ['base64.binary.k8s.io', 'binary.k8s.io'])).rejects.toThrow('unexpected 400');
  });

  it('no Origin header: 403 with an empty body (checked before the subprotocols)', async () => {
    const out = await rawHandshake(`${STS('default')}?watch=true`, UPGRADE);
    expect(out).toBe('HTTP/1.1 403 Forbidden\r\n\r\n');
    const both = await rawHandshake(`${STS('default')}?watch=true`, { ...UPGRADE, 'Sec-WebSocket-Protocol': 'a, b' });
    expect(both).toBe('HTTP/1.1 403 Forbidden\r\n\r\n');
    await expect(WsWatch.open(`${STS('default')}?watch=true`, [], {})).rejects.toThrow('unexpected 403');
  });

  it('a Sec-WebSocket-Version other than 13: 400 naming the supported version', async () => {
    const out = await rawHandshake(`${STS('default')}?watch=true`, { ...UPGRADE, Origin: 'http://localhost', 'Sec-WebSocket-Version': '8' });
    expect(out).toBe('HTTP/1.1 400 Bad Request\r\nSec-WebSocket-Version: 13\r\n\r\nbad protocol version');
  });

  it('errors before the watch starts are plain HTTP answers', async () => {
    const status = (out: string): number => Number(out.slice(9, 12));
    const body = (out: string): Obj => JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4)) as Obj;
    const hdrs = { ...UPGRADE, Origin: 'http://localhost' };
    const notFound = await rawHandshake('/apis/apps/v1/namespaces/default/nothings?watch=true', hdrs);
    expect(status(notFound)).toBe(404);
    expect(body(notFound).reason).toBe('NotFound');
    const badSelector = await rawHandshake(`${STS('default')}?watch=true&labelSelector=a%20b%20c`, hdrs);
    expect(status(badSelector)).toBe(400);
    expect(body(badSelector).kind).toBe('Status');
    const gated = await rawHandshake(`${STS('default')}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, hdrs);
    expect(status(gated)).toBe(422);
    expect(body(gated).details.causes[0].field).toBe('sendInitialEvents');
  });

  it('a request that is not a watch is answered over HTTP even with Upgrade: websocket', async () => {
    const n = await freshNamespace('wsg');
    const a = expectCode(await http(k, 'POST', STS(n), sts('a')), 201);
    const out = await rawHandshake(STS(n, 'a'), { ...UPGRADE, Origin: 'http://localhost' });
    expect(out.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(out.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toStrictEqual(a);
  });

  it('a resourceVersion older than the history: the upgrade, one ERROR message (410 Expired), then close', async () => {
    const n = await freshNamespace('wso');
    const a = expectCode(await http(k, 'POST', STS(n), sts('a')), 201);
    const b = expectCode(await http(k, 'POST', STS(n), sts('b')), 201);
    await sleep(2600);
    const w = await WsWatch.open(`${STS(n)}?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    try {
      const [e] = await w.events(1);
      expect(e).toStrictEqual(expiredWatchEvent(a.metadata.resourceVersion, b.metadata.resourceVersion));
      expect(await w.until(() => w.closed, 3000)).toBe(true);
      expect(w.closeCode).toBe(1000);
      expect(w.messages.length).toBe(1);
    } finally {
      w.close();
    }
  });

  it('timeoutSeconds: the server closes the socket (status 1000)', async () => {
    const n = await freshNamespace('wst');
    const t0 = Date.now();
    const w = await WsWatch.open(`${STS(n)}?watch=true&timeoutSeconds=1`);
    try {
      expect(await w.until(() => w.closed, 4000)).toBe(true);
      expect(w.closeCode).toBe(1000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    } finally {
      w.close();
    }
  });

  it('bookmarks and selectors work as over HTTP', async () => {
    const pname = uniq('wspc');
    const w = await WsWatch.open(`${PC()}?watch=true&fieldSelector=metadata.name%3D${pname}`);
    try {
      const p = expectCode(await http(k, 'POST', PC(), pc(pname, 3)), 201);
      expectCode(await http(k, 'POST', PC(), pc(uniq('other'), 3)), 201);
      const [e] = await w.events(1);
      expect(e).toStrictEqual({ type: 'ADDED', object: p });
      await sleep(200);
      expect(w.messages.length).toBe(1);
    } finally {
      w.close();
    }
  });

  it('protobuf: one binary message per event, the event without the length prefix', async () => {
    const n = await freshNamespace('wspb');
    const a = expectCode(await http(k, 'POST', STS(n), sts('a')), 201);
    const w = await WsWatch.open(`${STS(n)}?watch=true`, [], { Origin: 'http://localhost', Accept: 'application/vnd.kubernetes.protobuf' });
    try {
      expect(await w.until(() => w.messages.length >= 1)).toBe(true);
      const m = w.messages[0];
      expect(m.binary).toBe(true);
      const framed = Buffer.concat([Buffer.alloc(4), m.data]);
      framed.writeUInt32BE(m.data.length, 0);
      const { events, rest } = decodeProtobufWatchFrames(framed);
      expect(rest.length).toBe(0);
      expect(events.length).toBe(1);
      expect(events[0].type).toBe('ADDED');
      expect(events[0].object.object).toMatchObject({ kind: 'StatefulSet', metadata: { name: 'a', resourceVersion: a.metadata.resourceVersion } });
    } finally {
      w.close();
    }
  });

  it('a client that goes away ends its watch (the server stays healthy)', async () => {
    const n = await freshNamespace('wsc');
    for (let i = 0; i < 20; i++) {
      const w = await WsWatch.open(`${STS(n)}?watch=true`);
      w.close();
    }
    const gauge = async (): Promise<number> => {
      const text = (await http(k, 'GET', '/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith('apiserver_registered_watchers{') && l.includes('kind="StatefulSet"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const deadline = Date.now() + 5000;
    while ((await gauge()) !== 0 && Date.now() < deadline) await sleep(100);
    expect(await gauge()).toBe(0);
    expect((await http(k, 'GET', '/readyz')).status).toBe(200);
  });
});
