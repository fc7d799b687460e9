// Server-Side Apply and managedFields, side by side with kube-apiserver 1.33: the requests of
// the suites under scripts/oracle-record/suites were sent to the reference server and its
// answers recorded (test/fixtures/oracle/<suite>/); here the same requests go to kapi and
// every answer must agree with kube's after masking (status, Content-Type, Warning headers,
// body with managedFields entry for entry). Re-record with scripts/oracle-record (README there).
//
// ssa-classes: a few hand-written cases per class of issue 16 (9, 12, 20 to 26), and the
// StatefulSet rules the random sequences meet (classes 2, 3 and 11).
// ssa-random: 200 seeded random sequences of applies by three managers (with and without
// force), PUTs, merge and strategic patches, /status and /scale writes.

import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import { describe as describeDiffs, loadFixtures, replaySequence, tally } from '../../../scripts/oracle-record/replay.js';
import { closeClients } from '../../../scripts/oracle-record/client.js';

const FIXTURES = resolve(import.meta.dirname, '..', '..', 'fixtures', 'oracle');

let k: KapiProcess;
/** kapi as the admin kubeconfig's user (the reference server was asked as its admin). */
const admin = () => ({ url: k.url, cert: k.credentials.cert, key: k.credentials.key });

beforeAll(async () => {
  // No controller lease: its renewal every 2 s is a write the reference server never makes.
  k = await startKapi({ args: ['--leader-elect=false'] });
});

afterAll(async () => {
  closeClients();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('Server-Side Apply classes, as kube-apiserver 1.33 answers them', () => {
  const fixtures = loadFixtures(join(FIXTURES, 'ssa-classes'));
  it('has cases for every class', () => {
    const names = fixtures.flatMap((f) => f.sequences.map((s) => s.name.split('-')[0]));
    expect(new Set(names)).toEqual(new Set(['2', '3', '9', '11', '12', '20', '21', '22', '23', '24', '25', '26']));
  });
  for (const f of fixtures) {
    for (const seq of f.sequences) {
      it(seq.name, async () => {
        const out = await replaySequence(admin(), seq);
        expect(describeDiffs([out]), 'differences from kube-apiserver').toBe('');
      });
    }
  }
});

describe('random Server-Side Apply sequences, as kube-apiserver 1.33 answers them', () => {
  const fixtures = loadFixtures(join(FIXTURES, 'ssa-random'));
  it('holds 200 sequences of 10 to 20 writes', () => {
    const seqs = fixtures.flatMap((f) => f.sequences);
    expect(seqs.length).toBe(200);
    expect(seqs.every((s) => s.steps.filter((st) => st.checks !== undefined).length >= 10)).toBe(true);
  });
  fixtures.forEach((f, i) => {
    it(`part ${i + 1} of ${fixtures.length}: every step agrees`, { timeout: 180_000 }, async () => {
      const outcomes = [];
      for (const seq of f.sequences) outcomes.push(await replaySequence(admin(), seq));
      const t = tally(outcomes);
      expect(describeDiffs(outcomes, 20, true), `${t.unitsAgreeing}/${t.units} steps agree`).toBe('');
    });
  });
});
