// Watch over HTTP: one JSON event per line ({"type":..., "object":...}), initial ADDED
// events when no resourceVersion is given, only later changes from a resourceVersion,
// selectors, timeouts, and the errors of bad watch parameters.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  STS,
  WatchStream,
  expectAlive,
  expectCode,
  http,
  ns,
  pc,
  sts,
  summary,
  uniq,
  type KapiProcess,
  type Obj,
} from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

async function freshNamespace(prefix: string): Promise<string> {
  const name = uniq(prefix);
  expectCode(await http(k, 'POST', NS(), ns(name)), 201);
  return name;
}

const create = async (namespace: string, name: string, labels?: Record<string, string>): Promise<Obj> =>
  expectCode(await http(k, 'POST', STS(namespace), sts(name, { labels })), 201);

describe('watch', () => {
  it('without a resourceVersion: ADDED for what exists, then ADDED, MODIFIED, DELETED in order', async () => {
    const n = await freshNamespace('w');
    await create(n, 'a');
    await create(n, 'b');
    const w = await WatchStream.open(k, `${STS(n)}?watch=true`);
    try {
      expect(w.status).toBe(200);
      expect(w.headers?.get('content-type')).toBe('application/json');
      const initial = await w.take(2);
      expect(initial.map((e) => e.type)).toStrictEqual(['ADDED', 'ADDED']);
      expect(initial.map((e) => e.object.metadata.name).sort()).toStrictEqual(['a', 'b']);
      for (const e of initial) {
        expect(e.object.kind).toBe('StatefulSet');
        expect(e.object.apiVersion).toBe('apps/v1');
      }

      const c = await create(n, 'c');
      const cur = structuredClone(c);
      cur.spec.replicas = 3;
      const updated = expectCode(await http(k, 'PUT', STS(n, 'c'), cur), 200);
      expectCode(await http(k, 'DELETE', STS(n, 'c')), 200);

      const later = await w.take(3);
      expect(later.map(summary)).toStrictEqual(['ADDED c', 'MODIFIED c', 'DELETED c']);
      expect(later[0].object.metadata.resourceVersion).toBe(c.metadata.resourceVersion);
      expect(later[1].object).toStrictEqual(updated);
      expect(later[2].object.spec.replicas).toBe(3);
      const rvs = later.map((e) => Number(e.object.metadata.resourceVersion));
      expect(rvs[0]).toBeLessThan(rvs[1]);
      expect(rvs[1]).toBeLessThan(rvs[2]);
      expect(await w.next(300)).toBeUndefined();
    } finally {
      w.close();
    }
  });

  it('from a resourceVersion: only the changes after it, no initial ADDED', async () => {
    const n = await freshNamespace('wrv');
    await create(n, 'old');
    const mid = await create(n, 'mid');
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&resourceVersion=${mid.metadata.resourceVersion}`);
    try {
      expect(w.status).toBe(200);
      await create(n, 'new');
      const [e] = await w.take(1);
      expect(summary(e)).toBe('ADDED new');
      expect(await w.next(300)).toBeUndefined();
    } finally {
      w.close();
    }
  });

  it('from an older resourceVersion: replays the changes made since', async () => {
    const n = await freshNamespace('wrp');
    const first = await create(n, 'one');
    await create(n, 'two');
    const cur = expectCode(await http(k, 'GET', STS(n, 'one')), 200);
    cur.metadata.labels = { x: 'y' };
    expectCode(await http(k, 'PUT', STS(n, 'one'), cur), 200);
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&resourceVersion=${first.metadata.resourceVersion}`);
    try {
      const evs = await w.take(2);
      expect(evs.map(summary)).toStrictEqual(['ADDED two', 'MODIFIED one']);
    } finally {
      w.close();
    }
  });

  it('resourceVersion=0 starts with ADDED events too', async () => {
    const n = await freshNamespace('w0');
    await create(n, 'x');
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&resourceVersion=0`);
    try {
      const [e] = await w.take(1);
      expect(summary(e)).toBe('ADDED x');
    } finally {
      w.close();
    }
  });

  it('fieldSelector=metadata.name=x sees only x', async () => {
    const n = await freshNamespace('wfs');
    await create(n, 'x');
    await create(n, 'y');
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&fieldSelector=metadata.name%3Dx`);
    try {
      const [e] = await w.take(1);
      expect(summary(e)).toBe('ADDED x');
      for (const name of ['y', 'x']) {
        const cur = expectCode(await http(k, 'GET', STS(n, name)), 200);
        cur.spec.replicas = 2;
        expectCode(await http(k, 'PUT', STS(n, name), cur), 200);
      }
      const [m] = await w.take(1);
      expect(summary(m)).toBe('MODIFIED x');
      expect(await w.next(300)).toBeUndefined();
    } finally {
      w.close();
    }
  });

  it('labelSelector filters; an object that stops matching is DELETED with its last matching content', async () => {
    const n = await freshNamespace('wls');
    await create(n, 'blue', { color: 'blue' });
    await create(n, 'red', { color: 'red' });
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&labelSelector=color%3Dblue`);
    try {
      const [e] = await w.take(1);
      expect(summary(e)).toBe('ADDED blue');
      const cur = expectCode(await http(k, 'GET', STS(n, 'blue')), 200);
      cur.metadata.labels = { color: 'green' };
      expectCode(await http(k, 'PUT', STS(n, 'blue'), cur), 200);
      const [d] = await w.take(1);
      expect(summary(d)).toBe('DELETED blue');
      // The cacher sends the previous object with the new resourceVersion.
      expect(d.object.metadata.labels).toStrictEqual({ color: 'blue' });
      expect(Number(d.object.metadata.resourceVersion)).toBeGreaterThan(Number(e.object.metadata.resourceVersion));
    } finally {
      w.close();
    }
  });

  it('a DELETE of an object with finalizers is MODIFIED; the update that empties them is DELETED', async () => {
    const n = await freshNamespace('wfin');
    const body = sts('held');
    body.metadata.finalizers = ['example.com/hold'];
    const o = expectCode(await http(k, 'POST', STS(n), body), 201);
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&resourceVersion=${o.metadata.resourceVersion}`);
    try {
      const marked = expectCode(await http(k, 'DELETE', STS(n, 'held')), 200);
      const [m] = await w.take(1);
      expect(summary(m)).toBe('MODIFIED held');
      expect(m.object.metadata.deletionTimestamp).toBe(marked.metadata.deletionTimestamp);
      marked.metadata.finalizers = [];
      expectCode(await http(k, 'PUT', STS(n, 'held'), marked), 200);
      const [d] = await w.take(1);
      expect(summary(d)).toBe('DELETED held');
    } finally {
      w.close();
    }
  });

  it('watches across namespaces and for cluster-scoped types', async () => {
    const n1 = await freshNamespace('wa');
    const n2 = await freshNamespace('wb');
    const since = expectCode(await http(k, 'GET', '/apis/apps/v1/statefulsets'), 200).metadata.resourceVersion;
    const w = await WatchStream.open(k, `/apis/apps/v1/statefulsets?watch=true&resourceVersion=${since}`);
    const pname = uniq('wpc');
    const wp = await WatchStream.open(k, `${PC()}?watch=true&fieldSelector=metadata.name%3D${pname}`);
    try {
      await create(n1, 's1');
      await create(n2, 's2');
      const evs = await w.take(2);
      expect(evs.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}`)).toStrictEqual([
        `ADDED ${n1}/s1`,
        `ADDED ${n2}/s2`,
      ]);
      expectCode(await http(k, 'POST', PC(), pc(pname, 5)), 201);
      const [p] = await wp.take(1);
      expect(summary(p)).toBe(`ADDED ${pname}`);
      expect(p.object.kind).toBe('PriorityClass');
    } finally {
      w.close();
      wp.close();
    }
  });

  it('timeoutSeconds ends the stream', async () => {
    const n = await freshNamespace('wto');
    const t0 = Date.now();
    const w = await WatchStream.open(k, `${STS(n)}?watch=true&timeoutSeconds=1`);
    try {
      expect(await w.next(4000)).toBeUndefined();
      const took = Date.now() - t0;
      expect(took).toBeGreaterThanOrEqual(900);
      expect(took).toBeLessThan(3900);
    } finally {
      w.close();
    }
  });

  it('sendInitialEvents is 422 (the WatchList gate is off in 1.33), answered at once', async () => {
    const path = `${STS('default')}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
    let res: Response;
    try {
      res = await k.fetch(path, { signal: AbortSignal.timeout(3000) });
    } catch (e) {
      throw new Error(`no answer within 3 s: ${(e as Error).message}`, { cause: e });
    }
    if (res.status !== 422) await res.body?.cancel();
    expect(res.status).toBe(422);
    const s = JSON.parse(await res.text()) as Obj;
    expect(s).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'ListOptions',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
            field: 'sendInitialEvents',
          },
        ],
      },
      code: 422,
    });
  });

  it('resourceVersion=abc is refused with the parse error as a 400 (kube 1.33 leaks it as a 500)', async () => {
    // kube-apiserver 1.33 passes the storage layer's InvalidError through unconverted, so its
    // Status has code 500 and no reason (kubernetes/kubernetes#101350, #139485). kapi never
    // answers 500 for bad input: same message, as the 400 BadRequest it is.
    const r = await http(k, 'GET', `${STS('default')}?watch=true&resourceVersion=abc`);
    expect(r.status, r.text).toBe(400);
    expect(r.json).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
      reason: 'BadRequest',
      code: 400,
    });
    await expectAlive(k);
  });
});
