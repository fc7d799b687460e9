// Nothing acknowledged is lost: writes answered 2xx survive kill -9 of the server,
// and resourceVersions keep increasing across restarts.

import { afterAll, describe, expect, it } from 'vitest';
import { http, removeDir, startKapi, type KapiProcess } from '../support/server.js';

const pc = (name: string, value: number) => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
});

describe('kill -9 durability (LevelDB)', () => {
  let dataDir = '';
  afterAll(async () => {
    if (dataDir) await removeDir(dataDir);
  });

  it('keeps every acknowledged write and keeps revisions increasing', async () => {
    let k: KapiProcess = await startKapi();
    dataDir = k.dataDir;
    const acked = new Map<string, { rv: number; value: number }>();
    let stop = false;
    // Writers run until the kill; each records only what the server acknowledged.
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const name = `w${w}-${i}`;
        try {
          const r = await http(k, 'POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc(name, i));
          if (r.status === 201) {
            const obj = r.json as { metadata: { resourceVersion: string } };
            acked.set(name, { rv: Number(obj.metadata.resourceVersion), value: i });
          }
        } catch {
          return; // the connection died with the server
        }
      }
    });
    while (acked.size < 300) await new Promise((r) => setTimeout(r, 5));
    await k.kill();
    stop = true;
    await Promise.all(writers);

    k = await startKapi({ dataDir });
    try {
      const list = await http(k, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
      expect(list.status).toBe(200);
      const items = (list.json as { items: { metadata: { name: string; resourceVersion: string }; value: number }[] }).items;
      const stored = new Map(items.map((o) => [o.metadata.name, o]));
      let maxAcked = 0;
      for (const [name, a] of acked) {
        const o = stored.get(name);
        expect(o, `acknowledged ${name} is missing after kill -9`).toBeDefined();
        expect(o!.value).toBe(a.value);
        expect(Number(o!.metadata.resourceVersion)).toBe(a.rv);
        maxAcked = Math.max(maxAcked, a.rv);
      }
      const after = await http(k, 'POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc('after-restart', 1));
      expect(after.status).toBe(201);
      const rv = Number((after.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      expect(rv).toBeGreaterThan(maxAcked);
    } finally {
      await k.stop();
    }
  });
});
