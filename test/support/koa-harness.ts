// Unit tests of one handler drive it in process over plain HTTP, behind the front of kapi's
// filter chain that the handlers rely on: StatusErrors written as Status, PageNotFound as the
// mux's plain "404 page not found", and the request info parsed.

import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { PageNotFound, StatusError } from '../../src/machinery/errors.js';
import { parseRequestInfo } from '../../src/api/request-info.js';
import { kubeClient, type KubeClient } from './kube.js';

export interface Served {
  /** http://127.0.0.1:port */
  base: string;
  close(): Promise<void>;
}

export interface Harness extends Served {
  /** The tests' one client of the harness. */
  client(): KubeClient;
}

/** Serves `app` on a free local port. */
export async function serveApp(app: Koa): Promise<Served> {
  const server = app.listen(0);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Serves the front filters, then what `install` adds to the app (middleware) and the router (routes). */
export async function startHarness(install: (router: Router, app: Koa) => void): Promise<Harness> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof PageNotFound) {
        ctx.status = 404;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = '404 page not found\n';
        return;
      }
      if (!(err instanceof StatusError)) throw err;
      ctx.status = err.code;
      ctx.body = err.status;
    }
  });
  app.use(async (ctx, next) => {
    ctx.state.requestInfo = parseRequestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring));
    await next();
  });
  const router = new Router();
  install(router, app);
  app.use(router.routes());
  const served = await serveApp(app);
  let client: KubeClient | undefined;
  return { ...served, client: () => (client ??= kubeClient(served.base, {})) };
}
