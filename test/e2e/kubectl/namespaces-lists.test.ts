// kubectl 1.33: namespaces (create, use with -n, delete with kubectl waiting for the
// namespace controller), the imperative create commands (sent as protobuf), and listing:
// -A, --chunk-size (limit/continue), `get all`, label and field selectors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import {
  PDB_YAML,
  STS_YAML,
  boundKubectl,
  expectErr,
  expectOut,
  expectTable,
  stsNamed,
  type Kubectl,
} from './helpers.js';

let k: KapiProcess;
let kc: Kubectl;

const nsYaml = (name: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;

beforeAll(async () => {
  k = await startKapi();
  kc = await boundKubectl(k);
});

afterAll(() => stopKapi(k));

describe('namespaces with kubectl', () => {
  it('kubectl create namespace foo (protobuf body), use it, delete it', async () => {
    expectOut(await kc(['create', 'namespace', 'foo']), 'namespace/foo created\n');
    expectTable(await kc(['get', 'ns', 'foo']), ['NAME   STATUS   AGE', 'foo    Active   <age>']);
    expectOut(await kc(['create', '-n', 'foo', '-f', '-'], STS_YAML), 'statefulset.apps/web created\n');
    expectTable(await kc(['get', 'sts', '-n', 'foo']), ['NAME   READY   AGE', 'web    0/3     <age>']);
    expectOut(await kc(['delete', 'ns', 'foo']), 'namespace "foo" deleted\n');
    expect(await kc(['get', 'sts', '-n', 'foo'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No resources found in foo namespace.\n',
    });
    expectErr(await kc(['get', 'ns', 'foo']), 'Error from server (NotFound): namespaces "foo" not found\n');
  });

  it('a namespace from a manifest: objects in it, kubectl delete ns waits until it is gone', async () => {
    expectOut(await kc(['create', '-f', '-'], nsYaml('bar')), 'namespace/bar created\n');
    expectTable(await kc(['get', 'ns', 'bar']), ['NAME   STATUS   AGE', 'bar    Active   <age>']);
    expectOut(await kc(['create', '-f', '-', '--namespace', 'bar'], STS_YAML), 'statefulset.apps/web created\n');
    expectOut(await kc(['create', '-f', '-', '-n', 'bar'], PDB_YAML), 'poddisruptionbudget.policy/web-pdb created\n');
    expectTable(await kc(['get', 'sts', '-n', 'bar']), ['NAME   READY   AGE', 'web    0/3     <age>']);
    expectTable(await kc(['get', 'pdb', '-n', 'bar']), [
      'NAME      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE',
      'web-pdb   2               N/A               0                     <age>',
    ]);
    expectOut(await kc(['delete', 'ns', 'bar']), 'namespace "bar" deleted\n');
    // kubectl delete waited for the namespace to disappear: everything in it is gone now.
    expect(await kc(['get', 'sts,pdb', '-n', 'bar'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No resources found in bar namespace.\n',
    });
    expectErr(await kc(['get', 'ns', 'bar']), 'Error from server (NotFound): namespaces "bar" not found\n');
    expectTable(await kc(['get', 'ns']), [
      'NAME              STATUS   AGE',
      'default           Active   <age>',
      'kube-node-lease   Active   <age>',
      'kube-public       Active   <age>',
      'kube-system       Active   <age>',
    ]);
  });

  it('creating in a namespace that does not exist is NotFound', async () => {
    expectErr(
      await kc(['create', '-f', '-', '-n', 'nope'], STS_YAML),
      'Error from server (NotFound): error when creating "STDIN": namespaces "nope" not found\n',
    );
  });
});

describe('imperative kubectl create (protobuf bodies)', () => {
  it('kubectl create priorityclass high --value=1000 --description=x', async () => {
    expectOut(
      await kc(['create', 'priorityclass', 'high', '--value=1000', '--description=x']),
      'priorityclass.scheduling.k8s.io/high created\n',
    );
    expectTable(await kc(['get', 'pc', 'high']), [
      'NAME   VALUE   GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY',
      'high   1000    false            <age>   PreemptLowerPriority',
    ]);
    expectOut(
      await kc(['get', 'pc', 'high', '-o', 'jsonpath={.value} {.description} {.preemptionPolicy}']),
      '1000 x PreemptLowerPriority',
    );
  });

  it('kubectl create pdb p1 --selector=app=x --min-available=1', async () => {
    expectOut(
      await kc(['create', 'pdb', 'p1', '--selector=app=x', '--min-available=1']),
      'poddisruptionbudget.policy/p1 created\n',
    );
    expectTable(await kc(['get', 'pdb', 'p1']), [
      'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE',
      'p1     1               N/A               0                     <age>',
    ]);
    expectOut(
      await kc(['get', 'pdb', 'p1', '-o', 'jsonpath={.spec.selector.matchLabels.app} {.spec.minAvailable}']),
      'x 1',
    );
  });
});

describe('listing with kubectl', () => {
  beforeAll(async () => {
    // default: web (app=web), web-a (app=web), web-b (app=other); team: web (app=web)
    expectOut(await kc(['create', '-f', '-'], nsYaml('team')), 'namespace/team created\n');
    expectOut(await kc(['create', '-f', '-'], STS_YAML), 'statefulset.apps/web created\n');
    expectOut(await kc(['create', '-f', '-'], stsNamed('web-a')), 'statefulset.apps/web-a created\n');
    expectOut(await kc(['create', '-f', '-'], stsNamed('web-b', 'app: other')), 'statefulset.apps/web-b created\n');
    expectOut(await kc(['create', '-f', '-', '-n', 'team'], STS_YAML), 'statefulset.apps/web created\n');
  });

  it('kubectl get sts -A adds the NAMESPACE column', async () => {
    expectTable(await kc(['get', 'sts', '-A']), [
      'NAMESPACE   NAME    READY   AGE',
      'default     web     0/3     <age>',
      'default     web-a   0/3     <age>',
      'default     web-b   0/3     <age>',
      'team        web     0/3     <age>',
    ]);
  });

  it('kubectl get sts --chunk-size=1 pages with limit and continue', async () => {
    const r = await kc(['get', 'sts', '--chunk-size=1', '-v=6']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        '^NAME {4}READY {3}AGE\nweb {5}0/3 {5}[0-9]+s\nweb-a {3}0/3 {5}[0-9]+s\nweb-b {3}0/3 {5}[0-9]+s\n$',
      ),
    );
    const gets = r.stderr
      .split('\n')
      .filter((l) => l.includes('"Response"') && l.includes('/apis/apps/v1/namespaces/default/statefulsets?'))
      .map((l) => /url="([^"]+)"/.exec(l)?.[1] ?? '');
    expect(gets).toHaveLength(3);
    expect(gets[0]).toMatch(/\/statefulsets\?limit=1$/);
    expect(gets[1]).toMatch(/\/statefulsets\?continue=[^&]+&limit=1$/);
    expect(gets[2]).toMatch(/\/statefulsets\?continue=[^&]+&limit=1$/);
    expect(r.stderr).not.toMatch(/status="[45][0-9][0-9]/);
  });

  it('kubectl get all includes statefulsets (category all)', async () => {
    // Pods, Services and StatefulSets are in the category, so kubectl prefixes names with the
    // kind; default has no pods, and the kubernetes Service the server keeps there.
    expectTable(await kc(['get', 'all']), [
      'NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE',
      'service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   <age>',
      '',
      'NAME                     READY   AGE',
      'statefulset.apps/web     0/3     <age>',
      'statefulset.apps/web-a   0/3     <age>',
      'statefulset.apps/web-b   0/3     <age>',
    ]);
    expectOut(await kc(['get', 'all', '-n', 'team', '-o', 'name']), 'statefulset.apps/web\n');
  });

  it('kubectl get sts -l app=web', async () => {
    expectTable(await kc(['get', 'sts', '-l', 'app=web']), [
      'NAME    READY   AGE',
      'web     0/3     <age>',
      'web-a   0/3     <age>',
    ]);
    expectTable(await kc(['get', 'sts', '-l', 'app!=web']), ['NAME    READY   AGE', 'web-b   0/3     <age>']);
    expectTable(await kc(['get', 'sts', '-A', '-l', 'app in (web)', '-o', 'wide', '--no-headers']), [
      'default   web     0/3   <age>   nginx   registry.k8s.io/nginx-slim:0.8',
      'default   web-a   0/3   <age>   nginx   registry.k8s.io/nginx-slim:0.8',
      'team      web     0/3   <age>   nginx   registry.k8s.io/nginx-slim:0.8',
    ]);
    expect(await kc(['get', 'sts', '-l', 'app=none'])).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
    });
  });

  it('kubectl get sts --field-selector metadata.name=web', async () => {
    expectTable(await kc(['get', 'sts', '--field-selector', 'metadata.name=web']), [
      'NAME   READY   AGE',
      'web    0/3     <age>',
    ]);
    expectTable(await kc(['get', 'sts', '-A', '--field-selector', 'metadata.namespace=team']), [
      'NAMESPACE   NAME   READY   AGE',
      'team        web    0/3     <age>',
    ]);
    expectOut(
      await kc(['get', 'sts', '-A', '--field-selector', 'metadata.name!=web', '-o', 'name']),
      'statefulset.apps/web-a\nstatefulset.apps/web-b\n',
    );
  });

  it('an unsupported field selector is a 400 that kubectl prints', async () => {
    // apps/v1 registers no field-label conversion for StatefulSet, so kube answers with
    // runtime.DefaultMetaV1FieldSelectorConversion's message.
    expectErr(
      await kc(['get', 'sts', '--field-selector', 'spec.replicas=3']),
      'Error from server (BadRequest): Unable to find "apps/v1, Resource=statefulsets" that match label selector "", field selector "spec.replicas=3": "spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"\n',
    );
  });
});
