// Watch over chunked HTTP: one JSON watch event per line. The stream starts from the
// cache (initial ADDED events, or history after a resourceVersion) and follows the
// cache's live events, so a watcher never sees a gap or a repeat at the seam.

import type { CacheEntry, CacheEvent } from '../cache/watch-cache.js';
import { decodeObject, replaceResourceVersion } from '../registry/generic/object-bytes.js';
import { parseResourceVersion } from '../registry/generic/store.js';
import { buildFilter } from './filters.js';
import { intParam, type Scope } from './scope.js';
import { tableOf } from './respond.js';
import { StatusError, gone } from './status-error.js';
import { watcherRegistered, watcherUnregistered } from '../server/metrics.js';
import { PROTOBUF_MEDIA_TYPE, PROTOBUF_WATCH_MEDIA_TYPE, encodeProtobufWatchEvent } from '../codec/protobuf/index.js';

export interface WatchConfig {
  /** kube's --min-request-timeout, in seconds: default watch length is random in [t, 2t). */
  minRequestTimeoutSeconds: number;
  bookmarkIntervalMs: number;
}

/** Bounded per-watcher buffer: a watcher this far behind is closed and must resume. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export async function handleWatch(s: Scope, cfg: WatchConfig): Promise<void> {
  const { ctx, store, info, query } = s;
  if (query.has('sendInitialEvents')) {
    // The WatchList gate is off by default in 1.33, so kube refuses the option outright.
    throw new StatusError(
      422,
      'Invalid',
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      {
        group: 'meta.k8s.io',
        kind: 'ListOptions',
        causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', field: 'sendInitialEvents' }],
      },
    );
  }
  const filter0 = buildFilter(s.def, query);
  const nameFilter = info.name;
  const filter = (e: CacheEntry): boolean => (!nameFilter || e.name === nameFilter) && (!filter0 || filter0(e));
  const prefix = store.listPrefix(info.namespace);
  const inScope = (e: CacheEntry): boolean => e.key.startsWith(prefix) && filter(e);
  const rvParam = query.get('resourceVersion') ?? '';
  const timeoutSeconds = intParam(query, 'timeoutSeconds');
  const bookmarks = query.get('allowWatchBookmarks') === 'true' || query.get('allowWatchBookmarks') === '1';
  const encodeTable = s.out.table !== undefined;

  // Subscribe before reading the start state, so nothing committed in between is lost.
  const pending: CacheEvent[] = [];
  let live: ((evs: CacheEvent[]) => void) | undefined;
  const unsubscribe = store.cache.subscribe((evs) => (live ? live(evs) : pending.push(...evs)));

  let startRev: number;
  let initial: CacheEvent[];
  let synthetic: boolean;
  try {
    if (rvParam === '' || rvParam === '0') {
      await store.freshen(rvParam || undefined);
      // Read the revision and the state together (no await between), so they agree.
      startRev = store.cacheRevision;
      synthetic = true;
      initial = store.cache
        .list(prefix)
        .filter(filter)
        .map((entry) => ({ type: 'ADDED' as const, rv: entry.rv, entry, at: 0 }));
    } else {
      startRev = parseResourceVersion(rvParam);
      synthetic = false;
      const hist = store.cache.eventsAfter(startRev);
      if (!hist) throw gone(`too old resource version: ${startRev} (${store.cache.oldestRevision})`);
      initial = hist;
    }
  } catch (e) {
    unsubscribe();
    throw e;
  }

  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = 200;
  const protobufStream = s.out.mediaType === PROTOBUF_MEDIA_TYPE && !encodeTable;
  // Watch streams are JSON or protobuf frames (YAML has no stream framing).
  res.setHeader('Content-Type', protobufStream ? PROTOBUF_WATCH_MEDIA_TYPE : 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();

  let lastRv = startRev;
  let closed = false;
  let sentColumns = false;

  const frame = (type: string, objectJson: string | Buffer): Buffer => {
    if (protobufStream) {
      const text = typeof objectJson === 'string' ? objectJson : objectJson.toString('utf8');
      return encodeProtobufWatchEvent(type, JSON.parse(text) as Record<string, unknown>);
    }
    const head = Buffer.from(`{"type":"${type}","object":`);
    const body = typeof objectJson === 'string' ? Buffer.from(objectJson) : objectJson;
    return Buffer.concat([head, body, Buffer.from('}\n')]);
  };

  const encodeObject = (entry: CacheEntry): Buffer | string => {
    if (!encodeTable) return entry.bytes;
    const t = tableOf(s.def, [decodeObject(entry.bytes)], { resourceVersion: String(entry.rv) }, s.out, 'Object', !sentColumns);
    sentColumns = true;
    return JSON.stringify(t);
  };

  watcherRegistered(s.def.group, s.def.version, s.def.kind);
  const close = (): void => {
    if (closed) return;
    closed = true;
    watcherUnregistered(s.def.group, s.def.version, s.def.kind);
    unsubscribe();
    clearTimeout(timer);
    if (bookmarkTimer) clearInterval(bookmarkTimer);
    res.end();
  };

  const write = (buf: Buffer): void => {
    if (closed) return;
    res.write(buf);
    if (res.writableLength > MAX_PENDING_BYTES) close();
  };

  /** Writes one event as this watcher sees it: a selector can turn a change into ADDED or DELETED. */
  const deliver = (ev: CacheEvent, isSynthetic: boolean): void => {
    if (!isSynthetic) lastRv = ev.rv;
    const now = inScope(ev.entry);
    const before = ev.prev ? inScope(ev.prev) : false;
    let type: string | undefined;
    if (ev.type === 'DELETED') type = before ? 'DELETED' : undefined;
    else if (ev.type === 'ADDED') type = now ? 'ADDED' : undefined;
    else if (now) type = before ? 'MODIFIED' : 'ADDED';
    else if (before) type = 'DELETED';
    if (!type) return;
    // Leaving the selected set: the watcher gets the last state it could see, at the new revision.
    const shown = type === 'DELETED' && ev.type !== 'DELETED' && ev.prev ? { ...ev.prev, ...replaceResourceVersion(ev.prev, ev.rv), rv: ev.rv } : ev.entry;
    write(frame(type, encodeObject(shown)));
  };

  for (const ev of initial) deliver(ev, synthetic);
  for (const ev of pending) if (ev.rv > lastRv) deliver(ev, false);
  pending.length = 0;
  live = (evs) => {
    for (const ev of evs) if (ev.rv > lastRv) deliver(ev, false);
  };

  const seconds = timeoutSeconds ?? cfg.minRequestTimeoutSeconds * (1 + Math.random());
  const timer = setTimeout(close, seconds * 1000);
  const bookmarkTimer = bookmarks
    ? setInterval(() => {
        // Every event of this cache up to the node's revision has been delivered by now.
        const rv = Math.max(lastRv, store.cacheRevision);
        const obj = JSON.stringify({ kind: s.def.kind, apiVersion: s.store.apiVersion, metadata: { resourceVersion: String(rv) } });
        write(frame('BOOKMARK', obj));
      }, cfg.bookmarkIntervalMs)
    : undefined;
  ctx.req.on('close', close);
  res.on('close', close);
}

