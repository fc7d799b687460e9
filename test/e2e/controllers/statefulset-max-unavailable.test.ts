// RollingUpdate with maxUnavailable behind the MaxUnavailableStatefulSet gate (alpha, off by
// default in 1.33): with the gate on, up to maxUnavailable pods from the top are replaced at
// once, counting the pods already unavailable; without the gate the field is dropped and the
// update goes one pod at a time (statefulset.test.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { STS, expectCode, http, sts, uniq, type KapiProcess } from '../http/helpers.js';
import { KUBELET_PLAYED, podsOf, setReady, waitFor, waitPods } from './helpers.js';

let k: KapiProcess;
const NS = 'default';

beforeAll(async () => {
  k = await startKapi({ args: [...KUBELET_PLAYED, '--feature-gates', 'MaxUnavailableStatefulSet=true'] });
});

afterAll(() => stopKapi(k));

describe('maxUnavailable', () => {
  it('replaces up to maxUnavailable pods at once, from the highest ordinal', async () => {
    const name = uniq('maxu');
    const set = sts(name, { replicas: 4 });
    set.spec.podManagementPolicy = 'Parallel';
    set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } };
    const created = expectCode(await http(k, 'POST', STS(NS), set), 201);
    expect(created.spec.updateStrategy.rollingUpdate).toEqual({ partition: 0, maxUnavailable: '50%' });
    const names = [0, 1, 2, 3].map((i) => `${name}-${i}`);
    const first = await waitPods(k, NS, { app: name }, names);
    for (const n of names) await setReady(k, NS, n);
    const v1 = first[0]!.metadata.labels['controller-revision-hash'];
    await waitFor(k, STS(NS, name), 'ready', (s) => s.status?.readyReplicas === 4);
    expectCode(await http(k, 'PATCH', STS(NS, name), { spec: { template: { metadata: { labels: { app: name, v: '2' } } } } }, { 'content-type': 'application/merge-patch+json' }), 200);
    // Two (50% of 4) go together; the other two wait while those are not Ready.
    await waitFor(k, STS(NS, name), 'two updated', (s) => s.status?.updatedReplicas === 2);
    await new Promise((r) => setTimeout(r, 500));
    const pods = await podsOf(k, NS, { app: name });
    const revs = pods.map((p) => p.metadata.labels['controller-revision-hash']);
    expect(revs[0]).toBe(v1);
    expect(revs[1]).toBe(v1);
    expect(revs[2]).not.toBe(v1);
    expect(revs[3]).not.toBe(v1);
    await setReady(k, NS, names[2]!);
    await setReady(k, NS, names[3]!);
    await waitFor(k, STS(NS, name), 'all updated', (s) => s.status?.updatedReplicas === 4);
  });

  it('validates maxUnavailable as kube does once the gate keeps it', async () => {
    const set = sts(uniq('badmu'), { replicas: 1 });
    set.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } };
    const r = expectCode(await http(k, 'POST', STS(NS), set), 422);
    expect(r.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.updateStrategy.rollingUpdate.maxUnavailable', message: 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%' }]);
  });
});
