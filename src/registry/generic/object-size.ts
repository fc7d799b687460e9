// The stored-object size limit. kube-apiserver writes every object to etcd, and etcd
// refuses a request larger than its --max-request-bytes (1.5 MiB by default) with
// `etcdserver: request is too large`. kube-apiserver 1.33 does not map that error
// (storage/etcd3 passes it through; kubernetes/kubernetes#112152 is still open), so
// responsewriters.ErrorToAPIStatus turns it into a bare 500: no reason, the etcd message
// as the message. kapi keeps etcd's message but answers 413 RequestEntityTooLarge: the
// object is the client's doing, and bad input never gets a 500 here. The request body
// limit (3 MiB, also a 413) is separate and checked first.
//
// kapi applies the same limit to both backends here, before the write is sent, so a
// refused write stores nothing; an etcd cluster with its own limit refuses alike and gets
// the same answer. A dry run never reaches etcd in kube, so it is not limited.

import { StatusError } from '../../machinery/errors.js';

/** etcd's default --max-request-bytes. */
export const MAX_STORAGE_REQUEST_BYTES = 1.5 * 1024 * 1024;

const ETCD_TOO_LARGE = 'etcdserver: request is too large';

/**
 * What a put of `value` at `key` costs in an etcd request: the value, the key (the
 * transaction names it in its compare, its put and its read-back) and framing.
 */
export const storageRequestBytes = (key: string, value: Buffer): number => value.length + 3 * Buffer.byteLength(key) + 64;

/** The answer to a write too large to store: etcd's words, as a 413. */
export function objectTooLarge(): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', ETCD_TOO_LARGE);
}

/** Throws kube's answer when the object is too large to store. */
export function checkStoredSize(key: string, value: Buffer): void {
  if (storageRequestBytes(key, value) > MAX_STORAGE_REQUEST_BYTES) throw objectTooLarge();
}

/** True for etcd's own refusal of a request over its limit. */
export const isStorageTooLarge = (err: unknown): boolean => err instanceof Error && err.message.includes(ETCD_TOO_LARGE);
