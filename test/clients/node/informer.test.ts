// @kubernetes/client-node 1.4 against kapi: an informer (makeInformer: list, then watch from
// the list's resourceVersion, re-watching from the last event's resourceVersion whenever the
// server ends a watch) follows 1,000 random PriorityClass writes across several server-side
// watch timeouts and ends with exactly the server's state; and the typed CoreV1Api/AppsV1Api
// clients do CRUD of a Namespace and StatefulSets with fields round-tripping.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  SchedulingV1Api,
  makeInformer,
  type V1PriorityClass,
  type V1StatefulSet,
  type Watch,
} from '@kubernetes/client-node';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

let k: KapiProcess;
let kc: KubeConfig;

// Watches end after 2-4 s (kube's --min-request-timeout t: a watch lasts a random time in [t, 2t)).
const MIN_REQUEST_TIMEOUT = 2;

beforeAll(async () => {
  k = await startKapi({ args: ['--min-request-timeout', String(MIN_REQUEST_TIMEOUT)] });
  // The admin kubeconfig as it is: the server's CA and the admin's client certificate.
  kc = new KubeConfig();
  kc.loadFromFile(k.kubeconfig);
  expect(kc.getCurrentCluster()?.server).toBe(k.url);
  expect(kc.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
  expect(kc.getCurrentUser()?.certData).toBeTruthy();
});

afterAll(() => stopKapi(k));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Deterministic PRNG (mulberry32), so a failing run can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

interface PcState {
  name: string;
  resourceVersion: string;
  value: number;
  description: string;
  labels: Record<string, string>;
}

const stateOf = (pc: V1PriorityClass): PcState => ({
  name: pc.metadata?.name ?? '',
  resourceVersion: pc.metadata?.resourceVersion ?? '',
  value: pc.value,
  description: pc.description ?? '',
  labels: { ...(pc.metadata?.labels ?? {}) },
});

const sortedStates = (pcs: readonly V1PriorityClass[]): PcState[] =>
  pcs.map(stateOf).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

describe('client-node informer on priorityclasses', () => {
  it('follows 1,000 random writes across server-side watch ends and converges on the server state', { timeout: 60_000 }, async () => {
    const seed = Number(process.env.KAPI_INFORMER_SEED ?? Date.now() % 1_000_000);
    const random = rng(seed);
    const sched = kc.makeApiClient(SchedulingV1Api);

    let lists = 0;
    const listFn = () => {
      lists++;
      return sched.listPriorityClass();
    };
    const informer = makeInformer<V1PriorityClass>(kc, '/apis/scheduling.k8s.io/v1/priorityclasses', listFn);

    // Look at the raw stream under the informer: the resourceVersion each watch starts from and
    // every event it gets, to check resumption has neither repeats nor gaps.
    interface WatchRecord {
      from: string;
      events: { type: string; rv: string; name: string }[];
      end?: string;
    }
    const watches: WatchRecord[] = [];
    const w = (informer as unknown as { watch: Watch }).watch;
    const origWatch = w.watch.bind(w);
    w.watch = (path, params, callback, done) => {
      const rec: WatchRecord = { from: String((params as { resourceVersion?: string }).resourceVersion ?? ''), events: [] };
      watches.push(rec);
      return origWatch(
        path,
        params,
        (type, obj, raw) => {
          const o = obj as V1PriorityClass;
          rec.events.push({ type, rv: o?.metadata?.resourceVersion ?? '', name: o?.metadata?.name ?? '' });
          callback(type, obj, raw);
        },
        (err) => {
          rec.end = err ? String((err as Error).message ?? err) : 'closed';
          done(err);
        },
      );
    };

    let connects = 0;
    const errors: unknown[] = [];
    const seen = { add: 0, update: 0, delete: 0 };
    informer.on('connect', () => connects++);
    informer.on('add', () => seen.add++);
    informer.on('update', () => seen.update++);
    informer.on('delete', () => seen.delete++);
    let stopping = false;
    informer.on('error', (err) => {
      if (stopping) return; // stop() aborts the watch, which reports an AbortError
      errors.push(err);
      // The usual recovery: an informer stops on an error until started again.
      setTimeout(() => void (stopping || informer.start()), 200);
    });

    const t0 = Date.now();
    await informer.start();
    try {
      await waitFor('the first watch', () => watches.length >= 1, 10_000);
      const listed = seen.add;
      expect(listed).toBe(informer.list().length);
      // The system priority classes are there from the start.
      expect(informer.list().map((p) => p.metadata?.name).sort()).toEqual(
        expect.arrayContaining(['system-cluster-critical', 'system-node-critical']),
      );

      // 8 workers, each owning its own names (no write conflicts), 125 operations each,
      // paced so the writes span several watch lifetimes (each 2-4 s).
      const WORKERS = 8;
      const OPS = 1000;
      let done = 0;
      const counts = { create: 0, update: 0, delete: 0 };
      const worker = async (id: number): Promise<void> => {
        const mine = new Map<string, number>(); // name -> value
        let serial = 0;
        for (let i = 0; i < OPS / WORKERS; i++) {
          const started = Date.now();
          const names = [...mine.keys()];
          const r = random();
          if (names.length === 0 || r < 0.4) {
            const name = `inf-w${id}-${serial++}`;
            const value = Math.floor(random() * 1_000_000);
            await sched.createPriorityClass({
              body: {
                apiVersion: 'scheduling.k8s.io/v1',
                kind: 'PriorityClass',
                metadata: { name, labels: { worker: String(id), gen: '0' } },
                value,
                description: `created ${i}`,
              },
            });
            mine.set(name, value);
            counts.create++;
          } else if (r < 0.8) {
            const name = names[Math.floor(random() * names.length)]!;
            const cur = await sched.readPriorityClass({ name });
            const labels = { ...(cur.metadata?.labels ?? {}) };
            if (random() < 0.5) labels.gen = String(Number(labels.gen ?? '0') + 1);
            else if (labels.extra) delete labels.extra;
            else labels.extra = `x${i}`;
            cur.metadata = { ...cur.metadata, labels };
            cur.description = `updated ${i} by ${id}`;
            const out = await sched.replacePriorityClass({ name, body: cur });
            expect(out.value).toBe(mine.get(name));
            counts.update++;
          } else {
            const name = names[Math.floor(random() * names.length)]!;
            await sched.deletePriorityClass({ name });
            mine.delete(name);
            counts.delete++;
          }
          done++;
          const pause = 80 - (Date.now() - started);
          if (pause > 0) await sleep(pause);
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id)));
      expect(done).toBe(OPS);
      expect(counts.create + counts.update + counts.delete).toBe(OPS);
      expect(counts.create).toBeGreaterThan(0);
      expect(counts.update).toBeGreaterThan(0);
      expect(counts.delete).toBeGreaterThan(0);

      // The informer's cache ends exactly like the server's list: names, resourceVersions, values.
      let server: PcState[] = [];
      await waitFor(
        `the informer cache to match the server (seed ${seed})`,
        async () => {
          server = sortedStates((await sched.listPriorityClass()).items);
          return JSON.stringify(sortedStates(informer.list())) === JSON.stringify(server);
        },
        15_000,
      ).catch((e: Error) => {
        expect(sortedStates(informer.list()), e.message).toEqual(server);
      });
      expect(sortedStates(informer.list())).toEqual(server);
      const elapsed = (Date.now() - t0) / 1000;

      // The server ended watches along the way and the informer resumed each from its last
      // resourceVersion: one list only (no 410 Gone, no relist), no errors, a reconnect per
      // 2-4 s watch and not more.
      expect(errors).toEqual([]);
      expect(lists).toBe(1);
      expect(watches.length).toBeGreaterThanOrEqual(3);
      expect(connects).toBe(watches.length);
      expect(watches.length).toBeLessThanOrEqual(Math.ceil(elapsed / MIN_REQUEST_TIMEOUT) + 1);
      for (const rec of watches.slice(0, -1)) expect(rec.end).toBe('closed');

      // Every watch started where the previous one stopped, and the resourceVersions the
      // informer was sent only ever go up: no event repeated at a seam.
      let last = BigInt(watches[0]!.from);
      for (const [i, rec] of watches.entries()) {
        expect(rec.from, `watch ${i} start`).toBe(String(last));
        for (const ev of rec.events) {
          expect(['ADDED', 'MODIFIED', 'DELETED'], `event ${ev.type} ${ev.name}`).toContain(ev.type);
          const rv = BigInt(ev.rv);
          expect(rv > last, `watch ${i}: ${ev.type} ${ev.name} at ${ev.rv} after ${last}`).toBe(true);
          last = rv;
        }
      }
      // One event per write, since everything after the list came through the watches.
      expect(watches.reduce((n, rec) => n + rec.events.length, 0)).toBe(OPS);
      expect(seen).toEqual({ add: listed + counts.create, update: counts.update, delete: counts.delete });
    } finally {
      stopping = true;
      await informer.stop();
    }
  });
});

describe('typed clients: CoreV1Api and AppsV1Api', () => {
  const stsBody = (name: string, labels: Record<string, string>): V1StatefulSet => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, labels },
    spec: {
      serviceName: 'nginx',
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.8', ports: [{ containerPort: 80, name: 'web' }] }],
        },
      },
    },
  });

  it('Namespace and StatefulSet: create, read, replace, list with labelSelector, delete', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    const ns = `typed-${Date.now().toString(36)}`;

    const created = await core.createNamespace({ body: { metadata: { name: ns, labels: { suite: 'node-client' } } } });
    expect(created.kind).toBe('Namespace');
    expect(created.apiVersion).toBe('v1');
    expect(created.metadata?.name).toBe(ns);
    expect(created.metadata?.labels).toEqual({ suite: 'node-client', 'kubernetes.io/metadata.name': ns });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    expect(created.spec?.finalizers).toEqual(['kubernetes']);
    expect(created.status?.phase).toBe('Active');

    const read = await core.readNamespace({ name: ns });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
    expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    read.metadata!.labels = { ...read.metadata!.labels, team: 'a' };
    const replaced = await core.replaceNamespace({ name: ns, body: read });
    expect(replaced.metadata?.labels).toEqual({ suite: 'node-client', team: 'a', 'kubernetes.io/metadata.name': ns });
    expect(BigInt(replaced.metadata!.resourceVersion!)).toBeGreaterThan(BigInt(created.metadata!.resourceVersion!));

    const nsList = await core.listNamespace({ labelSelector: `suite=node-client,team=a` });
    expect(nsList.items.map((n) => n.metadata?.name)).toEqual([ns]);
    expect(nsList.metadata?.resourceVersion).toMatch(/^[0-9]+$/);

    // StatefulSets: two match tier=web, one does not.
    const a = await apps.createNamespacedStatefulSet({ namespace: ns, body: stsBody('a', { tier: 'web' }) });
    await apps.createNamespacedStatefulSet({ namespace: ns, body: stsBody('b', { tier: 'web' }) });
    await apps.createNamespacedStatefulSet({ namespace: ns, body: stsBody('c', { tier: 'db' }) });
    expect(a.metadata?.namespace).toBe(ns);
    expect(a.metadata?.generation).toBe(1);
    expect(a.spec?.replicas).toBe(2);
    expect(a.spec?.serviceName).toBe('nginx');
    expect(a.spec?.selector).toEqual({ matchLabels: { app: 'a' } });
    // Defaults applied by the server come back through the typed model.
    expect(a.spec?.podManagementPolicy).toBe('OrderedReady');
    expect(a.spec?.revisionHistoryLimit).toBe(10);
    expect(a.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    const c0 = a.spec?.template.spec?.containers[0];
    expect(c0?.image).toBe('registry.k8s.io/nginx-slim:0.8');
    expect(c0?.ports).toEqual([{ containerPort: 80, name: 'web', protocol: 'TCP' }]);
    expect(c0?.imagePullPolicy).toBe('IfNotPresent');
    expect(c0?.terminationMessagePath).toBe('/dev/termination-log');
    expect(a.spec?.template.spec?.restartPolicy).toBe('Always');
    expect(a.spec?.template.spec?.dnsPolicy).toBe('ClusterFirst');

    const aRead = await apps.readNamespacedStatefulSet({ name: 'a', namespace: ns });
    expect(aRead.metadata?.uid).toBe(a.metadata?.uid);
    expect(aRead.spec).toEqual(a.spec);

    aRead.spec!.replicas = 5;
    aRead.metadata!.labels = { tier: 'web', version: 'v2' };
    const aNew = await apps.replaceNamespacedStatefulSet({ name: 'a', namespace: ns, body: aRead });
    expect(aNew.spec?.replicas).toBe(5);
    expect(aNew.metadata?.labels).toEqual({ tier: 'web', version: 'v2' });
    expect(aNew.metadata?.generation).toBe(2);
    expect(aNew.metadata?.uid).toBe(a.metadata?.uid);

    const web = await apps.listNamespacedStatefulSet({ namespace: ns, labelSelector: 'tier=web' });
    expect(web.kind).toBe('StatefulSetList');
    expect(web.items.map((s) => s.metadata?.name)).toEqual(['a', 'b']);
    expect(web.items[0]?.spec?.replicas).toBe(5);
    const notWeb = await apps.listNamespacedStatefulSet({ namespace: ns, labelSelector: 'tier!=web' });
    expect(notWeb.items.map((s) => s.metadata?.name)).toEqual(['c']);
    const v2 = await apps.listNamespacedStatefulSet({ namespace: ns, labelSelector: 'version in (v2,v3)' });
    expect(v2.items.map((s) => s.metadata?.name)).toEqual(['a']);

    // A stale resourceVersion is a Conflict.
    const stale = { ...aRead, metadata: { ...aRead.metadata, resourceVersion: a.metadata?.resourceVersion } };
    const conflict = await apps.replaceNamespacedStatefulSet({ name: 'a', namespace: ns, body: stale }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ApiException);
    expect((conflict as ApiException<string>).code).toBe(409);
    expect(JSON.parse((conflict as ApiException<string>).body)).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });

    const del = await apps.deleteNamespacedStatefulSet({ name: 'a', namespace: ns });
    expect(del).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'a', group: 'apps', kind: 'statefulsets', uid: a.metadata?.uid } });
    const gone = await apps.readNamespacedStatefulSet({ name: 'a', namespace: ns }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiException);
    expect((gone as ApiException<string>).code).toBe(404);
    expect(JSON.parse((gone as ApiException<string>).body)).toMatchObject({
      reason: 'NotFound',
      message: 'statefulsets.apps "a" not found',
      details: { name: 'a', group: 'apps', kind: 'statefulsets' },
    });
    expect((await apps.listNamespacedStatefulSet({ namespace: ns })).items.map((s) => s.metadata?.name)).toEqual(['b', 'c']);

    // Deleting the namespace: it is Terminating, then the namespace controller removes it
    // and what was in it.
    const nsDel = (await core.deleteNamespace({ name: ns })) as unknown as { kind: string; metadata: { deletionTimestamp?: unknown }; status: unknown };
    expect(nsDel.kind).toBe('Namespace');
    expect(nsDel.status).toEqual({ phase: 'Terminating' });
    await waitFor(
      `namespace ${ns} to be removed`,
      async () => (await core.readNamespace({ name: ns }).catch((e: unknown) => e)) instanceof ApiException,
      20_000,
    );
    const nsGone = await core.readNamespace({ name: ns }).catch((e: unknown) => e);
    expect((nsGone as ApiException<string>).code).toBe(404);
    expect((await apps.listNamespacedStatefulSet({ namespace: ns })).items).toEqual([]);
  });
});
