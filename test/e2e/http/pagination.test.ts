// Chunked lists (limit/continue) over HTTP: every page of one list is one snapshot even
// while writers keep changing the collection, remainingItemCount follows kube's rules,
// selectors fill pages by reading further, and a token whose revision was compacted away
// is kube's 410 Expired with a fresh token that continues at the latest revision
// (apiserver/pkg/storage/etcd3: interpretListError / handleCompactedErrorForPaging).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi } from '../../support/server.js';
import { NS, eventually, expectCode, expectFailure, http, ns, sleep, uniq, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;
/** Compacts every second, so continue tokens expire within a test. */
let kc: KapiProcess;

const CR = (n: string, name = ''): string => `/apis/apps/v1/namespaces/${n}/controllerrevisions${name ? '/' + name : ''}`;
const cr = (name: string, labels?: Record<string, string>): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: labels ? { name, labels } : { name },
  data: {},
  revision: 1,
});
const names = (list: Obj): string[] => (list.items as Obj[]).map((o) => o.metadata.name as string);
const pad = (i: number): string => String(i).padStart(3, '0');

const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

const decodeToken = (t: string): Obj => JSON.parse(Buffer.from(t, 'base64url').toString('utf8')) as Obj;

async function createMany(server: KapiProcess, n: string, count: number, labels?: (i: number) => Record<string, string>): Promise<void> {
  for (let i = 0; i < count; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, (_, j) =>
        http(server, 'POST', CR(n), cr(`obj-${pad(i + j)}`, labels?.(i + j))).then((r) => expectCode(r, 201)),
      ),
    );
  }
}

/** Reads every page of `path` with `limit`, pausing between pages so concurrent writes land. */
async function pages(server: KapiProcess, path: string, limit: number, pauseMs = 0): Promise<Obj[]> {
  const sep = path.includes('?') ? '&' : '?';
  const out: Obj[] = [];
  let token = '';
  for (;;) {
    const r = await http(server, 'GET', `${path}${sep}limit=${limit}${token ? `&continue=${token}` : ''}`);
    const page = expectCode(r, 200);
    out.push(page);
    token = page.metadata.continue ?? '';
    if (!token) return out;
    if (pauseMs) await sleep(pauseMs);
  }
}

beforeAll(async () => {
  [k, kc] = await Promise.all([startKapi(), startKapi({ args: ['--etcd-compaction-interval', '1s'] })]);
});

afterAll(async () => {
  await Promise.all([k?.stop(), kc?.stop()]);
  if (k) await removeDir(k.dataDir);
  if (kc) await removeDir(kc.dataDir);
});

describe('pages are one snapshot', () => {
  it('300 objects paged by 7 while 8 writers create and delete others: the pages are exactly the list at the first page\'s revision', async () => {
    const n = uniq('pg');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    await createMany(k, n, 300, (i) => ({ grp: i % 2 === 0 ? 'even' : 'odd' }));

    let stop = false;
    let writes = 0;
    const writer = async (w: number): Promise<void> => {
      for (let seq = 0; !stop; seq++) {
        // Names interleave with the listed ones in key order (obj-123 < obj-123-w4-7 < obj-124).
        const name = `obj-${pad(Math.floor(Math.random() * 300))}-w${w}-${seq}`;
        expectCode(await http(k, 'POST', CR(n), cr(name)), 201);
        writes++;
        expectCode(await http(k, 'DELETE', CR(n, name)), 200);
        writes++;
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    await eventually('writers running', async () => writes > 20);

    const writesBefore = writes;
    const all = await pages(k, CR(n), 7, 5);
    const evenPages = await pages(k, `${CR(n)}?labelSelector=grp%3Deven`, 7, 5);
    const writesDuring = writes - writesBefore;
    stop = true;
    await Promise.all(writers);
    expect(writesDuring).toBeGreaterThan(20);

    // One revision for every page.
    const rv = all[0].metadata.resourceVersion as string;
    for (const p of all) expect(p.metadata.resourceVersion).toBe(rv);
    // Full pages but the last; remainingItemCount counts what the later pages hold.
    const items = all.flatMap((p) => p.items as Obj[]);
    let seen = 0;
    all.forEach((p, i) => {
      seen += p.items.length;
      if (i < all.length - 1) {
        expect(p.items).toHaveLength(7);
        expect(p.metadata.remainingItemCount).toBe(items.length - seen);
      } else {
        expect(p.items.length).toBeGreaterThan(0);
        expect(p.items.length).toBeLessThanOrEqual(7);
        expect(p.metadata.continue).toBeUndefined();
        expect(p.metadata.remainingItemCount).toBeUndefined();
      }
    });

    // The union is exactly the collection at that revision: nothing lost, nothing twice.
    const exact = expectCode(await http(k, 'GET', `${CR(n)}?resourceVersion=${rv}&resourceVersionMatch=Exact`), 200);
    expect(exact.metadata.resourceVersion).toBe(rv);
    const key = (o: Obj): string => `${o.metadata.name}@${o.metadata.resourceVersion}`;
    expect(items.map(key)).toStrictEqual((exact.items as Obj[]).map(key));
    expect(new Set(items.map((o) => o.metadata.name)).size).toBe(items.length);
    for (let i = 0; i < 300; i++) expect(items.some((o) => o.metadata.name === `obj-${pad(i)}`)).toBe(true);

    // With a selector: full pages but the last (which may come up short or empty), no
    // remainingItemCount, and again one snapshot.
    const erv = evenPages[0].metadata.resourceVersion as string;
    const evenItems = evenPages.flatMap((p) => p.items as Obj[]);
    evenPages.forEach((p, i) => {
      expect(p.metadata.resourceVersion).toBe(erv);
      expect(p.metadata.remainingItemCount).toBeUndefined();
      if (i < evenPages.length - 1) expect(p.items).toHaveLength(7);
    });
    const exactEven = expectCode(
      await http(k, 'GET', `${CR(n)}?resourceVersion=${erv}&resourceVersionMatch=Exact&labelSelector=grp%3Deven`),
      200,
    );
    expect(evenItems.map(key)).toStrictEqual((exactEven.items as Obj[]).map(key));
    expect(evenItems).toHaveLength(150);
  });
});

describe('remainingItemCount', () => {
  it('is given on every page but the last, and never with label or field selectors', async () => {
    const n = uniq('ric');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    await createMany(k, n, 10, (i) => ({ tier: i < 4 ? 'a' : 'b' }));

    const plain = await pages(k, CR(n), 4);
    expect(plain.map((p) => p.items.length)).toStrictEqual([4, 4, 2]);
    expect(plain.map((p) => p.metadata.remainingItemCount)).toStrictEqual([6, 2, undefined]);

    // A limit the collection fits in: no continue, no count.
    const whole = expectCode(await http(k, 'GET', `${CR(n)}?limit=10`), 200);
    expect(whole.items).toHaveLength(10);
    expect(whole.metadata.continue).toBeUndefined();
    expect(whole.metadata.remainingItemCount).toBeUndefined();
    // No limit: no count.
    expect(expectCode(await http(k, 'GET', CR(n)), 200).metadata.remainingItemCount).toBeUndefined();

    const byLabel = await pages(k, `${CR(n)}?labelSelector=tier%3Db`, 4);
    expect(byLabel.flatMap(names)).toStrictEqual(['obj-004', 'obj-005', 'obj-006', 'obj-007', 'obj-008', 'obj-009']);
    expect(byLabel[0].items).toHaveLength(4);
    for (const p of byLabel) expect(p.metadata.remainingItemCount).toBeUndefined();

    const byField = await pages(k, `${CR(n)}?fieldSelector=metadata.name!%3Dobj-001`, 4);
    expect(byField.flatMap(names)).toHaveLength(9);
    expect(byField[0].metadata.continue).toBeTruthy();
    for (const p of byField) expect(p.metadata.remainingItemCount).toBeUndefined();

    // Pages fill past non-matching objects: tier=a sits at the start, so one page holds all of it.
    const sparse = expectCode(await http(k, 'GET', `${CR(n)}?labelSelector=tier%3Da&limit=4`), 200);
    expect(names(sparse)).toStrictEqual(['obj-000', 'obj-001', 'obj-002', 'obj-003']);
    // A full page with keys after it has a next page, matching or not (kube's etcd3 store looks
    // no further); that page is empty and the last.
    expect(sparse.metadata.continue).toBeTruthy();
    const rest = expectCode(await http(k, 'GET', `${CR(n)}?labelSelector=tier%3Da&limit=4&continue=${encodeURIComponent(sparse.metadata.continue as string)}`), 200);
    expect(rest.items).toStrictEqual([]);
    expect(rest.metadata.continue).toBeUndefined();
  });
});

describe('expired continue tokens (--etcd-compaction-interval 1s)', () => {
  it('a token whose revision is compacted is 410 Expired with a fresh token continuing at the latest revision', async () => {
    const n = uniq('exp');
    expectCode(await http(kc, 'POST', NS(), ns(n)), 201);
    await createMany(kc, n, 8);
    const p1 = expectCode(await http(kc, 'GET', `${CR(n)}?limit=3`), 200);
    const rv = Number(p1.metadata.resourceVersion);
    const token = p1.metadata.continue as string;
    expect(names(p1)).toStrictEqual(['obj-000', 'obj-001', 'obj-002']);

    // History moves on: one object after the page goes, one arrives; then compaction passes rv.
    expectCode(await http(kc, 'DELETE', CR(n, 'obj-005')), 200);
    expectCode(await http(kc, 'POST', CR(n), cr('obj-100')), 201);
    await eventually(
      'compaction past the first page',
      async () => (await http(kc, 'GET', `${CR(n)}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status === 410,
      8000,
      200,
    );

    // Exact reads of a compacted revision.
    for (const q of [`resourceVersion=${rv}&resourceVersionMatch=Exact`, `resourceVersion=${rv}&limit=3`]) {
      expectFailure(await http(kc, 'GET', `${CR(n)}?${q}`), {
        code: 410,
        reason: 'Expired',
        message: 'The resourceVersion for the provided list is too old.',
      });
    }

    const r = await http(kc, 'GET', `${CR(n)}?limit=3&continue=${token}`);
    expect(r.status, r.text).toBe(410);
    const body = r.json as Obj;
    expect(body).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: { continue: expect.any(String) },
      status: 'Failure',
      message: INCONSISTENT_CONTINUE,
      reason: 'Expired',
      code: 410,
    });
    const fresh = body.metadata.continue as string;
    // The first page came from the watch cache, whose token is relative to the list's key
    // (`/name`); kube's etcd store mints the fresh one relative to its prefix (`name`).
    expect(decodeToken(fresh)).toStrictEqual({ v: 'meta.k8s.io/v1', rv: -1, start: (decodeToken(token).start as string).replace(/^\//, '') });

    // The fresh token continues from the same key at the latest revision (an inconsistent list).
    const q2 = expectCode(await http(kc, 'GET', `${CR(n)}?limit=3&continue=${fresh}`), 200);
    const latest = Number(q2.metadata.resourceVersion);
    expect(latest).toBeGreaterThan(rv);
    expect(names(q2)).toStrictEqual(['obj-003', 'obj-004', 'obj-006']);
    expect(q2.metadata.remainingItemCount).toBe(2);
    expect(decodeToken(q2.metadata.continue as string).rv).toBe(latest);
    const q3 = expectCode(await http(kc, 'GET', `${CR(n)}?limit=3&continue=${q2.metadata.continue}`), 200);
    expect(q3.metadata.resourceVersion).toBe(String(latest));
    expect(names(q3)).toStrictEqual(['obj-007', 'obj-100']);
    expect(q3.metadata.continue).toBeUndefined();
  });

  it('a token from before the history window expires with time alone (two compaction intervals)', async () => {
    const n = uniq('exp2');
    expectCode(await http(kc, 'POST', NS(), ns(n)), 201);
    await createMany(kc, n, 4);
    const p1 = expectCode(await http(kc, 'GET', `${CR(n)}?limit=2`), 200);
    // Any later write moves the store past the token's revision.
    expectCode(await http(kc, 'POST', NS(), ns(uniq('bump'))), 201);
    await sleep(2500);
    await eventually(
      'the token to expire',
      async () => (await http(kc, 'GET', `${CR(n)}?limit=2&continue=${p1.metadata.continue}`)).status === 410,
      5000,
      200,
    );
  });
});
