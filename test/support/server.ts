// Starts a real kapi process for a test: `node dist/src/cli.js serve` on a free port
// and a temp data dir, waits for its ready log line, and stops it afterwards. The process is
// also the test's client of it (./kube.ts), made from the admin kubeconfig the server wrote:
// HTTPS with the admin's client certificate.

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { kubeClientFromKubeconfig, type HttpResult, type KubeClient } from './kube.js';

export type { HttpResult, KubeClient } from './kube.js';
export { anonymous, asUser, issueClientCert, kubeClient, kubeClientFromKubeconfig, readKubeconfig, tokenKubeconfig, userKubeconfig, withToken } from './kube.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'src', 'cli.js');

export interface KapiProcess extends KubeClient {
  dataDir: string;
  kubeconfig: string;
  proc: ChildProcess;
  /** Everything the process logged so far. */
  logs(): string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9) and wait. */
  kill(): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  args?: string[];
  /** Reuse a port (a restart on the same address). */
  port?: number;
  /** The base `--controllers` list (default TEST_CONTROLLERS); `args` may add more. */
  controllers?: string;
}

/**
 * The controllers a test server runs unless asked: those every cluster relies on for plain API
 * behaviour (namespace deletion, the claim and volume finalizers' removal, each namespace's default
 * service account that pod admission needs, aggregated cluster roles).
 */
export const TEST_CONTROLLERS = 'namespace-controller,persistentvolumeclaim-protection-controller,persistentvolume-protection-controller,serviceaccount-controller,clusterrole-aggregation-controller';

export async function startKapi(opts: StartOptions = {}): Promise<KapiProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test does) first`);
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'kapi-test-')));
  // Tests get a plain apiserver (no simulated node, no scheduler, only TEST_CONTROLLERS) unless
  // they ask: `--controllers` values add up (`--controllers '*'` turns every one on), and the
  // last `--simulate-nodes` or `--scheduler` counts.
  const args = [
    CLI,
    'serve',
    '--data-dir',
    dataDir,
    '--secure-port',
    String(opts.port ?? 0),
    '--controllers',
    opts.controllers ?? TEST_CONTROLLERS,
    '--simulate-nodes',
    '0',
    '--scheduler=false',
    ...(opts.args ?? []),
  ];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`kapi did not become ready:\n${out}`)), 20_000);
    const onData = () => {
      for (const line of out.split('\n')) {
        if (!line.includes('"kapi ready"')) continue;
        try {
          const rec = JSON.parse(line) as { url: string };
          clearTimeout(timer);
          proc.stdout!.off('data', onData);
          resolvePromise(rec.url);
          return;
        } catch {
          // partial line; wait for more
        }
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kapi exited with ${code}:\n${out}`));
    });
  });
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const client = kubeClientFromKubeconfig(kubeconfig);
  if (client.url !== url) throw new Error(`${kubeconfig} points at ${client.url}, the server said ${url}`);
  const kill = async (signal: NodeJS.Signals) => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
    await client.close();
  };
  return {
    ...client,
    dataDir,
    kubeconfig,
    proc,
    logs: () => out,
    stop: () => kill('SIGTERM'),
    kill: () => kill('SIGKILL'),
  };
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Stops a kapi from startKapi, if it got that far, and removes its data: a test file's afterAll. */
export async function stopKapi(k: KapiProcess | undefined): Promise<void> {
  if (!k) return;
  await k.stop();
  await removeDir(k.dataDir);
}

export { kubectlPath, kubectlVersion } from './kubectl-bin.js';
import { kubectlPath } from './kubectl-bin.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

const run = promisify(execFile);

export async function kubectl(k: KapiProcess, args: string[], input?: string): Promise<KubectlResult> {
  const bin = kubectlPath();
  // A discovery cache of this server's own: ~/.kube/cache is keyed by host and port, and a
  // port an earlier test server used would hand kubectl that server's resources.
  const full = ['--kubeconfig', k.kubeconfig, '--cache-dir', join(k.dataDir, 'kubectl-cache'), ...args];
  if (input !== undefined) {
    return new Promise((resolvePromise) => {
      const child = spawn(bin, full, { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input);
    });
  }
  try {
    const r = await run(bin, full, { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** One request through `k`'s client (the admin's, or any other made in ./kube.ts), read whole. */
export function http(
  k: KubeClient,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return k.request(method, path, body, headers);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `kapi <args>` to completion (flag checks, --help): for start-up failures the server
 * never gets to serve. Stops it after `timeoutMs` if it does start.
 */
export function runKapiCli(args: string[], timeoutMs = 10_000): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const t = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(t);
      resolvePromise({ code, stdout, stderr });
    });
  });
}
