// The pvc-protection controller (persistentvolumeclaim-protection-controller) on a real
// server: admission gives every claim the kubernetes.io/pvc-protection finalizer, so a
// deleted claim stays (Terminating) while an unfinished pod uses it and goes once none does.
// And the pv-protection controller (persistentvolume-protection-controller): every volume gets
// kubernetes.io/pv-protection, so a deleted volume stays while it is Bound.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { expectCode, http, sleep, uniq, type KapiProcess, type Obj } from '../http/helpers.js';
import { PODS, PVCS, waitGone } from './helpers.js';

let k: KapiProcess;
const NS = 'default';
const FINALIZER = 'kubernetes.io/pvc-protection';

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

const claim = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});

const podUsing = (name: string, claimName: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

describe('pvc-protection controller', () => {
  it('deletes a claim no pod uses', async () => {
    const name = uniq('free');
    const created = expectCode(await http(k, 'POST', PVCS(NS), claim(name)), 201);
    expect(created.metadata.finalizers).toEqual([FINALIZER]);
    expectCode(await http(k, 'DELETE', PVCS(NS, name)), 200);
    await waitGone(k, PVCS(NS, name), 10_000);
  });

  it('keeps a deleted claim while a pod uses it, and lets it go with the pod', async () => {
    const name = uniq('held');
    const pod = uniq('user');
    expectCode(await http(k, 'POST', PVCS(NS), claim(name)), 201);
    expectCode(await http(k, 'POST', PODS(NS), podUsing(pod, name)), 201);
    const marked = expectCode(await http(k, 'DELETE', PVCS(NS, name)), 200);
    expect(marked.metadata.deletionTimestamp).toBeTruthy();
    expect(marked.metadata.finalizers).toEqual([FINALIZER]);
    await sleep(1000);
    const still = expectCode(await http(k, 'GET', PVCS(NS, name)), 200);
    expect(still.metadata.finalizers).toEqual([FINALIZER]);
    // The pod was never scheduled: its delete is immediate.
    expectCode(await http(k, 'DELETE', `${PODS(NS, pod)}?gracePeriodSeconds=0`), 200);
    await waitGone(k, PODS(NS, pod), 10_000);
    await waitGone(k, PVCS(NS, name), 10_000);
  });
});

const PVS = (name?: string): string => `/api/v1/persistentvolumes${name ? `/${name}` : ''}`;

const volume = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/tmp/${name}` } },
});

describe('pv-protection controller', () => {
  it('deletes a volume that is not bound', async () => {
    const name = uniq('pv-free');
    const created = expectCode(await http(k, 'POST', PVS(), volume(name)), 201);
    expect(created.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expectCode(await http(k, 'DELETE', PVS(name)), 200);
    await waitGone(k, PVS(name), 10_000);
  });

  it('keeps a deleted volume while it is Bound, and lets it go once it is not', async () => {
    const name = uniq('pv-bound');
    expectCode(await http(k, 'POST', PVS(), volume(name)), 201);
    expectCode(await http(k, 'PATCH', `${PVS(name)}/status`, { status: { phase: 'Bound' } }, { 'content-type': 'application/merge-patch+json' }), 200);
    const marked = expectCode(await http(k, 'DELETE', PVS(name)), 200);
    expect(marked.metadata.deletionTimestamp).toBeTruthy();
    await sleep(1000);
    expect(expectCode(await http(k, 'GET', PVS(name)), 200).metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    expectCode(await http(k, 'PATCH', `${PVS(name)}/status`, { status: { phase: 'Released' } }, { 'content-type': 'application/merge-patch+json' }), 200);
    await waitGone(k, PVS(name), 10_000);
  });
});
