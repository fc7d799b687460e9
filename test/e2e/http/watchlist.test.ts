// Streaming lists (the WatchList gate, off by default in 1.33, turned on here):
// sendInitialEvents=true streams the state as ADDED events, then a bookmark marked
// k8s.io/initial-events-end, then live changes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startKapi, stopKapi, type KapiProcess, type KubeClient } from '../../support/server.js';

const BASE = '/apis/scheduling.k8s.io/v1/priorityclasses';
const pc = (name: string, value: number) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name, labels: { wl: 'yes' } }, value });

interface Ev {
  type: string;
  object: { metadata: { name?: string; resourceVersion: string; annotations?: Record<string, string> } };
}

/** Reads watch events until `until` says stop (or the timeout). */
async function readEvents(k: KubeClient, url: string, until: (evs: Ev[]) => boolean, ms = 8000): Promise<Ev[]> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), ms);
  const evs: Ev[] = [];
  try {
    const res = await k.fetch(url, { signal: ac.signal });
    const reader = res.body!.getReader();
    let buf = '';
    while (!until(evs)) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        evs.push(JSON.parse(buf.slice(0, nl)) as Ev);
        buf = buf.slice(nl + 1);
      }
    }
  } catch (e) {
    if (!ac.signal.aborted) throw e;
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return evs;
}

describe('watch list (WatchList=true)', () => {
  let k: KapiProcess;
  beforeAll(async () => {
    k = await startKapi({ args: ['--feature-gates', 'WatchList=true'] });
    for (let i = 0; i < 3; i++) expect((await http(k, 'POST', BASE, pc(`wl-${i}`, i))).status).toBe(201);
  });
  afterAll(async () => {
    await stopKapi(k);
  });

  it('streams the initial state, the end bookmark, then live events', async () => {
    const url = `${BASE}?watch=1&labelSelector=wl%3Dyes&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
    const later = (async () => {
      await new Promise((r) => setTimeout(r, 500));
      expect((await http(k, 'POST', BASE, pc('wl-live', 9))).status).toBe(201);
    })();
    const evs = await readEvents(k, url, (e) => e.some((x) => x.object.metadata.name === 'wl-live'));
    await later;
    expect(evs.slice(0, 3).map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual(['ADDED:wl-0', 'ADDED:wl-1', 'ADDED:wl-2']);
    expect(evs[3].type).toBe('BOOKMARK');
    expect(evs[3].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(Number(evs[3].object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(evs[2].object.metadata.resourceVersion));
    const live = evs.find((e) => e.object.metadata.name === 'wl-live')!;
    expect(live.type).toBe('ADDED');
    expect(Number(live.object.metadata.resourceVersion)).toBeGreaterThan(Number(evs[3].object.metadata.resourceVersion));
  });

  it('sendInitialEvents=false starts from now, with no synthetic events', async () => {
    const url = `${BASE}?watch=1&labelSelector=wl%3Dyes&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`;
    const later = (async () => {
      await new Promise((r) => setTimeout(r, 500));
      expect((await http(k, 'POST', BASE, pc('wl-after', 10))).status).toBe(201);
    })();
    const evs = await readEvents(k, url, (e) => e.length >= 1);
    await later;
    expect(evs.map((e) => `${e.type}:${e.object.metadata.name}`)).toEqual(['ADDED:wl-after']);
  });

  it('still requires resourceVersionMatch=NotOlderThan', async () => {
    const r = await http(k, 'GET', `${BASE}?watch=1&sendInitialEvents=true`);
    expect(r.status).toBe(422);
    expect((r.json as { message: string }).message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });
});
