// A frozen etcd (SIGSTOP: connections stay open, nothing answers): a request that needs it
// answers kube's 504 at the request timeout instead of waiting as long as etcd stays frozen,
// what the watch cache can answer is still answered, and all is well once etcd thaws.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '../../src/storage/testing/etcd-process.js';
import { http, removeDir, startKapi, type KapiProcess } from '../support/server.js';
import { request } from '../support/raw-http.js';

const TIMEOUT_BODY =
  '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

describe('kapi on a frozen etcd', () => {
  let etcd: EtcdProcess;
  let k: KapiProcess;

  beforeAll(async () => {
    etcd = await startEtcd();
    k = await startKapi({ args: ['--storage-backend', 'etcd3', '--etcd-servers', etcd.endpoint, '--request-timeout', '2s'] });
  });
  afterAll(async () => {
    etcd?.signal('SIGCONT');
    await k?.stop();
    await removeDir(k?.dataDir ?? '');
    await etcd?.stop();
  });

  it('answers 504 at the request timeout, serves the cache, and recovers when etcd thaws', async () => {
    expect((await http(k, 'POST', '/api/v1/namespaces', { metadata: { name: 'before' } })).status).toBe(201);
    etcd.signal('SIGSTOP');
    try {
      const results = await Promise.all([
        request(k, 'GET', '/api/v1/namespaces/before'),
        request(k, 'GET', '/api/v1/namespaces'),
        request(k, 'POST', '/api/v1/namespaces', { metadata: { name: 'during' } }),
      ]);
      for (const r of results) {
        expect(r.status).toBe(504);
        expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(r.body).toBe(TIMEOUT_BODY);
        expect(r.msConnected).toBeGreaterThan(1900);
        expect(r.msConnected).toBeLessThan(6000);
      }
      // resourceVersion=0 reads whatever the cache holds: no etcd needed.
      const cached = await request(k, 'GET', '/api/v1/namespaces/before?resourceVersion=0');
      expect(cached.status).toBe(200);
    } finally {
      etcd.signal('SIGCONT');
    }
    await expect.poll(async () => (await http(k, 'GET', '/api/v1/namespaces/before')).status, { timeout: 15_000 }).toBe(200);
    expect((await http(k, 'POST', '/api/v1/namespaces', { metadata: { name: 'after' } })).status).toBe(201);
  });
});
