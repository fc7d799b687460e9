// `kapi agent` as its own process against a server, with node certificates from the cluster CA;
// stopping it makes its node NotReady (Unknown) after the grace period, with the unreachable
// taints and its pods' Ready condition False, while the server's own simulated node stays
// Ready. And `--simulate-nodes 0`: no nodes, and pods nobody touches.

import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, removeDir, startKapi } from '../../support/server.js';
import { eventually, expectCode, http, json, sleep, uniq, type KapiProcess, type Obj } from '../http/helpers.js';

const CLI = resolve(import.meta.dirname, '..', '..', '..', 'dist', 'src', 'cli.js');
// Short node timing on both sides, so that a stopped agent shows within seconds.
const TIMING = ['--node-lease-duration-seconds', '4', '--node-status-update-frequency', '1s', '--pod-start-delay', '200ms'];

const cond = (o: Obj, type: string): Obj | undefined => o.status?.conditions?.find((c: Obj) => c.type === type);

async function get(k: KapiProcess, path: string): Promise<Obj | undefined> {
  const r = await http(k, 'GET', path);
  return r.status === 200 ? json(r) : undefined;
}

function startAgent(k: KapiProcess, args: string[]): Promise<{ proc: ChildProcess; logs: () => string }> {
  const proc = spawn(process.execPath, [CLI, 'agent', '--kubeconfig', k.kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`kapi agent did not start:\n${out}`)), 30_000);
    const check = (): void => {
      if (!out.includes('"kapi agent ready"')) return;
      clearTimeout(timer);
      res({ proc, logs: () => out });
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`kapi agent exited with ${code}:\n${out}`));
    });
  });
}

describe('kapi agent, a separate process', () => {
  let k: KapiProcess;
  let agent: { proc: ChildProcess; logs: () => string } | undefined;

  beforeAll(async () => {
    k = await startKapi({ args: ['--controllers', '*', '--scheduler', '--simulate-nodes', '1', '--node-monitor-grace-period', '5s', '--node-monitor-period', '1s', ...TIMING] });
    agent = await startAgent(k, ['--cert-dir', join(k.dataDir, 'pki'), '--nodes', '1', '--node-name-prefix', 'worker-', '--node-labels', 'pool=agents', ...TIMING]);
  }, 60_000);

  afterAll(async () => {
    if (agent && agent.proc.exitCode === null) {
      agent.proc.kill('SIGKILL');
      await new Promise((r) => agent!.proc.once('exit', r));
    }
    await k?.stop();
    if (k) await removeDir(k.dataDir);
  });

  it('refuses bad flags with a usage message', async () => {
    const proc = spawn(process.execPath, [CLI, 'agent', '--nodes', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((r) => proc.once('exit', r));
    expect(code).toBe(2);
    expect(err).toContain('Error: --kubeconfig is required');
    expect(err).toContain('Usage: kapi agent --kubeconfig FILE [flags]');
  });

  it('registers its node beside the server\'s own, and runs the pods bound to it', async () => {
    await eventually('worker-1 Ready', async () => cond((await get(k, '/api/v1/nodes/worker-1')) ?? {}, 'Ready')?.status === 'True', 20_000);
    const out = await kubectl(k, ['get', 'nodes', '-l', 'pool=agents']);
    expect(out.stdout).toMatch(/^worker-1\s+Ready\s/m);
    expect(out.stdout).not.toContain('node-1');
    const name = uniq('on-agent');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeSelector: { pool: 'agents' }, containers: [{ name: 'c', image: 'busybox' }] } };
    expectCode(await http(k, 'POST', '/api/v1/namespaces/default/pods', pod), 201);
    await eventually('the pod Ready on worker-1', async () => {
      const p = await get(k, `/api/v1/namespaces/default/pods/${name}`);
      return p?.spec.nodeName === 'worker-1' && cond(p, 'Ready')?.status === 'True';
    }, 20_000);
    // The node's writes carry the kubelet's field manager.
    const node = (await get(k, '/api/v1/nodes/worker-1'))!;
    expect(node.metadata.managedFields.map((m: Obj) => m.manager)).toContain('kubelet');
  }, 40_000);

  it('makes the node NotReady (Unknown) after the grace period once the agent stops, taints it and marks its pods not ready', async () => {
    const pods = (await get(k, '/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName=worker-1'))!.items as Obj[];
    expect(pods.length).toBeGreaterThan(0);
    const stopped = Date.now();
    agent!.proc.kill('SIGTERM');
    await new Promise((r) => agent!.proc.once('exit', r));
    let node: Obj | undefined;
    await eventually('worker-1 Unknown', async () => {
      node = await get(k, '/api/v1/nodes/worker-1');
      return cond(node!, 'Ready')?.status === 'Unknown';
    }, 30_000, 250);
    // Not before the grace period (5 s) since the last heartbeat.
    expect(Date.now() - stopped).toBeGreaterThanOrEqual(3000);
    expect(cond(node!, 'Ready')).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    for (const t of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) expect(cond(node!, t)?.status).toBe('Unknown');
    await eventually('the unreachable taints', async () => {
      const taints = ((await get(k, '/api/v1/nodes/worker-1'))!.spec.taints ?? []) as Obj[];
      const has = (e: string) => taints.some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === e);
      return has('NoSchedule') && has('NoExecute');
    }, 20_000);
    const out = await kubectl(k, ['get', 'node', 'worker-1']);
    expect(out.stdout).toMatch(/^worker-1\s+NotReady\s/m);
    await eventually('its pods not ready', async () => {
      const now = (await get(k, '/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName=worker-1'))!.items as Obj[];
      return now.every((p) => cond(p, 'Ready')?.status === 'False');
    }, 20_000);
    // The server's own node is still Ready and untainted.
    const own = (await get(k, '/api/v1/nodes/node-1'))!;
    expect(cond(own, 'Ready')?.status).toBe('True');
    expect(own.spec.taints ?? []).toEqual([]);
    const evs = (await get(k, '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=worker-1'))!.items as Obj[];
    expect(evs.map((e) => e.reason)).toContain('NodeNotReady');
  }, 60_000);
});

describe('--simulate-nodes 0', () => {
  let k: KapiProcess;
  beforeAll(async () => {
    // What `kapi serve --simulate-nodes 0` runs: every controller and the scheduler, no node.
    k = await startKapi({ args: ['--controllers', '*', '--scheduler', '--simulate-nodes', '0'] });
  }, 60_000);
  afterAll(async () => {
    await k?.stop();
    if (k) await removeDir(k.dataDir);
  });

  it('runs no node, and a pod stays as created (no node to schedule to, nothing written)', async () => {
    expect((await get(k, '/api/v1/nodes'))!.items).toEqual([]);
    const name = uniq('alone');
    const created = expectCode(await http(k, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }), 201);
    await sleep(1500);
    const p = (await get(k, `/api/v1/namespaces/default/pods/${name}`))!;
    expect(p.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });
});
