// Reading decoded JSON whose shape is not guaranteed: type guards and forgiving accessors
// that answer an empty value where the input has something else.

export type Obj = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object, or undefined for anything else. */
export const asObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);

/** The array, or an empty one for anything else. */
export const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The string, or "" for anything else. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Structural equality of decoded JSON values, independent of key order; a key holding
 * undefined counts as absent, as JSON.stringify would write it. No allocation: it runs on
 * every update's compares.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Obj;
  const bo = b as Obj;
  let na = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    na++;
    if (!deepEqual(ao[k], bo[k])) return false;
  }
  let nb = 0;
  for (const k in bo) if (bo[k] !== undefined) nb++;
  return na === nb;
}

const isNilList = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

/**
 * apimachinery's equality.Semantic.DeepEqual on JSON values: like deepEqual, but an empty
 * list and no list (null or absent) are equal, as nil and empty slices are to it.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNilList(a) && isNilList(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Obj;
  const bo = b as Obj;
  for (const k in ao) if (!semanticEqual(ao[k], bo[k])) return false;
  for (const k in bo) if (!(k in ao) && !semanticEqual(undefined, bo[k])) return false;
  return true;
}
