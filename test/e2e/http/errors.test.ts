// Request-level errors over HTTP, answered as kube-apiserver 1.33 answers them:
// unknown paths, methods a route does not serve, bodies that cannot be read or decoded,
// media types, request options. After every bad request the server must still answer
// /readyz and must not have written anything.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import {
  NS,
  PC,
  STS,
  expectAlive,
  expectCode,
  expectFailure,
  http,
  ns,
  sts,
  uniq,
  type KapiProcess,
  type Obj,
} from './helpers.js';

let k: KapiProcess;
let NSA: string;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('err');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

afterEach(async () => {
  await expectAlive(k);
});

const stsNames = async (): Promise<string[]> => ((await http(k, 'GET', STS(NSA))).json as Obj).items.map((i: Obj) => i.metadata.name);

/** Runs a bad request and checks that the namespace's statefulsets did not change. */
async function noWrite<T>(fn: () => Promise<T>): Promise<T> {
  const before = await stsNames();
  const out = await fn();
  expect(await stsNames()).toStrictEqual(before);
  return out;
}

const GENERIC_404 = { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} };
const GENERIC_405 = { code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', details: {} };

describe('unknown paths', () => {
  it('/api/v1/things (an unknown resource of a served version) is 404 with the generic NotFound Status', async () => {
    const r = await http(k, 'GET', '/api/v1/things');
    expectFailure(r, GENERIC_404);
    expect(r.headers.get('content-type')).toBe('application/json');
    expectFailure(await http(k, 'GET', '/apis/apps/v1/things'), GENERIC_404);
    expectFailure(await http(k, 'GET', '/apis/apps/v1/namespaces/default/things/x'), GENERIC_404);
  });

  // Outside the API web services kube's mux answers Go's plain-text "404 page not found";
  // inside a served group-version the 404 is the generic NotFound Status.
  it("/foo (no handler at all) is the mux's plain-text 404, as kube's", async () => {
    const r = await http(k, 'GET', '/foo');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe('404 page not found\n');
  });

  it('/apis/nope/v1/things (an unknown group) is the plain-text 404 too; an unknown version of a served group is the Status', async () => {
    const r = await http(k, 'GET', '/apis/nope/v1/things');
    expect(r.status).toBe(404);
    expect(r.text).toBe('404 page not found\n');
    expectFailure(await http(k, 'GET', '/apis/apps/v9/things'), GENERIC_404);
  });

  it('a namespaced path for a cluster-scoped type is 404', async () => {
    const r = await http(k, 'GET', '/apis/scheduling.k8s.io/v1/namespaces/default/priorityclasses');
    expect(r.status).toBe(404);
  });
});

describe('methods a route does not serve', () => {
  it('POST to an object path is 405 MethodNotAllowed and creates nothing', async () => {
    const name = uniq('post');
    await noWrite(async () => {
      expectFailure(await http(k, 'POST', STS(NSA, name), sts(name)), GENERIC_405);
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('PUT to a collection path is 405 MethodNotAllowed', async () => {
    await noWrite(async () => {
      expectFailure(await http(k, 'PUT', STS(NSA), sts('x')), GENERIC_405);
    });
  });

  it('DELETE on the namespaces collection (namespaces have no deletecollection) is 405 and deletes nothing', async () => {
    expectFailure(await http(k, 'DELETE', NS()), GENERIC_405);
    expectCode(await http(k, 'GET', NS(NSA)), 200);
    expectCode(await http(k, 'GET', NS('default')), 200);
  });
});

describe('request bodies', () => {
  it('malformed JSON is 400 BadRequest', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), '{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{bad');
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 });
    });
  });

  it('a wrongly typed field is 400 "cannot be handled as a StatefulSet"', async () => {
    const body = sts(uniq('typed'));
    body.spec.replicas = 'three';
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), body);
      expect(r.status, r.text).toBe(400);
      const s = r.json as Obj;
      expect(s).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
      expect(s.message.startsWith('StatefulSet in version "v1" cannot be handled as a StatefulSet: ')).toBe(true);
    });
  });

  it('a body of another kind is 400 "PodDisruptionBudget in version "v1" cannot be handled as a StatefulSet"', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: uniq('kind') },
        spec: { minAvailable: 1 },
      });
      expect(r.status, r.text).toBe(400);
      const s = r.json as Obj;
      expect(s.reason).toBe('BadRequest');
      expect(s.message.startsWith('PodDisruptionBudget in version "v1" cannot be handled as a StatefulSet: ')).toBe(true);
    });
  });

  it('a body without apiVersion and kind takes them from the URL', async () => {
    const body = sts(uniq('nokind'));
    delete body.apiVersion;
    delete body.kind;
    const o = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(o.kind).toBe('StatefulSet');
    expect(o.apiVersion).toBe('apps/v1');
  });

  it('a body over 3 MiB is 413 RequestEntityTooLarge', async () => {
    const body = sts(uniq('huge'));
    body.metadata.annotations = { 'example.com/blob': 'x'.repeat(3 * 1024 * 1024 + 10) };
    await noWrite(async () => {
      expectFailure(await http(k, 'POST', STS(NSA), body), {
        code: 413,
        reason: 'RequestEntityTooLarge',
        message: 'Request entity too large: limit is 3145728',
      });
    });
  });

  it('an empty body is 400', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), '');
      expect(r.status).toBe(400);
      expect((r.json as Obj).reason).toBe('BadRequest');
    });
  });

  it('JSON nested 10,001 levels deep is 400 and does not crash the server', async () => {
    const name = uniq('deep');
    const depth = 10_001 - 2; // the object and spec count as two levels
    const text = `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"${name}"},"spec":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), text);
      expect(r.status).toBe(400);
      expect((r.json as Obj).reason).toBe('BadRequest');
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('JSON nested 100,000 levels deep is 400 too', async () => {
    const n = 100_000;
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), `{"a":${'['.repeat(n)}${']'.repeat(n)}}`);
      expect(r.status).toBe(400);
    });
  });

  it('YAML nested 10,001 levels deep is 400 and does not crash the server', async () => {
    const n = 10_001;
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), `apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: deepyaml\nspec:\n  x: ${'['.repeat(n)}${']'.repeat(n)}\n`, {
        'content-type': 'application/yaml',
      });
      expect(r.status).toBe(400);
    });
  });

  it('a YAML body (application/yaml) creates the object', async () => {
    const name = uniq('yaml');
    const yaml = [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata:',
      `  name: ${name}`,
      'spec:',
      '  replicas: 2',
      `  serviceName: ${name}`,
      '  selector:',
      '    matchLabels: {app: yml}',
      '  template:',
      '    metadata:',
      '      labels: {app: yml}',
      '    spec:',
      '      containers:',
      '      - name: c',
      '        image: busybox',
      '',
    ].join('\n');
    const o = expectCode(await http(k, 'POST', STS(NSA), yaml, { 'content-type': 'application/yaml' }), 201);
    expect(o.metadata.name).toBe(name);
    expect(o.spec.replicas).toBe(2);
    expect(o.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
  });

  it('an unknown field is accepted with a Warning header (fieldValidation defaults to Warn)', async () => {
    const body = sts(uniq('warn'));
    body.spec.foo = 1;
    const r = await http(k, 'POST', STS(NSA), body);
    const o = expectCode(r, 201);
    expect(o.spec.foo).toBeUndefined();
    expect(r.headers.get('warning')).toBe('299 - "unknown field \\"spec.foo\\""');
  });

  it('fieldValidation=Strict rejects an unknown field with 400', async () => {
    const body = sts(uniq('strict'));
    body.spec.foo = 1;
    await noWrite(async () => {
      expectFailure(await http(k, 'POST', `${STS(NSA)}?fieldValidation=Strict`, body), {
        code: 400,
        reason: 'BadRequest',
        message: 'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.foo"',
      });
    });
  });
});

describe('JSON bodies the native parser would misread', () => {
  // Bodies that JSON.parse accepts but kube's decoder sees differently: the fast path must
  // hand them to the Go-faithful scanner.
  const raw = (name: string, specExtra: string, metaExtra = '') =>
    `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"${name}"${metaExtra}},"spec":{"selector":{"matchLabels":{"app":"x"}},` +
    `"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}${specExtra}}}`;

  it('a repeated key warns with its path, and the last value wins', async () => {
    const name = uniq('dup');
    const r = await http(k, 'POST', STS(NSA), raw(name, ',"replicas":2,"replicas":3'), { 'content-type': 'application/json' });
    const o = expectCode(r, 201);
    expect(o.spec.replicas).toBe(3);
    expect(r.headers.get('warning')).toBe('299 - "duplicate field \\"spec.replicas\\""');
  });

  it('a repeated key is refused with fieldValidation=Strict', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', `${STS(NSA)}?fieldValidation=Strict`, raw(uniq('dup'), ',"replicas":2', ',"labels":{"a":"1","a":"2"}'), {
        'content-type': 'application/json',
      });
      expectFailure(r, {
        code: 400,
        reason: 'BadRequest',
        message: 'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: duplicate field "metadata.labels.a"',
      });
    });
  });

  it('2.0 and 1e1 where an int32 goes are type errors, as in Go', async () => {
    for (const lit of ['2.0', '1e1']) {
      await noWrite(async () => {
        const r = await http(k, 'POST', STS(NSA), raw(uniq('num'), `,"replicas":${lit}`), { 'content-type': 'application/json' });
        expectFailure(r, {
          code: 400,
          reason: 'BadRequest',
          message: `StatefulSet in version "v1" cannot be handled as a StatefulSet: json: cannot unmarshal number ${lit} into Go struct field StatefulSetSpec.spec.replicas of type int32`,
        });
      });
    }
  });

  it('an int32 beyond 2^53 is an overflow, not a rounded number', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), raw(uniq('big'), ',"replicas":90071992547409930'), { 'content-type': 'application/json' });
      expectFailure(r, {
        code: 400,
        reason: 'BadRequest',
        message:
          'StatefulSet in version "v1" cannot be handled as a StatefulSet: json: cannot unmarshal number 90071992547409930 into Go struct field StatefulSetSpec.spec.replicas of type int32',
      });
    });
  });

  it('a lone surrogate escape becomes U+FFFD as Go decodes it', async () => {
    const name = uniq('esc');
    const r = await http(k, 'POST', STS(NSA), raw(name, '', ',"annotations":{"a":"x\\ud800y"}'), { 'content-type': 'application/json' });
    const o = expectCode(r, 201);
    expect(o.metadata.annotations.a).toBe('x\ufffdy');
  });
});

describe('media types', () => {
  it('Content-Type text/plain is 415 UnsupportedMediaType', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), JSON.stringify(sts(uniq('plain'))), { 'content-type': 'text/plain' });
      expectFailure(r, {
        code: 415,
        reason: 'UnsupportedMediaType',
        message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      });
    });
  });

  it('Accept text/plain is 406 NotAcceptable with a JSON body: the route refuses it (go-restful\'s text)', async () => {
    const r = await http(k, 'GET', STS(NSA), undefined, { accept: 'text/plain' });
    expectFailure(r, {
      code: 406,
      reason: 'NotAcceptable',
      message:
        '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
      details: {},
    });
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('an Accept the route takes but no serializer can meet is the negotiation\'s 406', async () => {
    const r = await http(k, 'GET', STS(NSA), undefined, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v2' });
    expectFailure(r, {
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
  });

  it('Accept is checked before Content-Type: both wrong is 406', async () => {
    await noWrite(async () => {
      const r = await http(k, 'POST', STS(NSA), 'x', { accept: 'text/plain', 'content-type': 'text/plain' });
      expect(r.status).toBe(406);
    });
  });

  it('Accept application/yaml answers YAML', async () => {
    const r = await http(k, 'GET', PC('system-node-critical'), undefined, { accept: 'application/yaml' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/yaml');
    expect(r.text).toContain('kind: PriorityClass');
    expect(r.text).toContain('value: 2000001000');
  });
});

describe('request options', () => {
  it('an invalid dryRun value is 422 on CreateOptions and writes nothing', async () => {
    const name = uniq('dry');
    await noWrite(async () => {
      expectFailure(await http(k, 'POST', `${STS(NSA)}?dryRun=foo`, sts(name)), {
        code: 422,
        reason: 'Invalid',
        message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"foo"}: supported values: "All"',
        details: {
          group: 'meta.k8s.io',
          kind: 'CreateOptions',
          causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"foo"}: supported values: "All"', field: 'dryRun' }],
        },
      });
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('dryRun=All answers 201 with the object that would be stored, and stores nothing', async () => {
    const name = uniq('dryall');
    await noWrite(async () => {
      const o = expectCode(await http(k, 'POST', `${STS(NSA)}?dryRun=All`, sts(name)), 201);
      expect(o.metadata.name).toBe(name);
      expect(o.metadata.uid).toBeTruthy();
      expect(o.spec.replicas).toBe(1);
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 404);
  });

  it('an invalid fieldValidation value is 422 on CreateOptions', async () => {
    await noWrite(async () => {
      expectFailure(await http(k, 'POST', `${STS(NSA)}?fieldValidation=Loud`, sts(uniq('fv'))), {
        code: 422,
        reason: 'Invalid',
        message: 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
        details: {
          group: 'meta.k8s.io',
          kind: 'CreateOptions',
          causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"', field: 'fieldValidation' }],
        },
      });
    });
  });

  it('an invalid propagationPolicy on DELETE is 422 on DeleteOptions and deletes nothing', async () => {
    const name = uniq('prop');
    expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    expectFailure(await http(k, 'DELETE', `${STS(NSA, name)}?propagationPolicy=Sideways`), {
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
      details: {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"', field: 'propagationPolicy' }],
      },
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 200);
  });

  it('a DELETE with a stale uid precondition is 409 (checked before deleting) and deletes nothing', async () => {
    const name = uniq('pre');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const r = await http(k, 'DELETE', STS(NSA, name), { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } });
    // rest.BeforeDelete names the kind, not the resource, in this Conflict.
    expectFailure(r, {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on StatefulSet.apps "${name}": the UID in the precondition (not-the-uid) does not match the UID in record (${o.metadata.uid}). The object might have been deleted and then recreated`,
      details: { name, group: 'apps', kind: 'StatefulSet' },
    });
    expectCode(await http(k, 'GET', STS(NSA, name)), 200);
  });
});
