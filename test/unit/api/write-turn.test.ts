// writeTurn groups the writes whose bodies complete in one I/O phase: they all continue in
// the following check phase, in the order they asked, and a caller after that gets a new turn.

import { describe, expect, it } from 'vitest';
import { writeTurn } from '../../../src/api/write-turn.js';

describe('writeTurn', () => {
  it('lets every caller of one turn continue together, in order, after the I/O phase', async () => {
    const order: string[] = [];
    const a = writeTurn().then(() => order.push('a'));
    const b = writeTurn().then(() => order.push('b'));
    // Queued after the turn began: it runs after all of the turn's callers, not between them.
    const later = new Promise<void>((resolve) => setImmediate(() => (order.push('later immediate'), resolve())));
    order.push('sync');
    await Promise.all([a, b, later]);
    expect(order).toEqual(['sync', 'a', 'b', 'later immediate']);
  });

  it('shares one promise within a turn and starts a new one after it', async () => {
    const first = writeTurn();
    expect(writeTurn()).toBe(first);
    await first;
    const second = writeTurn();
    expect(second).not.toBe(first);
    await second;
  });

  it('does not resolve before pending I/O callbacks of the same phase', async () => {
    let turned = false;
    const p = writeTurn().then(() => {
      turned = true;
    });
    await Promise.resolve();
    expect(turned).toBe(false);
    await p;
    expect(turned).toBe(true);
  });
});
