import Koa from 'koa';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHealth, type HealthCheck } from '../../../src/server/health.js';
import { serveApp, startHarness, type Harness, type Served } from '../../support/koa-harness.js';

let etcdHealthy = true;

const CHECKS: HealthCheck[] = [
  {
    name: 'etcd',
    livez: true,
    readyz: true,
    run: async () => {
      if (!etcdHealthy) throw new Error('etcd unreachable');
    },
  },
  { name: 'poststarthook/start-cache', livez: true, readyz: false, run: async () => {} },
  {
    name: 'informer-sync',
    livez: false,
    readyz: true,
    run: () => Promise.reject(new Error('2 informers not started yet')),
  },
];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((router) => installHealth(router, CHECKS));
});

afterAll(() => harness.close());

const get = (path: string): Promise<Response> => harness.client().fetch(path);

describe('health endpoints', () => {
  it('/livez answers a bare ok as plain text', async () => {
    const res = await get('/livez');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('ok');
  });

  it('/livez?verbose lists ping and log first, then the liveness checks', async () => {
    const res = await get('/livez?verbose');
    expect(await res.text()).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]poststarthook/start-cache ok\nlivez check passed\n',
    );
  });

  it('/healthz lists only checks that are both liveness and readiness checks', async () => {
    expect(await (await get('/healthz?verbose=1')).text()).toBe('[+]ping ok\n[+]log ok\n[+]etcd ok\nhealthz check passed\n');
  });

  it('a failing check makes /readyz a 500 with the listing, reason withheld', async () => {
    const res = await get('/readyz');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]informer-sync failed: reason withheld\nreadyz check failed\n',
    );
  });

  it('exclude skips a check and says so', async () => {
    const res = await get('/readyz?exclude=informer-sync&verbose');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]informer-sync excluded: ok\nreadyz check passed\n',
    );
  });

  it('exclude without verbose still answers ok', async () => {
    const res = await get('/readyz?exclude=informer-sync');
    expect(await res.text()).toBe('ok');
  });

  it('excluding an unknown check adds kube\'s warning line', async () => {
    const res = await get('/livez?verbose&exclude=nope&exclude=etcd&exclude=also-nope');
    expect(await res.text()).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]poststarthook/start-cache ok\n' +
        'warn: some health checks cannot be excluded: no matches for "also-nope","nope"\nlivez check passed\n',
    );
  });

  it('a check failing on every endpoint fails all three', async () => {
    etcdHealthy = false;
    try {
      for (const ep of ['healthz', 'livez']) {
        const res = await get(`/${ep}`);
        expect(res.status).toBe(500);
        expect(await res.text()).toContain(`[-]etcd failed: reason withheld\n`);
      }
      const ready = await get('/readyz?exclude=informer-sync');
      expect(await ready.text()).toMatch(/\[-\]etcd failed: reason withheld\n\[\+\]informer-sync excluded: ok\nreadyz check failed\n$/);
    } finally {
      etcdHealthy = true;
    }
  });

  it('a single check has its own path, which tells the reason', async () => {
    const ok = await get('/livez/ping');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('ok');
    const bad = await get('/readyz/informer-sync');
    expect(bad.status).toBe(500);
    expect(await bad.text()).toBe('internal server error: 2 informers not started yet\n');
    // Names with slashes are served at their literal path, as kube's mux does.
    const nested = await get('/livez/poststarthook/start-cache');
    expect(nested.status).toBe(200);
    expect(await nested.text()).toBe('ok');
    expect((await get('/livez/poststarthook%2Fstart-cache')).status).toBe(200);
  });

  it("an unknown check name is the mux's plain 404", async () => {
    const res = await get('/readyz/nope');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('404 page not found\n');
    // Checks not on an endpoint are not reachable under it either.
    expect((await get('/livez/informer-sync')).status).toBe(404);
  });
});

describe('--livez-grace-period', () => {
  async function serve(startedAt: number): Promise<Served> {
    const app = new Koa();
    const router = new Router();
    const hook: HealthCheck = { name: 'poststarthook/slow-hook', livez: true, readyz: true, postStartHook: true, run: () => Promise.reject(new Error('still running')) };
    installHealth(router, [hook], { livezGracePeriodMs: 60_000, startedAt });
    app.use(router.routes());
    return serveApp(app);
  }

  it('takes an unfinished post-start hook as finished on /livez while the grace period lasts; /readyz does not', async () => {
    const fresh = await serve(Date.now());
    try {
      expect((await fetch(`${fresh.base}/livez`)).status).toBe(200);
      expect(await (await fetch(`${fresh.base}/livez/poststarthook/slow-hook`)).text()).toBe('ok');
      expect((await fetch(`${fresh.base}/readyz`)).status).toBe(500);
    } finally {
      await fresh.close();
    }
    const old = await serve(Date.now() - 120_000);
    try {
      const r = await fetch(`${old.base}/livez?verbose`);
      expect(r.status).toBe(500);
      expect(await r.text()).toContain('[-]poststarthook/slow-hook failed: reason withheld');
    } finally {
      await old.close();
    }
  });
});
