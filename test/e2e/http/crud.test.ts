// CRUD over HTTP for the four served types, answered as kube-apiserver 1.33 answers:
// create/get/list/update/delete/deletecollection, optimistic concurrency, no-op updates,
// generation, and the Status bodies of the failures.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  PDB,
  RFC3339,
  STS,
  UUID,
  eventually,
  expectCode,
  expectFailure,
  http,
  ns,
  pc,
  pdb,
  sts,
  uniq,
  type KapiProcess,
  type Obj,
} from './helpers.js';

let k: KapiProcess;
let NSA: string;
let NSB: string;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('crud-a');
  NSB = uniq('crud-b');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
  expectCode(await http(k, 'POST', NS(), ns(NSB)), 201);
});

afterAll(() => stopKapi(k));

const create = async (path: string, body: Obj): Promise<Obj> => expectCode(await http(k, 'POST', path, body), 201);
const get = async (path: string): Promise<Obj> => expectCode(await http(k, 'GET', path), 200);

describe('StatefulSet', () => {
  it('POST answers 201 with the stored object: server metadata, generation 1 and every default', async () => {
    const name = uniq('web');
    const r = await http(k, 'POST', STS(NSA), sts(name, { replicas: 3, labels: { app: name } }));
    const o = expectCode(r, 201);
    expect(o.kind).toBe('StatefulSet');
    expect(o.apiVersion).toBe('apps/v1');
    expect(o.metadata.name).toBe(name);
    expect(o.metadata.namespace).toBe(NSA);
    expect(o.metadata.uid).toMatch(UUID);
    expect(o.metadata.creationTimestamp).toMatch(RFC3339);
    expect(o.metadata.resourceVersion).toMatch(/^[0-9]+$/);
    expect(o.metadata.generation).toBe(1);
    expect(o.metadata.labels).toStrictEqual({ app: name });
    expect(o.spec).toStrictEqual({
      serviceName: name,
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, creationTimestamp: null },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.27',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(o.status).toStrictEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('object responses are Content-Type application/json exactly (no charset parameter)', async () => {
    const name = uniq('ct');
    const r = await http(k, 'POST', STS(NSA), sts(name));
    expectCode(r, 201);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect((await http(k, 'GET', STS(NSA, name))).headers.get('content-type')).toBe('application/json');
    expect((await http(k, 'GET', STS(NSA))).headers.get('content-type')).toBe('application/json');
    expect((await http(k, 'GET', STS(NSA, 'nope'))).headers.get('content-type')).toBe('application/json');
  });

  it('defaults replicas to 1 and GET answers the stored object byte for byte', async () => {
    const name = uniq('one');
    const created = await create(STS(NSA), sts(name));
    expect(created.spec.replicas).toBe(1);
    const r = await http(k, 'GET', STS(NSA, name));
    expect(expectCode(r, 200)).toStrictEqual(created);
  });

  it('GET of a missing object is 404 with the NotFound Status', async () => {
    expectFailure(await http(k, 'GET', STS(NSA, 'nope')), {
      code: 404,
      reason: 'NotFound',
      message: 'statefulsets.apps "nope" not found',
      details: { name: 'nope', group: 'apps', kind: 'statefulsets' },
    });
  });

  it('lists a namespace as StatefulSetList with a resourceVersion, items sorted by name', async () => {
    const nsName = uniq('list');
    expectCode(await http(k, 'POST', NS(), ns(nsName)), 201);
    for (const n of ['charlie', 'alpha', 'bravo']) await create(STS(nsName), sts(n));
    const list = await get(STS(nsName));
    expect(list.kind).toBe('StatefulSetList');
    expect(list.apiVersion).toBe('apps/v1');
    expect(list.metadata.resourceVersion).toMatch(/^[0-9]+$/);
    expect(list.metadata.continue).toBeUndefined();
    expect(list.items.map((i: Obj) => i.metadata.name)).toStrictEqual(['alpha', 'bravo', 'charlie']);
    // The list's revision is at least as new as every item in it.
    for (const i of list.items) expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(i.metadata.resourceVersion));
  });

  it('list items carry no kind/apiVersion of their own, as in kube typed lists', async () => {
    const nsName = uniq('tm');
    expectCode(await http(k, 'POST', NS(), ns(nsName)), 201);
    await create(STS(nsName), sts('only'));
    const list = await get(STS(nsName));
    expect(list.items).toHaveLength(1);
    expect(list.items[0].kind).toBeUndefined();
    expect(list.items[0].apiVersion).toBeUndefined();
  });

  it('lists across namespaces at /apis/apps/v1/statefulsets sorted by namespace then name', async () => {
    const n1 = uniq('x-all');
    const n2 = uniq('y-all');
    for (const n of [n2, n1]) expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    await create(STS(n2), sts('b'));
    await create(STS(n1), sts('z'));
    await create(STS(n2), sts('a'));
    const list = await get('/apis/apps/v1/statefulsets');
    expect(list.kind).toBe('StatefulSetList');
    const keys = list.items.map((i: Obj) => `${i.metadata.namespace}/${i.metadata.name}`);
    const mine = keys.filter((s: string) => s.startsWith(n1 + '/') || s.startsWith(n2 + '/'));
    expect(mine).toStrictEqual([`${n1}/z`, `${n2}/a`, `${n2}/b`]);
    expect([...keys].sort()).toStrictEqual(keys);
  });

  it('PUT answers 200; a spec change bumps generation and resourceVersion; GET reads it back', async () => {
    const name = uniq('put');
    const created = await create(STS(NSA), sts(name, { replicas: 1 }));
    const next = structuredClone(created);
    next.spec.replicas = 4;
    const updated = expectCode(await http(k, 'PUT', STS(NSA, name), next), 200);
    expect(updated.spec.replicas).toBe(4);
    expect(updated.metadata.generation).toBe(2);
    expect(updated.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    expect(updated.metadata.uid).toBe(created.metadata.uid);
    expect(updated.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(await get(STS(NSA, name))).toStrictEqual(updated);
  });

  it('PUT that changes only labels keeps generation but changes resourceVersion', async () => {
    const name = uniq('lbl');
    const created = await create(STS(NSA), sts(name));
    const next = structuredClone(created);
    next.metadata.labels = { tier: 'db' };
    const updated = expectCode(await http(k, 'PUT', STS(NSA, name), next), 200);
    expect(updated.metadata.labels).toStrictEqual({ tier: 'db' });
    expect(updated.metadata.generation).toBe(1);
    expect(updated.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
  });

  it('PUT with a stale resourceVersion is 409 Conflict and changes nothing', async () => {
    const name = uniq('web');
    const created = await create(STS(NSA), sts(name));
    const first = structuredClone(created);
    first.spec.replicas = 2;
    expectCode(await http(k, 'PUT', STS(NSA, name), first), 200);
    const stale = structuredClone(created);
    stale.spec.replicas = 7;
    expectFailure(await http(k, 'PUT', STS(NSA, name), stale), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on statefulsets.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name, group: 'apps', kind: 'statefulsets' },
    });
    expect((await get(STS(NSA, name))).spec.replicas).toBe(2);
  });

  it('PUT without a resourceVersion is an unconditional update', async () => {
    const name = uniq('uncond');
    const created = await create(STS(NSA), sts(name));
    const next = structuredClone(created);
    delete next.metadata.resourceVersion;
    next.spec.replicas = 5;
    const updated = expectCode(await http(k, 'PUT', STS(NSA, name), next), 200);
    expect(updated.spec.replicas).toBe(5);
    expect(updated.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    expect((await get(STS(NSA, name))).spec.replicas).toBe(5);
  });

  it('PUT of a missing object is 404 (no create on update), with or without a resourceVersion', async () => {
    const name = uniq('ghost');
    for (const rv of [undefined, '12345']) {
      const body = sts(name);
      if (rv) body.metadata.resourceVersion = rv;
      expectFailure(await http(k, 'PUT', STS(NSA, name), body), {
        code: 404,
        reason: 'NotFound',
        message: `statefulsets.apps "${name}" not found`,
        details: { name, group: 'apps', kind: 'statefulsets' },
      });
    }
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('PUT of the identical object answers 200 and keeps the resourceVersion', async () => {
    const name = uniq('same');
    const created = await create(STS(NSA), sts(name));
    const r = expectCode(await http(k, 'PUT', STS(NSA, name), created), 200);
    expect(r.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(r).toStrictEqual(created);
    // Without the defaults filled in, it is still the same object after defaulting.
    const sparse = sts(name);
    sparse.metadata.resourceVersion = created.metadata.resourceVersion;
    const r2 = expectCode(await http(k, 'PUT', STS(NSA, name), sparse), 200);
    expect(r2.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('DELETE answers 200 with a Success Status naming the plural resource and uid; the object is gone', async () => {
    const name = uniq('del');
    const created = await create(STS(NSA), sts(name));
    const r = await http(k, 'DELETE', STS(NSA, name));
    expect(expectCode(r, 200)).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: 'apps', kind: 'statefulsets', uid: created.metadata.uid },
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
    expectFailure(await http(k, 'DELETE', STS(NSA, name)), {
      code: 404,
      reason: 'NotFound',
      message: `statefulsets.apps "${name}" not found`,
      details: { name, group: 'apps', kind: 'statefulsets' },
    });
    // The name is free again.
    await create(STS(NSA), sts(name));
  });

  it('DELETE on the collection deletes exactly what the labelSelector matches', async () => {
    const nsName = uniq('dc');
    expectCode(await http(k, 'POST', NS(), ns(nsName)), 201);
    await create(STS(nsName), sts('keep', { labels: { tier: 'web' } }));
    await create(STS(nsName), sts('drop1', { labels: { tier: 'cache' } }));
    await create(STS(nsName), sts('drop2', { labels: { tier: 'cache' } }));
    await create(STS(NSA), sts(uniq('other'), { labels: { tier: 'cache' } }));
    expectCode(await http(k, 'DELETE', `${STS(nsName)}?labelSelector=tier%3Dcache`), 200);
    const left = await get(STS(nsName));
    expect(left.items.map((i: Obj) => i.metadata.name)).toStrictEqual(['keep']);
    // Other namespaces are untouched.
    const elsewhere = await get(`${STS(NSA)}?labelSelector=tier%3Dcache`);
    expect(elsewhere.items).toHaveLength(1);
  });
});

describe('PodDisruptionBudget', () => {
  it('POST 201 with generation 1 and a zeroed status; GET and list read it back', async () => {
    const name = uniq('pdb');
    const o = await create(PDB(NSA), pdb(name));
    expect(o.kind).toBe('PodDisruptionBudget');
    expect(o.apiVersion).toBe('policy/v1');
    expect(o.metadata.uid).toMatch(UUID);
    expect(o.metadata.creationTimestamp).toMatch(RFC3339);
    expect(o.metadata.generation).toBe(1);
    expect(o.spec).toStrictEqual({ minAvailable: 1, selector: { matchLabels: { app: name } } });
    expect(o.status).toStrictEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    expect(await get(PDB(NSA, name))).toStrictEqual(o);
    const list = await get(PDB(NSA));
    expect(list.kind).toBe('PodDisruptionBudgetList');
    expect(list.apiVersion).toBe('policy/v1');
    expect(list.items.map((i: Obj) => i.metadata.name)).toContain(name);
    const all = await get('/apis/policy/v1/poddisruptionbudgets');
    expect(all.kind).toBe('PodDisruptionBudgetList');
    expect(all.items.some((i: Obj) => i.metadata.name === name && i.metadata.namespace === NSA)).toBe(true);
  });

  it('PUT of a spec change bumps generation; stale resourceVersion is 409', async () => {
    const name = uniq('pdb');
    const o = await create(PDB(NSA), pdb(name));
    const next = structuredClone(o);
    next.spec.minAvailable = '50%';
    const u = expectCode(await http(k, 'PUT', PDB(NSA, name), next), 200);
    expect(u.spec.minAvailable).toBe('50%');
    expect(u.metadata.generation).toBe(2);
    expectFailure(await http(k, 'PUT', PDB(NSA, name), o), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on poddisruptionbudgets.policy "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name, group: 'policy', kind: 'poddisruptionbudgets' },
    });
  });

  it('PUT of a missing PDB is 404; DELETE answers a Success Status', async () => {
    const name = uniq('pdb');
    expectFailure(await http(k, 'PUT', PDB(NSA, name), pdb(name)), {
      code: 404,
      reason: 'NotFound',
      message: `poddisruptionbudgets.policy "${name}" not found`,
      details: { name, group: 'policy', kind: 'poddisruptionbudgets' },
    });
    const o = await create(PDB(NSA), pdb(name));
    expect(expectCode(await http(k, 'DELETE', PDB(NSA, name)), 200)).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: 'policy', kind: 'poddisruptionbudgets', uid: o.metadata.uid },
    });
    expectCode(await http(k, 'GET', PDB(NSA, name)), 404);
  });
});

describe('PriorityClass', () => {
  it('the two system classes exist at start with kube values', async () => {
    const cc = await get(PC('system-cluster-critical'));
    expect(cc.value).toBe(2000000000);
    expect(cc.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(cc.description).toBe('Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.');
    expect(cc.globalDefault).toBeUndefined();
    expect(cc.metadata.generation).toBe(1);
    const nc = await get(PC('system-node-critical'));
    expect(nc.value).toBe(2000001000);
    expect(nc.description).toBe('Used for system critical pods that must not be moved from their current node.');
  });

  it('POST 201 defaults preemptionPolicy and sets generation 1; list is sorted', async () => {
    const name = uniq('pc');
    const o = await create(PC(), pc(name, 100));
    expect(o).toMatchObject({ kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', value: 100, preemptionPolicy: 'PreemptLowerPriority' });
    expect(o.metadata.uid).toMatch(UUID);
    expect(o.metadata.namespace).toBeUndefined();
    expect(o.metadata.generation).toBe(1);
    expect(o.globalDefault).toBeUndefined();
    expect(await get(PC(name))).toStrictEqual(o);
    const list = await get(PC());
    expect(list.kind).toBe('PriorityClassList');
    const names = list.items.map((i: Obj) => i.metadata.name);
    expect(names).toContain(name);
    expect(names).toContain('system-cluster-critical');
    expect([...names].sort()).toStrictEqual(names);
  });

  it('PUT updates the description; stale resourceVersion is 409; DELETE answers a Success Status', async () => {
    const name = uniq('pc');
    const o = await create(PC(), pc(name, 7));
    const next = structuredClone(o);
    next.description = 'batch jobs';
    const u = expectCode(await http(k, 'PUT', PC(name), next), 200);
    expect(u.description).toBe('batch jobs');
    expect(u.metadata.resourceVersion).not.toBe(o.metadata.resourceVersion);
    expect(u.metadata.generation).toBe(1);
    expectFailure(await http(k, 'PUT', PC(name), o), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on priorityclasses.scheduling.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
    expect(expectCode(await http(k, 'DELETE', PC(name)), 200)).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: 'scheduling.k8s.io', kind: 'priorityclasses', uid: o.metadata.uid },
    });
    expectFailure(await http(k, 'GET', PC(name)), {
      code: 404,
      reason: 'NotFound',
      message: `priorityclasses.scheduling.k8s.io "${name}" not found`,
      details: { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
  });

  it('DELETE on the collection with a labelSelector deletes only the matching classes', async () => {
    const tag = uniq('batch');
    const a = pc(uniq('dca'), 1);
    a.metadata.labels = { tag };
    const b = pc(uniq('dcb'), 2);
    b.metadata.labels = { tag };
    const c = pc(uniq('dcc'), 3);
    for (const body of [a, b, c]) await create(PC(), body);
    expectCode(await http(k, 'DELETE', `${PC()}?labelSelector=tag%3D${tag}`), 200);
    expectCode(await http(k, 'GET', PC(a.metadata.name)), 404);
    expectCode(await http(k, 'GET', PC(b.metadata.name)), 404);
    expectCode(await http(k, 'GET', PC(c.metadata.name)), 200);
    expectCode(await http(k, 'GET', PC('system-node-critical')), 200);
  });

  it('PUT of a missing PriorityClass is 404', async () => {
    const name = uniq('pc');
    expectFailure(await http(k, 'PUT', PC(name), pc(name, 1)), {
      code: 404,
      reason: 'NotFound',
      message: `priorityclasses.scheduling.k8s.io "${name}" not found`,
      details: { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
  });
});

describe('Namespace', () => {
  it('the four namespaces exist at start', async () => {
    const list = await get(NS());
    expect(list.kind).toBe('NamespaceList');
    expect(list.apiVersion).toBe('v1');
    const names = list.items.map((i: Obj) => i.metadata.name);
    for (const n of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) expect(names).toContain(n);
    expect([...names].sort()).toStrictEqual(names);
  });

  it('POST 201: phase Active, spec.finalizers [kubernetes], the metadata.name label, no generation', async () => {
    const name = uniq('ns');
    const o = await create(NS(), ns(name, { team: 'a' }));
    expect(o.kind).toBe('Namespace');
    expect(o.apiVersion).toBe('v1');
    expect(o.metadata.labels).toStrictEqual({ team: 'a', 'kubernetes.io/metadata.name': name });
    expect(o.metadata.uid).toMatch(UUID);
    expect(o.metadata.generation).toBeUndefined();
    expect(o.spec).toStrictEqual({ finalizers: ['kubernetes'] });
    expect(o.status).toStrictEqual({ phase: 'Active' });
    expect(await get(NS(name))).toStrictEqual(o);
  });

  it('GET of a missing namespace is 404 with no group in details', async () => {
    expectFailure(await http(k, 'GET', NS('no-such-ns')), {
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "no-such-ns" not found',
      details: { name: 'no-such-ns', kind: 'namespaces' },
    });
  });

  it('DELETE answers 200 with the Terminating namespace; its content goes, then the namespace', async () => {
    const name = uniq('gone');
    await create(NS(), ns(name));
    await create(STS(name), sts('inside'));
    await create(PDB(name), pdb('inside'));
    const r = expectCode(await http(k, 'DELETE', NS(name)), 200);
    expect(r.kind).toBe('Namespace');
    expect(r.metadata.name).toBe(name);
    expect(r.metadata.deletionTimestamp).toMatch(RFC3339);
    expect(r.status.phase).toBe('Terminating');
    expect(r.spec.finalizers).toStrictEqual(['kubernetes']);
    await eventually('namespace to disappear', async () => (await http(k, 'GET', NS(name))).status === 404);
    expect((await get(STS(name))).items).toStrictEqual([]);
    expect((await get(PDB(name))).items).toStrictEqual([]);
    // The name is reusable.
    const again = await create(NS(), ns(name));
    expect(again.status.phase).toBe('Active');
  });

  it('namespace DELETE sets no deletionGracePeriodSeconds (the namespace registry marks it itself)', async () => {
    const name = uniq('grace');
    await create(NS(), ns(name));
    const r = expectCode(await http(k, 'DELETE', NS(name)), 200);
    expect(r.metadata.deletionTimestamp).toMatch(RFC3339);
    expect(r.metadata.deletionGracePeriodSeconds).toBeUndefined();
  });

  describe('a namespace held in Terminating by an object with a finalizer', () => {
    let held: string;
    beforeAll(async () => {
      held = uniq('term');
      await create(NS(), ns(held));
      const o = sts('held');
      o.metadata.finalizers = ['example.com/hold'];
      await create(STS(held), o);
      expectCode(await http(k, 'DELETE', NS(held)), 200);
      await eventually('held object to be marked', async () => Boolean((await get(STS(held, 'held'))).metadata.deletionTimestamp));
    });

    afterAll(async () => {
      // Release the finalizer: the object, then the namespace, go away.
      const cur = await get(STS(held, 'held'));
      cur.metadata.finalizers = [];
      expectCode(await http(k, 'PUT', STS(held, 'held'), cur), 200);
      await eventually('namespace to disappear', async () => (await http(k, 'GET', NS(held))).status === 404);
    });

    it('stays Terminating while the object is there', async () => {
      const n = await get(NS(held));
      expect(n.status.phase).toBe('Terminating');
      expect(n.metadata.deletionTimestamp).toMatch(RFC3339);
    });

    it('creating in it is 403 Forbidden naming the object, with the NamespaceTerminating cause', async () => {
      expectFailure(await http(k, 'POST', STS(held), sts('late')), {
        code: 403,
        reason: 'Forbidden',
        message: `statefulsets.apps "late" is forbidden: unable to create new content in namespace ${held} because it is being terminated`,
        details: {
          name: 'late',
          group: 'apps',
          kind: 'statefulsets',
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${held} is being terminated`, field: 'metadata.namespace' }],
        },
      });
      expectCode(await http(k, 'GET', STS(held, 'late')), 404);
    });

    it('a second DELETE of the namespace is 409 Conflict while its finalizer remains', async () => {
      expectFailure(await http(k, 'DELETE', NS(held)), {
        code: 409,
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on namespaces "${held}": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`,
        details: { name: held, kind: 'namespaces' },
      });
    });
  });
});
