// The StatefulSet controller on a real server, driven over HTTP: pods named from ordinals.start
// with their identity labels, hostname and subdomain; claims from volumeClaimTemplates with
// the retention policy's owner references; OrderedReady waits on readiness, Parallel does not;
// ControllerRevisions with kube's hash and data; the rolling update from the top ordinal down
// to the partition; OnDelete; status with observedGeneration; the events kube writes. The
// kubelet's part (Running, Ready) is played by the test through pods/status.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { PC, STS, eventually, expectCode, http, pc, sts, uniq, MERGE, type KapiProcess, type Obj } from '../http/helpers.js';
import { KUBELET_PLAYED, PODS, PVCS, REVS, eventsAbout, podsOf, setReady, waitFor, waitGone, waitPods } from './helpers.js';

let k: KapiProcess;
const NS = 'default';

beforeAll(async () => {
  k = await startKapi({ args: [...KUBELET_PLAYED] });
});

afterAll(() => stopKapi(k));


function withClaims(set: Obj, policy?: Obj): Obj {
  set.spec.volumeClaimTemplates = [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  if (policy) set.spec.persistentVolumeClaimRetentionPolicy = policy;
  return set;
}

describe('StatefulSet controller', () => {
  it('creates OrderedReady pods one at a time, each after the one before is Ready, with identity, claims and owner references', async () => {
    const name = uniq('ord');
    const set = withClaims(sts(name, { replicas: 3 }));
    const created = expectCode(await http(k, 'POST', STS(NS), set), 201);
    const sel = { app: name };
    const pods = await waitPods(k, NS, sel, [`${name}-0`]);
    const p0 = pods[0]!;
    expect(p0.metadata.labels).toMatchObject({
      app: name,
      'statefulset.kubernetes.io/pod-name': `${name}-0`,
      'apps.kubernetes.io/pod-index': '0',
    });
    expect(p0.metadata.labels['controller-revision-hash']).toMatch(new RegExp(`^${name}-[bcdfghjklmnpqrstvwxz2456789]+$`));
    expect(p0.metadata.generateName).toBe(`${name}-`);
    expect(p0.spec.hostname).toBe(`${name}-0`);
    expect(p0.spec.subdomain).toBe(name);
    expect(p0.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name, uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(p0.spec.volumes).toContainEqual({ name: 'www', persistentVolumeClaim: { claimName: `www-${name}-0` } });
    expect(p0.metadata.managedFields[0].manager).toBe('kube-controller-manager');
    const claim = expectCode(await http(k, 'GET', PVCS(NS, `www-${name}-0`)), 200);
    expect(claim.metadata.labels).toEqual({ app: name });
    // Retain/Retain: the claim has no owner.
    expect(claim.metadata.ownerReferences).toBeUndefined();

    // Nothing more while web-0 is not Ready.
    await new Promise((r) => setTimeout(r, 600));
    expect((await podsOf(k, NS, sel)).map((p) => p.metadata.name)).toEqual([`${name}-0`]);
    await setReady(k, NS, `${name}-0`);
    await waitPods(k, NS, sel, [`${name}-0`, `${name}-1`]);
    await setReady(k, NS, `${name}-1`);
    await waitPods(k, NS, sel, [`${name}-0`, `${name}-1`, `${name}-2`]);
    await setReady(k, NS, `${name}-2`);

    const done = await waitFor(k, STS(NS, name), 'all ready', (s) => s.status?.readyReplicas === 3 && s.status?.availableReplicas === 3);
    expect(done.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      currentRevision: p0.metadata.labels['controller-revision-hash'],
      updateRevision: p0.metadata.labels['controller-revision-hash'],
      collisionCount: 0,
    });

    const evs = await eventsAbout(k, NS, name);
    const msgs = evs.map((e) => `${e.type} ${e.reason} ${e.message}`);
    expect(msgs).toContain(`Normal SuccessfulCreate create Pod ${name}-0 in StatefulSet ${name} successful`);
    expect(msgs).toContain(`Normal SuccessfulCreate create Claim www-${name}-2 Pod ${name}-2 in StatefulSet ${name} success`);
    const ev = evs.find((e) => e.message === `create Pod ${name}-1 in StatefulSet ${name} successful`)!;
    expect(ev.source).toEqual({ component: 'statefulset-controller' });
    expect(ev.reportingComponent).toBe('statefulset-controller');
    expect(ev.involvedObject).toMatchObject({ kind: 'StatefulSet', name, apiVersion: 'apps/v1', uid: created.metadata.uid });
    expect(ev.count).toBe(1);
  });

  it('keeps one ControllerRevision per template with the strategic-merge patch kubectl reads', async () => {
    const name = uniq('rev');
    expectCode(await http(k, 'POST', STS(NS), { ...sts(name, { replicas: 1 }) }), 201);
    const set = await waitFor(k, STS(NS, name), 'a revision', (s) => !!s.status?.updateRevision);
    const revs = expectCode(await http(k, 'GET', `${REVS(NS)}?labelSelector=app%3D${name}`), 200).items as Obj[];
    expect(revs).toHaveLength(1);
    const rev = revs[0]!;
    expect(rev.metadata.name).toBe(set.status.updateRevision);
    const hash = rev.metadata.name.slice(name.length + 1);
    expect(rev.metadata.labels).toEqual({ app: name, 'controller.kubernetes.io/hash': hash });
    expect(rev.revision).toBe(1);
    expect(rev.metadata.ownerReferences[0]).toMatchObject({ kind: 'StatefulSet', name, controller: true, blockOwnerDeletion: true });
    // The pod template as kube encodes it (defaults, creationTimestamp: null), told to replace.
    expect(rev.data.spec.template.$patch).toBe('replace');
    expect(rev.data.spec.template.metadata).toEqual({ creationTimestamp: null, labels: { app: name } });
    expect(rev.data.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
    expect(Object.keys(rev.data)).toEqual(['spec']);
    expect(Object.keys(rev.data.spec)).toEqual(['template']);
  });

  it('starts names at ordinals.start and runs Parallel pods without waiting; scaling down removes the highest ordinals', async () => {
    const name = uniq('par');
    const set = sts(name, { replicas: 3 });
    set.spec.podManagementPolicy = 'Parallel';
    set.spec.ordinals = { start: 5 };
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    const sel = { app: name };
    const pods = await waitPods(k, NS, sel, [`${name}-5`, `${name}-6`, `${name}-7`]);
    expect(pods.map((p) => p.metadata.labels['apps.kubernetes.io/pod-index'])).toEqual(['5', '6', '7']);
    const s = await waitFor(k, STS(NS, name), 'replicas 3', (o) => o.status?.replicas === 3);
    expect(s.status.readyReplicas ?? 0).toBe(0);
    expectCode(await http(k, 'PATCH', `${STS(NS, name)}/scale`, { spec: { replicas: 1 } }, MERGE), 200);
    await waitPods(k, NS, sel, [`${name}-5`]);
    const evs = (await eventsAbout(k, NS, name)).map((e) => `${e.reason} ${e.message}`);
    expect(evs).toContain(`SuccessfulDelete delete Pod ${name}-7 in StatefulSet ${name} successful`);
  });

  it('rolls an update from the highest ordinal down, stopping at the partition', async () => {
    const name = uniq('roll');
    const set = sts(name, { replicas: 3 });
    set.spec.podManagementPolicy = 'Parallel';
    set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 2 } };
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    const sel = { app: name };
    const first = await waitPods(k, NS, sel, [`${name}-0`, `${name}-1`, `${name}-2`]);
    for (const p of first) await setReady(k, NS, p.metadata.name);
    const v1 = first[0]!.metadata.labels['controller-revision-hash'];
    await waitFor(k, STS(NS, name), 'ready', (o) => o.status?.readyReplicas === 3);

    expectCode(await http(k, 'PATCH', STS(NS, name), { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:2' }] } } } }, { 'content-type': 'application/strategic-merge-patch+json' }), 200);
    // Only ordinals at or above the partition (2) move.
    const mid = await waitFor(k, PODS(NS, `${name}-2`), 'pod 2 updated', (p) => p.metadata.labels['controller-revision-hash'] !== v1);
    const v2 = mid.metadata.labels['controller-revision-hash'];
    expect(mid.spec.containers[0].image).toBe('nginx:2');
    expect((await http(k, 'GET', PODS(NS, `${name}-1`))).json).toMatchObject({ metadata: { labels: { 'controller-revision-hash': v1 } } });
    await setReady(k, NS, `${name}-2`);
    await waitFor(k, STS(NS, name), 'one updated', (o) => o.status?.updatedReplicas === 1 && o.status?.readyReplicas === 3);
    // The partition keeps ordinals below 2 at the old revision.
    await new Promise((r) => setTimeout(r, 500));
    const pods = await podsOf(k, NS, sel);
    expect(pods.map((p) => p.metadata.labels['controller-revision-hash'])).toEqual([v1, v1, v2]);
    const st = (await http(k, 'GET', STS(NS, name))).json as Obj;
    expect(st.status).toMatchObject({ currentRevision: v1, updateRevision: v2, currentReplicas: 2, updatedReplicas: 1, observedGeneration: 2 });

    // Partition 0 lets the rest go, one at a time from the top.
    expectCode(await http(k, 'PATCH', STS(NS, name), { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, MERGE), 200);
    await waitFor(k, PODS(NS, `${name}-1`), 'pod 1 updated', (p) => p.metadata.labels['controller-revision-hash'] === v2);
    expect((await http(k, 'GET', PODS(NS, `${name}-0`))).json).toMatchObject({ metadata: { labels: { 'controller-revision-hash': v1 } } });
    await setReady(k, NS, `${name}-1`);
    await waitFor(k, PODS(NS, `${name}-0`), 'pod 0 updated', (p) => p.metadata.labels['controller-revision-hash'] === v2);
    await setReady(k, NS, `${name}-0`);
    const end = await waitFor(k, STS(NS, name), 'rolled', (o) => o.status?.currentRevision === v2 && o.status?.readyReplicas === 3);
    expect(end.status).toMatchObject({ currentReplicas: 3, updatedReplicas: 3, updateRevision: v2, observedGeneration: 3 });
  });

  it('OnDelete replaces a pod at the new revision only when it is deleted', async () => {
    const name = uniq('ondel');
    const set = sts(name, { replicas: 2 });
    set.spec.podManagementPolicy = 'Parallel';
    set.spec.updateStrategy = { type: 'OnDelete' };
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    const sel = { app: name };
    const first = await waitPods(k, NS, sel, [`${name}-0`, `${name}-1`]);
    const v1 = first[0]!.metadata.labels['controller-revision-hash'];
    expectCode(await http(k, 'PATCH', STS(NS, name), { spec: { template: { metadata: { labels: { app: name, v: '2' } } } } }, MERGE), 200);
    const s = await waitFor(k, STS(NS, name), 'new revision', (o) => o.status?.updateRevision !== v1 && o.status?.observedGeneration === 2);
    await new Promise((r) => setTimeout(r, 400));
    expect((await podsOf(k, NS, sel)).map((p) => p.metadata.labels['controller-revision-hash'])).toEqual([v1, v1]);
    expectCode(await http(k, 'DELETE', PODS(NS, `${name}-1`)), 200);
    const back = await waitFor(k, PODS(NS, `${name}-1`), 'recreated at the new revision', (p) => p.metadata.labels['controller-revision-hash'] === s.status.updateRevision);
    expect(back.metadata.labels.v).toBe('2');
  });

  it('gives claims the owners the retention policy asks for, and scaling down with whenScaled=Delete removes the claim', async () => {
    const name = uniq('ret');
    const set = withClaims(sts(name, { replicas: 2 }), { whenDeleted: 'Delete', whenScaled: 'Delete' });
    set.spec.podManagementPolicy = 'Parallel';
    const created = expectCode(await http(k, 'POST', STS(NS), set), 201);
    const sel = { app: name };
    const pods = await waitPods(k, NS, sel, [`${name}-0`, `${name}-1`]);
    const c0 = await waitFor(k, PVCS(NS, `www-${name}-0`), 'claim 0 owned by the set', (c) => (c.metadata.ownerReferences ?? []).length > 0);
    expect(c0.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name, uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expectCode(await http(k, 'PATCH', `${STS(NS, name)}/scale`, { spec: { replicas: 1 } }, MERGE), 200);
    await waitPods(k, NS, sel, [`${name}-0`]);
    // The scaled-down claim was owned by its pod, so the garbage collector takes it.
    await waitGone(k, PVCS(NS, `www-${name}-1`));
    expect((await http(k, 'GET', PVCS(NS, `www-${name}-0`))).status).toBe(200);
    expect(pods[1]!.metadata.uid).toBeTruthy();
  });

  it('adopts orphaned pods that match and releases pods whose labels stop matching', async () => {
    const name = uniq('adopt');
    const set = sts(name, { replicas: 1 });
    const created = expectCode(await http(k, 'POST', STS(NS), set), 201);
    const [pod] = await waitPods(k, NS, { app: name }, [`${name}-0`]);
    // Relabel: the set lets go of it and makes a new one.
    expectCode(await http(k, 'PATCH', PODS(NS, pod!.metadata.name), { metadata: { labels: { app: 'elsewhere-' + name } } }, MERGE), 200);
    const released = await waitFor(k, PODS(NS, `${name}-0`), 'released', (p) => p.metadata.labels.app !== name && !p.metadata.ownerReferences);
    expect(released.metadata.uid).toBe(pod!.metadata.uid);
    expect(created.metadata.uid).toBeTruthy();
  });

  it('records FailedCreate with kube\'s message, folding repeats into one Event whose count grows, and goes on once the pod can be made', async () => {
    const name = uniq('fail');
    const cls = uniq('prio');
    const set = sts(name, { replicas: 1 });
    set.spec.template.spec.priorityClassName = cls;
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    const message = `create Pod ${name}-0 in StatefulSet ${name} failed error: pods "${name}-0" is forbidden: no PriorityClass with name ${cls} was found`;
    let ev: Obj | undefined;
    await eventually(
      'a repeated FailedCreate',
      async () => {
        ev = (await eventsAbout(k, NS, name)).find((e) => e.reason === 'FailedCreate');
        return (ev?.count ?? 0) >= 2;
      },
      20_000,
    );
    expect(ev).toMatchObject({ type: 'Warning', message, source: { component: 'statefulset-controller' } });
    expect(Date.parse(ev!.lastTimestamp)).toBeGreaterThanOrEqual(Date.parse(ev!.firstTimestamp));
    expect((await eventsAbout(k, NS, name)).filter((e) => e.reason === 'FailedCreate')).toHaveLength(1);
    expectCode(await http(k, 'POST', PC(), pc(cls, 4242)), 201);
    const [pod] = await waitPods(k, NS, { app: name }, [`${name}-0`], 30_000);
    expect(pod!.spec.priority).toBe(4242);
  });

  it('counts a Ready pod as available only after minReadySeconds', async () => {
    const name = uniq('minready');
    const set = sts(name, { replicas: 1 });
    set.spec.minReadySeconds = 2;
    expectCode(await http(k, 'POST', STS(NS), set), 201);
    await waitPods(k, NS, { app: name }, [`${name}-0`]);
    await setReady(k, NS, `${name}-0`);
    const ready = await waitFor(k, STS(NS, name), 'ready', (s) => s.status?.readyReplicas === 1);
    expect(ready.status.availableReplicas).toBe(0);
    const t0 = Date.now();
    await waitFor(k, STS(NS, name), 'available', (s) => s.status?.availableReplicas === 1, 20_000);
    expect(Date.now() - t0).toBeGreaterThan(800);
  });
});
