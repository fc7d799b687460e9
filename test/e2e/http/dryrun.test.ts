// dryRun=All runs every step but the write: same answer and status code, nothing
// stored, no resourceVersion consumed, no watch event.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

const BASE = '/apis/apps/v1/namespaces/default/statefulsets';
const sts = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
  },
});

type Obj = { metadata: { name: string; resourceVersion?: string; uid?: string; generation?: number }; spec: { replicas: number } };

describe('dry run', () => {
  let k: KapiProcess;
  beforeAll(async () => {
    // No controller lease: its renewal every 2 s would move the revision under the checks.
    k = await startKapi({ args: ['--leader-elect=false'] });
  });
  afterAll(async () => {
    await stopKapi(k);
  });

  /** The store's revision: a list's resourceVersion after a consistent read. */
  const revision = async () => Number(((await http(k, 'GET', BASE)).json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
  /**
   * The revision once the server's own start-up writes (default service accounts, bootstrap
   * roles, its identity lease) have settled: the same in two reads 300 ms apart.
   */
  const settledRevision = async (): Promise<number> => {
    let last = await revision();
    for (;;) {
      await new Promise((r) => setTimeout(r, 300));
      const now = await revision();
      if (now === last) return now;
      last = now;
    }
  };

  it('POST answers 201 with the would-be object and stores nothing', async () => {
    const before = await settledRevision();
    const r = await http(k, 'POST', `${BASE}?dryRun=All`, sts('dry-create', 2));
    expect(r.status).toBe(201);
    const o = r.json as Obj;
    expect(o.metadata.name).toBe('dry-create');
    expect(o.metadata.uid).toBeTruthy();
    expect(o.metadata.generation).toBe(1);
    expect(o.metadata.resourceVersion).toBeUndefined();
    expect(o.spec.replicas).toBe(2);
    expect((await http(k, 'GET', `${BASE}/dry-create`)).status).toBe(404);
    expect(await revision()).toBe(before);
  });

  it('POST of an invalid object is still 422, and of an existing one still 409', async () => {
    const bad = sts('dry-bad');
    bad.spec.template.metadata.labels = { app: 'other' };
    expect((await http(k, 'POST', `${BASE}?dryRun=All`, bad)).status).toBe(422);
    expect((await http(k, 'POST', BASE, sts('dry-exists'))).status).toBe(201);
    const dup = await http(k, 'POST', `${BASE}?dryRun=All`, sts('dry-exists'));
    expect(dup.status).toBe(409);
    expect((dup.json as { reason: string }).reason).toBe('AlreadyExists');
  });

  it('PUT answers 200 with the change applied and keeps the stored object', async () => {
    const created = (await http(k, 'POST', BASE, sts('dry-update', 1))).json as Obj;
    const before = await settledRevision();
    const change = structuredClone(created);
    change.spec.replicas = 7;
    const r = await http(k, 'PUT', `${BASE}/dry-update?dryRun=All`, change);
    expect(r.status).toBe(200);
    const o = r.json as Obj;
    expect(o.spec.replicas).toBe(7);
    expect(o.metadata.generation).toBe(2);
    const stored = (await http(k, 'GET', `${BASE}/dry-update`)).json as Obj;
    expect(stored.spec.replicas).toBe(1);
    expect(stored.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(await revision()).toBe(before);
  });

  it('DELETE answers as if deleted and keeps the object, with no watch event', async () => {
    const created = (await http(k, 'POST', BASE, sts('dry-delete'))).json as Obj;
    const ac = new AbortController();
    const watch = await k.fetch(`${BASE}?watch=true&resourceVersion=${created.metadata.resourceVersion}`, { signal: ac.signal });
    const r = await http(k, 'DELETE', `${BASE}/dry-delete?dryRun=All`);
    expect(r.status).toBe(200);
    expect((r.json as { status: string }).status).toBe('Success');
    expect((await http(k, 'GET', `${BASE}/dry-delete`)).status).toBe(200);
    // A real write after the dry run is the first event the watch sees.
    expect((await http(k, 'POST', BASE, sts('dry-marker'))).status).toBe(201);
    const reader = watch.body!.getReader();
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ac.abort();
    const first = JSON.parse(text.split('\n')[0]) as { type: string; object: Obj };
    expect(first.type).toBe('ADDED');
    expect(first.object.metadata.name).toBe('dry-marker');
  });

  it('an unknown dryRun value is 422 on the options kind', async () => {
    const r = await http(k, 'PUT', `${BASE}/dry-update?dryRun=Some`, sts('dry-update'));
    expect(r.status).toBe(422);
    expect((r.json as { message: string }).message).toBe(
      'UpdateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
    );
  });
});
