// Object metadata rules over HTTP: generateName, name validation per type, labels and
// annotations, namespace/name consistency between body and URL, and what an update
// may never change (uid, creationTimestamp, generation), as kube-apiserver 1.33 answers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  DNS1123_SUBDOMAIN_MSG,
  LABEL_VALUE_MSG,
  NS,
  PC,
  PDB,
  QUALIFIED_NAME_MSG,
  STS,
  expectAlive,
  expectCode,
  expectFailure,
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
  NSA = uniq('meta');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

const GENERATED = (prefix: string) => new RegExp(`^${prefix}[bcdfghjklmnpqrstvwxz2456789]{5}$`);

const stsCount = async (): Promise<number> => ((await http(k, 'GET', STS(NSA))).json as Obj).items.length;

describe('generateName', () => {
  it('a StatefulSet gets prefix + 5 characters from kube\'s alphabet; two creates get two names', async () => {
    const body = sts('');
    delete body.metadata.name;
    body.metadata.generateName = 'web-';
    const a = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    const b = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(a.metadata.name).toMatch(GENERATED('web-'));
    expect(b.metadata.name).toMatch(GENERATED('web-'));
    expect(a.metadata.name).not.toBe(b.metadata.name);
    expect(a.metadata.generateName).toBe('web-');
    expectCode(await http(k, 'GET', STS(NSA, a.metadata.name)), 200);
  });

  it('works for cluster-scoped PriorityClass and Namespace too', async () => {
    const p = pc('', 5);
    delete p.metadata.name;
    p.metadata.generateName = 'batch-';
    const o = expectCode(await http(k, 'POST', PC(), p), 201);
    expect(o.metadata.name).toMatch(GENERATED('batch-'));
    const n = ns('');
    delete n.metadata.name;
    n.metadata.generateName = 'team-';
    const created = expectCode(await http(k, 'POST', NS(), n), 201);
    expect(created.metadata.name).toMatch(GENERATED('team-'));
    expect(created.metadata.labels['kubernetes.io/metadata.name']).toBe(created.metadata.name);
  });

  it('a name given alongside generateName wins', async () => {
    const name = uniq('explicit');
    const body = sts(name);
    body.metadata.generateName = 'web-';
    const o = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(o.metadata.name).toBe(name);
  });

  it('an invalid generateName is 422 on metadata.generateName', async () => {
    const body = sts('');
    delete body.metadata.name;
    body.metadata.generateName = 'Web_';
    const before = await stsCount();
    const r = await http(k, 'POST', STS(NSA), body);
    expect(r.status).toBe(422);
    const causes = (r.json as Obj).details.causes as Obj[];
    expect(causes.some((c) => c.field === 'metadata.generateName' && c.reason === 'FieldValueInvalid')).toBe(true);
    expect(await stsCount()).toBe(before);
  });
});

describe('names', () => {
  it('no name and no generateName is 422 Required on metadata.name', async () => {
    const body = sts('');
    delete body.metadata.name;
    const before = await stsCount();
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name: '',
      message: 'StatefulSet.apps "" is invalid: metadata.name: Required value: name or generateName is required',
      causes: [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }],
    });
    expect(await stsCount()).toBe(before);
  });

  it('a PriorityClass without a name is 422 Required on metadata.name', async () => {
    const body = pc('', 1);
    delete body.metadata.name;
    expectInvalid(await http(k, 'POST', PC(), body), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name: '',
      message: 'PriorityClass.scheduling.k8s.io "" is invalid: metadata.name: Required value: name or generateName is required',
      causes: [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }],
    });
  });

  it('StatefulSet names are DNS-1123 labels: "my.db" is 422', async () => {
    expectInvalid(await http(k, 'POST', STS(NSA), sts('my.db', { app: 'mydb' })), {
      kind: 'StatefulSet',
      group: 'apps',
      name: 'my.db',
      // As kube 1.33 words it (recorded against the reference server): a dot gets its own
      // message, and the serviceName (the helper's is the name) is a DNS label too.
      message: 'StatefulSet.apps "my.db" is invalid: [metadata.name: Invalid value: "my.db": must not contain dots, spec.serviceName: Invalid value: "my.db": must not contain dots]',
      causes: [
        { reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value: "my.db": must not contain dots' },
        { reason: 'FieldValueInvalid', field: 'spec.serviceName', message: 'Invalid value: "my.db": must not contain dots' },
      ],
    });
    expectCode(await http(k, 'GET', STS(NSA, 'my.db')), 404);
  });

  it('a 64-character StatefulSet name is 422 "must be no more than 63 characters"', async () => {
    const name = 'a'.repeat(64);
    expectInvalid(await http(k, 'POST', STS(NSA), sts(name, { app: 'long' })), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: [metadata.name: Invalid value: "${name}": must be no more than 63 characters, spec.serviceName: Invalid value: "${name}": must be no more than 63 characters]`,
      causes: [
        { reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${name}": must be no more than 63 characters` },
        { reason: 'FieldValueInvalid', field: 'spec.serviceName', message: `Invalid value: "${name}": must be no more than 63 characters` },
      ],
    });
  });

  it('PriorityClass names are DNS subdomains: "my.pc" is valid, "My_PC" is not', async () => {
    const dotted = `my.pc.${uniq('x')}`;
    expectCode(await http(k, 'POST', PC(), pc(dotted, 3)), 201);
    expectInvalid(await http(k, 'POST', PC(), pc('My_PC', 3)), {
      kind: 'PriorityClass',
      group: 'scheduling.k8s.io',
      name: 'My_PC',
      message: `PriorityClass.scheduling.k8s.io "My_PC" is invalid: metadata.name: Invalid value: "My_PC": ${DNS1123_SUBDOMAIN_MSG}`,
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "My_PC": ${DNS1123_SUBDOMAIN_MSG}` }],
    });
  });

  it('Namespace names are DNS-1123 labels: "my.ns" is 422 with no group in details', async () => {
    expectInvalid(await http(k, 'POST', NS(), ns('my.ns')), {
      kind: 'Namespace',
      group: '',
      name: 'my.ns',
      message: 'Namespace "my.ns" is invalid: metadata.name: Invalid value: "my.ns": must not contain dots',
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: 'Invalid value: "my.ns": must not contain dots' }],
    });
  });
});

describe('labels and annotations', () => {
  it('a bad label key and a bad label value give one cause each on metadata.labels', async () => {
    const name = uniq('lbl');
    const body = sts(name, { labels: { 'bad key': 'v', ok: '-bad-' } });
    const r = await http(k, 'POST', STS(NSA), body);
    expect(r.status, r.text).toBe(422);
    const s = r.json as Obj;
    expect(s.reason).toBe('Invalid');
    expect(s.details.name).toBe(name);
    expect(s.details.kind).toBe('StatefulSet');
    expect(s.details.group).toBe('apps');
    const key = `Invalid value: "bad key": ${QUALIFIED_NAME_MSG}`;
    const value = `Invalid value: "-bad-": ${LABEL_VALUE_MSG}`;
    expect(s.details.causes).toHaveLength(2);
    expect(s.details.causes).toContainEqual({ reason: 'FieldValueInvalid', field: 'metadata.labels', message: key });
    expect(s.details.causes).toContainEqual({ reason: 'FieldValueInvalid', field: 'metadata.labels', message: value });
    // Go map order decides which comes first in the aggregated message.
    expect([
      `StatefulSet.apps "${name}" is invalid: [metadata.labels: ${key}, metadata.labels: ${value}]`,
      `StatefulSet.apps "${name}" is invalid: [metadata.labels: ${value}, metadata.labels: ${key}]`,
    ]).toContain(s.message);
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('a label key with an upper-case prefix is 422 naming the prefix part', async () => {
    const name = uniq('pfx');
    const r = await http(k, 'POST', STS(NSA), sts(name, { labels: { 'Example.com/app': 'x' } }));
    expectInvalid(r, {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: metadata.labels: Invalid value: "Example.com/app": prefix part ${DNS1123_SUBDOMAIN_MSG}`,
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "Example.com/app": prefix part ${DNS1123_SUBDOMAIN_MSG}` }],
    });
  });

  it('a label value longer than 63 characters is 422', async () => {
    const name = uniq('long');
    const v = 'v'.repeat(64);
    expectInvalid(await http(k, 'POST', PDB(NSA), pdb(name, { minAvailable: 1 }, { big: v })), {
      kind: 'PodDisruptionBudget',
      group: 'policy',
      name,
      message: `PodDisruptionBudget.policy "${name}" is invalid: metadata.labels: Invalid value: "${v}": must be no more than 63 characters`,
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "${v}": must be no more than 63 characters` }],
    });
  });

  it('a bad annotation key is 422 on metadata.annotations; annotation values are free', async () => {
    const name = uniq('ann');
    const body = sts(name);
    body.metadata.annotations = { 'bad key': 'anything at all', 'example.com/fine': '--- !! ---' };
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: metadata.annotations: Invalid value: "bad key": ${QUALIFIED_NAME_MSG}`,
      causes: [{ reason: 'FieldValueInvalid', field: 'metadata.annotations', message: `Invalid value: "bad key": ${QUALIFIED_NAME_MSG}` }],
    });
    body.metadata.annotations = { 'Example.COM/Fine': '--- !! ---' };
    const o = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(o.metadata.annotations).toStrictEqual({ 'Example.COM/Fine': '--- !! ---' });
  });

  it('label validation also applies on update', async () => {
    const name = uniq('upd');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    o.metadata.labels = { ok: '-bad-' };
    expectInvalid(await http(k, 'PUT', STS(NSA, name), o), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      // kube validates the labels three times on update (object meta, its update check, and
      // the strategy's own): the message names the error once, the causes keep all three.
      message: `StatefulSet.apps "${name}" is invalid: metadata.labels: Invalid value: "-bad-": ${LABEL_VALUE_MSG}`,
      causes: Array.from({ length: 3 }, () => ({ reason: 'FieldValueInvalid', field: 'metadata.labels', message: `Invalid value: "-bad-": ${LABEL_VALUE_MSG}` })),
    });
    const cur = expectCode(await http(k, 'GET', STS(NSA, name)), 200);
    expect(cur.metadata.labels).toBeUndefined();
  });
});

describe('namespace and name consistency', () => {
  it('POST with a different namespace in the body is 400 BadRequest and writes nothing', async () => {
    const name = uniq('nsmm');
    expectFailure(await http(k, 'POST', STS(NSA), sts(name, { namespace: 'default' })), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
    expectCode(await http(k, 'GET', STS('default', name)), 404);
  });

  it('POST with the same namespace in the body is fine; an empty one is filled from the URL', async () => {
    const a = uniq('same');
    expect(expectCode(await http(k, 'POST', STS(NSA), sts(a, { namespace: NSA })), 201).metadata.namespace).toBe(NSA);
    const b = uniq('fill');
    expect(expectCode(await http(k, 'POST', STS(NSA), sts(b)), 201).metadata.namespace).toBe(NSA);
  });

  it('POST into a namespace that does not exist is 404 namespaces "x" not found', async () => {
    const missing = uniq('missing');
    expectFailure(await http(k, 'POST', STS(missing), sts('web')), {
      code: 404,
      reason: 'NotFound',
      message: `namespaces "${missing}" not found`,
      details: { name: missing, kind: 'namespaces' },
    });
    expectFailure(await http(k, 'POST', PDB(missing), pdb('p')), {
      code: 404,
      reason: 'NotFound',
      message: `namespaces "${missing}" not found`,
      details: { name: missing, kind: 'namespaces' },
    });
    expectCode(await http(k, 'GET', NS(missing)), 404);
  });

  it('PUT with another name in the body is 400 and changes nothing', async () => {
    const a = uniq('a');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(a)), 201);
    const body = structuredClone(created);
    body.metadata.name = 'b';
    body.spec.replicas = 9;
    expectFailure(await http(k, 'PUT', STS(NSA, a), body), {
      code: 400,
      reason: 'BadRequest',
      message: `the name of the object (b) does not match the name on the URL (${a})`,
    });
    expect(expectCode(await http(k, 'GET', STS(NSA, a)), 200)).toStrictEqual(created);
  });

  it('PUT with no name in the body is 400 "name must be provided"', async () => {
    const a = uniq('noname');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(a)), 201);
    const body = structuredClone(created);
    delete body.metadata.name;
    body.spec.replicas = 9;
    expectFailure(await http(k, 'PUT', STS(NSA, a), body), {
      code: 400,
      reason: 'BadRequest',
      message: `the name of the object (${a} based on URL) was undeterminable: name must be provided`,
    });
    expect(expectCode(await http(k, 'GET', STS(NSA, a)), 200).spec.replicas).toBe(1);
  });

  it('PUT with another namespace in the body is 400 BadRequest', async () => {
    const a = uniq('pns');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(a)), 201);
    const body = structuredClone(created);
    body.metadata.namespace = 'default';
    expectFailure(await http(k, 'PUT', STS(NSA, a), body), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });
});

describe('fields an update cannot change', () => {
  it('PUT with another uid fails the uid precondition: 409 Conflict, nothing written', async () => {
    const name = uniq('uid');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = structuredClone(created);
    const other = '00000000-0000-0000-0000-000000000001';
    body.metadata.uid = other;
    body.spec.replicas = 3;
    const r = await http(k, 'PUT', STS(NSA, name), body);
    expect(r.status, r.text).toBe(409);
    const s = r.json as Obj;
    expect(s).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', code: 409 });
    expect(s.details).toStrictEqual({ name, group: 'apps', kind: 'statefulsets' });
    expect(s.message).toMatch(new RegExp(`^Operation cannot be fulfilled on statefulsets\\.apps "${name}": `));
    expect(s.message).toContain(`Precondition failed: UID in precondition: ${other}, UID in object meta: ${created.metadata.uid}`);
    expect(expectCode(await http(k, 'GET', STS(NSA, name)), 200)).toStrictEqual(created);
  });

  it('PUT with the same uid, or none, is accepted', async () => {
    const name = uniq('uidok');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = structuredClone(created);
    delete body.metadata.uid;
    body.spec.replicas = 2;
    const u = expectCode(await http(k, 'PUT', STS(NSA, name), body), 200);
    expect(u.metadata.uid).toBe(created.metadata.uid);
  });

  it('creationTimestamp and generation sent in a PUT are silently replaced by the stored ones', async () => {
    const name = uniq('ts');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = structuredClone(created);
    body.metadata.creationTimestamp = '2001-01-01T00:00:00Z';
    body.metadata.generation = 99;
    const u = expectCode(await http(k, 'PUT', STS(NSA, name), body), 200);
    expect(u.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(u.metadata.generation).toBe(1);
    // Nothing else changed, so nothing was written.
    expect(u.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(expectCode(await http(k, 'GET', STS(NSA, name)), 200)).toStrictEqual(created);
  });

  it('uid, creationTimestamp and deletion fields sent in a POST are replaced by the server', async () => {
    const name = uniq('sys');
    const body = sts(name);
    body.metadata.uid = '00000000-0000-0000-0000-000000000002';
    body.metadata.creationTimestamp = '2001-01-01T00:00:00Z';
    body.metadata.deletionTimestamp = '2001-01-01T00:00:00Z';
    body.metadata.deletionGracePeriodSeconds = 5;
    body.metadata.generation = 42;
    const o = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(o.metadata.uid).not.toBe('00000000-0000-0000-0000-000000000002');
    expect(o.metadata.creationTimestamp).not.toBe('2001-01-01T00:00:00Z');
    expect(o.metadata.deletionTimestamp).toBeUndefined();
    expect(o.metadata.deletionGracePeriodSeconds).toBeUndefined();
    expect(o.metadata.generation).toBe(1);
  });

  it('the server still answers after all of the above', async () => {
    await expectAlive(k);
  });
});
