// Simulated nodes on one server (`kapi serve --simulate-nodes 2`): the nodes as kubectl shows
// them, their leases, pods going ContainerCreating -> Running and Ready with kubelet's status,
// the scheduler (cordon, taints and tolerations, nodeSelector, requests, the Unschedulable
// condition and the FailedScheduling event), graceful deletion, readiness gates, the fault
// annotation, and the volume provisioner (Immediate, WaitForFirstConsumer, release and delete).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, startKapi, stopKapi } from '../../support/server.js';
import { eventually, expectCode, http, sleep, uniq, type KapiProcess, type Obj } from '../http/helpers.js';
import { getObj, podUntil as podUntilAt } from './helpers.js';

let k: KapiProcess;
const NS = 'default';
const POD = (name = ''): string => `/api/v1/namespaces/${NS}/pods${name ? `/${name}` : ''}`;
const PVC = (name = ''): string => `/api/v1/namespaces/${NS}/persistentvolumeclaims${name ? `/${name}` : ''}`;

beforeAll(async () => {
  k = await startKapi({ args: ['--controllers', '*', '--scheduler', '--simulate-nodes', '2', '--pod-start-delay', '300ms', '--crash-loop-run-time', '300ms'] });
  await eventually('two Ready nodes', async () => (await readyNodes()).length === 2, 30_000);
}, 60_000);

afterAll(() => stopKapi(k));

const get = (path: string): Promise<Obj | undefined> => getObj(k, path);

async function readyNodes(): Promise<string[]> {
  const list = (await get('/api/v1/nodes'))?.items ?? [];
  return list
    .filter((n: Obj) => n.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True') && !(n.spec?.taints ?? []).some((t: Obj) => t.effect === 'NoSchedule'))
    .map((n: Obj) => n.metadata.name);
}

const podUntil = (name: string, what: string, f: (p: Obj) => boolean, timeoutMs?: number): Promise<Obj> => podUntilAt(k, POD(name), what, f, timeoutMs);

const cond = (p: Obj, type: string): Obj | undefined => p.status?.conditions?.find((c: Obj) => c.type === type);
const isReady = (p: Obj): boolean => cond(p, 'Ready')?.status === 'True';

function pod(name: string, spec: Obj = {}, annotations?: Obj): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], terminationGracePeriodSeconds: 1, ...spec },
  };
}

async function createPod(p: Obj): Promise<void> {
  expectCode(await http(k, 'POST', POD(), p), 201);
}

async function events(name: string): Promise<Obj[]> {
  const r = await get(`/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=${name}`);
  return r?.items ?? [];
}

async function kc(args: string[], input?: string): Promise<string> {
  const r = await kubectl(k, args, input);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('nodes', () => {
  it('registers Ready nodes with capacity, addresses, nodeInfo and a pod CIDR, as kubectl shows them', async () => {
    const out = await kc(['get', 'nodes', '-o', 'wide']);
    expect(out).toMatch(/^node-1\s+Ready\s+<none>\s+\S+\s+v1\.33\.0-kapi\s+172\.18\.\d+\.\d+\s+<none>\s+kapi simulated node/m);
    expect(out).toMatch(/^node-2\s+Ready\s/m);
    const n = (await get('/api/v1/nodes/node-1'))!;
    expect(n.status.capacity).toMatchObject({ cpu: '8', memory: '32Gi', pods: '110' });
    expect(n.status.allocatable).toMatchObject({ cpu: '8', memory: '32Gi', pods: '110' });
    expect(n.status.addresses.map((a: Obj) => a.type)).toEqual(['InternalIP', 'Hostname']);
    expect(n.status.nodeInfo).toMatchObject({ kubeletVersion: 'v1.33.0-kapi', operatingSystem: 'linux', architecture: 'amd64' });
    expect(n.status.conditions.map((c: Obj) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ]);
    expect(n.metadata.labels).toMatchObject({ 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux' });
    await eventually('a pod CIDR for each node', async () => !!(await get('/api/v1/nodes/node-2'))?.spec?.podCIDR);
    const cidrs = await Promise.all(['node-1', 'node-2'].map(async (x) => (await get(`/api/v1/nodes/${x}`))!.spec.podCIDR));
    expect(cidrs[0]).toMatch(/^10\.244\.\d+\.0\/24$/);
    expect(new Set(cidrs).size).toBe(2);
    const d = await kc(['describe', 'node', 'node-1']);
    expect(d).toMatch(/Ready\s+True\s+.*KubeletReady\s+kubelet is posting ready status/);
    expect(d).toMatch(/PodCIDR:\s+10\.244\./);
    expect(d).toContain('Starting kubelet.');
  });

  it('renews a Lease per node in kube-node-lease, owned by its Node', async () => {
    const l = (await get('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1'))!;
    expect(l.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    const node = (await get('/api/v1/nodes/node-1'))!;
    expect(l.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: node.metadata.uid }]);
    // Renewed every quarter of the duration (10 s).
    await eventually('a renewal', async () => (await get('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1'))!.spec.renewTime !== l.spec.renewTime, 20_000, 500);
  }, 30_000);
});

describe('pods on simulated nodes', () => {
  it('schedules a pod, which goes ContainerCreating -> Running and Ready with kubelet\'s status', async () => {
    const name = uniq('run');
    const seen: string[] = [];
    const rv = (await get(POD()))!.metadata.resourceVersion;
    const w = k.httpRequest(`${POD()}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name=${name}`, { method: 'GET' }, (res) => {
      let buf = '';
      res.on('data', (d: Buffer) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const ev = JSON.parse(buf.slice(0, i)) as Obj;
          buf = buf.slice(i + 1);
          const cs = ev.object.status?.containerStatuses?.[0];
          seen.push(`${ev.object.spec.nodeName ? 'bound' : 'unbound'}/${ev.object.status?.phase}/${cs ? Object.keys(cs.state)[0] + (cs.state.waiting ? ':' + cs.state.waiting.reason : '') : '-'}/${isReady(ev.object)}`);
        }
      });
    });
    w.end();
    await sleep(200);
    await createPod(pod(name));
    const p = await podUntil(name, 'Running and Ready', (x) => x.status?.phase === 'Running' && isReady(x));
    w.destroy();
    expect(seen[0]).toBe('unbound/Pending/-/false');
    expect(seen).toContain('bound/Pending/waiting:ContainerCreating/false');
    expect(seen[seen.length - 1]).toBe('bound/Running/running/true');
    const node = (await get(`/api/v1/nodes/${p.spec.nodeName}`))!;
    const s = p.status;
    expect(s.hostIP).toBe(node.status.addresses[0].address);
    expect(s.hostIPs).toEqual([{ ip: s.hostIP }]);
    expect(s.podIP.split('.').slice(0, 3).join('.')).toBe(node.spec.podCIDR.split('.').slice(0, 3).join('.'));
    expect(s.podIPs).toEqual([{ ip: s.podIP }]);
    expect(Date.parse(s.startTime)).toBeGreaterThan(0);
    expect(s.conditions.map((c: Obj) => [c.type, c.status])).toEqual([
      ['PodReadyToStartContainers', 'True'],
      ['Initialized', 'True'],
      ['Ready', 'True'],
      ['ContainersReady', 'True'],
      ['PodScheduled', 'True'],
    ]);
    // A condition that became True carries no stale reason.
    expect(cond(p, 'Ready')).not.toHaveProperty('reason');
    const c = s.containerStatuses[0];
    expect(c).toMatchObject({ name: 'app', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.27', lastState: {} });
    expect(c.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(c.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(Object.keys(c.state)).toEqual(['running']);
    const reasons = (await events(name)).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['Scheduled', 'Pulled', 'Created', 'Started']));
    const scheduled = (await get(`/apis/events.k8s.io/v1/namespaces/${NS}/events?fieldSelector=regarding.name=${name}`))!.items.find((e: Obj) => e.reason === 'Scheduled');
    expect(scheduled).toMatchObject({ reportingController: 'default-scheduler', action: 'Binding', note: `Successfully assigned ${NS}/${name} to ${p.spec.nodeName}` });
    const table = await kc(['get', 'pod', name, '-o', 'wide']);
    expect(table).toMatch(new RegExp(`^${name}\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+${s.podIP.replace(/\./g, '\\.')}\\s+${p.spec.nodeName}\\s`, 'm'));
  });

  it('spreads pods over the nodes with the fewest pods, honours nodeName and nodeSelector', async () => {
    const counts = async (): Promise<number[]> => {
      const per = new Map<string, number>();
      for (const p of (await get(POD()))!.items as Obj[]) {
        if (p.spec.nodeName && !['Succeeded', 'Failed'].includes(p.status?.phase)) per.set(p.spec.nodeName, (per.get(p.spec.nodeName) ?? 0) + 1);
      }
      return [per.get('node-1') ?? 0, per.get('node-2') ?? 0];
    };
    const [b1, b2] = await counts();
    expect(Math.abs(b1! - b2!)).toBeLessThanOrEqual(1);
    const names = [uniq('spread'), uniq('spread'), uniq('spread'), uniq('spread')];
    for (const n of names) await createPod(pod(n));
    for (const n of names) await podUntil(n, 'bound', (x) => !!x.spec.nodeName);
    // Each pod went to the node with fewer pods: the two stay within one of each other.
    const [a1, a2] = await counts();
    expect(a1! + a2!).toBe(b1! + b2! + 4);
    expect(Math.abs(a1! - a2!)).toBeLessThanOrEqual(1);
    const sel = uniq('sel');
    await createPod(pod(sel, { nodeSelector: { 'kubernetes.io/hostname': 'node-2' } }));
    expect((await podUntil(sel, 'Running', (x) => x.status?.phase === 'Running')).spec.nodeName).toBe('node-2');
    const named = uniq('named');
    await createPod(pod(named, { nodeName: 'node-1' }));
    expect((await podUntil(named, 'Running', (x) => x.status?.phase === 'Running')).spec.nodeName).toBe('node-1');
  });

  it('keeps a pod that fits nowhere Pending with PodScheduled=False, Unschedulable, and a FailedScheduling event', async () => {
    const name = uniq('big');
    await createPod(pod(name, { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100' } } }] }));
    const p = await podUntil(name, 'Unschedulable', (x) => cond(x, 'PodScheduled')?.reason === 'Unschedulable');
    expect(p.status.phase).toBe('Pending');
    const msg = '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
    expect(cond(p, 'PodScheduled')).toMatchObject({ status: 'False', message: msg });
    await eventually('the FailedScheduling event', async () => (await events(name)).some((e) => e.reason === 'FailedScheduling' && e.type === 'Warning' && e.message === msg));
    const d = await kc(['describe', 'pod', name]);
    expect(d).toContain('FailedScheduling');
    expect(d).toMatch(/Status:\s+Pending/);
  });

  it('honours cordon (kubectl cordon/uncordon) and taints with tolerations', async () => {
    await kc(['cordon', 'node-1']);
    await kc(['taint', 'node', 'node-2', 'dedicated=db:NoSchedule']);
    try {
      const plain = uniq('plain');
      await createPod(pod(plain));
      const p = await podUntil(plain, 'Unschedulable', (x) => cond(x, 'PodScheduled')?.reason === 'Unschedulable');
      expect(cond(p, 'PodScheduled')!.message).toBe(
        "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: db}, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      );
      const tolerant = uniq('tolerant');
      await createPod(pod(tolerant, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] }));
      expect((await podUntil(tolerant, 'Running and Ready', (x) => isReady(x))).spec.nodeName).toBe('node-2');
      // The cordon is also the node.kubernetes.io/unschedulable taint, set by the node lifecycle controller.
      await eventually('the unschedulable taint', async () => ((await get('/api/v1/nodes/node-1'))!.spec.taints ?? []).some((t: Obj) => t.key === 'node.kubernetes.io/unschedulable'));
      await kc(['uncordon', 'node-1']);
      expect((await podUntil(plain, 'bound after uncordon', (x) => !!x.spec.nodeName, 30_000)).spec.nodeName).toBe('node-1');
    } finally {
      await kubectl(k, ['uncordon', 'node-1']);
      await kubectl(k, ['taint', 'node', 'node-2', 'dedicated=db:NoSchedule-']);
    }
  }, 60_000);

  it('runs the grace period of a graceful delete, then the kubelet removes the pod', async () => {
    const name = uniq('grace');
    await createPod(pod(name, { terminationGracePeriodSeconds: 3 }));
    await podUntil(name, 'Ready', isReady);
    const t0 = Date.now();
    expectCode(await http(k, 'DELETE', POD(name)), 200);
    const marked = (await get(POD(name)))!;
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(3);
    await eventually('the pod gone', async () => (await http(k, 'GET', POD(name))).status === 404, 20_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2500);
    expect((await events(name)).map((e) => e.reason)).toContain('Killing');
  }, 30_000);

  it('honours readiness gates', async () => {
    const name = uniq('gated');
    await createPod(pod(name, { readinessGates: [{ conditionType: 'example.com/ready' }] }));
    const p = await podUntil(name, 'waiting on its gate', (x) => cond(x, 'ContainersReady')?.status === 'True');
    expect(cond(p, 'Ready')).toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/ready" does not exist.' });
    const patch = { status: { conditions: [{ type: 'example.com/ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } };
    expectCode(await http(k, 'PATCH', `${POD(name)}/status`, patch, { 'content-type': 'application/strategic-merge-patch+json' }), 200);
    await podUntil(name, 'Ready', isReady);
  });

  it('injects faults: never-ready, crash-loop and fail (kapi.io/simulate)', async () => {
    const never = uniq('never');
    const crash = uniq('crash');
    const fail = uniq('fail');
    await createPod(pod(never, {}, { 'kapi.io/simulate': 'never-ready' }));
    await createPod(pod(crash, {}, { 'kapi.io/simulate': 'crash-loop' }));
    await createPod(pod(fail, { restartPolicy: 'Never' }, { 'kapi.io/simulate': 'fail' }));
    const n = await podUntil(never, 'Running', (x) => x.status?.phase === 'Running' && x.status.containerStatuses?.[0]?.started === true);
    await sleep(800);
    const n2 = (await get(POD(never)))!;
    expect(isReady(n2)).toBe(false);
    expect(n2.status.containerStatuses[0].ready).toBe(false);
    expect(n.status.phase).toBe('Running');
    await eventually('the Unhealthy event', async () => (await events(never)).some((e) => e.reason === 'Unhealthy'));
    const c = await podUntil(crash, 'CrashLoopBackOff', (x) => x.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff');
    const cs = c.status.containerStatuses[0];
    expect(cs.restartCount).toBeGreaterThanOrEqual(1);
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs.state.waiting.message).toMatch(/^back-off 10s restarting failed container=app pod=/);
    expect(await kc(['get', 'pod', crash])).toMatch(/CrashLoopBackOff/);
    await eventually('the BackOff event', async () => (await events(crash)).some((e) => e.reason === 'BackOff' && e.type === 'Warning'));
    const f = await podUntil(fail, 'Failed', (x) => x.status?.phase === 'Failed');
    expect(f.status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cond(f, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  }, 40_000);
});

describe('volumes', () => {
  const claim = (name: string, cls: string): Obj => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: cls, resources: { requests: { storage: '2Gi' } } },
  });
  const sc = (name: string, mode: string, reclaim: string): Obj => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: 'kapi.io/simulated',
    reclaimPolicy: reclaim,
    volumeBindingMode: mode,
  });

  async function claimUntil(name: string, what: string, f: (c: Obj) => boolean): Promise<Obj> {
    let last: Obj | undefined;
    await eventually(`${name}: ${what}`, async () => {
      last = await get(PVC(name));
      return !!last && f(last);
    }, 20_000).catch((e: Error) => {
      throw new Error(`${e.message}; last seen: ${JSON.stringify(last)}`);
    });
    return last!;
  }

  it('provisions and binds at once for an Immediate class; deleting the claim deletes the volume (Delete)', async () => {
    expectCode(await http(k, 'POST', '/apis/storage.k8s.io/v1/storageclasses', sc('fast', 'Immediate', 'Delete')), 201);
    const name = uniq('imm');
    expectCode(await http(k, 'POST', PVC(), claim(name, 'fast')), 201);
    const c = await claimUntil(name, 'Bound', (x) => x.status?.phase === 'Bound');
    const pvName = `pvc-${c.metadata.uid}`;
    expect(c.spec.volumeName).toBe(pvName);
    expect(c.status).toMatchObject({ accessModes: ['ReadWriteOnce'], capacity: { storage: '2Gi' } });
    expect(c.metadata.annotations).toMatchObject({ 'pv.kubernetes.io/bind-completed': 'yes', 'volume.kubernetes.io/storage-provisioner': 'kapi.io/simulated' });
    const pv = (await get(`/api/v1/persistentvolumes/${pvName}`))!;
    expect(pv.status.phase).toBe('Bound');
    expect(pv.spec).toMatchObject({ storageClassName: 'fast', persistentVolumeReclaimPolicy: 'Delete', capacity: { storage: '2Gi' } });
    expect(pv.spec.claimRef).toMatchObject({ namespace: NS, name, uid: c.metadata.uid });
    expect(pv.metadata.annotations['pv.kubernetes.io/provisioned-by']).toBe('kapi.io/simulated');
    await eventually('the ProvisioningSucceeded event', async () => (await events(name)).some((e) => e.reason === 'ProvisioningSucceeded' && e.message === `Successfully provisioned volume ${pvName}`));
    expect(await kc(['get', 'pvc', name])).toMatch(new RegExp(`^${name}\\s+Bound\\s+${pvName}\\s+2Gi\\s+RWO\\s+fast`, 'm'));
    expectCode(await http(k, 'DELETE', PVC(name)), 200);
    await eventually('the volume deleted', async () => (await http(k, 'GET', `/api/v1/persistentvolumes/${pvName}`)).status === 404, 30_000);
  }, 40_000);

  it('releases and keeps a Retain volume when its claim goes', async () => {
    expectCode(await http(k, 'POST', '/apis/storage.k8s.io/v1/storageclasses', sc('keep', 'Immediate', 'Retain')), 201);
    const name = uniq('ret');
    expectCode(await http(k, 'POST', PVC(), claim(name, 'keep')), 201);
    const c = await claimUntil(name, 'Bound', (x) => x.status?.phase === 'Bound');
    expectCode(await http(k, 'DELETE', PVC(name)), 200);
    await eventually('the volume Released', async () => (await get(`/api/v1/persistentvolumes/${c.spec.volumeName}`))?.status?.phase === 'Released', 30_000);
    await sleep(500);
    expect((await get(`/api/v1/persistentvolumes/${c.spec.volumeName}`))?.status?.phase).toBe('Released');
  }, 40_000);

  it('waits for the first consumer (the default class): bound once a pod using it is scheduled, pinned to its node', async () => {
    const name = uniq('wffc');
    const c0 = claim(name, 'standard');
    delete c0.spec.storageClassName;
    expectCode(await http(k, 'POST', PVC(), c0), 201);
    await eventually('the WaitForFirstConsumer event', async () => (await events(name)).some((e) => e.reason === 'WaitForFirstConsumer'));
    const pending = (await get(PVC(name)))!;
    expect(pending.spec.storageClassName).toBe('standard');
    expect(pending.status.phase).toBe('Pending');
    const user = uniq('user');
    await createPod(pod(user, { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: name } }] }));
    const p = await podUntil(user, 'Running and Ready', isReady);
    const c = await claimUntil(name, 'Bound', (x) => x.status?.phase === 'Bound');
    expect(c.metadata.annotations['volume.kubernetes.io/selected-node']).toBe(p.spec.nodeName);
    const pv = (await get(`/api/v1/persistentvolumes/${c.spec.volumeName}`))!;
    expect(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0]).toEqual({ key: 'kubernetes.io/hostname', operator: 'In', values: [p.spec.nodeName] });
  }, 40_000);
});
