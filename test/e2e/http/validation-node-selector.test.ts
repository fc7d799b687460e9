// Node selectors are validated by one piece of code for a pod's node affinity and a
// PersistentVolume's nodeAffinity: each answer is compared with kube-apiserver 1.33's,
// recorded in test/fixtures/oracle/validation/node-selector.json.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { http, type KapiProcess } from './helpers.js';

interface RecordedCase {
  request: { method: string; path: string; body: unknown };
  status: { code: number; reason: string; message: string; details: unknown };
}

const recorded = JSON.parse(readFileSync(new URL('../../fixtures/oracle/validation/node-selector.json', import.meta.url), 'utf8')) as {
  cases: Record<string, RecordedCase>;
};

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

describe("node selectors answer as kube's", () => {
  it.each(Object.entries(recorded.cases))('%s', async (_name, c) => {
    const r = await http(k, c.request.method, c.request.path, c.request.body);
    expect(r.status).toBe(c.status.code);
    const s = r.json as Record<string, unknown>;
    expect({ code: s.code, reason: s.reason, message: s.message, details: s.details }).toEqual(c.status);
  });
});
