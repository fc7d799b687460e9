// Graceful shutdown on SIGTERM, as kube-apiserver 1.33 orders it (checked against it with
// the same flags): /readyz fails at once, requests are served through
// --shutdown-delay-duration, then no new request is taken while those in flight finish,
// watches end cleanly, and the process exits 0 with everything it acknowledged stored.

import { describe, expect, it } from 'vitest';
import { http, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { openRequest, request, stalledPost, type RawError } from '../../support/raw-http.js';
import { NS, ns, uniq } from './helpers.js';

function exited(k: KapiProcess): Promise<number | null> {
  if (k.proc.exitCode !== null) return Promise.resolve(k.proc.exitCode);
  return new Promise((r) => k.proc.once('exit', (code) => r(code)));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `check` on a kapi started again on `k`'s data (what the stopped one stored). */
async function restarted(k: KapiProcess, check: (again: KapiProcess) => Promise<void>): Promise<void> {
  const again = await startKapi({ dataDir: k.dataDir });
  try {
    await check(again);
  } finally {
    await again.stop();
  }
}

/** What a request came to: an answer, or the error that kept it from one. */
async function attempt(k: KapiProcess, method: string, path: string, body?: unknown): Promise<{ status?: number; error?: string; sent?: boolean }> {
  try {
    const r = await request(k, method, path, body);
    return { status: r.status };
  } catch (e) {
    const err = e as RawError;
    return { error: err.code ?? err.message, sent: err.requestSent };
  }
}

describe('SIGTERM', () => {
  it('fails /readyz at once, serves through the delay, ends a watch cleanly, then stops taking requests and exits 0', async () => {
    const k = await startKapi({ args: ['--shutdown-delay-duration', '1500ms'] });
    try {
      const list = (await http(k, 'GET', NS())).json as { metadata: { resourceVersion: string } };
      const watch = openRequest(k, `${NS()}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
      watch.req.end();
      const watched = watch.response;
      const exit = exited(k);
      const t0 = performance.now();
      k.proc.kill('SIGTERM');
      await sleep(100);
      const ready = await http(k, 'GET', '/readyz?verbose');
      expect(ready.status).toBe(500);
      expect(ready.text).toContain('[-]shutdown failed: reason withheld\n');
      expect(ready.text.endsWith('readyz check failed\n')).toBe(true);
      expect((await http(k, 'GET', '/livez')).status).toBe(200);
      // Still served, each answer closing its connection.
      const name = uniq('during');
      const created = await request(k, 'POST', NS(), ns(name));
      expect(created.status).toBe(201);
      expect(created.headers.connection).toBe('close');
      // After the delay, nothing new is taken.
      let refused: { status?: number; error?: string } = {};
      while (performance.now() - t0 < 10_000) {
        refused = await attempt(k, 'GET', '/api/v1/namespaces/default');
        if (refused.error) break;
        await sleep(50);
      }
      expect(refused.error).toBe('ECONNREFUSED');
      expect(performance.now() - t0).toBeGreaterThan(1400);
      // The watch saw the write made during the delay, then ended cleanly (a whole chunked
      // response, not a reset): the client resumes from its last resourceVersion.
      const w = await watched;
      expect(w.status).toBe(200);
      const events = w.body.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([`ADDED ${name}`]);
      expect(await exit).toBe(0);
      // What it acknowledged is stored.
      await restarted(k, async (again) => {
        expect((await http(again, 'GET', NS(name))).status).toBe(200);
      });
    } finally {
      await stopKapi(k);
    }
  });

  it('never resets a write in flight: every write was answered, or refused before it was sent, and all answered ones are stored', async () => {
    const k = await startKapi({ args: ['--shutdown-delay-duration', '1s'] });
    try {
      const exit = exited(k);
      const outcomes: Array<{ name: string; status?: number; error?: string; sent?: boolean }> = [];
      let running = true;
      const writers = Array.from({ length: 20 }, async (_, i) => {
        for (let n = 0; running; n++) {
          const name = `w${i}-${n}`;
          const o = await attempt(k, 'POST', NS(), ns(name));
          outcomes.push({ name, ...o });
          if (o.error) return;
        }
      });
      await sleep(500);
      k.proc.kill('SIGTERM');
      expect(await exit).toBe(0);
      running = false;
      await Promise.all(writers);
      const answered = outcomes.filter((o) => o.status === 201).map((o) => o.name);
      const errors = [...new Set(outcomes.filter((o) => o.error).map((o) => `${o.error}${o.sent ? ' (sent)' : ''}`))];
      expect(answered.length).toBeGreaterThan(20);
      // No answer lost: a write either got its 201 or never reached the server.
      expect(outcomes.filter((o) => o.status !== undefined && o.status !== 201)).toEqual([]);
      // Refused: the listener was closed, or (over TLS) a connection still in the kernel's
      // accept queue was reset before its handshake, so before anything of the request left.
      expect(errors).toContain('ECONNREFUSED');
      expect(errors.filter((e) => e !== 'ECONNREFUSED' && e !== 'ECONNRESET')).toEqual([]);
      await restarted(k, async (again) => {
        const stored = ((await http(again, 'GET', NS())).json as { items: { metadata: { name: string } }[] }).items
          .map((i) => i.metadata.name)
          .filter((n) => /^w\d+-\d+$/.test(n));
        expect(stored.sort()).toEqual(answered.sort());
      });
    } finally {
      await stopKapi(k);
    }
  });

  it('lets a request in flight finish after the listener closed', async () => {
    const k = await startKapi({ args: ['--shutdown-delay-duration', '300ms'] });
    try {
      const name = uniq('inflight');
      const held = stalledPost(k, NS(), ns(name));
      await sleep(200);
      const exit = exited(k);
      k.proc.kill('SIGTERM');
      await sleep(800);
      expect((await attempt(k, 'GET', '/api/v1/namespaces/default')).error).toBe('ECONNREFUSED');
      held.finish();
      expect((await held.response).status).toBe(201);
      expect(await exit).toBe(0);
      await restarted(k, async (again) => {
        expect((await http(again, 'GET', NS(name))).status).toBe(200);
      });
    } finally {
      await stopKapi(k);
    }
  });

  it('with --shutdown-send-retry-after keeps listening, answering 429 with Retry-After: 5 until the requests in flight are done', async () => {
    const k = await startKapi({ args: ['--shutdown-delay-duration', '300ms', '--shutdown-send-retry-after'] });
    try {
      const held = stalledPost(k, NS(), ns(uniq('held')));
      await sleep(200);
      const exit = exited(k);
      k.proc.kill('SIGTERM');
      await sleep(700);
      const r = await request(k, 'GET', '/api/v1/namespaces');
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('5');
      expect(r.headers.connection).toBe('close');
      expect(JSON.parse(r.body)).toMatchObject({ reason: 'TooManyRequests', message: 'The apiserver is shutting down, please try again later.', code: 429 });
      // Health and metrics are still answered.
      expect((await request(k, 'GET', '/readyz')).status).toBe(500);
      expect((await request(k, 'GET', '/metrics')).status).toBe(200);
      held.finish();
      expect((await held.response).status).toBe(201);
      expect(await exit).toBe(0);
    } finally {
      await stopKapi(k);
    }
  });

  it('gives watches --shutdown-watch-termination-grace-period to end on their own', async () => {
    const k = await startKapi({ args: ['--shutdown-watch-termination-grace-period', '5s'] });
    try {
      const short = openRequest(k, `${NS()}?watch=1&timeoutSeconds=1`);
      short.req.end();
      await sleep(200);
      const exit = exited(k);
      const t0 = performance.now();
      k.proc.kill('SIGTERM');
      expect((await short.response).status).toBe(200);
      expect(await exit).toBe(0);
      // It ended at its own timeout, and the server did not wait out the whole grace period.
      expect(performance.now() - t0).toBeLessThan(4000);
    } finally {
      await stopKapi(k);
    }
  });
});
