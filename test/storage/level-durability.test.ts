import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LevelStorage } from '../../src/storage/level/level-storage.js';

const here = dirname(fileURLToPath(import.meta.url));
const writer = join(here, 'fixtures', 'level-writer.mjs');
const compiled = resolve(here, '../../dist/src/storage/level/level-storage.js');

interface Ack {
  revision: number;
  key: string;
  value: string;
}

/** Runs the writer until it has acknowledged `acks` txns, then kill -9s it. */
function writeUntilKilled(dir: string, tag: string, acks: number): Promise<Ack[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [writer, dir, tag], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let lines = 0;
    let killed = false;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (err += c));
    child.stdout.on('data', (c: string) => {
      out += c;
      lines += c.split('\n').length - 1;
      if (!killed && lines >= acks) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') {
        reject(new Error(`writer exited early (code ${code}): ${err}`));
        return;
      }
      // Only complete lines were acknowledged; a torn last line is dropped.
      const complete = out.slice(0, out.lastIndexOf('\n') + 1);
      resolvePromise(
        complete
          .split('\n')
          .filter(Boolean)
          .map((l) => {
            const [rev, key, value] = l.split(' ');
            return { revision: Number(rev), key: key!, value: value! };
          }),
      );
    });
  });
}

describe('level storage durability across kill -9', { timeout: 60_000 }, () => {
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run tsc before this test`);
    dir = await mkdtemp(join(tmpdir(), 'kapi-durable-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write and keeps revisions increasing after restarts', async () => {
    const first = await writeUntilKilled(dir, 'a', 3000);
    const second = await writeUntilKilled(dir, 'b', 3000);
    const firstMax = Math.max(...first.map((a) => a.revision));
    expect(first.length).toBeGreaterThanOrEqual(3000);
    // The second process started from the recovered revision, not from scratch.
    expect(Math.min(...second.map((a) => a.revision))).toBeGreaterThan(firstMax);

    const acks = [...first, ...second];
    const maxAcked = Math.max(...acks.map((a) => a.revision));
    const revs = new Set(acks.map((a) => a.revision));
    expect(revs.size).toBe(acks.length);

    const lastAck = new Map<string, Ack>();
    for (const a of acks) {
      const prev = lastAck.get(a.key);
      if (!prev || prev.revision < a.revision) lastAck.set(a.key, a);
    }

    const storage = await LevelStorage.open(dir);
    try {
      expect(await storage.currentRevision()).toBeGreaterThanOrEqual(maxAcked);
      for (const a of lastAck.values()) {
        const kv = await storage.get(a.key);
        expect(kv, a.key).not.toBeNull();
        // A later, unacknowledged update may also have made it to disk.
        expect(kv!.modRevision).toBeGreaterThanOrEqual(a.revision);
        if (kv!.modRevision === a.revision) {
          expect(kv!.value.toString('utf8').split('|')[0]).toBe(a.value);
        }
      }
      // Every acknowledged version is still readable at its own revision.
      const sample = acks.filter((_, i) => i % 250 === 0);
      for (const a of sample) {
        const res = await storage.range(a.key, { revision: a.revision });
        const kv = res.kvs.find((x) => x.key === a.key);
        expect(kv?.modRevision, `${a.key}@${a.revision}`).toBe(a.revision);
      }
      const next = await storage.txn({ key: '/durable/after', expectModRevision: 0, op: { type: 'put', value: Buffer.from('x') } });
      expect(next.succeeded).toBe(true);
      expect(next.revision).toBeGreaterThan(maxAcked);
    } finally {
      await storage.close();
    }
  });
});
