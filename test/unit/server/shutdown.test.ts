// The graceful shutdown's drain: connections are closed only once no request is in flight and
// no connection accepted before the listener closed still has its request on the way.

import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { GracefulShutdown, type ShutdownSteps } from '../../../src/server/shutdown.js';

function steps(pending: () => number, log: string[]): ShutdownSteps {
  return {
    stopListening: () => log.push('stop listening'),
    pendingConnections: pending,
    watchCount: () => 0,
    endWatches: () => log.push('end watches'),
    closeConnections: () => log.push('close connections'),
  };
}

const options = (drainLimitMs: number) => ({ delayMs: 0, sendRetryAfter: false, watchGraceMs: 0, drainLimitMs, log: pino({ level: 'silent' }) });

describe('GracefulShutdown', () => {
  it('waits for a connection whose request has not arrived before closing connections', async () => {
    const log: string[] = [];
    let pending = 1;
    const s = new GracefulShutdown(options(5000));
    const run = s.run(steps(() => pending, log));
    await new Promise((r) => setTimeout(r, 150));
    expect(log).toEqual(['stop listening']);
    expect(s.phase).toBe('draining');
    pending = 0;
    await run;
    expect(log).toEqual(['stop listening', 'end watches', 'close connections']);
    expect(s.phase).toBe('stopped');
  });

  it('gives up on it at the drain limit', async () => {
    const log: string[] = [];
    const s = new GracefulShutdown(options(100));
    const t0 = performance.now();
    await s.run(steps(() => 1, log));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
    expect(log).toEqual(['stop listening', 'end watches', 'close connections']);
  });
});
