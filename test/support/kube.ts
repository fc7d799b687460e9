// The one way tests talk to a server: a client made from a kubeconfig (the server's URL, the
// CA it trusts, and the user's client certificate or bearer token), as kubectl and every
// client library make theirs. Every HTTP request of the tests goes through one of these:
//
//   - `fetch(path, init)`: fetch (undici) over a keep-alive TLS agent holding the credentials;
//   - `request(method, path, body?, headers?)`: the same, read whole (status, headers, text, JSON);
//   - `httpRequest(path, options, onResponse)`: node:https, for tests that need Node's own
//     response objects (raw headers, byte streams);
//   - `connect(onConnect)`: a raw HTTP/1.1 connection (TLS, ALPN http/1.1) for hand-written requests;
//   - `http2()`: an HTTP/2 session (ALPN h2), as kubectl and client-go connect;
//   - `webSocket(path, protocols, options)`: a `ws` WebSocket with the credentials.
//
// Other users: `asUser(k, name, groups)` issues a client certificate signed by the server's CA
// (tests of authentication and authorization), `withToken(k, token)` sends a bearer token,
// `anonymous(k)` sends no credential.

import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import http from 'node:http';
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import WebSocket from 'ws';
import { parse as parseYaml } from 'yaml';
import { issueCert } from '../../src/auth/pki/certs.js';
import { writeKubeconfig } from '../../src/server/kubeconfig.js';

export interface Credentials {
  /** PEM the client trusts for the server's certificate. */
  ca?: string;
  /** The user's client certificate and key (PEM). */
  cert?: string;
  key?: string;
  /** A bearer token. */
  token?: string;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface KubeClient {
  /** The server URL (https://host:port, or http:// for a plain-HTTP server). */
  readonly url: string;
  /** host:port, for hand-written Host headers. */
  readonly host: string;
  readonly credentials: Credentials;
  fetch(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  httpRequest(path: string, options: https.RequestOptions, onResponse?: (res: http.IncomingMessage) => void): http.ClientRequest;
  connect(onConnect?: () => void): net.Socket;
  http2(): http2.ClientHttp2Session;
  webSocket(path: string, protocols?: string[], options?: WebSocket.ClientOptions): WebSocket;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

interface KubeconfigDoc {
  'current-context'?: string;
  clusters?: { name: string; cluster: { server: string; 'certificate-authority-data'?: string; 'certificate-authority'?: string } }[];
  contexts?: { name: string; context: { cluster: string; user: string } }[];
  users?: {
    name: string;
    user: {
      'client-certificate-data'?: string;
      'client-key-data'?: string;
      'client-certificate'?: string;
      'client-key'?: string;
      token?: string;
    } | null;
  }[];
}

const unb64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');

/** The server and credentials of a kubeconfig's current context. */
export function readKubeconfig(path: string): { server: string; credentials: Credentials } {
  const doc = parseYaml(readFileSync(path, 'utf8')) as KubeconfigDoc;
  const ctx = doc.contexts?.find((c) => c.name === doc['current-context'])?.context ?? doc.contexts?.[0]?.context;
  const cluster = doc.clusters?.find((c) => c.name === ctx?.cluster)?.cluster ?? doc.clusters?.[0]?.cluster;
  if (!cluster) throw new Error(`${path}: no cluster`);
  const user = doc.users?.find((u) => u.name === ctx?.user)?.user ?? doc.users?.[0]?.user ?? {};
  const file = (p: string | undefined): string | undefined => (p === undefined ? undefined : readFileSync(p, 'utf8'));
  const pick = (data: string | undefined, p: string | undefined): string | undefined => (data !== undefined ? unb64(data) : file(p));
  return {
    server: cluster.server,
    credentials: {
      ca: pick(cluster['certificate-authority-data'], cluster['certificate-authority']),
      cert: pick(user?.['client-certificate-data'], user?.['client-certificate']),
      key: pick(user?.['client-key-data'], user?.['client-key']),
      token: user?.token,
    },
  };
}

export function kubeClient(server: string, credentials: Credentials): KubeClient {
  const u = new URL(server);
  const secure = u.protocol === 'https:';
  const port = Number(u.port || (secure ? 443 : 80));
  const hostname = u.hostname.replace(/^\[|\]$/g, '');
  const tlsOpts = { ca: credentials.ca, cert: credentials.cert, key: credentials.key };
  const authHeader: Record<string, string> = credentials.token ? { authorization: `Bearer ${credentials.token}` } : {};
  // One pool per client: keep-alive connections, each with the client's certificate.
  const dispatcher = new Agent({ connect: secure ? tlsOpts : {}, keepAliveTimeout: 10_000 });
  const nodeAgent = secure ? new https.Agent({ ...tlsOpts, keepAlive: true }) : new http.Agent({ keepAlive: true });

  let closed = false;
  const absolute = (pathOrUrl: string): string => (/^[a-z]+:\/\//i.test(pathOrUrl) ? pathOrUrl : server + pathOrUrl);

  const client: KubeClient = {
    url: server,
    host: u.host,
    credentials,
    fetch(pathOrUrl, init = {}) {
      const headers = new Headers(init.headers);
      for (const [h, v] of Object.entries(authHeader)) if (!headers.has(h)) headers.set(h, v);
      // undici's own fetch with its own Agent: the global fetch takes no client certificate.
      const opts = { ...init, headers: Object.fromEntries(headers), dispatcher } as unknown as Parameters<typeof undiciFetch>[1];
      return undiciFetch(absolute(pathOrUrl), opts) as unknown as Promise<Response>;
    },
    async request(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
        if (!headers['content-type']) (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      const res = await client.fetch(path, init);
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
    httpRequest(path, options, onResponse) {
      const opts = { ...options, headers: { ...authHeader, ...(options.headers ?? {}) }, agent: options.agent ?? nodeAgent };
      return secure ? https.request(absolute(path), opts, onResponse) : http.request(absolute(path), opts, onResponse);
    },
    connect(onConnect) {
      if (!secure) return net.connect(port, hostname, onConnect);
      return tls.connect({ ...tlsOpts, host: hostname, port, ALPNProtocols: ['http/1.1'] }, onConnect);
    },
    http2() {
      return http2.connect(server, secure ? tlsOpts : {});
    },
    webSocket(path, protocols = [], options = {}) {
      const wsUrl = server.replace(/^http/, 'ws') + path;
      return new WebSocket(wsUrl, protocols, { ...tlsOpts, ...options, headers: { ...authHeader, ...(options.headers ?? {}) } });
    },
    async close() {
      if (closed) return;
      closed = true;
      nodeAgent.destroy();
      await dispatcher.close();
    },
  };
  return client;
}

export function kubeClientFromKubeconfig(path: string): KubeClient {
  const { server, credentials } = readKubeconfig(path);
  return kubeClient(server, credentials);
}

/** What `asUser` needs of a server: where its URL, CA and CA key are. */
export interface ServerPKI {
  url: string;
  dataDir: string;
  credentials: Credentials;
}

export interface ClientCertOptions {
  notBefore?: Date;
  notAfter?: Date;
  /** Sign with another CA (a directory with ca.crt and ca.key) instead of the server's. */
  caDir?: string;
}

/** A client certificate and key for `user` in `groups`, signed by the server's CA (or `caDir`'s). */
export async function issueClientCert(s: ServerPKI, user: string, groups: string[] = [], opts: ClientCertOptions = {}): Promise<{ cert: string; key: string }> {
  const dir = opts.caDir ?? join(s.dataDir, 'pki');
  const ca = { cert: await readFile(join(dir, 'ca.crt'), 'utf8'), key: await readFile(join(dir, 'ca.key'), 'utf8') };
  return issueCert(ca, { commonName: user, organizations: groups, usages: ['client'], notBefore: opts.notBefore, notAfter: opts.notAfter });
}

/** A client of the same server as `user` in `groups`, with a certificate from the server's CA. */
export async function asUser(s: ServerPKI, user: string, groups: string[] = [], opts: ClientCertOptions = {}): Promise<KubeClient> {
  const pair = await issueClientCert(s, user, groups, opts);
  return kubeClient(s.url, { ca: s.credentials.ca, ...pair });
}

/**
 * A kubeconfig file (in the server's data dir) for `user` in `groups`, with a certificate from
 * the server's CA: for kubectl as another user (`kubectl({ ...k, kubeconfig: path }, args)`).
 */
export async function userKubeconfig(s: ServerPKI, user: string, groups: string[] = [], opts: ClientCertOptions = {}): Promise<string> {
  const pair = await issueClientCert(s, user, groups, opts);
  const file = join(s.dataDir, `${user.replace(/[^A-Za-z0-9._-]/g, '_')}-${Date.now()}.kubeconfig`);
  return writeKubeconfig(file, { server: s.url, caCert: s.credentials.ca, clientCert: pair.cert, clientKey: pair.key, user });
}

/**
 * A kubeconfig file (in the server's data dir) that authenticates with a bearer token (a token
 * file's, or a service account's from `kubectl create token`): for kubectl and the client
 * libraries as that user.
 */
export async function tokenKubeconfig(s: ServerPKI, token: string, user = 'token-user'): Promise<string> {
  const file = join(s.dataDir, `${user.replace(/[^A-Za-z0-9._-]/g, '_')}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.kubeconfig`);
  return writeKubeconfig(file, { server: s.url, caCert: s.credentials.ca, token, user });
}

/** A client of the same server that sends `token` and no certificate. */
export function withToken(s: ServerPKI, token: string): KubeClient {
  return kubeClient(s.url, { ca: s.credentials.ca, token });
}

/** A client of the same server with no credential at all. */
export function anonymous(s: ServerPKI): KubeClient {
  return kubeClient(s.url, { ca: s.credentials.ca });
}
