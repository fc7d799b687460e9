// The storage size metrics: apiserver_storage_size_bytes (STABLE, one per storage cluster)
// and the deprecated, hidden apiserver_storage_db_total_size_in_bytes (one per endpoint), read
// at scrape time: from each etcd member's own metrics, or from the LevelDB files on disk.

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Gauge } from 'prom-client';
import { hiddenRegistry, kubeHelp, registry } from '../machinery/metrics-registry.js';

const HELP = 'Size of the storage database file physically allocated in bytes.';

export interface StorageSize {
  endpoint: string;
  bytes: number;
}

/** The database size one etcd member reports (etcd_mvcc_db_total_size_in_bytes). */
async function etcdDbSize(server: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${server.replace(/\/+$/, '')}/metrics`, { signal: AbortSignal.timeout(2000) });
    const m = /^etcd_mvcc_db_total_size_in_bytes (\S+)$/m.exec(await res.text());
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function dirSize(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) {
    const st = await stat(join(dir, name)).catch(() => undefined);
    if (st?.isFile()) total += st.size;
  }
  return total;
}

export function storageSizes(backend: 'level' | 'etcd3', dataDir: string, etcdServers: string[]): () => Promise<StorageSize[]> {
  if (backend === 'level') {
    const dir = join(dataDir, 'leveldb');
    return async () => [{ endpoint: dir, bytes: await dirSize(dir).catch(() => -1) }];
  }
  return async () => {
    const sizes = await Promise.all(etcdServers.map((s) => etcdDbSize(s)));
    return etcdServers.flatMap((endpoint, i) => (sizes[i] === undefined ? [] : [{ endpoint, bytes: sizes[i] }]));
  };
}

export function installStorageSizeMetrics(sizes: () => Promise<StorageSize[]>, clusterId: string): void {
  new Gauge({
    name: 'apiserver_storage_size_bytes',
    help: kubeHelp('STABLE', HELP),
    labelNames: ['storage_cluster_id'] as const,
    registers: [registry],
    async collect() {
      const s = await sizes();
      // One storage cluster: every member holds the same data, the first that answers speaks for it.
      if (s.length > 0) this.set({ storage_cluster_id: clusterId }, s[0].bytes);
    },
  });
  new Gauge({
    name: 'apiserver_storage_db_total_size_in_bytes',
    help: kubeHelp('ALPHA', 'Total size of the storage database file physically allocated in bytes.', '1.28.0'),
    labelNames: ['endpoint'] as const,
    registers: [hiddenRegistry],
    async collect() {
      for (const { endpoint, bytes } of await sizes()) this.set({ endpoint }, bytes);
    },
  });
}
