// kubectl 1.33 patch (json, merge, strategic), delete --cascade (orphan, foreground,
// background) and edit (through an EDITOR script; kubectl edit sends a strategic merge patch).

import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { boundKubectl, expectOut, stsNamed, tempDir, writeManifest, type Kubectl } from './helpers.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const STS = (name: string) => `/apis/apps/v1/namespaces/default/statefulsets/${name}`;

let k: KapiProcess;
let kc: Kubectl;
let dir: string;

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
  dir = await tempDir();
});

afterAll(() => stopKapi(k));

async function create(name: string): Promise<void> {
  const file = await writeManifest(dir, `${name}.yaml`, stsNamed(name, `app: ${name}`));
  expectOut(await kc(['create', '-f', file]), `statefulset.apps/${name} created\n`);
}

async function get(name: string): Promise<{ status: number; obj: Obj }> {
  const r = await http(k, 'GET', STS(name));
  return { status: r.status, obj: r.json as Obj };
}

describe('kubectl patch', () => {
  it('--type=json applies ops in order; a failing test op fails the whole patch', async () => {
    await create('pj');
    const ops = '[{"op":"replace","path":"/spec/replicas","value":4},{"op":"test","path":"/spec/replicas","value":4},{"op":"add","path":"/metadata/labels/tier","value":"db"}]';
    expectOut(await kc(['patch', 'sts', 'pj', '--type=json', '-p', ops]), 'statefulset.apps/pj patched\n');
    const o = (await get('pj')).obj;
    expect(o.spec.replicas).toBe(4);
    expect(o.metadata.labels.tier).toBe('db');
    const bad = await kc(['patch', 'sts', 'pj', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":9},{"op":"test","path":"/spec/replicas","value":4}]']);
    expect(bad.code).toBe(1);
    // What kubectl prints against kube-apiserver too: the generic 422 keeps the library's reason to itself.
    expect(bad.stderr).toBe('The request is invalid: the server rejected our request due to an error in our request\n');
    expect((await get('pj')).obj.spec.replicas).toBe(4);
  });

  it('--type=merge and --type=strategic (the default); a patch that changes nothing says so', async () => {
    await create('ps');
    expectOut(await kc(['patch', 'sts', 'ps', '--type=merge', '-p', '{"spec":{"minReadySeconds":3}}']), 'statefulset.apps/ps patched\n');
    const smp = '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"MODE","value":"x"}]}]}}}}';
    expectOut(await kc(['patch', 'sts', 'ps', '-p', smp]), 'statefulset.apps/ps patched\n');
    expectOut(await kc(['patch', 'sts', 'ps', '--type=strategic', '-p', smp]), 'statefulset.apps/ps patched (no change)\n');
    const o = (await get('ps')).obj;
    expect(o.spec.minReadySeconds).toBe(3);
    const [c] = o.spec.template.spec.containers;
    expect(c.image).toBe('registry.k8s.io/nginx-slim:0.8');
    expect(c.ports).toEqual([{ containerPort: 80, name: 'web', protocol: 'TCP' }]);
    expect(c.env).toEqual([{ name: 'MODE', value: 'x' }]);
  });
});

describe('kubectl delete --cascade', () => {
  it('orphan leaves the object marked with the orphan finalizer', async () => {
    await create('co');
    expectOut(await kc(['delete', 'sts', 'co', '--cascade=orphan', '--wait=false']), 'statefulset.apps "co" deleted\n');
    const { status, obj } = await get('co');
    expect(status).toBe(200);
    expect(obj.metadata.finalizers).toEqual(['orphan']);
    expect(obj.metadata.deletionTimestamp).toBeTruthy();
  });

  it('foreground leaves the foregroundDeletion finalizer; background removes at once', async () => {
    await create('cf');
    expectOut(await kc(['delete', 'sts', 'cf', '--cascade=foreground', '--wait=false']), 'statefulset.apps "cf" deleted\n');
    expect((await get('cf')).obj.metadata.finalizers).toEqual(['foregroundDeletion']);
    // Releasing the finalizer completes the deletion.
    expectOut(await kc(['patch', 'sts', 'cf', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']), 'statefulset.apps/cf patched\n');
    expect((await get('cf')).status).toBe(404);
    await create('cb');
    expectOut(await kc(['delete', 'sts', 'cb', '--cascade=background']), 'statefulset.apps "cb" deleted\n');
    expect((await get('cb')).status).toBe(404);
  });
});

describe('kubectl edit', () => {
  it('applies what the EDITOR changed', async () => {
    await create('ed');
    const script = join(dir, 'editor.sh');
    await writeFile(script, '#!/bin/sh\nsed -i -e "s/replicas: 3/replicas: 5/" -e "s/image: registry.k8s.io\\/nginx-slim:0.8/image: nginx:1.27/" "$1"\n');
    await chmod(script, 0o755);
    const saved = { EDITOR: process.env.EDITOR, KUBE_EDITOR: process.env.KUBE_EDITOR };
    process.env.EDITOR = script;
    delete process.env.KUBE_EDITOR;
    try {
      expectOut(await kc(['edit', 'sts', 'ed']), 'statefulset.apps/ed edited\n');
    } finally {
      for (const [key, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[key];
        else process.env[key] = v;
      }
    }
    const o = (await get('ed')).obj;
    expect(o.spec.replicas).toBe(5);
    expect(o.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(o.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80, name: 'web', protocol: 'TCP' }]);
  });
});
