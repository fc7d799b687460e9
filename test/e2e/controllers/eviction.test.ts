// pods/eviction as kube's EvictionREST: 201 Status when the budget allows, 429 with kube's
// message and DisruptionBudget cause when it does not, disruptedPods recorded on the budget,
// no two concurrent evictions through a budget of one, unhealthyPodEvictionPolicy, pods that
// need no budget, dry run, the name check; and `kubectl drain` blocked by a PDB, then going on
// when the budget allows. The kubelet's part (Ready, finishing graceful deletions) is played
// by the test through the API.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, removeDir, startKapi, stopKapi } from '../../support/server.js';
import { PDB, STS, WatchStream, eventually, expectCode, http, pdb, sts, uniq, MERGE, type KapiProcess, type Obj } from '../http/helpers.js';
import { KUBELET_PLAYED, PODS, setReady, waitFor, waitPods } from './helpers.js';

let k: KapiProcess;
const NS = 'default';

beforeAll(async () => {
  k = await startKapi({ args: [...KUBELET_PLAYED] });
});

afterAll(() => stopKapi(k));

const evict = (ns: string, name: string, extra: Obj = {}, query = ''): Promise<Obj> =>
  http(k, 'POST', `${PODS(ns, name)}/eviction${query}`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra }) as Promise<Obj>;

/** A Parallel set of `n` Ready pods with a budget; answers the pod names. */
async function readySet(name: string, n: number, budget: Obj): Promise<string[]> {
  const set = sts(name, { replicas: n });
  set.spec.podManagementPolicy = 'Parallel';
  expectCode(await http(k, 'POST', STS(NS), set), 201);
  const names = Array.from({ length: n }, (_, i) => `${name}-${i}`);
  await waitPods(k, NS, { app: name }, names);
  for (const p of names) await setReady(k, NS, p);
  expectCode(await http(k, 'POST', PDB(NS), pdb(name, { selector: { matchLabels: { app: name } }, ...budget })), 201);
  await waitFor(k, PDB(NS, name), 'budget computed', (b) => b.status?.currentHealthy === n && b.status?.observedGeneration === 1);
  return names;
}

describe('pods/eviction', () => {
  it('evicts while the budget allows, records the pod in disruptedPods, then answers 429 with kube\'s cause', async () => {
    const name = uniq('ev');
    const pods = await readySet(name, 3, { minAvailable: 2 });
    const before = expectCode(await http(k, 'GET', PODS(NS, pods[2]!)), 200);
    const start = expectCode(await http(k, 'GET', PDB(NS, name)), 200);
    // The record lives until the controller sees the pod gone, so it is read from the watch.
    const w = await WatchStream.open(k, `${PDB(NS)}?watch=1&fieldSelector=metadata.name%3D${name}&resourceVersion=${start.metadata.resourceVersion}`);
    const ok = await evict(NS, pods[2]!);
    expect(ok.status).toBe(201);
    expect(ok.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const recorded = (evs: { object: Obj }[]): Obj | undefined => evs.map((e) => e.object).find((o) => o.status?.disruptedPods);
    expect(await w.until((evs) => recorded(evs) !== undefined)).toBe(true);
    const budget = recorded(w.events)!;
    w.close();
    expect(Object.keys(budget.status.disruptedPods)).toEqual([pods[2]]);
    expect(budget.status.disruptionsAllowed).toBe(0);
    expect(budget.status.conditions[0]).toMatchObject({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' });
    expect(budget.metadata.managedFields.map((m: Obj) => m.manager)).toContain('kube-apiserver');
    // The evicted pod is gone (it had no node, so no grace period), its replacement is new.
    const again = await http(k, 'GET', PODS(NS, pods[2]!));
    if (again.status === 200) expect((again.json as Obj).metadata.uid).not.toBe(before.metadata.uid);

    const no = await evict(NS, pods[1]!);
    expect(no.status).toBe(429);
    expect(no.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} needs 2 healthy pods and has 2 currently` }] },
      code: 429,
    });
    expect((await http(k, 'GET', PODS(NS, pods[1]!))).status).toBe(200);
  });

  it('lets only one of many concurrent evictions through a budget of one', async () => {
    const name = uniq('race');
    const pods = await readySet(name, 4, { maxUnavailable: 1 });
    const answers = await Promise.all(pods.map((p) => evict(NS, p)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 429, 429, 429]);
  });

  it('evicts an unready pod without using the budget when it is met (IfHealthyBudget) or always (AlwaysAllow)', async () => {
    const name = uniq('unh');
    const pods = await readySet(name, 3, { minAvailable: 2 });
    await setReady(k, NS, pods[0]!, false);
    await waitFor(k, PDB(NS, name), 'two healthy', (b) => b.status?.currentHealthy === 2);
    // 2 healthy of 2 desired: the budget is met, the unready pod may go; nothing recorded.
    expect((await evict(NS, pods[0]!)).status).toBe(201);
    const b = expectCode(await http(k, 'GET', PDB(NS, name)), 200);
    expect(b.status.disruptedPods).toBeUndefined();

    const name2 = uniq('always');
    const pods2 = await readySet(name2, 2, { minAvailable: 2, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    await setReady(k, NS, pods2[0]!, false);
    await setReady(k, NS, pods2[1]!, false);
    await waitFor(k, PDB(NS, name2), 'none healthy', (x) => x.status?.currentHealthy === 0);
    expect((await evict(NS, pods2[0]!)).status).toBe(201);

    const name3 = uniq('ifhealthy');
    const pods3 = await readySet(name3, 2, { minAvailable: 2 });
    await setReady(k, NS, pods3[0]!, false);
    await waitFor(k, PDB(NS, name3), 'one healthy', (x) => x.status?.currentHealthy === 1);
    expect((await evict(NS, pods3[0]!)).status).toBe(429);
  });

  it('deletes a Pending pod without a budget check; dry run changes nothing; the names must agree; a missing pod is 404', async () => {
    const name = uniq('misc');
    const pods = await readySet(name, 2, { minAvailable: 2 });
    const dry = await evict(NS, pods[0]!, {}, '?dryRun=All');
    expect(dry.status).toBe(429);
    // A Pending pod goes at once, budget or not.
    expectCode(await http(k, 'PATCH', `${PODS(NS, pods[1]!)}/status`, { status: { phase: 'Pending', conditions: null } }, MERGE), 200);
    const before = expectCode(await http(k, 'GET', PODS(NS, pods[1]!)), 200);
    expect((await evict(NS, pods[1]!, { deleteOptions: { dryRun: ['All'] } })).status).toBe(201);
    expect(expectCode(await http(k, 'GET', PODS(NS, pods[1]!)), 200).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect((await evict(NS, pods[1]!, { deleteOptions: { preconditions: { uid: before.metadata.uid } } })).status).toBe(201);

    const mismatch = await http(k, 'POST', `${PODS(NS, pods[0]!)}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } });
    expect(mismatch.status).toBe(400);
    expect((mismatch.json as Obj).message).toBe('name in URL does not match name in Eviction object');
    const bad = await evict(NS, pods[0]!, { deleteOptions: { propagationPolicy: 'Sometimes' } });
    expect(bad.status).toBe(422);
    const missing = await evict(NS, 'no-such-pod');
    expect(missing.status).toBe(404);
    expect((missing.json as Obj).message).toBe('pods "no-such-pod" not found');
  });
});

describe('kubectl drain', () => {
  it('cordons, is held by the budget, and finishes once the budget allows', async () => {
    const name = uniq('drain');
    const node = `node-${name}`;
    expectCode(await http(k, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: node } }), 201);
    const set = sts(name, { replicas: 2 });
    set.spec.podManagementPolicy = 'Parallel';
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    const pods = [`${name}-0`, `${name}-1`];
    await waitPods(k, NS, { app: name }, pods);
    for (const p of pods) {
      expectCode(await http(k, 'POST', `${PODS(NS, p)}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: p }, target: { kind: 'Node', name: node } }), 201);
      await setReady(k, NS, p);
    }
    expectCode(await http(k, 'POST', PDB(NS), pdb(name, { selector: { matchLabels: { app: name } }, minAvailable: 2 })), 201);
    await waitFor(k, PDB(NS, name), 'budget', (b) => b.status?.currentHealthy === 2);

    // The kubelet's part: finish graceful deletions, report new pods Ready.
    let stop = false;
    const kubelet = (async () => {
      while (!stop) {
        const list = expectCode(await http(k, 'GET', `${PODS(NS)}?labelSelector=app%3D${name}`), 200).items as Obj[];
        for (const p of list) {
          if (p.metadata.deletionTimestamp) await http(k, 'DELETE', `${PODS(NS, p.metadata.name)}?gracePeriodSeconds=0`);
          else if (!(p.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True')) await setReady(k, NS, p.metadata.name).catch(() => undefined);
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    try {
      const drain = kubectl(k, ['drain', node, '--ignore-daemonsets', '--timeout=90s']);
      await waitFor(k, `/api/v1/nodes/${node}`, 'cordoned', (n) => n.spec?.unschedulable === true);
      // Held: nothing is evicted while the budget allows no disruption.
      await new Promise((r) => setTimeout(r, 1500));
      const held = expectCode(await http(k, 'GET', `${PODS(NS)}?fieldSelector=spec.nodeName%3D${node}`), 200).items as Obj[];
      expect(held).toHaveLength(2);
      expectCode(await http(k, 'PATCH', PDB(NS, name), { spec: { minAvailable: 1 } }, MERGE), 200);
      const r = await drain;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr + r.stdout).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
      expect(r.stdout).toContain(`node/${node} cordoned`);
      expect(r.stdout).toContain(`node/${node} drained`);
      await eventually('node empty', async () => (expectCode(await http(k, 'GET', `${PODS(NS)}?fieldSelector=spec.nodeName%3D${node}`), 200).items as Obj[]).length === 0);
    } finally {
      stop = true;
      await kubelet;
    }
  }, 120_000);
});

describe('pods/eviction without the disruption controller', () => {
  // The budget's status is written by the test, so a status behind the spec stays behind.
  let bare: KapiProcess;
  beforeAll(async () => {
    bare = await startKapi();
  });
  afterAll(async () => {
    await bare?.stop();
    if (bare) await removeDir(bare.dataDir);
  });

  it('says the budget is still being processed while its status lags its generation (429, Retry-After 10)', async () => {
    const name = uniq('lag');
    const labels = { app: name };
    expectCode(await http(bare, 'POST', PODS(NS), { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }), 201);
    expectCode(await http(bare, 'PATCH', `${PODS(NS, name)}/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, MERGE), 200);
    const b = expectCode(await http(bare, 'POST', PDB(NS), pdb(name, { minAvailable: 0, selector: { matchLabels: labels } })), 201);
    const status = { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1 };
    expectCode(await http(bare, 'PUT', `${PDB(NS, name)}/status`, { ...b, status }), 200);
    expectCode(await http(bare, 'PATCH', PDB(NS, name), { spec: { minAvailable: 1 } }, MERGE), 200);
    const r = await http(bare, 'POST', `${PODS(NS, name)}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('10');
    expect((r.json as Obj).details).toEqual({
      retryAfterSeconds: 10,
      causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` }],
    });
    // Caught up, with one disruption allowed: the eviction goes through and is recorded.
    const cur = expectCode(await http(bare, 'GET', PDB(NS, name)), 200);
    expectCode(await http(bare, 'PUT', `${PDB(NS, name)}/status`, { ...cur, status: { ...status, observedGeneration: 2 } }), 200);
    expect((await http(bare, 'POST', `${PODS(NS, name)}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } })).status).toBe(201);
    const after = expectCode(await http(bare, 'GET', PDB(NS, name)), 200);
    expect(after.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(after.status.disruptedPods)).toEqual([name]);
    expect(after.status.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 2, lastTransitionTime: expect.any(String) }]);
    expect((await http(bare, 'GET', PODS(NS, name))).status).toBe(404);
  });
});
