// On-disk layout of the LevelDB backend. Everything lives in one LevelDB so that a
// transaction (current pointer + history version + log record + revision meta) is a
// single atomic batch.
//
//   c!<key>                 -> current pointer: createRevision, modRevision (16 bytes)
//   h!<key>\x00<rev16>      -> one version of <key>: kind, createRevision, value bytes
//   r!<rev16>               -> revision log record: kind, previous modRevision, key
//   m!rev / m!compact       -> current / compacted revision
//
// Values live only in h!: a put writes its bytes once, the pointer in c! names the
// version. '\x00' after the key keeps all versions of "/a/b" before "/a/bc" in byte
// order, and the fixed-width decimal revision sorts versions of one key by revision.

import { allocBytes } from '../../machinery/bytes.js';

export const META_REV = 'm!rev';
export const META_COMPACT = 'm!compact';

const REV_WIDTH = 16; // 10^16 > Number.MAX_SAFE_INTEGER, so every safe revision fits

export const KIND_PUT = 0;
export const KIND_DELETE = 1;
export type Kind = typeof KIND_PUT | typeof KIND_DELETE;

const CURRENT_PREFIX = 'c!';
const HISTORY_PREFIX = 'h!';
const LOG_PREFIX = 'r!';

export const revDigits = (rev: number): string => String(rev).padStart(REV_WIDTH, '0');

export const currentKey = (key: string): string => CURRENT_PREFIX + key;
export const historyKey = (key: string, rev: number): string =>
  HISTORY_PREFIX + key + '\x00' + revDigits(rev);
export const logKey = (rev: number): string => LOG_PREFIX + revDigits(rev);

/**
 * The smallest byte string greater than every string starting with `prefix`
 * (etcd's range_end for a prefix). Empty when no such bound exists (all 0xff).
 */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.alloc(0);
}

/** Byte bounds [gte, lt) of the current pointers for keys under `prefix`, from `from`. */
export function currentBounds(prefix: string, from: string): { gte: Buffer; lt: Buffer } {
  return {
    gte: Buffer.from(CURRENT_PREFIX + from, 'utf8'),
    lt: prefixEnd(Buffer.from(CURRENT_PREFIX + prefix, 'utf8')),
  };
}

/** Byte bounds [gte, lt) of all history versions for keys under `prefix`, from `from`. */
export function historyBounds(prefix: string, from: string): { gte: Buffer; lt: Buffer } {
  return {
    gte: Buffer.from(HISTORY_PREFIX + from, 'utf8'),
    lt: prefixEnd(Buffer.from(HISTORY_PREFIX + prefix, 'utf8')),
  };
}

// '"' is the byte after '!', so 'r"' bounds every r! key from above.
export const logBounds = (fromRev: number): { gte: string; lt: string } => ({
  gte: logKey(fromRev),
  lt: 'r"',
});

export const allCurrentBounds = (): { gte: string; lt: string } => ({ gte: CURRENT_PREFIX, lt: 'c"' });

export const userKeyOfCurrent = (k: string): string => k.slice(CURRENT_PREFIX.length);

/** Splits a raw h! key into the user key and the version's revision. */
export function parseHistoryKey(raw: Buffer): { key: string; rev: number } {
  const revStart = raw.length - REV_WIDTH;
  return {
    key: raw.toString('utf8', HISTORY_PREFIX.length, revStart - 1),
    rev: Number(raw.toString('latin1', revStart)),
  };
}

export const parseLogKey = (k: string): number => Number(k.slice(LOG_PREFIX.length));

// Numbers are stored as float64: exact for every safe integer and cheap to encode.

export function encodeRevision(rev: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeDoubleBE(rev, 0);
  return b;
}

export const decodeRevision = (b: Buffer | undefined): number => (b ? b.readDoubleBE(0) : 0);

export interface Pointer {
  createRevision: number;
  modRevision: number;
}

export function encodePointer(p: Pointer): Buffer {
  const b = Buffer.allocUnsafe(16);
  b.writeDoubleBE(p.createRevision, 0);
  b.writeDoubleBE(p.modRevision, 8);
  return b;
}

export const decodePointer = (b: Buffer): Pointer => ({
  createRevision: b.readDoubleBE(0),
  modRevision: b.readDoubleBE(8),
});

const VERSION_HEADER = 9;

export function encodeVersion(kind: Kind, createRevision: number, value?: Buffer): Buffer {
  const b = allocBytes(VERSION_HEADER + (value ? value.length : 0));
  b[0] = kind;
  b.writeDoubleBE(createRevision, 1);
  if (value) value.copy(b, VERSION_HEADER);
  return b;
}

export interface Version {
  kind: Kind;
  createRevision: number;
  value: Buffer;
}

export const decodeVersion = (b: Buffer): Version => ({
  kind: b[0] === KIND_DELETE ? KIND_DELETE : KIND_PUT,
  createRevision: b.readDoubleBE(1),
  // A view, not a copy: the read buffer belongs to this version alone.
  value: b.subarray(VERSION_HEADER),
});

const LOG_HEADER = 9;

export interface LogRecord {
  kind: Kind;
  /** modRevision of the version this write superseded (0 if the key was absent). */
  prevModRevision: number;
  key: string;
}

export function encodeLog(r: LogRecord): Buffer {
  const keyBytes = Buffer.byteLength(r.key, 'utf8');
  const b = Buffer.allocUnsafe(LOG_HEADER + keyBytes);
  b[0] = r.kind;
  b.writeDoubleBE(r.prevModRevision, 1);
  b.write(r.key, LOG_HEADER, 'utf8');
  return b;
}

export const decodeLog = (b: Buffer): LogRecord => ({
  kind: b[0] === KIND_DELETE ? KIND_DELETE : KIND_PUT,
  prevModRevision: b.readDoubleBE(1),
  key: b.toString('utf8', LOG_HEADER),
});
