// JSON Patch (RFC 6902, as kube applies it) on every served type and on /status and
// /scale: ordered operations with test, kube's status codes for failures, no-op patches,
// resourceVersion preconditions, and re-application under concurrent writes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, STS, expectCode, expectFailure, http, ns, sts, uniq, type KapiProcess, type Obj } from './helpers.js';
import { TARGETS, at } from './patch-targets.js';

const JSONP = { 'content-type': 'application/json-patch+json' };
const REJECTED = { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request', details: {} };

let k: KapiProcess;
let NSA: string;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('jp');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

describe.each(TARGETS)('JSON patch on $kind', (t) => {
  it('applies add/replace/test in order; a failing test is 422 and changes nothing', async () => {
    const name = uniq('j');
    const created = expectCode(await http(k, 'POST', t.path(NSA), t.make(name)), 201);
    const ops = [
      { op: 'add', path: '/metadata/labels', value: { a: '1' } },
      { op: 'replace', path: '/metadata/labels/a', value: '2' },
      { op: 'test', path: '/metadata/labels/a', value: '2' },
      { op: 'add', path: '/metadata/annotations', value: { note: 'x' } },
    ];
    const o = expectCode(await http(k, 'PATCH', t.path(NSA, name), ops, JSONP), 200);
    expect(o.metadata.labels.a).toBe('2');
    expect(o.metadata.annotations).toEqual({ note: 'x' });
    expect(Number(o.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));

    const failing = [
      { op: 'replace', path: '/metadata/labels/a', value: '3' },
      { op: 'test', path: '/metadata/labels/a', value: '2' },
    ];
    const r = await http(k, 'PATCH', t.path(NSA, name), failing, JSONP);
    expectFailure(r, REJECTED);
    expect((r.json as Obj).details).toEqual({});
    const after = expectCode(await http(k, 'GET', t.path(NSA, name)), 200);
    expect(after.metadata.labels.a).toBe('2');
    expect(after.metadata.resourceVersion).toBe(o.metadata.resourceVersion);
  });

  if (t.status) {
    const st = t.status;
    it('patches /status', async () => {
      const name = uniq('js');
      expectCode(await http(k, 'POST', t.path(NSA), t.make(name)), 201);
      const ops = [
        { op: 'add', path: st.pointer, value: st.value },
        { op: 'add', path: '/metadata/labels', value: { via: 'status' } },
      ];
      const o = expectCode(await http(k, 'PATCH', `${t.path(NSA, name)}/status`, ops, JSONP), 200);
      expect(at(o, st.pointer)).toEqual(st.value);
      const got = expectCode(await http(k, 'GET', t.path(NSA, name)), 200);
      expect(at(got, st.pointer)).toEqual(st.value);
      expect(got.metadata.labels?.via).toBe('status');
    });
  }
});

describe('JSON patch semantics', () => {
  it('answers 400 for a malformed patch, 413 past 10000 operations, 422 for failing operations', async () => {
    const name = uniq('m');
    expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const url = STS(NSA, name);
    expectFailure(await http(k, 'PATCH', url, { op: 'add' }, JSONP), {
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    });
    expectFailure(await http(k, 'PATCH', `${url}?fieldValidation=Ignore`, { op: 'add' }, JSONP), {
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    });
    expectCode(await http(k, 'PATCH', url, '[{"op":', JSONP), 400);
    const many = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'StatefulSet' }));
    expectFailure(await http(k, 'PATCH', url, many, JSONP), {
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
    for (const ops of [
      [{ op: 'remove', path: '/metadata/labels/nope' }],
      [{ op: 'add', path: '/spec/missing/child', value: 1 }],
      [{ op: 'add', path: '/spec/template/spec/containers/5', value: { name: 'x', image: 'x' } }],
      [{ op: 'move', from: '/spec/nothing', path: '/spec/other' }],
      [{ op: 'explode', path: '/spec' }],
    ]) {
      expectFailure(await http(k, 'PATCH', url, ops, JSONP), REJECTED);
    }
  });

  it('follows kube where it departs from the RFC: replace adds a missing member, test of a missing member against null passes', async () => {
    const name = uniq('q');
    expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const o = expectCode(
      await http(k, 'PATCH', STS(NSA, name), [{ op: 'test', path: '/spec/minReadySeconds', value: null }, { op: 'replace', path: '/spec/minReadySeconds', value: 7 }], JSONP),
      200,
    );
    expect(o.spec.minReadySeconds).toBe(7);
    const last = expectCode(
      await http(k, 'PATCH', STS(NSA, name), [{ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'side', image: 'busybox' } }], JSONP),
      200,
    );
    expect(last.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(['nginx', 'side']);
  });

  it('a patch that changes nothing answers 200 with the same resourceVersion; an invalid result is 422', async () => {
    const name = uniq('n');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const same = expectCode(await http(k, 'PATCH', STS(NSA, name), [{ op: 'test', path: '/metadata/name', value: name }], JSONP), 200);
    expect(same.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const neg = await http(k, 'PATCH', STS(NSA, name), [{ op: 'replace', path: '/spec/replicas', value: -1 }], JSONP);
    expect(neg.status).toBe(422);
    expect((neg.json as Obj).message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const typed = await http(k, 'PATCH', STS(NSA, name), [{ op: 'replace', path: '/spec/replicas', value: 'two' }], JSONP);
    expect(typed.status).toBe(422);
    expect((typed.json as Obj).message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32$/s);
    expect((typed.json as Obj).details.causes[0].field).toBe('patch');
  });

  it('a resourceVersion in the result is a precondition (409); /scale takes JSON patches', async () => {
    const name = uniq('p');
    const created = expectCode(await http(k, 'POST', STS(NSA), sts(name, { replicas: 1 })), 201);
    expectFailure(await http(k, 'PATCH', STS(NSA, name), [{ op: 'replace', path: '/metadata/resourceVersion', value: '1' }], JSONP), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on statefulsets.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      details: { name, group: 'apps', kind: 'statefulsets' },
    });
    const ok = [
      { op: 'test', path: '/metadata/resourceVersion', value: created.metadata.resourceVersion },
      { op: 'replace', path: '/spec/replicas', value: 2 },
    ];
    expectCode(await http(k, 'PATCH', STS(NSA, name), ok, JSONP), 200);
    const scale = expectCode(await http(k, 'PATCH', `${STS(NSA, name)}/scale`, [{ op: 'replace', path: '/spec/replicas', value: 5 }], JSONP), 200);
    expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 5 } });
    expect(expectCode(await http(k, 'GET', STS(NSA, name)), 200).spec.replicas).toBe(5);
  });

  it('unknown and repeated operation fields warn by default and join the strict decoding error with Strict', async () => {
    const name = uniq('u');
    expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const body = '[{"op":"add","path":"/metadata/labels","value":{"a":"1"},"foo":1},{"op":"add","path":"/spec/bogus","path":"/spec/bogus","value":1}]';
    const warned = await http(k, 'PATCH', STS(NSA, name), body, JSONP);
    expect(warned.status).toBe(200);
    expect(warned.headers.get('warning')).toBe(
      '299 - "json patch unknown field \\"[0].foo\\"", 299 - "json patch duplicate field \\"[1].path\\"", 299 - "unknown field \\"spec.bogus\\""',
    );
    const strict = await http(k, 'PATCH', `${STS(NSA, name)}?fieldValidation=Strict`, body, JSONP);
    expect(strict.status).toBe(422);
    expect((strict.json as Obj).message).toMatch(
      /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: json patch unknown field "\[0\].foo", json patch duplicate field "\[1\].path", unknown field "spec.bogus"$/s,
    );
    expectCode(await http(k, 'PATCH', `${STS(NSA, name)}?fieldValidation=Ignore`, body, JSONP), 200);
  });

  it('concurrent patches without a resourceVersion all apply (no 409)', async () => {
    const name = uniq('c');
    expectCode(await http(k, 'POST', STS(NSA), sts(name, { labels: { base: 'x' } })), 201);
    const rs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => http(k, 'PATCH', STS(NSA, name), [{ op: 'add', path: `/metadata/labels/l${i}`, value: String(i) }], JSONP)),
    );
    expect(rs.map((r) => r.status)).toEqual(Array(12).fill(200));
    const got = expectCode(await http(k, 'GET', STS(NSA, name)), 200);
    for (let i = 0; i < 12; i++) expect(got.metadata.labels[`l${i}`]).toBe(String(i));
  });
});
