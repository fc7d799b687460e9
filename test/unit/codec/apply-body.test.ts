// Apply configurations (src/codec/apply-body.ts) and the JSON body parser they share with typed
// bodies (src/codec/json.ts).

import { describe, expect, it } from 'vitest';
import { APPLY_PATCH_CBOR, APPLY_PATCH_YAML, decodeApplyConfiguration } from '../../../src/codec/apply-body.js';
import { parseJsonBody } from '../../../src/codec/json.js';
import { encodeCbor } from '../../../src/codec/cbor/index.js';
import { JsonNumber, JsonSyntaxError } from '../../../src/machinery/json-scan.js';
import { StatusError } from '../../../src/machinery/errors.js';
import type { FieldValidation } from '../../../src/machinery/options.js';

const yaml = (text: string, fv: FieldValidation = 'Warn') => decodeApplyConfiguration(Buffer.from(text), APPLY_PATCH_YAML, fv);

function badRequest(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    expect(e.code).toBe(400);
    return e.status.message ?? '';
  }
  throw new Error('no error');
}

const DUPS = 'error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key "a" already set in map';

describe('decodeApplyConfiguration', () => {
  it.each<[string, string, Record<string, unknown>]>([
    ['JSON', '{"apiVersion":"v1","kind":"X","metadata":{"name":"a"},"n":1.5}', { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, n: 1.5 }],
    ['JSON after blanks', '\n  {"a":[1,2]}', { a: [1, 2] }],
    ['YAML', 'apiVersion: v1\nkind: X\nmetadata:\n  name: a\n', { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' } }],
    ['YAML 1.1 booleans', 'a: yes\nb: off\n', { a: true, b: false }],
    ['YAML flow mappings that are not JSON', '{a: 1, b: [x, z]}', { a: 1, b: ['x', 'z'] }],
    ['an empty body', '', {}],
    ['null', 'null', {}],
  ])('reads %s', (_what, text, want) => {
    expect(yaml(text)).toEqual({ config: want, warnings: [] });
  });

  it('reads JSON with repeated keys through YAML, which words them as kube does', () => {
    const text = '{"a":1,"a":2}';
    expect(yaml(text, 'Ignore')).toEqual({ config: { a: 2 }, warnings: [] });
    // kube warns once per repeated key.
    expect(yaml(text, 'Warn')).toEqual({ config: { a: 2 }, warnings: ['line 1: key "a" already set in map'] });
    // Strict: the error is given once the apply has merged the body (kube's applyPatcher).
    const strict = yaml(text, 'Strict');
    expect(strict.config).toEqual({ a: 2 });
    expect(strict.strictError?.status.message).toBe(`error strict decoding YAML: ${DUPS}`);
  });

  it('refuses a configuration that is not an object', () => {
    expect(badRequest(() => yaml('[1,2]'))).toBe('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(badRequest(() => yaml('"x"'))).toBe('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}');
    expect(badRequest(() => yaml('5'))).toBe('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal number into Go value of type map[string]interface {}');
  });

  it('refuses YAML it cannot read', () => {
    expect(badRequest(() => yaml('a: [1,\n'))).toMatch(/^error decoding YAML: error converting YAML to JSON: yaml: /);
    expect(badRequest(() => decodeApplyConfiguration(Buffer.from([0x61, 0x3a, 0x20, 0xff]), APPLY_PATCH_YAML, 'Warn'))).toBe('error decoding YAML: error converting YAML to JSON: yaml: invalid leading UTF-8 octet');
  });

  it('reads CBOR as the same configuration', () => {
    const config = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, list: [1, 'two'] };
    expect(decodeApplyConfiguration(encodeCbor(config), APPLY_PATCH_CBOR, 'Strict')).toEqual({ config, warnings: [] });
    expect(badRequest(() => decodeApplyConfiguration(Buffer.from([0xff]), APPLY_PATCH_CBOR, 'Warn'))).toMatch(/^error decoding patch: /);
  });
});

describe('parseJsonBody', () => {
  it('reads plain JSON natively, the rest with the scanner and its options', () => {
    expect(parseJsonBody('{"a":1}')).toEqual({ value: { a: 1 }, duplicates: [] });
    const dup = parseJsonBody('{"a":{"x":1},"a":{"y":2}}', { duplicateObjects: 'merge' });
    expect(dup.value).toEqual({ a: { x: 1, y: 2 } });
    expect(dup.duplicates.map((d) => d.path)).toEqual(['a']);
    const literal = parseJsonBody('{"n":1.50}', { numbers: 'literal' }).value as { n: JsonNumber };
    expect(literal.n).toBeInstanceOf(JsonNumber);
    expect(literal.n.raw).toBe('1.50');
  });

  it('words syntax errors as Go does', () => {
    expect(() => parseJsonBody('{"a":}')).toThrow(new JsonSyntaxError("invalid character '}' looking for beginning of value", 5));
  });
});
