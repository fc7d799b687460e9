// The replicated mode, working: three kapi nodes over a three-member etcd cluster behind
// haproxy (cluster/launcher.ts). kubectl through the balancer, resourceVersions valid on
// every node (a list continued and a watch resumed elsewhere), the read paths, the identity
// leases, and leader election of the controllers (a killed leader replaced within the lease
// duration, a paused one that never acts again without the lease).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { http, kubeClient, kubectlPath, readKubeconfig } from '../support/server.js';
import { freshRequest, openWatch, startCluster, type TestCluster, type KapiNodeProcess } from '../support/cluster.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Leader election and identity leases shortened so that the test sees them act. */
const LEASE_S = 3;
const FLAGS = [
  '--leader-elect-lease-duration', `${LEASE_S}s`,
  '--leader-elect-renew-deadline', '2s',
  '--leader-elect-retry-period', '500ms',
  '--identity-lease-duration-seconds', '4',
  '--identity-lease-renew-interval-seconds', '1',
];

let c: TestCluster;

beforeAll(async () => {
  c = await startCluster({ nodeFlags: FLAGS });
}, 120_000);

afterAll(async () => {
  await c?.cleanup();
}, 60_000);

const LEASES = (ns: string, name = ''): string => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;
const lease = (name: string, holder = 'test'): object => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: holder } });

async function kubectl(kubeconfig: string, args: string[]): Promise<string> {
  const r = await run(kubectlPath(), ['--kubeconfig', kubeconfig, ...args]);
  return r.stdout;
}

async function createNamespace(name: string): Promise<void> {
  const r = await freshRequest(c.balancerUrl, 'POST', '/api/v1/namespaces', { metadata: { name } });
  expect(r.status, r.text).toBe(201);
}

/** GET requests of a resource each node has answered, from its /metrics. */
async function getsServed(n: KapiNodeProcess, resource: string): Promise<number> {
  const text = (await freshRequest(n.url, 'GET', '/metrics')).text;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('apiserver_request_total{') && line.includes('verb="GET"') && line.includes(`resource="${resource}"`)) {
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return sum;
}

async function controllerLease(base = c.balancerUrl): Promise<{ holderIdentity?: string; leaseTransitions?: number }> {
  const r = await freshRequest(base, 'GET', LEASES('kube-system', 'kube-controller-manager'));
  expect(r.status, r.text).toBe(200);
  return r.json.spec;
}

const nodeOf = (holder: string | undefined): KapiNodeProcess | undefined => c.nodes.find((n) => holder?.startsWith(`${n.name}_`));

async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('a cluster started with one command', () => {
  it('serves kubectl through the balancer, and each node through its own kubeconfig', async () => {
    expect(await kubectl(c.kubeconfig, ['get', 'ns', '-o', 'name'])).toBe(
      'namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n',
    );
    for (const n of c.nodes) {
      expect(await kubectl(n.kubeconfig, ['config', 'view', '-o', 'jsonpath={.clusters[0].cluster.server}'])).toBe(n.url);
      expect(await kubectl(n.kubeconfig, ['get', 'ns', 'default', '-o', 'name'])).toBe('namespace/default\n');
    }
    expect(await kubectl(c.kubeconfig, ['config', 'view', '-o', 'jsonpath={.clusters[0].cluster.server}'])).toBe(c.balancerUrl);
  });

  it('lists one identity lease per live node and the controller lease in kube-system', async () => {
    const out = await kubectl(c.kubeconfig, ['get', 'leases', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'json']);
    const items = (JSON.parse(out) as { items: { metadata: { name: string; labels: Record<string, string> }; spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: string } }[] }).items;
    expect(items.map((l) => l.metadata.labels['kubernetes.io/hostname']).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const l of items) {
      expect(l.metadata.name).toMatch(/^apiserver-[a-z2-7]{26}$/);
      expect(l.spec.holderIdentity).toMatch(new RegExp(`^${l.metadata.name}_[0-9a-f-]{36}$`));
      expect(l.spec.leaseDurationSeconds).toBe(4);
      expect(Date.now() - Date.parse(l.spec.renewTime)).toBeLessThan(3000);
    }
    const table = await kubectl(c.kubeconfig, ['get', 'leases', '-n', 'kube-system']);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+HOLDER\s+AGE$/);
    expect(table).toMatch(/\nkube-controller-manager\s+node-[123]_[0-9a-f-]{36}\s+\d+s\n/);
  });
});

describe('every node serves every read by the resourceVersion rules', () => {
  it('reads its writes through the balancer (unset resourceVersion is a consistent read on any node)', async () => {
    await createNamespace('ryw');
    const before = await Promise.all(c.nodes.map((n) => getsServed(n, 'leases')));
    for (let i = 0; i < 24; i++) {
      const created = await freshRequest(c.balancerUrl, 'POST', LEASES('ryw'), lease(`l${i}`));
      expect(created.status, created.text).toBe(201);
      const got = await freshRequest(c.balancerUrl, 'GET', LEASES('ryw', `l${i}`));
      expect(got.status, got.text).toBe(200);
      expect(got.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
      // An update, then a read elsewhere: the new version, never the old one.
      const updated = await freshRequest(c.balancerUrl, 'PUT', LEASES('ryw', `l${i}`), { ...created.json, spec: { holderIdentity: 'again' } });
      expect(updated.status, updated.text).toBe(200);
      const again = await freshRequest(c.balancerUrl, 'GET', LEASES('ryw', `l${i}`));
      expect(again.json.metadata.resourceVersion).toBe(updated.json.metadata.resourceVersion);
      expect(again.json.spec.holderIdentity).toBe('again');
    }
    const after = await Promise.all(c.nodes.map((n) => getsServed(n, 'leases')));
    // Round robin spread the reads: every node answered some of them.
    expect(after.map((a, i) => a - before[i]!).filter((d) => d > 0).length).toBe(3);
  });

  it('continues a list on other nodes from the first page\'s token, as one snapshot', async () => {
    await createNamespace('pages');
    for (let i = 0; i < 9; i++) expect((await freshRequest(c.nodes[i % 3]!.url, 'POST', LEASES('pages'), lease(`p${i}`))).status).toBe(201);
    const [n1, n2, n3] = c.nodes as [KapiNodeProcess, KapiNodeProcess, KapiNodeProcess];
    const first = await freshRequest(n1.url, 'GET', `${LEASES('pages')}?limit=4`);
    expect(first.status, first.text).toBe(200);
    const rv = first.json.metadata.resourceVersion as string;
    expect(first.json.metadata.remainingItemCount).toBe(5);
    // Changes after the first page do not show in later ones.
    expect((await freshRequest(n3.url, 'POST', LEASES('pages'), lease('p0a'))).status).toBe(201);
    expect((await freshRequest(n2.url, 'DELETE', LEASES('pages', 'p8'))).status).toBe(200);
    const second = await freshRequest(n2.url, 'GET', `${LEASES('pages')}?limit=4&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(second.status, second.text).toBe(200);
    const third = await freshRequest(n3.url, 'GET', `${LEASES('pages')}?limit=4&continue=${encodeURIComponent(second.json.metadata.continue)}`);
    expect(third.status, third.text).toBe(200);
    expect(third.json.metadata.continue).toBeUndefined();
    for (const page of [second, third]) expect(page.json.metadata.resourceVersion).toBe(rv);
    const names = [first, second, third].flatMap((p) => (p.json.items as { metadata: { name: string } }[]).map((x) => x.metadata.name));
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8']);
  });

  it('resumes a watch on another node from the last resourceVersion seen, without a gap or a repeat', async () => {
    await createNamespace('resume');
    const [n1, n2, n3] = c.nodes as [KapiNodeProcess, KapiNodeProcess, KapiNodeProcess];
    const start = (await freshRequest(n3.url, 'GET', LEASES('resume'))).json.metadata.resourceVersion as string;
    const w1 = await openWatch(n1.url, `${LEASES('resume')}?watch=true&resourceVersion=${start}`);
    for (let i = 0; i < 5; i++) expect((await freshRequest(c.balancerUrl, 'POST', LEASES('resume'), lease(`w${i}`))).status).toBe(201);
    const seen = (await w1.waitFor(5)).slice(0, 5);
    w1.close();
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w0', 'ADDED w1', 'ADDED w2', 'ADDED w3', 'ADDED w4']);
    const last = seen[4]!.object.metadata.resourceVersion!;
    // Written while no watch is open.
    for (let i = 5; i < 8; i++) expect((await freshRequest(c.balancerUrl, 'POST', LEASES('resume'), lease(`w${i}`))).status).toBe(201);
    expect((await freshRequest(c.balancerUrl, 'DELETE', LEASES('resume', 'w0'))).status).toBe(200);
    const w2 = await openWatch(n2.url, `${LEASES('resume')}?watch=true&resourceVersion=${last}`);
    const rest = await w2.waitFor(4);
    await sleep(300);
    w2.close();
    expect(rest.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w5', 'ADDED w6', 'ADDED w7', 'DELETED w0']);
    const rvs = [...seen, ...rest].map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
  });

  it('serves resourceVersion=0 and Not older than from the node\'s cache, and Exact from etcd', async () => {
    await createNamespace('modes');
    const [n1, n2, n3] = c.nodes as [KapiNodeProcess, KapiNodeProcess, KapiNodeProcess];
    const a = await freshRequest(n1.url, 'POST', LEASES('modes'), lease('a'));
    const old = a.json.metadata.resourceVersion as string;
    const b = await freshRequest(n1.url, 'PUT', LEASES('modes', 'a'), { ...a.json, spec: { holderIdentity: 'b' } });
    const newer = b.json.metadata.resourceVersion as string;
    // Not older than a revision just written on node 1: node 2 waits for its cache to reach it.
    const notOlder = await freshRequest(n2.url, 'GET', `${LEASES('modes', 'a')}?resourceVersion=${newer}`);
    expect(notOlder.status).toBe(200);
    expect(notOlder.json.spec.holderIdentity).toBe('b');
    const any = await freshRequest(n3.url, 'GET', `${LEASES('modes')}?resourceVersion=0`);
    expect(any.status).toBe(200);
    expect(Number(any.json.metadata.resourceVersion)).toBeGreaterThan(0);
    // Exact: the list as it was at the create, read from etcd's history on another node.
    const exact = await freshRequest(n3.url, 'GET', `${LEASES('modes')}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    expect(exact.status, exact.text).toBe(200);
    expect(exact.json.metadata.resourceVersion).toBe(old);
    expect(exact.json.items[0].spec.holderIdentity).toBe('test');
    // Ahead of every node: kube's 504 once the wait runs out.
    const ahead = await freshRequest(n2.url, 'GET', `${LEASES('modes')}?resourceVersion=${Number(newer) + 100000}&resourceVersionMatch=NotOlderThan`);
    expect(ahead.status).toBe(504);
    expect(ahead.json.details.causes[0].reason).toBe('ResourceVersionTooLarge');
  });
});

describe('leader election of the controllers', () => {
  it('a killed leader is replaced within the lease duration; the new leader runs the namespace controller', async () => {
    const held = await controllerLease();
    const leader = nodeOf(held.holderIdentity)!;
    expect(leader).toBeDefined();
    const t0 = performance.now();
    await leader.kill();
    const next = await until('a new controller leader', 10_000, async () => {
      const l = await controllerLease();
      return l.holderIdentity && l.holderIdentity !== held.holderIdentity ? l : undefined;
    });
    const took = performance.now() - t0;
    expect(took).toBeLessThan(LEASE_S * 1000 + 500);
    console.log(`controller leader killed: a new leader after ${Math.round(took)} ms (lease duration ${LEASE_S} s)`);
    expect(nodeOf(next.holderIdentity)).not.toBe(leader);
    expect(next.leaseTransitions).toBe((held.leaseTransitions ?? 0) + 1);
    // The controllers run on the new leader: a deleted namespace goes away.
    await createNamespace('after-failover');
    expect((await freshRequest(c.balancerUrl, 'DELETE', '/api/v1/namespaces/after-failover')).status).toBe(200);
    await until('the namespace to be finalized', 10_000, async () =>
      (await freshRequest(c.balancerUrl, 'GET', '/api/v1/namespaces/after-failover')).status === 404 ? true : undefined,
    );
    // The dead node's identity lease is collected once it expires (4 s here; an hour in kube).
    const idLeases = async () =>
      ((await freshRequest(c.balancerUrl, 'GET', `${LEASES('kube-system')}?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver`)).json.items as {
        metadata: { labels: Record<string, string> };
      }[]).map((l) => l.metadata.labels['kubernetes.io/hostname']);
    await until('the dead node\'s identity lease to be collected', 20_000, async () => ((await idLeases()).includes(leader.name) ? undefined : true));
    await leader.start();
    await until('the restarted node\'s identity lease', 10_000, async () => ((await idLeases()).includes(leader.name) ? true : undefined));
  }, 60_000);

  it('a paused leader loses the lease and, resumed, stops its controllers before acting', async () => {
    const held = await controllerLease();
    const leader = nodeOf(held.holderIdentity)!;
    leader.pause();
    const next = await until('a new controller leader', 10_000, async () => {
      const l = await controllerLease();
      return l.holderIdentity && l.holderIdentity !== held.holderIdentity ? l : undefined;
    });
    expect(nodeOf(next.holderIdentity)).not.toBe(leader);
    // Work for a namespace controller, while the old leader sleeps: a namespace that cannot
    // finish (a pod with a finalizer keeps it), which a running controller retries every
    // second. The old leader's watch delivers it the moment it resumes, before its timers run.
    await createNamespace('stuck');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    expect((await freshRequest(c.balancerUrl, 'POST', '/api/v1/namespaces/stuck/pods', pod)).status).toBe(201);
    expect((await freshRequest(c.balancerUrl, 'DELETE', '/api/v1/namespaces/stuck')).status).toBe(200);
    const newLeader = nodeOf(next.holderIdentity)!;
    await until('the new leader to work on the namespace', 10_000, async () => (/namespace cleanup failed/.test(newLeader.logs()) ? true : undefined));
    const before = leader.logs().length;
    leader.resume();
    await until('the old leader to stop leading', 5000, async () => (leader.logs().slice(before).includes('"msg":"stopped leading"') ? true : undefined));
    await sleep(2500);
    const after = leader.logs().slice(before);
    // It stopped its controllers, and its namespace controller never worked on the namespace.
    expect(after).toContain('"msg":"controllers stopped"');
    expect(after).not.toContain('namespace cleanup failed');
    expect(after).not.toContain('successfully acquired lease');
    // Still not the leader, and the lease did not go back to it.
    expect(nodeOf((await controllerLease()).holderIdentity)).not.toBe(leader);

    // Let the namespace go.
    const p = await freshRequest(c.balancerUrl, 'GET', '/api/v1/namespaces/stuck/pods/p');
    expect((await freshRequest(c.balancerUrl, 'PUT', '/api/v1/namespaces/stuck/pods/p', { ...p.json, metadata: { ...p.json.metadata, finalizers: [] } })).status).toBe(200);
    await until('the stuck namespace to be finalized', 15_000, async () =>
      (await freshRequest(c.balancerUrl, 'GET', '/api/v1/namespaces/stuck')).status === 404 ? true : undefined,
    );
  }, 60_000);
});

describe('identity across the nodes', () => {
  it('every namespace gets its default account from the leader; a token one node issues works on every node', async () => {
    await createNamespace('sa-across');
    await until('the default service account', 15_000, async () =>
      (await freshRequest(c.balancerUrl, 'GET', '/api/v1/namespaces/sa-across/serviceaccounts/default')).status === 200 ? true : undefined,
    );
    const t = await freshRequest(c.nodes[0].url, 'POST', '/api/v1/namespaces/sa-across/serviceaccounts/default/token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    });
    expect(t.status, t.text).toBe(201);
    const token = (t.json as { status: { token: string } }).status.token;
    // The nodes share the signing key `kapi pki` made beside the CA.
    const ca = readKubeconfig(c.kubeconfig).credentials.ca;
    for (const n of c.nodes) {
      const k = kubeClient(n.url, { ca, token });
      try {
        const r = await http(k, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
        expect(r.status, `${n.name}: ${r.text}`).toBe(201);
        expect((r.json as { status: { userInfo: { username: string } } }).status.userInfo.username).toBe('system:serviceaccount:sa-across:default');
      } finally {
        await k.close();
      }
    }
  });
});
