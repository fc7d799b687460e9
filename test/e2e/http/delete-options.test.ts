// DeleteOptions: from the body (JSON, YAML) or the query, never both; propagation policies
// and the GC finalizers they leave (orphan, foregroundDeletion); orphanDependents and its
// 202; preconditions; dryRun; graceful pod deletion; deletecollection; and the rule that a
// deleting object takes no new finalizers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeProtobufObject } from '../../../src/codec/protobuf/index.js';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, PC, STS, RFC3339, WatchStream, expectCode, expectFailure, http, ns, pc, sts, uniq, MERGE, type KapiProcess, type Obj } from './helpers.js';

const POD = (n: string, name = '') => `/api/v1/namespaces/${n}/pods${name ? '/' + name : ''}`;

let k: KapiProcess;
let NSA: string;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('del');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

async function mk(name: string, extra: Obj = {}): Promise<Obj> {
  const body = sts(name, { replicas: 1 });
  Object.assign(body.metadata, extra);
  return expectCode(await http(k, 'POST', STS(NSA), body), 201);
}

async function release(name: string): Promise<void> {
  expectCode(await http(k, 'PATCH', STS(NSA, name), { metadata: { finalizers: null } }, MERGE), 200);
  expectCode(await http(k, 'GET', STS(NSA, name)), 404);
}

describe('propagation policies', () => {
  it('Orphan (query) marks the object with the orphan finalizer and answers it with 200', async () => {
    const name = uniq('orph');
    const created = await mk(name);
    const o = expectCode(await http(k, 'DELETE', `${STS(NSA, name)}?propagationPolicy=Orphan`), 200);
    expect(o.kind).toBe('StatefulSet');
    expect(o.metadata.finalizers).toEqual(['orphan']);
    expect(o.metadata.deletionTimestamp).toMatch(RFC3339);
    expect(o.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(o.metadata.generation).toBe(created.metadata.generation + 1);
    const stored = expectCode(await http(k, 'GET', STS(NSA, name)), 200);
    expect(stored.metadata.finalizers).toEqual(['orphan']);
    await release(name);
  });

  it('Foreground (body) adds foregroundDeletion after the finalizers already there', async () => {
    const name = uniq('fg');
    await mk(name, { finalizers: ['example.com/keep'] });
    const o = expectCode(await http(k, 'DELETE', STS(NSA, name), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' }), 200);
    expect(o.metadata.finalizers).toEqual(['example.com/keep', 'foregroundDeletion']);
    // A later DELETE may still switch the GC finalizer on a non-graceful type.
    const again = expectCode(await http(k, 'DELETE', STS(NSA, name), { propagationPolicy: 'Orphan' }), 200);
    expect(again.metadata.finalizers).toEqual(['example.com/keep', 'orphan']);
    expect(again.metadata.deletionTimestamp).toBe(o.metadata.deletionTimestamp);
    await release(name);
  });

  it('Background (and no policy) removes at once and answers a Status', async () => {
    for (const q of ['?propagationPolicy=Background', '']) {
      const name = uniq('bg');
      const created = await mk(name);
      const r = expectCode(await http(k, 'DELETE', `${STS(NSA, name)}${q}`), 200);
      expect(r).toMatchObject({ kind: 'Status', status: 'Success', details: { name, group: 'apps', kind: 'statefulsets', uid: created.metadata.uid } });
      expectCode(await http(k, 'GET', STS(NSA, name)), 404);
    }
  });

  it('orphanDependents=true orphans; orphanDependents=false on an object that stays answers 202', async () => {
    const a = uniq('od');
    await mk(a);
    const o = expectCode(await http(k, 'DELETE', `${STS(NSA, a)}?orphanDependents=true`), 200);
    expect(o.metadata.finalizers).toEqual(['orphan']);
    await release(a);
    const b = uniq('od');
    await mk(b, { finalizers: ['example.com/hold'] });
    const r = await http(k, 'DELETE', STS(NSA, b), { orphanDependents: false });
    expect(r.status).toBe(202);
    expect((r.json as Obj).metadata.finalizers).toEqual(['example.com/hold']);
    await release(b);
    const c = uniq('od');
    await mk(c);
    expect((await http(k, 'DELETE', STS(NSA, c), { orphanDependents: false })).status).toBe(200);
    expectCode(await http(k, 'GET', STS(NSA, c)), 404);
  });

  it('orphanDependents with propagationPolicy is 422; bad values are 400/422', async () => {
    const name = uniq('both');
    await mk(name);
    expectFailure(await http(k, 'DELETE', `${STS(NSA, name)}?orphanDependents=false&propagationPolicy=Foreground`), {
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set', field: 'propagationPolicy' }],
      },
    });
    expectCode(await http(k, 'DELETE', `${STS(NSA, name)}?orphanDependents=maybe`), 400);
    expectCode(await http(k, 'DELETE', `${STS(NSA, name)}?gracePeriodSeconds=soon`), 400);
    expectCode(await http(k, 'DELETE', STS(NSA, name), { gracePeriodSeconds: 'soon' }), 400);
    expectCode(await http(k, 'GET', STS(NSA, name)), 200);
  });

  it('a namespace DELETE with Orphan sets the finalizer and turns Terminating', async () => {
    const name = uniq('nso');
    expectCode(await http(k, 'POST', NS(), ns(name)), 201);
    const o = expectCode(await http(k, 'DELETE', `${NS(name)}?propagationPolicy=Orphan`), 200);
    expect(o.metadata.finalizers).toEqual(['orphan']);
    expect(o.status.phase).toBe('Terminating');
    expect(o.metadata.deletionTimestamp).toMatch(RFC3339);
  });

  it('a namespace checks preconditions in its registry\'s words', async () => {
    const name = uniq('nsp');
    const created = expectCode(await http(k, 'POST', NS(), ns(name)), 201);
    expectFailure(await http(k, 'DELETE', NS(name), { preconditions: { uid: 'other' } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on namespaces "${name}": Precondition failed: UID in precondition: other, UID in object meta: ${created.metadata.uid}`,
      details: { name, kind: 'namespaces' },
    });
    expectCode(await http(k, 'DELETE', NS(name), { preconditions: { uid: created.metadata.uid } }), 200);
  });
});

describe('body, query, preconditions, dryRun', () => {
  it('a body replaces the query entirely', async () => {
    const name = uniq('bq');
    await mk(name);
    // The query asks to orphan, the (empty) options body does not: kube reads only the body.
    const r = expectCode(await http(k, 'DELETE', `${STS(NSA, name)}?propagationPolicy=Orphan`, { kind: 'DeleteOptions', apiVersion: 'v1' }), 200);
    expect(r.kind).toBe('Status');
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('reads YAML DeleteOptions', async () => {
    const name = uniq('yaml');
    await mk(name);
    const o = expectCode(
      await http(k, 'DELETE', STS(NSA, name), 'kind: DeleteOptions\napiVersion: v1\npropagationPolicy: Foreground\n', { 'content-type': 'application/yaml' }),
      200,
    );
    expect(o.metadata.finalizers).toEqual(['foregroundDeletion']);
    await release(name);
  });

  it('reads protobuf DeleteOptions', async () => {
    const name = uniq('pb');
    await mk(name);
    const body = encodeProtobufObject({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Orphan', gracePeriodSeconds: 5 });
    const o = expectCode(await http(k, 'DELETE', STS(NSA, name), new Uint8Array(body), { 'content-type': 'application/vnd.kubernetes.protobuf' }), 200);
    expect(o.metadata.finalizers).toEqual(['orphan']);
    await release(name);
  });

  it('a resourceVersion precondition that does not match is 409; one that matches deletes', async () => {
    const name = uniq('rv');
    const created = await mk(name);
    expectFailure(await http(k, 'DELETE', STS(NSA, name), { preconditions: { resourceVersion: '1' } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on StatefulSet.apps "${name}": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.metadata.resourceVersion}). The object might have been modified`,
      details: { name, group: 'apps', kind: 'StatefulSet' },
    });
    expectCode(await http(k, 'DELETE', STS(NSA, name), { preconditions: { resourceVersion: created.metadata.resourceVersion, uid: created.metadata.uid } }), 200);
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('dryRun in the body or the query answers as kube would and keeps the object', async () => {
    const name = uniq('dry');
    const created = await mk(name);
    expectCode(await http(k, 'DELETE', STS(NSA, name), { dryRun: ['All'], propagationPolicy: 'Orphan' }), 200);
    expectCode(await http(k, 'DELETE', `${STS(NSA, name)}?dryRun=All`), 200);
    const got = expectCode(await http(k, 'GET', STS(NSA, name)), 200);
    expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(got.metadata.finalizers).toBeUndefined();
    expectFailure(await http(k, 'DELETE', STS(NSA, name), { dryRun: ['Some'] }), {
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"Some"}: supported values: "All"', field: 'dryRun' }],
      },
    });
  });

  it('a deleting object takes no new finalizers, by update or patch', async () => {
    const name = uniq('nf');
    await mk(name, { finalizers: ['example.com/a'] });
    expectCode(await http(k, 'DELETE', STS(NSA, name)), 200);
    const r = await http(k, 'PATCH', STS(NSA, name), { metadata: { finalizers: ['example.com/a', 'example.com/b'] } }, MERGE);
    expect(r.status).toBe(422);
    expect((r.json as Obj).message).toBe(
      `StatefulSet.apps "${name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}`,
    );
    await release(name);
  });
});

describe('graceful pod deletion', () => {
  it('a scheduled pod is marked with its grace period; a shorter one or 0 finishes it', async () => {
    const name = uniq('gp');
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: 'node-1', terminationGracePeriodSeconds: 60, containers: [{ name: 'c', image: 'busybox' }] } };
    expectCode(await http(k, 'POST', POD(NSA), body), 201);
    const before = Date.now();
    const o = expectCode(await http(k, 'DELETE', POD(NSA, name)), 200);
    expect(o.metadata.deletionGracePeriodSeconds).toBe(60);
    const ts = Date.parse(o.metadata.deletionTimestamp);
    expect(ts).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 59_000);
    // A longer period changes nothing; a shorter one moves the deadline.
    const same = expectCode(await http(k, 'DELETE', `${POD(NSA, name)}?gracePeriodSeconds=120`), 200);
    expect(same.metadata.resourceVersion).toBe(o.metadata.resourceVersion);
    const shorter = expectCode(await http(k, 'DELETE', `${POD(NSA, name)}?gracePeriodSeconds=10`), 200);
    expect(shorter.metadata.deletionGracePeriodSeconds).toBe(10);
    expect(Date.parse(shorter.metadata.deletionTimestamp)).toBe(ts - 50_000);
    // Status updates during termination do not finish the deletion.
    expectCode(await http(k, 'PATCH', `${POD(NSA, name)}/status`, { status: { message: 'stopping' } }, MERGE), 200);
    expectCode(await http(k, 'GET', POD(NSA, name)), 200);
    expectCode(await http(k, 'DELETE', `${POD(NSA, name)}?gracePeriodSeconds=0`), 200);
    expectCode(await http(k, 'GET', POD(NSA, name)), 404);
  });
});

describe('graceless pod deletion', () => {
  it('an unscheduled pod is written marked (grace 0) and then removed: MODIFIED, then DELETED', async () => {
    const name = uniq('g0');
    const created = expectCode(await http(k, 'POST', POD(NSA), { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }), 201);
    const w = await WatchStream.open(k, `${POD(NSA)}?watch=1&fieldSelector=metadata.name%3D${name}&resourceVersion=${created.metadata.resourceVersion}`);
    try {
      const o = expectCode(await http(k, 'DELETE', POD(NSA, name)), 200);
      expect(o.kind).toBe('Pod');
      expect(o.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(o.metadata.deletionTimestamp).toMatch(RFC3339);
      const [mod, del] = await w.take(2);
      expect(mod.type).toBe('MODIFIED');
      expect(mod.object.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(del.type).toBe('DELETED');
      expect(del.object.metadata.resourceVersion).toBe(o.metadata.resourceVersion);
    } finally {
      w.close();
    }
    expectCode(await http(k, 'GET', POD(NSA, name)), 404);
  });
});

describe('deletecollection', () => {
  it('honours the label selector and the options; one watch event per object', async () => {
    const names = [uniq('dc'), uniq('dc'), uniq('dc')];
    const keepName = uniq('dc');
    for (const n of names) expectCode(await http(k, 'POST', PC(), pc(n, 5, { metadata: { name: n, labels: { batch: NSA } } })), 201);
    expectCode(await http(k, 'POST', PC(), pc(keepName, 5, { metadata: { name: keepName, labels: { batch: 'other' } } })), 201);
    const list = expectCode(await http(k, 'GET', `${PC()}?labelSelector=batch%3D${NSA}`), 200);
    const w = await WatchStream.open(k, `${PC()}?watch=1&labelSelector=batch%3D${NSA}&resourceVersion=${list.metadata.resourceVersion}`);
    try {
      const r = expectCode(await http(k, 'DELETE', `${PC()}?labelSelector=batch%3D${NSA}`), 200);
      expect(r.kind).toBe('PriorityClassList');
      expect(r.items.map((i: Obj) => i.metadata.name).sort()).toEqual([...names].sort());
      const events = await w.take(3);
      expect(events.map((e) => e.type)).toEqual(['DELETED', 'DELETED', 'DELETED']);
      expect(events.map((e) => e.object.metadata.name).sort()).toEqual([...names].sort());
      expect(await w.next(300)).toBeUndefined();
    } finally {
      w.close();
    }
    expectCode(await http(k, 'GET', PC(keepName)), 200);
  });

  it('with Orphan, marks every match instead of removing it', async () => {
    const a = uniq('dco');
    const b = uniq('dco');
    for (const n of [a, b]) await mk(n, { labels: { grp: a } });
    expectCode(await http(k, 'DELETE', `${STS(NSA)}?labelSelector=grp%3D${a}`, { propagationPolicy: 'Orphan' }), 200);
    for (const n of [a, b]) {
      const got = expectCode(await http(k, 'GET', STS(NSA, n)), 200);
      expect(got.metadata.finalizers).toEqual(['orphan']);
      await release(n);
    }
  });
});

describe('YAML bodies the parser cannot take quickly', () => {
  it('flow collections nested past 10,000 are refused at once, and the server keeps answering', async () => {
    const deep = `{${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const started = Date.now();
    const r = await http(k, 'DELETE', STS(NSA, 'nobody'), deep, { 'content-type': 'application/yaml' });
    expect(r.status).toBe(400);
    expect((r.json as Obj).message).toContain('yaml: exceeded max depth of 10000');
    const p = await http(k, 'POST', `${PC()}?dryRun=All`, deep, { 'content-type': 'application/yaml' });
    expect(p.status).toBe(400);
    expect((p.json as Obj).message).toContain('yaml: exceeded max depth of 10000');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await http(k, 'GET', '/healthz')).status).toBe(200);
  });

  it('a collection as a map key is goyaml\'s invalid map key, as kube words it', async () => {
    const r = await http(k, 'POST', `${PC()}?dryRun=All`, '{[[1]]}', { 'content-type': 'application/yaml' });
    expectFailure(r, {
      code: 400,
      reason: 'BadRequest',
      message: 'the object provided is unrecognized (must be of type PriorityClass): yaml: invalid map key: []interface {}{[]interface {}{1}} ({[[1]]})',
    });
    const m = await http(k, 'POST', `${PC()}?dryRun=All`, '{{a: b}: c}', { 'content-type': 'application/yaml' });
    expect((m.json as Obj).message).toContain('yaml: invalid map key: map[interface {}]interface {}{"a":"b"}');
  });
});
