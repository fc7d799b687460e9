// Minimal, cheap HTTP client on node:http (no fetch/undici).
import http from 'node:http';

export interface Target {
  /** 'kapi' or 'baseline' (or any label). */
  name: string;
  host: string;
  port: number;
  /** Keep-alive agent sized for the configured concurrency. */
  agent: http.Agent;
  /** Pid of the spawned server process (for /proc readings), when the harness started it. */
  pid?: number;
}

export function makeAgent(concurrency: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
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
  target: Pick<Target, 'host' | 'port'> & { agent?: http.Agent | false },
  spec: ReqSpec,
  opts: { timeoutMs: number; collectBody?: boolean; expect?: number },
): Promise<Resp> {
  return new Promise<Resp>((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { accept: JSON_CT };
    if (spec.body) {
      headers['content-type'] = spec.contentType ?? JSON_CT;
      headers['content-length'] = spec.body.length;
    }
    const req = http.request(
      {
        host: target.host,
        port: target.port,
        method: spec.method,
        path: spec.path,
        headers,
        agent: target.agent,
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
