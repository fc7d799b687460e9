// Which API versions are served: --runtime-config, the removed versions, and the server's
// refusal of bad --feature-gates and --runtime-config values. Every answer was checked against
// kube-apiserver v1.33.13 with the same flags (outside every served group kube's mux answers plain text).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, kubectl, removeDir, runKapiCli, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

let plain: KapiProcess;
let limited: KapiProcess;

beforeAll(async () => {
  [plain, limited] = await Promise.all([
    startKapi(),
    startKapi({ args: ['--runtime-config', 'apps/v1=false', '--runtime-config', 'scheduling.k8s.io/v1/priorityclasses=false,policy/v1beta1=true'] }),
  ]);
});

afterAll(async () => {
  for (const k of [plain, limited]) {
    await k?.stop();
    if (k) await removeDir(k.dataDir);
  }
});

const STATUS_404 = { kind: 'Status', status: 'Failure', reason: 'NotFound', message: 'the server could not find the requested resource', code: 404 };

async function expectStatus404(k: KapiProcess, path: string): Promise<void> {
  const r = await http(k, 'GET', path);
  expect(r.status, path).toBe(404);
  expect(r.json).toMatchObject(STATUS_404);
}

/** Outside every served group kube's mux answers Go's plain-text 404, not a Status. */
async function expectPage404(k: KapiProcess, path: string): Promise<void> {
  const r = await http(k, 'GET', path);
  expect(r.status, path).toBe(404);
  expect(r.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
  expect(r.text, path).toBe('404 page not found\n');
}

describe('versions removed from kube are not served', () => {
  it('under a served group they are the generic 404 Status, as kube answers', async () => {
    for (const path of [
      '/apis/policy/v1beta1',
      '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets',
      '/apis/apps/v1beta1/namespaces/default/statefulsets',
      '/apis/apps/v1beta2/namespaces/default/statefulsets',
      '/apis/scheduling.k8s.io/v1beta1/priorityclasses',
      '/apis/scheduling.k8s.io/v1alpha1/priorityclasses',
    ]) {
      await expectStatus404(plain, path);
    }
  });

  // A group nobody serves has no web service: kube's mux answers Go's plain "404 page not found".
  it("under a group kapi does not serve they are the mux's plain 404, as kube's", async () => {
    await expectPage404(plain, '/apis/extensions/v1beta1/namespaces/default/statefulsets');
    await expectPage404(plain, '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    await expectPage404(plain, '/no/such/path');
  });

  it('kubectl finds no mapping for them', async () => {
    const pdb = 'apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: x, namespace: default}\nspec: {minAvailable: 1}\n';
    for (const verb of ['apply', 'create']) {
      const r = await kubectl(plain, [verb, '-f', '-'], pdb);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        'error: resource mapping not found for name: "x" namespace: "default" from "STDIN": no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"\nensure CRDs are installed first\n',
      );
    }
    const sts = 'apiVersion: apps/v1beta2\nkind: StatefulSet\nmetadata: {name: sts-y, namespace: default}\n';
    const r = await kubectl(plain, ['create', '-f', '-'], sts);
    expect(r.stderr).toContain('no matches for kind "StatefulSet" in version "apps/v1beta2"');
    for (const [res, name] of [
      ['poddisruptionbudgets.v1beta1.policy', 'poddisruptionbudgets'],
      ['statefulsets.v1beta2.apps', 'statefulsets'],
      ['priorityclasses.v1alpha1.scheduling.k8s.io', 'priorityclasses'],
    ]) {
      const g = await kubectl(plain, ['get', res]);
      expect({ code: g.code, stderr: g.stderr }).toEqual({ code: 1, stderr: `error: the server doesn't have a resource type "${name}"\n` });
    }
  });
});

describe('--runtime-config', () => {
  it('a version turned off is not served and leaves discovery', async () => {
    await expectPage404(limited, '/apis/apps');
    await expectPage404(limited, '/apis/apps/v1');
    await expectPage404(limited, '/apis/apps/v1/namespaces/default/statefulsets');
    // (Other groups come and go as kapi grows: what is asserted is what these flags turn off.)
    const groups = (await http(limited, 'GET', '/apis')).json as { groups: { name: string }[] };
    const names = groups.groups.map((g) => g.name);
    expect(names).toContain('policy');
    expect(names).not.toContain('apps');
    expect(names).not.toContain('scheduling.k8s.io');
    const agg = (await http(limited, 'GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json as {
      items: { metadata: { name: string } }[];
    };
    expect(agg.items.map((i) => i.metadata.name)).toEqual(names);
  });

  it('a resource turned off leaves its group when it was the only one', async () => {
    await expectPage404(limited, '/apis/scheduling.k8s.io/v1/priorityclasses');
    await expectPage404(limited, '/apis/scheduling.k8s.io');
  });

  it('enabling a version kapi does not implement serves nothing, as in kube', async () => {
    await expectStatus404(limited, '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets');
    expect((await http(limited, 'GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets')).status).toBe(200);
  });

  it('what is turned off leaves OpenAPI', async () => {
    const v3 = (await http(limited, 'GET', '/openapi/v3')).json as { paths: Record<string, unknown> };
    const v3paths = Object.keys(v3.paths);
    expect(v3paths).toEqual(expect.arrayContaining(['api/v1', 'apis/policy/v1']));
    expect(v3paths.filter((p) => p.startsWith('apis/apps/') || p.startsWith('apis/scheduling.k8s.io/'))).toEqual([]);
    const v2 = (await http(limited, 'GET', '/openapi/v2')).json as { paths: Record<string, unknown> };
    const paths = Object.keys(v2.paths);
    expect(paths.some((p) => p.includes('/apis/apps/'))).toBe(false);
    expect(paths.some((p) => p.includes('priorityclasses'))).toBe(false);
    expect(paths).toContain('/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets');
  });

  it('kubectl does not find what is turned off', async () => {
    const r = await kubectl(limited, ['get', 'statefulsets']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: 'error: the server doesn\'t have a resource type "statefulsets"\n' });
    const versions = (await kubectl(limited, ['api-versions'])).stdout.trim().split('\n');
    expect(versions).toEqual(expect.arrayContaining(['policy/v1', 'v1']));
    expect(versions.filter((v) => v.startsWith('apps/') || v.startsWith('scheduling.k8s.io/'))).toEqual([]);
  });
});

describe('start-up flags kube refuses are refused', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kapi-flags-'));
  });
  afterAll(async () => removeDir(dataDir));

  const serve = (...flags: string[]) => runKapiCli(['serve', '--data-dir', dataDir, '--secure-port', '0', ...flags]);

  it.each([
    [['--feature-gates', 'Foo=true'], 'unrecognized feature gate: Foo'],
    [['--feature-gates', 'WatchList=yes'], 'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    [['--feature-gates', 'ServiceAccountTokenJTI=false'], 'cannot set feature gate ServiceAccountTokenJTI to false, feature is locked to true'],
    [['--runtime-config', 'apps/v7=true'], 'group version apps/v7 that has not been registered'],
    [['--runtime-config', 'api/all=false'], 'invalid key with only api/all=false'],
    [['--runtime-config', 'foo.example/v1=true'], 'unknown api groups foo.example'],
    [['--show-hidden-metrics-for-version', '1.31'], "--show-hidden-metrics-for-version must be omitted or have the value '1.32'. Only the previous minor version is allowed"],
    [
      ['--max-requests-inflight=-1', '--request-timeout=-1s', '--feature-gates', 'Foo=1'],
      '[--max-requests-inflight can not be negative value, --request-timeout can not be negative value, unrecognized feature gate: Foo]',
    ],
  ])('%j', async (flags, message) => {
    const r = await serve(...flags);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error: ${message}\n`);
  });

  it('a deprecated or GA gate is accepted with kube\'s warning', async () => {
    const k = await startKapi({ args: ['--feature-gates', 'AllowDNSOnlyNodeCSR=true,kube:ExecProbeTimeout=false'] });
    try {
      expect(k.logs()).toContain('"msg":"Setting deprecated feature gate AllowDNSOnlyNodeCSR=true. It will be removed in a future release."');
      expect(k.logs()).toContain('"msg":"Setting GA feature gate ExecProbeTimeout=false. It will be removed in a future release."');
    } finally {
      await stopKapi(k);
    }
  });

  it('kapi serve --help lists the settable gates as kube-apiserver --help does', async () => {
    const r = await runKapiCli(['serve', '--help']);
    expect(r.code).toBe(0);
    const gates = r.stdout.split('\n').filter((l) => /^\s+kube:/.test(l)).map((l) => l.trim());
    expect(gates).toHaveLength(136);
    expect(gates).toContain('kube:AllowUnsafeMalformedObjectDeletion=true|false (ALPHA - default=false)');
    expect(gates).toContain('kube:DeclarativeValidationTakeover=true|false (BETA - default=false)');
    expect(r.stdout).toContain('--runtime-config');
  });
});
