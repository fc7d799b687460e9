// etcd_request_duration_seconds, etcd_requests_total and etcd_request_errors_total, as kube's
// etcd3 store records every call it makes: by operation (get, list, create, update, delete)
// and type (the qualified resource of the key, e.g. statefulsets.apps). Both backends are
// measured the same way, so LevelDB's latencies read like etcd's.

import { kubeHelp, registry } from '../machinery/metrics-registry.js';
import { LabeledCounter, LabeledHistogram } from '../machinery/labeled-metrics.js';
import type { RangeOptions, Storage, Txn } from './interface.js';

const LABELS = ['operation', 'type'];

export const etcdRequestDuration = new LabeledHistogram(
  'etcd_request_duration_seconds',
  kubeHelp('ALPHA', 'Etcd request latency in seconds for each operation and object type.'),
  LABELS,
  [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
  registry,
);
export const etcdRequests = new LabeledCounter('etcd_requests_total', kubeHelp('ALPHA', 'Etcd request counts for each operation and object type.'), LABELS, registry);
export const etcdRequestErrors = new LabeledCounter(
  'etcd_request_errors_total',
  kubeHelp('ALPHA', 'Etcd failed request counts for each operation and object type.'),
  LABELS,
  registry,
);

/** The qualified resource a key belongs to (`<prefix>/<group|core>/<resource>/...`), or ''. */
export function keyType(prefix: string, key: string): string {
  if (!key.startsWith(prefix)) return '';
  const [group, resource] = key.slice(prefix.length).replace(/^\/+/, '').split('/');
  if (!group || !resource) return '';
  return group === 'core' ? resource : `${resource}.${group}`;
}

/** Wraps a store so that every call is measured. */
export function instrumentStorage(inner: Storage, prefix: string): Storage {
  const timed = async <T>(operation: string, key: string, call: () => Promise<T>): Promise<T> => {
    const labels = [operation, keyType(prefix, key)];
    const start = performance.now();
    try {
      return await call();
    } catch (e) {
      etcdRequestErrors.inc(labels);
      throw e;
    } finally {
      etcdRequestDuration.observe(labels, (performance.now() - start) / 1e3);
      etcdRequests.inc(labels);
    }
  };
  const overrides: Partial<Storage> = {
    get: (key: string) => timed('get', key, () => inner.get(key)),
    range: (p: string, opts?: RangeOptions) => timed('list', p, () => inner.range(p, opts)),
    txn: (t: Txn) => timed(t.op.type === 'delete' ? 'delete' : t.expectModRevision === 0 ? 'create' : 'update', t.key, () => inner.txn(t)),
  };
  // Everything else is the store's own (bound to it), whatever methods it grows.
  return new Proxy(inner, {
    get(target, prop) {
      if (prop in overrides) return overrides[prop as keyof Storage];
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
