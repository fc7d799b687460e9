// JSON Merge Patch (RFC 7386) on objects, /status and /scale; a content type that is no patch type is 415.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, kubectl, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

const BASE = '/apis/apps/v1/namespaces/default/statefulsets';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const sts = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, labels: { app: name, keep: 'yes' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
  },
});

type Obj = { metadata: { resourceVersion: string; generation: number; labels?: Record<string, string> }; spec: { replicas: number }; status: { replicas: number } };

describe('merge patch', () => {
  let k: KapiProcess;
  beforeAll(async () => {
    k = await startKapi();
  });
  afterAll(async () => {
    await stopKapi(k);
  });

  it('merges into the latest object: changes, null deletes, generation follows spec', async () => {
    const created = (await http(k, 'POST', BASE, sts('mp'))).json as Obj;
    const r = await http(k, 'PATCH', `${BASE}/mp`, { spec: { replicas: 4 }, metadata: { labels: { keep: null, added: 'x' } } }, MERGE);
    expect(r.status).toBe(200);
    const o = r.json as Obj;
    expect(o.spec.replicas).toBe(4);
    expect(o.metadata.labels).toEqual({ app: 'mp', added: 'x' });
    expect(o.metadata.generation).toBe(2);
    expect(Number(o.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    const same = await http(k, 'PATCH', `${BASE}/mp`, { spec: { replicas: 4 } }, MERGE);
    expect(same.status).toBe(200);
    expect((same.json as Obj).metadata.resourceVersion).toBe(o.metadata.resourceVersion);
  });

  it('a stale resourceVersion in the patch is 409; a wrong type is 422 on "patch"; status is ignored on the main resource', async () => {
    await http(k, 'POST', BASE, sts('mp2'));
    const stale = await http(k, 'PATCH', `${BASE}/mp2`, { metadata: { resourceVersion: '1' }, spec: { replicas: 2 } }, MERGE);
    expect(stale.status).toBe(409);
    const typed = await http(k, 'PATCH', `${BASE}/mp2`, { spec: { replicas: 'two' } }, MERGE);
    // kube's patcher reports a patched object that does not decode as Invalid on the field "patch".
    expect(typed.status).toBe(422);
    expect((typed.json as { message: string }).message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32$/s);
    const st = await http(k, 'PATCH', `${BASE}/mp2`, { status: { replicas: 9 } }, MERGE);
    expect((st.json as Obj).status.replicas).toBe(0);
    const viaStatus = await http(k, 'PATCH', `${BASE}/mp2/status`, { status: { replicas: 1 }, spec: { replicas: 7 } }, MERGE);
    expect(viaStatus.status).toBe(200);
    expect((viaStatus.json as Obj).status.replicas).toBe(1);
    expect((viaStatus.json as Obj).spec.replicas).toBe(1);
  });

  it('patches /scale and refuses content types that are not patch types', async () => {
    await http(k, 'POST', BASE, sts('mp3'));
    const r = await http(k, 'PATCH', `${BASE}/mp3/scale`, { spec: { replicas: 6 } }, MERGE);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 6 } });
    expect(((await http(k, 'GET', `${BASE}/mp3`)).json as Obj).spec.replicas).toBe(6);
    const json = await http(k, 'PATCH', `${BASE}/mp3`, { spec: {} }, { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    // go-restful's route 415, as kube answers it.
    expect(json.json).toMatchObject({ reason: 'UnsupportedMediaType', message: '415: Unsupported Media Type', details: {} });
    expect((await http(k, 'PATCH', `${BASE}/missing`, { spec: {} }, MERGE)).status).toBe(404);
  });

  it('serves kubectl scale, label and patch --type=merge', async () => {
    await http(k, 'POST', BASE, sts('mpk'));
    expect((await kubectl(k, ['scale', 'sts', 'mpk', '--replicas=3'])).stdout).toBe('statefulset.apps/mpk scaled\n');
    expect((await kubectl(k, ['label', 'sts', 'mpk', 'tier=db'])).stdout).toBe('statefulset.apps/mpk labeled\n');
    expect((await kubectl(k, ['patch', 'sts', 'mpk', '--type=merge', '-p', '{"spec":{"minReadySeconds":5}}'])).stdout).toBe('statefulset.apps/mpk patched\n');
    const o = (await http(k, 'GET', `${BASE}/mpk`)).json as Obj & { spec: { minReadySeconds: number } };
    expect(o.spec.replicas).toBe(3);
    expect(o.spec.minReadySeconds).toBe(5);
    expect(o.metadata.labels?.tier).toBe('db');
  });
});
