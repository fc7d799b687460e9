// kubelet's admission of host ports on a simulated node (kube's NodePorts predicate in the
// kubelet's predicate admit handler): a pod bound to a node whose hostPort another admitted,
// running pod there already uses is rejected — Failed, reason `NodePorts`, message "Pod was
// rejected: Predicate NodePorts failed: ...", a Warning event, nothing run — and a
// StatefulSet pinned to that node keeps getting its pod deleted and recreated by the
// StatefulSet controller until the port is free, then its pod runs (the flow of kube's e2e
// spec "StatefulSet ... Should recreate evicted statefulset [Conformance]").

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi } from '../../support/server.js';
import { STS, eventually, expectCode, http, sts, uniq, type KapiProcess, type Obj } from '../http/helpers.js';
import { getObj, podUntil as podUntilAt } from './helpers.js';

let k: KapiProcess;
const NS = 'default';
const NODE = 'node-1';
const POD = (name = ''): string => `/api/v1/namespaces/${NS}/pods${name ? `/${name}` : ''}`;
const REJECTED = "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports";

beforeAll(async () => {
  k = await startKapi({ args: ['--controllers', '*', '--scheduler', '--simulate-nodes', '1', '--pod-start-delay', '200ms', '--pod-stop-delay', '200ms'] });
  await eventually(
    'a Ready node',
    async () => {
      const r = await http(k, 'GET', `/api/v1/nodes/${NODE}`);
      return r.status === 200 && (r.json as Obj).status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True');
    },
    30_000,
  );
}, 60_000);

afterAll(async () => {
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

const get = (path: string): Promise<Obj | undefined> => getObj(k, path);

const podUntil = (name: string, what: string, f: (p: Obj) => boolean, timeoutMs?: number): Promise<Obj> => podUntilAt(k, POD(name), what, f, timeoutMs);

const port = (hostPort: number, extra: Obj = {}): Obj => ({ name: 'conflict', containerPort: hostPort, hostPort, ...extra });

function pod(name: string, ports: Obj[]): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { nodeName: NODE, terminationGracePeriodSeconds: 1, containers: [{ name: 'webserver', image: 'httpd:2.4', ports }] },
  };
}

async function runningPod(name: string, ports: Obj[]): Promise<Obj> {
  expectCode(await http(k, 'POST', POD(), pod(name, ports)), 201);
  return podUntil(name, 'Running', (p) => p.status?.phase === 'Running');
}

async function deletePod(name: string, gracePeriodSeconds = 0): Promise<void> {
  const r = await http(k, 'DELETE', POD(name), { gracePeriodSeconds });
  expect([200, 404]).toContain(r.status);
  await eventually(`${name} gone`, async () => (await http(k, 'GET', POD(name))).status === 404, 20_000);
}

describe('host port admission on a simulated node', () => {
  it('rejects a pod whose hostPort is taken on its node: Failed with NodePorts, an event, nothing run', async () => {
    const holder = uniq('holder');
    const second = uniq('second');
    await runningPod(holder, [port(21017)]);
    expectCode(await http(k, 'POST', POD(), pod(second, [port(21017)])), 201);
    const p = await podUntil(second, 'Failed', (x) => x.status?.phase === 'Failed');
    expect(p.status).toMatchObject({ phase: 'Failed', reason: 'NodePorts', message: REJECTED });
    expect(Date.parse(p.status.startTime)).toBeGreaterThan(0);
    // Never run: no IP, no container statuses, no kubelet conditions.
    expect(p.status.podIP).toBeUndefined();
    expect(p.status.containerStatuses).toBeUndefined();
    expect(p.status.conditions ?? []).toEqual([]);
    await eventually('the NodePorts event', async () => {
      const evs = ((await get(`/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=${second}`))?.items ?? []) as Obj[];
      return evs.some(
        (e) => e.type === 'Warning' && e.reason === 'NodePorts' && e.message === "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports" && e.source?.component === 'kubelet',
      );
    });
    // A graceful delete of the rejected pod ends at once: nothing to stop.
    await deletePod(second, 30);
    await deletePod(holder);
  }, 40_000);

  it('admits pods whose host ports differ by port, protocol or host IP, and a port freed by a deleted pod', async () => {
    const a = uniq('a');
    await runningPod(a, [port(21018, { hostIP: '10.1.1.1' })]);
    const others = [
      [uniq('b'), [port(21019)]],
      [uniq('c'), [port(21018, { protocol: 'UDP' })]],
      [uniq('d'), [port(21018, { hostIP: '10.1.1.2' })]],
    ] as const;
    for (const [name, ports] of others) await runningPod(name, [...ports]);
    // 0.0.0.0 (no hostIP) clashes with a specific address on the same protocol and port.
    const e = uniq('e');
    expectCode(await http(k, 'POST', POD(), pod(e, [port(21018)])), 201);
    await podUntil(e, 'rejected', (x) => x.status?.phase === 'Failed' && x.status?.reason === 'NodePorts');
    // A rejected pod holds nothing: once the first is gone, the same port is admitted.
    await deletePod(a);
    const f = uniq('f');
    await runningPod(f, [port(21018, { hostIP: '10.1.1.1' })]);
    for (const n of [e, f, ...others.map((o) => o[0])]) await deletePod(n);
  }, 60_000);

  it('a StatefulSet pinned to the node is recreated until the port is free, then runs', async () => {
    const holder = uniq('test-pod');
    const name = uniq('ss');
    await runningPod(holder, [port(21017)]);
    const set = sts(name, { replicas: 1 });
    set.spec.template.spec.nodeName = NODE;
    set.spec.template.spec.containers[0].ports = [port(21017)];
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    const ssPod = `${name}-0`;
    // The controller deletes each rejected pod and makes a new one: several UIDs come and go.
    const uids = new Set<string>();
    await eventually(
      'the stateful pod rejected and recreated',
      async () => {
        const p = await get(POD(ssPod));
        if (p) {
          if (p.status?.phase === 'Running') throw new Error(`${ssPod} runs while the port is taken`);
          if (p.status?.phase === 'Failed') {
            expect(p.status).toMatchObject({ reason: 'NodePorts', message: REJECTED });
            uids.add(p.metadata.uid);
          }
        }
        return uids.size >= 2;
      },
      30_000,
      50,
    );
    await deletePod(holder);
    const p = await podUntil(ssPod, 'Running and recreated', (x) => x.status?.phase === 'Running' && !uids.has(x.metadata.uid), 30_000);
    expect(p.spec.nodeName).toBe(NODE);
    await eventually('the set ready', async () => (await get(STS(NS, name)))?.status?.readyReplicas === 1, 20_000);
    expectCode(await http(k, 'DELETE', STS(NS, name)), 200);
  }, 90_000);
});
