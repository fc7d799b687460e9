// A rolling restart of the kapi nodes through the balancer, each node stopped with SIGTERM as
// kube-apiserver is in a rolling update. The node's balancer check answers 404 at once, and
// haproxy drains it (no new connection, the open ones left to finish: not cut, as a node
// marked DOWN would have them); the node serves on for --shutdown-delay-duration, ending each
// HTTP/1.1 connection after its response (Connection: close) and each HTTP/2 one with a GOAWAY
// once it stops accepting, lets the requests in flight finish, and comes back.
//
// Clients of the three kinds a balancer sees (a connection per request, HTTP/1.1 keep-alive,
// HTTP/2) send requests all along, and none is resent to hide a loss: every request must be
// answered, and answered well. The only requests sent again are those the protocol says were
// not processed, as client-go does: an HTTP/2 stream refused by a GOAWAY, and a 429 or 503
// carrying Retry-After (kube's answer while it shuts down with --shutdown-send-retry-after).

import { Agent, request as httpsRequest } from 'node:https';
import http2, { type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshRequest, startCluster, type TestCluster } from '../support/cluster.js';
import { probe } from '../../cluster/launcher.js';
import { readKubeconfig, type Credentials } from '../support/kube.js';

let c: TestCluster;
let creds: Credentials;
let stoppedAt = 0;

beforeAll(async () => {
  // The plan's --shutdown-delay-duration (cluster/plan.ts) is the one under test.
  c = await startCluster({ etcdMembers: 1 });
  creds = readKubeconfig(c.kubeconfig).credentials;
}, 120_000);

afterAll(async () => {
  await c?.cleanup();
}, 60_000);

const LEASES = (ns: string): string => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;

interface Answer {
  status: number;
  retryAfter?: string;
  text: string;
}

/** Thrown when the protocol says the request was not processed (it may be sent again). */
class NotProcessed extends Error {}

type Kind = 'fresh' | 'keepalive' | 'h2';

/** One way of sending a request through the balancer. */
interface Transport {
  send(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Connections (HTTP/1.1) or sessions (HTTP/2) opened so far. */
  readonly connections: number;
  close(): void;
}

/** A new connection for every request (as most balancer tests and kubectl runs do). */
class Fresh implements Transport {
  connections = 0;
  async send(method: string, path: string, body?: unknown): Promise<Answer> {
    this.connections++;
    const r = await freshRequest(c.balancerUrl, method, path, body, 10_000);
    return { status: r.status, text: r.text, retryAfter: undefined };
  }
  close(): void {}
}

/** HTTP/1.1 with one keep-alive connection, reused until the server closes it. */
class KeepAlive implements Transport {
  connections = 0;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1, ca: creds.ca, cert: creds.cert, key: creds.key });
  send(method: string, path: string, body?: unknown): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = httpsRequest(`${c.balancerUrl}${path}`, {
        method,
        agent: this.agent,
        timeout: 10_000,
        headers: data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {},
      });
      req.once('socket', () => {
        if (!req.reusedSocket) this.connections++;
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, retryAfter: res.headers['retry-after'] }));
      });
      req.on('timeout', () => req.destroy(new Error('no answer within 10000 ms')));
      req.on('error', reject);
      req.end(data);
    });
  }
  close(): void {
    this.agent.destroy();
  }
}

/** HTTP/2: one session for every request, a new one once the server sent GOAWAY (as client-go). */
class H2 implements Transport {
  connections = 0;
  private session?: ClientHttp2Session;
  private current(): ClientHttp2Session {
    const s = this.session;
    if (s && !s.closed && !s.destroyed) return s;
    this.connections++;
    const next = http2.connect(c.balancerUrl, { ca: creds.ca, cert: creds.cert, key: creds.key });
    // A session's own errors reach its streams; an unhandled one would end the test run.
    next.on('error', () => undefined);
    // No new stream on a session that is going away.
    next.once('goaway', () => {
      if (this.session === next) this.session = undefined;
    });
    this.session = next;
    return next;
  }
  send(method: string, path: string, body?: unknown): Promise<Answer> {
    return new Promise((resolveOnce, rejectOnce) => {
      let settled = false;
      const resolve = (a: Answer): void => {
        if (!settled) resolveOnce(a);
        settled = true;
      };
      const reject = (e: Error): void => {
        if (!settled) rejectOnce(e);
        settled = true;
      };
      const headers: Record<string, string> = { ':method': method, ':path': path };
      if (body !== undefined) headers['content-type'] = 'application/json';
      let req: http2.ClientHttp2Stream;
      try {
        req = this.current().request(headers, { endStream: body === undefined });
      } catch (e) {
        // The session got its GOAWAY meanwhile: this request never left the client.
        reject(new NotProcessed(`not sent: ${(e as Error).message}`));
        return;
      }
      let status = 0;
      let retryAfter: string | undefined;
      let text = '';
      req.setEncoding('utf8');
      req.setTimeout(10_000, () => req.close(http2.constants.NGHTTP2_CANCEL));
      req.on('response', (h) => {
        status = Number(h[':status']);
        retryAfter = h['retry-after'] as string | undefined;
      });
      req.on('data', (d: string) => (text += d));
      req.on('end', () => resolve({ status, text, retryAfter }));
      req.on('error', (e: Error) => {
        // A stream above the GOAWAY's last stream id: the server says it did not process it.
        if (req.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM) reject(new NotProcessed(`refused: ${e.message}`));
        else reject(e);
      });
      // Closed before its end and without an error: no answer either.
      req.on('close', () => reject(new Error(`stream closed without an answer (code ${req.rstCode})`)));
      if (body !== undefined) req.end(JSON.stringify(body));
    });
  }
  close(): void {
    this.session?.close();
  }
}

/**
 * A client sending one request after another, alternately a create and a read. A request cut
 * without an answer is a loss and is not sent again.
 */
class Client {
  readonly acked: string[] = [];
  readonly answered: string[] = [];
  /** Requests answered with an error status. */
  readonly failed: string[] = [];
  /** Requests whose connection or stream was cut before an answer. */
  readonly cut: string[] = [];
  /** Requests the server said it did not process (sent again, as client-go does). */
  readonly resent: string[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(
    readonly id: string,
    readonly kind: Kind,
    private readonly ns: string,
    readonly transport: Transport,
  ) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const name = `${this.id}-${i}`;
      const write = i % 2 === 0;
      const what = `${this.kind} ${write ? 'POST' : 'GET'} ${name}`;
      for (let attempt = 0; attempt < 10; attempt++) {
        let r: Answer;
        try {
          r = write
            ? await this.transport.send('POST', LEASES(this.ns), { metadata: { name }, spec: { holderIdentity: this.id } })
            : await this.transport.send('GET', `/api/v1/namespaces/${this.ns}`);
        } catch (e) {
          const at = `${Math.round(performance.now() - stoppedAt)} ms after the last stop began`;
          if (e instanceof NotProcessed) {
            this.resent.push(`${what}: ${e.message} ${at}`);
            continue;
          }
          this.cut.push(`${what}: ${(e as Error).message} ${at}`);
          break;
        }
        if ((r.status === 429 || r.status === 503) && r.retryAfter !== undefined) {
          this.resent.push(`${what}: ${r.status} Retry-After ${r.retryAfter}`);
          await sleep(Number(r.retryAfter) * 1000);
          continue;
        }
        if (r.status === (write ? 201 : 200)) {
          this.answered.push(name);
          if (write) this.acked.push(name);
        } else this.failed.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
        break;
      }
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    this.transport.close();
  }
}

describe('a rolling restart of the kapi nodes', () => {
  it('cuts no request: each one answered, on fresh, keep-alive and HTTP/2 connections; each acknowledged write stored', async () => {
    const ns = 'rolling';
    expect((await freshRequest(c.balancerUrl, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    const clients = [
      ...[0, 1].map((i) => new Client(`fresh${i}`, 'fresh', ns, new Fresh())),
      ...[0, 1].map((i) => new Client(`keepalive${i}`, 'keepalive', ns, new KeepAlive())),
      ...[0, 1].map((i) => new Client(`h2-${i}`, 'h2', ns, new H2())),
    ];
    await sleep(1000);
    const t0 = performance.now();
    for (const [i, n] of c.nodes.entries()) {
      const check = `http://127.0.0.1:${c.layout.nodes[i]!.checkPort}/`;
      expect((await probe(check))?.status, `${n.name}'s balancer check before its stop`).toBe(200);
      stoppedAt = performance.now();
      const stopped = n.stop();
      if (i === 0) {
        // While it drains: the balancer's check says 404, and kube's own answers are kube's.
        await sleep(300);
        const [drain, ...kube] = await Promise.all([probe(check), ...['/readyz', '/readyz/shutdown', '/livez'].map((p) => freshRequest(n.url, 'GET', p, undefined, 2000))]);
        expect(drain?.status).toBe(404);
        expect(kube.map((r) => [r.status, r.text])).toEqual([
          [500, expect.stringContaining('[-]shutdown failed: reason withheld\n')],
          [500, 'internal server error: process is shutting down\n'],
          [200, 'ok'],
        ]);
      }
      await stopped;
      console.log(`${n.name} stopped in ${Math.round(performance.now() - stoppedAt)} ms`);
      await n.start();
      // Back in rotation (two passed checks, a second apart while it was down) before the next one goes.
      await sleep(1500);
    }
    const took = performance.now() - t0;
    await Promise.all(clients.map((x) => x.stop()));
    const all = (f: (x: Client) => string[]): string[] => clients.flatMap(f);
    const acked = all((x) => x.acked);
    const summary = clients.map((x) => `${x.id}: ${x.answered.length} answered, ${x.transport.connections} connections`).join('; ');
    console.log(
      `rolling restart of ${c.nodes.length} nodes in ${Math.round(took)} ms: ${all((x) => x.answered).length} requests answered ` +
        `(${acked.length} writes acknowledged), ${all((x) => x.failed).length} failed, ${all((x) => x.cut).length} cut, ` +
        `${all((x) => x.resent).length} not processed and sent again; ${summary}`,
      all((x) => [...x.resent, ...x.failed]),
    );
    // Nothing cut without an answer, nothing answered with an error.
    expect(all((x) => x.cut)).toEqual([]);
    expect(all((x) => x.failed)).toEqual([]);
    expect(acked.length).toBeGreaterThan(20);
    // The connections pinned to a stopping node were ended by it, and their clients moved on.
    for (const x of clients.filter((y) => y.kind !== 'fresh')) expect(x.transport.connections, x.id).toBeGreaterThan(1);
    const list = await freshRequest(c.balancerUrl, 'GET', LEASES(ns));
    const stored = new Set((list.json.items as { metadata: { name: string } }[]).map((x) => x.metadata.name));
    expect(acked.filter((n) => !stored.has(n))).toEqual([]);
  }, 180_000);
});
