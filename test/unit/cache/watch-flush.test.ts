// The watch flush pacer: within its CPU budget (FLUSH_SHARE of the time) an event goes out at
// once, however costly one flush is; past it the node keeps a quiet spell until the budget is
// back (at most MAX_GAP_MS), and what arrives meanwhile shares one flush. Driven by a clock the
// test owns, so machine load cannot change what it sees; one last case uses the real one.

import { describe, expect, it } from 'vitest';
import { BURST_MS, FLUSH_SHARE, FlushPacer, MAX_GAP_MS, scheduleFlush, type PacerClock } from '../../../src/cache/watch-flush.js';

/** A clock whose time and CPU move only when the test says, with a queue of deferred calls. */
class TestClock implements PacerClock {
  t = 0;
  cpu = 0;
  readonly pending: { at: number; fn: () => void }[] = [];
  now = (): number => this.t;
  cpuMs = (): number => this.cpu;
  defer = (fn: () => void, ms: number): void => void this.pending.push({ at: this.t + Math.max(0, ms), fn });
  /** Runs what is due by `t + ms`, in order, moving time to each. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.pending.sort((a, b) => a.at - b.at);
      const next = this.pending[0];
      if (!next || next.at > end) break;
      this.pending.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = Math.max(this.t, end);
  }
}

/** A flush callback that costs `cpuMs` of CPU and wall time, and notes when it ran. */
const costly = (c: TestClock, cpuMs: number, ran: number[]) => (): void => {
  ran.push(c.t);
  c.cpu += cpuMs;
  c.t += cpuMs;
};

describe('watch flush pacer', () => {
  it('flushes at once within the budget, however costly one flush is', () => {
    const c = new TestClock();
    const p = new FlushPacer(c);
    const ran: number[] = [];
    // 10 ms flushes, one every 20 ms: a third of the time, inside the budget.
    for (let i = 0; i < 20; i++) {
      const asked = c.t;
      p.schedule(costly(c, 10, ran));
      c.advance(0);
      expect(ran.at(-1)).toBe(asked);
      c.advance(10);
    }
    expect(p.gapMs()).toBe(0);
  });

  it('spaces flushes out past the budget, to keep them at its share, and batches what arrives meanwhile', () => {
    const c = new TestClock();
    const p = new FlushPacer(c);
    // One watcher as watcher.ts has it: an event queues, and asks for a flush unless one is
    // coming; the flush writes all that is queued, at 8 ms however many.
    let queued = 0;
    let asked = false;
    const flushes: { at: number; events: number }[] = [];
    const event = (): void => {
      queued++;
      if (asked) return;
      asked = true;
      p.schedule(() => {
        asked = false;
        flushes.push({ at: c.t, events: queued });
        queued = 0;
        c.cpu += 8;
        c.t += 8;
      });
    };
    // An event every 2 ms: a flush per event would be four times the time there is.
    for (let i = 0; i < 500; i++) {
      event();
      c.advance(2);
    }
    c.advance(100);
    expect(flushes.reduce((n, f) => n + f.events, 0)).toBe(500);
    expect(flushes.length).toBeLessThan(250);
    // Past the burst, the flushes take their share of the time, and no spell passes the cap.
    const steady = flushes.slice(5);
    const span = steady.at(-1)!.at - steady[0]!.at;
    const share = ((steady.length - 1) * 8) / span;
    expect(share).toBeGreaterThan(FLUSH_SHARE - 0.1);
    expect(share).toBeLessThan(FLUSH_SHARE + 0.1);
    for (let i = 1; i < flushes.length; i++) expect(flushes[i]!.at - flushes[i - 1]!.at - 8).toBeLessThanOrEqual(MAX_GAP_MS);
  });

  it('never keeps a quiet spell longer than the cap', () => {
    const c = new TestClock();
    const p = new FlushPacer(c);
    const ran: number[] = [];
    // One enormous flush overspends the budget by far more than the cap: the next waits the
    // cap, and the one after that goes at once.
    p.schedule(costly(c, 200, ran));
    c.advance(0);
    expect(p.gapMs()).toBe(MAX_GAP_MS);
    const asked = c.t;
    p.schedule(costly(c, 1, ran));
    c.advance(MAX_GAP_MS);
    expect(ran.at(-1)).toBe(asked + MAX_GAP_MS);
    c.advance(1 / FLUSH_SHARE);
    expect(p.gapMs()).toBe(0);
  });

  it('goes back to flushing at once after a calm spell', () => {
    const c = new TestClock();
    const p = new FlushPacer(c);
    const ran: number[] = [];
    for (let i = 0; i < 10; i++) {
      p.schedule(costly(c, 8, ran));
      c.advance(1);
    }
    expect(p.gapMs()).toBeGreaterThan(0);
    // The budget refills at its share of the time, up to the burst.
    c.advance(MAX_GAP_MS + BURST_MS / FLUSH_SHARE);
    expect(p.gapMs()).toBe(0);
    const asked = c.t;
    p.schedule(costly(c, BURST_MS, ran));
    c.advance(0);
    expect(ran.at(-1)).toBe(asked);
  });

  it('the node pacer runs callbacks in the next turns of the real event loop', async () => {
    const order: number[] = [];
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 5; i++) scheduleFlush(() => order.push(i));
      scheduleFlush(resolve);
    });
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });
});
