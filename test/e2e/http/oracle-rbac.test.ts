// RBAC objects and access reviews side by side with kube-apiserver 1.33: the requests of
// scripts/oracle-record/suites/rbac.ts were sent to the reference server (started with
// --authorization-mode=Node,RBAC) as its administrator and its answers recorded
// (test/fixtures/oracle/rbac/); here kapi's administrator sends the same requests and every
// answer must agree after masking: validation messages and causes of roles and bindings,
// defaults, and SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview and
// SelfSubjectRulesReview answers (allowed, reasons naming the binding, the Node authorizer's
// and system:masters' answers, validation; field and label selectors of reviews; the Node
// authorizer over a pod bound to a node and the secrets, config maps, claim and account it
// uses, and its rules for kinds kapi does not serve). Re-record with scripts/oracle-record (README there).

import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import { describe as describeDiffs, loadFixtures, replaySequence } from '../../../scripts/oracle-record/replay.js';
import { closeClients } from '../../../scripts/oracle-record/client.js';

const FIXTURES = resolve(import.meta.dirname, '..', '..', 'fixtures', 'oracle');

let k: KapiProcess;
const admin = () => ({ url: k.url, cert: k.credentials.cert, key: k.credentials.key });

beforeAll(async () => {
  // The reference server runs with --disable-admission-plugins=ServiceAccount (the shared
  // start.sh): so does kapi here.
  // No controller lease: its renewal every 2 s is a write the reference server never makes.
  k = await startKapi({ args: ['--disable-admission-plugins=ServiceAccount', '--leader-elect=false'] });
});

afterAll(async () => {
  closeClients();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('RBAC objects and access reviews, as kube-apiserver 1.33 answers them', () => {
  const fixtures = loadFixtures(join(FIXTURES, 'rbac'));
  it('holds the five sequences', () => {
    expect(fixtures.flatMap((f) => f.sequences.map((s) => s.name))).toEqual(['role-validation', 'binding-validation', 'access-reviews', 'review-selectors', 'node-authorizer']);
  });
  for (const f of fixtures) {
    for (const seq of f.sequences) {
      it(seq.name, { timeout: 60_000 }, async () => {
        const out = await replaySequence(admin(), seq);
        expect(describeDiffs([out]), 'differences from kube-apiserver').toBe('');
      });
    }
  }
});
