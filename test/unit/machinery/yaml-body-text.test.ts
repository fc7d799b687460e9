// goyaml.v2's reader: UTF-16 bodies by their byte order mark, UTF-8 otherwise, refused in its words.

import { describe, expect, it } from 'vitest';
import { yamlBodyText } from '../../../src/machinery/utf8.js';

const le = (s: string, tail: number[] = []) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le'), Buffer.from(tail)]);

describe('yamlBodyText', () => {
  it('reads UTF-16 in either byte order, and UTF-8', () => {
    expect(yamlBodyText(le('a: é😀\n'))).toEqual({ text: 'a: é😀\n' });
    expect(yamlBodyText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a: 1\n', 'utf16le').swap16()]))).toEqual({ text: 'a: 1\n' });
    expect(yamlBodyText(Buffer.from('a: é\n'))).toEqual({ text: 'a: é\n' });
  });

  it.each<[string, Buffer, string]>([
    ['an odd byte', le('a: 1', [0x0a]), 'incomplete UTF-16 character'],
    ['a lone low surrogate', le('a: ', [0x00, 0xdc]), 'unexpected low surrogate area'],
    ['a high surrogate at the end', le('a: ', [0x3d, 0xd8]), 'incomplete UTF-16 surrogate pair'],
    ['a high surrogate before another character', le('a: ', [0x3d, 0xd8, 0x41, 0x00]), 'expected low surrogate area'],
    ['a control character', le('a: \u0001'), 'control characters are not allowed'],
    ['invalid UTF-8', Buffer.from([0x61, 0xff]), 'invalid leading UTF-8 octet'],
  ])('refuses %s', (_what, body, error) => {
    expect(yamlBodyText(body)).toEqual({ error });
  });
});

describe('a bad byte past the first 512', () => {
  it('is left for the scanner to meet: the characters before its chunk are read', () => {
    const text = 'a: 1\n' + '#'.repeat(600) + '\n';
    const r = yamlBodyText(Buffer.concat([Buffer.from(text), Buffer.from([0xff])]));
    expect(r).toEqual({ text: text + '\ufffd', fault: { error: 'invalid leading UTF-8 octet', limit: 512 } });
  });
});
