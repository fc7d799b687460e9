// client-go v0.33 against kapi, speaking CBOR only: builds test/clients/go/cbor-client (the
// protobuf client's program with ContentType and AcceptContentTypes = application/cbor, run
// with client-go's ClientsAllowCBOR gate on) and runs it against a kapi started with
// --feature-gates CBORServingAndStorage=true. The program creates, gets, updates, lists
// (label selectors), watches (MODIFIED, DELETED) and deletes StatefulSets, creates/gets a
// Namespace, PriorityClasses and PodDisruptionBudgets, checks that fields round-trip and
// match a JSON read of the same object, and that every response it got was CBOR (errors
// included; the watch as application/cbor-seq). It prints one JSON line and exits non-zero on
// any mismatch.
//
// Needs Go (>= 1.24) on PATH; the first build downloads client-go through the module proxy
// (or GOPROXY/GOFLAGS from the environment) and compiles it into the default Go build cache.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { removeDir, startKapi, type KapiProcess } from '../support/server.js';

const PROGRAM_DIR = resolve(import.meta.dirname, 'go', 'cbor-client');
// A cold build (empty module and build caches) took 3.5 min on a busy 2-CPU box; a warm one is seconds.
const BUILD_TIMEOUT_MS = 600_000;
const RUN_TIMEOUT_MS = 120_000;
const CBOR = 'application/cbor';

interface ClientResults {
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
  elapsedMs: number;
}

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
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

let binDir = '';
let bin = '';
let k: KapiProcess | undefined;
let run: Run;
let results: ClientResults | undefined;

beforeAll(async () => {
  const probe = spawnSync('go', ['version'], { env: goEnv, encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `"go" is not on PATH (or does not run): ${probe.error?.message ?? probe.stderr}. ` +
        'test/clients/go-cbor.test.ts builds a client-go program and needs Go >= 1.24 (CI installs it).',
    );
  }
  binDir = await mkdtemp(join(tmpdir(), 'kapi-go-cbor-client-'));
  bin = join(binDir, 'cbor-client');
  const build = await exec('go', ['build', '-o', bin, './...'], { cwd: PROGRAM_DIR, env: goEnv, timeout: BUILD_TIMEOUT_MS });
  if (build.code !== 0) {
    throw new Error(
      `go build in ${PROGRAM_DIR} failed (code ${build.code}, signal ${build.signal}, ${Math.round(build.ms)} ms):\n${build.stderr}${build.stdout}`,
    );
  }
  console.log(`go build of cbor-client: ${Math.round(build.ms)} ms (${probe.stdout.trim()})`);

  k = await startKapi({ args: ['--feature-gates', 'CBORServingAndStorage=true'] });
  // client-go only speaks CBOR with its own (alpha) gate on.
  run = await exec(bin, [k.kubeconfig], { env: { ...process.env, KUBE_FEATURE_ClientsAllowCBOR: 'true' }, timeout: RUN_TIMEOUT_MS });
  const line = run.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (line) results = JSON.parse(line) as ClientResults;
}, BUILD_TIMEOUT_MS + RUN_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await k?.stop();
  if (k) await removeDir(k.dataDir);
  if (binDir) await rm(binDir, { recursive: true, force: true });
});

function describeRun(): string {
  return [
    `cbor-client exit code ${run.code}${run.signal ? ` (signal ${run.signal})` : ''} after ${Math.round(run.ms)} ms`,
    results ? `failures:\n  - ${results.failures.join('\n  - ')}` : 'no JSON results line on stdout',
    `stderr:\n${run.stderr.slice(-8000)}`,
    `stdout:\n${run.stdout.slice(-4000)}`,
  ].join('\n');
}

describe('client-go v0.33 CBOR-only clientset against kapi', () => {
  it('exits 0 with no mismatches', () => {
    expect(results, describeRun()).toBeDefined();
    expect(results!.failures, describeRun()).toEqual([]);
    expect(run.code, describeRun()).toBe(0);
    expect(results!.ok).toBe(true);
    expect(results!.checks).toBeGreaterThan(150);
  });

  it('ran every step', () => {
    expect(results?.steps).toEqual([
      'namespace.create',
      'namespace.get',
      'priorityclass.create',
      'priorityclass.get',
      'pdb.create',
      'pdb.get',
      'statefulset.create',
      'statefulset.get',
      'statefulset.update',
      'statefulset.create-more',
      'statefulset.list',
      'statefulset.watch',
      'statefulset.update2',
      'statefulset.delete',
      'statefulset.watch-events',
      'errors',
      'encoding',
    ]);
  });

  it('spoke CBOR only, both ways (watch as application/cbor-seq)', () => {
    const r = results!;
    expect(r.requests).toBeGreaterThan(25);
    expect(Object.keys(r.requestContentTypes)).toEqual([CBOR]);
    expect(r.responseContentTypes['application/cbor-seq']).toBe(1);
    const nonCbor = Object.keys(r.responseContentTypes).filter((t) => t !== CBOR && t !== 'application/cbor-seq');
    expect(nonCbor, `responses that were not CBOR: ${JSON.stringify(r.responseContentTypes)}`).toEqual([]);
  });

  it('StatefulSet: update, label-selector lists, watch MODIFIED then DELETED', () => {
    const r = results!;
    expect(r.statefulSet).toMatchObject({ containers: 1, ports: 3, env: 5, volumeClaimTemplates: 1, replicasAfterWatch: 7, generation: 3 });
    expect(r.listCounts).toEqual({
      '': 3,
      'app=pb-client': 2,
      'app=pb-client,role=primary': 1,
      'role in (primary,replica)': 3,
      'app!=pb-client': 1,
      'app.kubernetes.io/managed-by': 2,
      '!app.kubernetes.io/managed-by': 1,
      'app=nothing': 0,
    });
    expect(r.watchEvents).toEqual(['MODIFIED web replicas=7', 'DELETED web replicas=7']);
    expect(r.errors).toEqual({ getDeleted: 'NotFound', createDuplicate: 'AlreadyExists' });
  });

  it('Namespace, PriorityClass and PodDisruptionBudget', () => {
    const r = results!;
    expect(r.namespace).toMatchObject({ name: 'cbor-client', phase: 'Active', finalizers: ['kubernetes'] });
    expect(r.priorityClass).toEqual({ name: 'pb-client-high', value: 1000000, preemptionPolicy: 'Never' });
    expect(r.podDisruptionBudget).toEqual({ name: 'pb-client-pdb', minAvailable: '2' });
  });
});
