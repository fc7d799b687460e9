import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3, type IKeyValue, type IOptions, type IRequestOp } from 'etcd3';
import { StorageError, isStorageError } from '../errors.js';
import type {
  KeyValue,
  RangeOptions,
  RangeResult,
  Storage,
  StorageWatch,
  Txn,
  TxnResult,
  WatchHandler,
} from '../interface.js';
import { isOverloaded, toStorageError } from './etcd-errors.js';
import { EtcdWatch } from './etcd-watch.js';
import { prefixRange } from './key-range.js';
import { Limiter } from './limiter.js';

export interface EtcdStorageOptions {
  endpoints: string[];
  /** Most txns in flight to etcd at once; the rest wait in FIFO order. */
  maxInflightTxns?: number;
  /** How long open() keeps trying to reach etcd before giving up (ms). */
  connectTimeoutMs?: number;
}

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/**
 * Runs each call exactly once. The client's default global policy retries on
 * UNAVAILABLE, which may re-send a txn etcd already applied; a replayed CAS then
 * "fails" against its own write. Its per-host circuit breaker also counts etcd's
 * "too many requests" and then refuses every call for seconds. Retries are done
 * below instead, where it is known which ones are safe.
 */
const singleAttempt = {
  execute: <T>(fn: (ctx: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> =>
    Promise.resolve().then(() => fn({ signal: new AbortController().signal })),
} as unknown as Policy;

/** A key nobody writes: ranging on it reads only the response header. */
const PROBE_KEY = Buffer.from('/kapi-revision-probe\x00');
const READ_ATTEMPTS = 3;
/** Overload rejections are retried longer: they are etcd's backpressure, not an outage. */
const OVERLOAD_ATTEMPTS = 10;
const CHECK_TIMEOUT_MS = 2000;

const toKeyValue = (kv: IKeyValue): KeyValue => ({
  key: kv.key.toString('utf8'),
  value: kv.value,
  createRevision: Number(kv.create_revision),
  modRevision: Number(kv.mod_revision),
});

export class EtcdStorage implements Storage {
  readonly backend = 'etcd3' as const;

  /** A revision etcd's compaction is known to have reached (never ahead of it). */
  private knownCompacted = 0;
  private readonly watches = new Set<EtcdWatch>();
  private closed = false;

  private constructor(
    private readonly client: Etcd3,
    private readonly txnLimiter: Limiter,
  ) {}

  static async open(opts: EtcdStorageOptions): Promise<EtcdStorage> {
    const client = new Etcd3({
      hosts: opts.endpoints,
      faultHandling: { global: singleAttempt, host: () => singleAttempt },
    });
    const storage = new EtcdStorage(client, new Limiter(opts.maxInflightTxns ?? 256));
    const deadline = Date.now() + (opts.connectTimeoutMs ?? 10_000);
    for (;;) {
      try {
        await storage.compactedRevision();
        return storage;
      } catch (err) {
        if (Date.now() >= deadline || !isStorageError(err, 'Unavailable')) {
          client.close();
          throw err;
        }
        await sleep(200);
      }
    }
  }

  /** Reads are idempotent: any transient failure is worth another try. */
  private readWithRetry<T>(fn: () => Promise<T>): Promise<T> {
    return this.attempt(fn, (err, n) =>
      isOverloaded(err) ? n < OVERLOAD_ATTEMPTS : isStorageError(toStorageError(err), 'Unavailable') && n < READ_ATTEMPTS,
    );
  }

  /** Writes are retried only when etcd provably did not apply them. */
  private retryOverload<T>(fn: () => Promise<T>): Promise<T> {
    return this.attempt(fn, (err, n) => isOverloaded(err) && n < OVERLOAD_ATTEMPTS);
  }

  private async attempt<T>(fn: () => Promise<T>, retry: (err: unknown, attempt: number) => boolean): Promise<T> {
    for (let n = 1; ; n++) {
      this.assertOpen();
      try {
        return await fn();
      } catch (err) {
        if (!retry(err, n)) throw toStorageError(err, this.knownCompacted);
        // Jittered so a burst of rejected callers does not come back in lockstep.
        await sleep(Math.min(1000, 20 * 2 ** n) * (0.5 + Math.random()));
      }
    }
  }

  async get(key: string): Promise<KeyValue | null> {
    const res = await this.readWithRetry(() => this.client.kv.range({ key: Buffer.from(key, 'utf8') }));
    const kv = res.kvs[0];
    return kv ? toKeyValue(kv) : null;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const revision = opts.revision !== undefined && opts.revision > 0 ? opts.revision : 0;
    try {
      const res = await this.readWithRetry(() =>
        this.client.kv.range({ ...prefixRange(prefix, opts.fromKey), limit: opts.limit ?? 0, revision }),
      );
      const kvs = res.kvs.map(toKeyValue);
      // count covers [key, range_end) regardless of limit.
      const remaining = Math.max(0, Number(res.count) - kvs.length);
      return { kvs, more: remaining > 0, remaining, revision: revision || Number(res.header.revision) };
    } catch (err) {
      if (isStorageError(err, 'Compacted')) {
        const at = await this.compactedRevision().catch(() => this.knownCompacted);
        throw new StorageError('Compacted', err.message, at);
      }
      throw err;
    }
  }

  async txn(txn: Txn): Promise<TxnResult> {
    this.assertOpen();
    const key = Buffer.from(txn.key, 'utf8');
    if (txn.op.type === 'delete' && txn.expectModRevision === 0) {
      // "Delete if absent" can never apply; report the key as it is, like a failed compare.
      const res = await this.readWithRetry(() => this.client.kv.range({ key }));
      const kv = res.kvs[0];
      return { succeeded: false, revision: Number(res.header.revision), current: kv ? toKeyValue(kv) : null };
    }
    const isUpdate = txn.op.type === 'put' && txn.expectModRevision !== 0;
    const success: IRequestOp[] =
      txn.op.type === 'put'
        ? [{ request_put: { key, value: txn.op.value } }]
        : [{ request_delete_range: { key } }];
    // An update keeps the key's createRevision; reading it back in the same txn is
    // cheaper than prev_kv, which would ship the old value.
    if (isUpdate) success.push({ request_range: { key, keys_only: true } });
    const res = await this.txnLimiter.run(() =>
      this.retryOverload(() =>
        this.client.kv.txn({
          compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: txn.expectModRevision }],
          success,
          failure: [{ request_range: { key } }],
        }),
      ),
    );
    const revision = Number(res.header.revision);
    if (!res.succeeded) {
      const kv = res.responses[0]?.response_range?.kvs[0];
      return { succeeded: false, revision, current: kv ? toKeyValue(kv) : null };
    }
    if (txn.op.type === 'delete') return { succeeded: true, revision, current: null };
    const createRevision = isUpdate
      ? Number(res.responses[1]?.response_range?.kvs[0]?.create_revision ?? revision)
      : revision;
    return {
      succeeded: true,
      revision,
      current: { key: txn.key, value: txn.op.value, createRevision, modRevision: revision },
    };
  }

  watch(prefix: string, fromRevision: number, handler: WatchHandler): StorageWatch {
    const w = new EtcdWatch(this.client.watchClient, prefix, fromRevision, handler, {
      currentRevision: () => this.currentRevision(),
      compacted: (rev) => {
        this.knownCompacted = Math.max(this.knownCompacted, rev);
      },
      closed: (x) => {
        this.watches.delete(x);
      },
    });
    if (this.closed) {
      queueMicrotask(() => w.fail(new StorageError('Closed', 'storage is closed')));
      return w;
    }
    this.watches.add(w);
    w.start();
    return w;
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    try {
      await this.client.kv.compact({ revision });
      this.knownCompacted = Math.max(this.knownCompacted, revision);
    } catch (err) {
      const e = toStorageError(err, this.knownCompacted);
      // Already compacted at or past it (maybe by another server): nothing left to do.
      if (isStorageError(e, 'Compacted')) return;
      throw e;
    }
  }

  /** Linearizable: a quorum range whose only useful output is the header revision. */
  async currentRevision(): Promise<number> {
    const res = await this.readWithRetry(() => this.client.kv.range({ key: PROBE_KEY, count_only: true }));
    return Number(res.header.revision);
  }

  /**
   * etcd does not expose its compaction point, but a read at revision r fails exactly
   * when r is below it. Compaction only moves forward, so one read confirms the known
   * value and a binary search over (known, current] finds a newer one.
   */
  async compactedRevision(): Promise<number> {
    const known = this.knownCompacted;
    if (await this.readableAt(Math.max(known, 1))) return known;
    let lo = Math.max(known, 1) + 1;
    let hi = await this.currentRevision();
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.readableAt(mid)) hi = mid;
      else lo = mid + 1;
    }
    this.knownCompacted = Math.max(this.knownCompacted, lo);
    return lo;
  }

  private async readableAt(revision: number): Promise<boolean> {
    try {
      await this.readWithRetry(() => this.client.kv.range({ key: PROBE_KEY, count_only: true, revision }));
      return true;
    } catch (err) {
      if (isStorageError(err, 'Compacted')) return false;
      throw err;
    }
  }

  async check(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.client.kv.range({ key: PROBE_KEY, count_only: true }, { deadline: Date.now() + CHECK_TIMEOUT_MS });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new StorageError('Closed', 'storage is closed');
    for (const w of [...this.watches]) w.fail(err);
    this.client.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError('Closed', 'storage is closed');
  }
}
