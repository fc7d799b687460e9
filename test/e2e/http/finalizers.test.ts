// Finalizers over HTTP: a DELETE of an object with finalizers marks it (200 with the
// object, deletionTimestamp set) instead of removing it; an update that empties the
// finalizers completes the deletion; a deleting object takes no new finalizers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  PDB,
  QUALIFIED_NAME_MSG,
  RFC3339,
  STS,
  expectCode,
  expectInvalid,
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

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('fin');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

async function createHeld(name: string, finalizers: string[]): Promise<Obj> {
  const body = sts(name);
  body.metadata.finalizers = finalizers;
  const o = expectCode(await http(k, 'POST', STS(NSA), body), 201);
  expect(o.metadata.finalizers).toStrictEqual(finalizers);
  return o;
}

describe('StatefulSet with finalizers', () => {
  it('DELETE answers 200 with the object marked for deletion; it stays readable and listed', async () => {
    const name = uniq('held');
    const created = await createHeld(name, ['example.com/a']);
    const r = await http(k, 'DELETE', STS(NSA, name));
    const marked = expectCode(r, 200);
    expect(marked.kind).toBe('StatefulSet');
    expect(marked.apiVersion).toBe('apps/v1');
    expect(marked.metadata.name).toBe(name);
    expect(marked.metadata.uid).toBe(created.metadata.uid);
    expect(marked.metadata.deletionTimestamp).toMatch(RFC3339);
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(marked.metadata.finalizers).toStrictEqual(['example.com/a']);
    expect(marked.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
    const got = expectCode(await http(k, 'GET', STS(NSA, name)), 200);
    expect(got).toStrictEqual(marked);
    const list = expectCode(await http(k, 'GET', STS(NSA)), 200);
    expect(list.items.some((i: Obj) => i.metadata.name === name)).toBe(true);
  });

  it('marking for deletion bumps metadata.generation (objects that track generation)', async () => {
    const name = uniq('gen');
    await createHeld(name, ['example.com/a']);
    const marked = expectCode(await http(k, 'DELETE', STS(NSA, name)), 200);
    expect(marked.metadata.generation).toBe(2);
  });

  it('a second DELETE answers 200 with the object unchanged', async () => {
    const name = uniq('twice');
    await createHeld(name, ['example.com/a']);
    const first = expectCode(await http(k, 'DELETE', STS(NSA, name)), 200);
    const r2 = await http(k, 'DELETE', STS(NSA, name));
    const second = expectCode(r2, 200);
    expect(second.metadata.deletionTimestamp).toBe(first.metadata.deletionTimestamp);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(second).toStrictEqual(first);
    // The raw JSON has one resourceVersion key (no duplicate keys).
    expect(r2.text.match(/"resourceVersion"/g)).toHaveLength(1);
  });

  it('removing one of two finalizers keeps it; removing the last removes it; the name is reusable', async () => {
    const name = uniq('two');
    const created = await createHeld(name, ['example.com/a', 'example.com/b']);
    const marked = expectCode(await http(k, 'DELETE', STS(NSA, name)), 200);
    marked.metadata.finalizers = ['example.com/b'];
    const one = expectCode(await http(k, 'PUT', STS(NSA, name), marked), 200);
    expect(one.metadata.finalizers).toStrictEqual(['example.com/b']);
    expect(one.metadata.deletionTimestamp).toBe(marked.metadata.deletionTimestamp);
    expectCode(await http(k, 'GET', STS(NSA, name)), 200);

    one.metadata.finalizers = [];
    const last = expectCode(await http(k, 'PUT', STS(NSA, name), one), 200);
    expect(last.metadata.name).toBe(name);
    expect(last.metadata.finalizers ?? []).toStrictEqual([]);
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);

    const again = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    expect(again.metadata.uid).not.toBe(created.metadata.uid);
    expect(again.metadata.deletionTimestamp).toBeUndefined();
    expect(again.metadata.generation).toBe(1);
  });

  it('an update may not add a finalizer to an object being deleted: 422 Forbidden on metadata.finalizers', async () => {
    const name = uniq('nonew');
    await createHeld(name, ['example.com/a']);
    const marked = expectCode(await http(k, 'DELETE', STS(NSA, name)), 200);
    const body = structuredClone(marked);
    body.metadata.finalizers = ['example.com/a', 'example.com/b'];
    const r = await http(k, 'PUT', STS(NSA, name), body);
    expect(r.status, r.text).toBe(422);
    const s = r.json as Obj;
    const detail = 'no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}';
    expect(s).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Invalid', code: 422 });
    expect(s.message).toBe(`StatefulSet.apps "${name}" is invalid: metadata.finalizers: Forbidden: ${detail}`);
    expect(s.details.name).toBe(name);
    expect(s.details.group).toBe('apps');
    expect(s.details.kind).toBe('StatefulSet');
    // kube validates object metadata twice on update, so the cause may be listed twice; it is the only one.
    expect(s.details.causes.length).toBeGreaterThan(0);
    for (const c of s.details.causes) {
      expect(c).toStrictEqual({ reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field: 'metadata.finalizers' });
    }
    expect(expectCode(await http(k, 'GET', STS(NSA, name)), 200).metadata.finalizers).toStrictEqual(['example.com/a']);
  });

  it('an update of a deleting object cannot clear deletionTimestamp', async () => {
    const name = uniq('keepdt');
    await createHeld(name, ['example.com/a']);
    const marked = expectCode(await http(k, 'DELETE', STS(NSA, name)), 200);
    const body = structuredClone(marked);
    delete body.metadata.deletionTimestamp;
    delete body.metadata.deletionGracePeriodSeconds;
    body.metadata.labels = { touched: 'yes' };
    const u = expectCode(await http(k, 'PUT', STS(NSA, name), body), 200);
    expect(u.metadata.deletionTimestamp).toBe(marked.metadata.deletionTimestamp);
    expect(u.metadata.labels).toStrictEqual({ touched: 'yes' });
  });

  it('a finalizer with an invalid name part is 422 on metadata.finalizers', async () => {
    const name = uniq('badfin');
    const body = sts(name);
    body.metadata.finalizers = ['example.com/bad finalizer'];
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: metadata.finalizers: Invalid value: "example.com/bad finalizer": ${QUALIFIED_NAME_MSG}`,
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.finalizers', message: `Invalid value: "example.com/bad finalizer": ${QUALIFIED_NAME_MSG}` }],
    });
  });

  it('a finalizer without a domain that is not a standard one is 422 on metadata.finalizers[i]', async () => {
    const name = uniq('nodomain');
    const body = sts(name);
    body.metadata.finalizers = ['example.com/ok', 'myfinalizer'];
    const detail = 'name is neither a standard finalizer name nor is it fully qualified';
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: metadata.finalizers[1]: Invalid value: "myfinalizer": ${detail}`,
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.finalizers[1]', message: `Invalid value: "myfinalizer": ${detail}` }],
    });
    // The standard names are fine.
    body.metadata.finalizers = ['orphan'];
    expectCode(await http(k, 'POST', STS(NSA), body), 201);
  });
});

describe('other types with finalizers', () => {
  it('a PodDisruptionBudget is marked, then removed by the update that empties its finalizers', async () => {
    const name = uniq('pdb');
    const body = pdb(name);
    body.metadata.finalizers = ['example.com/x'];
    expectCode(await http(k, 'POST', PDB(NSA), body), 201);
    const marked = expectCode(await http(k, 'DELETE', PDB(NSA, name)), 200);
    expect(marked.kind).toBe('PodDisruptionBudget');
    expect(marked.metadata.deletionTimestamp).toMatch(RFC3339);
    marked.metadata.finalizers = [];
    expectCode(await http(k, 'PUT', PDB(NSA, name), marked), 200);
    expectCode(await http(k, 'GET', PDB(NSA, name)), 404);
  });

  it('a cluster-scoped PriorityClass behaves the same', async () => {
    const name = uniq('pc');
    const body = pc(name, 10);
    body.metadata.finalizers = ['example.com/x'];
    expectCode(await http(k, 'POST', PC(), body), 201);
    const marked = expectCode(await http(k, 'DELETE', PC(name)), 200);
    expect(marked.kind).toBe('PriorityClass');
    expect(marked.metadata.deletionTimestamp).toMatch(RFC3339);
    expect(marked.metadata.generation).toBe(2);
    expectCode(await http(k, 'GET', PC(name)), 200);
    marked.metadata.finalizers = [];
    expectCode(await http(k, 'PUT', PC(name), marked), 200);
    expectCode(await http(k, 'GET', PC(name)), 404);
    expectCode(await http(k, 'POST', PC(), pc(name, 10)), 201);
  });
});
