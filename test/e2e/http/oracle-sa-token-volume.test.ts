// The ServiceAccount admission plugin side by side with kube-apiserver 1.33: the requests of
// scripts/oracle-record/suites/sa-token-volume.ts were sent to the reference server started
// WITH the plugin (the shared start.sh turns it off) and its answers recorded
// (test/fixtures/oracle/sa-token-volume/); here kapi, with the plugin on as by default, gets
// the same requests and every answer must agree after masking (the volume's random suffix
// too): the `kube-api-access-*` volume and mounts, automount switched off by the pod or its
// account, existing mounts and volumes kept, the account's pull secrets, mountable-secret
// enforcement, mirror pods, and updates that cannot remove the volume. Re-record with
// scripts/oracle-record (README there).

import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import { describe as describeDiffs, loadFixtures, replaySequence } from '../../../scripts/oracle-record/replay.js';
import { closeClients } from '../../../scripts/oracle-record/client.js';

const FIXTURES = resolve(import.meta.dirname, '..', '..', 'fixtures', 'oracle');

/**
 * Steps whose answer differs only in words the README lists as a deliberate difference: the
 * pod's `spec: Forbidden` message carries a diff of the changed fields, not go-cmp's dump of
 * the whole spec. Everything else of those answers (status, reason, each cause's field and
 * type, the other causes) must still agree.
 */
const KNOWN: Record<string, string> = {
  'updates-keep-the-volume step 6': 'removing the volume: the spec diff is worded differently',
  'updates-keep-the-volume step 7': 'removing the mount: the spec diff is worded differently',
};
const SPEC_DIFF_WORDING = /^\s*body\.(message|details\.causes\[\d+\]\.message): want "[^\n]*spec: Forbidden: pod updates may not change fields|^\s*body\.details\.causes\[\d+\]\.message: want "Forbidden: pod updates may not change fields/;

let k: KapiProcess;
const admin = () => ({ url: k.url, cert: k.credentials.cert, key: k.credentials.key });

beforeAll(async () => {
  // The service account controller makes the namespace's `default` account (made by hand in
  // the reference server, which runs no controller manager). No controller lease: its renewal
  // every 2 s is a write the reference server never makes.
  k = await startKapi({ args: ['--authorization-mode=AlwaysAllow', '--leader-elect=false'], controllers: 'namespace-controller,serviceaccount-controller' });
});

afterAll(async () => {
  closeClients();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('the ServiceAccount admission plugin, as kube-apiserver 1.33 runs it', () => {
  const fixtures = loadFixtures(join(FIXTURES, 'sa-token-volume'));
  it('holds every sequence', () => {
    expect(fixtures.flatMap((f) => f.sequences).length).toBe(21);
  });
  for (const f of fixtures) {
    for (const seq of f.sequences) {
      it(seq.name, { timeout: 60_000 }, async () => {
        const out = await replaySequence(admin(), seq);
        for (const u of out.units) {
          for (const st of u.steps) {
            if (!KNOWN[`${seq.name} step ${st.index}`]) continue;
            expect(st.diffs.length, `${seq.name} step ${st.index} differs in the spec diff's words`).toBeGreaterThan(0);
            st.diffs = st.diffs.filter((d) => !SPEC_DIFF_WORDING.test(d));
          }
          u.agrees = u.steps.every((st) => st.diffs.length === 0);
        }
        out.agrees = out.units.every((u) => u.agrees);
        expect(describeDiffs([out]), 'differences from kube-apiserver').toBe('');
      });
    }
  }
});
