// Integers beyond 2^53 that kapi decoded exactly are written exactly by every encoding (kube's
// int64 fields keep them): JSON (raw-json.ts), protobuf varints and CBOR integers.

import { describe, expect, it } from 'vitest';
import { decodeObject } from '../../../src/machinery/stored-bytes.js';
import { encodeProtobufObject } from '../../../src/codec/protobuf/index.js';
import { encodeCbor } from '../../../src/codec/cbor/encode.js';

const varint = (n: bigint): Buffer => {
  let u = BigInt.asUintN(64, n);
  const out: number[] = [];
  while (u >= 0x80n) {
    out.push(Number(u & 0x7fn) | 0x80);
    u >>= 7n;
  }
  out.push(Number(u));
  return Buffer.from(out);
};

const cr = (revision: string) =>
  decodeObject(Buffer.from(`{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"x"},"data":{},"revision":${revision}}`));

describe('int64 beyond 2^53 in protobuf and CBOR', () => {
  it.each(['9007199254740993', '9223372036854775807'])('protobuf writes %s as its varint', (r) => {
    const bytes = encodeProtobufObject(cr(r));
    // ControllerRevision.revision is field 3, a varint.
    expect(bytes.includes(Buffer.concat([Buffer.from([0x18]), varint(BigInt(r))]))).toBe(true);
  });

  it('CBOR writes it as an unsigned integer, not a float', () => {
    const bytes = encodeCbor(cr('9007199254740993'));
    // "revision" (a byte string), then major type 0 with an 8-byte argument.
    const head = Buffer.concat([Buffer.from([0x48]), Buffer.from('revision'), Buffer.from([0x1b])]);
    const at = bytes.indexOf(head);
    expect(at).toBeGreaterThan(0);
    expect(bytes.readBigUInt64BE(at + head.length)).toBe(9007199254740993n);
  });
});
