// Watch: kube's ListResource with watch=true and its WatchServer (endpoints/handlers/get.go,
// watch.go). The options are decoded and validated here (watch-options.ts); the store's watcher
// (src/cache/watcher.ts) decides what is sent and when, the codec frames it
// (src/codec/watch-frames.ts), and the stream goes over chunked HTTP (watch-http.ts: JSON
// lines, length-prefixed protobuf frames, or with the CBOR gate a CBOR sequence answered as
// application/cbor-seq to an Accept of application/cbor) or over a WebSocket
// (watch-websocket.ts).
//
// timeoutSeconds ends the stream cleanly; unset or 0 is a random length between
// --min-request-timeout and twice that (get.go ListResource).

import { parseResourceVersion } from '../machinery/resource-version.js';
import { decodeObject } from '../machinery/stored-bytes.js';
import { badRequest, notAcceptable } from '../machinery/errors.js';
import { acceptedMediaTypes } from '../codec/negotiate.js';
import { objectFrame, watchEncoder, watchFraming, watchStreamMediaTypes } from '../codec/watch-frames.js';
import type { WatchEvent } from '../machinery/watch.js';
import { parseSelectors, selectorFilter } from './filters.js';
import { handleGet } from './get.js';
import { intParam, type Scope } from './scope.js';
import { boolParam, sendInitialEventsOf, validateWatchOptions } from './watch-options.js';
import { respondStatus, tableOf, viewOfObject } from './respond.js';
import { httpWatchSink } from './watch-http.js';
import { isWebSocketRequest, pendingUpgrade, webSocketWatchSink } from './watch-websocket.js';

export interface WatchConfig {
  /** kube's --min-request-timeout, in seconds: default watch length is random in [t, 2t). */
  minRequestTimeoutSeconds: number;
  /** Bookmark period (kube: one minute); KAPI_WATCH_BOOKMARK_INTERVAL_MS overrides it. */
  bookmarkIntervalMs: number;
}

export function bookmarkInterval(cfg: WatchConfig): number {
  const env = process.env.KAPI_WATCH_BOOKMARK_INTERVAL_MS;
  if (env && /^[0-9]+$/.test(env) && Number(env) > 0) return Number(env);
  return cfg.bookmarkIntervalMs;
}

/** True for the deprecated `/watch/` paths (`/apis/<g>/<v>/watch/...`, `/api/v1/watch/...`). */
function isWatchPath(path: string): boolean {
  const segs = path.split('/').filter((x) => x !== '');
  return segs[segs[0] === 'api' ? 2 : 3] === 'watch';
}

export async function handleWatch(s: Scope, cfg: WatchConfig): Promise<void> {
  const { ctx, store, info, query } = s;

  // ListResource, in its order: decoding ListOptions (selector syntax, numbers), validating
  // them, the type's field label conversion, then the name.
  const selectors = parseSelectors(query);
  const timeoutSeconds = intParam(query, 'timeoutSeconds');
  validateWatchOptions(query);
  const filter = selectorFilter(s.def, selectors);
  const name = info.name;
  if (name) {
    // kube's request info makes a GET of a named path a watch only under /watch/; with
    // ?watch=true it stays a get (RequestInfoFactory), and the get handler ignores `watch`.
    if (!isWatchPath(ctx.path)) return handleGet(s);
    const sel = selectors.field;
    if (sel && !sel.empty && sel.exactMatch('metadata.name') !== name) {
      throw badRequest("fieldSelector metadata.name doesn't match requested name");
    }
  }
  const resourceVersion = query.get('resourceVersion') ?? '';
  if (resourceVersion !== '') parseResourceVersion(resourceVersion);

  // serveWatchHandler: only JSON, protobuf and CBOR have stream framing.
  if (s.out.mediaType === 'application/yaml') {
    // The 406 is written in the negotiated format; a YAML Table cannot be negotiated for a
    // Status at all, so that answer is the plain 406 in JSON.
    if (s.out.table) throw notAcceptable(acceptedMediaTypes());
    respondStatus(ctx, notAcceptable(watchStreamMediaTypes()).status, 406, s.out, s.pretty);
    return;
  }
  const { format, contentType } = watchFraming(s.out);
  const encode = s.out.partial
    ? // The metadata-only view of each event's object (bookmarks too; an ERROR's Status stays).
      (ev: WatchEvent) => objectFrame(format, ev.type, viewOfObject(s.def, ev.stored ? (JSON.parse(ev.stored.bytes.toString('utf8')) as Record<string, unknown>) : ev.object!, s.out))
    : watchEncoder(
        format,
        s.out.table === undefined
          ? undefined
          : (o, withColumns) => tableOf(s.def, [decodeObject(o.bytes)], { resourceVersion: String(o.rv) }, s.out, 'Object', withColumns),
      );
  const seconds = timeoutSeconds ? timeoutSeconds : cfg.minRequestTimeoutSeconds * (1 + Math.random());

  const watch = await store.watch(info.namespace, {
    name,
    filter,
    resourceVersion,
    sendInitialEvents: sendInitialEventsOf(query),
    allowWatchBookmarks: boolParam(query.get('allowWatchBookmarks')),
    // Timers hold at most 2^31-1 ms (about 24.8 days); a longer timeout is that long.
    timeoutMs: Math.min(seconds * 1000, 2 ** 31 - 1),
    bookmarkIntervalMs: bookmarkInterval(cfg),
  });

  // A WebSocket when the request asks for one, else the chunked response.
  const up = isWebSocketRequest(ctx.req) ? pendingUpgrade(ctx.req) : undefined;
  const sink = up ? await webSocketWatchSink(ctx, up, format, encode) : httpWatchSink(ctx, contentType, encode);
  if (sink && s.out.partial?.kind === 'PartialObjectMetadataList') {
    // No event converts to a list: kube's stream ends where it cannot encode one.
    watch.stop();
    sink.end();
    return;
  }
  if (sink) watch.pipe(sink);
  else watch.stop();
}
