// The official Kubernetes Python client (Debian's python3-kubernetes, which scripts/test.sh
// installs) against kapi, configured only by a kubeconfig: the admin's (TLS with the server's
// CA and the admin's client certificate), and a service account's bearer token. test/clients/python/client_check.py lists, creates,
// patches, watches and deletes, and prints what it saw.

import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../support/server.js';
import { serviceAccountKubeconfig } from '../support/service-account.js';

// Debian's interpreter, where python3-kubernetes installs (a python3 earlier on PATH, e.g.
// pyenv's, does not see Debian's packages).
const PYTHON = process.env.KAPI_TEST_PYTHON ?? '/usr/bin/python3';
const SCRIPT = resolve(import.meta.dirname, 'python', 'client_check.py');

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

function runPython(kubeconfig: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(PYTHON, [SCRIPT, kubeconfig], { timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolvePromise({ code, stdout: String(stdout), stderr: String(stderr) + (err && code === -1 ? err.message : '') });
    });
  });
}

it.each([
  ['the admin kubeconfig\'s TLS credentials', () => Promise.resolve(k.kubeconfig)],
  ['a service account token', async () => (await serviceAccountKubeconfig(k, 'python-client', 'kube-system')).kubeconfig],
])('lists, creates, patches, watches and deletes through %s', async (_what, kubeconfig) => {
  const r = await runPython(await kubeconfig());
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    namespaces: string[];
    namespace: { name: string; phase: string; uid: boolean };
    created: { rv: string; generation: number; replicas: number };
    patched: { rv: string; generation: number; replicas: number };
    got: { rv: string; replicas: number; image: string };
    events: { type: string; name: string; replicas: number; rv: string }[];
    afterDelete: number;
    afterDeleteReason: string;
    namespaceAfterDelete: string | number;
  };
  expect(out.namespaces).toEqual(expect.arrayContaining(['default', 'kube-node-lease', 'kube-public', 'kube-system']));
  expect(out.namespace).toMatchObject({ phase: 'Active', uid: true });
  expect(out.created).toMatchObject({ generation: 1, replicas: 1 });
  expect(out.patched).toMatchObject({ generation: 2, replicas: 3 });
  expect(out.got).toStrictEqual({ rv: out.patched.rv, replicas: 3, image: 'nginx:1.27' });
  expect(out.events.map((e) => [e.type, e.name, e.replicas])).toStrictEqual([
    ['ADDED', 'web', 1],
    ['MODIFIED', 'web', 3],
    ['DELETED', 'web', 3],
  ]);
  expect(out.events[0].rv).toBe(out.created.rv);
  expect(out.events[1].rv).toBe(out.patched.rv);
  expect(Number(out.events[2].rv)).toBeGreaterThan(Number(out.patched.rv));
  expect([out.afterDelete, out.afterDeleteReason]).toStrictEqual([404, 'NotFound']);
  expect(['Terminating', 404]).toContain(out.namespaceAfterDelete);
});
