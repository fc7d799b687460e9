// The same server over a real etcd: CRUD, consistent reads after writes, watch, and
// state surviving a restart of the kapi process (etcd is the source of truth).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '../../src/storage/testing/etcd-process.js';
import { http, kubectl, removeDir, startKapi, type KapiProcess } from '../support/server.js';

const sts = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name, labels: { app: name } },
  spec: {
    replicas,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
  },
});

describe('kapi on etcd', () => {
  let etcd: EtcdProcess;
  let k: KapiProcess;
  const args = () => ['--storage-backend', 'etcd3', '--etcd-servers', etcd.endpoint];

  beforeAll(async () => {
    etcd = await startEtcd();
    k = await startKapi({ args: args() });
  });
  afterAll(async () => {
    await k?.stop();
    await removeDir(k?.dataDir ?? '');
    await etcd?.stop();
  });

  it('creates, reads its writes at once, updates and deletes', async () => {
    const base = '/apis/apps/v1/namespaces/default/statefulsets';
    for (let i = 0; i < 20; i++) {
      const c = await http(k, 'POST', base, sts(`s${i}`));
      expect(c.status).toBe(201);
      // A consistent read right after the acknowledged write must see it.
      const g = await http(k, 'GET', `${base}/s${i}`);
      expect(g.status).toBe(200);
      const obj = g.json as { metadata: { resourceVersion: string } };
      expect(obj.metadata.resourceVersion).toBe((c.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    }
    const list = await http(k, 'GET', base);
    expect((list.json as { items: unknown[] }).items).toHaveLength(20);
    const cur = (await http(k, 'GET', `${base}/s0`)).json as { metadata: { resourceVersion: string }; spec: { replicas: number } };
    cur.spec.replicas = 5;
    const u = await http(k, 'PUT', `${base}/s0`, cur);
    expect(u.status).toBe(200);
    const stale = await http(k, 'PUT', `${base}/s0`, cur);
    expect(stale.status).toBe(409);
    expect((stale.json as { reason: string }).reason).toBe('Conflict');
    const d = await http(k, 'DELETE', `${base}/s1`);
    expect(d.status).toBe(200);
    expect((await http(k, 'GET', `${base}/s1`)).status).toBe(404);
  });

  it('streams watch events from etcd in order', async () => {
    const base = '/apis/scheduling.k8s.io/v1/priorityclasses';
    const start = (await http(k, 'GET', base)).json as { metadata: { resourceVersion: string } };
    const ac = new AbortController();
    const res = await k.fetch(`${base}?watch=true&resourceVersion=${start.metadata.resourceVersion}`, { signal: ac.signal });
    const reader = res.body!.getReader();
    for (let i = 0; i < 10; i++) {
      expect((await http(k, 'POST', base, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: `w${i}` }, value: i })).status).toBe(201);
    }
    const names: string[] = [];
    let buf = '';
    while (names.length < 10) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += new TextDecoder().decode(value);
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const ev = JSON.parse(buf.slice(0, nl)) as { type: string; object: { metadata: { name: string } } };
        buf = buf.slice(nl + 1);
        expect(ev.type).toBe('ADDED');
        names.push(ev.object.metadata.name);
      }
    }
    ac.abort();
    expect(names).toEqual(Array.from({ length: 10 }, (_, i) => `w${i}`));
  });

  it('keeps state across a kapi restart and serves kubectl', async () => {
    await k.kill();
    k = await startKapi({ args: args() });
    const g = await http(k, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/s0');
    expect(g.status).toBe(200);
    expect((g.json as { spec: { replicas: number } }).spec.replicas).toBe(5);
    const r = await kubectl(k, ['get', 'sts', 's0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+READY\s+AGE\ns0\s+0\/5\s+\S+\n$/);
    // The defaults exist once, not once per start.
    const ns = (await http(k, 'GET', '/api/v1/namespaces')).json as { items: { metadata: { name: string } }[] };
    expect(ns.items.map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('starts over a resource larger than one gRPC message by default (4 MiB)', async () => {
    const base = '/apis/apps/v1/namespaces/default/statefulsets';
    // 24 objects of about 200 KiB: the watch cache's first fill reads them in one range.
    const pad = 'x'.repeat(200 * 1024);
    for (let i = 0; i < 24; i++) {
      const o = sts(`big${i}`);
      (o.metadata as Record<string, unknown>).annotations = { pad };
      expect((await http(k, 'POST', base, o)).status).toBe(201);
    }
    await k.kill();
    k = await startKapi({ args: args() });
    const list = (await http(k, 'GET', `${base}?resourceVersion=0`)).json as { items: { metadata: { name: string } }[] };
    expect(list.items.filter((o) => o.metadata.name.startsWith('big'))).toHaveLength(24);
  });

  it('fails readiness while etcd is unreachable', async () => {
    expect((await http(k, 'GET', '/readyz')).status).toBe(200);
    await etcd.stop();
    const deadline = Date.now() + 15_000;
    let r = await http(k, 'GET', '/readyz?verbose');
    while (r.status === 200 && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 200));
      r = await http(k, 'GET', '/readyz?verbose');
    }
    expect(r.status).toBe(500);
    expect(r.text).toContain('[-]etcd failed');
    expect(r.text).toContain('readyz check failed');
    expect((await http(k, 'GET', '/readyz/ping')).status).toBe(200);
  });
});
