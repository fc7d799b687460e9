// One HTTP(S) request to an API server, answered with the status, the raw header list and
// the body text. The reference server speaks HTTPS with a self-signed certificate and a
// bearer token; kapi speaks HTTPS with the kubeconfig's client certificate (or plain HTTP
// with --insecure-plain-http).

import http from 'node:http';
import https from 'node:https';

export interface Server {
  /** e.g. https://127.0.0.1:26443 or http://127.0.0.1:40123 */
  url: string;
  /** Bearer token, when the server wants one. */
  token?: string;
  /** A client certificate and its key (PEM), when the server wants one. */
  cert?: string;
  key?: string;
}

export interface RawAnswer {
  status: number;
  /** Header name (lower case) and value pairs, in the order received; repeated headers repeat. */
  headers: [string, string][];
  text: string;
  /** The body's bytes (protobuf, CBOR, invalid UTF-8). */
  bytes: Buffer;
}

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true, rejectUnauthorized: false }) };
/** One agent per client certificate. */
const certAgents = new Map<string, https.Agent>();

function httpsAgent(server: Server): https.Agent {
  if (!server.cert) return agents.https;
  let a = certAgents.get(server.cert);
  if (!a) {
    a = new https.Agent({ keepAlive: true, rejectUnauthorized: false, cert: server.cert, key: server.key });
    certAgents.set(server.cert, a);
  }
  return a;
}

export function send(server: Server, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  const u = new URL(server.url);
  const secure = u.protocol === 'https:';
  const h: Record<string, string | number> = { ...headers };
  if (server.token) h.authorization = `Bearer ${server.token}`;
  if (body) h['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      { host: u.hostname, port: u.port, method, path, headers: h, agent: secure ? httpsAgent(server) : agents.http },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: pairs, text: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Closes idle keep-alive sockets (so a script can exit). */
export function closeClients(): void {
  agents.http.destroy();
  agents.https.destroy();
  for (const a of certAgents.values()) a.destroy();
  certAgents.clear();
}
