// The kind actor on the embedded store: writes to one key queue behind the one in flight and
// start from what it committed, so none computes on a state about to be replaced.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KindActor, type Mutation } from '../../../src/actors/kind-actor.js';
import { LevelStorage } from '../../../src/storage/level/level-storage.js';
import type { KeyValue } from '../../../src/storage/interface.js';

let dir: string;
let storage: LevelStorage;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-actor-'));
  storage = await LevelStorage.open(dir);
});

afterEach(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

/** A counter increment that records every state it ran on. */
function increment(seen: (string | null)[]): Mutation {
  return (cur: KeyValue | null) => {
    seen.push(cur ? cur.value.toString() : null);
    return { kind: 'put', value: Buffer.from(String(Number(cur ? cur.value.toString() : '0') + 1)) };
  };
}

describe('kind actor', () => {
  it('runs concurrent writes to one key once each, in order, each on the state the previous one committed', async () => {
    // The guesser knows nothing: every state a mutation sees must come from a commit.
    const actor = new KindActor(storage, () => null);
    const seen: (string | null)[] = [];
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => actor.submit('/k', increment(seen))));
    expect(seen).toEqual([null, ...Array.from({ length: 19 }, (_, i) => String(i + 1))]);
    expect(outcomes.map((o) => o.decision)).toEqual(Array(20).fill('put'));
    expect((await storage.get('/k'))?.value.toString()).toBe('20');
    // Revisions follow the order of submission.
    const revs = outcomes.map((o) => o.revision);
    expect(revs).toEqual([...revs].sort((a, b) => a - b));
  });

  it('writes to different keys share a batch and do not wait for each other', async () => {
    const actor = new KindActor(storage, () => null);
    const seen: (string | null)[] = [];
    const outcomes = await Promise.all(['/a', '/b', '/c'].map((k) => actor.submit(k, increment(seen))));
    expect(seen).toEqual([null, null, null]);
    expect(new Set(outcomes.map((o) => o.revision)).size).toBe(3);
  });

  it('a rejected write frees the key for the next one, which sees the unchanged state', async () => {
    // A guesser that is current, as the watch cache is on this backend.
    const known = new Map<string, KeyValue | null>();
    const actor = new KindActor(storage, (k) => known.get(k) ?? null);
    const seen: (string | null)[] = [];
    known.set('/k', (await actor.submit('/k', increment(seen))).current);
    const failing = actor.submit('/k', () => {
      throw new Error('refused');
    });
    const after = actor.submit('/k', increment(seen));
    await expect(failing).rejects.toThrow('refused');
    expect((await after).decision).toBe('put');
    expect(seen).toEqual([null, '1']);
  });
});
