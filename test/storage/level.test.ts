import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LevelStorage } from '../../src/storage/level/level-storage.js';
import { runStorageConformance } from '../../src/storage/testing/conformance.js';

runStorageConformance('level', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-level-'));
  const storage = await LevelStorage.open(dir);
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
