// Watch semantics as kube-apiserver 1.33 serves them from its watch cache: the three start
// modes, a resourceVersion older than the history (200, then one ERROR event holding a 410
// Expired Status), one newer than the cache (accepted at once, events once the cache passes
// it), selector transitions, bookmarks, timeouts, the deprecated /watch/ paths and the
// option checks of ListOptions.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  STS,
  expectCode,
  expectFailure,
  expiredWatchEvent,
  expectInvalid,
  http,
  ns,
  pc,
  sleep,
  sts,
  uniq,
  WatchStream,
  type KapiProcess,
  type Obj,
} from './helpers.js';

/** The bookmark period the main server runs with (KAPI_WATCH_BOOKMARK_INTERVAL_MS). */
const BOOKMARK_MS = 400;

let k: KapiProcess;

beforeAll(async () => {
  const saved = process.env.KAPI_WATCH_BOOKMARK_INTERVAL_MS;
  process.env.KAPI_WATCH_BOOKMARK_INTERVAL_MS = String(BOOKMARK_MS);
  try {
    // A node without background writes (the controller lease renewed every 2 s, the identity
    // lease every 10 s): the bookmark tests count bookmarks on an idle node.
    k = await startKapi({ args: ['--leader-elect=false', '--identity-lease-renew-interval-seconds', '3600'] });
  } finally {
    if (saved === undefined) delete process.env.KAPI_WATCH_BOOKMARK_INTERVAL_MS;
    else process.env.KAPI_WATCH_BOOKMARK_INTERVAL_MS = saved;
  }
});

afterAll(() => stopKapi(k));

/** A watch on the server under test (see WatchStream: arrival times, end of stream). */
const Watch = { open: (path: string, headers: Record<string, string> = {}) => WatchStream.open(k, path, headers) };

const show = (e: { type: string; object: Obj }): string => `${e.type} ${e.object?.metadata?.name ?? ''}@${e.object?.metadata?.resourceVersion ?? ''}`;
const rvOf = (o: Obj): number => Number(o.metadata.resourceVersion);

async function freshNamespace(prefix: string): Promise<string> {
  const name = uniq(prefix);
  expectCode(await http(k, 'POST', NS(), ns(name)), 201);
  return name;
}

const create = async (n: string, name: string, labels?: Record<string, string>): Promise<Obj> =>
  expectCode(await http(k, 'POST', STS(n), sts(name, { labels })), 201);

async function relabel(n: string, name: string, labels: Record<string, string>): Promise<Obj> {
  const cur = expectCode(await http(k, 'GET', STS(n, name)), 200);
  cur.metadata.labels = labels;
  return expectCode(await http(k, 'PUT', STS(n, name), cur), 200);
}

async function scale(n: string, name: string, replicas: number): Promise<Obj> {
  const cur = expectCode(await http(k, 'GET', STS(n, name)), 200);
  cur.spec.replicas = replicas;
  return expectCode(await http(k, 'PUT', STS(n, name), cur), 200);
}

const listRv = async (path: string): Promise<number> => rvOf(expectCode(await http(k, 'GET', path), 200));

// ---------------------------------------------------------------------------------------

describe('start modes', () => {
  it('resourceVersion unset: the current state as ADDED (consistent: includes a write just acknowledged), then changes', async () => {
    const n = await freshNamespace('wsu');
    const a = await create(n, 'a');
    const b = await create(n, 'b');
    const w = await Watch.open(`${STS(n)}?watch=true`);
    try {
      expect(w.status).toBe(200);
      expect(w.headers?.get('content-type')).toBe('application/json');
      expect(w.headers?.get('transfer-encoding')).toBe('chunked');
      const initial = await w.changes(2);
      expect(initial.map((e) => e.type)).toStrictEqual(['ADDED', 'ADDED']);
      const byName = Object.fromEntries(initial.map((e) => [e.object.metadata.name, e.object]));
      expect(byName.a).toStrictEqual(a);
      expect(byName.b).toStrictEqual(b);
      const c = await create(n, 'c');
      const [, , added] = await w.changes(3);
      expect(added.type).toBe('ADDED');
      expect(added.object).toStrictEqual(c);
    } finally {
      w.close();
    }
  });

  it('resourceVersion=0: the current state as ADDED, then changes', async () => {
    const n = await freshNamespace('ws0');
    const x = await create(n, 'x');
    const w = await Watch.open(`${STS(n)}?watch=true&resourceVersion=0`);
    try {
      const [e] = await w.changes(1);
      expect(e.type).toBe('ADDED');
      expect(e.object).toStrictEqual(x);
      const y = await scale(n, 'x', 4);
      const [, m] = await w.changes(2);
      expect(m.type).toBe('MODIFIED');
      expect(m.object).toStrictEqual(y);
    } finally {
      w.close();
    }
  });

  it('resourceVersion=N: exactly the changes after N, in order, without synthetic ADDED', async () => {
    const n = await freshNamespace('wsn');
    const first = await create(n, 'one');
    const two = await create(n, 'two');
    const oneScaled = await scale(n, 'one', 2);
    expectCode(await http(k, 'DELETE', STS(n, 'two')), 200);
    const w = await Watch.open(`${STS(n)}?watch=true&resourceVersion=${first.metadata.resourceVersion}`);
    try {
      const evs = await w.changes(3);
      expect(evs.map(show)).toStrictEqual([
        `ADDED two@${two.metadata.resourceVersion}`,
        `MODIFIED one@${oneScaled.metadata.resourceVersion}`,
        expect.stringMatching(/^DELETED two@[0-9]+$/),
      ]);
      expect(rvOf(evs[2].object)).toBeGreaterThan(rvOf(oneScaled));
      // The last state of a deleted object, at the deletion's resourceVersion.
      expect(evs[2].object.metadata.uid).toBe(two.metadata.uid);
      await sleep(200);
      expect(w.events.length).toBe(3);
    } finally {
      w.close();
    }
  });

  it('resourceVersion=N of a list: nothing until the next change', async () => {
    const n = await freshNamespace('wsl');
    await create(n, 'old');
    const rv = await listRv(STS(n));
    const w = await Watch.open(`${STS(n)}?watch=true&resourceVersion=${rv}`);
    try {
      await sleep(300);
      expect(w.events).toStrictEqual([]);
      const nu = await create(n, 'new');
      const [e] = await w.changes(1);
      expect(show(e)).toBe(`ADDED new@${nu.metadata.resourceVersion}`);
    } finally {
      w.close();
    }
  });

  it('resourceVersion newer than the cache: 200 at once, no events (nor bookmarks) until the cache passes it', async () => {
    // cacher.go waits for freshness only for sendInitialEvents; a plain watch is established
    // at once and gets what comes after its resourceVersion.
    const n = await freshNamespace('wsf');
    const ahead = (await listRv(STS(n))) + 3;
    const t0 = Date.now();
    const w = await Watch.open(`${STS(n)}?watch=true&allowWatchBookmarks=true&resourceVersion=${ahead}`);
    try {
      expect(w.status).toBe(200);
      expect(Date.now() - t0).toBeLessThan(2000);
      const made: Obj[] = [];
      for (let i = 0; made.length === 0 || rvOf(made[made.length - 1]) <= ahead; i++) {
        made.push(await create(n, `o${i}`));
        if (rvOf(made[made.length - 1]) <= ahead) await sleep(BOOKMARK_MS + 100);
      }
      const past = made[made.length - 1];
      const [e] = await w.changes(1);
      expect(show(e)).toBe(`ADDED ${past.metadata.name}@${past.metadata.resourceVersion}`);
      // Before it, nothing older than `ahead`: at most the one bookmark at exactly `ahead`
      // that kube's cache_watcher.go lets through (process(): a bookmark equal to the start).
      const before = w.events.slice(0, w.events.indexOf(e));
      expect(before.every((x) => x.type === 'BOOKMARK' && rvOf(x.object) === ahead)).toBe(true);
      expect(before.length).toBeLessThanOrEqual(1);
    } finally {
      w.close();
    }
  });

  it('resourceVersion not a number: 400 with the parse error', async () => {
    const w = await Watch.open(`${STS('default')}?watch=true&resourceVersion=12x`);
    expect(w.status).toBe(400);
    expect(JSON.parse(w.errorBody)).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'resourceVersion: Invalid value: "12x": strconv.ParseUint: parsing "12x": invalid syntax',
      reason: 'BadRequest',
      code: 400,
    });
  });
});

describe('resourceVersion older than the history', () => {
  let old: KapiProcess;

  beforeAll(async () => {
    old = await startKapi({ args: ['--watch-history', '1s'] });
  });

  afterAll(async () => {
    await old?.stop();
    if (old) await removeDir(old.dataDir);
  });

  it('200, then one ERROR event with the 410 Expired Status "too old resource version: N (M)", then the end', async () => {
    const n = uniq('wso');
    expectCode(await http(old, 'POST', NS(), ns(n)), 201);
    const a = expectCode(await http(old, 'POST', STS(n), sts('a')), 201);
    const b = expectCode(await http(old, 'POST', STS(n), sts('b')), 201);
    // The history keeps 1 s; trimming runs every second.
    await sleep(2600);
    const res = await old.fetch(`${STS(n)}?watch=true&resourceVersion=${a.metadata.resourceVersion}`, { signal: AbortSignal.timeout(5000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines.length, text).toBe(1);
    expect(JSON.parse(lines[0])).toStrictEqual(expiredWatchEvent(a.metadata.resourceVersion, b.metadata.resourceVersion));
    // The oldest revision the history starts after is still a valid start, and a list's too.
    for (const fromList of [false, true]) {
      const from = fromList ? rvOf(expectCode(await http(old, 'GET', STS(n)), 200)) : b.metadata.resourceVersion;
      const r = await old.fetch(`${STS(n)}?watch=true&resourceVersion=${from}&timeoutSeconds=2`);
      expect(r.status).toBe(200);
      const c = expectCode(await http(old, 'POST', STS(n), sts(uniq('c'))), 201);
      const body = await r.text();
      const evs = body
        .split('\n')
        .filter((l) => l)
        .map((l) => JSON.parse(l) as { type: string; object: Obj });
      expect(evs.map(show)).toStrictEqual([`ADDED ${c.metadata.name}@${c.metadata.resourceVersion}`]);
    }
  });
});

describe('selectors', () => {
  it('labelSelector: leaving the selection is DELETED with the previous state at the new resourceVersion; entering is ADDED', async () => {
    const n = await freshNamespace('wss');
    await create(n, 'red', { color: 'red' });
    const w = await Watch.open(`${STS(n)}?watch=true&labelSelector=color%3Dblue&resourceVersion=0`);
    try {
      const blue = await create(n, 'sky', { color: 'blue' });
      const green = await relabel(n, 'sky', { color: 'green' });
      await scale(n, 'sky', 5); // outside the selection: nothing
      const back = await relabel(n, 'sky', { color: 'blue' });
      const redScaled = await scale(n, 'red', 2); // never selected: nothing
      void redScaled;
      const rescaled = await scale(n, 'sky', 1);
      expectCode(await http(k, 'DELETE', STS(n, 'sky')), 200);
      const evs = await w.changes(5);
      expect(evs.map((e) => e.type)).toStrictEqual(['ADDED', 'DELETED', 'ADDED', 'MODIFIED', 'DELETED']);
      expect(evs[0].object).toStrictEqual(blue);
      // The last state the watcher could see (labels blue, replicas as created) at the
      // resourceVersion of the update that moved it out.
      expect(evs[1].object).toStrictEqual({ ...blue, metadata: { ...blue.metadata, resourceVersion: green.metadata.resourceVersion } });
      expect(evs[2].object).toStrictEqual(back);
      expect(evs[2].object.spec.replicas).toBe(5);
      expect(evs[3].object).toStrictEqual(rescaled);
      expect(rvOf(evs[4].object)).toBeGreaterThan(rvOf(rescaled));
      await sleep(200);
      expect(w.events.length).toBe(5);
    } finally {
      w.close();
    }
  });

  it('fieldSelector metadata.name on the collection watches one object', async () => {
    const n = await freshNamespace('wsfn');
    await create(n, 'x');
    await create(n, 'y');
    const w = await Watch.open(`${STS(n)}?watch=true&fieldSelector=metadata.name%3Dx`);
    try {
      await scale(n, 'y', 2);
      const x2 = await scale(n, 'x', 2);
      const evs = await w.changes(2);
      expect(evs.map((e) => `${e.type} ${e.object.metadata.name}`)).toStrictEqual(['ADDED x', 'MODIFIED x']);
      expect(evs[1].object).toStrictEqual(x2);
    } finally {
      w.close();
    }
  });
});

describe('deprecated /watch/ paths (still served in 1.33)', () => {
  const W = (n: string, name = ''): string => `/apis/apps/v1/watch/namespaces/${n}/statefulsets${name ? '/' + name : ''}`;

  it('/watch/namespaces/<ns>/statefulsets is a watch of the collection', async () => {
    const n = await freshNamespace('wlp');
    await create(n, 'a');
    const w = await Watch.open(W(n));
    try {
      expect(w.status).toBe(200);
      const [e] = await w.changes(1);
      expect(`${e.type} ${e.object.metadata.name}`).toBe('ADDED a');
      const b = await create(n, 'b');
      const [, e2] = await w.changes(2);
      expect(e2.object).toStrictEqual(b);
    } finally {
      w.close();
    }
  });

  it('/watch/namespaces/<ns>/statefulsets/<name> watches that object; a matching fieldSelector is allowed', async () => {
    const n = await freshNamespace('wlo');
    await create(n, 'a');
    await create(n, 'b');
    let replicas = 2;
    for (const path of [W(n, 'a'), `${W(n, 'a')}?fieldSelector=metadata.name%3Da`, `${W(n, 'a')}?fieldSelector=metadata.name%3D%3Da`]) {
      const w = await Watch.open(path);
      try {
        expect(w.status, w.errorBody).toBe(200);
        const [e] = await w.changes(1);
        expect(`${e.type} ${e.object.metadata.name}`).toBe('ADDED a');
        replicas++;
        await scale(n, 'b', replicas);
        const a3 = await scale(n, 'a', replicas);
        const [, m] = await w.changes(2);
        expect(m.type).toBe('MODIFIED');
        expect(m.object).toStrictEqual(a3);
        expect(w.events.filter((x) => x.object.metadata.name !== 'a')).toStrictEqual([]);
      } finally {
        w.close();
      }
    }
  });

  it('cluster-wide and cluster-scoped /watch/ paths', async () => {
    const pname = uniq('wpc');
    const w1 = await Watch.open(`/apis/scheduling.k8s.io/v1/watch/priorityclasses/${pname}`);
    const since = await listRv('/apis/apps/v1/statefulsets');
    const w2 = await Watch.open(`/apis/apps/v1/watch/statefulsets?resourceVersion=${since}`);
    try {
      const p = expectCode(await http(k, 'POST', PC(), pc(pname, 7)), 201);
      const [e] = await w1.changes(1);
      expect(e.type).toBe('ADDED');
      expect(e.object).toStrictEqual(p);
      const n = await freshNamespace('wlc');
      const s = await create(n, 'any');
      const [e2] = await w2.changes(1);
      expect(e2.object).toStrictEqual(s);
    } finally {
      w1.close();
      w2.close();
    }
  });

  it('a fieldSelector that contradicts the name in the path is 400', async () => {
    const n = await freshNamespace('wlx');
    for (const fs of ['metadata.name%3Db', 'metadata.name!%3Da', `metadata.namespace%3D${n}`]) {
      const r = await http(k, 'GET', `${W(n, 'a')}?fieldSelector=${fs}`);
      expectFailure(r, { code: 400, reason: 'BadRequest', message: "fieldSelector metadata.name doesn't match requested name" });
    }
  });

  it('GET of a named path with ?watch=true is a plain get, as kube routes it', async () => {
    const n = await freshNamespace('wlg');
    const a = await create(n, 'a');
    const r = await http(k, 'GET', `${STS(n, 'a')}?watch=true`);
    expect(r.status).toBe(200);
    expect(r.json).toStrictEqual(a);
  });
});

/**
 * Runs `fn` while other writes (PriorityClasses) move the node's revision on, as a busy
 * cluster's do: kube sends a bookmark only when its revision passed the watcher's position
 * (or, once, when it equals it).
 */
async function whileNodeBusy<T>(fn: () => Promise<T>): Promise<T> {
  let stop = false;
  const names: string[] = [];
  const writer = (async () => {
    while (!stop) {
      const name = uniq('busy');
      names.push(name);
      await http(k, 'POST', PC(), pc(name, 1));
      await sleep(100);
    }
  })();
  try {
    return await fn();
  } finally {
    stop = true;
    await writer;
    for (const name of names) await http(k, 'DELETE', PC(name));
  }
}

describe('bookmarks', () => {
  it('allowWatchBookmarks=true: periodic BOOKMARKs with only kind, apiVersion and metadata.resourceVersion', async () => {
    const n = await freshNamespace('wbk');
    const a = await create(n, 'a');
    const w = await Watch.open(`${STS(n)}?watch=true&allowWatchBookmarks=true`);
    try {
      await whileNodeBusy(async () => {
      expect(await w.until((evs) => evs.filter((e) => e.type === 'BOOKMARK').length >= 2, 4000)).toBe(true);
      const bms = w.events.filter((e) => e.type === 'BOOKMARK');
      for (const bm of bms) {
        expect(Object.keys(bm.object)).toStrictEqual(['kind', 'apiVersion', 'metadata']);
        expect(bm.object.kind).toBe('StatefulSet');
        expect(bm.object.apiVersion).toBe('apps/v1');
        expect(Object.keys(bm.object.metadata)).toStrictEqual(['resourceVersion']);
        expect(rvOf(bm.object)).toBeGreaterThanOrEqual(rvOf(a));
      }
      // Roughly one per interval (timers on a loaded machine may run late, never early).
      expect(bms[1].at - bms[0].at).toBeGreaterThanOrEqual(BOOKMARK_MS / 2);
      // After a change, the next bookmark is at least at its resourceVersion.
      const b = await create(n, 'b');
      const seen = w.events.length;
      expect(await w.until((evs) => evs.slice(seen).some((e) => e.type === 'BOOKMARK'), 4000)).toBe(true);
      const next = w.events.slice(seen).find((e) => e.type === 'BOOKMARK')!;
      expect(rvOf(next.object)).toBeGreaterThanOrEqual(rvOf(b));
      });
    } finally {
      w.close();
    }
  });

  it('never ahead of what was delivered: no change arrives after a bookmark at or past its resourceVersion', async () => {
    const n = await freshNamespace('wbo');
    const w = await Watch.open(`${STS(n)}?watch=true&allowWatchBookmarks=true&resourceVersion=0`);
    try {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        writes.push(create(n, `o${i}`));
        if (i % 4 === 3) await sleep(60);
      }
      await Promise.all(writes);
      expect(await w.until((evs) => evs.filter((e) => e.type === 'ADDED').length >= 40, 8000)).toBe(true);
      await sleep(BOOKMARK_MS + 200);
      let bookmarkRv = 0;
      let bookmarksSeen = 0;
      for (const e of w.events) {
        if (e.type === 'BOOKMARK') {
          expect(rvOf(e.object)).toBeGreaterThanOrEqual(bookmarkRv);
          bookmarkRv = rvOf(e.object);
          bookmarksSeen++;
        } else {
          expect(rvOf(e.object), `${show(e)} after a bookmark at ${bookmarkRv}`).toBeGreaterThan(bookmarkRv);
        }
      }
      expect(bookmarksSeen).toBeGreaterThan(0);
    } finally {
      w.close();
    }
  });

  it('on an idle node, one bookmark at the start position and no more', async () => {
    const n = await freshNamespace('wbi');
    await create(n, 'a');
    const w = await Watch.open(`${STS(n)}?watch=true&allowWatchBookmarks=true`);
    try {
      await sleep(BOOKMARK_MS * 3 + 300);
      expect(w.events.map((e) => e.type)).toStrictEqual(['ADDED', 'BOOKMARK']);
    } finally {
      w.close();
    }
  });

  it('the last bookmark comes 2 s before the deadline; the stream then ends at timeoutSeconds', async () => {
    const n = await freshNamespace('wbt');
    const w = await Watch.open(`${STS(n)}?watch=true&allowWatchBookmarks=true&timeoutSeconds=4`);
    try {
      expect(await whileNodeBusy(() => w.waitEnd(8000))).toBe(true);
      const bms = w.events.filter((e) => e.type === 'BOOKMARK');
      expect(bms.length).toBeGreaterThan(1);
      const last = bms[bms.length - 1];
      // cache_watcher.go nextBookmarkTime: every interval, the last one at deadline - 2 s
      // (here 2 s after the start), none in the last 2 s.
      expect(last.at).toBeGreaterThanOrEqual(2000 - 2 * BOOKMARK_MS);
      expect(w.endedAt).toBeGreaterThanOrEqual(3900);
      expect(w.endedAt - last.at).toBeGreaterThan(1500);
    } finally {
      w.close();
    }
  });

  it('without allowWatchBookmarks there are none', async () => {
    const n = await freshNamespace('wbn');
    await create(n, 'a');
    const w = await Watch.open(`${STS(n)}?watch=true&allowWatchBookmarks=false`);
    try {
      await w.changes(1);
      await sleep(BOOKMARK_MS * 2 + 200);
      expect(w.events.map((e) => e.type)).toStrictEqual(['ADDED']);
    } finally {
      w.close();
    }
  });
});

describe('timeouts', () => {
  it('timeoutSeconds ends the stream cleanly', async () => {
    const n = await freshNamespace('wto');
    const w = await Watch.open(`${STS(n)}?watch=true&timeoutSeconds=1`);
    try {
      expect(await w.waitEnd(4000)).toBe(true);
      expect(w.endedAt).toBeGreaterThanOrEqual(900);
    } finally {
      w.close();
    }
  });

  it('timeoutSeconds=0 means the default (between --min-request-timeout and twice it)', async () => {
    const n = await freshNamespace('wt0');
    const w = await Watch.open(`${STS(n)}?watch=true&timeoutSeconds=0`);
    try {
      await sleep(1200);
      expect(w.ended).toBe(false);
      const a = await create(n, 'late');
      const [e] = await w.changes(1);
      expect(e.object).toStrictEqual(a);
    } finally {
      w.close();
    }
  });
});

describe('options', () => {
  it('resourceVersionMatch without sendInitialEvents is 422', async () => {
    const r = await http(k, 'GET', `${STS('default')}?watch=true&resourceVersionMatch=NotOlderThan`);
    expectInvalid(r, {
      kind: 'ListOptions',
      group: 'meta.k8s.io',
      name: '',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      causes: [
        {
          reason: 'FieldValueForbidden',
          field: 'resourceVersionMatch',
          message: 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        },
      ],
    });
  });

  it('sendInitialEvents without resourceVersionMatch is 422 with both causes', async () => {
    const r = await http(k, 'GET', `${STS('default')}?watch=true&sendInitialEvents=true`);
    expectInvalid(r, {
      kind: 'ListOptions',
      group: 'meta.k8s.io',
      name: '',
      message:
        'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled]',
      causes: [
        {
          reason: 'FieldValueForbidden',
          field: 'resourceVersionMatch',
          message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        },
        {
          reason: 'FieldValueForbidden',
          field: 'sendInitialEvents',
          message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        },
      ],
    });
  });

  it('checked in kube\'s order: selector syntax (400), then options (422), then field labels and the name (400)', async () => {
    const syntax = await http(k, 'GET', `${STS('default')}?watch=true&sendInitialEvents=true&labelSelector=a%20b%20c`);
    expect(syntax.status, syntax.text).toBe(400);
    const options = await http(k, 'GET', `/apis/apps/v1/watch/namespaces/default/statefulsets/a?sendInitialEvents=true&fieldSelector=spec.x%3Dy`);
    expect(options.status, options.text).toBe(422);
    const label = await http(k, 'GET', `/apis/apps/v1/watch/namespaces/default/statefulsets/a?fieldSelector=spec.x%3Dy`);
    expect(label.status, label.text).toBe(400);
    expect((label.json as Obj).reason).toBe('BadRequest');
    expect((label.json as Obj).message).toContain('"spec.x" is not a known field selector');
  });

  it('Accept: application/yaml has no stream framing: 406 listing the watch media types', async () => {
    const r = await http(k, 'GET', `${STS('default')}?watch=true`, undefined, { accept: 'application/yaml' });
    expect(r.status).toBe(406);
    expect(r.headers.get('content-type')).toBe('application/yaml');
    expect(r.text).toContain(
      'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    );
  });
});
