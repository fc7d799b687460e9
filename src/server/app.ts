// The Koa application: one error path that turns anything thrown into a Status,
// request info resolved once, metrics, the filters (authentication, then authorization),
// the fixed endpoints, then resource requests.

import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import { PageNotFound, StatusError, genericNotFound, internalError, methodNotAllowed, unknownError } from '../machinery/errors.js';
import { isStorageError } from '../storage/errors.js';
import { parseRequestInfo } from '../api/request-info.js';
import { isPrettyPrint, negotiateOutput } from '../codec/negotiate.js';
import { PROTOBUF_MEDIA_TYPE, encodeProtobufObject } from '../codec/protobuf/index.js';
import { CBOR_MEDIA_TYPE, encodeCbor } from '../codec/cbor/index.js';
import { yamlModule } from '../machinery/lazy-module.js';

export interface AppParts {
  log: Logger;
  /** Registers the non-resource endpoints (discovery, health, metrics, version). */
  routes: (router: Router) => void;
  /** Middleware placed after request info (metrics). */
  observe?: Koa.Middleware[];
  /** The request filters, in order, after observation: authentication, then authorization. */
  filters?: Koa.Middleware[];
  resources: (ctx: Koa.Context) => Promise<void>;
  /**
   * Whether a path belongs to a go-restful web service in kube (`/api...`, `/version`, a
   * served group's paths below `/apis/<group>/`): those answer a Status 404 and a 405 for
   * methods their routes lack (HEAD too); every other path is the mux's, whose handlers
   * take any method and whose 404 is plain text.
   */
  restfulPath: (path: string) => boolean;
}

/** Go's http.NotFound, as kube's mux answers a path nobody serves. */
function writePageNotFound(ctx: Koa.Context): void {
  ctx.status = 404;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = '404 page not found\n';
}

/**
 * A Status goes out in the format the client negotiated for it (a protobuf-only client gets a
 * protobuf Status, a CBOR client a CBOR one, `Accept: application/yaml` YAML), except a 406,
 * whose body is always JSON, as kube sends it.
 */
function writeStatus(ctx: Koa.Context, se: StatusError): void {
  if (se.code !== 406) {
    try {
      const out = negotiateOutput(ctx.get('accept') || undefined, false);
      if (out.mediaType === PROTOBUF_MEDIA_TYPE) {
        ctx.set('Content-Type', PROTOBUF_MEDIA_TYPE);
        ctx.body = encodeProtobufObject(se.status as unknown as Record<string, unknown>);
        return;
      }
      if (out.mediaType === CBOR_MEDIA_TYPE) {
        ctx.set('Content-Type', CBOR_MEDIA_TYPE);
        ctx.body = encodeCbor(se.status);
        return;
      }
      if (out.mediaType === 'application/yaml') {
        ctx.set('Content-Type', 'application/yaml');
        ctx.body = yamlModule().stringify(se.status, { lineWidth: 0 });
        return;
      }
    } catch {
      // Nothing acceptable: JSON, as for a 406.
    }
  }
  ctx.set('Content-Type', 'application/json');
  // Go's json.Encoder ends the document with a newline; an indented one (curl, pretty) has none.
  ctx.body = isPrettyPrint(ctx.querystring, ctx.get('user-agent')) || prettyAccept(ctx.get('accept')) ? JSON.stringify(se.status, null, 2) : `${JSON.stringify(se.status)}\n`;
}

/** An Accept that asks for indented output (`application/json;pretty=1`). */
function prettyAccept(accept: string): boolean {
  try {
    return negotiateOutput(accept || undefined, false).pretty === true;
  } catch {
    return false;
  }
}

/** kube's answer when etcd does not answer in time or at all: a 500 carrying etcd's words. */
function storageStatus(err: unknown): StatusError | undefined {
  if (isStorageError(err, 'Unavailable') || isStorageError(err, 'Closed')) return unknownError(500, err.message);
  return undefined;
}

/** How much of an unread request body is read and dropped before the answer (Go's maxPostHandlerReadBytes). */
const DRAIN_LIMIT = 256 << 10;
const DRAIN_TIMEOUT_MS = 2000;

/**
 * Go's server reads what a handler left of a request body (up to 256 KiB) before it ends the
 * response, so the connection closes cleanly. Node would close it with the bytes unread, and
 * the kernel's reset can reach the client before the answer does (a 404 or 415 given before
 * the body was read, a /metrics POST).
 */
async function drainRequestBody(req: Koa.Context['req']): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > DRAIN_LIMIT) return;
  await new Promise<void>((done) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      req.off('error', finish);
      done();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_LIMIT) finish();
    };
    const timer = setTimeout(finish, DRAIN_TIMEOUT_MS);
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
    req.resume();
  });
}

export function createApp(parts: AppParts): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const router = new Router();
  parts.routes(router);

  app.use(async (ctx, next) => {
    await next();
    // An answer that closes the connection (the timeout's, on a body still coming) is not held
    // back for the body: Go does not read on after a reply that closes either.
    if (String(ctx.response.get('Connection') ?? '').toLowerCase() !== 'close') await drainRequestBody(ctx.req);
  });
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof PageNotFound && !ctx.headerSent) {
        writePageNotFound(ctx);
        return;
      }
      const se = err instanceof StatusError ? err : storageStatus(err) ?? internalError(err);
      if (!(err instanceof StatusError)) {
        if (isStorageError(err)) parts.log.warn({ err: err.message, path: ctx.path, method: ctx.method }, 'storage unavailable');
        else parts.log.error({ err, path: ctx.path, method: ctx.method }, 'unhandled error');
      }
      if (ctx.headerSent || !ctx.writable) {
        ctx.res.end();
        return;
      }
      ctx.status = se.code;
      writeStatus(ctx, se);
      const retry = se.status.details?.retryAfterSeconds;
      if (retry) ctx.set('Retry-After', String(retry));
    }
  });

  app.use(async (ctx, next) => {
    ctx.state.requestInfo = parseRequestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring));
    await next();
  });
  for (const m of parts.observe ?? []) app.use(m);
  for (const m of parts.filters ?? []) app.use(m);

  app.use(async (ctx, next) => {
    if (ctx.state.requestInfo.isResourceRequest) {
      await parts.resources(ctx);
      return;
    }
    await next();
  });
  app.use(async (ctx, next) => {
    // go-restful routes no HEAD (the router would serve it as a GET).
    if (ctx.method === 'HEAD' && parts.restfulPath(ctx.path)) throw methodNotAllowed();
    await next();
  });
  app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.status === 404 && ctx.body === undefined) {
      if (!parts.restfulPath(ctx.path)) throw new PageNotFound();
      const methods = router.stack.filter((l) => l.match(ctx.path)).flatMap((l) => l.methods);
      if (methods.length > 0) throw methodNotAllowed();
      throw genericNotFound();
    }
  });
  app.on('error', (err: Error) => parts.log.debug({ err: err.message }, 'koa error'));
  return app;
}
