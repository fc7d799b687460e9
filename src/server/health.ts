// /healthz, /livez and /readyz with the output and status codes of k8s.io/apiserver's healthz
// package, which monitoring and kubectl ("kubectl get --raw /readyz?verbose") rely on.

import type Router from '@koa/router';
import type { ParameterizedContext } from 'koa';
import { PageNotFound } from '../machinery/errors.js';

export interface HealthCheck {
  name: string;
  /** Listed under /livez (and, with readyz, under the deprecated /healthz). */
  livez: boolean;
  /** Listed under /readyz. */
  readyz: boolean;
  /** Throws or rejects to fail. */
  run(): Promise<void>;
  /**
   * A post-start hook's check (kube's poststarthook/<name>): within --livez-grace-period of
   * the start, /livez takes an unfinished hook as one that will finish.
   */
  postStartHook?: boolean;
}

export interface HealthOptions {
  /** --livez-grace-period, ms. */
  livezGracePeriodMs?: number;
  /** When the server started (ms since the epoch). */
  startedAt?: number;
}

type Ctx = ParameterizedContext;

// Kube installs these two on every endpoint; neither can fail here (pino never blocks the
// event loop the way a stuck klog flush can).
const BUILTIN: HealthCheck[] = [
  { name: 'ping', livez: true, readyz: true, run: async () => {} },
  { name: 'log', livez: true, readyz: true, run: async () => {} },
];

const TEXT = 'text/plain; charset=utf-8';

/** Go's %q for the names kube prints in its warning line. */
const quote = (s: string): string => JSON.stringify(s);

/** Go's http.Error: plain text, nosniff, and a trailing newline. */
function httpError(ctx: Ctx, message: string, status: number): void {
  ctx.status = status;
  ctx.set('Content-Type', TEXT);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `${message}\n`;
}

function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

async function runCheck(check: HealthCheck): Promise<Error | undefined> {
  try {
    await check.run();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** A liveness check of a post-start hook passes while the grace period lasts. */
function graced(check: HealthCheck, endpoint: string, opts: HealthOptions): boolean {
  if (endpoint !== 'livez' || !check.postStartHook || !opts.livezGracePeriodMs) return false;
  return Date.now() - (opts.startedAt ?? 0) < opts.livezGracePeriodMs;
}

async function runFor(check: HealthCheck, endpoint: string, opts: HealthOptions): Promise<Error | undefined> {
  const err = await runCheck(check);
  return err && graced(check, endpoint, opts) ? undefined : err;
}

function handleRoot(endpoint: string, checks: HealthCheck[], opts: HealthOptions) {
  return async (ctx: Ctx): Promise<void> => {
    const query = new URLSearchParams(ctx.querystring);
    const excluded = new Set(query.getAll('exclude'));
    // Checks run concurrently but report in registration order, so output stays stable.
    const results = await Promise.all(
      checks.map((c) => (excluded.has(c.name) ? Promise.resolve(undefined) : runFor(c, endpoint, opts))),
    );
    let out = '';
    let failed = false;
    checks.forEach((c, i) => {
      if (excluded.has(c.name)) {
        excluded.delete(c.name);
        out += `[+]${c.name} excluded: ok\n`;
      } else if (results[i]) {
        // The reason stays out of the public body; the per-check endpoint shows it.
        out += `[-]${c.name} failed: reason withheld\n`;
        failed = true;
      } else {
        out += `[+]${c.name} ok\n`;
      }
    });
    if (excluded.size > 0) {
      const names = [...excluded].sort().map(quote).join(',');
      out += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
    }
    // Kube is always verbose on failure.
    if (failed) {
      httpError(ctx, `${out}${endpoint} check failed`, 500);
      return;
    }
    ctx.status = 200;
    ctx.set('Content-Type', TEXT);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = query.has('verbose') ? `${out}${endpoint} check passed\n` : 'ok';
  };
}

/**
 * Installs the three health endpoints and one sub-path per check. /healthz lists the checks
 * that are both liveness and readiness checks (kube's AddHealthChecks), /livez and /readyz
 * those flagged for them; `ping` and `log` come first on all three.
 */
export function installHealth(router: Router, checks: HealthCheck[], opts: HealthOptions = {}): void {
  const endpoints: Array<[string, HealthCheck[]]> = [
    ['healthz', [...BUILTIN, ...checks.filter((c) => c.livez && c.readyz)]],
    ['livez', [...BUILTIN, ...checks.filter((c) => c.livez)]],
    ['readyz', [...BUILTIN, ...checks.filter((c) => c.readyz)]],
  ];
  for (const [endpoint, list] of endpoints) {
    const byName = new Map(list.map((c) => [c.name, c]));
    // kube's mux serves these paths exactly (`/readyz/` is a 404) and for any method.
    router.all(new RegExp(`^/${endpoint}$`), handleRoot(endpoint, list, opts));
    // Check names may contain slashes (poststarthook/...), so the rest of the path is the name.
    router.all(new RegExp(`^/${endpoint}/(.+)$`), async (ctx) => {
      const check = byName.get(decodePath(ctx.path.slice(endpoint.length + 2)));
      if (!check) throw new PageNotFound();
      const err = await runFor(check, endpoint, opts);
      if (err) {
        // Unlike the aggregate endpoint, a single check's endpoint does tell why.
        httpError(ctx, `internal server error: ${err.message}`, 500);
        return;
      }
      ctx.status = 200;
      ctx.set('Content-Type', TEXT);
      ctx.body = 'ok';
    });
  }
}

/**
 * The names of the /readyz checks failing now, less those in `skip`: what the balancer's check
 * port (balancer-check.ts) reports, from the same checks /readyz runs.
 */
export async function failingReadyzChecks(checks: HealthCheck[], skip: string[] = []): Promise<string[]> {
  const list = [...BUILTIN, ...checks.filter((c) => c.readyz && !skip.includes(c.name))];
  const results = await Promise.all(list.map((c) => runCheck(c)));
  return list.filter((_, i) => results[i]).map((c) => c.name);
}

/** Every health path the server answers (for the root index). */
export function healthPaths(checks: HealthCheck[]): string[] {
  const all = [...BUILTIN, ...checks];
  const out: string[] = [];
  for (const ep of ['healthz', 'livez', 'readyz']) {
    out.push(`/${ep}`);
    for (const c of all) {
      if (ep === 'healthz' ? c.livez && c.readyz : ep === 'livez' ? c.livez : c.readyz) out.push(`/${ep}/${c.name}`);
    }
  }
  return out;
}
