// Watch event frames, one per event, in the encodings a watch stream can carry (kube's
// serveWatchHandler: only JSON, protobuf and CBOR have stream framing):
//
//   json      one JSON WatchEvent per line (`{"type":...,"object":...}\n`), the object's
//             cached bytes spliced in as they are
//   protobuf  a length-prefixed protobuf WatchEvent (`;stream=watch`)
//   cbor      one self-described CBOR WatchEvent item of an application/cbor-seq stream
//
// A change's frame is made once per encoding and event type and shared by every watcher
// that sends it, however many there are. A Table watch (`kubectl get -w`) sends each object
// as a one-row Table, its column definitions in the first only: that is per watcher.

import type { OutputFormat } from './negotiate.js';
import type { StoredObject, WatchEvent, WatchEventType } from '../machinery/watch.js';
import { PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE, encodeProtobufWatchEvent } from './protobuf/index.js';
import { CBOR_MEDIA_TYPE, CBOR_SEQ_MEDIA_TYPE, cborEnabled, encodeCbor, encodeCborWatchEvent } from './cbor/index.js';

export type FrameFormat = 'json' | 'protobuf' | 'cbor';

/** How a watch stream is framed for a negotiated output. */
export interface WatchFraming {
  format: FrameFormat;
  /** The response's Content-Type. */
  contentType: string;
}

/** The media types that can carry a watch stream, as kube lists them in a 406. */
const STREAM_MEDIA_TYPES = ['application/json;stream=watch', `${PROTOBUF_MEDIA_TYPE};stream=watch`];
export const watchStreamMediaTypes = (): string[] => (cborEnabled() ? [...STREAM_MEDIA_TYPES, CBOR_SEQ_MEDIA_TYPE] : STREAM_MEDIA_TYPES);

/**
 * The framing of a watch in `out` (YAML has none: the caller answers 406). A Table watch is
 * JSON: kube converts to a Table in JSON and YAML only (src/codec/negotiate.ts).
 */
export function watchFraming(out: OutputFormat): WatchFraming {
  if (out.mediaType === PROTOBUF_MEDIA_TYPE && out.table === undefined) return { format: 'protobuf', contentType: PROTOBUF_WATCH_MEDIA_TYPE };
  if (out.mediaType === CBOR_MEDIA_TYPE) return { format: 'cbor', contentType: CBOR_SEQ_MEDIA_TYPE };
  return { format: 'json', contentType: 'application/json' };
}

function jsonFrame(type: string, object: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`{"type":"${type}","object":`), typeof object === 'string' ? Buffer.from(object) : object, Buffer.from('}\n')]);
}

/** The frame of an event whose object is not cached bytes (BOOKMARK, ERROR, a Table row). */
export function objectFrame(format: FrameFormat, type: string, object: Record<string, unknown>): Buffer {
  if (format === 'protobuf') return encodeProtobufWatchEvent(type, object);
  if (format === 'cbor') return encodeCborWatchEvent(type, encodeCbor(object));
  return jsonFrame(type, JSON.stringify(object));
}

type SharedFrames = Record<WatchEventType, WeakMap<StoredObject, Buffer>>;
const sharedFramesOf = (): SharedFrames => ({
  ADDED: new WeakMap(),
  MODIFIED: new WeakMap(),
  DELETED: new WeakMap(),
  BOOKMARK: new WeakMap(),
  ERROR: new WeakMap(),
});
/** Frames per encoding and event type, kept while the stored object they encode lives. */
const sharedFrames: Record<FrameFormat, SharedFrames> = { json: sharedFramesOf(), protobuf: sharedFramesOf(), cbor: sharedFramesOf() };

/** An event's frame, shared by every watcher of that event in that encoding. */
export function watchFrame(format: FrameFormat, ev: WatchEvent): Buffer {
  const stored = ev.stored;
  if (!stored) return objectFrame(format, ev.type, ev.object!);
  const cache = sharedFrames[format][ev.type];
  let frame = cache.get(stored);
  if (!frame) {
    frame =
      format === 'json'
        ? jsonFrame(ev.type, stored.bytes)
        : objectFrame(format, ev.type, JSON.parse(stored.bytes.toString('utf8')) as Record<string, unknown>);
    cache.set(stored, frame);
  }
  return frame;
}

/** One object as a one-row Table, with the column definitions or without. */
export type TableOf = (stored: StoredObject, withColumns: boolean) => Record<string, unknown>;

/**
 * The encoder of one watch stream: shared frames, or for a Table watch (given `tableOf`)
 * one-row Tables with the column definitions in the first only, as kube's watch of
 * `as=Table` sends them.
 */
export function watchEncoder(format: FrameFormat, tableOf?: TableOf): (ev: WatchEvent) => Buffer {
  if (!tableOf) return (ev) => watchFrame(format, ev);
  let sentColumns = false;
  return (ev) => {
    if (!ev.stored) return objectFrame(format, ev.type, ev.object!);
    const table = tableOf(ev.stored, !sentColumns);
    sentColumns = true;
    return objectFrame(format, ev.type, table);
  };
}
