// kubectl against the schema layer: server-side field validation, explain, server dry run.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, kubectl, removeDir, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

const manifest = (name: string, extra = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ${name}
spec:
  serviceName: ${name}
  replicas: 2
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: c
        image: nginx:1.25
${extra}`;

describe('kubectl and the schemas', () => {
  let k: KapiProcess;
  let dir: string;
  beforeAll(async () => {
    k = await startKapi();
    dir = await mkdtemp(join(tmpdir(), 'kapi-kubectl-schema-'));
  });
  afterAll(async () => {
    await stopKapi(k);
    await removeDir(dir);
  });

  it('warns about an unknown field with --validate=warn and drops it', async () => {
    const file = join(dir, 'warn.yaml');
    await writeFile(file, manifest('warned', '  foo: bar\n'));
    const r = await kubectl(k, ['create', '-f', file, '--validate=warn']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('statefulset.apps/warned created\n');
    expect(r.stderr).toBe('Warning: unknown field "spec.foo"\n');
    const stored = (await http(k, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/warned')).json as { spec: Record<string, unknown> };
    expect(stored.spec.foo).toBeUndefined();
  });

  it('refuses the unknown field with --validate=strict (the default) and stores nothing', async () => {
    const file = join(dir, 'strict.yaml');
    await writeFile(file, manifest('strict', '  foo: bar\n'));
    for (const args of [['create', '-f', file, '--validate=strict'], ['create', '-f', file]]) {
      const r = await kubectl(k, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `Error from server (BadRequest): error when creating "${file}": StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.foo"\n`,
      );
    }
    expect((await http(k, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/strict')).status).toBe(404);
  });

  it('refuses a wrongly typed field whatever the validation level', async () => {
    const file = join(dir, 'typed.yaml');
    await writeFile(file, manifest('typed').replace('replicas: 2', 'replicas: two'));
    const r = await kubectl(k, ['create', '-f', file, '--validate=false']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32');
  });

  it('applies with --dry-run=server without storing anything', async () => {
    const file = join(dir, 'dry.yaml');
    await writeFile(file, manifest('dry'));
    const r = await kubectl(k, ['apply', '-f', file, '--dry-run=server']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('statefulset.apps/dry created (server dry run)\n');
    expect((await http(k, 'GET', '/apis/apps/v1/namespaces/default/statefulsets/dry')).status).toBe(404);
    const y = await kubectl(k, ['create', '-f', file, '--dry-run=server', '-o', 'jsonpath={.spec.updateStrategy.type}/{.spec.template.spec.restartPolicy}']);
    expect(y.stdout).toBe('RollingUpdate/Always');
  });

  it('explains statefulset.spec.updateStrategy from the published schema', async () => {
    const r = await kubectl(k, ['explain', 'statefulset.spec.updateStrategy']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^GROUP:\s+apps\nKIND:\s+StatefulSet\nVERSION:\s+v1\n\nFIELD: updateStrategy <StatefulSetUpdateStrategy>\n/);
    expect(r.stdout).toMatch(/FIELDS:\n\s+rollingUpdate\s+<RollingUpdateStatefulSetStrategy>\n[\s\S]*\n\s+type\s+<string>\n/);
    const enumLine = await kubectl(k, ['explain', 'statefulset.spec.updateStrategy.type']);
    expect(enumLine.stdout).toMatch(/ENUM:\n\s+OnDelete\n\s+RollingUpdate/);
  });

  it('explains the other served kinds', async () => {
    for (const res of ['pdb.spec', 'priorityclass.value', 'namespace.spec.finalizers', 'pod.spec.containers.ports', 'pvc.spec.accessModes']) {
      const r = await kubectl(k, ['explain', res]);
      expect({ res, code: r.code, stderr: r.stderr }).toEqual({ res, code: 0, stderr: '' });
      expect(r.stdout).toMatch(/DESCRIPTION:\n\s+\S/);
    }
  });
});
