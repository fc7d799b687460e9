import { afterAll, beforeAll } from 'vitest';
import { EtcdStorage } from '../../src/storage/etcd/etcd-storage.js';
import { runStorageConformance } from '../../src/storage/testing/conformance.js';
import { startEtcd, type EtcdProcess } from '../../src/storage/testing/etcd-process.js';

let etcd: EtcdProcess | undefined;

beforeAll(async () => {
  etcd = await startEtcd();
}, 60_000);

afterAll(async () => {
  await etcd?.stop();
}, 30_000);

runStorageConformance('etcd3', async () => {
  if (!etcd) throw new Error('etcd did not start');
  const storage = await EtcdStorage.open({ endpoints: [etcd.endpoint] });
  return { storage, cleanup: () => storage.close() };
});
