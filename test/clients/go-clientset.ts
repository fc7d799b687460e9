// Builds and runs test/clients/go/clientset, the client-go v0.33 program behind go.test.ts:
// one `go build` serves both of its modes (-content-type protobuf | cbor).
//
// Needs Go (>= 1.24) on PATH; the first build downloads client-go through the module proxy
// (or GOPROXY/GOFLAGS from the environment) and compiles it into the default Go build cache.

import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PROGRAM_DIR = resolve(import.meta.dirname, 'go', 'clientset');
// A cold build (empty module and build caches) took 3.5 min on a busy 2-CPU box; a warm one is seconds.
export const BUILD_TIMEOUT_MS = 600_000;
export const RUN_TIMEOUT_MS = 120_000;

export type ContentType = 'protobuf' | 'cbor';

/** The one JSON line the program prints. */
export interface ClientResults {
  ok: boolean;
  checks: number;
  failures: string[];
  requests: number;
  responseContentTypes: Record<string, number>;
  requestContentTypes: Record<string, number>;
  steps: string[] | null;
  statefulSet?: Record<string, unknown>;
  listCounts?: Record<string, number>;
  watchEvents?: string[];
  errors?: Record<string, string>;
  namespace?: { name: string; phase: string; finalizers: string[] };
  priorityClass?: { name: string; value: number; preemptionPolicy: string };
  podDisruptionBudget?: { name: string; minAvailable: string };
  /** Per served resource (by plural): the round trip of one object. */
  kinds?: Record<string, { created: boolean; got: boolean; listed: number; status?: boolean; watched: string[]; deleted: boolean; encoding?: string[] }>;
  scale?: { before: number; after: number };
  /** Paths whose protobuf bytes matched apimachinery's (protobuf mode). */
  encodings?: string[];
  elapsedMs: number;
}

export interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface ClientRun {
  contentType: ContentType;
  run: Run;
  /** Undefined when stdout had no JSON line (the program crashed or never got going). */
  results: ClientResults | undefined;
}

function exec(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeout: number }): Promise<Run> {
  const t0 = performance.now();
  return new Promise((resolvePromise) => {
    execFile(file, args, { ...opts, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number | string; signal?: string }) | null;
      resolvePromise({
        code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
        signal: e?.signal ?? null,
        stdout: String(stdout),
        stderr: String(stderr) + (e && typeof e.code !== 'number' && !e.signal ? `\n${e.message}` : ''),
        ms: performance.now() - t0,
      });
    });
  });
}

const goEnv: NodeJS.ProcessEnv = {
  ...process.env,
  // Resolve/verify modules from go.mod + go.sum even if a vendor dir or a readonly default is
  // configured; never switch toolchains; don't shell out to git for VCS stamping.
  GOFLAGS: '-mod=mod -buildvcs=false',
  GOTOOLCHAIN: 'local',
};

export interface ClientsetBinary {
  path: string;
  remove(): Promise<void>;
}

/** `go build`s the program into a fresh temporary directory; throws with Go's output on failure. */
export async function buildClientset(): Promise<ClientsetBinary> {
  const probe = spawnSync('go', ['version'], { env: goEnv, encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `"go" is not on PATH (or does not run): ${probe.error?.message ?? probe.stderr}. ` +
        'test/clients/go.test.ts builds a client-go program and needs Go >= 1.24 (CI installs it).',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'kapi-go-clientset-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'clientset');
  const build = await exec('go', ['build', '-o', path, './...'], { cwd: PROGRAM_DIR, env: goEnv, timeout: BUILD_TIMEOUT_MS });
  if (build.code !== 0) {
    await remove();
    throw new Error(
      `go build in ${PROGRAM_DIR} failed (code ${build.code}, signal ${build.signal}, ${Math.round(build.ms)} ms):\n${build.stderr}${build.stdout}`,
    );
  }
  console.log(`go build of clientset: ${Math.round(build.ms)} ms (${probe.stdout.trim()})`);
  return { path, remove };
}

/** Runs the program in one mode against the kapi behind `kubeconfig`. */
export async function runClientset(bin: string, contentType: ContentType, kubeconfig: string): Promise<ClientRun> {
  // client-go only speaks CBOR with its own (alpha) gate on.
  const env = contentType === 'cbor' ? { ...process.env, KUBE_FEATURE_ClientsAllowCBOR: 'true' } : process.env;
  const run = await exec(bin, ['-content-type', contentType, kubeconfig], { env, timeout: RUN_TIMEOUT_MS });
  const line = run.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  return { contentType, run, results: line ? (JSON.parse(line) as ClientResults) : undefined };
}

/** Everything worth seeing when an assertion on a run fails. */
export function describeRun({ contentType, run, results }: ClientRun): string {
  return [
    `clientset -content-type ${contentType} exit code ${run.code}${run.signal ? ` (signal ${run.signal})` : ''} after ${Math.round(run.ms)} ms`,
    results ? `failures:\n  - ${results.failures.join('\n  - ')}` : 'no JSON results line on stdout',
    `stderr:\n${run.stderr.slice(-8000)}`,
    `stdout:\n${run.stdout.slice(-4000)}`,
  ].join('\n');
}
