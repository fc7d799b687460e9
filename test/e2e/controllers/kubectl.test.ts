// The controllers through kubectl 1.33, as on a real cluster: apply the canonical "web"
// StatefulSet, `rollout status` returns once the pods are Ready, `scale` up and down,
// `set image` with `rollout history` and `rollout undo` reading the ControllerRevisions,
// `delete --cascade=orphan|foreground|background`, `get events` and `describe`, and a PDB's
// status. The kubelet's part (Ready) is played by the test through pods/status.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, kubectlPath, startKapi, stopKapi, type KubectlResult } from '../../support/server.js';
import { PDB, STS, eventually, expectCode, http, type KapiProcess, type Obj } from '../http/helpers.js';
import { KUBELET_PLAYED, PODS, REVS, podNames, setReady, waitFor, waitGone, waitPods, kubectlOk, web } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi({ args: [...KUBELET_PLAYED] });
});

afterAll(() => stopKapi(k));


const ok = (args: string[], input?: string): Promise<string> => kubectlOk(k, args, input);

/** Starts a kubectl that runs until it exits (rollout status, drain). */
function background(args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = spawn(kubectlPath(), ['--kubeconfig', k.kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Marks every live pod of the set Ready that is not, until `count` are (the kubelet's part). */
async function readyAll(ns: string, count: number): Promise<void> {
  await eventually(
    `${count} ready pods`,
    async () => {
      const list = expectCode(await http(k, 'GET', `${PODS(ns)}?labelSelector=app%3Dnginx`), 200).items as Obj[];
      let ready = 0;
      for (const p of list) {
        if (p.metadata.deletionTimestamp) continue;
        const isReady = (p.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True');
        if (!isReady) await setReady(k, ns, p.metadata.name);
        else ready++;
      }
      return ready === count && list.length === count;
    },
    30_000,
    150,
  );
}

/**
 * A rolling update played to its end: the set's pods are made Ready as they come (the
 * kubelet's part) until the set reports the update done. Waiting for ready pods first and the
 * set after could see the old pods ready before the controller began replacing them.
 */
async function rolledOut(ns: string, count: number, what: string): Promise<Obj> {
  let last: Obj | undefined;
  await eventually(
    what,
    async () => {
      await readyAll(ns, count);
      const r = await http(k, 'GET', STS(ns, 'web'));
      last = r.json as Obj;
      const s = last;
      return r.status === 200 && s.metadata.generation === s.status?.observedGeneration && s.status?.updatedReplicas === count && s.status?.currentRevision === s.status?.updateRevision;
    },
    30_000,
    150,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; last seen: ${JSON.stringify(last).slice(0, 1500)}`);
  });
  return last!;
}

describe('kubectl against the controllers', () => {
  it('apply web; rollout status returns; scale 5 and 2; set image, history, undo', async () => {
    const ns = 'web-flow';
    await ok(['create', 'namespace', ns]);
    await ok(['apply', '-f', '-'], web(ns));
    const status = background(['rollout', 'status', 'statefulset/web', '-n', ns, '--timeout', '60s']);
    await readyAll(ns, 3);
    const st = await status;
    expect(st.code, st.stderr).toBe(0);
    expect(st.stdout).toContain('partitioned roll out complete: 3 new pods have been updated...');

    await ok(['scale', 'statefulset', 'web', '-n', ns, '--replicas', '5']);
    await readyAll(ns, 5);
    await waitPods(k, ns, { app: 'nginx' }, ['web-0', 'web-1', 'web-2', 'web-3', 'web-4']);
    await ok(['scale', 'statefulset', 'web', '-n', ns, '--replicas', '2']);
    await waitPods(k, ns, { app: 'nginx' }, ['web-0', 'web-1']);
    // Retain: the claims of the removed pods stay.
    expect(await ok(['get', 'pvc', '-n', ns, '-o', 'name'])).toBe(
      ['www-web-0', 'www-web-1', 'www-web-2', 'www-web-3', 'www-web-4'].map((n) => `persistentvolumeclaim/${n}\n`).join(''),
    );

    await ok(['set', 'image', 'statefulset/web', '-n', ns, 'nginx=registry.k8s.io/nginx-slim:0.27']);
    await rolledOut(ns, 2, 'rolled');
    const history = await ok(['rollout', 'history', 'statefulset/web', '-n', ns]);
    expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
    expect(await ok(['rollout', 'history', 'statefulset/web', '-n', ns, '--revision', '1'])).toContain('Image:\tregistry.k8s.io/nginx-slim:0.24');

    await ok(['rollout', 'undo', 'statefulset/web', '-n', ns]);
    const back = await rolledOut(ns, 2, 'undone');
    expect(back.spec.template.spec.containers[0].image).toBe('registry.k8s.io/nginx-slim:0.24');
    const pods = expectCode(await http(k, 'GET', `${PODS(ns)}?labelSelector=app%3Dnginx`), 200).items as Obj[];
    expect(pods.map((p) => p.spec.containers[0].image)).toEqual(['registry.k8s.io/nginx-slim:0.24', 'registry.k8s.io/nginx-slim:0.24']);
    // The old template's revision is reused with the next number: revisions 2 and 3 remain.
    const revs = expectCode(await http(k, 'GET', REVS(ns)), 200).items as Obj[];
    expect(revs.map((r) => r.revision).sort()).toEqual([2, 3]);

    const events = await ok(['get', 'events', '-n', ns, '--field-selector', 'involvedObject.kind=StatefulSet', '-o', 'custom-columns=REASON:.reason,MESSAGE:.message,SOURCE:.source.component']);
    expect(events).toContain('create Pod web-0 in StatefulSet web successful');
    expect(events).toContain('delete Pod web-4 in StatefulSet web successful');
    expect(events).toMatch(/SuccessfulCreate\s+create Claim www-web-0 Pod web-0 in StatefulSet web success\s+statefulset-controller/);
    const describe = await ok(['describe', 'statefulset', 'web', '-n', ns]);
    expect(describe).toMatch(/Pods Status:\s+2 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
    expect(describe).toMatch(/Normal\s+SuccessfulDelete\s+\S+\s+statefulset-controller\s+delete Pod web-2 in StatefulSet web successful/);
  });

  it('delete --cascade=orphan leaves the pods without owners; background and foreground take them', async () => {
    const ns = 'web-cascade';
    await ok(['create', 'namespace', ns]);
    await ok(['apply', '-f', '-'], web(ns, 2));
    await readyAll(ns, 2);
    await ok(['delete', 'statefulset', 'web', '-n', ns, '--cascade=orphan']);
    await waitGone(k, STS(ns, 'web'));
    await eventually(
      'orphaned',
      async () => {
        const pods = expectCode(await http(k, 'GET', PODS(ns)), 200).items as Obj[];
        const revs = expectCode(await http(k, 'GET', REVS(ns)), 200).items as Obj[];
        return pods.length === 2 && [...pods, ...revs].every((o) => !o.metadata.ownerReferences);
      },
      20_000,
    );

    // The set comes back and adopts them; a background delete then takes them.
    await ok(['apply', '-f', '-'], web(ns, 2));
    const set = await waitFor(k, STS(ns, 'web'), 'adopted', (s) => s.status?.replicas === 2);
    await eventually('owned again', async () => {
      const pods = expectCode(await http(k, 'GET', PODS(ns)), 200).items as Obj[];
      return pods.length === 2 && pods.every((p) => p.metadata.ownerReferences?.[0]?.uid === set.metadata.uid);
    });
    await ok(['delete', 'statefulset', 'web', '-n', ns, '--cascade=background']);
    await eventually('pods gone', async () => (await podNames(k, ns, { app: 'nginx' })).length === 0, 20_000);

    // Foreground: kubectl waits until the set is gone, which is after its pods.
    await ok(['apply', '-f', '-'], web(ns, 2));
    await readyAll(ns, 2);
    await ok(['delete', 'statefulset', 'web', '-n', ns, '--cascade=foreground', '--timeout=60s']);
    expect((await http(k, 'GET', STS(ns, 'web'))).status).toBe(404);
    expect(expectCode(await http(k, 'GET', PODS(ns)), 200).items).toEqual([]);
  });

  it('keeps a PodDisruptionBudget status as the disruption controller does', async () => {
    const ns = 'web-pdb';
    await ok(['create', 'namespace', ns]);
    await ok(['apply', '-f', '-'], web(ns, 3));
    await ok(['create', 'pdb', 'web', '-n', ns, '--selector', 'app=nginx', '--min-available', '50%']);
    await readyAll(ns, 3);
    const pdb = await waitFor(k, PDB(ns, 'web'), 'status', (p) => p.status?.currentHealthy === 3);
    expect(pdb.status).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1, observedGeneration: 1 });
    expect(pdb.status.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 1, lastTransitionTime: expect.any(String) },
    ]);
    await setReady(k, ns, 'web-1', false);
    const low = await waitFor(k, PDB(ns, 'web'), 'insufficient', (p) => p.status?.currentHealthy === 2);
    expect(low.status).toMatchObject({ disruptionsAllowed: 0 });
    expect(low.status.conditions[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    expect(await ok(['get', 'pdb', 'web', '-n', ns])).toMatch(/web\s+50%\s+N\/A\s+0\s+/);
    // A percentage of maxUnavailable is resolved against the set's replicas.
    await ok(['patch', 'pdb', 'web', '-n', ns, '--type', 'json', '-p', '[{"op":"remove","path":"/spec/minAvailable"},{"op":"add","path":"/spec/maxUnavailable","value":"34%"}]']);
    const max = await waitFor(k, PDB(ns, 'web'), 'maxUnavailable', (p) => p.status?.observedGeneration === 2);
    expect(max.status).toMatchObject({ expectedPods: 3, desiredHealthy: 1, currentHealthy: 2, disruptionsAllowed: 1 });
  });

  it('rollout status waits on a pod that never becomes Ready; undo --to-revision goes back to that template', async () => {
    const ns = 'web-stuck';
    await ok(['create', 'namespace', ns]);
    await ok(['apply', '-f', '-'], web(ns, 2));
    await readyAll(ns, 2);
    await ok(['set', 'image', 'statefulset/web', '-n', ns, 'nginx=registry.k8s.io/nginx-slim:0.27']);
    // web-1 is replaced and never reported Ready: the rollout stops there.
    await waitFor(k, PODS(ns, 'web-1'), 'web-1 replaced', (p) => p.spec.containers[0].image === 'registry.k8s.io/nginx-slim:0.27');
    const stuck = await kubectl(k, ['rollout', 'status', 'statefulset/web', '-n', ns, '--timeout=3s']);
    expect(stuck.code).not.toBe(0);
    expect(stuck.stdout).toContain('Waiting for 1 pods to be ready...');
    expect(stuck.stderr).toContain('timed out waiting for the condition');
    expect(expectCode(await http(k, 'GET', PODS(ns, 'web-0')), 200).spec.containers[0].image).toBe('registry.k8s.io/nginx-slim:0.24');

    // As on a real cluster, the pod stuck at the bad template must be deleted by hand (kube's
    // "forced rollback"); the set then makes it again from the template it went back to.
    await ok(['rollout', 'undo', 'statefulset/web', '-n', ns, '--to-revision=1']);
    await ok(['delete', 'pod', 'web-1', '-n', ns]);
    await readyAll(ns, 2);
    const back = await waitFor(k, STS(ns, 'web'), 'back at revision 1', (s) => s.metadata.generation === s.status?.observedGeneration && s.status?.updatedReplicas === 2 && s.status?.currentRevision === s.status?.updateRevision);
    expect(back.spec.template.spec.containers[0].image).toBe('registry.k8s.io/nginx-slim:0.24');
    expect(await ok(['rollout', 'history', 'statefulset/web', '-n', ns])).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/);
  });
});
