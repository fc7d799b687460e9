// A replicated kapi cluster for a test (cluster/launcher.ts: etcd members, kapi nodes,
// haproxy, all on free loopback ports), and requests that each open their own connection,
// so that requests through the balancer spread over the nodes as separate clients' would.

import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, type ClusterOptions } from '../../cluster/launcher.js';

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
  return Object.assign(cluster, {
    cleanup: async () => {
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
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
    const req = httpRequest(
      base + path,
      {
        method,
        agent: false,
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
    const req = httpRequest(base + path, { agent: false }, (res) => {
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
