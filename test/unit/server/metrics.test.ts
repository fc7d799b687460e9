import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '../../../src/machinery/errors.js';
import {
  cleanDryRun,
  installMetrics,
  metricsMiddleware,
  observeInflight,
  setStorageObjects,
} from '../../../src/server/metrics.js';
import { maxInflightFilter } from '../../../src/server/filters/max-inflight.js';
import { watcherRegistered, watcherUnregistered } from '../../../src/cache/metrics.js';
import { startHarness, type Harness } from '../../support/koa-harness.js';

let harness: Harness;
let releaseSlow: (() => void) | undefined;

beforeAll(async () => {
  harness = await startHarness((router, app) => {
    app.use(metricsMiddleware());
    // The in-flight gauges are the in-flight filter's, as kube's are its max-in-flight filter's.
    app.use(
      maxInflightFilter({
        maxRequestsInflight: 400,
        maxMutatingRequestsInflight: 200,
        requestTimeoutMs: 60_000,
        observe: observeInflight,
        onDrop: () => undefined,
      }),
    );
      installMetrics(router);
    const sts = '/apis/apps/v1/namespaces/:ns/statefulsets';
    router.get(sts, (ctx) => {
      if (ctx.query.watch) {
        // A watch hands a stream to Koa and returns: that is when it is recorded.
        const stream = new PassThrough();
        ctx.type = 'application/json';
        ctx.body = stream;
        stream.end('{"type":"ADDED","object":{}}\n');
        return;
      }
      ctx.body = { kind: 'StatefulSetList', items: [] };
    });
    router.get(`${sts}/:name`, (ctx) => {
      if (ctx.params.name === 'missing') throw notFound({ group: 'apps', resource: 'statefulsets' }, 'missing');
      ctx.body = `${JSON.stringify({ kind: 'StatefulSet', metadata: { name: ctx.params.name } })}\n`;
    });
    router.post(sts, (ctx) => {
      ctx.status = 201;
      ctx.body = { kind: 'StatefulSet' };
    });
    router.patch(`${sts}/:name`, (ctx) => {
      ctx.body = { kind: 'StatefulSet' };
    });
    router.delete(sts, (ctx) => {
      ctx.body = { kind: 'StatefulSetList', items: [] };
    });
    router.get('/apis/scheduling.k8s.io/v1/priorityclasses', (ctx) => {
      ctx.body = { kind: 'PriorityClassList', items: [] };
    });
    router.put('/apis/scheduling.k8s.io/v1/priorityclasses/:name', async (ctx) => {
      await new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
      ctx.body = { kind: 'PriorityClass' };
    });
    router.get('/boom', () => {
      throw new Error('unexpected');
    });
    router.get('/healthz', (ctx) => {
      ctx.body = 'ok';
    });
    app.silent = true;
  });
});

afterAll(() => harness.close());

const req = (path: string, init: RequestInit = {}): Promise<Response> => harness.client().fetch(path, init);

async function scrape(): Promise<string> {
  const res = await req('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of the first sample of `name` whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = new Map<string, string>();
    for (const lm of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) got.set(lm[1], lm[2]);
    if (Object.entries(labels).every(([k, v]) => got.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

const STS = { group: 'apps', version: 'v1', resource: 'statefulsets', component: 'apiserver' };

describe('request metrics', () => {
  it('counts a namespaced LIST with kube labels', async () => {
    await req('/apis/apps/v1/namespaces/default/statefulsets');
    const text = await scrape();
    expect(
      sample(text, 'apiserver_request_total', {
        ...STS,
        verb: 'LIST',
        dry_run: '',
        subresource: '',
        scope: 'namespace',
        code: '200',
      }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_duration_seconds_count', { ...STS, verb: 'LIST', scope: 'namespace' }),
    ).toBe(1);
    expect(sample(text, 'apiserver_request_duration_seconds_bucket', { ...STS, verb: 'LIST', le: '0.005' })).toBeDefined();
    expect(sample(text, 'apiserver_request_duration_seconds_bucket', { ...STS, verb: 'LIST', le: '60' })).toBe(1);
  });

  it('records response sizes of reads', async () => {
    const res = await req('/apis/apps/v1/namespaces/default/statefulsets/web');
    const body = await res.text();
    const text = await scrape();
    expect(sample(text, 'apiserver_response_sizes_count', { ...STS, verb: 'GET', scope: 'resource' })).toBe(1);
    expect(sample(text, 'apiserver_response_sizes_sum', { ...STS, verb: 'GET', scope: 'resource' })).toBe(
      Buffer.byteLength(body),
    );
    expect(sample(text, 'apiserver_response_sizes_bucket', { ...STS, verb: 'GET', le: '1000' })).toBe(1);
  });

  it('maps methods to kube verbs: POST, APPLY, PATCH, DELETE, WATCH', async () => {
    const base = '/apis/apps/v1/namespaces/ns1/statefulsets';
    await req(base, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    await req(`${base}/a`, { method: 'PATCH', body: '{}', headers: { 'Content-Type': 'application/apply-patch+yaml' } });
    await req(`${base}/a`, { method: 'PATCH', body: '{}', headers: { 'Content-Type': 'application/merge-patch+json' } });
    await req(base, { method: 'DELETE' });
    const watch = await req(`${base}?watch=true`);
    expect(await watch.text()).toContain('ADDED');
    const text = await scrape();
    // A create names its object, so kube files it under scope "resource".
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'POST', scope: 'resource', code: '201' })).toBe(1);
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'APPLY', scope: 'resource' })).toBe(1);
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'PATCH', scope: 'resource' })).toBe(1);
    // deletecollection is reported by method, as kube does.
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'DELETE', scope: 'namespace' })).toBe(1);
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'WATCH', scope: 'namespace', code: '200' })).toBe(1);
    expect(sample(text, 'apiserver_response_sizes_count', { ...STS, verb: 'WATCH' })).toBeUndefined();
  });

  it('labels dry runs', async () => {
    await req('/apis/apps/v1/namespaces/ns2/statefulsets?dryRun=All', { method: 'POST', body: '{}' });
    const text = await scrape();
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'POST', dry_run: 'All' })).toBe(1);
    expect(cleanDryRun('')).toBe('');
    expect(cleanDryRun('dryRun=All&dryRun=All')).toBe('All');
    expect(cleanDryRun('dryRun=Some')).toBe('invalid');
  });

  it('records the status of a thrown StatusError and of an unexpected error', async () => {
    const res = await req('/apis/apps/v1/namespaces/default/statefulsets/missing');
    expect(res.status).toBe(404);
    expect((await req('/boom')).status).toBe(500);
    const text = await scrape();
    expect(sample(text, 'apiserver_request_total', { ...STS, verb: 'GET', scope: 'resource', code: '404' })).toBe(1);
    expect(
      sample(text, 'apiserver_request_total', { verb: 'GET', group: '', resource: '', subresource: '/boom', scope: '', code: '500' }),
    ).toBe(1);
  });

  it('labels cluster-scoped requests and non-resource requests', async () => {
    await req('/apis/scheduling.k8s.io/v1/priorityclasses');
    await req('/healthz');
    await req('/no/such/path');
    const text = await scrape();
    expect(
      sample(text, 'apiserver_request_total', {
        verb: 'LIST',
        group: 'scheduling.k8s.io',
        version: 'v1',
        resource: 'priorityclasses',
        scope: 'cluster',
        code: '200',
      }),
    ).toBe(1);
    // Health endpoints carry an empty component in kube.
    expect(sample(text, 'apiserver_request_total', { verb: 'GET', subresource: '/healthz', scope: '', component: '', code: '200' })).toBe(1);
    // Unknown paths stay out of the labels.
    expect(sample(text, 'apiserver_request_total', { verb: 'GET', subresource: '', scope: '', code: '404' })).toBe(1);
    expect(text).not.toContain('/no/such/path');
  });

  it('reports mutating requests in flight', async () => {
    const pending = req('/apis/scheduling.k8s.io/v1/priorityclasses/high', { method: 'PUT', body: '{}' });
    while (!releaseSlow) await new Promise((r) => setTimeout(r, 5));
    const during = await scrape();
    expect(sample(during, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(1);
    releaseSlow();
    expect((await pending).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'apiserver_request_total', { verb: 'PUT', resource: 'priorityclasses', scope: 'resource' })).toBe(1);
  });
});

describe('gauges and defaults', () => {
  it('exposes storage objects and registered watchers', async () => {
    setStorageObjects('statefulsets.apps', 3);
    watcherRegistered('apps', 'v1', 'StatefulSet');
    watcherRegistered('apps', 'v1', 'StatefulSet');
    watcherUnregistered('apps', 'v1', 'StatefulSet');
    const text = await scrape();
    expect(sample(text, 'apiserver_storage_objects', { resource: 'statefulsets.apps' })).toBe(3);
    expect(sample(text, 'apiserver_registered_watchers', { group: 'apps', version: 'v1', kind: 'StatefulSet' })).toBe(1);
  });

  it('includes the Node process metrics', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});
