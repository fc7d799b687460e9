// A small REST client for kapi's own API clients (the node agent), as client-go's rest client
// talks to an apiserver: JSON over HTTPS keep-alive connections with the kubeconfig's
// credentials, kube's Status errors turned into ApiError, and watches read as the JSON lines
// the server streams.

import * as http from 'node:http';
import * as https from 'node:https';
import type { ClientConfig } from './kubeconfig.js';
import { asObj, str, type Obj } from '../machinery/json-view.js';

/** A request the server answered with a Status error (or that never got an answer: code 0). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status?: Obj,
  ) {
    super(message);
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof ApiError && e.code === 404;
export const isConflict = (e: unknown): boolean => e instanceof ApiError && e.code === 409;
export const isAlreadyExists = (e: unknown): boolean => e instanceof ApiError && e.reason === 'AlreadyExists';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  contentType?: string;
  timeoutMs?: number;
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Obj;
}

export interface WatchStream {
  /** Settles when the server ends the watch (resolves) or it fails (rejects with ApiError). */
  readonly done: Promise<void>;
  stop(): void;
}

export interface RestClientOptions {
  /** The User-Agent header; the server names the writer's field manager after its first word. */
  userAgent: string;
  /** Connections kept per server (a watch holds one while it runs). */
  maxSockets?: number;
  /** Deadline of a request that is not a watch. */
  timeoutMs?: number;
}

function queryString(q: Query | undefined): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

function apiErrorFrom(code: number, text: string): ApiError {
  let status: Obj | undefined;
  try {
    status = asObj(JSON.parse(text));
  } catch {
    status = undefined;
  }
  if (status?.kind === 'Status') return new ApiError(code, str(status.reason), str(status.message) || `HTTP ${code}`, status);
  return new ApiError(code, '', text.trim() || `HTTP ${code}`);
}

export class RestClient {
  private readonly agent: http.Agent;
  private readonly base: URL;
  private readonly tls: boolean;
  private closed = false;

  constructor(
    readonly config: ClientConfig,
    private readonly opts: RestClientOptions,
  ) {
    this.base = new URL(config.server);
    this.tls = this.base.protocol === 'https:';
    const common = { keepAlive: true, maxSockets: opts.maxSockets ?? 16, scheduling: 'lifo' as const };
    this.agent = this.tls
      ? new https.Agent({
          ...common,
          ca: config.caCert,
          cert: config.clientCert,
          key: config.clientKey,
          rejectUnauthorized: !config.insecureSkipTLSVerify,
        })
      : new http.Agent(common);
  }

  private send(method: string, path: string, body: unknown, opts: RequestOptions, accept: string): http.ClientRequest {
    if (this.closed) throw new ApiError(0, 'ClientClosed', 'the client is closed');
    const headers: Record<string, string> = { Accept: accept, 'User-Agent': this.opts.userAgent };
    if (this.config.token) headers.Authorization = `Bearer ${this.config.token}`;
    let payload: Buffer | undefined;
    if (body !== undefined) {
      payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    const mod = this.tls ? https : http;
    const req = mod.request({
      host: this.base.hostname.replace(/^\[|\]$/g, ''),
      port: this.base.port || (this.tls ? 443 : 80),
      path: `${this.base.pathname.replace(/\/+$/, '')}${path}${queryString(opts.query)}`,
      method,
      headers,
      agent: this.agent,
    });
    req.end(payload);
    return req;
  }

  /** One request; answers the decoded body, or throws ApiError with the server's Status. */
  request<T = Obj>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let req: http.ClientRequest;
      try {
        req = this.send(method, path, body, opts, 'application/json');
      } catch (e) {
        reject(e as Error);
        return;
      }
      req.setTimeout(opts.timeoutMs ?? this.opts.timeoutMs ?? 60_000, () => req.destroy(new ApiError(0, 'Timeout', `${method} ${path}: timed out`)));
      req.on('error', (e) => reject(e instanceof ApiError ? e : new ApiError(0, 'ConnectionError', `${method} ${path}: ${e.message}`)));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reject(new ApiError(0, 'ConnectionError', `${method} ${path}: ${e.message}`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            reject(apiErrorFrom(code, text));
            return;
          }
          try {
            resolve((text ? JSON.parse(text) : {}) as T);
          } catch (e) {
            reject(new ApiError(code, 'BadResponse', `${method} ${path}: ${(e as Error).message}`));
          }
        });
      });
    });
  }

  get<T = Obj>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, undefined, { query });
  }

  create<T = Obj>(path: string, obj: unknown, query?: Query): Promise<T> {
    return this.request<T>('POST', path, obj, { query });
  }

  update<T = Obj>(path: string, obj: unknown, query?: Query): Promise<T> {
    return this.request<T>('PUT', path, obj, { query });
  }

  /** PATCH; `type` is `strategic` (kube's default for built-in types), `merge` or `json`. */
  patch<T = Obj>(path: string, patch: unknown, type: 'strategic' | 'merge' | 'json' = 'strategic', query?: Query): Promise<T> {
    const contentType = type === 'json' ? 'application/json-patch+json' : type === 'merge' ? 'application/merge-patch+json' : 'application/strategic-merge-patch+json';
    return this.request<T>('PATCH', path, patch, { query, contentType });
  }

  delete<T = Obj>(path: string, options?: Obj): Promise<T> {
    return this.request<T>('DELETE', path, options ? { kind: 'DeleteOptions', apiVersion: 'v1', ...options } : undefined);
  }

  /** A watch: events go to `onEvent` in order until the server ends it or `stop()` is called. */
  watch(path: string, query: Query, onEvent: (ev: WatchEvent) => void): WatchStream {
    let req: http.ClientRequest | undefined;
    let stopped = false;
    const done = new Promise<void>((resolve, reject) => {
      try {
        req = this.send('GET', path, undefined, { query: { ...query, watch: true } }, 'application/json');
      } catch (e) {
        reject(e as Error);
        return;
      }
      req.on('error', (e) => (stopped ? resolve() : reject(new ApiError(0, 'ConnectionError', `watch ${path}: ${e.message}`))));
      req.on('response', (res) => {
        const code = res.statusCode ?? 0;
        if (code !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => reject(apiErrorFrom(code, Buffer.concat(chunks).toString('utf8'))));
          res.on('error', () => reject(new ApiError(code, '', `watch ${path}: HTTP ${code}`)));
          return;
        }
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let nl: number;
          while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl).trim();
            pending = pending.slice(nl + 1);
            if (!line || stopped) continue;
            try {
              onEvent(JSON.parse(line) as WatchEvent);
            } catch (e) {
              stopped = true;
              req?.destroy();
              reject(e instanceof ApiError ? e : new ApiError(0, 'BadResponse', `watch ${path}: ${(e as Error).message}`));
              return;
            }
          }
        });
        res.on('end', () => resolve());
        res.on('close', () => resolve());
        res.on('error', (e) => (stopped ? resolve() : reject(new ApiError(0, 'ConnectionError', `watch ${path}: ${e.message}`))));
      });
    });
    done.catch(() => undefined);
    return {
      done,
      stop: () => {
        stopped = true;
        req?.destroy();
      },
    };
  }

  close(): void {
    this.closed = true;
    this.agent.destroy();
  }
}
