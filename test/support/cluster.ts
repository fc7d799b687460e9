// A replicated kapi cluster for a test (cluster/launcher.ts: etcd members, kapi nodes,
// haproxy, all on free loopback ports), and requests that each open their own connection,
// so that requests through the balancer spread over the nodes as separate clients' would.

import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, type ClusterOptions } from '../../cluster/launcher.js';
import { kubeClient, readKubeconfig, type Credentials, type KubeClient } from './kube.js';

export { Cluster };
export type { ClusterProcess, EtcdMember, KapiNodeProcess } from '../../cluster/launcher.js';

export interface TestCluster extends Cluster {
  /** Stops everything and removes the data directory. */
  cleanup(): Promise<void>;
}

/** Starts a cluster in a fresh directory (on /dev/shm when there is one: etcd fsyncs a lot). */
export async function startCluster(opts: Omit<ClusterOptions, 'dataDir' | 'port'> = {}): Promise<TestCluster> {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dataDir = await mkdtemp(join(base, 'kapi-cluster-'));
  let cluster: Cluster;
  try {
    cluster = await Cluster.start({ ...opts, dataDir, port: 0 });
  } catch (e) {
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  // Every node shares the cluster's CA and admin certificate (kapi pki): the admin kubeconfig's
  // credentials open every node as well as the balancer.
  trustKubeconfig(cluster.kubeconfig, cluster.nodes.map((n) => n.url));
  return Object.assign(cluster, {
    cleanup: async () => {
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

const credentialsByOrigin = new Map<string, Credentials>();
const clients = new Map<string, KubeClient>();

/** Requests to the kubeconfig's server (and to `alsoFor`, servers with the same CA) use its credentials. */
export function trustKubeconfig(path: string, alsoFor: string[] = []): void {
  const { server, credentials } = readKubeconfig(path);
  for (const u of [server, ...alsoFor]) {
    credentialsByOrigin.set(new URL(u).origin, credentials);
    clients.delete(new URL(u).origin);
  }
}

function clientFor(base: string): KubeClient {
  const origin = new URL(base).origin;
  let c = clients.get(origin);
  if (!c) clients.set(origin, (c = kubeClient(origin, credentialsByOrigin.get(origin) ?? {})));
  return c;
}

/** A request on a connection of its own (no pool), with the credentials trusted for `base`. */
function ownConnection(base: string, path: string, options: RequestOptions, onResponse: (res: IncomingMessage) => void): ClientRequest {
  const c = clientFor(base);
  const { ca, cert, key } = c.credentials;
  return c.httpRequest(path, { ...options, agent: false, ca, cert, key }, onResponse);
}

export interface FreshResult {
  status: number;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
}

/**
 * One request on a connection of its own (no keep-alive pool). Rejects on a connection
 * error or when no answer comes within `timeoutMs`.
 */
export function freshRequest(base: string, method: string, path: string, body?: unknown, timeoutMs = 10_000): Promise<FreshResult> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = ownConnection(
      base,
      path,
      {
        method,
        timeout: timeoutMs,
        headers: data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {},
      },
      (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('error', reject);
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(data);
  });
}

export interface WatchEventLine {
  type: string;
  object: { metadata: { name?: string; resourceVersion?: string }; [k: string]: unknown };
}

export interface OpenWatch {
  events: WatchEventLine[];
  /** Resolves when the stream ends (closed by the server, the balancer, or a broken connection). */
  ended: Promise<void>;
  /** Waits until `n` events arrived (or the stream ended); returns them all. */
  waitFor(n: number, timeoutMs?: number): Promise<WatchEventLine[]>;
  close(): void;
}

/** A watch (`?watch=true&...`) read line by line on its own connection. */
export function openWatch(base: string, path: string): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const events: WatchEventLine[] = [];
    let wake: (() => void) | null = null;
    let endedResolve!: () => void;
    const ended = new Promise<void>((r) => (endedResolve = r));
    const req = ownConnection(base, path, {}, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch answered ${res.statusCode}`));
        return;
      }
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) events.push(JSON.parse(line) as WatchEventLine);
        }
        wake?.();
      });
      const end = (): void => {
        endedResolve();
        wake?.();
      };
      res.on('end', end);
      res.on('error', end);
      res.on('close', end);
      resolve({
        events,
        ended,
        async waitFor(n, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          let done = false;
          void ended.then(() => (done = true));
          while (events.length < n && !done && Date.now() < deadline) {
            await new Promise<void>((r) => {
              wake = r;
              setTimeout(r, 100);
            });
          }
          return events;
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (e) => {
      endedResolve();
      reject(e);
    });
    req.end();
  });
}
