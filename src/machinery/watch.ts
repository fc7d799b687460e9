// Watch events and the contract between the layers a watch crosses, as kube's
// apimachinery/pkg/watch is shared: the cache makes the events (src/cache/watcher.ts), the
// codec frames them (src/codec/watch-frames.ts), and the API layer's sinks carry the frames
// to the client (src/api/watch-http.ts, src/api/watch-websocket.ts).

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** An object as the cache holds it: its JSON with the resourceVersion spliced in. */
export interface StoredObject {
  readonly bytes: Buffer;
  readonly rv: number;
}

/** One watch event as a watcher delivers it. */
export interface WatchEvent {
  type: WatchEventType;
  /**
   * ADDED, MODIFIED, DELETED: the object. Every watcher that sends a change sends this very
   * value, so an encoding of it can be made once and shared (keyed by its identity).
   */
  stored?: StoredObject;
  /** BOOKMARK and ERROR: the object itself (a bookmark's metadata, a Status). */
  object?: Record<string, unknown>;
}

/** Where a watcher writes: a chunked HTTP response or a WebSocket, framing as it goes. */
export interface WatchSink {
  write(ev: WatchEvent): void;
  /** Holds writes back until uncork, so several events leave together. */
  cork?(): void;
  uncork?(): void;
  /** Bytes written but not yet taken by the peer. */
  pending(): number;
  /** Calls `fn` once the written bytes have drained. */
  whenDrained(fn: () => void): void;
  /** Ends the stream; what was written is still delivered. */
  end(): void;
  /** Drops the connection. */
  destroy(): void;
  /** Calls `fn` when the stream closes, however it closes. */
  onClose(fn: () => void): void;
}

/** A watch whose start state is settled, waiting for the connection to stream into. */
export interface Watch {
  /** Streams the watch into `sink` until either side ends it. */
  pipe(sink: WatchSink): void;
  /** Gives the watch up before it was piped (the connection never came up). */
  stop(): void;
}
