// The garbage collector on a real server, over HTTP, with owners and dependents of any served
// kind: Background deletes dependents after their owner is gone, Foreground keeps the owner
// (foregroundDeletion finalizer) until the dependents that block it are gone, Orphan strips the
// references (orphan finalizer) and leaves the dependents; a dependent whose every owner is
// missing (or has another uid) is deleted, one with a live owner left only loses the dangling
// reference.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { PDB, eventually, expectCode, http, pdb, uniq, MERGE, type KapiProcess, type Obj } from '../http/helpers.js';
import { KUBELET_PLAYED, PODS, waitFor, waitGone } from './helpers.js';

let k: KapiProcess;
const NS = 'default';

beforeAll(async () => {
  k = await startKapi({ args: [...KUBELET_PLAYED] });
});

afterAll(() => stopKapi(k));

async function owner(): Promise<Obj> {
  const name = uniq('owner');
  return expectCode(await http(k, 'POST', PDB(NS), pdb(name, { minAvailable: 1, selector: { matchLabels: { none: name } } })), 201);
}

const refTo = (o: Obj, extra: Obj = {}): Obj => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: o.metadata.name, uid: o.metadata.uid, ...extra });

async function dependent(refs: Obj[], finalizers?: string[]): Promise<Obj> {
  const name = uniq('dep');
  const metadata: Obj = { name, ownerReferences: refs };
  if (finalizers) metadata.finalizers = finalizers;
  return expectCode(await http(k, 'POST', PODS(NS), { apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'busybox' }] } }), 201);
}

const del = (path: string, propagationPolicy?: string): Promise<unknown> =>
  http(k, 'DELETE', path, propagationPolicy ? { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy } : undefined);

describe('garbage collector', () => {
  it('Background: the dependents go after their owner', async () => {
    const o = await owner();
    const d1 = await dependent([refTo(o)]);
    const d2 = await dependent([refTo(o, { controller: true, blockOwnerDeletion: true })]);
    await del(PDB(NS, o.metadata.name), 'Background');
    await waitGone(k, PDB(NS, o.metadata.name));
    await waitGone(k, PODS(NS, d1.metadata.name));
    await waitGone(k, PODS(NS, d2.metadata.name));
  });

  it('Foreground: the owner waits with foregroundDeletion until the blocking dependents are gone', async () => {
    const o = await owner();
    const held = await dependent([refTo(o, { blockOwnerDeletion: true })], ['example.com/hold']);
    const free = await dependent([refTo(o)]);
    await del(PDB(NS, o.metadata.name), 'Foreground');
    const marked = await waitFor(k, PDB(NS, o.metadata.name), 'marked', (x) => !!x.metadata.deletionTimestamp);
    expect(marked.metadata.finalizers).toEqual(['foregroundDeletion']);
    await waitGone(k, PODS(NS, free.metadata.name));
    // The held dependent is being deleted but its own finalizer keeps it, and so the owner.
    await waitFor(k, PODS(NS, held.metadata.name), 'dependent marked', (x) => !!x.metadata.deletionTimestamp);
    await new Promise((r) => setTimeout(r, 500));
    expect((await http(k, 'GET', PDB(NS, o.metadata.name))).status).toBe(200);
    expectCode(await http(k, 'PATCH', PODS(NS, held.metadata.name), { metadata: { finalizers: null } }, MERGE), 200);
    await waitGone(k, PODS(NS, held.metadata.name));
    await waitGone(k, PDB(NS, o.metadata.name));
  });

  it('Orphan: the references go, the dependents stay', async () => {
    const o = await owner();
    const other = await owner();
    const d1 = await dependent([refTo(o, { controller: true, blockOwnerDeletion: true })]);
    const d2 = await dependent([refTo(o), refTo(other)]);
    await del(PDB(NS, o.metadata.name), 'Orphan');
    await waitGone(k, PDB(NS, o.metadata.name));
    const p1 = await waitFor(k, PODS(NS, d1.metadata.name), 'orphaned', (x) => !x.metadata.ownerReferences);
    expect(p1.metadata.deletionTimestamp).toBeUndefined();
    const p2 = await waitFor(k, PODS(NS, d2.metadata.name), 'one ref left', (x) => x.metadata.ownerReferences?.length === 1);
    expect(p2.metadata.ownerReferences).toEqual([refTo(other)]);
  });

  it('deletes a dependent whose owners are all missing, and only drops the dangling reference when a live owner remains', async () => {
    const o = await owner();
    const ghost = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', name: 'never-was', uid: '0a0a0a0a-0000-4000-8000-000000000000' };
    const wrongUid = { ...refTo(o), uid: '0b0b0b0b-0000-4000-8000-000000000000' };
    const lost = await dependent([ghost]);
    const stale = await dependent([wrongUid]);
    const mixed = await dependent([ghost, refTo(o)]);
    await waitGone(k, PODS(NS, lost.metadata.name));
    await waitGone(k, PODS(NS, stale.metadata.name));
    const kept = await waitFor(k, PODS(NS, mixed.metadata.name), 'dangling dropped', (x) => x.metadata.ownerReferences?.length === 1);
    expect(kept.metadata.ownerReferences).toEqual([refTo(o)]);
    await eventually('owner still there', async () => (await http(k, 'GET', PDB(NS, o.metadata.name))).status === 200);
  });
});
