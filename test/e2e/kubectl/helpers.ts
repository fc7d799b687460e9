// Shared pieces of the kubectl end-to-end suites: manifests, a runner for a chosen kubectl
// version with its own discovery cache, and table matching with AGE columns as regexes.

import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { kubectlPath, type KapiProcess, type KubectlResult } from '../../support/server.js';

export const STS_YAML = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  labels:
    app: web
spec:
  serviceName: nginx
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.8
        ports:
        - containerPort: 80
          name: web
`;

/** STS_YAML with another name (labels stay app=web). */
export const stsNamed = (name: string, labels = 'app: web'): string =>
  STS_YAML.replace('  name: web\n  labels:\n    app: web\n', `  name: ${name}\n  labels:\n    ${labels}\n`);

export const PDB_YAML = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
spec:
  minAvailable: 2
  selector:
    matchLabels:
      app: web
`;

export const PDB_MAX_YAML = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb-max
spec:
  maxUnavailable: 25%
  selector:
    matchLabels:
      app: web
`;

export const PC_YAML = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high-priority
value: 1000000
globalDefault: false
description: "for important pods"
`;

/** Selector app=bad, template labels app=other. */
export const BAD_STS_YAML = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: bad
spec:
  serviceName: bad
  selector:
    matchLabels:
      app: bad
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: c
        image: busybox:1.36
`;

export const globalDefaultPC = (name: string, value: number): string => `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: ${name}
value: ${value}
globalDefault: true
`;

export async function tempDir(prefix = 'kapi-kubectl-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function writeManifest(dir: string, name: string, text: string): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, text);
  return p;
}

export { kubectlVersion } from '../../support/kubectl-bin.js';

/**
 * Runs a kubectl binary against kapi with a private discovery cache, so every suite (and
 * every kubectl version) really asks the server for discovery instead of reading ~/.kube/cache.
 */
export function runKubectl(
  bin: string,
  k: KapiProcess,
  cacheDir: string,
  args: string[],
  input?: string,
): Promise<KubectlResult> {
  const full = ['--kubeconfig', k.kubeconfig, '--cache-dir', cacheDir, ...args];
  return new Promise((resolvePromise) => {
    const child = spawn(bin, full, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** A kubectl bound to one server, one binary and one private cache dir. */
export type Kubectl = (args: string[], input?: string) => Promise<KubectlResult>;

export async function boundKubectl(k: KapiProcess, bin = kubectlPath()): Promise<Kubectl> {
  const cache = await tempDir('kapi-kubectl-cache-');
  return (args, input) => runKubectl(bin, k, cache, args, input);
}

/** kubectl's translateTimestampSince: 5s, 3m2s, 10m, 2h5m, 3d4h, ... */
export const AGE = '(?:[0-9]+s|[0-9]+m(?:[0-9]+s)?|[0-9]+h(?:[0-9]+m)?|[0-9]+d(?:[0-9]+h)?|[0-9]+y(?:[0-9]+d)?)';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regex for kubectl table output: each expected line is literal text where `<age>` stands for
 * an AGE cell. The padding after an AGE cell depends on the widest age, so it matches any run
 * of spaces; everything else (including the column padding before it) must match exactly.
 */
export function tableRegex(lines: string[]): RegExp {
  const body = lines
    .map((line) =>
      line
        .split(/(<age> *)/)
        .map((part) => {
          if (part.startsWith('<age>')) return part.length > '<age>'.length ? `${AGE} +` : AGE;
          return escapeRe(part);
        })
        .join(''),
    )
    .join('\n');
  return new RegExp(`^${body}\n$`);
}

/** Asserts a successful kubectl run whose stdout is exactly the table. */
export function expectTable(r: KubectlResult, lines: string[]): void {
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(tableRegex(lines));
}

/** Asserts a successful run with exactly this stdout (and no stderr). */
export function expectOut(r: KubectlResult, stdout: string): void {
  expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout, stderr: '' });
}

/** Asserts a failed run (exit 1) with exactly this stderr and no stdout. */
export function expectErr(r: KubectlResult, stderr: string): void {
  expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: '', stderr });
}

export const UID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const RV_RE = /^[0-9]+$/;

/** Replaces the volatile metadata lines of `kubectl get -o yaml` with placeholders. */
export function normalizeYaml(yaml: string): string {
  return yaml
    .replace(/^(\s*creationTimestamp: )"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"$/gm, '$1<ts>')
    .replace(/^(\s*resourceVersion: )"[0-9]+"$/gm, '$1<rv>')
    .replace(/^(\s*uid: )[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/gm, '$1<uid>');
}
