// Prometheus metrics under kube-apiserver's names and labels (k8s.io/apiserver/pkg/endpoints/
// metrics), so existing dashboards and alerts work unchanged.

import type Router from '@koa/router';
import type Koa from 'koa';
import { Gauge } from 'prom-client';
import { registry } from '../machinery/metrics-registry.js';
import { LabeledCounter, LabeledHistogram } from '../machinery/labeled-metrics.js';
import { StatusError } from '../machinery/errors.js';
import { nonResourceInfo, type RequestInfo } from '../api/request-info.js';

export const requestTotal = new LabeledCounter(
  'apiserver_request_total',
  'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
  registry,
);

export const requestDuration = new LabeledHistogram(
  'apiserver_request_duration_seconds',
  'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
  registry,
);

export const responseSizes = new LabeledHistogram(
  'apiserver_response_sizes',
  'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
  ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9],
  registry,
);

type RequestKind = 'readOnly' | 'mutating';

// Kube reports the highest in-flight count seen during the last second rather than the value
// at scrape time, which would almost always read 0 under short requests.
const inflight: Record<RequestKind, { current: number; watermark: number; windowStart: number }> = {
  readOnly: { current: 0, watermark: 0, windowStart: 0 },
  mutating: { current: 0, watermark: 0, windowStart: 0 },
};

function observeInflight(kind: RequestKind, delta: number): void {
  const s = inflight[kind];
  const now = Date.now();
  s.current += delta;
  if (now - s.windowStart >= 1000) {
    s.windowStart = now;
    s.watermark = s.current;
  }
  s.watermark = Math.max(s.watermark, s.current);
}

export const currentInflightRequests = new Gauge({
  name: 'apiserver_current_inflight_requests',
  help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  labelNames: ['request_kind'] as const,
  registers: [registry],
  collect() {
    for (const kind of ['readOnly', 'mutating'] as const) {
      const s = inflight[kind];
      const fresh = Date.now() - s.windowStart < 1000;
      this.set({ request_kind: kind }, fresh ? s.watermark : s.current);
    }
  },
});

export const storageObjects = new Gauge({
  name: 'apiserver_storage_objects',
  help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
  labelNames: ['resource'] as const,
  registers: [registry],
});

/**
 * Objects stored for a resource; kube labels it with the qualified resource
 * (`statefulsets.apps`, `priorityclasses.scheduling.k8s.io`, `namespaces`), -1 when counting failed.
 */
export function setStorageObjects(resource: string, count: number): void {
  storageObjects.set({ resource }, count);
}

// ---------------------------------------------------------------------------------------------
// Request instrumentation, after MonitorRequest / CleanScope / CanonicalVerb / CleanVerb.

const VALID_VERBS = new Set([
  'APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT',
  'UPDATE', 'WATCH', 'WATCHLIST',
]);
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
const HEALTH_PATH = /^\/(?:healthz|livez|readyz)(?:\/|$)/;

/** Metric scope: a create names its object, so it counts as "resource" like a get. */
export function cleanScope(info: RequestInfo): '' | 'resource' | 'namespace' | 'cluster' {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

/**
 * The verb label: built from the HTTP method (so a deletecollection is a DELETE, as in kube),
 * GET split into GET/LIST by scope, then WATCH, APPLY and CONNECT singled out.
 */
export function reportedVerb(method: string, info: RequestInfo, contentType: string): string {
  const scope = cleanScope(info);
  let verb = method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  if (info.verb === 'watch') verb = 'WATCH';
  if (verb === 'PATCH' && contentType.split(';')[0].trim().toLowerCase() === 'application/apply-patch+yaml') {
    verb = 'APPLY';
  }
  if (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/** dry_run label: "" when absent, the sorted distinct values when valid (only All is), else "invalid". */
export function cleanDryRun(querystring: string): string {
  if (!querystring.includes('dryRun')) return '';
  const values = new URLSearchParams(querystring).getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

function statusOf(err: unknown): number {
  if (err instanceof StatusError) return err.code;
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

function fallbackInfo(ctx: Koa.Context): RequestInfo {
  return nonResourceInfo(ctx.method, ctx.path);
}

/**
 * Records apiserver_request_total, apiserver_request_duration_seconds, apiserver_response_sizes
 * and the in-flight gauge for each request. Must run after the request-info middleware. A watch
 * is recorded when its handler returns, i.e. when streaming starts, and is not counted in flight
 * (kube leaves long-running requests out of that limit too).
 */
export function metricsMiddleware(): Koa.Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    const info = (ctx.state.requestInfo as RequestInfo | undefined) ?? fallbackInfo(ctx);
    const kind: RequestKind = READ_ONLY_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
    const tracked = info.verb !== 'watch';
    if (tracked) observeInflight(kind, 1);
    let errorCode: number | undefined;
    try {
      await next();
    } catch (err) {
      errorCode = statusOf(err);
      throw err;
    } finally {
      if (tracked) observeInflight(kind, -1);
      const scope = cleanScope(info);
      const verb = reportedVerb(ctx.method, info, ctx.get('Content-Type'));
      const dryRun = cleanDryRun(ctx.querystring);
      const component = !info.isResourceRequest && HEALTH_PATH.test(info.path) ? '' : 'apiserver';
      let group = '';
      let version = '';
      let resource = '';
      let subresource = '';
      if (info.isResourceRequest) {
        group = info.apiGroup;
        version = info.apiVersion;
        resource = info.resource;
        subresource = info.subresource;
      } else {
        // Kube puts the path of a non-resource endpoint in subresource; the matched route
        // pattern does the same for fixed paths while keeping unknown paths out of the labels.
        const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
        subresource = typeof route === 'string' ? route : '';
      }
      const code = String(errorCode ?? ctx.status);
      const seconds = (performance.now() - start) / 1e3;
      requestTotal.inc([verb, dryRun, group, version, resource, subresource, scope, component, code]);
      requestDuration.observe([verb, dryRun, group, version, resource, subresource, scope, component], seconds);
      if (verb === 'GET' || verb === 'LIST') {
        // Koa sets Content-Length only when it serializes the body, after this middleware has
        // returned, so the size is read once the response is finished. Streams have none.
        const sizeLabels = [verb, group, version, resource, subresource, scope, component];
        ctx.res.once('finish', () => {
          const len = Number(ctx.res.getHeader('content-length'));
          if (Number.isFinite(len)) responseSizes.observe(sizeLabels, len);
        });
      }
    }
  };
}

/** Serves /metrics in the Prometheus text format (any method, as kube's mux). */
export function installMetrics(router: Router): void {
  router.all(/^\/metrics$/, async (ctx) => {
    const text = await registry.metrics();
    ctx.status = 200;
    // kube's Prometheus handler names the escaping scheme of metric names too.
    ctx.set('Content-Type', `${registry.contentType}; escaping=underscores`);
    ctx.body = text;
  });
}
