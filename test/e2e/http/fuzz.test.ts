// The fuzz at a CI size: seeded mutated requests (scripts/fuzz: byte flips, invalid UTF-8, deep
// nesting, type swaps, odd methods, paths, queries and headers, over JSON, YAML, protobuf,
// CBOR, every patch type and apply) against a kapi with the CBOR gate on. No answer may be a
// 5xx, every request must get a complete response, the server must stay up, and a write that
// failed must leave its object as it was. `npm run fuzz -- --seed N --count N` runs any size.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { fuzz } from '../../../scripts/fuzz/run.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi({ args: ['--feature-gates', 'CBORServingAndStorage=true'] });
});

afterAll(() => stopKapi(k));

describe('fuzz', () => {
  it('3,000 mutated requests: no 5xx, no broken connection, no crash, no partial write', { timeout: 240_000 }, async () => {
    const lines: string[] = [];
    const s = await fuzz({
      seed: 16,
      count: 3000,
      kapi: k.url,
      kubeconfig: k.kubeconfig,
      alive: () => k.proc.exitCode === null && k.proc.signalCode === null,
      log: (l) => lines.push(l),
    });
    expect(s.violations.map((v) => `#${v.index} ${v.kind}: ${v.detail}\n  ${v.request}`).join('\n')).toBe('');
    expect(s.requests).toBe(3000);
    // The run reached every layer: answers of every kind, and failed writes checked.
    for (const code of ['200', '201', '400', '404', '405', '406', '409', '415', '422']) expect(s.byStatus[code] ?? 0, code).toBeGreaterThan(0);
    expect(s.writesChecked).toBeGreaterThan(1000);
    expect(k.logs()).not.toContain('unhandled error');
  });
});
