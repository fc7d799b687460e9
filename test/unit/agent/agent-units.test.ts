// The node agent's pure parts: the certificates its nodes authenticate with, its flags, the
// pod phase and conditions kubelet would compute, pod addresses, and image references.

import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createCA } from '../../../src/auth/pki/certs.js';
import { nodeCredentials } from '../../../src/server/node-credentials.js';
import { parseAgentFlags, parseTaint } from '../../../src/agent/flags.js';
import { PodCIDR } from '../../../src/agent/pod-cidr.js';
import { imageID, normalizeImage } from '../../../src/agent/runtime-ids.js';
import { kubeletConditions, podPhase, type PodRuntime, type SimContainer } from '../../../src/agent/pod-status.js';

const log = pino({ level: 'silent' });

describe('node credentials', () => {
  it('issues each node a client certificate from the CA: system:node:<name> in system:nodes', async () => {
    const ca = await createCA();
    const creds = nodeCredentials({ server: 'https://127.0.0.1:6443', token: 'admin-token' }, ca, log);
    const c = await creds('worker-7');
    expect(c.token).toBeUndefined();
    const cert = new X509Certificate(c.clientCert!);
    expect(cert.subject.split('\n').sort()).toEqual(['CN=system:node:worker-7', 'O=system:nodes']);
    expect(cert.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
  });

  it('falls back to the kubeconfig\'s credentials without the CA key', async () => {
    const base = { server: 'https://127.0.0.1:6443', token: 't' };
    expect(await nodeCredentials(base, undefined, log)('n')).toBe(base);
  });
});

describe('agent flags', () => {
  it('reads kubelet-named flags over the defaults', () => {
    const f = parseAgentFlags(['--kubeconfig', 'k', '--nodes', '2', '--pod-start-delay', '250ms', '--max-pods', '20', '--register-with-taints', 'a=b:NoSchedule,c:NoExecute', '--node-labels', 'x=y']);
    expect(f).not.toBe('help');
    if (f === 'help') return;
    expect(f.options.nodeNames).toEqual(['worker-1', 'worker-2']);
    expect(f.options.podStartDelayMs).toBe(250);
    expect(f.options.capacity.pods).toBe('20');
    expect(f.options.taints).toEqual([{ key: 'a', value: 'b', effect: 'NoSchedule' }, { key: 'c', effect: 'NoExecute' }]);
    expect(f.options.labels).toEqual({ x: 'y' });
    expect(f.options.nodeLeaseDurationSeconds).toBe(40);
    expect(f.options.nodeStatusUpdateFrequencyMs).toBe(10_000);
  });

  it('refuses what it cannot read', () => {
    expect(() => parseAgentFlags(['--nodes', '1'])).toThrow('--kubeconfig is required');
    expect(() => parseAgentFlags(['--kubeconfig', 'k', '--nodes', '0'])).toThrow('--nodes must be an integer >= 1');
    expect(() => parseAgentFlags(['--kubeconfig', 'k', '--node-names', 'a,a'])).toThrow('node names must be unique');
    expect(() => parseTaint('a=b')).toThrow('invalid taint "a=b": want key=value:Effect');
  });
});

describe('pod addresses', () => {
  it('hands out a /24 from .2, never the network, gateway or broadcast address, reusing released ones last', () => {
    const c = new PodCIDR('10.244.3.0/24');
    expect(c.allocate()).toBe('10.244.3.2');
    expect(c.allocate()).toBe('10.244.3.3');
    c.release('10.244.3.2');
    expect(c.allocate()).toBe('10.244.3.4');
    const all = new Set<string>();
    for (let ip = c.allocate(); ip; ip = c.allocate()) all.add(ip);
    expect(all.has('10.244.3.255')).toBe(false);
    expect(all.has('10.244.3.1')).toBe(false);
    expect(all.has('10.244.3.2')).toBe(true);
    // .2 to .254, less the two still held.
    expect(all.size).toBe(251);
  });
});

describe('images', () => {
  it('normalizes references as containerd reports them', () => {
    expect(normalizeImage('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('registry.k8s.io/pause:3.10')).toBe('registry.k8s.io/pause:3.10');
    expect(normalizeImage('me/app:1')).toBe('docker.io/me/app:1');
    expect(imageID('nginx:1.27')).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    const pinned = 'busybox@sha256:' + 'a'.repeat(64);
    expect(imageID(pinned)).toBe('docker.io/library/busybox@sha256:' + 'a'.repeat(64));
  });
});

describe('pod status', () => {
  const c = (over: Partial<SimContainer>): SimContainer => ({
    name: 'app', specImage: 'x', image: 'x', imageID: '', containerID: '', run: { kind: 'waiting', reason: 'ContainerCreating' },
    restartCount: 0, ready: false, started: false, sidecar: false, created: false, volumeMounts: [], ...over,
  });
  const pod = { spec: { containers: [{ name: 'app' }], initContainers: [{ name: 'init' }] } };

  it('is Pending with Initialized False while an init container runs', () => {
    const rt: PodRuntime = { sandboxReady: true, terminal: false, init: [c({ name: 'init', run: { kind: 'running', startedAt: 't' } })], containers: [c({})] };
    expect(podPhase(pod, rt)).toBe('Pending');
    const conds = kubeletConditions(pod, rt, 'Pending', []);
    expect(conds.map((x) => x.type)).toEqual(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    expect(conds[1]).toEqual({ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [init]' });
  });

  it('is Running and Ready once the init container completed and the container is ready', () => {
    const done = { kind: 'terminated' as const, exitCode: 0, reason: 'Completed', startedAt: 't', finishedAt: 't', containerID: 'c' };
    const rt: PodRuntime = { sandboxReady: true, terminal: false, init: [c({ name: 'init', run: done })], containers: [c({ run: { kind: 'running', startedAt: 't' }, ready: true, started: true })] };
    expect(podPhase(pod, rt)).toBe('Running');
    expect(kubeletConditions(pod, rt, 'Running', []).map((x) => x.status)).toEqual(['True', 'True', 'True', 'True', 'True']);
  });

  it('is Failed when a container exits non-zero under restartPolicy Never', () => {
    const failed = { kind: 'terminated' as const, exitCode: 1, reason: 'Error', startedAt: 't', finishedAt: 't', containerID: 'c' };
    const p = { spec: { restartPolicy: 'Never', containers: [{ name: 'app' }] } };
    const rt: PodRuntime = { sandboxReady: false, terminal: true, init: [], containers: [c({ run: failed })] };
    expect(podPhase(p, rt)).toBe('Failed');
    expect(kubeletConditions(p, rt, 'Failed', [])[3]).toEqual({ type: 'ContainersReady', status: 'False', reason: 'PodFailed' });
  });
});
