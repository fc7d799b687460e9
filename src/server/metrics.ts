// Prometheus metrics under kube-apiserver's names and labels (k8s.io/apiserver/pkg/endpoints/
// metrics), so existing dashboards and alerts work unchanged.

import type Router from '@koa/router';
import type Koa from 'koa';
import { Counter, Gauge } from 'prom-client';
import { exposition, hiddenRegistry, kubeHelp, registry } from '../machinery/metrics-registry.js';
import { LabeledCounter, LabeledHistogram } from '../machinery/labeled-metrics.js';
import { StatusError } from '../machinery/errors.js';
import { nonResourceInfo, type RequestInfo } from '../api/request-info.js';

export const requestTotal = new LabeledCounter(
  'apiserver_request_total',
  kubeHelp('STABLE', 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.'),
  ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
  registry,
);

export const requestDuration = new LabeledHistogram(
  'apiserver_request_duration_seconds',
  kubeHelp('STABLE', 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.'),
  ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
  registry,
);

export const responseSizes = new LabeledHistogram(
  'apiserver_response_sizes',
  kubeHelp('STABLE', 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.'),
  ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9],
  registry,
);

const SLI_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const SLI_HELP =
  'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.';
const SLI_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

export const requestSliDuration = new LabeledHistogram('apiserver_request_sli_duration_seconds', kubeHelp('ALPHA', SLI_HELP), SLI_LABELS, SLI_BUCKETS, registry);

/** Deprecated in 1.27 for the SLI one, hidden since: shown with --show-hidden-metrics-for-version. */
export const requestSloDuration = new LabeledHistogram(
  'apiserver_request_slo_duration_seconds',
  kubeHelp('ALPHA', SLI_HELP, '1.27.0'),
  SLI_LABELS,
  SLI_BUCKETS,
  hiddenRegistry,
);

export const longRunningRequests = new Gauge({
  name: 'apiserver_longrunning_requests',
  help: kubeHelp(
    'STABLE',
    'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  ),
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const,
  registers: [registry],
});

export const requestTerminations = new LabeledCounter(
  'apiserver_request_terminations_total',
  kubeHelp('ALPHA', 'Number of requests which apiserver terminated in self-defense.'),
  ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
  registry,
);

type RequestKind = 'readOnly' | 'mutating';

/** A count kube reports as the highest seen during the last second (not the value at scrape time). */
class Watermark {
  private current = 0;
  private high = 0;
  private windowStart = 0;

  observe(current: number): void {
    const now = Date.now();
    this.current = current;
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.high = current;
    }
    this.high = Math.max(this.high, current);
  }

  value(): number {
    return Date.now() - this.windowStart < 1000 ? this.high : this.current;
  }
}

const inflight: Record<RequestKind, Watermark> = { readOnly: new Watermark(), mutating: new Watermark() };
const inqueue: Record<RequestKind, Watermark> = { readOnly: new Watermark(), mutating: new Watermark() };

/** The in-flight and queued counts of a kind changed (the in-flight filter reports them). */
export function observeInflight(kind: RequestKind, current: number, queued = 0): void {
  inflight[kind].observe(current);
  inqueue[kind].observe(queued);
}

export const currentInflightRequests = new Gauge({
  name: 'apiserver_current_inflight_requests',
  help: kubeHelp('STABLE', 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.'),
  labelNames: ['request_kind'] as const,
  registers: [registry],
  collect() {
    for (const kind of ['readOnly', 'mutating'] as const) this.set({ request_kind: kind }, inflight[kind].value());
  },
});

export const currentInqueueRequests = new Gauge({
  name: 'apiserver_current_inqueue_requests',
  help: kubeHelp('ALPHA', 'Maximal number of queued requests in this apiserver per request kind in last second.'),
  labelNames: ['request_kind'] as const,
  registers: [registry],
  collect() {
    for (const kind of ['readOnly', 'mutating'] as const) this.set({ request_kind: kind }, inqueue[kind].value());
  },
});

export const storageObjects = new Gauge({
  name: 'apiserver_storage_objects',
  help: kubeHelp('STABLE', 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.'),
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

// Declarative validation's counters (DeclarativeValidation, beta in 1.33): kube runs generated
// validation beside the handwritten one only for types with declarative rules, and in 1.33
// none of the types kapi serves has any, so there is one validation path and both stay 0,
// as on a kube-apiserver serving these types.
export const declarativeValidationMismatches = new Counter({
  name: 'apiserver_validation_declarative_validation_mismatch_total',
  help: kubeHelp('BETA', 'Number of times declarative validation results differed from handwritten validation results for core types.'),
  registers: [registry],
});

export const declarativeValidationPanics = new Counter({
  name: 'apiserver_validation_declarative_validation_panic_total',
  help: kubeHelp('BETA', 'Number of times declarative validation has panicked during validation.'),
  registers: [registry],
});

// ---------------------------------------------------------------------------------------------
// Request instrumentation, after MonitorRequest / CleanScope / CanonicalVerb / CleanVerb.

const VALID_VERBS = new Set([
  'APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT',
  'UPDATE', 'WATCH', 'WATCHLIST',
]);
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
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

/** The labels kube's MonitorRequest reports a request under. */
interface RequestLabels {
  verb: string;
  dryRun: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

function labelsOf(ctx: Koa.Context, info: RequestInfo): RequestLabels {
  const l: RequestLabels = {
    verb: reportedVerb(ctx.method, info, ctx.get('Content-Type')),
    dryRun: cleanDryRun(ctx.querystring),
    group: '',
    version: '',
    resource: '',
    subresource: '',
    scope: cleanScope(info),
    component: !info.isResourceRequest && HEALTH_PATH.test(info.path) ? '' : 'apiserver',
  };
  if (info.isResourceRequest) {
    l.group = info.apiGroup;
    l.version = info.apiVersion;
    l.resource = info.resource;
    l.subresource = info.subresource;
  } else {
    // Kube puts the path of a non-resource endpoint in subresource; the matched route
    // pattern does the same for fixed paths while keeping unknown paths out of the labels.
    const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    l.subresource = typeof route === 'string' ? route : '';
  }
  return l;
}

/**
 * apiserver_request_terminations_total: a request the server ended in self-defense (429 over
 * the in-flight limit, 504 past the request timeout), as kube's filters record it.
 */
export function recordRequestTermination(ctx: Koa.Context, code: number): void {
  const info = (ctx.state.requestInfo as RequestInfo | undefined) ?? fallbackInfo(ctx);
  const l = labelsOf(ctx, info);
  requestTerminations.inc([l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component, String(code)]);
}

/**
 * Records apiserver_request_total, apiserver_request_duration_seconds (and the SLI/SLO
 * latencies), apiserver_response_sizes for each request, and apiserver_longrunning_requests
 * while a watch streams. Must run after the request-info middleware. A watch is recorded when
 * its handler returns, i.e. when streaming starts.
 */
export function metricsMiddleware(): Koa.Middleware {
  return async (ctx, next) => {
    const start = performance.now();
    const info = (ctx.state.requestInfo as RequestInfo | undefined) ?? fallbackInfo(ctx);
    const longRunning = info.verb === 'watch';
    let errorCode: number | undefined;
    try {
      await next();
    } catch (err) {
      errorCode = statusOf(err);
      throw err;
    } finally {
      const l = labelsOf(ctx, info);
      const { verb, dryRun, group, version, resource, subresource, scope, component } = l;
      const code = String(errorCode ?? ctx.status);
      const seconds = (performance.now() - start) / 1e3;
      requestTotal.inc([verb, dryRun, group, version, resource, subresource, scope, component, code]);
      requestDuration.observe([verb, dryRun, group, version, resource, subresource, scope, component], seconds);
      if (!longRunning) {
        const sli = [verb, group, version, resource, subresource, scope, component];
        requestSliDuration.observe(sli, seconds);
        requestSloDuration.observe(sli, seconds);
      } else if (errorCode === undefined && !ctx.res.writableEnded) {
        // The watch streams on after its handler returned: counted until the stream closes.
        const gauge = { verb, group, version, resource, subresource, scope, component };
        longRunningRequests.inc(gauge);
        ctx.res.once('close', () => longRunningRequests.dec(gauge));
      }
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
    const text = await exposition();
    ctx.status = 200;
    // kube's Prometheus handler names the escaping scheme of metric names too.
    ctx.set('Content-Type', `${registry.contentType}; escaping=underscores`);
    ctx.body = text;
  });
}
