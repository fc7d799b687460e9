// The ServiceAccount admission plugin's API access volume end to end, with kubectl and the
// simulated nodes: `kubectl run` makes a pod with the `kube-api-access-*` projected volume
// and its read-only mount (as `kubectl get -o yaml` and `describe` show it on kube), a
// StatefulSet's pods get it too, and the node running a pod asks for the pod's token as
// kubelet does (a TokenRequest for the pod's account bound to the pod, by the node's own
// identity, through the Node authorizer and NodeRestriction); a token it cannot get is
// kubelet's FailedMount event, and the pod waits in ContainerCreating until it can.

import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, removeDir, startKapi } from '../../support/server.js';
import { STS, eventually, expectCode, http, json, sts, type KapiProcess, type Obj } from '../http/helpers.js';
import { podUntil } from './helpers.js';

const NSX = 'tokens';
const PODS = (name = ''): string => `/api/v1/namespaces/${NSX}/pods${name ? `/${name}` : ''}`;
const SAS = (name = ''): string => `/api/v1/namespaces/${NSX}/serviceaccounts${name ? `/${name}` : ''}`;
const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_NAME = /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/** The volume kube's plugin adds, under its random name. */
const apiAccessVolume = (name: string): Obj => ({
  name,
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  },
});

interface AuditLine {
  stage: string;
  verb: string;
  user: { username: string };
  objectRef?: { resource?: string; subresource?: string; name?: string; namespace?: string };
  responseStatus?: { code: number };
  requestObject?: Obj;
  responseObject?: Obj;
}

let k: KapiProcess;
let auditPath: string;

/** The token requests the audit log holds so far (their completed answers). */
function tokenRequests(): AuditLine[] {
  if (!existsSync(auditPath)) return [];
  return readFileSync(auditPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as AuditLine)
    .filter((e) => e.stage === 'ResponseComplete' && e.objectRef?.subresource === 'token');
}

beforeAll(async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-test-'));
  auditPath = join(dataDir, 'audit.log');
  const policy = join(dataDir, 'audit-policy.yaml');
  writeFileSync(
    policy,
    ['apiVersion: audit.k8s.io/v1', 'kind: Policy', 'omitStages: [RequestReceived]', 'rules:', '- level: RequestResponse', '  resources:', '  - group: ""', '    resources: ["serviceaccounts/token"]', '- level: None', ''].join('\n'),
  );
  // A start delay long enough to take a pod's account away before its node starts it.
  k = await startKapi({
    dataDir,
    args: ['--controllers', '*', '--scheduler', '--simulate-nodes', '1', '--pod-start-delay', '1500ms', '--audit-policy-file', policy, '--audit-log-path', auditPath],
  });
  expectCode(await http(k, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NSX } }), 201);
}, 60_000);

afterAll(async () => {
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('the API access volume, with kubectl and a simulated node', () => {
  it('kubectl run: the projected volume and its mount, as kubectl shows them on kube', async () => {
    const run = await kubectl(k, ['run', 'web', '-n', NSX, '--image=nginx:1.27']);
    expect(run.stderr).toBe('');
    const got = await kubectl(k, ['get', 'pod', 'web', '-n', NSX, '-o', 'yaml']);
    const pod = parseYaml(got.stdout) as Obj;
    const name = String(pod.spec.volumes[0]?.name);
    expect(name).toMatch(VOLUME_NAME);
    expect(pod.spec.volumes).toEqual([apiAccessVolume(name)]);
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ mountPath: MOUNT_PATH, name, readOnly: true }]);
    expect(pod.spec.serviceAccountName).toBe('default');
    // Admission's additions are nobody's fields: kubectl's manager owns what it sent.
    const mf = JSON.stringify(pod.metadata.managedFields ?? []);
    expect(mf).not.toContain('kube-api-access');

    const described = await kubectl(k, ['describe', 'pod', 'web', '-n', NSX]);
    expect(described.stdout).toContain(`${MOUNT_PATH} from ${name} (ro)`);
    expect(described.stdout).toMatch(new RegExp(`${name}:\\n\\s+Type:\\s+Projected \\(a volume that contains injected data from multiple sources\\)\\n\\s+TokenExpirationSeconds:\\s+3607\\n\\s+ConfigMapName:\\s+kube-root-ca.crt`));
  });

  it("the node asks for the pod's token, bound to the pod, as the node", async () => {
    const running = await podUntil(k, PODS('web'), 'Running', (p) => p.status?.phase === 'Running');
    const volume = String(running.spec.volumes[0].name);
    expect(running.status.containerStatuses[0].volumeMounts).toEqual([{ name: volume, mountPath: MOUNT_PATH, readOnly: true, recursiveReadOnly: 'Disabled' }]);
    const asked = tokenRequests().filter((e) => e.objectRef?.namespace === NSX && e.objectRef?.name === 'default');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    const req = asked[0];
    expect(req.user.username).toBe('system:node:node-1');
    expect(req.responseStatus?.code).toBe(201);
    expect(req.requestObject?.spec).toMatchObject({ expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: running.metadata.uid } });
    const claims = decodeJwt(String(req.responseObject?.status?.token)) as Obj;
    expect(claims.sub).toBe(`system:serviceaccount:${NSX}:default`);
    expect(claims['kubernetes.io']).toMatchObject({ namespace: NSX, pod: { name: 'web', uid: running.metadata.uid }, node: { name: 'node-1' } });
  });

  it("a StatefulSet's pods get the volume", async () => {
    const set = sts('db', { replicas: 1, namespace: NSX });
    expectCode(await http(k, 'POST', STS(NSX), set), 201);
    const pod = await podUntil(k, PODS('db-0'), 'created', () => true);
    const name = String(pod.spec.volumes.find((v: Obj) => String(v.name).startsWith('kube-api-access-'))?.name);
    expect(name).toMatch(VOLUME_NAME);
    expect(pod.spec.volumes).toContainEqual(apiAccessVolume(name));
    for (const c of pod.spec.containers) expect(c.volumeMounts).toContainEqual({ name, readOnly: true, mountPath: MOUNT_PATH });
    // The template itself is not admitted: only pods are.
    const stored = json(await http(k, 'GET', STS(NSX, 'db')));
    expect(JSON.stringify(stored.spec.template)).not.toContain('kube-api-access');
  });

  it('a token the node cannot get is a FailedMount event, and the pod waits for it', async () => {
    expectCode(await http(k, 'POST', SAS(), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fleeting' } }), 201);
    expectCode(await http(k, 'POST', PODS(), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan' }, spec: { serviceAccountName: 'fleeting', containers: [{ name: 'c', image: 'busybox' }] } }), 201);
    expectCode(await http(k, 'DELETE', SAS('fleeting')), 200);
    let failed: Obj | undefined;
    await eventually(
      'a FailedMount event',
      async () => {
        const evs = json(await http(k, 'GET', `/api/v1/namespaces/${NSX}/events?fieldSelector=involvedObject.name=orphan,reason=FailedMount`));
        failed = evs.items[0];
        return !!failed;
      },
      15_000,
    );
    expect(failed?.type).toBe('Warning');
    expect(failed?.source).toMatchObject({ component: 'kubelet', host: 'node-1' });
    expect(String(failed?.message)).toMatch(/^MountVolume\.SetUp failed for volume "kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}" : failed to fetch token: serviceaccounts "fleeting" not found$/);
    const waiting = json(await http(k, 'GET', PODS('orphan')));
    expect(waiting.status.phase).toBe('Pending');
    // The account back: the next try gets the token and the pod runs.
    expectCode(await http(k, 'POST', SAS(), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fleeting' } }), 201);
    await podUntil(k, PODS('orphan'), 'Running', (p) => p.status?.phase === 'Running', 20_000);
  });
});
