// kubectl 1.33 lists and watches: --chunk-size paging (limit and continue), label-selected
// lists, and `kubectl get -w` run in the background while objects change: the table rows it
// prints for each later change, --output-watch-events (with a selector turning changes into
// ADDED and DELETED), and -o name.

import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlPath, removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import { STS_YAML, boundKubectl, expectErr, expectOut, expectTable, stsNamed, tableRegex, tempDir, type Kubectl } from './helpers.js';

let k: KapiProcess;
let kc: Kubectl;
let cacheDir: string;
const background: ChildProcess[] = [];

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
  cacheDir = await tempDir('kapi-kubectl-cache-');
});

afterAll(async () => {
  for (const child of background) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await k?.stop();
  if (k) await removeDir(k.dataDir);
  if (cacheDir) await removeDir(cacheDir);
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const nsYaml = (name: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;

/** STS_YAML named `name` with metadata labels app=`app` and `replicas` replicas. */
const sts = (name: string, app: string, replicas = 3): string =>
  stsNamed(name, `app: ${app}`).replace('  replicas: 3\n', `  replicas: ${replicas}\n`);

const pdb = (name: string, app: string, minAvailable: number): string => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
  labels:
    app: ${app}
spec:
  minAvailable: ${minAvailable}
  selector:
    matchLabels:
      app: ${app}
`;

async function namespace(name: string): Promise<void> {
  expectOut(await kc(['create', '-f', '-'], nsYaml(name)), `namespace/${name} created\n`);
}

/** A kubectl left running (a watch), read while it runs and stopped by the test. */
interface Background {
  stdout(): string;
  stderr(): string;
  /** Waits until stdout (or stderr) satisfies the predicate. */
  waitOut(what: string, pred: (out: string) => boolean, timeoutMs?: number): Promise<void>;
  waitErr(what: string, pred: (err: string) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function kubectlInBackground(args: string[]): Background {
  const child = spawn(kubectlPath(), ['--kubeconfig', k.kubeconfig, '--cache-dir', cacheDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  background.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('close', () => r()));
  const wait = async (what: string, get: () => string, pred: (s: string) => boolean, timeoutMs = 15_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!pred(get())) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`kubectl ${args.join(' ')}: no ${what}\nstdout:\n${out}\nstderr:\n${err}`);
      }
      await sleep(25);
    }
  };
  return {
    stdout: () => out,
    stderr: () => err,
    waitOut: (what, pred, t) => wait(what, () => out, pred, t),
    waitErr: (what, pred, t) => wait(what, () => err, pred, t),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const lineCount = (s: string): number => s.split('\n').length - 1;

/** The GET urls kubectl -v=6 logged for a path (with a query). */
const requested = (stderr: string, path: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => l.includes('"Response"') && l.includes(`${path}?`))
    .map((l) => /url="([^"]+)"/.exec(l)?.[1] ?? '');

describe('kubectl get --chunk-size', () => {
  it('lists 5 StatefulSets 2 at a time: limit=2, then continue tokens, all rows printed', async () => {
    await namespace('chunks');
    for (const n of ['c1', 'c2', 'c3', 'c4', 'c5']) {
      expectOut(await kc(['create', '-n', 'chunks', '-f', '-'], stsNamed(n)), `statefulset.apps/${n} created\n`);
    }
    const r = await kc(['get', 'sts', '-n', 'chunks', '--chunk-size=2', '-v=6']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      tableRegex([
        'NAME   READY   AGE',
        'c1     0/3     <age>',
        'c2     0/3     <age>',
        'c3     0/3     <age>',
        'c4     0/3     <age>',
        'c5     0/3     <age>',
      ]),
    );
    const urls = requested(r.stderr, '/apis/apps/v1/namespaces/chunks/statefulsets');
    expect(urls).toHaveLength(3);
    expect(urls[0]).toBe(`${k.url}/apis/apps/v1/namespaces/chunks/statefulsets?limit=2`);
    const tokens = urls.slice(1).map((u) => {
      const m = /\/statefulsets\?continue=([^&]+)&limit=2$/.exec(u);
      expect(m, u).not.toBeNull();
      return decodeURIComponent(m![1]!);
    });
    // kube's continue token: base64url JSON of the list's revision and the key to start after,
    // relative to the list's key with the watch cache's leading slash (recorded against kube 1.33).
    const decoded = tokens.map((t) => JSON.parse(Buffer.from(t, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(decoded[0]).toEqual({ v: 'meta.k8s.io/v1', rv: expect.any(Number), start: '/c2\u0000' });
    expect(decoded[1]).toEqual({ v: 'meta.k8s.io/v1', rv: decoded[0]!.rv, start: '/c4\u0000' });

    // -o name pages the same way.
    const names = await kc(['get', 'sts', '-n', 'chunks', '--chunk-size=2', '-o', 'name', '-v=6']);
    expect(names.stdout).toBe(['c1', 'c2', 'c3', 'c4', 'c5'].map((n) => `statefulset.apps/${n}\n`).join(''));
    expect(requested(names.stderr, '/apis/apps/v1/namespaces/chunks/statefulsets')).toHaveLength(3);

    // A chunk size larger than the list is one request.
    const one = await kc(['get', 'sts', '-n', 'chunks', '--chunk-size=5', '-o', 'name', '-v=6']);
    expect(one.stdout).toBe(names.stdout);
    expect(requested(one.stderr, '/apis/apps/v1/namespaces/chunks/statefulsets')).toEqual([
      `${k.url}/apis/apps/v1/namespaces/chunks/statefulsets?limit=5`,
    ]);
  });
});

describe('kubectl get -l', () => {
  it('kubectl get pdb -l app=x shows only the matching PodDisruptionBudgets', async () => {
    await namespace('pdbs');
    expectOut(await kc(['create', '-n', 'pdbs', '-f', '-'], pdb('px1', 'x', 1)), 'poddisruptionbudget.policy/px1 created\n');
    expectOut(await kc(['create', '-n', 'pdbs', '-f', '-'], pdb('px2', 'x', 2)), 'poddisruptionbudget.policy/px2 created\n');
    expectOut(await kc(['create', '-n', 'pdbs', '-f', '-'], pdb('other', 'web', 1)), 'poddisruptionbudget.policy/other created\n');
    expectTable(await kc(['get', 'pdb', '-n', 'pdbs', '-l', 'app=x']), [
      'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE',
      'px1    1               N/A               0                     <age>',
      'px2    2               N/A               0                     <age>',
    ]);
    expectOut(
      await kc(['get', 'pdb', '-n', 'pdbs', '-l', 'app!=x', '-o', 'name']),
      'poddisruptionbudget.policy/other\n',
    );
    expectOut(
      await kc(['get', 'pdb', '-n', 'pdbs', '-l', 'app in (x,web)', '-o', 'name']),
      'poddisruptionbudget.policy/other\npoddisruptionbudget.policy/px1\npoddisruptionbudget.policy/px2\n',
    );
    expect(await kc(['get', 'pdb', '-n', 'pdbs', '-l', 'app=nope'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No resources found in pdbs namespace.\n',
    });
    // kubectl sends the selector as is; kube's labels.Parse error comes back as a BadRequest,
    // which kubectl prefixes with the resource and selectors.
    expectErr(
      await kc(['get', 'pdb', '-n', 'pdbs', '-l', 'app==x,']),
      'Error from server (BadRequest): Unable to find "policy/v1, Resource=poddisruptionbudgets" that match label selector "app==x,", field selector "": found \'\', expected: identifier after \',\'\n',
    );
  });
});

describe('kubectl get -w', () => {
  it('prints the list, then a row for each later create, change and delete', async () => {
    await namespace('watch1');
    expectOut(await kc(['create', '-n', 'watch1', '-f', '-'], sts('alpha', 'x')), 'statefulset.apps/alpha created\n');
    const w = kubectlInBackground(['get', 'sts', '-n', 'watch1', '-w']);
    try {
      await w.waitOut('initial table', (o) => lineCount(o) >= 2);
      expect(w.stdout()).toMatch(tableRegex(['NAME    READY   AGE', 'alpha   0/3     <age>']));

      expectOut(await kc(['create', '-n', 'watch1', '-f', '-'], sts('beta', 'x')), 'statefulset.apps/beta created\n');
      await w.waitOut('the row of beta', (o) => lineCount(o) >= 3);
      // kubectl replace (PUT) with 5 replicas.
      expectOut(await kc(['replace', '-n', 'watch1', '-f', '-'], sts('alpha', 'x', 5)), 'statefulset.apps/alpha replaced\n');
      await w.waitOut('the row of the new alpha', (o) => lineCount(o) >= 4);
      expectOut(await kc(['delete', 'sts', '-n', 'watch1', 'beta']), 'statefulset.apps "beta" deleted\n');
      await w.waitOut('the row of the deleted beta', (o) => lineCount(o) >= 5);
      // A longer name widens the NAME column from its row on.
      expectOut(
        await kc(['create', '-n', 'watch1', '-f', '-'], sts('a-much-longer-name', 'x', 1)),
        'statefulset.apps/a-much-longer-name created\n',
      );
      await w.waitOut('the row of a-much-longer-name', (o) => lineCount(o) >= 6);
      await sleep(300);
      expect(w.stdout()).toMatch(
        tableRegex([
          'NAME    READY   AGE',
          'alpha   0/3     <age>',
          'beta    0/3     <age>',
          'alpha   0/5     <age>',
          'beta    0/3     <age>',
          'a-much-longer-name   0/1     <age>',
        ]),
      );
      expect(w.stderr()).toBe('');
    } finally {
      await w.stop();
    }
  });

  it('in an empty namespace: nothing until the first change, then the header with its row', async () => {
    await namespace('watch-empty');
    const w = kubectlInBackground(['get', 'sts', '-n', 'watch-empty', '-w', '-v=6']);
    try {
      // -v=6 logs the list and then the watch from the list's resourceVersion.
      await w.waitErr('the watch request', (e) => requested(e, '/apis/apps/v1/namespaces/watch-empty/statefulsets').length >= 2);
      const urls = requested(w.stderr(), '/apis/apps/v1/namespaces/watch-empty/statefulsets');
      expect(urls[0]).toBe(`${k.url}/apis/apps/v1/namespaces/watch-empty/statefulsets?limit=500`);
      expect(urls[1]).toMatch(/\/statefulsets\?resourceVersion=[0-9]+&watch=true$/);
      expect(w.stdout()).toBe('');

      expectOut(await kc(['create', '-n', 'watch-empty', '-f', '-'], STS_YAML), 'statefulset.apps/web created\n');
      await w.waitOut('the row of web', (o) => lineCount(o) >= 2);
      await sleep(300);
      expect(w.stdout()).toMatch(tableRegex(['NAME   READY   AGE', 'web    0/3     <age>']));
    } finally {
      await w.stop();
    }
  });

  it('--output-watch-events with -l app=x: leaving the selection is DELETED (old state), entering it ADDED', async () => {
    await namespace('watch2');
    expectOut(await kc(['create', '-n', 'watch2', '-f', '-'], sts('alpha', 'x')), 'statefulset.apps/alpha created\n');
    expectOut(await kc(['create', '-n', 'watch2', '-f', '-'], sts('gamma', 'other')), 'statefulset.apps/gamma created\n');
    const w = kubectlInBackground(['get', 'sts', '-n', 'watch2', '-w', '-l', 'app=x', '--output-watch-events']);
    try {
      await w.waitOut('initial table', (o) => lineCount(o) >= 2);
      expect(w.stdout()).toMatch(tableRegex(['EVENT      NAME    READY   AGE', 'ADDED      alpha   0/3     <age>']));

      expectOut(await kc(['create', '-n', 'watch2', '-f', '-'], sts('beta', 'x')), 'statefulset.apps/beta created\n');
      await w.waitOut('ADDED beta', (o) => lineCount(o) >= 3);
      // alpha leaves the selection (and scales to 5): kube sends DELETED with its last selected state.
      expectOut(await kc(['replace', '-n', 'watch2', '-f', '-'], sts('alpha', 'other', 5)), 'statefulset.apps/alpha replaced\n');
      await w.waitOut('DELETED alpha', (o) => lineCount(o) >= 4);
      // Changes outside the selection print nothing; gamma entering it is ADDED.
      expectOut(await kc(['replace', '-n', 'watch2', '-f', '-'], sts('alpha', 'other', 4)), 'statefulset.apps/alpha replaced\n');
      expectOut(await kc(['replace', '-n', 'watch2', '-f', '-'], sts('gamma', 'x', 2)), 'statefulset.apps/gamma replaced\n');
      await w.waitOut('ADDED gamma', (o) => lineCount(o) >= 5);
      expectOut(await kc(['replace', '-n', 'watch2', '-f', '-'], sts('beta', 'x', 1)), 'statefulset.apps/beta replaced\n');
      await w.waitOut('MODIFIED beta', (o) => lineCount(o) >= 6);
      expectOut(await kc(['delete', 'sts', '-n', 'watch2', 'beta']), 'statefulset.apps "beta" deleted\n');
      await w.waitOut('DELETED beta', (o) => lineCount(o) >= 7);
      await sleep(300);
      expect(w.stdout()).toMatch(
        tableRegex([
          'EVENT      NAME    READY   AGE',
          'ADDED      alpha   0/3     <age>',
          'ADDED      beta    0/3     <age>',
          'DELETED    alpha   0/3     <age>',
          'ADDED      gamma   0/2     <age>',
          'MODIFIED   beta    0/1     <age>',
          'DELETED    beta    0/1     <age>',
        ]),
      );
      expect(w.stderr()).toBe('');
    } finally {
      await w.stop();
    }
  });

  it('kubectl get sts -w --output-watch-events -o name prints resource/name per event', async () => {
    await namespace('watch3');
    expectOut(await kc(['create', '-n', 'watch3', '-f', '-'], sts('one', 'x')), 'statefulset.apps/one created\n');
    const w = kubectlInBackground(['get', 'sts', '-n', 'watch3', '-w', '--output-watch-events', '-o', 'name']);
    try {
      await w.waitOut('the listed object', (o) => lineCount(o) >= 1);
      expectOut(await kc(['create', '-n', 'watch3', '-f', '-'], sts('two', 'x')), 'statefulset.apps/two created\n');
      expectOut(await kc(['replace', '-n', 'watch3', '-f', '-'], sts('one', 'x', 2)), 'statefulset.apps/one replaced\n');
      expectOut(await kc(['delete', 'sts', '-n', 'watch3', 'two']), 'statefulset.apps "two" deleted\n');
      await w.waitOut('4 lines', (o) => lineCount(o) >= 4);
      await sleep(300);
      // The name printer shows the object of each event, not the event type.
      expect(w.stdout()).toBe('statefulset.apps/one\nstatefulset.apps/two\nstatefulset.apps/one\nstatefulset.apps/two\n');
      expect(w.stderr()).toBe('');
    } finally {
      await w.stop();
    }
  });

  it('kubectl get pdb -w -l app=x -o name: only the selected PodDisruptionBudgets', async () => {
    await namespace('watch4');
    expectOut(await kc(['create', '-n', 'watch4', '-f', '-'], pdb('p1', 'x', 1)), 'poddisruptionbudget.policy/p1 created\n');
    const w = kubectlInBackground(['get', 'pdb', '-n', 'watch4', '-w', '-l', 'app=x', '--output-watch-events', '-o', 'name']);
    try {
      await w.waitOut('the listed object', (o) => lineCount(o) >= 1);
      expectOut(await kc(['create', '-n', 'watch4', '-f', '-'], pdb('skip', 'web', 1)), 'poddisruptionbudget.policy/skip created\n');
      expectOut(await kc(['create', '-n', 'watch4', '-f', '-'], pdb('p2', 'x', 1)), 'poddisruptionbudget.policy/p2 created\n');
      expectOut(await kc(['delete', 'pdb', '-n', 'watch4', 'p1']), 'poddisruptionbudget.policy "p1" deleted\n');
      await w.waitOut('3 lines', (o) => lineCount(o) >= 3);
      await sleep(300);
      expect(w.stdout()).toBe('poddisruptionbudget.policy/p1\npoddisruptionbudget.policy/p2\npoddisruptionbudget.policy/p1\n');
      expect(w.stderr()).toBe('');
    } finally {
      await w.stop();
    }
  });
});
