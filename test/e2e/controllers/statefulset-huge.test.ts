// A StatefulSet of 2^31-1 replicas (valid) with the Parallel policy: the controller runs inside
// the API server, so it must neither lay out every ordinal at once (which stalled the server
// for good) nor create pods as fast as the node can. It goes at kube-controller-manager's client
// pace (20 requests/s, a burst of 30) while the server keeps answering.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { STS, expectCode, http, sts, type KapiProcess } from '../http/helpers.js';
import { KUBELET_PLAYED, podsOf } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi({ args: [...KUBELET_PLAYED] });
});

afterAll(async () => {
  await stopKapi(k);
});

it('creates the pods of a set of 2^31-1 replicas at the controller client pace, and the server keeps answering', async () => {
  const set = sts('huge', { replicas: 2147483647 });
  (set.spec as { podManagementPolicy?: string }).podManagementPolicy = 'Parallel';
  const t0 = Date.now();
  expectCode(await http(k, 'POST', STS('default'), set), 201);
  await new Promise((r) => setTimeout(r, 3000));
  // Quick answers meanwhile: health, and a read of the set.
  const probe = Date.now();
  expectCode(await http(k, 'GET', '/readyz'), 200);
  expectCode(await http(k, 'GET', `${STS('default')}/huge`), 200);
  expect(Date.now() - probe).toBeLessThan(2000);
  const pods = await podsOf(k, 'default', { app: 'huge' });
  const elapsed = (Date.now() - t0) / 1000;
  expect(pods.length).toBeGreaterThan(0);
  // At most the burst plus 20 a second (and a little for the first sync's timing).
  expect(pods.length).toBeLessThanOrEqual(30 + Math.ceil(20 * elapsed) + 5);
  expect(pods.map((p) => p.metadata.name)).toContain('huge-0');
}, 60_000);
