// --controllers on a real server: kube-controller-manager's names turn controllers off and on
// (a set made while the StatefulSet controller is off gets no pods and no status), and an
// unknown name stops the server at start with kube's message.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { STS, expectCode, http, sts, uniq, type KapiProcess } from '../http/helpers.js';
import { PODS } from './helpers.js';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi({ args: ['--controllers', '*,-statefulset'] });
});

afterAll(() => stopKapi(k));

describe('--controllers', () => {
  it('-statefulset leaves StatefulSets alone while the other controllers run', async () => {
    const name = uniq('off');
    expectCode(await http(k, 'POST', STS('default'), sts(name, { replicas: 2 })), 201);
    await new Promise((r) => setTimeout(r, 1000));
    const pods = expectCode(await http(k, 'GET', `${PODS('default')}?labelSelector=app%3D${name}`), 200);
    expect(pods.items).toEqual([]);
    const set = expectCode(await http(k, 'GET', STS('default', name)), 200);
    expect(set.status).toEqual({ replicas: 0, availableReplicas: 0 });
    expect(k.logs()).toMatch(/"controllers":\[[^\]]*"garbage-collector-controller"/);
  });

  it('refuses an unknown controller name at start', async () => {
    await expect(startKapi({ args: ['--controllers', '*,-nosuch'] })).rejects.toThrow('"nosuch" is not in the list of known controllers');
  });
});
