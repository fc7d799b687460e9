import { setTimeout as sleep } from 'node:timers/promises';
import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse, IRequestOp } from 'etcd3';
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
import { isOverloaded, memberFailure, neverSent, toStorageError } from './etcd-errors.js';
import { EtcdWatch } from './etcd-watch.js';
import { prefixRange } from './key-range.js';
import { Limiter } from './limiter.js';
import { EtcdMembers, PROBE_KEY, type Member } from './members.js';

export interface EtcdStorageOptions {
  endpoints: string[];
  /** Most txns in flight to etcd at once; the rest wait in FIFO order. */
  maxInflightTxns?: number;
  /** How long open() keeps trying to reach etcd before giving up (ms). */
  connectTimeoutMs?: number;
  /**
   * Deadline of one etcd call (ms). etcd itself gives up on a proposal after 7 s without a
   * quorum; answering sooner keeps a client's request well inside kube's request timeout.
   */
  requestTimeoutMs?: number;
  /** How often each member is probed (ms). */
  probeIntervalMs?: number;
}

const READ_ATTEMPTS = 3;
/** Overload rejections are retried longer: they are etcd's backpressure, not an outage. */
const OVERLOAD_ATTEMPTS = 10;
const CHECK_TIMEOUT_MS = 2000;
/** A whole-prefix read (a relist of everything) may legitimately take long. */
const UNBOUNDED_RANGE_TIMEOUT_MS = 60_000;

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
  private liveCheck: Promise<boolean> | null = null;

  private constructor(
    private readonly members: EtcdMembers,
    private readonly txnLimiter: Limiter,
    private readonly timeoutMs: number,
  ) {}

  static async open(opts: EtcdStorageOptions): Promise<EtcdStorage> {
    const members = new EtcdMembers(opts.endpoints, { probeIntervalMs: opts.probeIntervalMs });
    const storage = new EtcdStorage(members, new Limiter(opts.maxInflightTxns ?? 256), opts.requestTimeoutMs ?? 5000);
    const deadline = Date.now() + (opts.connectTimeoutMs ?? 10_000);
    for (;;) {
      try {
        await storage.compactedRevision();
        members.start();
        return storage;
      } catch (err) {
        if (Date.now() >= deadline || !isStorageError(err, 'Unavailable')) {
          members.close();
          throw err;
        }
        await sleep(200);
      }
    }
  }

  /** One call on the pinned member; a member that fails it as a whole is marked down. */
  private call<T>(fn: (client: Etcd3, deadline: Date) => Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    const m: Member = this.members.current;
    return this.members.call(fn, timeoutMs).catch((err: unknown) => {
      if (memberFailure(err)) this.members.markDown(m, err instanceof Error ? err.message : String(err));
      throw err;
    });
  }

  private rangeCall(req: IRangeRequest): Promise<IRangeResponse> {
    const timeout = req.limit || req.count_only || !req.range_end ? this.timeoutMs : UNBOUNDED_RANGE_TIMEOUT_MS;
    return this.call((c, deadline) => c.kv.range(req, { deadline }), timeout);
  }

  /**
   * Reads are idempotent: a transient failure is worth another try, on another member when
   * the pin moved (one that answers), at once.
   */
  private readWithRetry<T>(fn: () => Promise<T>): Promise<T> {
    return this.attempt(fn, (err, n) => {
      if (isOverloaded(err)) return n < OVERLOAD_ATTEMPTS;
      // With no member answering (a lost quorum) another round would only wait as long again.
      const elsewhere = this.members.current.up || this.members.members.length === 1;
      return isStorageError(toStorageError(err), 'Unavailable') && n < READ_ATTEMPTS && elsewhere;
    });
  }

  /** Writes are retried only when etcd provably did not apply them. */
  private retryUnsent<T>(fn: () => Promise<T>): Promise<T> {
    return this.attempt(fn, (err, n) => (isOverloaded(err) ? n < OVERLOAD_ATTEMPTS : neverSent(err) && n < READ_ATTEMPTS));
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
    const res = await this.readWithRetry(() => this.rangeCall({ key: Buffer.from(key, 'utf8') }));
    const kv = res.kvs[0];
    return kv ? toKeyValue(kv) : null;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const revision = opts.revision !== undefined && opts.revision > 0 ? opts.revision : 0;
    try {
      const res = await this.readWithRetry(() =>
        this.rangeCall({ ...prefixRange(prefix, opts.fromKey), limit: opts.limit ?? 0, revision }),
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
      const res = await this.readWithRetry(() => this.rangeCall({ key }));
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
    const req = {
      compare: [{ key, target: 'Mod' as const, result: 'Equal' as const, mod_revision: txn.expectModRevision }],
      success,
      failure: [{ request_range: { key } }],
    };
    const res = await this.txnLimiter.run(() => this.retryUnsent(() => this.call((c, deadline) => c.kv.txn(req, { deadline }))));
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
    const w = new EtcdWatch(this.members, prefix, fromRevision, handler, {
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
      await this.call((c, deadline) => c.kv.compact({ revision }, { deadline }));
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
    const res = await this.readWithRetry(() => this.rangeCall({ key: PROBE_KEY, count_only: true }));
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
      await this.readWithRetry(() => this.rangeCall({ key: PROBE_KEY, count_only: true, revision }));
      return true;
    } catch (err) {
      if (isStorageError(err, 'Compacted')) return false;
      throw err;
    }
  }

  /**
   * Whether a quorum answers: some member answered a linearizable read within the last
   * probe round, else one live probe of the pinned member (shared by concurrent checks).
   */
  async check(): Promise<boolean> {
    if (this.closed) return false;
    if (this.members.reachable(CHECK_TIMEOUT_MS)) return true;
    if (!this.liveCheck) {
      this.liveCheck = this.members.probe(this.members.current).finally(() => (this.liveCheck = null));
    }
    return this.liveCheck;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new StorageError('Closed', 'storage is closed');
    for (const w of [...this.watches]) w.fail(err);
    this.members.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError('Closed', 'storage is closed');
  }
}
