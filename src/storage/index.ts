import { join } from 'node:path';
import type { Storage } from './interface.js';

export interface StorageConfig {
  backend: 'level' | 'etcd3';
  /** LevelDB directory (level backend). */
  dataDir: string;
  /** etcd client URLs (etcd3 backend). */
  etcdServers: string[];
  /** fsync every LevelDB batch (level backend). */
  sync?: boolean;
  /** Deadline of one etcd call, ms (etcd3 backend). */
  requestTimeoutMs?: number;
}

export async function openStorage(cfg: StorageConfig): Promise<Storage> {
  switch (cfg.backend) {
    // Each backend is loaded only when chosen: the etcd client (gRPC) costs start-up time.
    case 'level': {
      const { LevelStorage } = await import('./level/level-storage.js');
      return LevelStorage.open(join(cfg.dataDir, 'leveldb'), { sync: cfg.sync ?? false });
    }
    case 'etcd3': {
      if (cfg.etcdServers.length === 0) throw new Error('etcd3 storage needs at least one etcd server');
      const { EtcdStorage } = await import('./etcd/etcd-storage.js');
      return EtcdStorage.open({ endpoints: cfg.etcdServers, requestTimeoutMs: cfg.requestTimeoutMs });
    }
  }
}

export * from './interface.js';
export * from './errors.js';
