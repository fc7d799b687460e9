// Reaching under the server into its store, as an operator (or a disk) would: the raw bytes
// of a key, and bytes written over them. For LevelDB the server must be stopped (it holds the
// database's lock); etcd is written while the server runs, and its watch brings the change.

import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { LevelStorage } from '../../src/storage/level/level-storage.js';

/** The raw value of `key` in a stopped server's LevelDB (undefined when absent). */
export async function levelRaw(dataDir: string, key: string): Promise<Buffer | undefined> {
  const s = await LevelStorage.open(join(dataDir, 'leveldb'));
  try {
    return (await s.get(key))?.value;
  } finally {
    await s.close();
  }
}

/** Writes `value` over `key` in a stopped server's LevelDB, as a new revision. */
export async function levelOverwrite(dataDir: string, key: string, value: Buffer | string): Promise<void> {
  const s = await LevelStorage.open(join(dataDir, 'leveldb'));
  try {
    const cur = await s.get(key);
    const r = await s.txn({ key, expectModRevision: cur?.modRevision ?? 0, op: { type: 'put', value: Buffer.from(value) } });
    if (!r.succeeded) throw new Error(`could not overwrite ${key}`);
  } finally {
    await s.close();
  }
}

export async function etcdRaw(endpoint: string, key: string): Promise<Buffer | undefined> {
  const c = new Etcd3({ hosts: endpoint });
  try {
    return (await c.get(key).buffer()) ?? undefined;
  } finally {
    c.close();
  }
}

export async function etcdOverwrite(endpoint: string, key: string, value: Buffer | string): Promise<void> {
  const c = new Etcd3({ hosts: endpoint });
  try {
    await c.put(key).value(Buffer.from(value));
  } finally {
    c.close();
  }
}
