// Encryption at rest on the embedded LevelDB store (--encryption-provider-config with kube's
// EncryptionConfiguration), and objects that cannot be read back, reported and force-deleted
// as kube-apiserver 1.33 does (checked against it with the same config, gates and requests).
// The store is reached directly, as an operator or a failing disk would.

import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, kubectl, removeDir, runKapiCli, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { levelOverwrite, levelRaw } from '../../support/store-inject.js';
import { PC, WatchStream, pc } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kapi-enc-'));
});
afterAll(async () => removeDir(dir));

const key = (bytes = 32): string => randomBytes(bytes).toString('base64');
const PC_KEY = (name: string): string => `/registry/scheduling.k8s.io/priorityclasses/${name}`;

/** Writes an EncryptionConfiguration for priority classes with these providers. */
async function config(name: string, providers: string): Promise<string> {
  const path = join(dir, `${name}.yaml`);
  await writeFile(
    path,
    `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [priorityclasses.scheduling.k8s.io]
    providers:
${providers}`,
  );
  return path;
}

const aes = (kind: string, ...keys: Array<[string, string]>): string =>
  `      - ${kind}:\n          keys:\n${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}\n`).join('')}`;

async function restart(k: KapiProcess, args: string[]): Promise<KapiProcess> {
  await k.stop();
  return startKapi({ dataDir: k.dataDir, args });
}

describe('encryption at rest', () => {
  it.each([
    ['aescbc', 32],
    ['aesgcm', 16],
    ['secretbox', 32],
  ])('%s: stored with kube\'s prefix, read back, counted', async (kind, len) => {
    const cfg = await config(kind, aes(kind, ['key1', key(len)]) + '      - identity: {}\n');
    let k = await startKapi({ args: ['--encryption-provider-config', cfg] });
    try {
      expect((await http(k, 'POST', PC(), pc(`${kind}-a`, 7))).status).toBe(201);
      const metrics = (await http(k, 'GET', '/metrics')).text;
      expect(metrics).toMatch(
        new RegExp(`^apiserver_storage_transformation_operations_total\\{resource="priorityclasses.scheduling.k8s.io",transformation_type="to_storage",transformer_prefix="k8s:enc:${kind}:v1:",status="OK"\\} [1-9]`, 'm'),
      );
      await k.stop();
      const raw = (await levelRaw(k.dataDir, PC_KEY(`${kind}-a`)))!;
      expect(raw.subarray(0, `k8s:enc:${kind}:v1:key1:`.length).toString()).toBe(`k8s:enc:${kind}:v1:key1:`);
      expect(raw.includes('PriorityClass')).toBe(false);
      // What no entry names is stored as it is.
      expect((await levelRaw(k.dataDir, '/registry/core/namespaces/default'))!.subarray(0, 9).toString()).toBe('{"kind":"');
      k = await startKapi({ dataDir: k.dataDir, args: ['--encryption-provider-config', cfg] });
      expect((await http(k, 'GET', PC(`${kind}-a`))).json).toMatchObject({ metadata: { name: `${kind}-a` }, value: 7 });
    } finally {
      await stopKapi(k);
    }
  });

  it('rotates keys by reordering: the first key writes, every key reads', async () => {
    const [k1, k2] = [key(), key()];
    let k = await startKapi({ args: ['--encryption-provider-config', await config('r1', aes('aescbc', ['key1', k1]))] });
    try {
      expect((await http(k, 'POST', PC(), pc('old', 1))).status).toBe(201);
      // key2 first: new writes use it, objects under key1 still read.
      const both = await config('r2', aes('aescbc', ['key2', k2], ['key1', k1]));
      k = await restart(k, ['--encryption-provider-config', both]);
      expect((await http(k, 'GET', PC('old'))).status).toBe(200);
      expect((await http(k, 'POST', PC(), pc('new', 2))).status).toBe(201);
      await k.stop();
      expect((await levelRaw(k.dataDir, PC_KEY('old')))!.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
      expect((await levelRaw(k.dataDir, PC_KEY('new')))!.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
      // Rewriting every object (as `kubectl get -o json | kubectl replace -f -`) moves it to key2.
      k = await startKapi({ dataDir: k.dataDir, args: ['--encryption-provider-config', both] });
      const list = await kubectl(k, ['get', 'priorityclasses', '-o', 'json']);
      expect((await kubectl(k, ['replace', '-f', '-'], list.stdout)).code).toBe(0);
      await k.stop();
      expect((await levelRaw(k.dataDir, PC_KEY('old')))!.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
      // key1 can go now.
      k = await startKapi({ dataDir: k.dataDir, args: ['--encryption-provider-config', await config('r3', aes('aescbc', ['key2', k2]))] });
      expect(((await http(k, 'GET', PC())).json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(
        expect.arrayContaining(['old', 'new']),
      );
    } finally {
      await stopKapi(k);
    }
  });

  it('refuses a bad config at start with kube\'s message', async () => {
    const cfg = await config('bad', aes('aescbc', ['k1', Buffer.from('short').toString('base64')]));
    const r = await runKapiCli(['serve', '--data-dir', join(dir, 'bad-data'), '--secure-port', '0', '--encryption-provider-config', cfg]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]\n',
    );
  });
});

describe('objects that cannot be read back', () => {
  const GATE = ['--feature-gates', 'AllowUnsafeMalformedObjectDeletion=true'];
  let k: KapiProcess;
  let cfgOld: string;
  let cfgNew: string;

  beforeAll(async () => {
    // Objects written under one key, read under another of the same name (a wrong key);
    // identity last, so a value that is not encrypted is read as it is.
    cfgOld = await config('wrong-old', aes('aescbc', ['key1', key()]) + '      - identity: {}\n');
    cfgNew = await config('wrong-new', aes('aescbc', ['key1', key()]) + '      - identity: {}\n');
    k = await startKapi({ args: ['--encryption-provider-config', cfgOld] });
    for (const n of ['bad', 'bad2', 'gone']) expect((await http(k, 'POST', PC(), pc(n, 3))).status).toBe(201);
    await k.stop();
    // And one whose bytes are not an object at all.
    await levelOverwrite(k.dataDir, PC_KEY('torn'), '{"not":"valid');
  });

  afterAll(async () => {
    await k?.stop();
    if (k) await removeDir(k.dataDir);
  });

  it('without AllowUnsafeMalformedObjectDeletion: the bare reason, and the force option is ignored', async () => {
    k = await startKapi({ dataDir: k.dataDir, args: ['--encryption-provider-config', cfgNew] });
    try {
      await withoutGate();
    } finally {
      await k.stop();
    }
  });

  async function withoutGate(): Promise<void> {
    const g = await http(k, 'GET', PC('bad'));
    expect(g.status).toBe(500);
    expect(g.json).toMatchObject({ reason: 'InternalError', message: expect.stringMatching(/^Internal error occurred: (invalid PKCS7 data \(empty or not padded\)|invalid padding on input)$/) });
    const torn = await http(k, 'GET', PC('torn'));
    expect(torn.status).toBe(500);
    expect(torn.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "couldn't get version/kind; json parse error: unexpected end of JSON input", code: 500 });
    const l = await http(k, 'GET', PC());
    expect(l.status).toBe(500);
    expect((l.json as { message: string }).message).toMatch(/^Internal error occurred: unable to transform key "\/registry\/scheduling\.k8s\.io\/priorityclasses\/bad": /);
    const d = await http(k, 'DELETE', `${PC('bad')}?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(d.status).toBe(500);
  }

  it('with the gate: kube\'s corrupt-object errors on get, list and delete', async () => {
    k = await startKapi({ dataDir: k.dataDir, args: ['--encryption-provider-config', cfgNew, ...GATE] });
    const g = await http(k, 'GET', PC('bad'));
    expect(g.status).toBe(500);
    const msg = (g.json as { message: string }).message;
    expect(msg).toMatch(
      /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/scheduling\.k8s\.io\/priorityclasses\/bad, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: (invalid PKCS7 data \(empty or not padded\)|invalid padding on input)$/,
    );
    const torn = await http(k, 'GET', PC('torn'));
    expect((torn.json as { message: string }).message).toMatch(
      /^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/scheduling\.k8s\.io\/priorityclasses\/torn, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=\d+: couldn't get version\/kind; json parse error: unexpected end of JSON input$/,
    );
    const l = await http(k, 'GET', PC());
    expect(l.status).toBe(500);
    const list = l.json as { reason: string; message: string; details: { name: string; group: string; kind: string; causes: { reason: string; field: string; message: string }[] } };
    expect(list.reason).toBe('StorageReadError');
    expect(list.message).toBe('failed to read one or more priorityclasses.scheduling.k8s.io from the storage');
    expect(list.details).toMatchObject({ name: 'list', group: 'scheduling.k8s.io', kind: 'priorityclasses' });
    // The built-in classes were written under the old key too.
    expect(list.details.causes.map((c) => c.field)).toEqual(['bad', 'bad2', 'gone', 'system-cluster-critical', 'system-node-critical', 'torn'].map(PC_KEY));
    expect(list.details.causes.every((c) => c.reason === 'UnexpectedServerResponse' && c.message.startsWith('StorageError: corrupt object, Code: 7, Key: /registry/'))).toBe(true);
    // A normal delete fails as the get does; so does an update.
    const d = await http(k, 'DELETE', PC('bad'));
    expect(d.status).toBe(500);
    expect((d.json as { message: string }).message).toBe(msg);
    expect((await http(k, 'PUT', PC('bad'), pc('bad', 4))).status).toBe(500);
  });

  it('the force delete takes no other option, only corrupt objects, and not a collection', async () => {
    const opt = 'ignoreStoreReadErrorWithClusterBreakingPotential=true';
    const withGrace = await http(k, 'DELETE', `${PC('bad')}?${opt}&gracePeriodSeconds=0`);
    expect(withGrace.status).toBe(422);
    expect(withGrace.json).toMatchObject({
      message: 'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds',
      details: { group: 'meta.k8s.io', kind: 'DeleteOptions' },
    });
    const body = await http(k, 'DELETE', PC('bad'), {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
      dryRun: ['All'],
      preconditions: { uid: 'x' },
      propagationPolicy: 'Background',
    });
    expect((body.json as { message: string }).message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: [ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .propagationPolicy, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .preconditions]',
    );
    expect((await http(k, 'POST', PC(), pc('fresh', 5))).status).toBe(201);
    const readable = await http(k, 'DELETE', `${PC('fresh')}?${opt}`);
    expect(readable.status).toBe(422);
    expect(readable.json).toMatchObject({
      message:
        'priorityclasses.scheduling.k8s.io "fresh" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
      details: { name: 'fresh', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
    expect((await http(k, 'DELETE', `${PC('missing')}?${opt}`)).status).toBe(422);
    const coll = await http(k, 'DELETE', `${PC()}?${opt}`);
    expect(coll.status).toBe(422);
    expect((coll.json as { message: string }).message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option',
    );
  });

  it('force-deletes a corrupt object: kube\'s Status, the watch\'s ERROR event, and the list reads again', async () => {
    const w = await WatchStream.open(k, `${PC()}?watch=1&resourceVersion=${(await http(k, 'GET', '/api/v1/namespaces')).json ? ((await http(k, 'GET', '/api/v1/namespaces')).json as { metadata: { resourceVersion: string } }).metadata.resourceVersion : ''}`);
    expect(w.status).toBe(200);
    const d = await http(k, 'DELETE', `${PC('bad')}?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(d.status).toBe(200);
    expect(d.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'bad', kind: 'PriorityClass' }, code: 200 });
    const [ev] = await w.take(1);
    expect(ev.type).toBe('ERROR');
    expect(ev.object).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'StorageReadError',
      code: 500,
      message: expect.stringMatching(/^saw a DELETED event, but object data is corrupt - data from the storage is not transformable revision=0: /),
    });
    expect(await w.waitEnd()).toBe(true);
    expect((await http(k, 'GET', PC('bad'))).status).toBe(404);
    // kubectl 1.33 has no flag for the option yet (1.34 adds one); its --raw delete sends it.
    const r = await kubectl(k, ['delete', '--raw', `${PC('bad2')}?ignoreStoreReadErrorWithClusterBreakingPotential=true`]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'Success', details: { name: 'bad2', kind: 'PriorityClass' } });
    for (const n of ['gone', 'torn', 'system-cluster-critical', 'system-node-critical']) expect((await http(k, 'DELETE', `${PC(n)}?ignoreStoreReadErrorWithClusterBreakingPotential=true`)).status).toBe(200);
    const l = await http(k, 'GET', PC());
    expect(l.status).toBe(200);
    expect((await kubectl(k, ['get', 'pc'])).code).toBe(0);
  });
});
