// CBOR request bodies against the answers of kube's own decoder. Each case's expected cause
// was produced by k8s.io/apimachinery v0.33.0's CBOR serializer (runtime/serializer/cbor,
// fxamacker/cbor v2.7.0) decoding the same bytes into the same kind (strict for
// fieldValidation Strict/Warn, lax for Ignore); kapi must give the same cause, wrapped as
// kube's create handler wraps it (transformDecodeError).

import { describe, expect, it } from 'vitest';
import { Encoder } from 'cbor-x';
import { decodeCborTypedBody } from '../../../src/codec/cbor/typed.js';
import { SCHEMAS, rootDefinition } from '../../../src/schema/types/index.js';
import { StatusError } from '../../../src/machinery/errors.js';

// The case builders take loosely shaped values (any): they exist to write odd and malformed bodies.
const enc = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
const TAG = Buffer.from('d9d9f7', 'hex');
const tc = (v: unknown): Buffer => Buffer.concat([TAG, enc.encode(v)]);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- builds CBOR from loosely shaped test values
function hand(v: any): Buffer {
  const head = (m: number, n: number): Buffer => n < 24 ? Buffer.from([(m << 5) | n]) : n < 256 ? Buffer.from([(m << 5) | 24, n]) : (() => { const b = Buffer.alloc(3); b[0] = (m << 5) | 25; b.writeUInt16BE(n, 1); return b; })();
  if (v === null) return Buffer.from([0xf6]);
  if (typeof v === 'boolean') return Buffer.from([v ? 0xf5 : 0xf4]);
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(hand)]);
  return Buffer.concat([head(5, v.entries.length), ...v.entries.flatMap(([k, x]: [string, unknown]) => [hand(k), hand(x)])]);
}
const pc = (extra: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'x' }, value: 5, ...extra });
const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { serviceName: 's', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
const full = tc(pc());
const cases: [string, string, string, string, Buffer][] = [
  ['truncated', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', full.subarray(0, full.length - 5)],
  ['reservedAI', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.from('d9d9f7bc', 'hex')],
  ['extraneous', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([full, Buffer.from([0])])],
  ['nestedDup', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['apiVersion', 'scheduling.k8s.io/v1'], ['kind', 'PriorityClass'], ['metadata', { entries: [['name', 'n'], ['labels', { entries: [['a', 'x'], ['a', 'y']] }]] }], ['value', 10]] })],
  ['structDup', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['apiVersion', 'scheduling.k8s.io/v1'], ['kind', 'PriorityClass'], ['metadata', { entries: [['name', 'n'], ['name', 'm']] }], ['value', 10]] })],
  ['topDup', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['apiVersion', 'scheduling.k8s.io/v1'], ['kind', 'PriorityClass'], ['value', 1], ['value', 2]] })],
  ['dupInUnknown', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['apiVersion', 'scheduling.k8s.io/v1'], ['kind', 'PriorityClass'], ['metadata', { entries: [['name', 'n']] }], ['bogus', { entries: [['x', 1], ['x', 2]] }], ['value', 10]] })],
  ['unknownStrict', 'strict', 'apps/v1', 'StatefulSet', tc({ ...sts, spec: { serviceName: 's', selector: sts.spec.selector, bogusField: 1, template: { ...sts.spec.template, spec: { containers: [{ name: 'c', image: 'i', alsoBogus: true }] } } } })],
  ['unknownInList', 'strict', 'apps/v1', 'StatefulSet', tc({ ...sts, spec: { ...sts.spec, template: { ...sts.spec.template, spec: { containers: [{ image: 'i', name: 'c', ports: [], extra: 'x' }] } } } })],
  ['wrongTypeText', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ value: 'high' }))],
  ['wrongTypeBytes', 'lax', 'apps/v1', 'StatefulSet', tc({ ...sts, spec: { ...sts.spec, replicas: Buffer.from('three') } })],
  ['structGotString', 'lax', 'apps/v1', 'StatefulSet', tc({ ...sts, spec: 'x' })],
  ['structGotArray', 'lax', 'apps/v1', 'StatefulSet', tc({ ...sts, spec: [1] })],
  ['stringGotInt', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ description: 5 }))],
  ['bigArray', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ metadata: { name: 'x', finalizers: new Array(1025).fill('a') } }))],
  ['badUtf8', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a2', 'hex'), hand('kind'), hand('PriorityClass'), hand('description'), Buffer.from('62c328', 'hex')])],
  ['apiVersionInt', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ apiVersion: 7 }))],
  ['apiVersionBad', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ apiVersion: 'a/b/c' }))],
  ['topArray', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc([1, 2])],
  ['empty', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.alloc(0)],
  ['deep', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a1', 'hex'), hand('x'), Buffer.alloc(70, 0x81), Buffer.from([0])])],
  ['nullTop', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('f6', 'hex')])],
  ['quantityBad', 'lax', 'v1', 'PersistentVolumeClaim', tc({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: { resources: { requests: { storage: 'lots' } } } })],
  ['quantityNeg', 'lax', 'v1', 'PersistentVolumeClaim', tc({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: { resources: { requests: { storage: -5 } } } })],
  ['quantityBool', 'lax', 'v1', 'PersistentVolumeClaim', tc({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: { resources: { requests: { storage: true } } } })],
  ['timeBad', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ metadata: { name: 'x', creationTimestamp: 'yesterday' } }))],
  ['intOrStrOverflow', 'lax', 'policy/v1', 'PodDisruptionBudget', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PodDisruptionBudget'), hand('apiVersion'), hand('policy/v1'), hand('spec'), Buffer.from('a1', 'hex'), hand('minAvailable'), Buffer.from('1b0000010000000000', 'hex')])],
  ['intOrStrFloat', 'lax', 'policy/v1', 'PodDisruptionBudget', tc({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { minAvailable: 1.5 } })],
  ['warnUnknown', 'warn', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ zzz: 1 }))],
  ['intKeyStrict', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a301', 'hex'), hand('x'), hand('kind'), hand('PriorityClass'), hand('value'), hand(3)])],
  ['intKeyNestedStrict', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PriorityClass'), hand('metadata'), Buffer.from('a2', 'hex'), hand('name'), hand('n'), Buffer.from('07', 'hex'), hand('q'), hand('value'), hand(3)])],
  ['intKeyInLabels', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PriorityClass'), hand('metadata'), Buffer.from('a2', 'hex'), hand('name'), hand('n'), hand('labels'), Buffer.from('a1', 'hex'), Buffer.from('07', 'hex'), hand('q'), hand('value'), hand(3)])],
  ['uint64overflow', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a2', 'hex'), hand('kind'), hand('PriorityClass'), hand('value'), Buffer.from('1b0000010000000000', 'hex')])],
  ['neg64overflow', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a2', 'hex'), hand('kind'), hand('PriorityClass'), hand('value'), Buffer.from('3b0000010000000000', 'hex')])],
  ['textBytesDup', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PriorityClass'), hand('metadata'), Buffer.from('a2', 'hex'), hand('name'), hand('n'), hand('labels'), Buffer.from('a2', 'hex'), hand('a'), hand('x'), Buffer.from('4161', 'hex'), hand('y'), hand('value'), hand(3)])],
  ['indefMap', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('bf', 'hex'), hand('kind'), hand('PriorityClass'), hand('value'), hand(3), hand('bogus'), hand(1), Buffer.from('ff', 'hex')])],
  ['tag0time', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PriorityClass'), hand('metadata'), Buffer.from('a2', 'hex'), hand('name'), hand('n'), hand('creationTimestamp'), Buffer.from('c0', 'hex'), hand('2024-01-02T03:04:05Z'), hand('value'), hand(3)])],
  ['tag1time', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PriorityClass'), hand('metadata'), Buffer.from('a2', 'hex'), hand('name'), hand('n'), hand('creationTimestamp'), Buffer.from('c11a65938a65', 'hex'), hand('value'), hand(3)])],
  ['tag22', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a3', 'hex'), hand('kind'), hand('PriorityClass'), hand('description'), Buffer.from('d6426869', 'hex'), hand('value'), hand(3)])],
  ['bigMap', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ metadata: { name: 'x', labels: Object.fromEntries(Array.from({ length: 1025 }, (_, i) => [`k${i}`, 'v'])) } }))],
  ['nullString', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ description: null }))],
  ['boolInt', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ value: true }))],
  ['undefinedVal', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a2', 'hex'), hand('kind'), hand('PriorityClass'), hand('value'), Buffer.from('f7', 'hex')])],
  ['simpleVal', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a2', 'hex'), hand('kind'), hand('PriorityClass'), hand('value'), Buffer.from('e0', 'hex')])],
  ['mapForString', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ description: { a: 1 } }))],
  ['arrayForMap', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', tc(pc({ metadata: { name: 'x', labels: ['a'] } }))],
  ['floatInt', 'lax', 'scheduling.k8s.io/v1', 'PriorityClass', Buffer.concat([TAG, Buffer.from('a2', 'hex'), hand('kind'), hand('PriorityClass'), hand('value'), Buffer.from('f94500', 'hex')])],
  ['quantityInt', 'lax', 'v1', 'PersistentVolumeClaim', tc({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: { resources: { requests: { storage: 5 } } } })],
  ['intOrStringBad', 'lax', 'policy/v1', 'PodDisruptionBudget', tc({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { minAvailable: true } })],
  ['unknownWithDupKnownLater', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['kind', 'PriorityClass'], ['bogus', 1], ['metadata', { entries: [['name', 'a'], ['name', 'b']] }]] })],
  ['typeErrThenUnknown', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['kind', 'PriorityClass'], ['value', 'x'], ['bogus', 1]] })],
  ['unknownThenTypeErr', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['kind', 'PriorityClass'], ['bogus', 1], ['value', 'x']] })],
  ['dupThenTypeErr', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['kind', 'PriorityClass'], ['metadata', { entries: [['name', 'a'], ['name', 'b']] }], ['value', 'x']] })],
  ['typeErrThenDup', 'strict', 'scheduling.k8s.io/v1', 'PriorityClass', hand({ entries: [['kind', 'PriorityClass'], ['value', 'x'], ['metadata', { entries: [['name', 'a'], ['name', 'b']] }]] })],
];

/** The cause apimachinery's decoder gives for each case ('OK': it decodes). */
const GO: Record<string, string> = {
  "truncated": "unable to determine group/version/kind: unexpected EOF",
  "reservedAI": "unable to determine group/version/kind: cbor: invalid additional information 28 for type map",
  "extraneous": "unable to determine group/version/kind: cbor: 1 bytes of extraneous data starting at index 83",
  "nestedDup": "cbor: found duplicate map key \"a\" at map element index 1",
  "structDup": "cbor: found duplicate map key \"name\" at map element index 1",
  "topDup": "unable to determine group/version/kind: cbor: found duplicate map key \"value\" at map element index 3",
  "dupInUnknown": "strict decoding error: cbor: found unknown field at map element index 3",
  "unknownStrict": "strict decoding error: cbor: found unknown field at map element index 2",
  "unknownInList": "strict decoding error: cbor: found unknown field at map element index 3",
  "wrongTypeText": "cbor: cannot unmarshal UTF-8 text string into Go struct field v1.PriorityClass.value of type int32",
  "wrongTypeBytes": "cbor: cannot unmarshal byte string into Go struct field v1.StatefulSet.spec of type int32",
  "structGotString": "cbor: cannot unmarshal UTF-8 text string into Go struct field v1.StatefulSet.spec of type v1.StatefulSetSpec",
  "structGotArray": "cbor: cannot unmarshal array into Go struct field v1.StatefulSet.spec of type v1.StatefulSetSpec (cannot decode CBOR array to struct without toarray option)",
  "stringGotInt": "cbor: cannot unmarshal positive integer into Go struct field v1.PriorityClass.description of type string",
  "bigArray": "unable to determine group/version/kind: cbor: exceeded max number of elements 1024 for CBOR array",
  "badUtf8": "cbor: invalid UTF-8 string",
  "apiVersionInt": "unable to determine group/version/kind: cbor: cannot unmarshal positive integer into Go struct field v1.TypeMeta.apiVersion of type string",
  "apiVersionBad": "OK",
  "topArray": "unable to determine group/version/kind: cbor: cannot unmarshal array into Go value of type v1.TypeMeta (cannot decode CBOR array to struct without toarray option)",
  "empty": "unable to determine group/version/kind: EOF",
  "deep": "unable to determine group/version/kind: cbor: exceeded max nested level 64",
  "nullTop": "OK",
  "quantityBad": "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  "quantityNeg": "cbor: cannot unmarshal negative integer into Go struct field v1.PersistentVolumeClaim.spec of type string",
  "quantityBool": "cbor: cannot unmarshal primitives into Go struct field v1.PersistentVolumeClaim.spec of type string",
  "timeBad": "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\"",
  "intOrStrOverflow": "cbor: cannot unmarshal positive integer into Go struct field v1.PodDisruptionBudget.spec of type int32 (1099511627776 overflows int32)",
  "intOrStrFloat": "cbor: cannot unmarshal primitives into Go struct field v1.PodDisruptionBudget.spec of type int32",
  "warnUnknown": "strict decoding error: cbor: found unknown field at map element index 4",
  "intKeyStrict": "strict decoding error: cbor: found unknown field at map element index 0",
  "intKeyNestedStrict": "strict decoding error: cbor: found unknown field at map element index 1",
  "intKeyInLabels": "cbor: cannot unmarshal positive integer into Go struct field v1.PriorityClass.metadata of type string",
  "uint64overflow": "cbor: cannot unmarshal positive integer into Go struct field v1.PriorityClass.value of type int32 (1099511627776 overflows int32)",
  "neg64overflow": "cbor: cannot unmarshal negative integer into Go struct field v1.PriorityClass.value of type int32 (-1099511627777 overflows int32)",
  "textBytesDup": "cbor: found duplicate map key \"a\" at map element index 1",
  "indefMap": "strict decoding error: cbor: found unknown field at map element index 2",
  "tag0time": "OK",
  "tag1time": "cbor: cannot unmarshal positive integer into Go struct field v1.PriorityClass.metadata of type string",
  "tag22": "OK",
  "bigMap": "unable to determine group/version/kind: cbor: exceeded max number of key-value pairs 1024 for CBOR map",
  "nullString": "OK",
  "boolInt": "cbor: cannot unmarshal primitives into Go struct field v1.PriorityClass.value of type int32",
  "undefinedVal": "cbor: data item of cbor type primitives is not accepted by protocol: simple value 23 is not recognized",
  "simpleVal": "cbor: data item of cbor type primitives is not accepted by protocol: simple value 0 is not recognized",
  "mapForString": "cbor: cannot unmarshal map into Go struct field v1.PriorityClass.description of type string",
  "arrayForMap": "cbor: cannot unmarshal array into Go struct field v1.PriorityClass.metadata of type map[string]string",
  "floatInt": "cbor: cannot unmarshal primitives into Go struct field v1.PriorityClass.value of type int32",
  "quantityInt": "cbor: cannot unmarshal positive integer into Go struct field v1.PersistentVolumeClaim.spec of type string",
  "intOrStringBad": "cbor: cannot unmarshal primitives into Go struct field v1.PodDisruptionBudget.spec of type int32",
  "unknownWithDupKnownLater": "cbor: found duplicate map key \"name\" at map element index 1",
  "typeErrThenUnknown": "cbor: cannot unmarshal UTF-8 text string into Go struct field v1.PriorityClass.value of type int32",
  "unknownThenTypeErr": "cbor: cannot unmarshal UTF-8 text string into Go struct field v1.PriorityClass.value of type int32",
  "dupThenTypeErr": "cbor: found duplicate map key \"name\" at map element index 1",
  "typeErrThenDup": "cbor: cannot unmarshal UTF-8 text string into Go struct field v1.PriorityClass.value of type int32"
};

const DEFS: Record<string, [string, string]> = {
  PriorityClass: ['scheduling.k8s.io', 'v1'],
  StatefulSet: ['apps', 'v1'],
  PersistentVolumeClaim: ['', 'v1'],
  PodDisruptionBudget: ['policy', 'v1'],
};

function summary(b: Buffer): string {
  if (b.length === 0) return '<empty>';
  return b.subarray(0, 30).toString('hex') + (b.length > 30 ? ' ...' : '');
}

describe('CBOR bodies decode as apimachinery v0.33 decodes them', () => {
  for (const [name, mode, , kind, body] of cases) {
    it(name, () => {
      const [group, version] = DEFS[kind];
      const fv = mode === 'strict' ? 'Strict' : mode === 'warn' ? 'Warn' : 'Ignore';
      const go = GO[name];
      let got: { warnings: string[] } | StatusError;
      try {
        got = decodeCborTypedBody(body, { kind, group, version, definition: rootDefinition(group, version, kind) }, SCHEMAS, fv, () => undefined);
      } catch (e) {
        if (!(e instanceof StatusError)) throw e;
        got = e;
      }
      if (go === 'OK') {
        expect(got).not.toBeInstanceOf(StatusError);
        return;
      }
      if (mode === 'warn') {
        expect(got).not.toBeInstanceOf(StatusError);
        expect((got as { warnings: string[] }).warnings).toStrictEqual([go.replace(/^strict decoding error: /, '')]);
        return;
      }
      expect(got).toBeInstanceOf(StatusError);
      const se = got as StatusError;
      expect(se.code).toBe(400);
      const want = go.startsWith('unable to determine group/version/kind: ')
        ? `the object provided is unrecognized (must be of type ${kind}): ${go} (${summary(body)})`
        : `${kind} in version "v1" cannot be handled as a ${kind}: ${go}`;
      expect(se.message).toBe(want);
    });
  }
});
