// The fixture recorder's command line (README.md beside it):
//
//   record  <suite...> --server URL [--token T]   send each suite's requests to the reference
//           server and write its masked answers to test/fixtures/oracle/<suite>/
//   compare <suite...> --server URL [--token T] --kapi URL
//           send the requests to both servers, side by side, and print where they differ
//   replay  <suite...> --kapi URL                 compare kapi with the recorded fixtures
//           (--kapi-kubeconfig F instead of --kapi: kapi's URL and client certificate from F)
//
// Options: --only <sequence-name-prefix>, --per-file N (sequences per fixture file), --first (only the
// first difference of each sequence),
// --file F (a JSON list of sequences as an ad-hoc suite, for compare).

import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { closeClients, send, type Server } from './client.js';
import type { Answer, Fixture, RecordedStep, Sequence } from './format.js';
import { describe, loadFixtures, replaySequence, tally, type SequenceOutcome } from './replay.js';
import { compareAnswers } from './compare.js';
import { runSequence } from './run.js';
import { SUITES } from './suites/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'oracle');

interface Args {
  cmd: string;
  suites: string[];
  server?: Server;
  kapi?: Server;
  only?: string;
  perFile: number;
  /** Print only the first differing step of each sequence (what follows often differs because of it). */
  first: boolean;
}

/** kapi's URL and client certificate from a kubeconfig kapi wrote (certificate data inline). */
function fromKubeconfig(path: string): Server {
  const doc = parseYaml(readFileSync(path, 'utf8')) as {
    clusters?: { cluster: { server: string } }[];
    users?: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
  };
  const url = doc.clusters?.[0]?.cluster.server;
  if (!url) throw new Error(`${path}: no cluster server`);
  const user = doc.users?.[0]?.user ?? {};
  const unb64 = (s: string | undefined) => (s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8'));
  return { url, cert: unb64(user['client-certificate-data']), key: unb64(user['client-key-data']) };
}

function parseArgs(argv: string[]): Args {
  const [cmd, ...rest] = argv;
  const a: Args = { cmd, suites: [], perFile: 25, first: false };
  let token: string | undefined;
  let server: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const x = rest[i];
    const val = () => {
      const v = rest[++i];
      if (v === undefined) throw new Error(`${x} needs a value`);
      return v;
    };
    if (x === '--server') server = val();
    else if (x === '--token') token = val();
    else if (x === '--kapi') a.kapi = { url: val() };
    else if (x === '--kapi-kubeconfig') a.kapi = fromKubeconfig(val());
    else if (x === '--only') a.only = val();
    else if (x === '--first') a.first = true;
    else if (x === '--per-file') a.perFile = Number(val());
    else if (x === '--file') {
      // An ad-hoc suite: a JSON file holding a list of sequences (for exploring by hand).
      const file = val();
      const seqs = JSON.parse(readFileSync(file, 'utf8')) as Sequence[];
      SUITES[file] = { name: file, sequences: () => seqs };
      a.suites.push(file);
    }
    else if (x.startsWith('--')) throw new Error(`unknown option ${x}`);
    else a.suites.push(x);
  }
  if (server) a.server = { url: server, token: token ?? 'oracle-token' };
  if (!['record', 'compare', 'replay'].includes(cmd) || a.suites.length === 0) {
    throw new Error('usage: record|compare|replay <suite...> [--server URL --token T] [--kapi URL] [--only PREFIX] [--per-file N]');
  }
  for (const s of a.suites) if (!SUITES[s]) throw new Error(`unknown suite ${s} (known: ${Object.keys(SUITES).join(', ')})`);
  return a;
}

/** One line per step, so a re-recording's diff shows which answers changed. */
function formatFixture(f: Fixture): string {
  const lines = ['{', `  "suite": ${JSON.stringify(f.suite)},`, `  "recordedWith": ${JSON.stringify(f.recordedWith)},`];
  if (f.generator) lines.push(`  "generator": ${JSON.stringify(f.generator)},`);
  lines.push('  "sequences": [');
  f.sequences.forEach((s, i) => {
    lines.push(`    {"name": ${JSON.stringify(s.name)}, "steps": [`);
    s.steps.forEach((st, j) => lines.push(`      ${JSON.stringify(st)}${j < s.steps.length - 1 ? ',' : ''}`));
    lines.push(`    ]}${i < f.sequences.length - 1 ? ',' : ''}`);
  });
  lines.push('  ]', '}', '');
  return lines.join('\n');
}

async function serverVersion(s: Server): Promise<string> {
  const r = await send(s, 'GET', '/version', { accept: 'application/json' });
  return (JSON.parse(r.text) as { gitVersion?: string }).gitVersion ?? 'unknown';
}

function selected(seqs: Sequence[], only?: string): Sequence[] {
  return only ? seqs.filter((s) => s.name.startsWith(only)) : seqs;
}

async function record(a: Args): Promise<void> {
  if (!a.server) throw new Error('record needs --server');
  const version = await serverVersion(a.server);
  for (const name of a.suites) {
    const suite = SUITES[name];
    const seqs = selected(suite.sequences(), a.only);
    const recorded: Sequence<RecordedStep>[] = [];
    for (const seq of seqs) recorded.push(await recordStable(a.server, seq));
    const dir = join(FIXTURES, name);
    if (!a.only) rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = Math.max(1, Math.ceil(recorded.length / a.perFile));
    for (let i = 0; i < files; i++) {
      const part = recorded.slice(i * a.perFile, (i + 1) * a.perFile);
      const ext = suite.gzip ? '.json.gz' : '.json';
      const file = files === 1 ? `${name}${ext}` : `${name}-${String(i + 1).padStart(3, '0')}${ext}`;
      const text = formatFixture({ suite: name, recordedWith: version, ...(suite.generator ? { generator: suite.generator } : {}), sequences: part });
      writeFileSync(join(dir, file), suite.gzip ? gzipSync(text, { level: 9 }) : text);
    }
    console.log(`${name}: ${recorded.length} sequences, ${recorded.reduce((n, s) => n + s.steps.length, 0)} requests recorded into ${dir} (${readdirSync(dir).length} files)`);
  }
}

/**
 * A sequence's answers as the reference server gives them most of the time: kube is not
 * quite deterministic (Go map order, one-second times), so every sequence runs twice, and
 * where the runs differ a third time, each step keeping the answer two runs agree on.
 */
async function recordStable(server: Server, seq: Sequence): Promise<Sequence<RecordedStep>> {
  // Compared as the tests compare them (managedFields in one order, conflict causes sorted).
  const same = (x: Answer, y: Answer) => compareAnswers(x, y).length === 0;
  const answers = (res: Awaited<ReturnType<typeof runSequence>>) => res.map((r) => r.answer);
  const first = answers(await runSequence(server, seq));
  const second = answers(await runSequence(server, seq));
  let chosen = first;
  if (first.some((x, i) => !same(x, second[i]))) {
    const third = answers(await runSequence(server, seq));
    chosen = first.map((x, i) => (same(x, second[i]) || same(x, third[i]) ? x : same(second[i], third[i]) ? second[i] : x));
    const unsettled = first.filter((x, i) => !same(x, second[i]) && !same(x, third[i]) && !same(second[i], third[i])).length;
    console.log(`${seq.name}: the reference server answered differently between runs${unsettled ? ` (${unsettled} steps without a majority)` : ''}`);
  }
  return { name: seq.name, steps: seq.steps.map((st, i) => ({ ...st, answer: chosen[i] })) };
}

function report(name: string, outcomes: SequenceOutcome[], first: boolean): void {
  const t = tally(outcomes);
  const diff = describe(outcomes, 1000, first);
  if (diff) console.log(diff);
  const pct = (x: number, n: number) => (n ? ((100 * x) / n).toFixed(1) : '100.0');
  console.log(`${name}: ${t.unitsAgreeing}/${t.units} steps agree (${pct(t.unitsAgreeing, t.units)}%), ${t.sequencesAgreeing}/${t.sequences} sequences (${pct(t.sequencesAgreeing, t.sequences)}%)`);
}

async function compare(a: Args): Promise<void> {
  if (!a.server || !a.kapi) throw new Error('compare needs --server and --kapi');
  for (const name of a.suites) {
    const outcomes: SequenceOutcome[] = [];
    for (const seq of selected(SUITES[name].sequences(), a.only)) {
      const res = await runSequence(a.server, seq);
      const rec: Sequence<RecordedStep> = { name: seq.name, steps: seq.steps.map((st, i) => ({ ...st, answer: res[i].answer })) };
      outcomes.push(await replaySequence(a.kapi, rec));
    }
    report(name, outcomes, a.first);
  }
}

async function replay(a: Args): Promise<void> {
  if (!a.kapi) throw new Error('replay needs --kapi');
  for (const name of a.suites) {
    const outcomes: SequenceOutcome[] = [];
    for (const f of loadFixtures(join(FIXTURES, name))) {
      for (const seq of f.sequences) if (!a.only || seq.name.startsWith(a.only)) outcomes.push(await replaySequence(a.kapi, seq));
    }
    report(name, outcomes, a.first);
  }
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  try {
    if (a.cmd === 'record') await record(a);
    else if (a.cmd === 'compare') await compare(a);
    else await replay(a);
  } finally {
    closeClients();
  }
}

main().catch((e: unknown) => {
  console.error((e as Error).stack ?? (e as Error).message);
  process.exitCode = 1;
});
