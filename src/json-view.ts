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
