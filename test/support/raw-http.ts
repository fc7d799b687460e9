// Hand-driven HTTP/1.1 requests (over the client's TLS, with its credentials) for the tests
// that need more than a whole request and a whole response: a body sent a byte at a time, a
// response never read, a connection of its own (and its end), a client on its own local
// address.

import type http from 'node:http';
import type { KubeClient } from './kube.js';

/**
 * A request's failure, marked with whether the request could have left the client: over TLS
 * nothing is written before the handshake is done, so a connection refused or reset before
 * that never carried the request.
 */
export type RawError = NodeJS.ErrnoException & { requestSent: boolean };

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** ms from the start of the request to the end of the response. */
  ms: number;
  /**
   * ms from the moment the connection was up (TLS handshake done) to the end of the response:
   * the server's own time, without the handshake a loaded machine makes slow.
   */
  msConnected: number;
  /** With noRead: the response, paused, for the test to read. */
  res?: http.IncomingMessage;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string | number>;
  /** The client's source address (127.0.0.1 to 127.255.255.254 all reach the server). */
  localAddress?: string;
  /** Keep the response unread (its socket paused) instead of reading it. */
  noRead?: boolean;
}

/** A request whose body the test writes itself. */
export interface OpenRequest {
  req: http.ClientRequest;
  /** The response, read whole (or just its head with noRead). */
  response: Promise<RawResponse>;
  /** Resolves when the connection is closed, by either side. */
  closed: Promise<void>;
}

export function openRequest(k: KubeClient, path: string, opts: RawOptions = {}): OpenRequest {
  const t0 = performance.now();
  const { ca, cert, key } = k.credentials;
  // A connection of its own (no agent), so the client's certificate goes on it directly.
  const req = k.httpRequest(path, {
    method: opts.method ?? 'GET',
    headers: opts.headers,
    localAddress: opts.localAddress,
    agent: false,
    ca,
    cert,
    key,
  });
  let closedResolve!: () => void;
  const closed = new Promise<void>((r) => (closedResolve = r));
  let connected = false;
  let connectedAt = t0;
  req.on('socket', (s) => {
    s.once('close', () => closedResolve());
    s.once('encrypted' in s && s.encrypted ? 'secureConnect' : 'connect', () => {
      connected = true;
      connectedAt = performance.now();
    });
  });
  const response = new Promise<RawResponse>((resolve, reject) => {
    req.on('error', (e: NodeJS.ErrnoException) => reject(Object.assign(e, { requestSent: connected })));
    req.on('response', (res) => {
      if (opts.noRead) {
        res.pause();
        const now = performance.now();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', ms: now - t0, msConnected: now - connectedAt, res });
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        const now = performance.now();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: now - t0, msConnected: now - connectedAt });
      });
      res.on('error', reject);
    });
  });
  response.catch(() => undefined);
  return { req, response, closed };
}

/** A whole request with a body, from `localAddress` if given. */
export function request(k: KubeClient, method: string, path: string, body?: unknown, opts: RawOptions = {}): Promise<RawResponse> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
  if (text !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = Buffer.byteLength(text);
  }
  const r = openRequest(k, path, { ...opts, method, headers });
  r.req.end(text);
  return r.response;
}

/**
 * A POST whose body is announced as `length` bytes but only `sent` of them are written: it
 * stays in flight in the server until the test writes the rest, or the server gives up.
 */
export function stalledPost(k: KubeClient, path: string, doc: unknown, opts: RawOptions & { sent?: number } = {}): OpenRequest & { finish(): void } {
  const text = JSON.stringify(doc);
  const r = openRequest(k, path, { ...opts, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(opts.headers ?? {}) } });
  const cut = opts.sent ?? 1;
  r.req.flushHeaders();
  r.req.write(text.slice(0, cut));
  return { ...r, finish: () => r.req.end(text.slice(cut)) };
}
