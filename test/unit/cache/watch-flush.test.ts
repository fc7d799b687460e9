// The node-wide watch flush: with headroom an event goes out at once (the next check phase);
// after costly flushes the node keeps a quiet spell in proportion (at most MAX_GAP_MS), and
// what arrives meanwhile shares one flush.

import { describe, expect, it } from 'vitest';
import { flushGapMs, MAX_GAP_MS, scheduleFlush } from '../../../src/cache/watch-flush.js';

const flushed = (fn: () => void = () => undefined): Promise<number> =>
  new Promise((resolve) => {
    const t = performance.now();
    scheduleFlush(() => {
      fn();
      resolve(performance.now() - t);
    });
  });

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('watch flushes', () => {
  it('go out at once while flushes are cheap', async () => {
    for (let i = 0; i < 20; i++) await flushed();
    expect(flushGapMs()).toBeLessThan(1);
    const waits: number[] = [];
    for (let i = 0; i < 20; i++) waits.push(await flushed());
    waits.sort((a, b) => a - b);
    // Not held back: the median wait is a turn of the event loop, far from the 25 ms cap.
    expect(waits[10]).toBeLessThan(12);
  });

  it('space out after costly flushes, up to the cap, and batch what arrives meanwhile', async () => {
    // Flushes costing 8 ms each: the quiet spell grows toward twice that, capped at 25 ms.
    for (let i = 0; i < 12; i++) await flushed(() => busy(8));
    const gap = flushGapMs();
    expect(gap).toBeGreaterThan(8);
    expect(gap).toBeLessThanOrEqual(MAX_GAP_MS);
    // Three events right after a flush share the next one, which waits for the quiet spell.
    const t = performance.now();
    const runs: number[] = [];
    await Promise.all([1, 2, 3].map(() => flushed(() => runs.push(performance.now()))));
    expect(runs).toHaveLength(3);
    expect(Math.max(...runs) - Math.min(...runs)).toBeLessThan(2);
    expect(Math.min(...runs) - t).toBeGreaterThan(gap * 0.5);
    // Cheap flushes bring the spell back down.
    for (let i = 0; i < 30; i++) await flushed();
    expect(flushGapMs()).toBeLessThan(1);
  });
});
