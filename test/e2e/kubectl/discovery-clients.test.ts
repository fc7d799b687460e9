// kubectl discovery against kapi: api-resources, api-versions, version, explain, raw health
// endpoints, and older kubectl releases (1.27, 1.30) that use the older discovery paths.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, type KapiProcess } from '../../support/server.js';
import {
  PC_YAML,
  PDB_YAML,
  STS_YAML,
  boundKubectl,
  expectOut,
  expectTable,
  kubectlVersion,
  stsNamed,
  tempDir,
  writeManifest,
  type Kubectl,
} from './helpers.js';

let k: KapiProcess;
let kc: Kubectl;
let dir: string;

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
  dir = await tempDir();
});

afterAll(async () => {
  await k?.stop();
  if (k) await removeDir(k.dataDir);
  if (dir) await removeDir(dir);
});

// kubectl api-resources sorts rows by API group (core "" first), then by resource name
// (sortableResource in kubectl's apiresources.go), whatever order discovery lists them in.
const API_RESOURCES = [
  'NAME                     SHORTNAMES   APIVERSION               NAMESPACED   KIND',
  'componentstatuses        cs           v1                       false        ComponentStatus',
  'events                   ev           v1                       true         Event',
  'namespaces               ns           v1                       false        Namespace',
  'nodes                    no           v1                       false        Node',
  'persistentvolumeclaims   pvc          v1                       true         PersistentVolumeClaim',
  'persistentvolumes        pv           v1                       false        PersistentVolume',
  'pods                     po           v1                       true         Pod',
  'services                 svc          v1                       true         Service',
  'controllerrevisions                   apps/v1                  true         ControllerRevision',
  'statefulsets             sts          apps/v1                  true         StatefulSet',
  'leases                                coordination.k8s.io/v1   true         Lease',
  'events                   ev           events.k8s.io/v1         true         Event',
  'ipaddresses              ip           networking.k8s.io/v1     false        IPAddress',
  'poddisruptionbudgets     pdb          policy/v1                true         PodDisruptionBudget',
  'priorityclasses          pc           scheduling.k8s.io/v1     false        PriorityClass',
  'storageclasses           sc           storage.k8s.io/v1        false        StorageClass',
].join('\n') + '\n';

describe('kubectl 1.33 discovery', () => {
  it('kubectl api-resources', async () => {
    expectOut(await kc(['api-resources']), API_RESOURCES);
  });

  it('kubectl api-resources -o wide shows verbs and categories', async () => {
    expectOut(
      await kc(['api-resources', '-o', 'wide']),
      [
        'NAME                     SHORTNAMES   APIVERSION               NAMESPACED   KIND                    VERBS                                                        CATEGORIES',
        'componentstatuses        cs           v1                       false        ComponentStatus         get,list                                                     ',
        'events                   ev           v1                       true         Event                   create,delete,deletecollection,get,list,patch,update,watch   ',
        'namespaces               ns           v1                       false        Namespace               create,delete,get,list,patch,update,watch                    ',
        'nodes                    no           v1                       false        Node                    create,delete,deletecollection,get,list,patch,update,watch   ',
        'persistentvolumeclaims   pvc          v1                       true         PersistentVolumeClaim   create,delete,deletecollection,get,list,patch,update,watch   ',
        'persistentvolumes        pv           v1                       false        PersistentVolume        create,delete,deletecollection,get,list,patch,update,watch   ',
        'pods                     po           v1                       true         Pod                     create,delete,deletecollection,get,list,patch,update,watch   all',
        'services                 svc          v1                       true         Service                 create,delete,deletecollection,get,list,patch,update,watch   all',
        'controllerrevisions                   apps/v1                  true         ControllerRevision      create,delete,deletecollection,get,list,patch,update,watch   ',
        'statefulsets             sts          apps/v1                  true         StatefulSet             create,delete,deletecollection,get,list,patch,update,watch   all',
        'leases                                coordination.k8s.io/v1   true         Lease                   create,delete,deletecollection,get,list,patch,update,watch   ',
        'events                   ev           events.k8s.io/v1         true         Event                   create,delete,deletecollection,get,list,patch,update,watch   ',
        'ipaddresses              ip           networking.k8s.io/v1     false        IPAddress               create,delete,deletecollection,get,list,patch,update,watch   ',
        'poddisruptionbudgets     pdb          policy/v1                true         PodDisruptionBudget     create,delete,deletecollection,get,list,patch,update,watch   ',
        'priorityclasses          pc           scheduling.k8s.io/v1     false        PriorityClass           create,delete,deletecollection,get,list,patch,update,watch   ',
        'storageclasses           sc           storage.k8s.io/v1        false        StorageClass            create,delete,deletecollection,get,list,patch,update,watch   ',
      ].join('\n') + '\n',
    );
  });

  it('kubectl api-resources filters', async () => {
    expectOut(
      await kc(['api-resources', '--namespaced=false', '-o', 'name']),
      'componentstatuses\nnamespaces\nnodes\npersistentvolumes\nipaddresses.networking.k8s.io\npriorityclasses.scheduling.k8s.io\nstorageclasses.storage.k8s.io\n',
    );
    expectOut(await kc(['api-resources', '--api-group=policy', '-o', 'name']), 'poddisruptionbudgets.policy\n');
  });

  it('kubectl api-versions', async () => {
    expectOut(await kc(['api-versions']), 'apps/v1\ncoordination.k8s.io/v1\nevents.k8s.io/v1\nnetworking.k8s.io/v1\npolicy/v1\nscheduling.k8s.io/v1\nstorage.k8s.io/v1\nv1\n');
  });

  it('kubectl version shows a v1.33 server', async () => {
    const r = await kc(['version']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Client Version: v1\.33\.\d+\nKustomize Version: v\S+\nServer Version: v1\.33\.\d+\S*\n$/);
    const j = await kc(['version', '-o', 'json']);
    const v = JSON.parse(j.stdout) as { serverVersion: Record<string, string> };
    expect(v.serverVersion).toMatchObject({ major: '1', minor: '33', platform: expect.stringMatching(/^\w+\/\w+$/) });
    expect(v.serverVersion.gitVersion).toMatch(/^v1\.33\.\d+/);
  });

  it('kubectl get --raw /readyz?verbose', async () => {
    const r = await kc(['get', '--raw', '/readyz?verbose']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['[+]ping ok', '[+]log ok']);
    expect(lines).toContain('[+]informer-sync ok');
    // every check line is "[+]<name> ok", then the closing line
    const checks = lines.slice(0, -1);
    for (const l of checks.slice(0, -1)) expect(l).toMatch(/^\[\+\][a-z0-9/-]+ ok$/);
    // kube-apiserver's healthz package ends with "<endpoint> check passed\n"; the spec's text
    // shows the older "healthz check passed", so either name is accepted.
    expect(r.stdout).toMatch(/\n(?:readyz|healthz) check passed\n$/);
    expectOut(await kc(['get', '--raw', '/readyz']), 'ok');
    expectOut(await kc(['get', '--raw', '/livez/ping']), 'ok');
  });

  it('kubectl explain sts.spec.replicas describes the field from OpenAPI v3', async () => {
    const r = await kc(['explain', 'sts.spec.replicas']);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^GROUP:\s+apps\nKIND:\s+StatefulSet\nVERSION:\s+v1\n\nFIELD: replicas <integer>\n/);
    // kapi's descriptions are its own words, never upstream's prose.
    expect(r.stdout).toMatch(/DESCRIPTION:\n\s+How many pods the set should run\./);
  });
});

for (const minor of [27, 30]) {
  describe(`kubectl 1.${minor} (older discovery)`, () => {
    let old: Kubectl;

    beforeAll(async () => {
      old = await boundKubectl(k, kubectlVersion(minor));
      // Objects for the listings, created with kubectl 1.33 (idempotent across the two suites).
      await kc(['create', '-f', '-'], stsNamed('shared'));
      await kc(['create', '-f', '-'], PC_YAML);
    });

    it('get sts', async () => {
      expectTable(await old(['get', 'sts', 'shared']), ['NAME     READY   AGE', 'shared   0/3     <age>']);
    });

    it('get ns', async () => {
      expectTable(await old(['get', 'ns']), [
        'NAME              STATUS   AGE',
        'default           Active   <age>',
        'kube-node-lease   Active   <age>',
        'kube-public       Active   <age>',
        'kube-system       Active   <age>',
      ]);
    });

    it('get pc and pdb', async () => {
      expectTable(await old(['get', 'pc', 'high-priority']), [
        'NAME            VALUE     GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY',
        'high-priority   1000000   false            <age>   PreemptLowerPriority',
      ]);
      expect(await old(['get', 'pdb', '-n', 'kube-system'])).toEqual({
        code: 0,
        stdout: '',
        stderr: 'No resources found in kube-system namespace.\n',
      });
    });

    it('api-resources and api-versions', async () => {
      expectOut(await old(['api-resources']), API_RESOURCES);
      expectOut(await old(['api-versions']), 'apps/v1\ncoordination.k8s.io/v1\nevents.k8s.io/v1\nnetworking.k8s.io/v1\npolicy/v1\nscheduling.k8s.io/v1\nstorage.k8s.io/v1\nv1\n');
    });

    it('create -f, get, delete', async () => {
      const sts = await writeManifest(dir, `sts-${minor}.yaml`, STS_YAML.replace('name: web\n', `name: old${minor}\n`));
      const pdb = await writeManifest(dir, `pdb-${minor}.yaml`, PDB_YAML.replace('name: web-pdb', `name: pdb${minor}`));
      expectOut(await old(['create', '-f', sts]), `statefulset.apps/old${minor} created\n`);
      expectOut(await old(['create', '-f', pdb]), `poddisruptionbudget.policy/pdb${minor} created\n`);
      expectTable(await old(['get', 'sts', `old${minor}`]), [
        `NAME    READY   AGE`,
        `old${minor}   0/3     <age>`,
      ]);
      expectOut(await old(['delete', '-f', sts]), `statefulset.apps "old${minor}" deleted\n`);
      expectOut(await old(['delete', 'pdb', `pdb${minor}`]), `poddisruptionbudget.policy "pdb${minor}" deleted\n`);
    });
  });
}
