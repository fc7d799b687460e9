// Consistent reads ask the store for its current revision with a quorum read; requests that
// arrive while one is in flight share the next one, never one that started before them (that
// answer could predate a write they saw acknowledged), so a burst costs at most two reads.

import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { RegistryWatch } from '../../../src/cache/registry-watch.js';
import type { Storage, StorageWatch, WatchHandler } from '../../../src/storage/interface.js';

/** A store whose revision reads are answered by hand, one at a time. */
function fakeStorage(): { storage: Storage; pending: { startedAt: number; answer: (rev: number) => void }[]; revision: { value: number }; handler: () => WatchHandler } {
  const pending: { startedAt: number; answer: (rev: number) => void }[] = [];
  const revision = { value: 10 };
  let handler: WatchHandler | undefined;
  const watch: StorageWatch = { close: () => undefined, requestProgress: () => undefined };
  const storage = {
    backend: 'etcd3',
    range: async () => ({ kvs: [], more: false, remaining: 0, revision: 10 }),
    watch: (_p: string, _from: number, h: WatchHandler) => {
      handler = h;
      return watch;
    },
    currentRevision: () => new Promise<number>((resolve) => pending.push({ startedAt: revision.value, answer: resolve })),
  } as unknown as Storage;
  return { storage, pending, revision, handler: () => handler! };
}

describe('consistent reads', () => {
  it('share quorum reads: a burst of 100 costs two, and no caller gets a read that started before it', async () => {
    const { storage, pending, handler } = fakeStorage();
    const rw = new RegistryWatch(storage, '/registry/', pino({ level: 'silent' }));
    await rw.start();
    const first = rw.consistentRevision(1000);
    expect(pending).toHaveLength(1);
    // 99 more arrive while the first read is in flight: they wait for one more read.
    const burst = Array.from({ length: 99 }, () => rw.consistentRevision(1000));
    await Promise.resolve();
    expect(pending).toHaveLength(1);
    pending[0]!.answer(10);
    await first;
    await new Promise((r) => setImmediate(r));
    expect(pending).toHaveLength(2);
    // A write acknowledged meanwhile is at revision 11: the second read must see it, and the
    // callers wait until the cache has it too.
    pending[1]!.answer(11);
    let settled = false;
    const all = Promise.all(burst).then((r) => ((settled = true), r));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    handler().onEvents([{ type: 'put', key: '/registry/x', value: Buffer.from('{}'), modRevision: 11, createRevision: 11 }]);
    expect(new Set(await all)).toEqual(new Set([11]));
    expect(pending).toHaveLength(2);
    rw.close();
  });
});
