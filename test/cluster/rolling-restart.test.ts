// A rolling restart of the kapi nodes through the balancer, each node stopped with SIGTERM as
// kube-apiserver is in a rolling update: /readyz fails at once, the balancer takes the node
// out of rotation during --shutdown-delay-duration, requests in flight finish, and the node
// comes back. Every request is answered without an error, and every write acknowledged is
// stored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { freshRequest, startCluster, type TestCluster } from '../support/cluster.js';

let c: TestCluster;
let stoppedAt = 0;

beforeAll(async () => {
  // The delay outlasts the balancer's check (two failed /readyz 250 ms apart, plus a check's
  // own time on a loaded machine).
  c = await startCluster({ etcdMembers: 1, nodeFlags: ['--shutdown-delay-duration', '3s'] });
}, 120_000);

afterAll(async () => {
  await c?.cleanup();
}, 60_000);

const LEASES = (ns: string): string => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;

/**
 * A client sending one request after another through the balancer. A request that got no
 * answer at all (its connection cut) is sent again, as client-go does; a create sent again
 * that answers 409 had been applied. An answer that is an error is never retried: it fails.
 */
class Client {
  readonly ok: string[] = [];
  /** Requests answered with an error status: each one is a lost request. */
  readonly failed: string[] = [];
  /** Requests whose connection was cut before an answer (sent again). */
  readonly cut: string[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly id: string,
    private readonly ns: string,
  ) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const name = `${this.id}-${i}`;
      const write = i % 2 === 0;
      for (let attempt = 0; ; attempt++) {
        let r;
        try {
          r = write
            ? await freshRequest(c.balancerUrl, 'POST', LEASES(this.ns), { metadata: { name }, spec: { holderIdentity: this.id } }, 10_000)
            : await freshRequest(c.balancerUrl, 'GET', `/api/v1/namespaces/${this.ns}`, undefined, 10_000);
        } catch (e) {
          this.cut.push(`${write ? 'POST' : 'GET'} ${name}: ${(e as Error).message} ${Math.round(performance.now() - stoppedAt)} ms after a stop began`);
          if (attempt < 5) continue;
          this.failed.push(`${write ? 'POST' : 'GET'} ${name}: no answer after ${attempt + 1} attempts`);
          break;
        }
        if (r.status === (write ? 201 : 200) || (write && attempt > 0 && r.status === 409)) {
          if (write) this.ok.push(name);
        } else this.failed.push(`${write ? 'POST' : 'GET'} ${name}: ${r.status} ${r.text.slice(0, 200)}`);
        break;
      }
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

describe('a rolling restart of the kapi nodes', () => {
  it('loses no request: each one answered, each acknowledged write stored', async () => {
    const ns = 'rolling';
    expect((await freshRequest(c.balancerUrl, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    const clients = Array.from({ length: 4 }, (_, i) => new Client(`c${i}`, ns));
    await sleep(1000);
    const t0 = performance.now();
    for (const n of c.nodes) {
      stoppedAt = performance.now();
      await n.stop();
      console.log(`stopped in ${Math.round(performance.now() - stoppedAt)} ms`);
      await n.start();
      // Back in rotation (two passed checks) before the next one goes.
      await sleep(1500);
    }
    const took = performance.now() - t0;
    await Promise.all(clients.map((x) => x.stop()));
    const failed = clients.flatMap((x) => x.failed);
    const cut = clients.flatMap((x) => x.cut);
    const acked = clients.flatMap((x) => x.ok);
    console.log(`rolling restart of ${c.nodes.length} nodes in ${Math.round(took)} ms: ${acked.length} writes acknowledged, ${failed.length} failed, ${cut.length} cut and sent again`, cut);
    // No error answer (no 5xx, no 429), nothing lost. A request can still be cut without an
    // answer: haproxy ends the sessions of a node it marks down (on-marked-down
    // shutdown-sessions, which takes a paused node's watches away from it), and a request in
    // flight on a stopping node at that instant goes with them; sent again, it is answered.
    expect(failed).toEqual([]);
    expect(acked.length).toBeGreaterThan(20);
    const list = await freshRequest(c.balancerUrl, 'GET', LEASES(ns));
    const stored = new Set((list.json.items as { metadata: { name: string } }[]).map((x) => x.metadata.name));
    expect(acked.filter((n) => !stored.has(n))).toEqual([]);
  }, 180_000);
});
