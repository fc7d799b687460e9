// kube's CBOR form, piece by piece: the encoder against an independent decoder (cbor-x),
// the decoder's limits and messages (fxamacker/cbor's, as kube passes them on), and the
// apply-patch+cbor body turned into the plain value an apply-patch+yaml body yields.

import { describe, expect, it } from 'vitest';
import { Decoder, Encoder } from 'cbor-x';
import { parse as parseYaml } from 'yaml';
import { applyPatchCborToJson, decodeCbor, encodeCbor, CborDecodeError } from '../../../src/codec/cbor/index.js';
import { StatusError } from '../../../src/machinery/errors.js';

const cborx = new Decoder({ mapsAsObjects: false, useRecords: false });
const encoderx = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function decodeError(b: Uint8Array): CborDecodeError {
  try {
    decodeCbor(b);
  } catch (e) {
    if (e instanceof CborDecodeError) return e;
    throw e;
  }
  throw new Error('decoded');
}

describe('encodeCbor', () => {
  it('wraps the item in the self-described tag and writes strings (keys too) as byte strings', () => {
    expect(hex(encodeCbor({ a: 'b' }))).toBe('d9d9f7' + 'a1' + '4161' + '4162');
    expect(hex(encodeCbor('hello', { selfDescribed: false }))).toBe('4568656c6c6f');
  });

  it('integers in their shortest head, floats in the shortest width that keeps them', () => {
    const cases: [unknown, string][] = [
      [0, '00'],
      [23, '17'],
      [24, '1818'],
      [-1, '20'],
      [-500, '3901f3'],
      [65536, '1a00010000'],
      [2 ** 32, '1b0000000100000000'],
      [1.5, 'f93e00'],
      [65504.5, 'fa477fe080'],
      [100000.5, 'fa47c35040'],
      [0.1, 'fb3fb999999999999a'],
      [true, 'f5'],
      [null, 'f6'],
      [[1, 'x'], '82014178'],
    ];
    for (const [v, want] of cases) expect(hex(encodeCbor(v, { selfDescribed: false })), String(v)).toBe(want);
    expect(() => encodeCbor(NaN)).toThrow();
  });

  it('cbor-x reads back what was written', () => {
    const v = { kind: 'Pod', n: -7, f: 2.75, big: 2 ** 40, list: [false, null, 'é'], nested: { a: { b: [] } } };
    const back = cborx.decode(encodeCbor(v)) as Map<Uint8Array, unknown>;
    const keys = [...back.keys()].map((k) => Buffer.from(k).toString());
    expect(keys).toStrictEqual(Object.keys(v));
    expect(back.get([...back.keys()][2])).toBe(2.75);
  });
});

describe('decodeCbor', () => {
  it('reads text and byte strings alike, looks through tags, takes indefinite lengths', () => {
    expect(decodeCbor(encoderx.encode({ a: [1, 'x'] })).value).toStrictEqual({ a: [1, 'x'] });
    // {_ "a": [_ 1]} with the tag 55799 and a tag 22 around a byte string.
    expect(decodeCbor(Buffer.from('d9d9f7bf6161 9f01ff 6162 d6426869 ff'.replace(/ /g, ''), 'hex')).value).toStrictEqual({ a: [1], b: 'hi' });
  });

  it('enforces kube\'s limits: 1024 array elements, 1024 map pairs, 64 levels', () => {
    expect(decodeError(encoderx.encode(new Array(1025).fill(0))).message).toBe('cbor: exceeded max number of elements 1024 for CBOR array');
    expect(decodeCbor(encoderx.encode(new Array(1024).fill(0))).value).toHaveLength(1024);
    const wide: Record<string, number> = {};
    for (let i = 0; i < 1025; i++) wide[`k${i}`] = i;
    expect(decodeError(encoderx.encode(wide)).message).toBe('cbor: exceeded max number of key-value pairs 1024 for CBOR map');
    const deep = (n: number): Buffer => Buffer.concat([Buffer.alloc(n, 0x81), Buffer.from([0x00])]);
    expect(decodeCbor(deep(64)).value).toBeDefined();
    expect(decodeError(deep(65)).message).toBe('cbor: exceeded max nested level 64');
  });

  it('malformed input: fxamacker/cbor\'s messages', () => {
    expect(decodeError(Buffer.alloc(0)).message).toBe('EOF');
    expect(decodeError(Buffer.from('a2416101', 'hex')).message).toBe('unexpected EOF');
    expect(decodeError(Buffer.from('0001', 'hex')).message).toBe('cbor: 1 bytes of extraneous data starting at index 1');
    expect(decodeError(Buffer.from('1c', 'hex')).message).toBe('cbor: invalid additional information 28 for type positive integer');
    expect(decodeError(Buffer.from('ff', 'hex')).message).toBe('cbor: unexpected "break" code');
    expect(decodeError(Buffer.from('f97c00', 'hex')).message).toBe('cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity');
    const utf8 = decodeError(Buffer.from('62c328', 'hex'));
    expect([utf8.message, utf8.stage]).toStrictEqual(['cbor: invalid UTF-8 string', 'value']);
  });

  it('records the first repeated key of each map with its path and element index', () => {
    // {"m": {"x": 1, "y": 2, "x": 3, "y": 4}, "m2": [{"z": 0, "z": 1}]}
    const doc = decodeCbor(Buffer.from('a2' + '616d' + 'a4' + '617801' + '617902' + '617803' + '617904' + '626d32' + '81' + 'a2' + '617a00' + '617a01', 'hex'));
    expect(doc.duplicates).toStrictEqual([
      { path: 'm', key: 'x', index: 2 },
      { path: 'm2[0]', key: 'z', index: 1 },
    ]);
  });
});

describe('applyPatchCborToJson', () => {
  const yamlText = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: c
        image: nginx
        ports: [{containerPort: 80}]
`;

  it('yields the value the same apply patch in YAML yields, whoever wrote the CBOR', () => {
    const fromYaml = parseYaml(yamlText) as unknown;
    expect(applyPatchCborToJson(encodeCbor(fromYaml))).toStrictEqual(fromYaml);
    expect(applyPatchCborToJson(encoderx.encode(fromYaml))).toStrictEqual(fromYaml);
  });

  it('a body that does not decode, or repeats a key anywhere, is 400 "error decoding patch"', () => {
    const fail = (b: Buffer): StatusError => {
      try {
        applyPatchCborToJson(b);
      } catch (e) {
        if (e instanceof StatusError) return e;
        throw e;
      }
      throw new Error('accepted');
    };
    const cut = fail(encodeCbor({ a: 'b' }).subarray(0, 5));
    expect([cut.code, cut.reason, cut.message]).toStrictEqual([400, 'BadRequest', 'error decoding patch: unexpected EOF']);
    // {"spec": {"x": 1, "x": 2}}
    const dup = fail(Buffer.from('a1' + '6473706563' + 'a2' + '617801' + '617802', 'hex'));
    expect(dup.message).toBe('error decoding patch: cbor: found duplicate map key "x" at map element index 1');
  });
});
