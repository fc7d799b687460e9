// Minimal, cheap HTTP client on node:http / node:https (no fetch/undici): HTTP/1.1 keep-alive,
// over TLS with a client certificate (kapi's admin, the baseline's) or a bearer token (a
// kube-apiserver), or plain when the server speaks plain HTTP (an older kapi build).
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

/** How to reach a server over TLS: the CA to trust and the client's certificate. */
export interface TLSCredentials {
  ca?: string;
  cert?: string;
  key?: string;
  /** false: do not check the server's certificate (a remote server whose CA was not given). */
  rejectUnauthorized?: boolean;
}

/** Where a server is and how to talk to it. */
export interface Endpoint {
  host: string;
  port: number;
  /** Set: HTTPS with these credentials; unset: plain HTTP. */
  tls?: TLSCredentials;
  /** A bearer token sent on every request. */
  token?: string;
}

export interface Target extends Endpoint {
  /** 'kapi' or 'baseline' (or any label). */
  name: string;
  /** Keep-alive agent sized for the configured concurrency. */
  agent: http.Agent;
  /** Pid of the spawned server process (for /proc readings), when the harness started it. */
  pid?: number;
  /** Pids of every server process behind the target (a cluster's nodes): their CPU is summed. */
  pids?: number[];
}

export function makeAgent(concurrency: number, creds?: TLSCredentials): http.Agent {
  const opts = { keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency };
  return creds ? new https.Agent({ ...opts, ...creds }) : new http.Agent(opts);
}

/** The headers every request to `ep` carries (its bearer token). */
export function authHeaders(ep: Endpoint): http.OutgoingHttpHeaders {
  return ep.token ? { authorization: `Bearer ${ep.token}` } : {};
}

/** node:http or node:https, as `ep` needs. */
export function requestFn(ep: Endpoint): typeof http.request {
  return (ep.tls ? https.request : http.request) as typeof http.request;
}

/**
 * A raw connection for hand-written HTTP/1.1 (the watch phase's sockets): TLS offering only
 * http/1.1 over ALPN, or plain TCP. `onConnect` runs once the request can be written.
 */
export function connectRaw(ep: Endpoint, onConnect: () => void): net.Socket {
  if (!ep.tls) {
    const sock = net.connect({ host: ep.host, port: ep.port });
    sock.once('connect', onConnect);
    return sock;
  }
  return tls.connect({ host: ep.host, port: ep.port, ...ep.tls, ALPNProtocols: ['http/1.1'] }, onConnect);
}

export interface ReqSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: Buffer;
  contentType?: string;
}

export interface Resp {
  status: number;
  /** Present when collectBody was requested, or for responses with an unexpected status. */
  body?: Buffer;
}

const JSON_CT = 'application/json';

/**
 * One request. Resolves with the status (and body if asked, or if the status is not
 * `expect`); rejects on network errors and on timeout.
 */
export function request(
  target: Endpoint & { agent?: http.Agent | false },
  spec: ReqSpec,
  opts: { timeoutMs: number; collectBody?: boolean; expect?: number },
): Promise<Resp> {
  return new Promise<Resp>((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { accept: JSON_CT, ...authHeaders(target) };
    if (spec.body) {
      headers['content-type'] = spec.contentType ?? JSON_CT;
      headers['content-length'] = spec.body.length;
    }
    const req = requestFn(target)(
      {
        host: target.host,
        port: target.port,
        method: spec.method,
        path: spec.path,
        headers,
        agent: target.agent,
        // A one-off request (agent: false) still needs the credentials.
        ...(target.agent === false ? target.tls : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const keep = opts.collectBody === true || (opts.expect !== undefined && status !== opts.expect);
        if (!keep) {
          res.on('end', () => resolve({ status }));
          res.on('error', reject);
          res.resume();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.setTimeout(opts.timeoutMs, () => {
      req.destroy(new Error(`timeout after ${opts.timeoutMs} ms: ${spec.method} ${spec.path}`));
    });
    req.on('error', reject);
    if (spec.body) req.end(spec.body);
    else req.end();
  });
}
