// Continue tokens (src/machinery/continue-token.ts): kube's wire form, and every 400 kube-apiserver
// v1.33.13 answered to `?limit=1&continue=<token>` for a bad token (recorded against the
// reference server; storage.DecodeContinue's messages under "invalid continue token: ").

import { describe, expect, it } from 'vitest';
import { decodeContinue, encodeContinue, encodeContinueToken } from '../../../src/machinery/continue-token.js';
import { StatusError } from '../../../src/machinery/errors.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64url');

/** The message of the 400 decodeContinue throws, without kube's common lead. */
function failure(token: string): string {
  try {
    decodeContinue(token);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    expect(e.code).toBe(400);
    expect(e.status.reason).toBe('BadRequest');
    const lead = 'invalid continue token: continue key is not valid';
    expect(e.status.message?.startsWith(lead)).toBe(true);
    return e.status.message!.slice(lead.length);
  }
  throw new Error(`token ${token} decoded`);
}

describe('continue tokens', () => {
  it('round-trip: the page after a key starts just past it', () => {
    const token = encodeContinue(42, 'default/web-0');
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 42, start: 'default/web-0\u0000' });
    expect(token).not.toMatch(/[=+/]/);
    expect(decodeContinue(token)).toEqual({ rv: 42, start: 'default/web-0\u0000' });
  });

  it.each<[number, string]>([
    [1, 'a'],
    [-7, 'ns/name'],
    [2 ** 53 - 1, 'x/y/z'],
    [5, 'ünïcödé/名前'],
    [9, 'a"quote\\back'],
  ])('round-trip rv %s start %j', (rv, start) => {
    expect(decodeContinue(encodeContinueToken(rv, start))).toEqual({ rv, start });
  });

  it.each<[string, { rv: number; start: string }]>([
    // A leading slash is the same key; Go matches field names without regard to case.
    ['{"v":"meta.k8s.io/v1","rv":1,"start":"/"}', { rv: 1, start: '' }],
    ['{"v":"meta.k8s.io/v1","rv":3,"start":"/a/b"}', { rv: 3, start: 'a/b' }],
    ['{"V":"meta.k8s.io/v1","RV":3,"Start":"a"}', { rv: 3, start: 'a' }],
    ['{"v":"meta.k8s.io/v1","rv":3,"start":"a","junk":{"x":[1,2]}}', { rv: 3, start: 'a' }],
    // Past 2^53 the revision is the nearest double (no store comes near it).
    ['{"v":"meta.k8s.io/v1","rv":1234567890123456789,"start":"a"}', { rv: Number('1234567890123456789'), start: 'a' }],
    ['{"v":"meta.k8s.io/v1","rv":-5,"start":"a"}', { rv: -5, start: 'a' }],
  ])('decodes %s', (json, want) => {
    expect(decodeContinue(b64(json))).toEqual(want);
  });

  it('accepts the newlines base64 decoding skips', () => {
    const token = encodeContinue(8, 'a');
    expect(decodeContinue(`${token.slice(0, 4)}\r\n${token.slice(4)}`)).toEqual({ rv: 8, start: 'a\u0000' });
  });

  describe('kube\'s messages for a bad token', () => {
    it.each<[string, string]>([
      ['!!!', ': illegal base64 data at input byte 0'],
      ['abc=', ': illegal base64 data at input byte 3'],
      ['ab==', ': illegal base64 data at input byte 2'],
      ['a', ': illegal base64 data at input byte 0'],
      ['abcde', ': illegal base64 data at input byte 4'],
      ['a b', ': illegal base64 data at input byte 1'],
      ['ab+c', ': illegal base64 data at input byte 2'],
      ['ab\ncd', ": invalid character 'i' looking for beginning of value"],
    ])('base64 %j', (token, want) => {
      expect(failure(token)).toBe(want);
    });

    it.each<[string, string]>([
      ['not json', ": invalid character 'o' in literal null (expecting 'u')"],
      [' ', ': unexpected end of JSON input'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a"', ': unexpected end of JSON input'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a"} x', ": invalid character 'x' after top-level value"],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a","extra":[}', ": invalid character '}' looking for beginning of value"],
      ['\u00ff', ": invalid character 'Ã' looking for beginning of value"],
      ['[1]', ': json: cannot unmarshal array into Go value of type storage.continueToken'],
      ['"x"', ': json: cannot unmarshal string into Go value of type storage.continueToken'],
      ['5', ': json: cannot unmarshal number into Go value of type storage.continueToken'],
      ['1.5', ': json: cannot unmarshal number into Go value of type storage.continueToken'],
      ['-0', ': json: cannot unmarshal number into Go value of type storage.continueToken'],
      ['{"v":1}', ': json: cannot unmarshal number into Go struct field continueToken.v of type string'],
      ['{"v":["x"],"rv":"1"}', ': json: cannot unmarshal array into Go struct field continueToken.v of type string'],
      ['{"rv":"x","v":1}', ': json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":"5","start":"a"}', ': json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":true}', ': json: cannot unmarshal bool into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":[1],"start":{}}', ': json: cannot unmarshal array into Go struct field continueToken.rv of type int64'],
      ['{"rv":{"a":1},"v":2}', ': json: cannot unmarshal object into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}', ': json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":1.0,"start":"a"}', ': json: cannot unmarshal number 1.0 into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":1e3,"start":"a"}', ': json: cannot unmarshal number 1e3 into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":99999999999999999999,"start":"a"}', ': json: cannot unmarshal number 99999999999999999999 into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":9223372036854775808,"start":"a"}', ': json: cannot unmarshal number 9223372036854775808 into Go struct field continueToken.rv of type int64'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":5}', ': json: cannot unmarshal number into Go struct field continueToken.start of type string'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":true}', ': json: cannot unmarshal bool into Go struct field continueToken.start of type string'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a","v":5}', ': json: cannot unmarshal number into Go struct field continueToken.v of type string'],
      ['null', ': server does not recognize this encoded version '],
      ['{}', ': server does not recognize this encoded version '],
      ['{"V":"x"}', ': server does not recognize this encoded version x'],
      ['{"v":"meta.k8s.io/v2","rv":1,"start":"a"}', ': server does not recognize this encoded version meta.k8s.io/v2'],
      ['{"v":"meta.k8s.io/v1","rv":0,"start":"a"}', ': incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
      ['{"v":"meta.k8s.io/v1","rv":-0,"start":"a"}', ': incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
      ['{"v":"meta.k8s.io/v1","rv":null,"start":"a"}', ': incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":""}', ': encoded start key empty (version meta.k8s.io/v1)'],
      // path.Clean must leave the key as it is: no way above the list's prefix.
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}', ': ../x'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"/../a"}', ': /../a'],
      ['{"v":"meta.k8s.io/v1","rv":-9223372036854775808,"start":"../a"}', ': ../a'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a/./b"}', ': a/./b'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a//b"}', ': a//b'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"./a"}', ': ./a'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a/.."}', ': a/..'],
      ['{"v":"meta.k8s.io/v1","rv":1,"start":"a/"}', ': a/'],
    ])('%s', (json, want) => {
      expect(failure(b64(json))).toBe(want);
    });
  });
});
