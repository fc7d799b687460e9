// The faults a replicated kapi cluster survives, each under live load through the balancer:
// a kapi node killed (-9) or paused (SIGSTOP), an etcd member killed or paused while a
// quorum remains, and the quorum lost and regained. Clients that retry on failure lose no
// acknowledged write, and a watch resumes on another node without a gap.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshRequest, openWatch, startCluster, type EtcdMember, type TestCluster, type WatchEventLine } from '../support/cluster.js';
import { probe } from '../../cluster/launcher.js';

const REQUEST_TIMEOUT_S = 3;
const FLAGS = [
  '--leader-elect-lease-duration', '3s',
  '--leader-elect-renew-deadline', '2s',
  '--leader-elect-retry-period', '500ms',
  '--etcd-request-timeout', `${REQUEST_TIMEOUT_S}s`,
];

let c: TestCluster;

beforeAll(async () => {
  c = await startCluster({ nodeFlags: FLAGS });
}, 120_000);

afterAll(async () => {
  await c?.cleanup();
}, 60_000);

const LEASES = (ns: string, name = ''): string => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;
const lease = (name: string): object => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'writer' } });

async function createNamespace(name: string): Promise<void> {
  const r = await freshRequest(c.balancerUrl, 'POST', '/api/v1/namespaces', { metadata: { name } });
  expect(r.status, r.text).toBe(201);
}

async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * A client creating objects one after another through the balancer, each on a new
 * connection, retrying a failed create until it is acknowledged (201, or 409 when an earlier
 * attempt that failed had in fact been applied).
 */
class Writer {
  readonly acked: { name: string; at: number; rv: string }[] = [];
  readonly failures: { at: number; why: string }[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(private readonly ns: string) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const name = `o${i}`;
      for (;;) {
        try {
          const r = await freshRequest(c.balancerUrl, 'POST', LEASES(this.ns), lease(name), 2000);
          if (r.status === 201 || (r.status === 409 && this.failures.length > 0)) {
            this.acked.push({ name, at: performance.now(), rv: r.json?.metadata?.resourceVersion ?? '' });
            break;
          }
          this.failures.push({ at: performance.now(), why: `${r.status} ${r.text.slice(0, 200)}` });
        } catch (e) {
          this.failures.push({ at: performance.now(), why: (e as Error).message });
        }
        if (this.stopped) return;
        await sleep(50);
      }
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  /** The longest time without an acknowledged write after `from`. */
  longestGapAfter(from: number): number {
    let last = from;
    let gap = 0;
    for (const a of this.acked) {
      if (a.at < from) continue;
      gap = Math.max(gap, a.at - last);
      last = a.at;
    }
    return gap;
  }

  /** Every acknowledged object is there, read consistently through the balancer. */
  async expectNothingLost(): Promise<void> {
    const r = await freshRequest(c.balancerUrl, 'GET', LEASES(this.ns));
    expect(r.status, r.text).toBe(200);
    const stored = new Set((r.json.items as { metadata: { name: string } }[]).map((x) => x.metadata.name));
    expect(this.acked.filter((a) => !stored.has(a.name)).map((a) => a.name)).toEqual([]);
  }
}

/** GETs through the balancer, each on a new connection with a 1 s timeout, every 50 ms. */
class Reader {
  readonly failures: number[] = [];
  readonly successes: number[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor() {
    this.done = (async () => {
      while (!this.stopped) {
        const t = performance.now();
        try {
          const r = await freshRequest(c.balancerUrl, 'GET', '/api/v1/namespaces/default', undefined, 1000);
          (r.status === 200 ? this.successes : this.failures).push(t);
        } catch {
          this.failures.push(t);
        }
        await sleep(50);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

/** A watch that, whenever its stream ends, reopens through the balancer from the last resourceVersion it saw. */
class ResumingWatch {
  readonly events: WatchEventLine[] = [];
  readonly restarts: string[] = [];
  private stopped = false;
  private current?: { close(): void };
  private readonly done: Promise<void>;

  constructor(path: string, firstBase: string, from: string) {
    this.done = (async () => {
      let base = firstBase;
      let rv = from;
      while (!this.stopped) {
        try {
          const w = await openWatch(base, `${path}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=false`);
          this.current = w;
          let seen = 0;
          const drain = (): void => {
            for (; seen < w.events.length; seen++) {
              const e = w.events[seen]!;
              if (e.type === 'ERROR') throw new Error(`watch error: ${JSON.stringify(e.object)}`);
              this.events.push(e);
              rv = e.object.metadata.resourceVersion!;
            }
          };
          let over = false;
          void w.ended.then(() => (over = true));
          while (!this.stopped && !over) {
            await Promise.race([w.ended, sleep(50)]);
            drain();
          }
          drain();
          w.close();
        } catch (e) {
          if ((e as Error).message.startsWith('watch error')) throw e;
        }
        if (this.stopped) return;
        this.restarts.push(rv);
        base = c.balancerUrl;
        await sleep(100);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.close();
    await this.done;
  }
}

describe('a kapi node fails', () => {
  it('killed (-9): routed around at once, no acknowledged write lost, its watch resumes elsewhere, and it comes back', async () => {
    await createNamespace('kill-node');
    const victim = c.nodes[1]!;
    const start = (await freshRequest(c.balancerUrl, 'GET', LEASES('kill-node'))).json.metadata.resourceVersion as string;
    const watch = new ResumingWatch(LEASES('kill-node'), victim.url, start);
    const writer = new Writer('kill-node');
    const reader = new Reader();
    await sleep(1500);
    const t0 = performance.now();
    await victim.kill();
    await sleep(4000);
    await Promise.all([writer.stop(), reader.stop()]);
    const failuresAfter = reader.failures.filter((t) => t >= t0);
    // A refused connection is retried on another node by haproxy: none or nearly none fail,
    // and none later than 2 s after the kill.
    expect(failuresAfter.filter((t) => t > t0 + 2000)).toEqual([]);
    // A write's own latency adds to the gap; the bound leaves room for a loaded machine.
    expect(writer.longestGapAfter(t0)).toBeLessThan(3000);
    console.log(
      `node killed: ${failuresAfter.length} failed reads, the last ${failuresAfter.length ? Math.round(failuresAfter.at(-1)! - t0) : 0} ms after the kill; longest write pause ${Math.round(writer.longestGapAfter(t0))} ms`,
    );
    await writer.expectNothingLost();
    expect(watch.restarts.length).toBeGreaterThanOrEqual(1);
    await until('the watch to see every write', 10_000, async () => (watch.events.length >= writer.acked.length ? true : undefined));
    await watch.stop();
    const names = watch.events.map((e) => e.object.metadata.name);
    expect(watch.events.every((e) => e.type === 'ADDED')).toBe(true);
    expect(names).toEqual(writer.acked.map((a) => a.name));
    const rvs = watch.events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));

    // Restarted, it lists everything from etcd into its cache and is ready again. Its history
    // starts there: a watch from before gets kube's 410 (the client relists), as a restarted
    // kube-apiserver's watch cache answers.
    await victim.start();
    const mine = await freshRequest(victim.url, 'GET', `${LEASES('kill-node')}?resourceVersion=0`);
    expect((mine.json.items as unknown[]).length).toBe(writer.acked.length);
    const old = await openWatch(victim.url, `${LEASES('kill-node')}?watch=true&resourceVersion=${start}`);
    const [first] = await old.waitFor(1);
    old.close();
    expect(first?.type).toBe('ERROR');
    expect(first?.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
  }, 60_000);

  it('paused (SIGSTOP): out of rotation within 2 s, its watches resume elsewhere, back in once resumed', async () => {
    await createNamespace('pause-node');
    const victim = c.nodes[2]!;
    const start = (await freshRequest(c.balancerUrl, 'GET', LEASES('pause-node'))).json.metadata.resourceVersion as string;
    // One watch per node: round robin hands consecutive connections to consecutive nodes.
    const watches = [0, 1, 2].map(() => new ResumingWatch(LEASES('pause-node'), c.balancerUrl, start));
    await sleep(500);
    const writer = new Writer('pause-node');
    const reader = new Reader();
    await sleep(1000);
    const t0 = performance.now();
    victim.pause();
    await sleep(5000);
    await reader.stop();
    // Requests sent to it before haproxy saw it fail hang until cut; none started later than 2 s.
    const late = reader.failures.filter((t) => t > t0 + 2000).map((t) => Math.round(t - t0));
    expect(late).toEqual([]);
    const failed = reader.failures.filter((t) => t >= t0);
    console.log(
      `node paused: ${failed.length} failed reads, the last started ${failed.length ? Math.round(failed.at(-1)! - t0) : 0} ms after the pause; longest write pause ${Math.round(writer.longestGapAfter(t0))} ms`,
    );
    victim.resume();
    await until('the node to be ready again', 10_000, async () => ((await victim.ready()) ? true : undefined));
    await sleep(1500);
    await writer.stop();
    await writer.expectNothingLost();
    // The balancer cut the watch on the paused node; it went on elsewhere from where it was.
    expect(watches.filter((w) => w.restarts.length > 0).length).toBeGreaterThanOrEqual(1);
    for (const w of watches) {
      await until('each watch to see every write', 10_000, async () => (w.events.length >= writer.acked.length ? true : undefined));
      await w.stop();
      expect(w.events.map((e) => e.object.metadata.name)).toEqual(writer.acked.map((a) => a.name));
    }
  }, 60_000);
});

describe('an etcd member fails while a quorum remains', () => {
  for (const fault of ['killed', 'paused'] as const) {
    it(`${fault}: writes and consistent reads go on after a short pause, nothing acknowledged is lost`, async () => {
      const ns = `etcd-${fault}`;
      await createNamespace(ns);
      const victim = (await c.etcdLeader())!;
      expect(victim).toBeDefined();
      const writer = new Writer(ns);
      await sleep(1000);
      const t0 = performance.now();
      if (fault === 'killed') await victim.kill();
      else victim.pause();
      await sleep(6000);
      const gap = writer.longestGapAfter(t0);
      // An election (about 1 s with etcd's defaults) plus the nodes moving off the member.
      expect(gap).toBeLessThan(5000);
      const afterFault = writer.acked.filter((a) => a.at > t0 + gap).length;
      expect(afterFault).toBeGreaterThan(10);
      const consistent = await freshRequest(c.balancerUrl, 'GET', LEASES(ns));
      expect(consistent.status).toBe(200);
      if (fault === 'killed') await victim.start();
      else victim.resume();
      await writer.stop();
      await writer.expectNothingLost();
      console.log(`etcd leader ${fault}: longest write pause ${Math.round(gap)} ms, ${writer.failures.length} failed attempts`);
    }, 60_000);
  }
});

describe('the etcd quorum is lost', () => {
  it('writes fail within the request timeout, /readyz fails, resourceVersion=0 reads go on, and all recovers', async () => {
    await createNamespace('quorum');
    expect((await freshRequest(c.balancerUrl, 'POST', LEASES('quorum'), lease('before'))).status).toBe(201);
    const [a, b] = c.etcd as [EtcdMember, EtcdMember];
    await Promise.all([a.kill(), b.kill()]);

    // A write: kube's answer to an etcd timeout (500, etcd's words, no reason), in time. The
    // balancer cuts requests in flight on a node it takes out of rotation (here: every node,
    // not ready without a quorum); a client that retries is answered by a node serving as a
    // backup.
    let w: Awaited<ReturnType<typeof freshRequest>> | undefined;
    let took = 0;
    const deadline = performance.now() + 20_000;
    while (!w && performance.now() < deadline) {
      const t0 = performance.now();
      try {
        w = await freshRequest(c.balancerUrl, 'POST', LEASES('quorum'), lease('during'), 20_000);
      } catch {
        await sleep(100);
      }
      took = performance.now() - t0;
    }
    if (!w) throw new Error('no answer to a write without a quorum');
    expect(w.status, w.text).toBe(500);
    expect(w.json).toMatchObject({ kind: 'Status', status: 'Failure', code: 500 });
    expect(w.json.reason).toBeUndefined();
    expect(w.json.message).toMatch(/etcdserver: request timed out|context deadline exceeded|Unavailable/);
    // The answer's words say which etcd call ran out of time, should this ever take longer.
    expect(took, `answered after ${Math.round(took)} ms: ${w.text}`).toBeLessThan((REQUEST_TIMEOUT_S + 1) * 1000);

    // Every node reports it is not ready (the etcd checks), but stays alive; the balancer's
    // check port says so too (500: DOWN, not the 404 of a draining node).
    for (const [i, n] of c.nodes.entries()) {
      const r = await until(`${n.name} to fail readiness`, 10_000, async () => {
        const x = await freshRequest(n.url, 'GET', '/readyz?verbose', undefined, 5000);
        return x.status === 500 ? x : undefined;
      });
      expect(r.text).toContain('[-]etcd failed');
      expect(r.text).toContain('[-]etcd-readiness failed');
      expect((await freshRequest(n.url, 'GET', '/livez', undefined, 5000)).status).toBe(200);
      const check = await probe(`http://127.0.0.1:${c.layout.nodes[i]!.checkPort}/`, 5000);
      expect(check?.status).toBe(500);
      expect(check?.body).toMatch(/^not ready: .*\betcd\b/);
    }
    // The caches still answer resourceVersion=0, through the balancer too.
    // (Reads through the balancer are sent again when it cuts them while it moves between the
    // nodes and their backups, as a client's retry would.)
    const cached = await until('a cached read through the balancer', 10_000, () => freshRequest(c.balancerUrl, 'GET', `${LEASES('quorum')}?resourceVersion=0`, undefined, 5000));
    expect(cached.status, cached.text).toBe(200);
    expect((cached.json.items as { metadata: { name: string } }[]).map((x) => x.metadata.name)).toEqual(['before']);
    // A consistent read cannot be served.
    const consistent = await until('a consistent read through the balancer', 30_000, () => freshRequest(c.balancerUrl, 'GET', LEASES('quorum', 'before'), undefined, 20_000));
    expect(consistent.status).toBe(500);

    // The quorum returns: everything recovers without help.
    await Promise.all([a.start(), b.start()]);
    const t1 = performance.now();
    await until('a write to succeed again', 30_000, async () =>
      (await freshRequest(c.balancerUrl, 'POST', LEASES('quorum'), lease('after'), 5000)).status === 201 ? true : undefined,
    );
    const recovered = performance.now() - t1;
    for (const n of c.nodes) await until(`${n.name} to be ready`, 15_000, async () => ((await n.ready()) ? true : undefined));
    const list = await until('a list through the balancer', 10_000, () => freshRequest(c.balancerUrl, 'GET', LEASES('quorum')));
    // The failed write may still have been applied (an answer that is an error is not a no):
    // what an etcd member had accepted before it lost its quorum can commit once it returns.
    const names = (list.json.items as { metadata: { name: string } }[]).map((x) => x.metadata.name);
    expect(names.filter((n) => n !== 'during').sort()).toEqual(['after', 'before']);
    console.log(`quorum lost: write failed after ${Math.round(took)} ms; writes back ${Math.round(recovered)} ms after the members restarted`);
  }, 90_000);
});
