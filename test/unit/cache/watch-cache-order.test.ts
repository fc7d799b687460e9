// The watch cache folds key changes into its ordered key list only when a list or page reads
// it; whatever the mix of writes between reads, reads must see exactly the live keys in order.

import { describe, expect, it } from 'vitest';
import { WatchCache } from '../../../src/cache/watch-cache.js';

const PREFIX = '/registry/things/';
const value = (name: string): Buffer => Buffer.from(`{"kind":"Thing","apiVersion":"v1","metadata":{"name":"${name}"}}`);

/** A small deterministic generator, so a failure replays. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

describe('watch cache key order', () => {
  it('lists exactly the live keys in order after any mix of adds, removes and re-adds', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const next = rng(seed);
      const cache = new WatchCache(PREFIX, false, { historyMs: 60_000, maxHistory: 100_000 });
      const live = new Set<string>();
      let rv = 0;
      for (let step = 0; step < 3000; step++) {
        const name = `obj-${Math.floor(next() * 200)}`;
        const key = PREFIX + name;
        if (next() < 0.6) {
          cache.apply('put', key, value(name), ++rv, rv, 0);
          live.add(key);
        } else {
          cache.apply('delete', key, undefined, ++rv, 0, 0);
          live.delete(key);
        }
        // Reads come at varying gaps, so both the one-by-one and the merge paths run.
        if (next() < 0.05 || step % 97 === 0) {
          expect(cache.list(PREFIX).map((e) => e.key)).toEqual([...live].sort());
          expect(cache.size).toBe(live.size);
        }
      }
      expect(cache.list(PREFIX).map((e) => e.key)).toEqual([...live].sort());
    }
  });

  it('pages from a key after writes landed since the last read', () => {
    const cache = new WatchCache(PREFIX, false, { historyMs: 60_000, maxHistory: 100_000 });
    let rv = 0;
    for (let i = 0; i < 100; i++) cache.apply('put', `${PREFIX}k${String(i).padStart(3, '0')}`, value(`k${i}`), ++rv, rv, 0);
    expect(cache.page(PREFIX, undefined, 10).items.map((e) => e.name)[0]).toBe('k000');
    for (let i = 0; i < 50; i += 2) cache.apply('delete', `${PREFIX}k${String(i).padStart(3, '0')}`, undefined, ++rv, 0, 0);
    cache.apply('put', `${PREFIX}k0005`, value('k0005'), ++rv, rv, 0);
    const page = cache.page(PREFIX, `${PREFIX}k000`, 3);
    expect(page.items.map((e) => e.name)).toEqual(['k0005', 'k001', 'k003']);
    expect(page.more).toBe(true);
    expect(page.total).toBe(76);
  });
});
