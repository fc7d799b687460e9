// Load limits and the request timeout, as kube-apiserver 1.33 applies them (checked against
// it with the same flags): --max-requests-inflight / --max-mutating-requests-inflight with
// 429 and Retry-After: 1, long-running requests exempt, fair queueing between flows, and
// --request-timeout with kube's 504 for a slow handler, a slow request body and a slow reader.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, http, removeDir, startKapi, type KapiProcess, type KubeClient } from '../../support/server.js';
import { openRequest, request, stalledPost } from '../../support/raw-http.js';
import { NS, WatchStream, ns, uniq } from './helpers.js';

let k: KapiProcess;
/** Kube's default limits, a short timeout. */
let t: KapiProcess;
/** Users outside system:masters (whose requests kube never refuses): the limits apply to them. */
let writer: KubeClient;
let slowWriter: KubeClient;

beforeAll(async () => {
  [k, t] = await Promise.all([
    // (A request waits for a slot a quarter of the request timeout: 3 s, long enough for 50
    // TLS clients to queue on a loaded machine before the first of them gives up.)
    startKapi({ args: ['--max-requests-inflight', '4', '--max-mutating-requests-inflight', '3', '--request-timeout', '12s'] }),
    startKapi({ args: ['--request-timeout', '2s'] }),
  ]);
  [writer, slowWriter] = await Promise.all([asUser(k, 'writer'), asUser(t, 'slow-writer')]);
});

afterAll(async () => {
  await Promise.all([writer, slowWriter].map((c) => c?.close()));
  for (const p of [k, t]) {
    await p?.stop();
    if (p) await removeDir(p.dataDir);
  }
});

const metric = async (re: RegExp, on = k): Promise<number | undefined> => {
  const m = re.exec((await http(on, 'GET', '/metrics')).text);
  return m ? Number(m[1]) : undefined;
};

const TIMEOUT_BODY =
  '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

describe('in-flight limits', () => {
  it('past --max-mutating-requests-inflight a write waits for a slot, then is 429 with Retry-After: 1 and kube\'s Status', async () => {
    const held = [1, 2, 3].map(() => stalledPost(writer, NS(), ns(uniq('held'))));
    await expect.poll(() => metric(/^apiserver_current_inflight_requests\{request_kind="mutating"\} (\d+)$/m)).toBe(3);
    const t0 = performance.now();
    const r = await http(writer, 'POST', NS(), ns(uniq('over')));
    // It waited a quarter of the 12 s request timeout for a slot that did not come.
    expect(performance.now() - t0).toBeGreaterThan(2900);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Too many requests, please try again later.',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    // Reads have their own limit, and watches none.
    expect((await http(writer, 'GET', NS())).status).toBe(200);
    const watches = await Promise.all([1, 2, 3, 4, 5, 6].map(() => WatchStream.open(writer, `${NS()}?watch=1`)));
    expect(watches.map((w) => w.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const w of watches) w.close();
    // A flow's queue holds 50: the 51st waiting request is refused at once.
    const queued = Array.from({ length: 50 }, () => request(writer, 'POST', NS(), ns(uniq('queued'))));
    await expect.poll(() => metric(/^apiserver_current_inqueue_requests\{request_kind="mutating"\} (\d+)$/m)).toBe(50);
    const t1 = performance.now();
    expect((await http(writer, 'POST', NS(), ns(uniq('overflow')))).status).toBe(429);
    expect(performance.now() - t1).toBeLessThan(2000);
    expect((await Promise.all(queued)).every((q) => q.status === 429)).toBe(true);
    // The held writes finish; their slots are free again.
    for (const h of held) h.finish();
    expect((await Promise.all(held.map((h) => h.response))).map((x) => x.status)).toEqual([201, 201, 201]);
    expect((await http(writer, 'POST', NS(), ns(uniq('after')))).status).toBe(201);
    // The admin (system:masters) is never refused: it goes past a full limit.
    const full = [1, 2, 3].map(() => stalledPost(writer, NS(), ns(uniq('full'))));
    await expect.poll(() => metric(/^apiserver_current_inflight_requests\{request_kind="mutating"\} (\d+)$/m)).toBe(3);
    expect((await http(k, 'POST', NS(), ns(uniq('admin')))).status).toBe(201);
    for (const h of full) h.finish();
    expect((await Promise.all(full.map((h) => h.response))).map((x) => x.status)).toEqual([201, 201, 201]);
    const text = (await http(k, 'GET', '/metrics')).text;
    expect(text).toMatch(/^apiserver_request_total\{verb="POST",dry_run="",group="",version="v1",resource="namespaces",subresource="",scope="resource",component="apiserver",code="429"\} [1-9]/m);
    expect(text).toMatch(/^apiserver_request_terminations_total\{verb="POST",group="",version="v1",resource="namespaces",subresource="",scope="resource",component="apiserver",code="429"\} [1-9]/m);
  });
});

describe('--request-timeout', () => {
  it('200 bodies sent a byte a second are cut at the timeout with kube\'s 504, and their connections closed', async () => {
    const slow = Array.from({ length: 200 }, () => stalledPost(slowWriter, NS(), ns(uniq('slow'))));
    const trickle = setInterval(() => {
      for (const s of slow) if (!s.req.destroyed) s.req.write(' ');
    }, 1000);
    try {
      const answers = await Promise.all(slow.map((s) => s.response));
      for (const a of answers) {
        expect(a.status).toBe(504);
        expect(a.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(a.body).toBe(TIMEOUT_BODY);
        // Timed from the connection being up: 200 TLS handshakes at once take seconds on a
        // loaded machine, before the server has seen a byte of the request.
        expect(a.msConnected).toBeGreaterThan(1900);
        expect(a.msConnected).toBeLessThan(8000);
      }
      await Promise.all(slow.map((s) => s.closed));
    } finally {
      clearInterval(trickle);
    }
    // Their slots are free: writes go through again.
    expect((await http(t, 'POST', NS(), ns(uniq('next')))).status).toBe(201);
    expect(await metric(/^apiserver_request_terminations_total\{verb="POST",[^}]*code="504"\} (\d+)$/m, t)).toBe(200);
    // (The gauge is the highest count of the last second.)
    await expect.poll(() => metric(/^apiserver_current_inflight_requests\{request_kind="mutating"\} (\d+)$/m, t), { timeout: 5000 }).toBeLessThanOrEqual(1);
  });

  it('honours a shorter `timeout` parameter, and refuses a malformed one as kube does', async () => {
    const s = stalledPost(k, `${NS()}?timeout=500ms`, ns(uniq('short')));
    const a = await s.response;
    expect(a.status).toBe(504);
    expect(a.ms).toBeLessThan(1900);
    const bad = await http(k, 'GET', `${NS()}?timeout=xyz`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ reason: 'BadRequest', message: 'invalid timeout specified in the request URL - time: invalid duration "xyz"' });
  });

  it('a request waiting past the timeout (a resourceVersion that does not come) answers 504 at the timeout', async () => {
    const r = await request(k, 'GET', `${NS()}?resourceVersion=99999999&resourceVersionMatch=NotOlderThan&timeout=1s`);
    expect(r.status).toBe(504);
    expect(r.body).toBe(TIMEOUT_BODY);
  });

  it('a reader that never reads a large response is cut off at the timeout, and frees its slot', async () => {
    // A list of ~12 MB, far more than the kernel's socket buffers take.
    const big = 'x'.repeat(80_000);
    for (let i = 0; i < 150; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => http(t, 'POST', NS(), { metadata: { name: uniq(`big${i + j}`), annotations: { big } } })));
    }
    const readers = Array.from({ length: 2 }, () => openRequest(t, NS(), { noRead: true }));
    for (const r of readers) r.req.end();
    const heads = await Promise.all(readers.map((r) => r.response));
    expect(heads.map((h) => h.status)).toEqual([200, 200]);
    const length = Number(heads[0].headers['content-length']);
    expect(length).toBeGreaterThan(10_000_000);
    // Past the timeout the server has dropped what it had left to send (and the slot).
    await expect.poll(() => metric(/^apiserver_current_inflight_requests\{request_kind="readOnly"\} (\d+)$/m, t), { timeout: 6000 }).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 500));
    // When the reader reads at last, its response ends short, with a reset connection.
    const got = await Promise.all(
      heads.map(
        (h) =>
          new Promise<number>((resolve) => {
            let n = 0;
            h.res!.on('data', (d: Buffer) => (n += d.length));
            h.res!.on('error', () => resolve(n));
            h.res!.on('end', () => resolve(n));
            h.res!.resume();
          }),
      ),
    );
    for (const n of got) expect(n).toBeLessThan(length);
    expect((await http(t, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
  });
});

describe('fairness under a flood', () => {
  let f: KapiProcess;
  /** Each user is a flow of its own. */
  let flooder: KubeClient;
  let lights: KubeClient[];
  beforeAll(async () => {
    f = await startKapi({ args: ['--max-requests-inflight', '20', '--max-mutating-requests-inflight', '10'] });
    [flooder, ...lights] = await Promise.all([asUser(f, 'flooder'), ...Array.from({ length: 10 }, (_, i) => asUser(f, `light${i}`))]);
  });
  afterAll(async () => {
    await Promise.all([flooder, ...(lights ?? [])].map((c) => c?.close()));
    await f?.stop();
    if (f) await removeDir(f.dataDir);
  });

  it('freed slots go to the waiting flows in turn: a flooding client does not starve another', async () => {
    // The flooder holds every slot and has three more writes waiting; then a second user
    // asks for one.
    const held = Array.from({ length: 10 }, () => stalledPost(flooder, NS(), ns(uniq('flood'))));
    await expect.poll(() => metric(/^apiserver_current_inflight_requests\{request_kind="mutating"\} (\d+)$/m, f)).toBe(10);
    const order: string[] = [];
    const waiting = [1, 2, 3].map((i) => request(flooder, 'POST', NS(), ns(uniq('flood'))).then((r) => (order.push(`flood${i}`), r)));
    await expect.poll(() => metric(/^apiserver_current_inqueue_requests\{request_kind="mutating"\} (\d+)$/m, f)).toBe(3);
    const light = request(lights[0], 'POST', NS(), ns(uniq('light'))).then((r) => (order.push('light'), r));
    await expect.poll(() => metric(/^apiserver_current_inqueue_requests\{request_kind="mutating"\} (\d+)$/m, f)).toBe(4);
    // One slot frees: the flooder's turn, then the other client's, before the flooder's rest.
    held[0].finish();
    expect((await light).status).toBe(201);
    expect(order.indexOf('light')).toBeLessThanOrEqual(1);
    for (const h of held.slice(1)) h.finish();
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([201, 201, 201]);
    await Promise.all(held.map((h) => h.response));
  });

  it('ten clients at 5 requests/s keep >= 99% success while one client floods', async () => {
    let stop = false;
    const flood = { ok: 0, refused: 0, other: 0 };
    // The flooder: 100 writes always outstanding, as its own user. Writes wait for the
    // store, so they hold their slots; reads served from the cache hardly do.
    const flooding = Array.from({ length: 100 }, async () => {
      while (!stop) {
        // (Through the client's pool of kept-alive connections, as a real client floods.)
        const r = await http(flooder, 'POST', '/api/v1/namespaces', ns(uniq('flood'))).catch(() => undefined);
        if (r?.status === 201) flood.ok++;
        else if (r?.status === 429) {
          expect(r.headers.get('retry-after')).toBe('1');
          flood.refused++;
        } else flood.other++;
      }
    });
    await new Promise((r) => setTimeout(r, 500));
    const light = { ok: 0, failed: 0 };
    const latencies: number[] = [];
    const clients = Array.from({ length: 10 }, async (_, i) => {
      for (let n = 0; n < 20; n++) {
        const t0 = performance.now();
        const r = await http(lights[i], 'POST', '/api/v1/namespaces', ns(uniq(`light${i}`))).catch(() => undefined);
        latencies.push(performance.now() - t0);
        if (r?.status === 201) light.ok++;
        else light.failed++;
        await new Promise((res) => setTimeout(res, 200));
      }
    });
    await Promise.all(clients);
    stop = true;
    await Promise.all(flooding);
    expect(light.ok + light.failed).toBe(200);
    expect(light.ok / 200).toBeGreaterThanOrEqual(0.99);
    // The flood was refused above its share, and nothing failed otherwise.
    expect(flood.refused).toBeGreaterThan(0);
    expect(flood.other).toBe(0);
  });
});
