// JSON text that stands for a value inside an object on its way to storage. A create's
// managedFields entry is written straight as text (its FieldsV1 keys need escaping, which
// makes JSON.stringify of the equivalent object slow); stringifyWithRaw writes the text
// where the value goes. Only the create path makes these, and nothing reads the object
// between making one and encoding it.

import { randomBytes } from 'node:crypto';

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
    s = JSON.stringify(value);
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
