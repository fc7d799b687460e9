// Stored bytes (src/machinery/stored-bytes.ts): the store keeps canonical JSON without a
// resourceVersion, and the cache splices the revision into those bytes rather than parsing and
// re-encoding each object.

import { describe, expect, it } from 'vitest';
import type { KObject } from '../../../src/machinery/object.js';
import { RawJson } from '../../../src/machinery/raw-json.js';
import {
  canonicalOrder,
  decodeObject,
  encodeForStorage,
  listItemSlice,
  replaceResourceVersion,
  storedLengthsDiffer,
  stripResourceVersion,
  withResourceVersion,
  type VersionedBytes,
} from '../../../src/machinery/stored-bytes.js';

const pc = (meta: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): KObject =>
  ({ kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', metadata: { name: 'high', ...meta }, value: 1000, ...extra }) as KObject;

/** The resourceVersion as the offsets say it is. */
const rvAt = (v: VersionedBytes): string => v.bytes.subarray(v.rvStart, v.rvEnd).toString();

/** Objects whose strings, keys and nested fields look like the spliced field. */
const LOOKALIKES: [string, KObject][] = [
  ['an annotation value holding the field', pc({ annotations: { note: '"resourceVersion":"7",' } })],
  ['a label key named resourceVersion', pc({ labels: { resourceVersion: '9' } })],
  ['a name that is the field', pc({ name: '"resourceVersion":"1"' })],
  ['a nested metadata with a resourceVersion', pc({}, { template: { metadata: { resourceVersion: '3', name: 'x' } } })],
  ['a top-level field named resourceVersion', pc({}, { resourceVersion: '5', metadata2: { resourceVersion: '6' } })],
  ['a description holding "metadata":{', pc({}, { description: '{"kind":"X","apiVersion":"v1","metadata":{"resourceVersion":"2",' })],
];

describe('encodeForStorage', () => {
  it('writes kind, apiVersion, metadata in ObjectMeta order, then the rest, without resourceVersion', () => {
    const obj = {
      spec: { a: 1 },
      metadata: { labels: { a: 'b' }, resourceVersion: '17', zzz: 1, uid: 'u', name: 'n', creationTimestamp: 't', namespace: 'ns' },
      apiVersion: 'v1',
      status: { phase: 'x' },
      kind: 'Pod',
    } as unknown as KObject;
    expect(encodeForStorage(obj).toString()).toBe(
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"n","namespace":"ns","uid":"u","creationTimestamp":"t","labels":{"a":"b"},"zzz":1},"spec":{"a":1},"status":{"phase":"x"}}',
    );
  });

  it('drops undefined fields and writes empty metadata for an object without it', () => {
    const obj = { kind: 'X', apiVersion: 'v1', spec: undefined, metadata: undefined } as unknown as KObject;
    expect(encodeForStorage(obj).toString()).toBe('{"kind":"X","apiVersion":"v1","metadata":{}}');
  });

  it('writes RawJson values as their text', () => {
    const obj = pc({ managedFields: [new RawJson('{"manager":"m","fieldsV1":{"f:value":{}}}')] });
    expect(decodeObject(encodeForStorage(obj)).metadata.managedFields).toEqual([{ manager: 'm', fieldsV1: { 'f:value': {} } }]);
  });

  it('canonicalOrder keeps resourceVersion unless asked to drop it', () => {
    expect(Object.keys(canonicalOrder(pc({ resourceVersion: '4' })).metadata as object)).toEqual(['name', 'resourceVersion']);
    expect(Object.keys(canonicalOrder(pc({ resourceVersion: '4' }), true).metadata as object)).toEqual(['name']);
  });
});

describe('withResourceVersion', () => {
  it('splices the revision first into the top-level metadata, and says where it is', () => {
    const v = withResourceVersion(encodeForStorage(pc()), 12);
    expect(v.bytes.toString()).toBe('{"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1","metadata":{"resourceVersion":"12","name":"high"},"value":1000}');
    expect(rvAt(v)).toBe('12');
  });

  it('adds no comma to empty metadata', () => {
    const v = withResourceVersion(Buffer.from('{"kind":"X","apiVersion":"v1","metadata":{}}'), 3);
    expect(v.bytes.toString()).toBe('{"kind":"X","apiVersion":"v1","metadata":{"resourceVersion":"3"}}');
    expect(rvAt(v)).toBe('3');
  });

  it('normalizes bytes not in the stored form first', () => {
    for (const raw of [
      '{"metadata":{"name":"a"},"kind":"X","apiVersion":"v1"}',
      '{"kind":"X","metadata":{"name":"a"}}',
      '{ "kind": "X", "apiVersion": "v1", "metadata": { "name": "a" } }',
      '{"kind":"X\\u0059","apiVersion":"v1","metadata":{"name":"a"}}',
    ]) {
      const v = withResourceVersion(Buffer.from(raw), 8);
      const obj = decodeObject(v.bytes);
      expect(obj.metadata).toEqual({ resourceVersion: '8', name: 'a' });
      expect(Object.keys(obj)[Object.keys(obj).length - 1]).toBe('metadata');
      expect(rvAt(v)).toBe('8');
    }
  });

  it.each(LOOKALIKES)('touches only the real field with %s', (_what, obj) => {
    const stored = encodeForStorage(obj);
    const v = withResourceVersion(stored, 12345);
    expect(rvAt(v)).toBe('12345');
    expect(decodeObject(v.bytes)).toEqual({ ...obj, metadata: { resourceVersion: '12345', ...obj.metadata } });
    const w = replaceResourceVersion(v, 6);
    expect(decodeObject(w.bytes)).toEqual({ ...obj, metadata: { resourceVersion: '6', ...obj.metadata } });
    expect(stripResourceVersion(w).equals(stored)).toBe(true);
    expect(JSON.parse(`{${listItemSlice(w).toString()}`)).toEqual({ metadata: { resourceVersion: '6', ...obj.metadata }, ...withoutTypeMeta(obj) });
  });
});

function withoutTypeMeta(obj: KObject): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, metadata: _m, ...rest } = obj as Record<string, unknown>;
  return rest;
}

describe('replaceResourceVersion', () => {
  it.each<[number, number]>([
    [9, 10],
    [100, 7],
    [5, 5],
    [1, Number.MAX_SAFE_INTEGER],
  ])('%s -> %s: the new digits, the offsets moved with them', (from, to) => {
    const v = withResourceVersion(encodeForStorage(pc({ labels: { a: 'b' } })), from);
    const w = replaceResourceVersion(v, to);
    expect(rvAt(w)).toBe(String(to));
    expect(w.rvStart).toBe(v.rvStart);
    expect(w.bytes.length - v.bytes.length).toBe(String(to).length - String(from).length);
    expect(decodeObject(w.bytes).metadata).toEqual({ resourceVersion: String(to), name: 'high', labels: { a: 'b' } });
    // Chains keep working on the rewritten bytes.
    expect(rvAt(replaceResourceVersion(w, 42))).toBe('42');
  });

  it('leaves the source bytes as they were', () => {
    const v = withResourceVersion(encodeForStorage(pc()), 1);
    const before = Buffer.from(v.bytes);
    replaceResourceVersion(v, 999);
    expect(v.bytes.equals(before)).toBe(true);
  });
});

describe('stripResourceVersion', () => {
  it('gives back the stored bytes, with or without other metadata', () => {
    for (const stored of [encodeForStorage(pc()), Buffer.from('{"kind":"X","apiVersion":"v1","metadata":{}}')]) {
      expect(stripResourceVersion(withResourceVersion(stored, 77)).equals(stored)).toBe(true);
    }
  });
});

describe('listItemSlice', () => {
  it('is the object from its metadata on, for a list item without kind and apiVersion', () => {
    const v = withResourceVersion(encodeForStorage(pc({}, { description: 'd' })), 4);
    expect(`{${listItemSlice(v).toString()}`).toBe('{"metadata":{"resourceVersion":"4","name":"high"},"value":1000,"description":"d"}');
  });

  it('shares the object\'s bytes (no copy)', () => {
    const v = withResourceVersion(encodeForStorage(pc()), 4);
    expect(listItemSlice(v).buffer).toBe(v.bytes.buffer);
  });
});

describe('storedLengthsDiffer', () => {
  it('is sure of a change only between stored-form bytes of different lengths', () => {
    const a = encodeForStorage(pc());
    const b = encodeForStorage(pc({ labels: { x: 'y' } }));
    expect(storedLengthsDiffer(a, b)).toBe(true);
    expect(storedLengthsDiffer(a, encodeForStorage(pc({}, { value: 1001 })))).toBe(false);
    expect(storedLengthsDiffer(Buffer.from('{"metadata":{},"kind":"X"}'), b)).toBe(false);
  });
});

describe('integers beyond 2^53 in stored bytes', () => {
  it('read back exactly and are written back the same', () => {
    const text = '{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"x"},"revision":9007199254740993,"data":{"a":[-9223372036854775808]}}';
    const obj = decodeObject(Buffer.from(text));
    expect(obj.revision).toBe(9007199254740992);
    expect(encodeForStorage(obj).toString()).toBe('{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"x"},"revision":9007199254740993,"data":{"a":[-9223372036854775808]}}');
  });
});
