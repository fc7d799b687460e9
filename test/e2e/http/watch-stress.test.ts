// Watch under load: 10,000 acknowledged changes (creates, updates and deletes of
// PriorityClasses, 16 writers at a time) while three watchers run, one over a WebSocket and
// one that disconnects midway and resumes from the last resourceVersion it saw. Every
// watcher must see every change exactly once, in commit order. Then a watcher that stops
// reading: it must not slow the writer or the other watchers, and once too far behind its
// stream ends; it resumes from its last resourceVersion and misses nothing.

import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, PC, STS, expectCode, http, ns, pc, sleep, sts, uniq, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

interface Ev {
  type: string;
  object: Obj;
}

/** A watch over chunked HTTP that collects events until closed. */
class HttpWatch {
  readonly events: Ev[] = [];
  ended = false;
  private readonly ac = new AbortController();
  private done!: Promise<void>;

  static async open(path: string): Promise<HttpWatch> {
    const w = new HttpWatch();
    const res = await k.fetch(path, { signal: w.ac.signal });
    expect(res.status).toBe(200);
    w.done = w.pump(res.body!);
    return w;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buf += dec.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line) this.events.push(JSON.parse(line) as Ev);
        }
      }
    } catch {
      // aborted
    } finally {
      this.ended = true;
    }
  }

  async close(): Promise<void> {
    this.ac.abort();
    await this.done;
  }
}

/** The same over a WebSocket (one text message per event). */
class WsWatch {
  readonly events: Ev[] = [];
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.events.push(JSON.parse(data.toString('utf8')) as Ev));
    ws.on('error', () => undefined);
  }

  static open(path: string): Promise<WsWatch> {
    return new Promise((resolve, reject) => {
      const ws = k.webSocket(path, [], { headers: { Origin: 'http://localhost' } });
      const w = new WsWatch(ws);
      ws.once('open', () => resolve(w));
      ws.once('error', reject);
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

async function waitFor(what: string, pred: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const rvOf = (o: Obj): number => Number(o.metadata.resourceVersion);

interface Ack {
  name: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** Unknown for deletes: the Status a PriorityClass delete answers carries none. */
  rv?: number;
  description?: string;
}

/**
 * Checks that `events` are exactly the acknowledged changes: resourceVersions strictly
 * increasing, and for every object its events are its acknowledged operations in order
 * (creates and updates at the acknowledged resourceVersion, each delete between the
 * operations around it).
 */
function checkExactlyOnceInOrder(label: string, events: Ev[], acks: Map<string, Ack[]>, total: number): void {
  expect(events.length, `${label}: event count`).toBe(total);
  let prev = 0;
  for (const e of events) {
    const rv = rvOf(e.object);
    if (!(rv > prev)) throw new Error(`${label}: resourceVersion ${rv} after ${prev} (${e.type} ${e.object.metadata.name})`);
    prev = rv;
  }
  const byName = new Map<string, Ev[]>();
  for (const e of events) {
    const name = e.object.metadata.name as string;
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    list.push(e);
  }
  expect(new Set(byName.keys()), `${label}: objects`).toStrictEqual(new Set(acks.keys()));
  for (const [name, want] of acks) {
    const got = byName.get(name)!;
    expect(got.map((e) => e.type), `${label}: ${name}`).toStrictEqual(want.map((a) => a.type));
    for (let i = 0; i < want.length; i++) {
      const a = want[i];
      const rv = rvOf(got[i].object);
      if (a.rv !== undefined) {
        expect(rv, `${label}: ${name} #${i}`).toBe(a.rv);
        expect(got[i].object.description, `${label}: ${name} #${i}`).toBe(a.description);
      } else {
        const before = i > 0 ? want[i - 1].rv! : 0;
        const after = i + 1 < want.length ? want[i + 1].rv! : Infinity;
        expect(rv > before && rv < after, `${label}: ${name} delete #${i} at ${rv} not in (${before}, ${after})`).toBe(true);
      }
    }
  }
}

describe('watch under load', () => {
  it('10,000 changes with 16 writers: three watchers (HTTP, WebSocket, one resuming) see each exactly once, in order', async () => {
    const TOTAL = 10_000;
    const WRITERS = 16;
    const NAMES = 256;
    const prefix = uniq('st');
    const startRv = rvOf(expectCode(await http(k, 'GET', PC()), 200));
    const from = `${PC()}?watch=true&resourceVersion=${startRv}`;

    const a = await HttpWatch.open(from);
    const b = await WsWatch.open(from);
    let c = await HttpWatch.open(from);
    const cEvents: Ev[] = [];

    const acks = new Map<string, Ack[]>();
    let claimed = 0;
    let completed = 0;
    const t0 = Date.now();
    const writer = async (w: number): Promise<void> => {
      const names: { name: string; step: number; obj?: Obj }[] = [];
      for (let i = w; i < NAMES; i += WRITERS) names.push({ name: `${prefix}-${i}`, step: 0 });
      for (let turn = 0; claimed < TOTAL; turn++) {
        claimed++;
        const slot = names[turn % names.length];
        const list = acks.get(slot.name) ?? [];
        acks.set(slot.name, list);
        // Per object: create, update, update, delete, create, ...
        const op = slot.step % 4;
        slot.step++;
        if (op === 0) {
          const body = pc(slot.name, 1000 + w, { description: `created ${turn}` });
          slot.obj = expectCode(await http(k, 'POST', PC(), body), 201);
          list.push({ name: slot.name, type: 'ADDED', rv: rvOf(slot.obj), description: slot.obj.description });
        } else if (op === 3) {
          expectCode(await http(k, 'DELETE', PC(slot.name)), 200);
          list.push({ name: slot.name, type: 'DELETED' });
        } else {
          const body = { ...slot.obj!, description: `update ${turn}.${op}` };
          slot.obj = expectCode(await http(k, 'PUT', PC(slot.name), body), 200);
          list.push({ name: slot.name, type: 'MODIFIED', rv: rvOf(slot.obj), description: slot.obj.description });
        }
        completed++;
      }
    };
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

    // Watcher c drops its connection midway and resumes from the last resourceVersion it saw.
    await waitFor('c to be midway', () => c.events.length >= 3000 || completed >= TOTAL / 2, 60_000);
    await c.close();
    cEvents.push(...c.events);
    await sleep(300);
    const resumeFrom = rvOf(cEvents[cEvents.length - 1].object);
    c = await HttpWatch.open(`${PC()}?watch=true&resourceVersion=${resumeFrom}`);

    await writers;
    const wroteMs = Date.now() - t0;
    expect(completed).toBe(TOTAL);
    await waitFor('every watcher to catch up', () => a.events.length >= TOTAL && b.events.length >= TOTAL && cEvents.length + c.events.length >= TOTAL, 30_000);
    await sleep(300);
    await a.close();
    b.close();
    await c.close();
    cEvents.push(...c.events);

    checkExactlyOnceInOrder('http', a.events, acks, TOTAL);
    checkExactlyOnceInOrder('websocket', b.events, acks, TOTAL);
    checkExactlyOnceInOrder('resumed', cEvents, acks, TOTAL);
    console.log(`10,000 changes in ${wroteMs} ms (${Math.round((TOTAL * 1000) / wroteMs)}/s); c resumed at ${resumeFrom}`);
  }, 120_000);

  it('a watcher that stops reading never slows the writer or other watchers; too far behind, its stream ends and it resumes', async () => {
    const n = uniq('slow');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    const big = (i: number): string => `${i}-`.padEnd(200 * 1024, 'x');
    const body = sts('big');
    body.metadata.annotations = { blob: big(0) };
    let cur = expectCode(await http(k, 'POST', STS(n), body), 201);
    const from = rvOf(cur);

    const fast = await HttpWatch.open(`${STS(n)}?watch=true&resourceVersion=${from}`);
    const slow = await RawWatch.open(`${STS(n)}?watch=true&resourceVersion=${from}`);

    // ~40 MB of events: more than the bound (16 MiB) plus what the kernel buffers hold.
    const UPDATES = 200;
    const rvs: number[] = [];
    const t0 = Date.now();
    for (let i = 1; i <= UPDATES; i++) {
      cur.metadata.annotations.blob = big(i);
      cur = expectCode(await http(k, 'PUT', STS(n, 'big'), cur), 200);
      rvs.push(rvOf(cur));
    }
    const writeMs = Date.now() - t0;
    await waitFor('the reading watcher to get every update', () => fast.events.length >= UPDATES, 30_000);
    const fastLagMs = Date.now() - t0 - writeMs;
    expect(fast.events.map((e) => rvOf(e.object))).toStrictEqual(rvs);
    // The writer went at its own pace: nothing waited for the stalled reader.
    expect(writeMs).toBeLessThan(30_000);
    expect(fastLagMs).toBeLessThan(5_000);

    // The stalled reader reads again: a prefix of the changes in order, then the end.
    const first = await slow.drain(20_000);
    expect(first.ended).toBe(true);
    const got = first.events.map((e) => rvOf(e.object));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(UPDATES);
    expect(got).toStrictEqual(rvs.slice(0, got.length));

    // It resumes from the last resourceVersion it saw and gets the rest, exactly once.
    const resumed = await HttpWatch.open(`${STS(n)}?watch=true&resourceVersion=${got[got.length - 1]}`);
    await waitFor('the resumed watcher', () => resumed.events.length >= UPDATES - got.length, 20_000);
    await sleep(200);
    await resumed.close();
    await fast.close();
    expect([...got, ...resumed.events.map((e) => rvOf(e.object))]).toStrictEqual(rvs);
    expect((await http(k, 'GET', '/readyz')).status).toBe(200);
    console.log(`slow watcher: ${UPDATES} updates of 200 KiB in ${writeMs} ms; the stalled watcher got ${got.length} before its stream ended`);
  }, 120_000);
});

/**
 * A watch over a raw TCP connection that is paused right after the request (the kernel
 * buffers fill, then the server's), then drained: the chunked body decoded into events.
 */
class RawWatch {
  private chunks: Buffer[] = [];
  private ended = false;
  private holding = true;

  private constructor(private readonly sock: Socket) {}

  static open(path: string): Promise<RawWatch> {
    return new Promise((resolve, reject) => {
      const sock = k.connect(() => {
        sock.write(`GET ${path} HTTP/1.1\r\nHost: ${k.host}\r\n\r\n`);
        const w = new RawWatch(sock);
        sock.on('data', (d: Buffer) => {
          w.chunks.push(d);
          // Read the headers, then stop reading.
          if (w.holding && Buffer.concat(w.chunks).includes('\r\n\r\n')) sock.pause();
        });
        sock.on('close', () => (w.ended = true));
        sock.on('error', () => (w.ended = true));
        resolve(w);
      });
      sock.on('error', reject);
    });
  }

  /** Reads until the server ends the response (or closes), then decodes what arrived. */
  async drain(timeoutMs: number): Promise<{ ended: boolean; events: Ev[] }> {
    this.holding = false;
    this.sock.resume();
    const deadline = Date.now() + timeoutMs;
    const isComplete = (): boolean => Buffer.concat(this.chunks).includes('\r\n0\r\n\r\n');
    while (!this.ended && !isComplete() && Date.now() < deadline) await sleep(50);
    const ended = this.ended || isComplete();
    this.sock.destroy();
    const raw = Buffer.concat(this.chunks);
    const head = raw.indexOf('\r\n\r\n');
    expect(raw.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
    // De-chunk; a torn last chunk (a dropped connection) keeps only whole lines.
    let off = head + 4;
    const body: Buffer[] = [];
    while (off < raw.length) {
      const eol = raw.indexOf('\r\n', off);
      if (eol < 0) break;
      const size = parseInt(raw.subarray(off, eol).toString(), 16);
      if (!(size > 0)) break;
      body.push(raw.subarray(eol + 2, Math.min(raw.length, eol + 2 + size)));
      off = eol + 2 + size + 2;
    }
    const text = Buffer.concat(body).toString('utf8');
    const lines = text.split('\n');
    lines.pop(); // empty after the last newline, or a torn line
    return { ended, events: lines.filter((l) => l).map((l) => JSON.parse(l) as Ev) };
  }
}
