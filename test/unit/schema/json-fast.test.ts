// The native JSON fast path (src/schema/json-fast.ts): it answers only when JSON.parse reads the
// text exactly as the Go-faithful scanner would, and leaves everything else to the scanner.

import { describe, expect, it } from 'vitest';
import { parseJsonFast } from '../../../src/schema/json-fast.js';
import { MAX_JSON_DEPTH, scanJson } from '../../../src/machinery/json-scan.js';

const fast = (text: string, depth = MAX_JSON_DEPTH) => parseJsonFast(text, depth);

describe('parseJsonFast', () => {
  it.each<[string, string]>([
    ['an empty object', '{}'],
    ['an empty array', '[]'],
    ['a string', '"x"'],
    ['an integer', '42'],
    ['a negative integer', '-42'],
    ['zero and minus zero', '[0,-0]'],
    ['true, false and null', '[true,false,null]'],
    ['null at the top', 'null'],
    ['every kind in one object', '{"s":"v","n":7,"t":true,"f":false,"z":null,"a":[1,"2",[3],{"b":4}],"o":{"p":{"q":[]}}}'],
    ['15-digit integers', '[123456789012345,-999999999999999]'],
    ['the same key in different objects', '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}'],
    ['colons, braces, brackets and digits inside strings', '{"a:b":"c:d","[{":"}]","x":"1.5e3","y":"-0.1"}'],
    ['escaped quotes and backslashes', '{"a\\"b":"c\\\\","d":"\\\\\\"","e\\\\":1}'],
    ['the escapes other than \\u', '{"e":"\\n\\t\\r\\b\\f\\/"}'],
    ['blanks around everything', ' \n\t{ "a" : [ 1 , 2 ] }\r\n'],
    ['non-ASCII text', '{"名前":"ünïcödé","emoji":"😀"}'],
    ['a __proto__ key, as an own field', '{"__proto__":{"polluted":1}}'],
  ])('reads %s as JSON.parse and the scanner do', (_what, text) => {
    const r = fast(text);
    expect(r).toBeDefined();
    expect(r!.value).toStrictEqual(JSON.parse(text));
    expect(r!.value).toStrictEqual(scanJson(text).value);
  });

  it('keeps __proto__ as data, not as the prototype', () => {
    const v = fast('{"__proto__":{"polluted":1}}')!.value as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, string]>([
    ['a repeated key', '{"a":1,"a":2}'],
    ['a repeated key with the same value', '{"a":1,"a":1}'],
    ['a repeated key deep inside', '{"x":{"y":[{"b":1,"c":2,"b":3}]}}'],
    ['a repeated key in an array element', '[{"a":1},{"a":1,"a":1}]'],
    ['a \\u escape (Go turns lone surrogates into U+FFFD)', '{"a":"\\u00e9"}'],
    ['a \\u escape in a key', '{"\\u0061":1}'],
    ['a fraction', '{"a":1.5}'],
    ['a fraction of zero', '{"a":1.0}'],
    ['an exponent', '{"a":1e3}'],
    ['an upper-case exponent', '{"a":1E3}'],
    ['a negative fraction', '[-0.5]'],
    ['a 16-digit integer', '[1234567890123456]'],
    ['a 16-digit negative integer', '[-1234567890123456]'],
    ['a 20-digit integer', '{"rv":99999999999999999999}'],
  ])('leaves %s to the scanner', (_what, text) => {
    expect(fast(text)).toBeUndefined();
  });

  it.each<[string, string]>([
    ['empty text', ''],
    ['blanks', '   '],
    ['an open object', '{'],
    ['a missing value', '{"a":}'],
    ['a trailing comma', '{"a":1,}'],
    ['an unterminated string', '{"a":"b'],
    ['an unterminated key', '{"a'],
    ['a bare word', 'nul'],
    ['text after the value', '{"a":1} x'],
    ['two values', '{} {}'],
    ['a leading zero', '[01]'],
    ['single quotes', "{'a':1}"],
    ['a raw control character in a string', '{"a":"\u0001"}'],
  ])('leaves invalid input (%s) to the scanner, which words the error', (_what, text) => {
    expect(fast(text)).toBeUndefined();
    expect(() => scanJson(text)).toThrow();
  });

  it('counts nesting outside strings only, up to the limit', () => {
    expect(fast('[[[1]]]', 3)?.value).toEqual([[[1]]]);
    expect(fast('[[[1]]]', 2)).toBeUndefined();
    expect(fast('{"a":{"b":{}}}', 3)?.value).toEqual({ a: { b: {} } });
    expect(fast('{"a":{"b":{}}}', 2)).toBeUndefined();
    expect(fast('{"a":"[[[[[[{{{{"}', 1)?.value).toEqual({ a: '[[[[[[{{{{' });
  });

  it('reads documents as deep as kube allows, and no deeper', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const ok = fast(deep(MAX_JSON_DEPTH));
    expect(ok).toBeDefined();
    let v = ok!.value;
    let depth = 0;
    while (Array.isArray(v)) {
      depth++;
      v = v[0];
    }
    expect(depth).toBe(MAX_JSON_DEPTH);
    expect(fast(deep(MAX_JSON_DEPTH + 1))).toBeUndefined();
  });

  it('reads a large object of many keys', () => {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) obj[`k${i}`] = { n: i, s: `v${i}`, l: [i, -i - 1] };
    const text = JSON.stringify(obj);
    expect(fast(text)?.value).toStrictEqual(obj);
    expect(fast(text.replace('"k4999"', '"k0"'))).toBeUndefined();
  });
});
