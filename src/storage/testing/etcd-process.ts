import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../machinery/free-port.js';

export interface EtcdProcess {
  /** Client URL, e.g. http://127.0.0.1:41234 */
  endpoint: string;
  /** Kills etcd and removes its data directory. */
  stop(): Promise<void>;
  /** Sends etcd a signal (SIGSTOP freezes it, SIGCONT thaws it). */
  signal(sig: NodeJS.Signals): void;
}

export interface EtcdProcessOptions {
  binary?: string;
  /** Parent of the temporary data dir; /dev/shm keeps etcd's fsyncs off the disk. */
  baseDir?: string;
  startTimeoutMs?: number;
}

const healthy = (endpoint: string): Promise<boolean> =>
  new Promise((resolve) => {
    const req = get(`${endpoint}/health`, { timeout: 1000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('true')));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

async function defaultBaseDir(): Promise<string> {
  try {
    const dir = await mkdtemp('/dev/shm/kapi-etcd-');
    await rm(dir, { recursive: true });
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** Starts a single-member etcd on free loopback ports and waits until it serves. */
export async function startEtcd(opts: EtcdProcessOptions = {}): Promise<EtcdProcess> {
  const binary = opts.binary ?? process.env['ETCD_BIN'] ?? '/usr/bin/etcd';
  const baseDir = opts.baseDir ?? (await defaultBaseDir());
  const timeout = opts.startTimeoutMs ?? 20_000;
  let lastError: Error = new Error('etcd did not start');
  // A port found free can be taken before etcd binds it; a fresh pick fixes that.
  for (let attempt = 0; attempt < 3; attempt++) {
    const dir = await mkdtemp(join(baseDir, 'kapi-etcd-'));
    const [clientPort, peerPort] = [await freePort(), await freePort()];
    const endpoint = `http://127.0.0.1:${clientPort}`;
    const peer = `http://127.0.0.1:${peerPort}`;
    const name = 'kapi-test';
    const child = spawn(
      binary,
      [
        '--name', name,
        '--data-dir', join(dir, 'data'),
        '--listen-client-urls', endpoint,
        '--advertise-client-urls', endpoint,
        '--listen-peer-urls', peer,
        '--initial-advertise-peer-urls', peer,
        '--initial-cluster', `${name}=${peer}`,
        '--initial-cluster-state', 'new',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Do not leave an orphaned etcd behind if the test process dies without stop().
    const reap = (): void => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    process.once('exit', reap);
    let log = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (c: string) => {
      log = (log + c).slice(-4000);
    });
    const stop = async (): Promise<void> => {
      process.removeListener('exit', reap);
      child.kill('SIGTERM');
      if (!(await waitExit(child, 5000))) {
        child.kill('SIGKILL');
        await waitExit(child, 5000);
      }
      await rm(dir, { recursive: true, force: true });
    };
    const deadline = Date.now() + timeout;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      if (await healthy(endpoint)) return { endpoint, stop, signal: (sig) => void child.kill(sig) };
      await sleep(50);
    }
    lastError = new Error(`etcd did not become healthy at ${endpoint}:\n${log}`);
    await stop();
  }
  throw lastError;
}
