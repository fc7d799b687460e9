// Watch: a stream of watch events for one request, after kube-apiserver 1.33's watch cache
// (storage/cacher: cacher.go, watch_cache.go, cache_watcher.go) and its WatchServer
// (endpoints/handlers/watch.go), over chunked HTTP (one JSON event per line,
// length-prefixed protobuf frames, or with the CBOR gate a CBOR sequence: one
// self-described WatchEvent item per event, answered as application/cbor-seq to an Accept
// of application/cbor) or over a WebSocket (watch-websocket.ts).
//
// Start:
//   resourceVersion unset  the current state as synthetic ADDED events, then every change;
//                          the state is a consistent read (the cache once it has reached the
//                          store's revision; kube's documents call this Most Recent)
//   "0"                    the same from the cache as it is, with no store round trip
//   N                      every change after N, no synthetic events. N older than the
//                          cache's history: HTTP 200 and one ERROR event holding the 410
//                          Expired Status `too old resource version: N (M)`, M the oldest
//                          revision a watch may start from (watch_cache.go
//                          getAllEventsSinceLocked, returned as cacher.go's errWatcher). N
//                          newer than the cache: accepted at once; events come once the
//                          cache passes N (cacher.go waits for freshness only for
//                          sendInitialEvents).
//
// The watcher subscribes to the cache before it reads its start state, so it never sees a
// gap or a repeat at the seam. A label or field selector turns a change that enters the
// selection into ADDED and one that leaves it into DELETED carrying the previous state at
// the new resourceVersion (cache_watcher.go convertToWatchEvent).
//
// Pacing: the start state (and history) goes out as fast as the client reads it; live
// changes are queued in the watcher, never slowing the writer or other watchers. A watcher
// whose unread backlog passes MAX_PENDING_BYTES is too far behind: its stream ends (what was
// already written is still delivered) and the client resumes from the last resourceVersion
// it saw, as kube's cacher terminates a blocked watcher.
//
// allowWatchBookmarks: a BOOKMARK event (kind, apiVersion and metadata.resourceVersion only)
// every bookmark interval (kube: one minute) and one 2 s before the watch's deadline
// (cache_watcher.go nextBookmarkTime), carrying the node's revision: every change up to it
// has been sent before it. As in cache_watcher.go process(), a bookmark goes out only when
// that revision is past the watcher's position, or once when it equals it, so an idle node
// sends one and a watch that starts ahead of the node none. A watcher that is behind skips
// bookmarks. KAPI_WATCH_BOOKMARK_INTERVAL_MS overrides the interval (for tests).
//
// A relist of the cache (the node's storage watch fell behind) ends every watch, as kube's
// cacher terminates its watchers when it reinitializes.
//
// timeoutSeconds ends the stream cleanly; unset or 0 is a random length between
// --min-request-timeout and twice that (endpoints/handlers/get.go ListResource).

import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { CacheEntry, CacheEvent } from '../cache/watch-cache.js';
import { decodeObject, replaceResourceVersion } from '../machinery/stored-bytes.js';
import { parseResourceVersion } from '../machinery/resource-version.js';
import { acceptedMediaTypes } from '../codec/negotiate.js';
import { CBOR_MEDIA_TYPE, CBOR_SEQ_MEDIA_TYPE, cborEnabled, encodeCbor, encodeCborWatchEvent } from '../codec/cbor/index.js';
import { parseSelectors, selectorFilter } from './filters.js';
import { handleGet } from './get.js';
import { intParam, type Scope } from './scope.js';
import { respondStatus, tableOf } from './respond.js';
import { featureEnabled } from '../machinery/feature-gates.js';
import { StatusError, badRequest, gone, invalid, notAcceptable, type FieldError, type Status } from '../machinery/errors.js';
import { watcherRegistered, watcherUnregistered } from '../cache/metrics.js';
import { PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE, encodeProtobufWatchEvent } from '../codec/protobuf/index.js';
import { acceptWebSocket, handshakeRefusal, isWebSocketRequest, pendingUpgrade, refuse } from './watch-websocket.js';

export interface WatchConfig {
  /** kube's --min-request-timeout, in seconds: default watch length is random in [t, 2t). */
  minRequestTimeoutSeconds: number;
  /** Bookmark period (kube: one minute); KAPI_WATCH_BOOKMARK_INTERVAL_MS overrides it. */
  bookmarkIntervalMs: number;
}

/** A watcher whose unread backlog passes this is closed and must resume. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/** Catch-up events are written while less than this waits in the connection. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** How long a stream ended for lag may take to drain before the connection is dropped. */
const LAG_DRAIN_MS = 30_000;
/** kube sends the last bookmark this long before the watch's deadline (cache_watcher.go). */
const PRE_TIMEOUT_BOOKMARK_MS = 2000;

/** The media types that can carry a watch stream, as kube lists them in a 406. */
const STREAM_MEDIA_TYPES = ['application/json;stream=watch', `${PROTOBUF_MEDIA_TYPE};stream=watch`];
const streamMediaTypes = (): string[] => (cborEnabled() ? [...STREAM_MEDIA_TYPES, CBOR_SEQ_MEDIA_TYPE] : STREAM_MEDIA_TYPES);

export function bookmarkInterval(cfg: WatchConfig): number {
  const env = process.env.KAPI_WATCH_BOOKMARK_INTERVAL_MS;
  if (env && /^[0-9]+$/.test(env) && Number(env) > 0) return Number(env);
  return cfg.bookmarkIntervalMs;
}

/** kube's bool query conversion: anything but "false" and "0" (even empty) is true. */
function boolParam(v: string | null): boolean {
  if (v === null) return false;
  const l = v.toLowerCase();
  return l !== 'false' && l !== '0';
}

/** validateWatchOptions (apimachinery/pkg/apis/meta/internalversion/validation). */
function validateWatchOptions(q: URLSearchParams): void {
  const errs: FieldError[] = [];
  const sendInitialEvents = q.has('sendInitialEvents');
  const match = q.get('resourceVersionMatch') ?? '';
  const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
  if (sendInitialEvents) {
    if (match !== 'NotOlderThan') {
      errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    // The WatchList gate is off by default in 1.33.
    if (!featureEnabled('WatchList')) {
      errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
  }
  if (match) {
    if (!sendInitialEvents) {
      errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== 'NotOlderThan') {
      errs.push({ type: 'FieldValueNotSupported', field: 'resourceVersionMatch', badValue: match, supported: ['NotOlderThan'], detail: '' });
    }
    if (q.get('continue')) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length > 0) throw invalid('ListOptions', 'meta.k8s.io', '', errs);
}

/** True for the deprecated `/watch/` paths (`/apis/<g>/<v>/watch/...`, `/api/v1/watch/...`). */
function isWatchPath(path: string): boolean {
  const segs = path.split('/').filter((x) => x !== '');
  return segs[segs[0] === 'api' ? 2 : 3] === 'watch';
}

/** Where a watch starts: queued events, or one ERROR event (kube's errWatcher). */
type Start =
  | {
      kind: 'events';
      /** Changes at or below this are not sent. */
      startRev: number;
      events: CacheEvent[];
      synthetic: boolean;
      /** Bookmarks must be newer than this, or the first one equal to it (see below). */
      bookmarkFloor: number;
      /** With sendInitialEvents: the revision the initial events reflect (the end bookmark's). */
      initialEventsEnd?: number;
    }
  | { kind: 'error'; status: Status };

/** One watch event as this watcher sees it. */
interface Item {
  type: string;
  entry?: CacheEntry;
  /** The object for events without an entry (BOOKMARK, ERROR). */
  object?: Record<string, unknown>;
  /** Counted against the lag bound (live events only). */
  size: number;
}

/**
 * Live events leave in flushes shared by every watcher of the node, at most one per
 * WATCH_FLUSH_MS: an event after a quiet spell goes out at once, and events that follow
 * closely wait for the next flush and share its write. With a thousand watchers a write per
 * event per watcher is what saturates the node (each is a syscall at both ends); batching
 * the events of a few milliseconds halves that under load and costs nothing when quiet.
 * kube's watch server does the same with the events queued when it flushes.
 */
const WATCH_FLUSH_MS = 25;
let flushQueue: Array<() => void> = [];
let flushTimer: NodeJS.Immediate | NodeJS.Timeout | undefined;
let lastFlush = 0;

function runFlush(): void {
  flushTimer = undefined;
  lastFlush = performance.now();
  const fns = flushQueue;
  flushQueue = [];
  for (const fn of fns) fn();
}

function scheduleFlush(fn: () => void): void {
  flushQueue.push(fn);
  if (flushTimer !== undefined) return;
  const wait = lastFlush + WATCH_FLUSH_MS - performance.now();
  flushTimer = wait <= 0 ? setImmediate(runFlush) : setTimeout(runFlush, wait);
}

/** Where frames go: a chunked HTTP response or a WebSocket. */
interface Sink {
  write(frame: Buffer): void;
  /** Holds writes back until uncork, so several frames leave together. */
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
  onClose(fn: () => void): void;
}

/**
 * Frames shared by every watcher of an event, per encoding and event type: a change is
 * encoded once however many watchers send it.
 */
const sharedFrames = new Map<string, WeakMap<CacheEntry, Buffer>>();
/** The previous state at the new revision, for watchers that see a change as DELETED. */
const leavingEntries = new WeakMap<CacheEvent, CacheEntry>();

function leavingEntry(ev: CacheEvent): CacheEntry {
  let e = leavingEntries.get(ev);
  if (!e) {
    const prev = ev.prev!;
    e = { ...prev, ...replaceResourceVersion(prev, ev.rv), rv: ev.rv };
    leavingEntries.set(ev, e);
  }
  return e;
}

type FrameFormat = 'json' | 'protobuf' | 'cbor';

/** One event for an object that is not cached bytes (BOOKMARK, ERROR) or must be re-encoded. */
function objectFrame(format: FrameFormat, type: string, object: Record<string, unknown>): Buffer {
  if (format === 'protobuf') return encodeProtobufWatchEvent(type, object);
  if (format === 'cbor') return encodeCborWatchEvent(type, encodeCbor(object));
  return jsonFrame(type, JSON.stringify(object));
}

function jsonFrame(type: string, object: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`{"type":"${type}","object":`), typeof object === 'string' ? Buffer.from(object) : object, Buffer.from('}\n')]);
}

export async function handleWatch(s: Scope, cfg: WatchConfig): Promise<void> {
  const { ctx, store, info, query } = s;

  // ListResource, in its order: decoding ListOptions (selector syntax, numbers), validating
  // them, the type's field label conversion, then the name.
  const selectors = parseSelectors(query);
  const timeoutSeconds = intParam(query, 'timeoutSeconds');
  validateWatchOptions(query);
  const filter0 = selectorFilter(s.def, selectors);
  const nameFilter = info.name;
  if (nameFilter) {
    // kube's request info makes a GET of a named path a watch only under /watch/; with
    // ?watch=true it stays a get (RequestInfoFactory), and the get handler ignores `watch`.
    if (!isWatchPath(ctx.path)) return handleGet(s);
    const sel = selectors.field;
    if (sel && !sel.empty && sel.exactMatch('metadata.name') !== nameFilter) {
      throw badRequest("fieldSelector metadata.name doesn't match requested name");
    }
  }
  const bookmarks = boolParam(query.get('allowWatchBookmarks'));
  const rvParam = query.get('resourceVersion') ?? '';
  const requestedRev = rvParam === '' ? 0 : parseResourceVersion(rvParam);

  // serveWatchHandler: only JSON, protobuf and CBOR have stream framing.
  if (s.out.mediaType === 'application/yaml') {
    // The 406 is written in the negotiated format; a YAML Table cannot be negotiated for a
    // Status at all, so that answer is the plain 406 in JSON.
    if (s.out.table) throw notAcceptable(acceptedMediaTypes());
    respondStatus(ctx, notAcceptable(streamMediaTypes()).status, 406, s.out, s.pretty);
    return;
  }
  const encodeTable = s.out.table !== undefined;
  const protobuf = s.out.mediaType === PROTOBUF_MEDIA_TYPE && !encodeTable;
  // A CBOR Table watch is CBOR too (kube has no JSON fallback for it, unlike protobuf).
  const cbor = s.out.mediaType === CBOR_MEDIA_TYPE;
  const format: FrameFormat = protobuf ? 'protobuf' : cbor ? 'cbor' : 'json';

  const filter = (e: CacheEntry): boolean => (!nameFilter || e.name === nameFilter) && (!filter0 || filter0(e));
  const prefix = store.listPrefix(info.namespace);
  const inScope = (e: CacheEntry): boolean => e.key.startsWith(prefix) && filter(e);

  // Subscribe before reading the start state, so nothing committed in between is lost.
  let early: CacheEvent[] | undefined = [];
  let onLive: (evs: CacheEvent[]) => void = (evs) => early!.push(...evs);
  let onReset: () => void = () => (early = undefined);
  const unsubscribe = store.cache.subscribe((evs) => onLive(evs));
  const unsubscribeReset = store.cache.onReset(() => onReset());
  const stopFeed = (): void => {
    unsubscribe();
    unsubscribeReset();
  };

  let start: Start;
  try {
    start = await startOf(s, rvParam, requestedRev, filter, prefix, initialEventsOf(query));
  } catch (e) {
    stopFeed();
    throw e;
  }
  if (start.kind === 'error') stopFeed();

  // The sink: a WebSocket when the request asks for one, else the chunked response.
  let sink: Sink;
  const up = isWebSocketRequest(ctx.req) ? pendingUpgrade(ctx.req) : undefined;
  if (up) {
    ctx.respond = false;
    const refusal = handshakeRefusal(ctx.req);
    if (refusal) {
      stopFeed();
      ctx.res.statusCode = Number(refusal.slice(9, 12));
      refuse(up, refusal);
      return;
    }
    ctx.res.statusCode = 101;
    const ws = await acceptWebSocket(up, ctx.req);
    if (!ws) {
      stopFeed();
      return;
    }
    sink = webSocketSink(ws, up.socket, format);
  } else {
    ctx.respond = false;
    const res = ctx.res;
    res.statusCode = 200;
    // Watch streams are JSON, protobuf or CBOR frames (a Table watch is JSON or CBOR).
    res.setHeader('Content-Type', protobuf ? PROTOBUF_WATCH_MEDIA_TYPE : cbor ? CBOR_SEQ_MEDIA_TYPE : 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.setHeader('Transfer-Encoding', 'chunked');
    res.flushHeaders();
    sink = httpSink(res);
  }

  if (start.kind === 'error') {
    const status = start.status as unknown as Record<string, unknown>;
    sink.write(objectFrame(format, 'ERROR', status));
    sink.end();
    armDrainTimer(sink);
    return;
  }
  // The cache was relisted while the watch started: the client resumes or relists.
  if (early === undefined) {
    stopFeed();
    sink.end();
    return;
  }

  // ---- the stream ----

  const { startRev } = start;
  let flushScheduled = false;
  const queue: (Item | undefined)[] = [];
  let head = 0;
  let queuedLiveBytes = 0;
  let waitingDrain = false;
  let closed = false;
  let lastRv = startRev;
  let sentColumns = false;

  const encode = (it: Item): Buffer => {
    if (!it.entry) return objectFrame(format, it.type, it.object!);
    if (encodeTable) {
      const t = tableOf(s.def, [decodeObject(it.entry.bytes)], { resourceVersion: String(it.entry.rv) }, s.out, 'Object', !sentColumns);
      sentColumns = true;
      return cbor ? encodeCborWatchEvent(it.type, encodeCbor(t)) : jsonFrame(it.type, JSON.stringify(t));
    }
    const key = `${format}:${it.type}`;
    let cache = sharedFrames.get(key);
    if (!cache) sharedFrames.set(key, (cache = new WeakMap()));
    let frame = cache.get(it.entry);
    if (!frame) {
      frame =
        format === 'json'
          ? jsonFrame(it.type, it.entry.bytes)
          : objectFrame(format, it.type, JSON.parse(it.entry.bytes.toString('utf8')) as Record<string, unknown>);
      cache.set(it.entry, frame);
    }
    return frame;
  };

  /** This watcher's view of a change: a selector turns it into ADDED or DELETED, or hides it. */
  const itemOf = (ev: CacheEvent, synthetic: boolean): Item | undefined => {
    const now = inScope(ev.entry);
    if (synthetic) return now ? { type: 'ADDED', entry: ev.entry, size: 0 } : undefined;
    const before = ev.prev ? inScope(ev.prev) : false;
    let type: string | undefined;
    if (ev.type === 'DELETED') type = before ? 'DELETED' : undefined;
    else if (ev.type === 'ADDED') type = now ? 'ADDED' : undefined;
    else if (now) type = before ? 'MODIFIED' : 'ADDED';
    else if (before) type = 'DELETED';
    if (!type) return undefined;
    // Leaving the selected set: the last state the watcher could see, at the new revision.
    const entry = type === 'DELETED' && ev.type !== 'DELETED' ? leavingEntry(ev) : ev.entry;
    return { type, entry, size: entry.bytes.length };
  };

  const pump = (): void => {
    waitingDrain = false;
    flushScheduled = false;
    sink.cork?.();
    try {
      while (!closed && head < queue.length) {
        if (sink.pending() >= HIGH_WATER_BYTES) {
          waitingDrain = true;
          sink.whenDrained(pump);
          return;
        }
        const it = queue[head]!;
        queue[head++] = undefined;
        queuedLiveBytes -= it.size;
        sink.write(encode(it));
      }
    } finally {
      sink.uncork?.();
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    } else if (head > 1024 && head > queue.length / 2) {
      queue.splice(0, head);
      head = 0;
    }
  };

  // eslint-disable-next-line prefer-const -- assigned once the close path below exists
  let timer: NodeJS.Timeout | undefined;
  let bookmarkTimer: NodeJS.Timeout | undefined;
  const close = (): void => {
    if (closed) return;
    closed = true;
    stopFeed();
    clearTimeout(timer);
    clearTimeout(bookmarkTimer);
    queue.length = 0;
    watcherUnregistered(s.def.group, s.def.version, s.def.kind);
  };
  /** Ends the stream from the server's side (timeout, lag, relist). */
  const finish = (): void => {
    if (closed) return;
    close();
    sink.end();
    armDrainTimer(sink);
  };

  watcherRegistered(s.def.group, s.def.version, s.def.kind);
  sink.onClose(close);

  for (const ev of start.events) {
    const it = itemOf(ev, start.synthetic);
    if (it) queue.push({ ...it, size: 0 });
    if (!start.synthetic) lastRv = ev.rv;
  }
  if (start.initialEventsEnd !== undefined && bookmarks) {
    // The end of the initial state, as kube's cacher marks it for a streaming list.
    queue.push({
      type: 'BOOKMARK',
      object: {
        kind: s.def.kind,
        apiVersion: store.apiVersion,
        metadata: { resourceVersion: String(start.initialEventsEnd), annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
      size: 0,
    });
  }
  onLive = (evs) => {
    if (closed) return;
    for (const ev of evs) {
      if (ev.rv <= lastRv) continue;
      lastRv = ev.rv;
      const it = itemOf(ev, false);
      if (!it) continue;
      queue.push(it);
      queuedLiveBytes += it.size;
    }
    if (!waitingDrain && !flushScheduled && head < queue.length) {
      flushScheduled = true;
      scheduleFlush(pump);
    }
    // Too far behind: end the stream; the client resumes from its last resourceVersion.
    if (!closed && sink.pending() + queuedLiveBytes > MAX_PENDING_BYTES) finish();
  };
  onReset = finish;
  const pendingEarly = early;
  early = undefined;
  onLive(pendingEarly);
  if (!waitingDrain) pump();

  const seconds = timeoutSeconds ? timeoutSeconds : cfg.minRequestTimeoutSeconds * (1 + Math.random());
  const deadline = Date.now() + seconds * 1000;
  // (A timer cannot wait longer than 2^31-1 ms; a longer timeoutSeconds waits that long.)
  timer = setTimeout(finish, Math.min(2 ** 31 - 1, Math.max(0, seconds * 1000)));

  if (bookmarks) {
    const interval = bookmarkInterval(cfg);
    let bookmarkSent = false;
    const bookmarkObject = (rv: number): Record<string, unknown> => ({
      kind: s.def.kind,
      apiVersion: store.apiVersion,
      metadata: { resourceVersion: String(rv) },
    });
    // cache_watcher.go nextBookmarkTime: every interval, and once right before the deadline.
    const schedule = (): void => {
      const now = Date.now();
      const at = Math.min(now + interval, deadline - PRE_TIMEOUT_BOOKMARK_MS);
      if (at < now || closed) return;
      bookmarkTimer = setTimeout(() => {
        // Every change of this cache up to the node's revision has been queued before now;
        // a watch that starts ahead of the node gets none until the node reaches its start.
        // cache_watcher.go process(): a bookmark newer than the watcher's start position, or
        // the first one equal to it.
        const rv = store.cacheRevision;
        const floor = start.bookmarkFloor;
        // A watcher still behind skips the bookmark (kube's cacher drops it for a full watcher).
        if (!closed && (rv > floor || (rv === floor && !bookmarkSent)) && head === queue.length) {
          bookmarkSent = true;
          queue.push({ type: 'BOOKMARK', object: bookmarkObject(rv), size: 0 });
          pump();
        }
        schedule();
      }, at - now);
    };
    schedule();
  }
}

/** sendInitialEvents as given (validation has made sure it comes with NotOlderThan). */
function initialEventsOf(q: URLSearchParams): boolean | undefined {
  return q.has('sendInitialEvents') ? boolParam(q.get('sendInitialEvents')) : undefined;
}

/**
 * The start state: the current objects (unset, "0"), or the history after N. With the
 * WatchList gate on, sendInitialEvents=true streams the state as of at least N (waiting for
 * the cache to get there) followed by an end-of-initial-events bookmark, and
 * sendInitialEvents=false starts from the current state without synthetic events.
 */
async function startOf(
  s: Scope,
  rvParam: string,
  requestedRev: number,
  filter: (e: CacheEntry) => boolean,
  prefix: string,
  sendInitialEvents?: boolean,
): Promise<Start> {
  const { store } = s;
  if (sendInitialEvents === true) {
    // waitUntilWatchCacheFreshAndForceAllEvents: consistent for unset, at least N otherwise.
    await store.freshen(rvParam === '0' ? '0' : rvParam || undefined);
    const startRev = store.cacheRevision;
    const events = store.cache
      .list(prefix)
      .filter(filter)
      .map((entry): CacheEvent => ({ type: 'ADDED', rv: entry.rv, entry, at: 0 }));
    return { kind: 'events', startRev, events, synthetic: true, bookmarkFloor: startRev, initialEventsEnd: startRev };
  }
  if (sendInitialEvents === false && (rvParam === '' || rvParam === '0')) {
    if (rvParam === '') await store.freshen(undefined);
    const startRev = store.cacheRevision;
    return { kind: 'events', startRev, events: [], synthetic: false, bookmarkFloor: startRev };
  }
  if (rvParam === '' || rvParam === '0') {
    if (rvParam === '') {
      // Most Recent: the cache once it reached the store's revision. If it does not get
      // there in time, it starts from the cache as it is, as kube's cacher does for every
      // watch without a resourceVersion.
      try {
        await store.freshen(undefined);
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 504)) throw e;
      }
    }
    // The revision and the state are read together (no await between), so they agree.
    const startRev = store.cacheRevision;
    const all = store.cache.list(prefix);
    const events = all.filter(filter).map((entry): CacheEvent => ({ type: 'ADDED', rv: entry.rv, entry, at: 0 }));
    // cache_watcher.go processInterval: the synthetic events carry the cache's revision, and
    // the watcher's position becomes it only when there was at least one (selected or not).
    return { kind: 'events', startRev, events, synthetic: true, bookmarkFloor: all.length > 0 ? startRev : 0 };
  }
  const hist = store.cache.eventsAfter(requestedRev);
  if (!hist) return { kind: 'error', status: gone(`too old resource version: ${requestedRev} (${store.cache.oldestRevision})`).status };
  const last = hist.length > 0 ? hist[hist.length - 1].rv : 0;
  return { kind: 'events', startRev: requestedRev, events: hist, synthetic: false, bookmarkFloor: Math.max(requestedRev, last) };
}

/** A stream the server ended gets LAG_DRAIN_MS to drain; then the connection is dropped. */
function armDrainTimer(sink: Sink): void {
  const t = setTimeout(() => sink.destroy(), LAG_DRAIN_MS);
  t.unref();
  sink.onClose(() => clearTimeout(t));
}

/**
 * A frame in HTTP/1.1 chunked framing, made once per frame: every watcher of an event
 * shares the frame, so they share its chunk too.
 */
const chunkedFrames = new WeakMap<Buffer, Buffer>();
const CRLF = Buffer.from('\r\n');

function chunked(frame: Buffer): Buffer {
  let c = chunkedFrames.get(frame);
  if (!c) {
    c = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`, 'latin1'), frame, CRLF]);
    chunkedFrames.set(frame, c);
  }
  return c;
}

function httpSink(res: ServerResponse): Sink {
  // The headers are flushed and the response is chunked: a frame goes to the socket as one
  // ready-made chunk shared by every watcher, where res.write would frame it again per
  // watcher as four buffers. res.end() still writes the last chunk.
  const direct = res.headersSent && res.chunkedEncoding && res.socket !== null;
  return {
    write: (frame) => {
      if (res.writableEnded || res.destroyed) return;
      const sock = res.socket;
      if (direct && sock && !sock.destroyed) sock.write(chunked(frame));
      else res.write(frame);
    },
    // Frames written while the socket is corked leave in one writev.
    cork: () => res.socket?.cork(),
    uncork: () => res.socket?.uncork(),
    pending: () => res.writableLength,
    whenDrained: (fn) => {
      const sock = res.socket;
      if (!sock || sock.destroyed) return void setImmediate(fn);
      sock.once('drain', fn);
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
    destroy: () => res.destroy(),
    // The response closes when it completes or when the connection goes away.
    onClose: (fn) => void res.once('close', fn),
  };
}

function webSocketSink(ws: WebSocket, socket: Duplex, format: FrameFormat): Sink {
  const binary = format !== 'json';
  ws.on('error', () => ws.terminate());
  // The client should send nothing; whatever it sends is read and dropped.
  ws.on('message', () => undefined);
  return {
    write: (frame) => {
      if (ws.readyState !== ws.OPEN) return;
      // Text messages carry the JSON line; protobuf events go without the length prefix;
      // a CBOR event is one binary message as it is.
      ws.send(format === 'protobuf' ? frame.subarray(4) : frame, { binary });
    },
    pending: () => ws.bufferedAmount,
    whenDrained: (fn) => {
      if (socket.destroyed) return void setImmediate(fn);
      socket.once('drain', fn);
    },
    end: () => {
      if (ws.readyState === ws.OPEN) ws.close(1000);
    },
    destroy: () => ws.terminate(),
    onClose: (fn) => {
      if (ws.readyState === ws.CLOSED) return void setImmediate(fn);
      ws.once('close', fn);
    },
  };
}
