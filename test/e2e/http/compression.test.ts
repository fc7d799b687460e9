// APIResponseCompression: large get/list bodies are gzipped for clients that offer gzip.

import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function rawGet(k: KapiProcess, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = k.httpRequest(path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const pc = (i: number) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name: `gz-${i}` },
  value: i,
  description: 'x'.repeat(900),
});

async function fill(k: KapiProcess): Promise<void> {
  for (let i = 0; i < 200; i += 20) {
    const rs = await Promise.all(Array.from({ length: 20 }, (_, j) => http(k, 'POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc(i + j))));
    for (const r of rs) expect(r.status).toBe(201);
  }
}

const LIST = '/apis/scheduling.k8s.io/v1/priorityclasses';

describe('response compression', () => {
  let k: KapiProcess;
  let off: KapiProcess;
  beforeAll(async () => {
    [k, off] = await Promise.all([startKapi(), startKapi({ args: ['--feature-gates', 'APIResponseCompression=false'] })]);
    await Promise.all([fill(k), fill(off)]);
  });
  afterAll(async () => {
    for (const s of [k, off]) {
      await stopKapi(s);
    }
  });

  it('gzips a list over 128 KiB when the client offers gzip', async () => {
    const r = await rawGet(k, LIST, { 'accept-encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers.vary).toBe('Accept-Encoding');
    const list = JSON.parse(gunzipSync(r.body).toString('utf8')) as { items: unknown[] };
    expect(list.items).toHaveLength(202);
  });

  it('sends plain bytes without an exact gzip token, and for small bodies', async () => {
    for (const enc of ['', 'deflate', 'x-gzip']) {
      const r = await rawGet(k, LIST, enc ? { 'accept-encoding': enc } : {});
      expect(r.headers['content-encoding'], enc).toBeUndefined();
      expect((JSON.parse(r.body.toString('utf8')) as { items: unknown[] }).items).toHaveLength(202);
    }
    const small = await rawGet(k, `${LIST}/gz-1`, { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(small.body.toString('utf8')) as { value: number }).value).toBe(1);
  });

  it('never compresses with --feature-gates APIResponseCompression=false', async () => {
    const r = await rawGet(off, LIST, { 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(r.body.toString('utf8')) as { items: unknown[] }).items).toHaveLength(202);
  });
});
