// kubectl 1.33 apply --server-side: two field managers, the conflict kubectl reports,
// --force-conflicts, and the upgrade from client-side apply.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, kubectl, startKapi, stopKapi, type KapiProcess } from '../../support/server.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const manifest = (name: string, replicas: number, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  serviceName: ${name}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: app
        image: ${image}
`;

describe('kubectl apply --server-side', () => {
  let k: KapiProcess;
  const get = async (name: string): Promise<Obj> => (await http(k, 'GET', `/apis/apps/v1/namespaces/default/statefulsets/${name}`)).json as Obj;
  const managers = (o: Obj) => (o.metadata.managedFields as Obj[]).map((e) => `${e.manager}/${e.operation}`).sort();

  beforeAll(async () => {
    k = await startKapi();
  });
  afterAll(async () => {
    await stopKapi(k);
  });

  it('two managers, the conflict, then --force-conflicts', async () => {
    const a = await kubectl(k, ['apply', '--server-side', '--field-manager=team-a', '-f', '-'], manifest('ssa-web', 2));
    expect(a, a.stderr).toMatchObject({ code: 0, stdout: 'statefulset.apps/ssa-web serverside-applied\n' });
    const same = await kubectl(k, ['apply', '--server-side', '--field-manager=team-b', '-f', '-'], manifest('ssa-web', 2));
    expect(same.code, same.stderr).toBe(0);
    expect(managers(await get('ssa-web'))).toStrictEqual(['team-a/Apply', 'team-b/Apply']);

    const conflict = await kubectl(k, ['apply', '--server-side', '--field-manager=team-b', '-f', '-'], manifest('ssa-web', 5));
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('error: Apply failed with 1 conflict: conflict with "team-a": .spec.replicas');
    expect(conflict.stderr).toContain('--force-conflicts');
    expect((await get('ssa-web')).spec.replicas).toBe(2);

    const forced = await kubectl(k, ['apply', '--server-side', '--field-manager=team-b', '--force-conflicts', '-f', '-'], manifest('ssa-web', 5));
    expect(forced, forced.stderr).toMatchObject({ code: 0, stdout: 'statefulset.apps/ssa-web serverside-applied\n' });
    const o = await get('ssa-web');
    expect(o.spec.replicas).toBe(5);
    const byManager = Object.fromEntries((o.metadata.managedFields as Obj[]).map((e) => [e.manager, e.fieldsV1]));
    expect(byManager['team-b']['f:spec']['f:replicas']).toStrictEqual({});
    expect(byManager['team-a']['f:spec']['f:replicas']).toBeUndefined();

    const shown = await kubectl(k, ['get', 'statefulset', 'ssa-web', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[*].manager}']);
    expect(shown.stdout.split(' ').sort()).toStrictEqual(['team-a', 'team-b']);
  });

  it('client-side apply, then server-side apply by kubectl takes over without conflict', async () => {
    const csa = await kubectl(k, ['apply', '-f', '-'], manifest('csa-web', 2));
    expect(csa, csa.stderr).toMatchObject({ code: 0, stdout: 'statefulset.apps/csa-web created\n' });
    const before = await get('csa-web');
    expect(managers(before)).toStrictEqual(['kubectl-client-side-apply/Update']);
    expect(before.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toBeTruthy();

    // Another manager conflicts with the client-side applier.
    const other = await kubectl(k, ['apply', '--server-side', '--field-manager=other', '-f', '-'], manifest('csa-web', 3));
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');

    const ssa = await kubectl(k, ['apply', '--server-side', '-f', '-'], manifest('csa-web', 3, 'nginx:1.28'));
    expect(ssa.code, ssa.stderr).toBe(0);
    expect(ssa.stdout).toBe('statefulset.apps/csa-web serverside-applied\n');
    const after = await get('csa-web');
    expect(after.spec.replicas).toBe(3);
    expect(after.spec.template.spec.containers[0].image).toBe('nginx:1.28');
    expect(managers(after)).toContain('kubectl/Apply');
    const last = JSON.parse(after.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']) as Obj;
    expect(last.spec.replicas).toBe(3);
    expect(last.spec.template.spec.containers[0].image).toBe('nginx:1.28');
  });
});
