import { mkdir } from 'node:fs/promises';
import { Level } from 'level';
import { StorageError } from '../errors.js';
import type {
  KeyValue,
  RangeOptions,
  RangeResult,
  Storage,
  StorageWatch,
  Txn,
  TxnResult,
  WatchEvent,
  WatchHandler,
} from '../interface.js';
import {
  KIND_DELETE,
  KIND_PUT,
  META_COMPACT,
  META_REV,
  type Pointer,
  allCurrentBounds,
  currentBounds,
  currentKey,
  decodeLog,
  decodePointer,
  decodeRevision,
  decodeVersion,
  encodeLog,
  encodePointer,
  encodeRevision,
  encodeVersion,
  historyBounds,
  historyKey,
  logBounds,
  logKey,
  parseHistoryKey,
  parseLogKey,
  userKeyOfCurrent,
} from './layout.js';
import { LevelWatch, WatchHub } from './watch-hub.js';

type Db = Level<string, Buffer>;
type Snapshot = ReturnType<Db['snapshot']>;
type BatchOp =
  | { type: 'put'; key: string; value: Buffer }
  | { type: 'del'; key: string };

interface PendingTxn {
  txn: Txn;
  resolve: (r: TxnResult) => void;
  reject: (e: unknown) => void;
}

export interface LevelStorageOptions {
  /** fsync every batch: survives power loss, not only a crash of the process. */
  sync?: boolean;
}

/** Bounds one batch so a burst of writers does not build an unbounded write. */
const MAX_BATCH_TXNS = 2000;
const SCAN_CHUNK = 512;

/**
 * Embedded MVCC store on LevelDB emulating etcd's KV semantics (see layout.ts).
 *
 * Writes are group-committed: txns that arrive while a batch is being written wait
 * and are evaluated, in arrival order, into the next batch. An in-memory index of
 * every live key's two revisions (loaded from c! at open) makes evaluating a compare
 * free of reads; it is updated only after the batch holding the change is written,
 * so it never runs ahead of what a restart would recover.
 */
export class LevelStorage implements Storage {
  readonly backend = 'level' as const;

  private rev: number;
  private compacted: number;
  private readonly hub = new WatchHub(() => this.rev);
  private queue: PendingTxn[] = [];
  private draining: Promise<void> | null = null;
  private compaction: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly db: Db,
    private readonly index: Map<string, Pointer>,
    rev: number,
    compacted: number,
    private readonly sync: boolean,
  ) {
    this.rev = rev;
    this.compacted = compacted;
  }

  static async open(dir: string, opts: LevelStorageOptions = {}): Promise<LevelStorage> {
    await mkdir(dir, { recursive: true });
    const db: Db = new Level<string, Buffer>(dir, { keyEncoding: 'utf8', valueEncoding: 'buffer' });
    await db.open();
    try {
      const [rawRev, rawCompact] = (await db.getMany([META_REV, META_COMPACT])) as (Buffer | undefined)[];
      const index = new Map<string, Pointer>();
      const it = db.iterator(allCurrentBounds());
      try {
        for (;;) {
          const chunk = await it.nextv(4096);
          if (chunk.length === 0) break;
          for (const [k, v] of chunk) index.set(userKeyOfCurrent(k), decodePointer(v));
        }
      } finally {
        await it.close();
      }
      return new LevelStorage(
        db,
        index,
        Math.max(1, decodeRevision(rawRev)),
        decodeRevision(rawCompact),
        opts.sync ?? false,
      );
    } catch (err) {
      await db.close();
      throw err;
    }
  }

  // ---- reads ----

  async get(key: string): Promise<KeyValue | null> {
    this.assertOpen();
    for (;;) {
      const ptr = this.index.get(key);
      if (!ptr) return null;
      const raw = (await this.db.get(historyKey(key, ptr.modRevision))) as Buffer | undefined;
      if (raw !== undefined) {
        return { key, value: decodeVersion(raw).value, createRevision: ptr.createRevision, modRevision: ptr.modRevision };
      }
      // The version can only vanish if the key was rewritten and compacted meanwhile.
      if (this.index.get(key) === ptr) {
        throw new Error(`level storage: version ${ptr.modRevision} of ${key} is missing`);
      }
    }
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    this.assertOpen();
    const atRev = opts.revision !== undefined && opts.revision > 0 ? opts.revision : 0;
    // Checked before taking the snapshot: compaction publishes the new bound before it
    // deletes anything, so a snapshot taken after a passing check still has the history.
    if (atRev > 0 && atRev < this.compacted) {
      throw new StorageError('Compacted', `revision ${atRev} is compacted (at ${this.compacted})`, this.compacted);
    }
    const snapshot = this.db.snapshot();
    try {
      const storeRev = Math.max(1, decodeRevision((await this.db.get(META_REV, { snapshot })) as Buffer | undefined));
      if (atRev > storeRev) {
        throw new StorageError('FutureRevision', `revision ${atRev} is ahead of the store (${storeRev})`);
      }
      const from = opts.fromKey !== undefined && opts.fromKey > prefix ? opts.fromKey : prefix;
      const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : 0;
      const res =
        atRev === 0 || atRev === storeRev
          ? await this.rangeCurrent(snapshot, prefix, from, limit)
          : await this.rangeAt(snapshot, prefix, from, limit, atRev);
      return { ...res, more: res.remaining > 0, revision: atRev || storeRev };
    } finally {
      await snapshot.close();
    }
  }

  private async rangeCurrent(
    snapshot: Snapshot,
    prefix: string,
    from: string,
    limit: number,
  ): Promise<{ kvs: KeyValue[]; remaining: number }> {
    const picked: { key: string; ptr: Pointer }[] = [];
    let remaining = 0;
    const it = this.db.iterator<Buffer, Buffer>({
      ...currentBounds(prefix, from),
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      snapshot,
    });
    try {
      for (;;) {
        const chunk = await it.nextv(SCAN_CHUNK);
        if (chunk.length === 0) break;
        for (const [k, v] of chunk) {
          if (limit === 0 || picked.length < limit) {
            picked.push({ key: k.toString('utf8', 2), ptr: decodePointer(v) });
          } else {
            remaining++;
          }
        }
      }
    } finally {
      await it.close();
    }
    const raws = (await this.db.getMany(
      picked.map((p) => historyKey(p.key, p.ptr.modRevision)),
      { snapshot },
    )) as (Buffer | undefined)[];
    const kvs = picked.map(({ key, ptr }, i): KeyValue => {
      const raw = raws[i];
      if (raw === undefined) throw new Error(`level storage: version ${ptr.modRevision} of ${key} is missing`);
      return { key, value: decodeVersion(raw).value, createRevision: ptr.createRevision, modRevision: ptr.modRevision };
    });
    return { kvs, remaining };
  }

  /** MVCC read: for each key, the newest version at or before `atRev`, unless it is a tombstone. */
  private async rangeAt(
    snapshot: Snapshot,
    prefix: string,
    from: string,
    limit: number,
    atRev: number,
  ): Promise<{ kvs: KeyValue[]; remaining: number }> {
    const kvs: KeyValue[] = [];
    let remaining = 0;
    let curKey: string | null = null;
    let best: { rev: number; raw: Buffer } | null = null;
    const settle = (): void => {
      if (curKey === null || best === null) return;
      const v = decodeVersion(best.raw);
      if (v.kind !== KIND_PUT) return;
      if (limit === 0 || kvs.length < limit) {
        kvs.push({ key: curKey, value: v.value, createRevision: v.createRevision, modRevision: best.rev });
      } else {
        remaining++;
      }
    };
    const fromBytes = Buffer.from(from, 'utf8');
    let pastFrom = false;
    const it = this.db.iterator<Buffer, Buffer>({
      ...historyBounds(prefix, from),
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      snapshot,
    });
    try {
      for (;;) {
        const chunk = await it.nextv(SCAN_CHUNK);
        if (chunk.length === 0) break;
        for (const [k, v] of chunk) {
          const { key, rev } = parseHistoryKey(k);
          // 'h!' + from can precede versions of keys below `from` (from = "<key>\x00",
          // the usual "next page" key, is a prefix of <key>'s own version keys).
          if (!pastFrom) {
            if (Buffer.compare(Buffer.from(key, 'utf8'), fromBytes) < 0) continue;
            pastFrom = true;
          }
          if (key !== curKey) {
            settle();
            curKey = key;
            best = null;
          }
          // Versions of one key come in ascending revision order.
          if (rev <= atRev) best = { rev, raw: v };
        }
      }
      settle();
    } finally {
      await it.close();
    }
    return { kvs, remaining };
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compacted;
  }

  async check(): Promise<boolean> {
    return !this.closed && this.db.status === 'open';
  }

  // ---- writes ----

  txn(txn: Txn): Promise<TxnResult> {
    if (this.closed) return Promise.reject(new StorageError('Closed', 'storage is closed'));
    return new Promise<TxnResult>((resolve, reject) => {
      this.queue.push({ txn, resolve, reject });
      // Deferred to a microtask so txns issued in the same tick share the first batch.
      this.draining ??= Promise.resolve().then(() => this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.length <= MAX_BATCH_TXNS ? this.queue : this.queue.slice(0, MAX_BATCH_TXNS);
        this.queue = this.queue.length <= MAX_BATCH_TXNS ? [] : this.queue.slice(MAX_BATCH_TXNS);
        // commit() settles its own txns; this only guards against a bug leaving them hanging.
        await this.commit(batch).catch((err: unknown) => {
          for (const p of batch) p.reject(err);
        });
      }
    } finally {
      this.draining = null;
    }
  }

  /** Evaluates a batch against the index plus its own earlier txns, writes it, then acks. */
  private async commit(batch: PendingTxn[]): Promise<void> {
    const ops: BatchOp[] = [];
    // Key -> state after the earlier txns of this batch (null = deleted in this batch).
    const overlay = new Map<string, KeyValue | null>();
    const results: TxnResult[] = new Array<TxnResult>(batch.length);
    // Failed txns whose current value must be read: their key is untouched by this batch.
    const unread: { i: number; key: string; ptr: Pointer }[] = [];
    const events: WatchEvent[] = [];
    let rev = this.rev;

    for (let i = 0; i < batch.length; i++) {
      const { key, expectModRevision, op } = batch[i]!.txn;
      const inBatch = overlay.get(key);
      const cur: Pointer | null = inBatch !== undefined ? inBatch : (this.index.get(key) ?? null);
      const curMod = cur ? cur.modRevision : 0;

      if (curMod !== expectModRevision || (op.type === 'delete' && cur === null)) {
        if (inBatch === undefined && cur !== null) {
          unread.push({ i, key, ptr: cur });
          results[i] = { succeeded: false, revision: rev, current: null };
        } else {
          results[i] = { succeeded: false, revision: rev, current: inBatch ?? null };
        }
        continue;
      }

      rev++;
      if (op.type === 'put') {
        const kv: KeyValue = { key, value: op.value, createRevision: cur ? cur.createRevision : rev, modRevision: rev };
        ops.push(
          { type: 'put', key: currentKey(key), value: encodePointer(kv) },
          { type: 'put', key: historyKey(key, rev), value: encodeVersion(KIND_PUT, kv.createRevision, op.value) },
          { type: 'put', key: logKey(rev), value: encodeLog({ kind: KIND_PUT, prevModRevision: curMod, key }) },
        );
        overlay.set(key, kv);
        results[i] = { succeeded: true, revision: rev, current: kv };
        events.push({ type: 'put', key, value: op.value, modRevision: rev, createRevision: kv.createRevision });
      } else {
        ops.push(
          { type: 'del', key: currentKey(key) },
          { type: 'put', key: historyKey(key, rev), value: encodeVersion(KIND_DELETE, cur!.createRevision) },
          { type: 'put', key: logKey(rev), value: encodeLog({ kind: KIND_DELETE, prevModRevision: curMod, key }) },
        );
        overlay.set(key, null);
        results[i] = { succeeded: true, revision: rev, current: null };
        // etcd reports a deletion with only the key and the revision that removed it.
        events.push({ type: 'delete', key, modRevision: rev, createRevision: 0 });
      }
    }

    if (rev > this.rev) ops.push({ type: 'put', key: META_REV, value: encodeRevision(rev) });

    try {
      await Promise.all([
        ops.length > 0 ? this.write(ops) : undefined,
        unread.length > 0 ? this.fillCurrent(unread, results) : undefined,
      ]);
    } catch (err) {
      const e = new StorageError('Unavailable', `level storage write failed: ${(err as Error).message}`);
      for (const p of batch) p.reject(e);
      return;
    }

    for (const [key, kv] of overlay) {
      if (kv) this.index.set(key, { createRevision: kv.createRevision, modRevision: kv.modRevision });
      else this.index.delete(key);
    }
    this.rev = rev;
    this.hub.dispatch(events);
    for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
  }

  /**
   * One atomic write, as a chained batch: db.batch(ops, options) copies its options into every
   * operation, which cost three times the write's own work on the main thread.
   */
  private write(ops: BatchOp[]): Promise<void> {
    const b = this.db.batch();
    for (const op of ops) {
      if (op.type === 'put') b.put(op.key, op.value);
      else b.del(op.key);
    }
    return b.write({ sync: this.sync });
  }

  /** Versions named by the index are immutable and outlive compaction while current. */
  private async fillCurrent(unread: { i: number; key: string; ptr: Pointer }[], results: TxnResult[]): Promise<void> {
    const raws = (await this.db.getMany(unread.map((u) => historyKey(u.key, u.ptr.modRevision)))) as (
      | Buffer
      | undefined
    )[];
    unread.forEach(({ i, key, ptr }, j) => {
      const raw = raws[j];
      if (raw === undefined) throw new Error(`level storage: version ${ptr.modRevision} of ${key} is missing`);
      results[i] = {
        ...results[i]!,
        current: { key, value: decodeVersion(raw).value, createRevision: ptr.createRevision, modRevision: ptr.modRevision },
      };
    });
  }

  // ---- watch ----

  watch(prefix: string, fromRevision: number, handler: WatchHandler): StorageWatch {
    const start = fromRevision > 0 ? fromRevision : this.rev + 1;
    const w = new LevelWatch(prefix, start, handler, this.hub);
    if (this.closed) {
      queueMicrotask(() => w.fail(new StorageError('Closed', 'storage is closed')));
      return w;
    }
    if (start < this.compacted) {
      const compacted = this.compacted;
      queueMicrotask(() =>
        w.fail(new StorageError('Compacted', `revision ${start} is compacted (at ${compacted})`, compacted)),
      );
      return w;
    }
    this.hub.add(w);
    if (start > this.rev) {
      // Nothing at or after `start` has been dispatched yet, so live delivery is complete.
      w.goLive();
      return w;
    }
    // Registered before the snapshot: every commit is either in the snapshot or
    // dispatched to the buffer afterwards (or both, which `next` dedupes).
    const snapshot = this.db.snapshot();
    this.replay(w, start, snapshot)
      .then(
        () => w.goLive(),
        (err: unknown) => w.fail(err instanceof Error ? err : new Error(String(err))),
      )
      .finally(() => snapshot.close().catch(() => undefined));
    return w;
  }

  private async replay(w: LevelWatch, from: number, snapshot: Snapshot): Promise<void> {
    const it = this.db.iterator({ ...logBounds(from), snapshot });
    try {
      for (;;) {
        const chunk = await it.nextv(SCAN_CHUNK);
        if (chunk.length === 0 || w.isClosed) return;
        const events: WatchEvent[] = [];
        const puts: { event: WatchEvent; hkey: string }[] = [];
        for (const [k, v] of chunk) {
          const rec = decodeLog(v);
          if (!rec.key.startsWith(w.prefix)) continue;
          const modRevision = parseLogKey(k);
          if (rec.kind === KIND_DELETE) {
            events.push({ type: 'delete', key: rec.key, modRevision, createRevision: 0 });
          } else {
            const event: WatchEvent = { type: 'put', key: rec.key, modRevision, createRevision: 0 };
            events.push(event);
            puts.push({ event, hkey: historyKey(rec.key, modRevision) });
          }
        }
        if (puts.length > 0) {
          const raws = (await this.db.getMany(
            puts.map((p) => p.hkey),
            { snapshot },
          )) as (Buffer | undefined)[];
          puts.forEach(({ event, hkey }, i) => {
            const raw = raws[i];
            if (raw === undefined) throw new Error(`level storage: ${hkey} is missing from history`);
            const ver = decodeVersion(raw);
            event.value = ver.value;
            event.createRevision = ver.createRevision;
          });
        }
        if (w.isClosed) return;
        if (events.length > 0) w.deliver(events);
      }
    } finally {
      await it.close();
    }
  }

  // ---- compaction ----

  compact(revision: number): Promise<void> {
    const run = this.compaction.then(() => this.runCompaction(revision));
    this.compaction = run.catch(() => undefined);
    return run;
  }

  private async runCompaction(target: number): Promise<void> {
    this.assertOpen();
    if (target <= this.compacted) return;
    if (target > this.rev) {
      throw new StorageError('FutureRevision', `cannot compact to ${target}: store is at ${this.rev}`);
    }
    // Publish the bound first: from here on reads below it fail instead of seeing holes.
    await this.db.put(META_COMPACT, encodeRevision(target), { sync: this.sync });
    this.compacted = target;

    // Every log record at or before the target names the version it superseded; that
    // version (and any tombstone) is dead for reads at >= target. The record at the
    // target itself stays so a watch can start exactly there. Deleting is idempotent,
    // so an interrupted compaction is simply finished by the next one.
    const it = this.db.iterator({ gte: logBounds(0).gte, lte: logKey(target) });
    try {
      for (;;) {
        const chunk = await it.nextv(SCAN_CHUNK);
        if (chunk.length === 0) break;
        const ops: BatchOp[] = [];
        for (const [k, v] of chunk) {
          const rev = parseLogKey(k);
          const rec = decodeLog(v);
          if (rec.prevModRevision > 0) ops.push({ type: 'del', key: historyKey(rec.key, rec.prevModRevision) });
          if (rec.kind === KIND_DELETE) ops.push({ type: 'del', key: historyKey(rec.key, rev) });
          if (rev < target) ops.push({ type: 'del', key: k });
        }
        await this.write(ops);
      }
    } finally {
      await it.close();
    }
  }

  // ---- lifecycle ----

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Txns accepted before close are still committed and acked.
    await this.draining;
    await this.compaction;
    this.hub.failAll(new StorageError('Closed', 'storage is closed'));
    await this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError('Closed', 'storage is closed');
  }
}
