// Shared helpers for the HTTP end-to-end suites: object builders, unique names,
// Status expectations and a line-by-line watch reader. Every suite starts its own
// kapi process with startKapi() and talks to it through the process's client (HTTPS with
// the admin kubeconfig's certificate, test/support/kube.ts).

import { expect } from 'vitest';
import { http, type HttpResult, type KapiProcess, type KubeClient } from '../../support/server.js';

export { http };
export type { HttpResult, KapiProcess, KubeClient };

// ---- paths ----

export const STS = (ns: string, name = ''): string => `/apis/apps/v1/namespaces/${ns}/statefulsets${name ? '/' + name : ''}`;
export const PDB = (ns: string, name = ''): string =>
  `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets${name ? '/' + name : ''}`;
export const PC = (name = ''): string => `/apis/scheduling.k8s.io/v1/priorityclasses${name ? '/' + name : ''}`;
export const NS = (name = ''): string => `/api/v1/namespaces${name ? '/' + name : ''}`;

/** The headers of a JSON merge patch. */
export const MERGE = { 'content-type': 'application/merge-patch+json' };

// ---- names ----

let counter = 0;
/** A DNS-label-safe name, unique within the run. */
export function uniq(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

// ---- object builders ----

export type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function sts(name: string, opts: { replicas?: number; labels?: Record<string, string>; app?: string; namespace?: string } = {}): Obj {
  const app = opts.app ?? name;
  const spec: Obj = {
    serviceName: name,
    selector: { matchLabels: { app } },
    template: {
      metadata: { labels: { app } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
    },
  };
  if (opts.replicas !== undefined) spec.replicas = opts.replicas;
  const metadata: Obj = { name };
  if (opts.labels) metadata.labels = opts.labels;
  if (opts.namespace) metadata.namespace = opts.namespace;
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata, spec };
}

export function pdb(name: string, spec: Obj = { minAvailable: 1, selector: { matchLabels: { app: name } } }, labels?: Record<string, string>): Obj {
  const metadata: Obj = { name };
  if (labels) metadata.labels = labels;
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata, spec };
}

export function pc(name: string, value = 1000, extra: Obj = {}): Obj {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra };
}

export function ns(name: string, labels?: Record<string, string>): Obj {
  const metadata: Obj = { name };
  if (labels) metadata.labels = labels;
  return { apiVersion: 'v1', kind: 'Namespace', metadata };
}

// ---- expectations ----

export const json = (r: HttpResult): Obj => r.json as Obj;

/** Fails with the response body in the message, which is what one wants to read when it fails. */
export function expectCode(r: HttpResult, code: number): Obj {
  expect(r.status, `HTTP ${r.status}: ${r.text.slice(0, 2000)}`).toBe(code);
  return r.json as Obj;
}

export interface FailureShape {
  code: number;
  reason?: string;
  message?: string;
  details?: Obj;
}

/** The full Status body kube-apiserver sends for a failure, compared exactly. */
export function expectFailure(r: HttpResult, want: FailureShape): Obj {
  expect(r.status, `HTTP ${r.status}: ${r.text.slice(0, 2000)}`).toBe(want.code);
  const body = r.json as Obj;
  expect(body, r.text).toBeTypeOf('object');
  const expected: Obj = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: want.code };
  if (want.reason !== undefined) expected.reason = want.reason;
  if (want.message !== undefined) expected.message = want.message;
  if (want.details !== undefined) expected.details = want.details;
  expect(body).toStrictEqual(expected);
  return body;
}

/** A 422 Invalid Status with exactly these causes (in any order). */
export function expectInvalid(
  r: HttpResult,
  want: { kind: string; group: string; name: string; causes: { reason: string; field: string; message: string }[]; message: string },
): Obj {
  expect(r.status, `HTTP ${r.status}: ${r.text.slice(0, 2000)}`).toBe(422);
  const body = r.json as Obj;
  const details: Obj = { group: want.group, kind: want.kind };
  if (want.name) details.name = want.name;
  if (!want.group) delete details.group;
  // Order by content, not by how each side happens to order its keys.
  const causeKey = (c: Obj) => `${String(c.field)}\u0000${String(c.reason)}\u0000${String(c.message)}`;
  const sortCauses = (cs: Obj[]) => [...cs].sort((a, b) => causeKey(a).localeCompare(causeKey(b)));
  expect({ ...body, details: { ...body.details, causes: sortCauses(body.details?.causes ?? []) } }).toStrictEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: want.message,
    reason: 'Invalid',
    details: { ...details, causes: sortCauses(want.causes) },
    code: 422,
  });
  return body;
}

/** The server still answers, and is ready. */
export async function expectAlive(k: KubeClient): Promise<void> {
  const r = await http(k, 'GET', '/readyz');
  expect(r.status).toBe(200);
  expect(r.text).toBe('ok');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns true, or fails after `timeoutMs`. */
export async function eventually(what: string, fn: () => Promise<boolean>, timeoutMs = 10_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---- RFC 3339 / uid shapes ----

export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---- validation messages as kube words them (k8s.io/apimachinery/pkg/util/validation) ----

export const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const QUALIFIED_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

// ---- watch ----

export interface WatchEvent {
  type: string;
  object: Obj;
}

/**
 * The one event of a watch asked to start at `since`, older than the history that now begins
 * after `oldest`: an ERROR holding the 410 Expired Status, as kube sends it.
 */
export const expiredWatchEvent = (since: string, oldest: string): WatchEvent => ({
  type: 'ERROR',
  object: {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `too old resource version: ${since} (${oldest})`,
    reason: 'Expired',
    code: 410,
  },
});

/** A watch event with when it arrived, in ms since the watch was opened. */
export interface TimedWatchEvent extends WatchEvent {
  at: number;
}

/**
 * A watch stream read line by line: one JSON event per line, as kube writes them. Every event
 * is kept with its arrival time; `next`/`take` read them in order, `until`/`changes` wait on
 * the whole history.
 */
export class WatchStream {
  status = 0;
  headers?: Headers;
  /** The body of a watch that was refused (not 200). */
  errorBody = '';
  ended = false;
  /** When the stream ended, in ms since it was opened. */
  endedAt = 0;
  readonly events: TimedWatchEvent[] = [];
  private buf = '';
  private read = 0;
  private waiters: (() => void)[] = [];
  private readonly ac = new AbortController();
  private readonly t0 = Date.now();

  private constructor() {}

  static async open(k: KubeClient, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
    const w = new WatchStream();
    const res = await k.fetch(path, { headers, signal: w.ac.signal });
    w.status = res.status;
    w.headers = res.headers;
    if (res.status !== 200) {
      w.errorBody = await res.text();
      w.ended = true;
      return w;
    }
    void w.pump(res.body!);
    return w;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        this.buf += dec.decode(chunk, { stream: true });
        let i: number;
        while ((i = this.buf.indexOf('\n')) >= 0) {
          const line = this.buf.slice(0, i).trim();
          this.buf = this.buf.slice(i + 1);
          if (line) this.events.push({ ...(JSON.parse(line) as WatchEvent), at: Date.now() - this.t0 });
        }
        this.wake();
      }
    } catch {
      // aborted
    } finally {
      this.ended = true;
      this.endedAt = Date.now() - this.t0;
      this.wake();
    }
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    ws.forEach((f) => f());
  }

  /** Waits until `pred` holds over the events (or the stream ends, or time runs out). */
  async until(pred: (evs: TimedWatchEvent[]) => boolean, timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (this.ended) return pred(this.events);
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return true;
  }

  /** The next event not read yet, or undefined if none arrives within `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<WatchEvent | undefined> {
    const ok = await this.until((evs) => evs.length > this.read, timeoutMs);
    return ok ? this.events[this.read++] : undefined;
  }

  /** Exactly `n` events (fails if fewer arrive in time). */
  async take(n: number, timeoutMs = 5000): Promise<WatchEvent[]> {
    const out: WatchEvent[] = [];
    for (let i = 0; i < n; i++) {
      const e = await this.next(timeoutMs);
      if (!e) throw new Error(`watch: expected ${n} events, got ${out.length}: ${JSON.stringify(out.map(summary))}`);
      out.push(e);
    }
    return out;
  }

  /** The events other than bookmarks, once there are `n` of them. */
  async changes(n: number, timeoutMs = 5000): Promise<TimedWatchEvent[]> {
    const ok = await this.until((evs) => evs.filter((e) => e.type !== 'BOOKMARK').length >= n, timeoutMs);
    const got = this.events.filter((e) => e.type !== 'BOOKMARK');
    if (!ok) throw new Error(`watch: expected ${n} events, got ${got.length}: ${got.map((e) => `${summary(e)}@${e.object?.metadata?.resourceVersion ?? ''}`).join(', ')}`);
    return got.slice(0, n);
  }

  /** Whether the stream ends within `timeoutMs`. */
  async waitEnd(timeoutMs = 5000): Promise<boolean> {
    return this.until(() => false, timeoutMs).then(() => this.ended);
  }

  close(): void {
    this.ac.abort();
  }
}

export const summary = (e: WatchEvent): string => `${e.type} ${e.object?.metadata?.name ?? ''}`;
