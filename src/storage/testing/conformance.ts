// The one behavioural contract both storage backends are held to. Every case runs
// against a fresh Storage from the factory; the very first factory call must yield an
// empty store (later ones may share data: each case writes under its own prefix).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import type { KeyValue, Storage, TxnResult, WatchEvent, WatchHandler } from '../interface.js';

export type StorageFactory = () => Promise<{ storage: Storage; cleanup: () => Promise<void> }>;

const buf = (s: string): Buffer => Buffer.from(s, 'utf8');
const text = (b: Buffer | undefined): string | undefined => b?.toString('utf8');

async function until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

class Collector implements WatchHandler {
  events: WatchEvent[] = [];
  errors: Error[] = [];
  progress: number[] = [];
  /** For each progress call: how many events had been delivered when it came. */
  deliveredAtProgress: number[] = [];
  batches = 0;
  onEvents(events: WatchEvent[]): void {
    this.batches++;
    this.events.push(...events);
  }
  onError(err: Error): void {
    this.errors.push(err);
  }
  onProgress(revision: number): void {
    this.progress.push(revision);
    this.deliveredAtProgress.push(this.events.length);
  }
  revs(): number[] {
    return this.events.map((e) => e.modRevision);
  }
  lastRev(): number {
    return this.events.length ? this.events[this.events.length - 1]!.modRevision : 0;
  }
}

async function expectStorageError(p: Promise<unknown>, code: 'Compacted' | 'FutureRevision'): Promise<Error> {
  try {
    await p;
  } catch (err) {
    expect(isStorageError(err, code), `expected StorageError ${code}, got ${String(err)}`).toBe(true);
    return err as Error;
  }
  throw new Error(`expected StorageError ${code}, but the call succeeded`);
}

export function runStorageConformance(name: string, factory: StorageFactory): void {
  describe(`storage conformance: ${name}`, { timeout: 30_000 }, () => {
    let s: Storage;
    let cleanup: () => Promise<void>;
    let seq = 0;
    /** A prefix no other case writes under (the store may be shared between cases). */
    let p = '';

    beforeEach(async () => {
      ({ storage: s, cleanup } = await factory());
      p = `/conformance/${++seq}-${Date.now().toString(36)}/`;
    });
    afterEach(async () => {
      await cleanup();
    });

    const create = (key: string, value: string): Promise<TxnResult> =>
      s.txn({ key, expectModRevision: 0, op: { type: 'put', value: buf(value) } });
    const update = (key: string, mod: number, value: string): Promise<TxnResult> =>
      s.txn({ key, expectModRevision: mod, op: { type: 'put', value: buf(value) } });
    const del = (key: string, mod: number): Promise<TxnResult> =>
      s.txn({ key, expectModRevision: mod, op: { type: 'delete' } });
    const simple = (kv: KeyValue | null): unknown =>
      kv && { key: kv.key, value: text(kv.value), createRevision: kv.createRevision, modRevision: kv.modRevision };

    it('starts empty at revision 1 and gives every write the next revision', async () => {
      expect(await s.currentRevision()).toBe(1);
      const all = await s.range('');
      expect(all.kvs).toEqual([]);
      expect(all.revision).toBe(1);

      const a = await create(`${p}a`, '1');
      const b = await create(`${p}b`, '1');
      const a2 = await update(`${p}a`, a.revision, '2');
      const bDel = await del(`${p}b`, b.revision);
      expect([a, b, a2, bDel].map((r) => [r.succeeded, r.revision])).toEqual([
        [true, 2],
        [true, 3],
        [true, 4],
        [true, 5],
      ]);
      expect(await s.currentRevision()).toBe(5);
    });

    it('puts, gets and deletes a key', async () => {
      const k = `${p}k`;
      expect(await s.get(k)).toBeNull();
      const r = await create(k, 'hello');
      expect(r.succeeded).toBe(true);
      expect(simple(r.current)).toEqual({ key: k, value: 'hello', createRevision: r.revision, modRevision: r.revision });
      expect(simple(await s.get(k))).toEqual(simple(r.current));
      const d = await del(k, r.revision);
      expect(d).toMatchObject({ succeeded: true, revision: r.revision + 1, current: null });
      expect(await s.get(k)).toBeNull();
      expect(await s.currentRevision()).toBe(d.revision);
    });

    it('compare-and-swaps on modRevision; a failure returns the current state and costs no revision', async () => {
      const k = `${p}cas`;
      const c = await create(k, 'v1');
      const u = await update(k, c.revision, 'v2');
      expect(u.succeeded).toBe(true);
      expect(simple(u.current)).toEqual({ key: k, value: 'v2', createRevision: c.revision, modRevision: u.revision });

      const before = await s.currentRevision();
      const stale = await update(k, c.revision, 'v3');
      expect(stale.succeeded).toBe(false);
      expect(stale.revision).toBe(before);
      expect(simple(stale.current)).toEqual(simple(u.current));
      expect(await s.currentRevision()).toBe(before);
      expect(text((await s.get(k))?.value)).toBe('v2');

      const missing = await update(`${p}nope`, 7, 'x');
      expect(missing).toMatchObject({ succeeded: false, revision: before, current: null });
      expect(await s.currentRevision()).toBe(before);
    });

    it('creates only if absent', async () => {
      const k = `${p}once`;
      const first = await create(k, 'first');
      const second = await create(k, 'second');
      expect(first.succeeded).toBe(true);
      expect(second.succeeded).toBe(false);
      expect(second.revision).toBe(first.revision);
      expect(simple(second.current)).toEqual(simple(first.current));
      expect(text((await s.get(k))?.value)).toBe('first');
    });

    it('deletes only with the right modRevision, never "if absent"', async () => {
      const k = `${p}d`;
      expect(await del(k, 0)).toMatchObject({ succeeded: false, current: null });
      const c = await create(k, 'x');
      const zero = await del(k, 0);
      expect(zero.succeeded).toBe(false);
      expect(simple(zero.current)).toEqual(simple(c.current));
      expect(zero.revision).toBe(c.revision);
      expect((await del(k, c.revision + 100)).succeeded).toBe(false);
      const d = await del(k, c.revision);
      expect(d).toMatchObject({ succeeded: true, revision: c.revision + 1, current: null });
      expect(await del(k, d.revision)).toMatchObject({ succeeded: false, current: null });

      // Re-created: a new life with a new createRevision.
      const again = await create(k, 'y');
      expect(again.current?.createRevision).toBe(again.revision);
      const up = await update(k, again.revision, 'z');
      expect(up.current?.createRevision).toBe(again.revision);
    });

    it('ranges over a prefix in byte order, without siblings that merely share characters', async () => {
      const keys = [`${p}a/b/Z`, `${p}a/b/_`, `${p}a/b/a`, `${p}a/b/a/deeper`, `${p}a/b`, `${p}a/b2`, `${p}a/b2/x`, `${p}a/c/1`, `${p}a/b.`];
      for (const k of keys) await create(k, k);
      const res = await s.range(`${p}a/b/`);
      expect(res.kvs.map((kv) => kv.key)).toEqual([`${p}a/b/Z`, `${p}a/b/_`, `${p}a/b/a`, `${p}a/b/a/deeper`]);
      expect(res.kvs.map((kv) => text(kv.value))).toEqual(res.kvs.map((kv) => kv.key));
      expect(res).toMatchObject({ more: false, remaining: 0, revision: await s.currentRevision() });
      expect((await s.range(`${p}a/`)).kvs).toHaveLength(keys.length);
      expect((await s.range(`${p}zzz/`)).kvs).toEqual([]);
    });

    it('pages with fromKey and limit, reporting more and remaining', async () => {
      const keys = Array.from({ length: 10 }, (_, i) => `${p}item-${String(i).padStart(2, '0')}`);
      for (const k of keys) await create(k, 'v');
      await create(`${p.slice(0, -1)}x/outside`, 'v');

      const page1 = await s.range(p, { limit: 3 });
      expect(page1.kvs.map((kv) => kv.key)).toEqual(keys.slice(0, 3));
      expect(page1).toMatchObject({ more: true, remaining: 7 });
      const rev = page1.revision;
      expect(rev).toBe(await s.currentRevision());

      // Writes after the first page must not leak into later pages read at its revision.
      await create(`${p}item-99`, 'late');
      const gone = await s.get(keys[5]!);
      await del(keys[5]!, gone!.modRevision);

      const seen = [...page1.kvs.map((kv) => kv.key)];
      let from = page1.kvs[page1.kvs.length - 1]!.key + '\x00';
      let remaining = page1.remaining;
      for (;;) {
        const page = await s.range(p, { fromKey: from, limit: 3, revision: rev });
        expect(page.revision).toBe(rev);
        seen.push(...page.kvs.map((kv) => kv.key));
        expect(page.remaining).toBe(remaining - page.kvs.length);
        expect(page.more).toBe(page.remaining > 0);
        remaining = page.remaining;
        if (!page.more) break;
        from = page.kvs[page.kvs.length - 1]!.key + '\x00';
      }
      expect(seen).toEqual(keys);

      const now = await s.range(p, { fromKey: keys[4] });
      expect(now.kvs.map((kv) => kv.key)).toEqual([...keys.slice(4, 5), ...keys.slice(6), `${p}item-99`]);
      const exact = await s.range(p, { limit: 11 });
      expect(exact).toMatchObject({ more: false, remaining: 0 });
      expect(exact.kvs).toHaveLength(10);
    });

    it('reads the state as of an older revision (MVCC)', async () => {
      const k1 = `${p}k1`;
      const k2 = `${p}k2`;
      const k3 = `${p}k3`;
      const r1 = (await create(k1, 'k1-v1')).revision;
      const r2 = (await create(k2, 'k2-v1')).revision;
      const r3 = (await update(k1, r1, 'k1-v2')).revision;
      const r4 = (await del(k2, r2)).revision;
      const r5 = (await create(k3, 'k3-v1')).revision;
      const at = async (rev: number): Promise<unknown> => {
        const res = await s.range(p, { revision: rev });
        expect(res.revision).toBe(rev);
        return res.kvs.map(simple);
      };
      expect(await at(r1 - 1)).toEqual([]);
      expect(await at(r1)).toEqual([{ key: k1, value: 'k1-v1', createRevision: r1, modRevision: r1 }]);
      expect(await at(r2)).toEqual([
        { key: k1, value: 'k1-v1', createRevision: r1, modRevision: r1 },
        { key: k2, value: 'k2-v1', createRevision: r2, modRevision: r2 },
      ]);
      expect(await at(r3)).toEqual([
        { key: k1, value: 'k1-v2', createRevision: r1, modRevision: r3 },
        { key: k2, value: 'k2-v1', createRevision: r2, modRevision: r2 },
      ]);
      expect(await at(r4)).toEqual([{ key: k1, value: 'k1-v2', createRevision: r1, modRevision: r3 }]);
      expect(await at(r5)).toEqual([
        { key: k1, value: 'k1-v2', createRevision: r1, modRevision: r3 },
        { key: k3, value: 'k3-v1', createRevision: r5, modRevision: r5 },
      ]);
      const old = await s.range(p, { revision: r3, limit: 1 });
      expect(old).toMatchObject({ more: true, remaining: 1 });
      await expectStorageError(s.range(p, { revision: (await s.currentRevision()) + 1 }), 'FutureRevision');
    });

    it('compacts history: older reads and watches fail, newer ones still work', async () => {
      const a = `${p}a`;
      const b = `${p}b`;
      const ra = (await create(a, 'a1')).revision;
      const rb = (await update(a, ra, 'a2')).revision;
      const rc = (await create(b, 'b1')).revision;
      const rd = (await del(b, rc)).revision;
      const re = (await update(a, rb, 'a3')).revision;

      await s.compact(rc);
      expect(await s.compactedRevision()).toBe(rc);

      const err = await expectStorageError(s.range(p, { revision: rc - 1 }), 'Compacted');
      expect(err).toMatchObject({ compactRevision: rc });
      expect((await s.range(p, { revision: rc })).kvs.map(simple)).toEqual([
        { key: a, value: 'a2', createRevision: ra, modRevision: rb },
        { key: b, value: 'b1', createRevision: rc, modRevision: rc },
      ]);
      expect((await s.range(p, { revision: rd })).kvs.map((kv) => kv.key)).toEqual([a]);
      expect((await s.range(p)).kvs.map(simple)).toEqual([
        { key: a, value: 'a3', createRevision: ra, modRevision: re },
      ]);
      expect(text((await s.get(a))?.value)).toBe('a3');

      const early = new Collector();
      s.watch(p, rc - 1, early);
      await until(() => early.errors.length > 0, 'Compacted watch error');
      expect(isStorageError(early.errors[0], 'Compacted')).toBe(true);
      expect(early.errors[0]).toMatchObject({ compactRevision: rc });
      expect(early.events).toEqual([]);

      const fromBound = new Collector();
      const w = s.watch(p, rc, fromBound);
      await until(() => fromBound.lastRev() >= re, 'events from the compaction bound');
      w.close();
      expect(fromBound.events.map((e) => [e.type, e.key, e.modRevision])).toEqual([
        ['put', b, rc],
        ['delete', b, rd],
        ['put', a, re],
      ]);

      await s.compact(rc - 1); // already behind the bound: nothing to do
      expect(await s.compactedRevision()).toBe(rc);
      await expectStorageError(s.compact((await s.currentRevision()) + 5), 'FutureRevision');

      // The store keeps working past a compaction.
      const more = await update(a, re, 'a4');
      expect(more).toMatchObject({ succeeded: true, revision: re + 1 });
      await s.compact(more.revision);
      expect((await s.range(p, { revision: more.revision })).kvs.map((kv) => text(kv.value))).toEqual(['a4']);
    });

    it('replays history then streams live, in order and exactly once, under concurrent writes', async () => {
      const other = `${p.slice(0, -1)}-other/`;
      const written = new Map<number, string>(); // revision -> key under p
      const write = async (i: number): Promise<void> => {
        const key = `${p}obj-${i}`;
        const r = await create(key, `value-${i}`);
        expect(r.succeeded).toBe(true);
        written.set(r.revision, key);
      };
      await Promise.all(Array.from({ length: 100 }, (_, i) => write(i)));
      const mid = [...written.keys()].sort((x, y) => x - y)[50]!;

      let waves = 0;
      const writer = (async () => {
        for (let wave = 0; wave < 10; wave++) {
          await Promise.all(
            Array.from({ length: 50 }, (_, j) => {
              const i = 1000 + wave * 50 + j;
              // Interleave writes the watch must not see.
              return j % 5 === 0 ? create(`${other}${i}`, 'x').then(() => undefined) : write(i);
            }),
          );
          waves++;
        }
      })();
      await until(() => waves >= 3, 'the first waves of writes');
      const c = new Collector();
      const w = s.watch(p, mid, c);
      await writer;

      const expected = [...written.keys()].filter((r) => r >= mid).sort((x, y) => x - y);
      const last = expected[expected.length - 1]!;
      await until(() => c.lastRev() >= last || c.errors.length > 0, 'all events');
      expect(c.errors).toEqual([]);
      expect(c.revs()).toEqual(expected);
      expect(c.events.map((e) => e.key)).toEqual(expected.map((r) => written.get(r)));
      for (const e of c.events) {
        expect(e.type).toBe('put');
        expect(e.createRevision).toBe(e.modRevision);
        expect(text(e.value)).toBe(`value-${e.key.slice(`${p}obj-`.length)}`);
      }

      // And it carries on live afterwards.
      const tail = await create(`${p}tail`, 'tail');
      await until(() => c.lastRev() >= tail.revision, 'the live tail event');
      expect(c.revs().slice(-2)).toEqual([last, tail.revision]);
      w.close();
    });

    it('watches only its prefix and reports deletes like etcd', async () => {
      const c = new Collector();
      const w = s.watch(`${p}a/`, (await s.currentRevision()) + 1, c);
      const inside = await create(`${p}a/1`, 'one');
      await create(`${p}a`, 'parent');
      await create(`${p}ab/1`, 'sibling');
      const up = await update(`${p}a/1`, inside.revision, 'two');
      const gone = await del(`${p}a/1`, up.revision);
      await until(() => c.lastRev() >= gone.revision, 'the delete event');
      w.close();
      expect(c.events.map((e) => ({ ...e, value: text(e.value) }))).toEqual([
        { type: 'put', key: `${p}a/1`, value: 'one', modRevision: inside.revision, createRevision: inside.revision },
        { type: 'put', key: `${p}a/1`, value: 'two', modRevision: up.revision, createRevision: inside.revision },
        { type: 'delete', key: `${p}a/1`, value: undefined, modRevision: gone.revision, createRevision: 0 },
      ]);
    });

    it('serves two watchers independently and stops delivering after close', async () => {
      const start = (await s.currentRevision()) + 1;
      const first = await create(`${p}1`, '1');
      const a = new Collector();
      const b = new Collector();
      const wa = s.watch(p, start, a);
      const wb = s.watch(p, first.revision + 1, b);
      const second = await create(`${p}2`, '2');
      await until(() => a.lastRev() >= second.revision && b.lastRev() >= second.revision, 'both watchers');
      expect(a.revs()).toEqual([first.revision, second.revision]);
      expect(b.revs()).toEqual([second.revision]);

      wa.close();
      const third = await create(`${p}3`, '3');
      await until(() => b.lastRev() >= third.revision, 'the open watcher');
      // The other watcher saw the write, so the closed one has had every chance to.
      await new Promise((r) => setTimeout(r, 50));
      expect(a.revs()).toEqual([first.revision, second.revision]);
      expect(b.revs()).toEqual([second.revision, third.revision]);
      wb.close();
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
    });

    it('reports watch progress on request, including writes outside the prefix', async () => {
      const c = new Collector();
      const w = s.watch(p, (await s.currentRevision()) + 1, c);
      const mine = await create(`${p}mine`, 'x');
      await until(() => c.lastRev() >= mine.revision, 'the event');
      const elsewhere = await create(`${p.slice(0, -1)}-elsewhere/k`, 'x');
      w.requestProgress();
      await until(() => c.progress.some((r) => r >= elsewhere.revision), `progress >= ${elsewhere.revision}`);
      expect(c.revs()).toEqual([mine.revision]);
      w.close();
    });

    it('answers a progress request made while replaying only once the replay is done', async () => {
      const results = await Promise.all(Array.from({ length: 300 }, (_, i) => create(`${p}r${i}`, 'x')));
      const revs = results.map((r) => r.revision).sort((x, y) => x - y);
      const outside = await create(`${p.slice(0, -1)}-outside/k`, 'x');
      const c = new Collector();
      const w = s.watch(p, revs[0]!, c);
      w.requestProgress();
      await until(() => c.progress.length > 0, 'a progress notification');
      expect(c.progress[0]).toBeGreaterThanOrEqual(outside.revision);
      // Everything up to the notified revision had been delivered before it.
      expect(c.deliveredAtProgress[0]).toBe(revs.length);
      expect(c.revs()).toEqual(revs);
      w.close();
    });

    it('lets exactly one of many concurrent CAS writers on one key win', async () => {
      const k = `${p}contended`;
      const c = await create(k, 'start');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => update(k, c.revision, `writer-${i}`)),
      );
      const winners = results.filter((r) => r.succeeded);
      expect(winners).toHaveLength(1);
      const win = winners[0]!;
      for (const r of results) {
        if (r.succeeded) continue;
        expect(simple(r.current)).toEqual(simple(win.current));
        expect(r.revision).toBeGreaterThanOrEqual(win.revision);
      }
      expect(await s.currentRevision()).toBe(win.revision);
    });

    it('commits many concurrent txns on different keys with distinct consecutive revisions', async () => {
      const r0 = await s.currentRevision();
      const n = 300;
      const results = await Promise.all(Array.from({ length: n }, (_, i) => create(`${p}many-${i}`, `v${i}`)));
      expect(results.every((r) => r.succeeded)).toBe(true);
      const revs = results.map((r) => r.revision).sort((x, y) => x - y);
      expect(revs).toEqual(Array.from({ length: n }, (_, i) => r0 + 1 + i));
      expect(await s.currentRevision()).toBe(r0 + n);
      const listed = await s.range(p);
      expect(listed.kvs).toHaveLength(n);
      for (const kv of listed.kvs) expect(text(kv.value)).toBe(`v${kv.key.slice(`${p}many-`.length)}`);
    });

    it('answers check()', async () => {
      expect(await s.check()).toBe(true);
    });
  });
}
