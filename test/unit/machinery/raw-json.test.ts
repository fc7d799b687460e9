// RawJson values are written as their text by stringifyWithRaw, through a marker the output
// is searched for; no user string may be mistaken for it, and outside that function a RawJson
// serializes as the value its text stands for.

import { describe, expect, it } from 'vitest';
import { RawJson, carryExactInts, copyExactIntsDeep, exactBigInt, exactIntText, exactIntsDiffer, recordExactInt, stringifyWithRaw } from '../../../src/machinery/raw-json.js';

describe('RawJson', () => {
  it('is written as its text, in place, each one where it stands', () => {
    const v = { a: 'x', b: [new RawJson('{"f:x":{}}'), { c: new RawJson('[1,2]') }], d: 1 };
    const out = stringifyWithRaw(v).join('');
    expect(out).toBe('{"a":"x","b":[{"f:x":{}},{"c":[1,2]}],"d":1}');
    expect(JSON.parse(out)).toEqual({ a: 'x', b: [{ 'f:x': {} }, { c: [1, 2] }], d: 1 });
  });

  it('is not confused with strings that look like its marker', () => {
    const lookalikes = ['\u0000kapi-raw:', '"\u0000kapi-raw:0"', '\\u0000kapi-raw:', 'kapi-raw'];
    const v = { before: lookalikes, raw: new RawJson('{"k":true}'), after: lookalikes };
    const out = stringifyWithRaw(v).join('');
    expect(JSON.parse(out)).toEqual({ before: lookalikes, raw: { k: true }, after: lookalikes });
  });

  it('without RawJson values gives JSON.stringify as one piece', () => {
    const v = { a: [1, 'two', null], b: { c: true } };
    expect(stringifyWithRaw(v)).toEqual([JSON.stringify(v)]);
  });

  it('serializes as the value its text stands for outside stringifyWithRaw', () => {
    expect(JSON.stringify({ f: new RawJson('{"f:a":{}}') })).toBe('{"f":{"f:a":{}}}');
  });
});

describe('exact number literals', () => {
  it('writes a recorded integer beyond 2^53 as it was, while the value is still its rounding', () => {
    const o: Record<string, unknown> = { revision: Number('9007199254740993'), n: 1 };
    recordExactInt(o, 'revision', '9007199254740993');
    expect(stringifyWithRaw(o).join('')).toBe('{"revision":9007199254740993,"n":1}');
    o.revision = 5;
    expect(stringifyWithRaw(o).join('')).toBe('{"revision":5,"n":1}');
  });

  it('keeps the records through deep copies and carries them into an update that left the value alone', () => {
    const old = { spec: { a: Number('9223372036854775807') } };
    recordExactInt(old.spec, 'a', '9223372036854775807');
    const copy = structuredClone(old);
    copyExactIntsDeep(old, copy);
    expect(exactIntText(copy.spec, 'a')).toBe('9223372036854775807');
    const updated = { spec: { ...old.spec } };
    carryExactInts(old, updated);
    expect(stringifyWithRaw(updated).join('')).toBe('{"spec":{"a":9223372036854775807}}');
  });

  it('answers the exact integer of a rounded value only, not the other literals a RawExtension keeps', () => {
    const o: Record<string, unknown> = { big: Number('9007199254740993'), one: 1, e: 1000 };
    recordExactInt(o, 'big', '9007199254740993');
    recordExactInt(o, 'one', '1.0');
    recordExactInt(o, 'e', '1e3');
    expect(exactBigInt(o, 'big')).toBe(9007199254740993n);
    expect(exactBigInt(o, 'one')).toBeUndefined();
    expect(exactBigInt(o, 'e')).toBeUndefined();
    o.big = 7;
    expect(exactBigInt(o, 'big')).toBeUndefined();
  });

  it('tells values that round the same apart', () => {
    const a = { r: 9007199254740996 };
    const b = { r: 9007199254740996 };
    recordExactInt(a, 'r', '9007199254740995');
    recordExactInt(b, 'r', '9007199254740996');
    expect(exactIntsDiffer(a, b)).toBe(true);
    expect(exactIntsDiffer(a, a)).toBe(false);
  });
});
