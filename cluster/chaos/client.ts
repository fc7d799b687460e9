// HTTP clients of the chaos harness: each holds the admin kubeconfig's TLS credentials and one
// keep-alive connection at a time (haproxy in TCP mode keeps a connection on one node, so a
// client's connection is a session with one node's cache until it breaks), and every answer
// carries the id of the connection it came on. A request that gets no answer (a timeout, a
// reset, a refused connection) rejects: its outcome is unknown.

import https from 'node:https';
import http from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export interface Credentials {
  ca?: string;
  cert?: string;
  key?: string;
}

/** The first cluster's server and the first user's client certificate of a kubeconfig. */
export function readKubeconfig(file: string): { server: string; credentials: Credentials } {
  type KC = {
    clusters?: { cluster: { server: string; 'certificate-authority-data'?: string } }[];
    users?: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string } | null }[];
  };
  const doc = parseYaml(readFileSync(file, 'utf8')) as KC;
  const cluster = doc.clusters?.[0]?.cluster;
  if (!cluster) throw new Error(`${file}: no cluster`);
  const user = doc.users?.[0]?.user ?? {};
  const pem = (b64?: string): string | undefined => (b64 ? Buffer.from(b64, 'base64').toString('utf8') : undefined);
  return {
    server: cluster.server,
    credentials: { ca: pem(cluster['certificate-authority-data']), cert: pem(user['client-certificate-data']), key: pem(user['client-key-data']) },
  };
}

export interface Answer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies are read loosely and checked field by field
  json: any;
  /** The connection that answered (one node while it lives). */
  conn: number;
}

const connIds = new WeakMap<Socket, number>();
let nextConn = 1;
function connId(s: Socket): number {
  let id = connIds.get(s);
  if (id === undefined) connIds.set(s, (id = nextConn++));
  return id;
}

export class ApiClient {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(
    base: string,
    private readonly credentials: Credentials,
  ) {
    this.url = new URL(base);
    const opts = { keepAlive: true, maxSockets: 1, ...credentials };
    this.agent = this.url.protocol === 'https:' ? new https.Agent(opts) : new http.Agent(opts);
  }

  /** One request on the client's connection (a new one when it broke). */
  request(method: string, path: string, body: unknown, timeoutMs: number, fresh = false, contentType = 'application/json'): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const mod = this.url.protocol === 'https:' ? https : http;
      const req = mod.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: fresh ? false : this.agent,
          ...(fresh ? this.credentials : {}),
          headers: { accept: 'application/json', ...(data ? { 'content-type': contentType, 'content-length': String(data.length) } : {}) },
        },
        (res) => {
          const conn = connId(res.socket);
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, text, json, conn });
          });
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', reject);
      req.end(data);
    });
  }

  /**
   * A watch on a connection of its own: `onLine` gets each JSON line. Resolves with the HTTP
   * status once the headers arrive (the body of a non-200 answer goes to `onLine` whole);
   * `ended` resolves when the stream ends for any reason.
   */
  watch(path: string, onLine: (line: string) => void, connectTimeoutMs: number): Promise<{ status: number; conn: number; ended: Promise<void>; close(): void }> {
    return new Promise((resolve, reject) => {
      const mod = this.url.protocol === 'https:' ? https : http;
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => (endResolve = r));
      const req = mod.request(
        { host: this.url.hostname, port: this.url.port, method: 'GET', path, agent: false, ...this.credentials, headers: { accept: 'application/json' } },
        (res) => {
          clearTimeout(timer);
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            buf += c;
            let nl: number;
            while ((nl = buf.indexOf('\n')) >= 0) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              if (line.trim()) onLine(line);
            }
          });
          const end = (): void => {
            if (buf.trim()) onLine(buf);
            buf = '';
            endResolve();
          };
          res.on('end', end);
          res.on('error', end);
          res.on('close', end);
          resolve({ status: res.statusCode ?? 0, conn: connId(res.socket), ended, close: () => req.destroy() });
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`watch not answered within ${connectTimeoutMs} ms`)), connectTimeoutMs);
      req.on('error', (e) => {
        clearTimeout(timer);
        endResolve();
        reject(e);
      });
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
