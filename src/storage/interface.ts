// The one storage contract. It is shaped after etcd's KV API so that the embedded
// LevelDB backend and a real etcd cluster are interchangeable under the registry.
//
// Revisions: one global, monotonic counter per store. An empty store is at revision 1
// (as etcd is); every successful write (put or delete) takes the next revision.

export interface KeyValue {
  key: string;
  value: Buffer;
  /** Revision at which the key was (last) created. */
  createRevision: number;
  /** Revision of the last write to the key. */
  modRevision: number;
  /**
   * Set when the stored value could not be read back (encryption at rest: no key or a wrong
   * one, bytes that are not what was written): why, in kube's words. `value` is then the raw
   * stored bytes.
   */
  readError?: string;
  /**
   * Set when the value was read by a provider (or key) other than the one that writes: an
   * update must write it again even when the object did not change (kube's stale read,
   * how key rotation reaches every object).
   */
  stale?: boolean;
}

export interface RangeOptions {
  /** First key to return (inclusive). Must start with the prefix. */
  fromKey?: string;
  /** At most this many keys; 0 or unset means all. */
  limit?: number;
  /** Read the state as of this revision (MVCC). Unset means the current state. */
  revision?: number;
}

export interface RangeResult {
  kvs: KeyValue[];
  /** True when more keys after the last returned one match the prefix. */
  more: boolean;
  /** Keys matching the prefix that were not returned (after the last one). */
  remaining: number;
  /** The store revision this read reflects. */
  revision: number;
}

export type TxnOp = { type: 'put'; value: Buffer } | { type: 'delete' };

/**
 * A single-key compare-and-swap: apply `op` to `key` only if the key's current
 * modRevision equals `expectModRevision` (0 means "the key must not exist").
 */
export interface Txn {
  key: string;
  expectModRevision: number;
  op: TxnOp;
}

export interface TxnResult {
  succeeded: boolean;
  /** On success, the revision of this write; on failure, the store revision at evaluation. */
  revision: number;
  /**
   * On success: the written key (null after a delete).
   * On failure: the key's current state (null if absent), so callers can retry without a read.
   */
  current: KeyValue | null;
}

export interface WatchEvent {
  type: 'put' | 'delete';
  key: string;
  /** The new value for a put; undefined for a delete. */
  value?: Buffer;
  /** Revision of this event. */
  modRevision: number;
  createRevision: number;
  /** As KeyValue.readError and stale, for the new value of a put. */
  readError?: string;
  stale?: boolean;
}

export interface WatchHandler {
  /** Events in strictly increasing revision order, never skipping one. */
  onEvents(events: WatchEvent[]): void;
  /** The watch is over (compacted start, store gone); no more events follow. */
  onError(err: Error): void;
  /**
   * Every event up to `revision` has been delivered (an etcd progress notification).
   * Lets a cache prove it is current even when the latest writes were to other prefixes.
   */
  onProgress?(revision: number): void;
}

export interface StorageWatch {
  close(): void;
  /** Ask for an onProgress call as soon as possible (etcd's progress_request). */
  requestProgress(): void;
}

export interface Storage {
  readonly backend: 'level' | 'etcd3';
  get(key: string): Promise<KeyValue | null>;
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  txn(txn: Txn): Promise<TxnResult>;
  /** Deliver every event on keys under `prefix` with revision >= fromRevision. */
  watch(prefix: string, fromRevision: number, handler: WatchHandler): StorageWatch;
  /** Forget history older than `revision`; reads and watches before it fail with Compacted. */
  compact(revision: number): Promise<void>;
  /** The latest committed revision, read consistently (a quorum read on etcd). */
  currentRevision(): Promise<number>;
  /** The revision history was last compacted to (0 if never). */
  compactedRevision(): Promise<number>;
  /** Resolves true when the store answers; used by /readyz. */
  check(): Promise<boolean>;
  close(): Promise<void>;
}
