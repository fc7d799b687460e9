// Health endpoints and metrics over HTTP: /livez, /readyz, /healthz with verbose and
// exclude, single checks, and apiserver_request_total with kube's labels.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, STS, expectCode, http, ns, sts, uniq, type KapiProcess } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

describe('health endpoints', () => {
  for (const ep of ['livez', 'readyz', 'healthz']) {
    it(`/${ep} answers 200 "ok" as text/plain`, async () => {
      const r = await http(k, 'GET', `/${ep}`);
      expect(r.status).toBe(200);
      expect(r.text).toBe('ok');
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it(`/${ep}?verbose lists each check as "[+]<name> ok" and ends with "${ep} check passed"`, async () => {
      const r = await http(k, 'GET', `/${ep}?verbose`);
      expect(r.status).toBe(200);
      const lines = r.text.split('\n');
      expect(lines[0]).toBe('[+]ping ok');
      expect(lines.at(-1)).toBe('');
      expect(lines.at(-2)).toBe(`${ep} check passed`);
      for (const l of lines.slice(0, -2)) expect(l).toMatch(/^\[\+\][a-z0-9/._-]+ ok$/);
    });

    it(`/${ep}?verbose&exclude=ping shows "[+]ping excluded: ok"`, async () => {
      const r = await http(k, 'GET', `/${ep}?verbose&exclude=ping`);
      expect(r.status).toBe(200);
      const lines = r.text.split('\n');
      expect(lines).toContain('[+]ping excluded: ok');
      expect(lines).not.toContain('[+]ping ok');
      expect(lines.at(-2)).toBe(`${ep} check passed`);
    });
  }

  it('excluding an unknown check warns in the verbose output', async () => {
    const r = await http(k, 'GET', '/readyz?verbose&exclude=nope');
    expect(r.status).toBe(200);
    const lines = r.text.split('\n');
    expect(lines).toContain('warn: some health checks cannot be excluded: no matches for "nope"');
    expect(lines.indexOf('warn: some health checks cannot be excluded: no matches for "nope"')).toBe(lines.length - 3);
    expect(lines.at(-2)).toBe('readyz check passed');
  });

  it('a single check answers at /readyz/<name> and /livez/<name>', async () => {
    for (const p of ['/readyz/ping', '/livez/ping', '/healthz/ping']) {
      const r = await http(k, 'GET', p);
      expect(r.status, p).toBe(200);
      expect(r.text).toBe('ok');
    }
  });

  it('every check listed by /readyz?verbose answers at /readyz/<name>', async () => {
    const r = await http(k, 'GET', '/readyz?verbose');
    const names = r.text
      .split('\n')
      .filter((l) => l.startsWith('[+]'))
      .map((l) => l.slice(3, -3));
    expect(names.length).toBeGreaterThan(1);
    for (const n of names) {
      const one = await http(k, 'GET', `/readyz/${n}`);
      expect(one.status, n).toBe(200);
      expect(one.text).toBe('ok');
    }
  });

  it('an unknown check is 404', async () => {
    const r = await http(k, 'GET', '/readyz/no-such-check');
    expect(r.status).toBe(404);
  });
});

describe('/metrics', () => {
  /** The value of apiserver_request_total for exactly these labels (undefined when absent). */
  function requestTotal(text: string, want: Record<string, string>): number | undefined {
    for (const line of text.split('\n')) {
      if (!line.startsWith('apiserver_request_total{')) continue;
      const m = /^apiserver_request_total\{(.*)\} ([0-9.e+]+)$/.exec(line);
      if (!m) continue;
      const labels: Record<string, string> = {};
      for (const [, key, v] of m[1].matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = v;
      if (Object.entries(want).every(([key, v]) => labels[key] === v) && Object.keys(labels).length === Object.keys(want).length) {
        return Number(m[2]);
      }
    }
    return undefined;
  }

  it('counts requests in apiserver_request_total by verb, group, version, resource, scope and code', async () => {
    const n = uniq('metrics');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    expectCode(await http(k, 'POST', STS(n), sts('m')), 201);
    for (let i = 0; i < 3; i++) expectCode(await http(k, 'GET', STS(n, 'm')), 200);
    expectCode(await http(k, 'GET', STS(n, 'missing')), 404);
    expectCode(await http(k, 'GET', STS(n)), 200);
    const r = await http(k, 'GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(r.text).toContain('# TYPE apiserver_request_total counter');
    const base = { component: 'apiserver', dry_run: '', group: 'apps', version: 'v1', resource: 'statefulsets', subresource: '' };
    expect(requestTotal(r.text, { ...base, verb: 'GET', scope: 'resource', code: '200' })).toBeGreaterThanOrEqual(3);
    expect(requestTotal(r.text, { ...base, verb: 'GET', scope: 'resource', code: '404' })).toBeGreaterThanOrEqual(1);
    expect(requestTotal(r.text, { ...base, verb: 'POST', scope: 'resource', code: '201' })).toBeGreaterThanOrEqual(1);
    expect(requestTotal(r.text, { ...base, verb: 'LIST', scope: 'namespace', code: '200' })).toBeGreaterThanOrEqual(1);
    expect(requestTotal(r.text, { ...base, group: '', resource: 'namespaces', verb: 'POST', scope: 'resource', code: '201' })).toBeGreaterThanOrEqual(1);
  });

  it('counts grow with further requests', async () => {
    const labels = { component: 'apiserver', dry_run: '', group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', subresource: '', verb: 'LIST', scope: 'cluster', code: '200' };
    await http(k, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    const before = requestTotal((await http(k, 'GET', '/metrics')).text, labels) ?? 0;
    expect(before).toBeGreaterThanOrEqual(1);
    await http(k, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    await http(k, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    const after = requestTotal((await http(k, 'GET', '/metrics')).text, labels);
    expect(after).toBe(before + 2);
  });
});
