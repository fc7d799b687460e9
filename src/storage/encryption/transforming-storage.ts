// A store whose values are transformed on their way in and out (encryption at rest, kube's
// value.Transformer around etcd): each key's resource has its transformer, values are
// written in the first provider's form and read by whichever provider's prefix they carry.
// A value that cannot be read back is handed up with `readError` and its raw bytes, so the
// registry can report it as kube reports a corrupt object, and force-delete it.

import { kubeHelp, registry } from '../../machinery/metrics-registry.js';
import { LabeledCounter, LabeledHistogram } from '../../machinery/labeled-metrics.js';
import type { KeyValue, RangeOptions, Storage, Txn, WatchEvent, WatchHandler } from '../interface.js';
import { keyType } from '../instrumented.js';
import { TransformError, type Transformer } from './transformers.js';

export const transformationOperations = new LabeledCounter(
  'apiserver_storage_transformation_operations_total',
  kubeHelp(
    'ALPHA',
    "Total number of transformations. Successful transformation will have a status 'OK' and a varied status string when the transformation fails. The status, resource, and transformation_type fields can be used for alerting purposes. For example, you can monitor for encryption/decryption failures using the transformation_type (e.g., from_storage for decryption and to_storage for encryption). Additionally, these fields can be used to ensure that the correct transformers are applied to each resource.",
  ),
  ['resource', 'transformation_type', 'transformer_prefix', 'status'],
  registry,
);

/** 5 µs doubling 25 times, as kube's buckets. */
export const transformationDuration = new LabeledHistogram(
  'apiserver_storage_transformation_duration_seconds',
  kubeHelp('ALPHA', 'Latencies in seconds of value transformation operations.'),
  ['transformation_type', 'transformer_prefix'],
  Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i),
  registry,
);

/** Records one transformation under a resource (kube's RecordTransformation). */
export function recordTransformation(resource: string, type: 'from_storage' | 'to_storage', prefix: string, ok: boolean, seconds: number): void {
  // A failure outside a KMS call has no gRPC code: kube labels it so.
  transformationOperations.inc([resource, type, prefix, ok ? 'OK' : 'unknown-non-grpc']);
  if (ok) transformationDuration.observe([type, prefix], seconds);
}

/** The transformer of a resource ("pods", "statefulsets.apps"). */
export type TransformerFor = (resource: string) => Transformer;

export function transformingStorage(inner: Storage, prefix: string, transformerFor: TransformerFor): Storage {
  const forKey = (key: string): Transformer => transformerFor(keyType(prefix, key));
  const read = <T extends { key: string; value?: Buffer; readError?: string; stale?: boolean }>(kv: T): T => {
    if (!kv.value) return kv;
    try {
      const t = forKey(kv.key);
      const value = t.fromStorage(kv.value, kv.key);
      return t.lastStale ? { ...kv, value, stale: true } : { ...kv, value };
    } catch (e) {
      if (!(e instanceof TransformError)) throw e;
      return { ...kv, readError: e.message };
    }
  };
  const readKv = (kv: KeyValue | null): KeyValue | null => (kv ? read(kv) : null);
  const overrides: Partial<Storage> = {
    get: async (key: string) => readKv(await inner.get(key)),
    range: async (p: string, opts?: RangeOptions) => {
      const res = await inner.range(p, opts);
      return { ...res, kvs: res.kvs.map((kv) => read(kv)) };
    },
    txn: async (t: Txn) => {
      const op = t.op.type === 'put' ? { type: 'put' as const, value: forKey(t.key).toStorage(t.op.value, t.key) } : t.op;
      const res = await inner.txn({ ...t, op });
      // On success the caller gets back what it wrote, not the stored form.
      if (res.succeeded && res.current && t.op.type === 'put') return { ...res, current: { ...res.current, value: t.op.value } };
      return { ...res, current: readKv(res.current) };
    },
    watch: (p: string, fromRevision: number, handler: WatchHandler) =>
      inner.watch(p, fromRevision, {
        ...handler,
        onEvents: (evs: WatchEvent[]) => handler.onEvents(evs.map((e) => (e.type === 'put' ? read(e) : e))),
        onError: (err) => handler.onError(err),
        onProgress: handler.onProgress ? (r) => handler.onProgress!(r) : undefined,
      }),
  };
  return new Proxy(inner, {
    get(target, prop) {
      if (prop in overrides) return overrides[prop as keyof Storage];
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
