// The status subresource of StatefulSet and PodDisruptionBudget over HTTP: /status
// reads the whole object, PUT /status changes only status (spec is reset from the
// stored object), PUT on the main resource ignores status, and status is validated.
// PriorityClass has no subresources at all.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  PDB,
  STS,
  expectCode,
  expectFailure,
  expectInvalid,
  http,
  ns,
  pdb,
  sts,
  uniq,
  type KapiProcess,
  type Obj,
} from './helpers.js';

let k: KapiProcess;
let NSA: string;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('sub');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

const newSts = async (replicas = 3): Promise<Obj> => {
  const name = uniq('web');
  return expectCode(await http(k, 'POST', STS(NSA), sts(name, { replicas })), 201);
};

describe('StatefulSet /status', () => {
  it('GET /status answers 200 with the whole object', async () => {
    const o = await newSts();
    const s = expectCode(await http(k, 'GET', `${STS(NSA, o.metadata.name)}/status`), 200);
    expect(s).toStrictEqual(o);
  });

  it('GET /status of a missing object is 404 naming the object', async () => {
    expectFailure(await http(k, 'GET', `${STS(NSA, 'nope')}/status`), {
      code: 404,
      reason: 'NotFound',
      message: 'statefulsets.apps "nope" not found',
      details: { name: 'nope', group: 'apps', kind: 'statefulsets' },
    });
  });

  it('PUT /status changes status only: a spec change in the same body is ignored', async () => {
    const o = await newSts(3);
    const name = o.metadata.name;
    const body = structuredClone(o);
    body.status = { replicas: 3, readyReplicas: 2, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 2, observedGeneration: 1 };
    body.spec.replicas = 10;
    body.spec.template.spec.containers[0].image = 'nginx:2';
    const u = expectCode(await http(k, 'PUT', `${STS(NSA, name)}/status`, body), 200);
    expect(u.status).toStrictEqual(body.status);
    expect(u.spec).toStrictEqual(o.spec);
    expect(u.metadata.generation).toBe(1);
    expect(u.metadata.resourceVersion).not.toBe(o.metadata.resourceVersion);
    const got = expectCode(await http(k, 'GET', STS(NSA, name)), 200);
    expect(got).toStrictEqual(u);
  });

  it('PUT /status keeps label changes, as the StatefulSet status strategy only resets spec', async () => {
    const o = await newSts(1);
    const body = structuredClone(o);
    body.metadata.labels = { via: 'status' };
    body.status = { replicas: 1, availableReplicas: 0 };
    const u = expectCode(await http(k, 'PUT', `${STS(NSA, o.metadata.name)}/status`, body), 200);
    expect(u.metadata.labels).toStrictEqual({ via: 'status' });
  });

  it('PUT on the main resource ignores status', async () => {
    const o = await newSts(2);
    const body = structuredClone(o);
    body.status = { replicas: 2, readyReplicas: 2, availableReplicas: 2 };
    body.spec.replicas = 4;
    const u = expectCode(await http(k, 'PUT', STS(NSA, o.metadata.name), body), 200);
    expect(u.spec.replicas).toBe(4);
    expect(u.status).toStrictEqual({ replicas: 0, availableReplicas: 0 });
    expect(expectCode(await http(k, 'GET', STS(NSA, o.metadata.name)), 200).status).toStrictEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('PUT /status with a stale resourceVersion is 409', async () => {
    const o = await newSts(1);
    const first = structuredClone(o);
    first.status = { replicas: 1, availableReplicas: 0 };
    expectCode(await http(k, 'PUT', `${STS(NSA, o.metadata.name)}/status`, first), 200);
    const stale = structuredClone(o);
    stale.status = { replicas: 0, availableReplicas: 0, readyReplicas: 0 };
    expectFailure(await http(k, 'PUT', `${STS(NSA, o.metadata.name)}/status`, stale), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on statefulsets.apps "${o.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name: o.metadata.name, group: 'apps', kind: 'statefulsets' },
    });
  });

  it('PUT /status of a missing object is 404', async () => {
    const body = sts('ghost');
    body.metadata.resourceVersion = '1';
    expectFailure(await http(k, 'PUT', `${STS(NSA, 'ghost')}/status`, body), {
      code: 404,
      reason: 'NotFound',
      message: 'statefulsets.apps "ghost" not found',
      details: { name: 'ghost', group: 'apps', kind: 'statefulsets' },
    });
  });

  it('a negative status.replicas is 422 with every status rule it breaks', async () => {
    const o = await newSts(1);
    const name = o.metadata.name;
    const body = structuredClone(o);
    body.status = { replicas: -1 };
    const msg = (_field: string) => 'Invalid value: 0: cannot be greater than status.replicas';
    expectInvalid(await http(k, 'PUT', `${STS(NSA, name)}/status`, body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message:
        `StatefulSet.apps "${name}" is invalid: [status.replicas: Invalid value: -1: must be greater than or equal to 0, ` +
        'status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas, ' +
        'status.currentReplicas: Invalid value: 0: cannot be greater than status.replicas, ' +
        'status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas, ' +
        'status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas]',
      causes: [
        { reason: 'FieldValueInvalid', field: 'status.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
        { reason: 'FieldValueInvalid', field: 'status.readyReplicas', message: msg('readyReplicas') },
        { reason: 'FieldValueInvalid', field: 'status.currentReplicas', message: msg('currentReplicas') },
        { reason: 'FieldValueInvalid', field: 'status.updatedReplicas', message: msg('updatedReplicas') },
        { reason: 'FieldValueInvalid', field: 'status.availableReplicas', message: msg('availableReplicas') },
      ],
    });
    expect(expectCode(await http(k, 'GET', STS(NSA, name)), 200).status).toStrictEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('readyReplicas above replicas is 422 on status.readyReplicas', async () => {
    const o = await newSts(3);
    const name = o.metadata.name;
    const body = structuredClone(o);
    body.status = { replicas: 2, readyReplicas: 3 };
    expectInvalid(await http(k, 'PUT', `${STS(NSA, name)}/status`, body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas`,
      causes: [{ reason: 'FieldValueInvalid', field: 'status.readyReplicas', message: 'Invalid value: 3: cannot be greater than status.replicas' }],
    });
  });

  it('GET /scale answers an autoscaling/v1 Scale of the StatefulSet', async () => {
    const o = await newSts(3);
    const name = o.metadata.name;
    const s = expectCode(await http(k, 'GET', `${STS(NSA, name)}/scale`), 200);
    expect(s.kind).toBe('Scale');
    expect(s.apiVersion).toBe('autoscaling/v1');
    expect(s.metadata.name).toBe(name);
    expect(s.metadata.namespace).toBe(NSA);
    expect(s.metadata.uid).toBe(o.metadata.uid);
    expect(s.spec).toStrictEqual({ replicas: 3 });
    expect(s.status).toStrictEqual({ replicas: 0, selector: `app=${name}` });
  });

  it('writes through /scale answer the warnings of the StatefulSet strategy, and a Scale of 0 replicas has spec {}', async () => {
    // kube's ScaleREST writes the StatefulSet through its store: a replicas change moves the
    // generation, so the template's port warnings come back on PUT, PATCH and apply alike.
    const name = uniq('warn');
    const body = sts(name, { replicas: 1 });
    body.spec.template.spec.containers[0].ports = [{ containerPort: 80 }, { containerPort: 80 }];
    const dup = '299 - "spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]"';
    const created = await http(k, 'POST', STS(NSA), body);
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('warning')).toBe(dup);
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: NSA } };
    const put = await http(k, 'PUT', `${STS(NSA, name)}/scale`, { ...scale, spec: { replicas: 2 } });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.get('warning')).toBe(dup);
    expect((put.json as Obj).spec).toStrictEqual({ replicas: 2 });
    const patch = await http(k, 'PATCH', `${STS(NSA, name)}/scale`, { spec: { replicas: 0 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.headers.get('warning')).toBe(dup);
    expect((patch.json as Obj).spec).toStrictEqual({});
    const apply = (): Promise<Awaited<ReturnType<typeof http>>> =>
      http(k, 'PATCH', `${STS(NSA, name)}/scale?fieldManager=m`, JSON.stringify({ ...scale, spec: { replicas: 4 } }), { 'content-type': 'application/apply-patch+yaml' });
    const applied = await apply();
    expect(applied.status, applied.text).toBe(200);
    expect(applied.headers.get('warning')).toBe(dup);
    expect((applied.json as Obj).spec).toStrictEqual({ replicas: 4 });
    // The same apply again changes nothing: the generation stays and no warning comes back.
    const again = await apply();
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('warning')).toBeNull();
  });

  it('an unknown subresource is 404', async () => {
    const o = await newSts(1);
    const r = await http(k, 'GET', `${STS(NSA, o.metadata.name)}/bogus`);
    expect(r.status).toBe(404);
  });
});

describe('PodDisruptionBudget /status', () => {
  it('GET /status answers the object; PUT /status changes status and ignores spec', async () => {
    const name = uniq('pdb');
    const o = expectCode(await http(k, 'POST', PDB(NSA), pdb(name)), 201);
    expect(expectCode(await http(k, 'GET', `${PDB(NSA, name)}/status`), 200)).toStrictEqual(o);
    const body = structuredClone(o);
    body.spec.minAvailable = 5;
    body.status = { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 };
    const u = expectCode(await http(k, 'PUT', `${PDB(NSA, name)}/status`, body), 200);
    expect(u.status).toStrictEqual(body.status);
    expect(u.spec).toStrictEqual(o.spec);
    expect(u.metadata.generation).toBe(1);
    expect(expectCode(await http(k, 'GET', PDB(NSA, name)), 200)).toStrictEqual(u);
  });

  it('PUT on the main resource ignores status', async () => {
    const name = uniq('pdb');
    const o = expectCode(await http(k, 'POST', PDB(NSA), pdb(name)), 201);
    const body = structuredClone(o);
    body.status = { disruptionsAllowed: 9, currentHealthy: 9, desiredHealthy: 9, expectedPods: 9 };
    body.spec.minAvailable = 2;
    const u = expectCode(await http(k, 'PUT', PDB(NSA, name), body), 200);
    expect(u.spec.minAvailable).toBe(2);
    expect(u.status).toStrictEqual(o.status);
  });

  it('a negative disruptionsAllowed is 422 on status.disruptionsAllowed', async () => {
    const name = uniq('pdb');
    const o = expectCode(await http(k, 'POST', PDB(NSA), pdb(name)), 201);
    const body = structuredClone(o);
    body.status = { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    expectInvalid(await http(k, 'PUT', `${PDB(NSA, name)}/status`, body), {
      kind: 'PodDisruptionBudget',
      group: 'policy',
      name,
      message: `PodDisruptionBudget.policy "${name}" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0`,
      causes: [{ reason: 'FieldValueInvalid', field: 'status.disruptionsAllowed', message: 'Invalid value: -1: must be greater than or equal to 0' }],
    });
  });
});

describe('PriorityClass has no /status', () => {
  it('GET and PUT on priorityclasses/<name>/status are 404 NotFound', async () => {
    // The body is the generic 404 of an unregistered route (its empty details are checked in errors.test.ts).
    const generic = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' };
    const g = await http(k, 'GET', `${PC('system-node-critical')}/status`);
    expect(g.status).toBe(404);
    expect(g.json).toMatchObject(generic);
    const cur = expectCode(await http(k, 'GET', PC('system-node-critical')), 200);
    const p = await http(k, 'PUT', `${PC('system-node-critical')}/status`, cur);
    expect(p.status).toBe(404);
    expect(p.json).toMatchObject(generic);
    expect(expectCode(await http(k, 'GET', PC('system-node-critical')), 200)).toStrictEqual(cur);
  });
});
