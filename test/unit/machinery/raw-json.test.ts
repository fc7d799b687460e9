// RawJson values are written as their text by stringifyWithRaw, through a marker the output
// is searched for; no user string may be mistaken for it, and outside that function a RawJson
// serializes as the value its text stands for.

import { describe, expect, it } from 'vitest';
import { RawJson, stringifyWithRaw } from '../../../src/machinery/raw-json.js';

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
