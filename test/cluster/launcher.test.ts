// `kapi cluster` from the command line: one line when the whole cluster is ready, Ctrl-C
// stops every process it started, and a second start on the same directory resumes the same
// cluster with its data.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Cluster, freshRequest, trustKubeconfig } from '../support/cluster.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'src', 'cli.js');
const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
let dir = '';

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Ready {
  balancer: string;
  kubeconfig: string;
  nodes: { name: string; url: string; kubeconfig: string }[];
  simulatedNodes: { agent: string; nodes: string[] }[];
  etcd: string[];
}

function startCli(args: string[]): Promise<{ child: ChildProcess; ready: Ready; out: () => string }> {
  const child = spawn(process.execPath, [CLI, 'cluster', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ready line:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const line = out.split('\n').find((l) => l.includes('"msg":"kapi cluster ready"'));
      if (!line) return;
      clearTimeout(t);
      resolve({ child, ready: JSON.parse(line) as Ready, out: () => out });
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`kapi cluster exited with ${code}:\n${out}`));
    });
  });
}

/** Process ids still alive from a list of pid files. */
function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

describe('kapi cluster', () => {
  it('starts, stops everything on Ctrl-C, and resumes the same cluster from its directory', async () => {
    dir = await mkdtemp(join(base, 'kapi-cli-'));
    const first = await startCli(['--data-dir', dir, '--secure-port', '0', '--nodes', '2', '--etcd-members', '1']);
    expect(first.ready.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2']);
    expect(first.ready.etcd).toHaveLength(1);
    expect(first.ready.kubeconfig).toBe(join(dir, 'admin.kubeconfig'));
    expect(readFileSync(first.ready.kubeconfig, 'utf8')).toContain(`server: ${first.ready.balancer}`);
    for (const n of first.ready.nodes) expect(readFileSync(n.kubeconfig, 'utf8')).toContain(`server: ${n.url}`);
    trustKubeconfig(first.ready.kubeconfig, first.ready.nodes.map((n) => n.url));
    const created = await freshRequest(first.ready.balancer, 'POST', '/api/v1/namespaces', { metadata: { name: 'kept' } });
    expect(created.status).toBe(201);

    // Three simulated nodes by default, from one agent against the follower node.
    expect(first.ready.simulatedNodes).toEqual([{ agent: 'node-2', nodes: ['worker-1', 'worker-2', 'worker-3'] }]);
    const nodes = await freshRequest(first.ready.balancer, 'GET', '/api/v1/nodes');
    expect(nodes.json.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['worker-1', 'worker-2', 'worker-3']);

    const pids = ['etcd-1', 'node-1', 'node-2', 'haproxy', 'agent-node-2'].map((p) => Number(readFileSync(join(dir, 'run', `${p}.pid`), 'utf8')));
    expect(alive(pids)).toEqual(pids);
    first.child.kill('SIGINT');
    await new Promise((r) => first.child.once('exit', r));
    expect(first.child.exitCode).toBe(0);
    expect(alive(pids)).toEqual([]);

    const second = await startCli(['--data-dir', dir]);
    try {
      expect(second.ready.balancer).toBe(first.ready.balancer);
      expect(second.ready.nodes.map((n) => n.url)).toEqual(first.ready.nodes.map((n) => n.url));
      const got = await freshRequest(second.ready.balancer, 'GET', '/api/v1/namespaces/kept');
      expect(got.status).toBe(200);
      expect(got.json.metadata.uid).toBe(created.json.metadata.uid);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }

    // The same directory through the library: every process restarted in turn keeps the data.
    const c = await Cluster.start({ dataDir: dir });
    try {
      const pid = (p: string) => readFileSync(join(dir, 'run', `${p}.pid`), 'utf8');
      const before = ['etcd-1', 'node-1', 'node-2'].map(pid);
      await c.rollingRestart();
      const after = ['etcd-1', 'node-1', 'node-2'].map(pid);
      expect(after.filter((p, i) => p === before[i])).toEqual([]);
      expect((await freshRequest(c.balancerUrl, 'GET', '/api/v1/namespaces/kept')).json.metadata.uid).toBe(created.json.metadata.uid);
    } finally {
      await c.stop();
    }
  }, 120_000);

  it('refuses to resume with other sizes than the cluster has', async () => {
    const r = spawn(process.execPath, [CLI, 'cluster', '--data-dir', dir, '--etcd-members', '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    r.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((res) => r.once('exit', res));
    expect(code).toBe(1);
    expect(out).toContain('has 1 etcd members; it cannot resume with --etcd-members 3');
  }, 30_000);
});
