import {
  ClientClosedError,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCUnavailableError,
} from 'etcd3';
import { StorageError } from '../errors.js';

/**
 * Translates an etcd3 client failure into the storage contract's errors. etcd reports
 * MVCC bounds only as message text (gRPC OutOfRange), so those are matched by message.
 */
export function toStorageError(err: unknown, compactRevision = 0): Error {
  if (err instanceof StorageError) return err;
  if (!(err instanceof Error)) return new Error(String(err));
  const msg = err.message;
  if (msg.includes('required revision has been compacted')) {
    return new StorageError('Compacted', msg, compactRevision);
  }
  if (msg.includes('required revision is a future revision')) {
    return new StorageError('FutureRevision', msg);
  }
  if (err instanceof ClientClosedError) return new StorageError('Closed', msg);
  if (
    isOverloaded(err) ||
    err instanceof GRPCUnavailableError ||
    err instanceof GRPCDeadlineExceededError ||
    err instanceof GRPCCancelledError ||
    // cockatiel's open circuit: the host failed repeatedly and is being skipped for a while.
    err.name === 'BrokenCircuitError'
  ) {
    return new StorageError('Unavailable', `etcd unavailable: ${msg}`);
  }
  return err;
}

/**
 * etcd sheds load ("too many requests") when its apply loop lags far behind commits.
 * It does so before proposing, so even a write is known not to have happened.
 */
export const isOverloaded = (err: unknown): boolean =>
  err instanceof Error && err.message.includes('etcdserver: too many requests');
