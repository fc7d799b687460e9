// Encryption at rest and corrupt objects on etcd: values in etcd carry kube's prefix, and a
// value corrupted in etcd while the server runs reaches it through its watch: watchers get an
// ERROR event, gets and lists report it as kube does, and the force delete removes it.

import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdProcess } from '../../src/storage/testing/etcd-process.js';
import { http, removeDir, startKapi, type KapiProcess } from '../support/server.js';
import { etcdOverwrite, etcdRaw } from '../support/store-inject.js';
import { WatchStream } from './http/helpers.js';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } });
const KEY = (name: string): string => `/registry/core/pods/default/${name}`;

describe('encryption and corrupt objects on etcd', () => {
  let etcd: EtcdProcess;
  let k: KapiProcess;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-etcd-enc-'));
    const cfg = join(dir, 'enc.yaml');
    await writeFile(
      cfg,
      `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [pods]
    providers:
      - aesgcm:
          keys:
            - name: k1
              secret: ${randomBytes(32).toString('base64')}
      - identity: {}
`,
    );
    etcd = await startEtcd();
    k = await startKapi({
      args: ['--storage-backend', 'etcd3', '--etcd-servers', etcd.endpoint, '--encryption-provider-config', cfg, '--feature-gates', 'AllowUnsafeMalformedObjectDeletion=true'],
    });
  });
  afterAll(async () => {
    await k?.stop();
    await removeDir(k?.dataDir ?? '');
    await etcd?.stop();
    await removeDir(dir);
  });

  it('stores encrypted values in etcd and reads them back', async () => {
    expect((await http(k, 'POST', PODS, pod('p1'))).status).toBe(201);
    const raw = (await etcdRaw(etcd.endpoint, KEY('p1')))!;
    expect(raw.subarray(0, 21).toString()).toBe('k8s:enc:aesgcm:v1:k1:');
    expect(raw.includes('nginx')).toBe(false);
    expect((await http(k, 'GET', `${PODS}/p1`)).json).toMatchObject({ metadata: { name: 'p1' } });
  });

  it('a value corrupted in etcd: an ERROR event to watchers, kube\'s errors, then the force delete', async () => {
    expect((await http(k, 'POST', PODS, pod('p2'))).status).toBe(201);
    const rv = ((await http(k, 'GET', PODS)).json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const w = await WatchStream.open(k, `${PODS}?watch=1&resourceVersion=${rv}`);
    const raw = (await etcdRaw(etcd.endpoint, KEY('p2')))!;
    // Flip a byte of the ciphertext: GCM refuses it.
    raw[raw.length - 1] ^= 0xff;
    await etcdOverwrite(etcd.endpoint, KEY('p2'), raw);
    const [ev] = await w.take(1);
    expect(ev).toMatchObject({
      type: 'ERROR',
      object: { reason: 'InternalError', code: 500, message: 'Internal error occurred: data from the storage is not transformable revision=0: cipher: message authentication failed' },
    });
    expect(await w.waitEnd()).toBe(true);
    // Resuming from before the corruption: the history restarted, relist.
    const resumed = await WatchStream.open(k, `${PODS}?watch=1&resourceVersion=${rv}`);
    expect((await resumed.take(1))[0]).toMatchObject({ type: 'ERROR', object: { code: 410 } });
    resumed.close();
    const g = await http(k, 'GET', `${PODS}/p2`);
    expect(g.status).toBe(500);
    expect((g.json as { message: string }).message).toBe(
      'Internal error occurred: StorageError: corrupt object, Code: 7, Key: /core/pods/default/p2, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: cipher: message authentication failed',
    );
    const l = await http(k, 'GET', PODS);
    expect(l.status).toBe(500);
    expect(l.json).toMatchObject({ reason: 'StorageReadError', message: 'failed to read one or more pods from the storage', details: { name: 'list', kind: 'pods' } });
    // A watch listing the current state cannot list it either.
    const fresh = await WatchStream.open(k, `${PODS}?watch=1`);
    expect((await fresh.take(1))[0]).toMatchObject({ type: 'ERROR', object: { reason: 'InternalError', code: 500 } });
    // The force delete; then everything reads again.
    const after = ((await http(k, 'GET', '/api/v1/namespaces')).json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const w2 = await WatchStream.open(k, `${PODS}?watch=1&resourceVersion=${after}`);
    const d = await http(k, 'DELETE', `${PODS}/p2?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(d.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'p2', kind: 'Pod' }, code: 200 });
    expect((await w2.take(1))[0]).toMatchObject({
      type: 'ERROR',
      object: { reason: 'StorageReadError', code: 500, message: 'saw a DELETED event, but object data is corrupt - data from the storage is not transformable revision=0: cipher: message authentication failed' },
    });
    expect(await etcdRaw(etcd.endpoint, KEY('p2'))).toBeUndefined();
    expect((await http(k, 'GET', PODS)).status).toBe(200);
  });
});
