// JSON text that stands for a value inside an object on its way to storage. A create's
// managedFields entry is written straight as text (its FieldsV1 keys need escaping, which
// makes JSON.stringify of the equivalent object slow); stringifyWithRaw writes the text
// where the value goes. Only the create path makes these, and nothing reads the object
// between making one and encoding it.

import { randomBytes } from 'node:crypto';
import { JsonNumber } from './json-scan.js';

/**
 * What a RawJson serializes as inside stringifyWithRaw, found again in the output and
 * replaced by the text. A string value of the user's cannot produce it: the random part is
 * unknown outside the process, and a string's own closing quote is always escaped.
 */
const MARK = `\u0000kapi-raw:${randomBytes(16).toString('hex')}`;
const MARK_JSON = JSON.stringify(MARK);

/** The texts of the RawJson values met by the stringify in progress, in output order. */
let collecting: string[] | null = null;

export class RawJson {
  constructor(readonly json: string) {}

  /** Outside stringifyWithRaw, the value itself (correct, only slower). */
  toJSON(): unknown {
    if (collecting === null) return JSON.parse(this.json);
    collecting.push(this.json);
    return MARK;
  }
}

/**
 * JSON.stringify of `value` with every RawJson inside it written as its text; the result as
 * pieces whose concatenation is the JSON (one piece when there was none).
 */
export function stringifyWithRaw(value: unknown): string[] {
  const outer = collecting;
  const raws: string[] = [];
  collecting = raws;
  let s: string;
  try {
    s = stringifyCollecting(value);
  } finally {
    collecting = outer;
  }
  if (raws.length === 0) return [s];
  const pieces: string[] = [];
  let at = 0;
  for (const raw of raws) {
    const i = s.indexOf(MARK_JSON, at);
    pieces.push(s.slice(at, i), raw);
    at = i + MARK_JSON.length;
  }
  pieces.push(s.slice(at));
  return pieces;
}

// ---- int64 values beyond 2^53, and a RawExtension's number literals ----
//
// kapi's objects hold numbers as JS numbers, which round an integer beyond 2^53; kube's int64
// fields keep it exact, and a RawExtension keeps its bytes (`1.0`, `1e3`). Where a decoder met
// such a literal it records the exact text against the object holding it (and the key);
// stringifyWithRaw writes that text instead of the JS number as long as the value there is
// still that number. Deep copies (meta.ts clone) and updates (carryExactInts) keep the
// records; objects read back from storage get them again for integers beyond 2^53
// (stored-bytes.ts), not for other literals.

const EXACT_INTS = new WeakMap<object, Map<string, string>>();
/**
 * The exact integers recorded lately, by their rounding: a validation message quotes a field's
 * value without its holder, and the value it quotes was decoded moments before.
 */
const RECENT_EXACT = new Map<number, string>();
/**
 * Objects holding records that are still alive: while there are none, nothing is looked up
 * (stringify without a replacer, no walks), so the cost stays with the objects that need it.
 */
let liveHolders = 0;
const holdersGone = new FinalizationRegistry<undefined>(() => {
  liveHolders--;
});
const anyExact = (): boolean => liveHolders > 0;

/** The records of `holder`, made (and counted) when it has none yet. */
function recordsOf(holder: object): Map<string, string> {
  let m = EXACT_INTS.get(holder);
  if (!m) {
    EXACT_INTS.set(holder, (m = new Map()));
    liveHolders++;
    holdersGone.register(holder, undefined);
  }
  return m;
}

/** Records that `holder[key]` (a rounded number) stands for the integer `text`. */
export function recordExactInt(holder: object, key: string, text: string): void {
  recordsOf(holder).set(key, text);
  if (RECENT_EXACT.size >= 1024) RECENT_EXACT.clear();
  RECENT_EXACT.set(Number(text), text);
}

/** The exact text of an integer beyond 2^53 recorded lately with the rounding `n`. */
export function recentExactInt(n: number): string | undefined {
  return RECENT_EXACT.get(n);
}

/** Carries the records of `from`'s keys over to `to` (a copy of some of its fields). */
export function copyExactInts(from: object, to: object): void {
  if (!anyExact()) return;
  const m = EXACT_INTS.get(from);
  if (m) {
    const into = recordsOf(to);
    for (const [k, t] of m) into.set(k, t);
  }
}

/** The exact text of `holder[key]` when one was recorded and the value is still its rounding. */
export function exactIntText(holder: object, key: string): string | undefined {
  if (!anyExact()) return undefined;
  const t = EXACT_INTS.get(holder)?.get(key);
  return t !== undefined && Number(t) === (holder as Record<string, unknown>)[key] ? t : undefined;
}

/**
 * `holder[key]` as the exact integer recorded for it, when it holds an integer beyond 2^53 with
 * such a record (a RawExtension's other literals, `1.0` or `1e3`, are no integers).
 */
export function exactBigInt(holder: object, key: string): bigint | undefined {
  const v = (holder as Record<string, unknown>)[key];
  if (typeof v !== 'number' || Number.isSafeInteger(v)) return undefined;
  const t = exactIntText(holder, key);
  return t !== undefined && /^-?[0-9]+$/.test(t) ? BigInt(t) : undefined;
}

function exactReplacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'number' && collecting !== null && this !== null && typeof this === 'object') {
    const t = exactIntText(this, key);
    if (t !== undefined) {
      collecting.push(t);
      return MARK;
    }
  }
  return value;
}

/** JSON.stringify inside stringifyWithRaw: with the replacer only once an exact integer was recorded. */
function stringifyCollecting(value: unknown): string {
  return anyExact() ? JSON.stringify(value, exactReplacer) : JSON.stringify(value);
}

type Rec = Record<string, unknown>;

/**
 * Walks two trees side by side, depth first without recursion (they may nest deep): `visit` sees
 * each pair of objects at the same place; a `true` from it ends the walk, and the walk says so.
 */
function walkPairs(a: unknown, b: unknown, visit: (x: Rec, y: Rec) => boolean | void): boolean {
  const todo: [unknown, unknown][] = [[a, b]];
  while (todo.length > 0) {
    const [x, y] = todo.pop()!;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') continue;
    const xo = x as Rec;
    const yo = y as Rec;
    if (visit(xo, yo) === true) return true;
    for (const k of Object.keys(xo)) {
      const u = xo[k];
      if (u !== null && typeof u === 'object') todo.push([u, yo[k]]);
    }
  }
  return false;
}

/** The keys where both objects hold the same integer beyond 2^53 (which may stand for different exact texts). */
function* sameRoundedInts(xo: Rec, yo: Rec): Generator<string> {
  for (const k of Object.keys(xo)) {
    const u = xo[k];
    if (typeof u === 'number' && u === yo[k] && !Number.isSafeInteger(u)) yield k;
  }
}

/**
 * Whether two objects equal as JS values differ in an integer beyond 2^53 (one exact value
 * against another that rounds the same): a write that changes only such a number is no no-op.
 */
export function exactIntsDiffer(a: unknown, b: unknown): boolean {
  if (!anyExact()) return false;
  return walkPairs(a, b, (xo, yo) => {
    for (const k of sameRoundedInts(xo, yo)) {
      if ((exactIntText(xo, k) ?? String(xo[k])) !== (exactIntText(yo, k) ?? String(yo[k]))) return true;
    }
  });
}

/** After a deep copy (structuredClone): the records of `from`'s objects carried to their copies in `to`. */
export function copyExactIntsDeep(from: unknown, to: unknown): void {
  if (!anyExact()) return;
  walkPairs(from, to, (x, y) => copyExactInts(x, y));
}

/**
 * `to` made from `from` (an update's new object from the old one): where `to` holds the same
 * rounded integer as `from` at the same place without a record of its own, it is the old
 * value carried over, and keeps the old exact text.
 */
export function carryExactInts(from: unknown, to: unknown): void {
  if (!anyExact()) return;
  walkPairs(from, to, (xo, yo) => {
    if (Array.isArray(yo)) return;
    for (const k of sameRoundedInts(xo, yo)) {
      const t = exactIntText(xo, k);
      if (t !== undefined && EXACT_INTS.get(yo)?.get(k) === undefined) recordExactInt(yo, k, t);
    }
  });
}

/**
 * A parsed value with JsonNumbers (json-scan.ts's literals) made plain numbers again, each
 * integer beyond 2^53 among them recorded exactly where it sits. In place; returns the value.
 */
export function plainNumbersKeepingInts(value: unknown): unknown {
  if (value instanceof JsonNumber) return value.value;
  if (value === null || typeof value !== 'object') return value;
  const todo: object[] = [value];
  while (todo.length > 0) {
    const o = todo.pop() as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v instanceof JsonNumber) {
        o[k] = v.value;
        if (!Number.isSafeInteger(v.value) && /^-?[0-9]+$/.test(v.raw)) recordExactInt(o, k, BigInt(v.raw).toString());
      } else if (v !== null && typeof v === 'object') todo.push(v);
    }
  }
  return value;
}
