// Watch frames: a change is encoded once per encoding and event type, whatever the number of
// watchers; a Table watch sends its column definitions in the first row only.

import { describe, expect, it } from 'vitest';
import { watchEncoder, watchFrame, watchFraming } from '../../../src/codec/watch-frames.js';
import { decodeProtobufWatchFrames } from '../../../src/codec/protobuf/index.js';
import { withResourceVersion } from '../../../src/machinery/stored-bytes.js';
import type { StoredObject } from '../../../src/machinery/watch.js';

const stored = (name: string, rv: number): StoredObject => ({
  ...withResourceVersion(Buffer.from(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"${name}"}}`), rv),
  rv,
});

describe('watch frames', () => {
  it('JSON: one line per event with the stored bytes as the object, shared by every watcher', () => {
    const o = stored('a', 7);
    const f = watchFrame('json', { type: 'ADDED', stored: o });
    expect(f.toString()).toBe(`{"type":"ADDED","object":${o.bytes.toString()}}\n`);
    expect(JSON.parse(f.toString())).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '7' } } });
    expect(watchFrame('json', { type: 'ADDED', stored: o })).toBe(f);
    // Another type or encoding of the same object is another frame.
    expect(watchFrame('json', { type: 'MODIFIED', stored: o })).not.toBe(f);
    expect(watchEncoder('json')({ type: 'ADDED', stored: o })).toBe(f);
  });

  it('protobuf: a length-prefixed WatchEvent, shared too', () => {
    const o = stored('b', 9);
    const f = watchFrame('protobuf', { type: 'DELETED', stored: o });
    expect(watchFrame('protobuf', { type: 'DELETED', stored: o })).toBe(f);
    const { events, rest } = decodeProtobufWatchFrames(f);
    expect(rest.length).toBe(0);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('DELETED');
  });

  it('BOOKMARK and ERROR objects are encoded as they are', () => {
    const f = watchFrame('json', { type: 'BOOKMARK', object: { kind: 'Namespace', apiVersion: 'v1', metadata: { resourceVersion: '3' } } });
    expect(f.toString()).toBe('{"type":"BOOKMARK","object":{"kind":"Namespace","apiVersion":"v1","metadata":{"resourceVersion":"3"}}}\n');
  });

  it('Table: column definitions in the first row only, per watcher', () => {
    const calls: boolean[] = [];
    const tableOf = (o: StoredObject, withColumns: boolean): Record<string, unknown> => {
      calls.push(withColumns);
      return { kind: 'Table', rows: [{ cells: [String(o.rv)] }] };
    };
    const one = watchEncoder('json', tableOf);
    const two = watchEncoder('json', tableOf);
    one({ type: 'ADDED', stored: stored('a', 1) });
    one({ type: 'ADDED', stored: stored('b', 2) });
    two({ type: 'ADDED', stored: stored('a', 1) });
    expect(calls).toEqual([true, false, true]);
  });

  it('framing per negotiated output', () => {
    expect(watchFraming({ mediaType: 'application/json' })).toEqual({ format: 'json', contentType: 'application/json' });
    expect(watchFraming({ mediaType: 'application/vnd.kubernetes.protobuf' })).toEqual({
      format: 'protobuf',
      contentType: 'application/vnd.kubernetes.protobuf;stream=watch',
    });
    expect(watchFraming({ mediaType: 'application/cbor', table: 'v1' })).toEqual({ format: 'cbor', contentType: 'application/cbor-seq' });
    expect(watchFraming({ mediaType: 'application/json', table: 'v1' }).format).toBe('json');
  });
});
