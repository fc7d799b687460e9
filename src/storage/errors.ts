export type StorageErrorCode = 'Compacted' | 'FutureRevision' | 'Unavailable' | 'Closed';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** For Compacted: the revision history is compacted to. */
    readonly compactRevision = 0,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const isStorageError = (e: unknown, code?: StorageErrorCode): e is StorageError =>
  e instanceof StorageError && (code === undefined || e.code === code);
