// The Koa application: one error path that turns anything thrown into a Status,
// request info resolved once, metrics, the filters (authentication, then authorization),
// the fixed endpoints, then resource requests.

import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import { StatusError, genericNotFound, internalError, unknownError } from '../machinery/errors.js';
import { isStorageError } from '../storage/errors.js';
import { parseRequestInfo } from '../api/request-info.js';
import { negotiateOutput } from '../codec/negotiate.js';
import { PROTOBUF_MEDIA_TYPE, encodeProtobufObject } from '../codec/protobuf/index.js';
import { CBOR_MEDIA_TYPE, encodeCbor } from '../codec/cbor/index.js';

export interface AppParts {
  log: Logger;
  /** Middleware placed before everything, the error answers included (the Audit-Id header). */
  init?: Koa.Middleware[];
  /** Registers the non-resource endpoints (discovery, health, metrics, version). */
  routes: (router: Router) => void;
  /** Middleware placed after request info (metrics). */
  observe?: Koa.Middleware[];
  /** The request filters, in order, after observation: authentication, then authorization. */
  filters?: Koa.Middleware[];
  resources: (ctx: Koa.Context) => Promise<void>;
}

/**
 * A Status goes out in the format the client negotiated (a protobuf-only client gets a
 * protobuf Status, a CBOR client a CBOR one), except a 406, whose body is always JSON,
 * as kube sends it.
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
    } catch {
      // Nothing acceptable: JSON, as for a 406.
    }
  }
  ctx.set('Content-Type', 'application/json');
  ctx.body = JSON.stringify(se.status);
}

/** kube's answer when etcd does not answer in time or at all: a 500 carrying etcd's words. */
function storageStatus(err: unknown): StatusError | undefined {
  if (isStorageError(err, 'Unavailable') || isStorageError(err, 'Closed')) return unknownError(500, err.message);
  return undefined;
}

export function createApp(parts: AppParts): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  const router = new Router();
  parts.routes(router);

  for (const m of parts.init ?? []) app.use(m);
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
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
  app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.status === 404 && ctx.body === undefined) {
      const methods = router.stack.filter((l) => l.match(ctx.path)).flatMap((l) => l.methods);
      if (methods.length > 0) {
        throw new StatusError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`);
      }
      throw genericNotFound();
    }
  });
  app.on('error', (err: Error) => parts.log.debug({ err: err.message }, 'koa error'));
  return app;
}
