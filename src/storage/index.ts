import { EtcdStorage } from './etcd/etcd-storage.js';
import type { Storage } from './interface.js';
import { LevelStorage } from './level/level-storage.js';

export interface StorageConfig {
  backend: 'level' | 'etcd3';
  /** LevelDB directory (level backend). */
  dataDir: string;
  /** etcd client URLs (etcd3 backend). */
  etcdServers: string[];
  /** fsync every LevelDB batch (level backend). */
  sync?: boolean;
}

export async function openStorage(cfg: StorageConfig): Promise<Storage> {
  switch (cfg.backend) {
    case 'level':
      return LevelStorage.open(cfg.dataDir, { sync: cfg.sync ?? false });
    case 'etcd3':
      if (cfg.etcdServers.length === 0) throw new Error('etcd3 storage needs at least one etcd server');
      return EtcdStorage.open({ endpoints: cfg.etcdServers });
  }
}

export * from './interface.js';
export * from './errors.js';
