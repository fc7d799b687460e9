import {
  ClientClosedError,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCUnavailableError,
} from 'etcd3';
import { StorageError } from '../errors.js';

/** grpc-js's status names, as Go's codes.Code prints them. */
const GO_CODES: Record<string, string> = {
  CANCELLED: 'Canceled',
  UNKNOWN: 'Unknown',
  INVALID_ARGUMENT: 'InvalidArgument',
  DEADLINE_EXCEEDED: 'DeadlineExceeded',
  NOT_FOUND: 'NotFound',
  ALREADY_EXISTS: 'AlreadyExists',
  PERMISSION_DENIED: 'PermissionDenied',
  RESOURCE_EXHAUSTED: 'ResourceExhausted',
  FAILED_PRECONDITION: 'FailedPrecondition',
  ABORTED: 'Aborted',
  OUT_OF_RANGE: 'OutOfRange',
  UNIMPLEMENTED: 'Unimplemented',
  INTERNAL: 'Internal',
  UNAVAILABLE: 'Unavailable',
  DATA_LOSS: 'DataLoss',
  UNAUTHENTICATED: 'Unauthenticated',
};

/** The answer kube-apiserver relays for a call that ran out of time. */
export const DEADLINE_MESSAGE = 'rpc error: code = DeadlineExceeded desc = context deadline exceeded';

/**
 * An etcd client failure in the words kube-apiserver relays to its clients: etcd's own text
 * ("etcdserver: request timed out") when etcd answered, else Go's gRPC status text.
 */
export function goMessage(err: Error): string {
  const msg = err.message;
  const etcd = msg.indexOf('etcdserver: ');
  if (etcd >= 0) return msg.slice(etcd);
  if (err instanceof GRPCDeadlineExceededError || /^4 DEADLINE_EXCEEDED/.test(msg)) return DEADLINE_MESSAGE;
  const m = /^[0-9]+ ([A-Z_]+): (.*)$/s.exec(msg);
  if (m) return `rpc error: code = ${GO_CODES[m[1]!] ?? m[1]} desc = ${m[2]}`;
  return msg;
}

/** The call never reached etcd (no connection): sending it elsewhere cannot apply it twice. */
export function neverSent(err: unknown): boolean {
  return err instanceof Error && /No connection established|ECONNREFUSED|connect ECONN/.test(err.message) && !err.message.includes('etcdserver:');
}

/** A failure that says the member cannot serve now (as opposed to a refusal of this request). */
export function memberFailure(err: unknown): boolean {
  if (!(err instanceof Error) || isOverloaded(err)) return false;
  return (
    err instanceof GRPCUnavailableError ||
    err instanceof GRPCDeadlineExceededError ||
    err instanceof GRPCCancelledError ||
    err.name === 'BrokenCircuitError'
  );
}

/** etcd's own words for "cannot serve now" (it sends some of them with other gRPC codes). */
const UNAVAILABLE_TEXT = /etcdserver: (request timed out|leader changed|no leader|server stopped|not capable|unhealthy cluster)/;

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
  if (isOverloaded(err) || memberFailure(err) || UNAVAILABLE_TEXT.test(msg)) {
    return new StorageError('Unavailable', goMessage(err));
  }
  return err;
}

/**
 * etcd sheds load ("too many requests") when its apply loop lags far behind commits.
 * It does so before proposing, so even a write is known not to have happened.
 */
export const isOverloaded = (err: unknown): boolean =>
  err instanceof Error && err.message.includes('etcdserver: too many requests');
