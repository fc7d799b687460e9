// The StatefulSet controller with simulated nodes (the controllers and agents branches
// together, nothing played by the test): `kubectl apply` of the canonical "web" set with a
// volumeClaimTemplate and a PodDisruptionBudget, `kubectl rollout status` returning once the
// kubelets report the pods Ready, the scheduler spreading them over the nodes, the binder and
// kapi's provisioner binding their claims, the disruption controller's status, and
// `kubectl drain` held by the budget: the evicted pod's volume is pinned to the cordoned node,
// so the next eviction is refused with 429 until the node is uncordoned.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, startKapi, stopKapi } from '../../support/server.js';
import { PDB, eventually, expectCode, http, type KapiProcess, type Obj } from '../http/helpers.js';
import { PODS, PVCS, podsOf, waitFor, kubectlOk, web } from './helpers.js';

let k: KapiProcess;
const NS = 'default';
const NODES = 3;

beforeAll(async () => {
  k = await startKapi({ args: ['--controllers', '*', '--scheduler', '--simulate-nodes', String(NODES), '--pod-start-delay', '200ms', '--pod-stop-delay', '200ms'] });
  await eventually(
    `${NODES} Ready nodes`,
    async () => {
      const nodes = expectCode(await http(k, 'GET', '/api/v1/nodes'), 200).items as Obj[];
      const ready = nodes.filter((n) => n.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True') && !(n.spec?.taints ?? []).length);
      return ready.length === NODES;
    },
    30_000,
  );
}, 60_000);

afterAll(() => stopKapi(k));

const WEB = `${web(NS)}---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: nginx}}
`;

const ok = (args: string[], input?: string): Promise<string> => kubectlOk(k, args, input);

const isReady = (p: Obj): boolean => p.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True') === true;

describe('a StatefulSet on simulated nodes', () => {
  it('rolls out to Ready with bound claims, and kubectl drain respects its PodDisruptionBudget', async () => {
    await ok(['apply', '-f', '-'], WEB);
    const t0 = Date.now();
    const out = await ok(['rollout', 'status', 'statefulset/web', '--timeout=90s']);
    expect(out).toContain('partitioned roll out complete: 3 new pods have been updated');
    expect(Date.now() - t0).toBeLessThan(90_000);

    const pods = await podsOf(k, NS, { app: 'nginx' });
    expect(pods.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    for (const p of pods) {
      expect(p.status.phase).toBe('Running');
      expect(isReady(p)).toBe(true);
      expect(p.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    }
    // One pod a node (the scheduler takes the node with the fewest pods).
    expect(new Set(pods.map((p) => p.spec.nodeName)).size).toBe(NODES);

    for (const p of pods) {
      const claim = expectCode(await http(k, 'GET', PVCS(NS, `www-${p.metadata.name}`)), 200);
      expect(claim.status.phase).toBe('Bound');
      expect(claim.metadata.annotations['volume.kubernetes.io/selected-node']).toBe(p.spec.nodeName);
      const pv = expectCode(await http(k, 'GET', `/api/v1/persistentvolumes/${claim.spec.volumeName}`), 200);
      expect(pv.status.phase).toBe('Bound');
      expect(pv.spec.claimRef.name).toBe(`www-${p.metadata.name}`);
    }
    const sts = expectCode(await http(k, 'GET', `/apis/apps/v1/namespaces/${NS}/statefulsets/web`), 200);
    expect(sts.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3 });

    await waitFor(k, PDB(NS, 'web'), 'the budget allows one disruption', (b) => b.status?.currentHealthy === 3 && b.status?.disruptionsAllowed === 1);
    const budget = expectCode(await http(k, 'GET', PDB(NS, 'web')), 200);
    expect(budget.status).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1 });

    // Drain web-2's node: its eviction takes the one disruption; the new web-2 cannot run on
    // any other node (its volume is pinned to the cordoned one) and stays Pending.
    const node = pods[2]!.spec.nodeName as string;
    await ok(['drain', node, '--timeout=30s']);
    await waitFor(k, PODS(NS, 'web-2'), 'web-2 back, Pending', (p) => p.metadata.uid !== pods[2]!.metadata.uid && p.status?.phase === 'Pending');
    // Draining a second node is refused by the budget (kubectl retries the 429 until its timeout).
    const other = pods[1]!.spec.nodeName as string;
    const refused = await kubectl(k, ['drain', other, '--timeout=3s']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/web-1|disruption budget|global timeout/);
    const evict = await http(k, 'POST', `${PODS(NS, 'web-1')}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1' } });
    expect(evict.status).toBe(429);
    expect(JSON.stringify(evict.json)).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(isReady(expectCode(await http(k, 'GET', PODS(NS, 'web-1')), 200))).toBe(true);

    // Back to normal once the nodes are schedulable again.
    await ok(['uncordon', node]);
    await ok(['uncordon', other]);
    await ok(['rollout', 'status', 'statefulset/web', '--timeout=60s']);
    const web2 = expectCode(await http(k, 'GET', PODS(NS, 'web-2')), 200);
    expect(web2.spec.nodeName).toBe(node);
    expect(isReady(web2)).toBe(true);
    await waitFor(k, PDB(NS, 'web'), 'the budget allows one disruption again', (b) => b.status?.currentHealthy === 3 && b.status?.disruptionsAllowed === 1);
  }, 180_000);
});
