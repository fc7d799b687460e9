// Leases (coordination.k8s.io/v1) on one node: kube's validation and messages, updates that
// must name a resourceVersion, create on PUT, the gated coordinated-election fields, the
// Table, and the two leases a node keeps itself (the controller lease and its identity).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startKapi, stopKapi } from '../../support/server.js';
import { expectCode, http, uniq, type KapiProcess, type Obj } from './helpers.js';

const LEASES = (ns: string, name = ''): string => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

let k: KapiProcess;

beforeAll(async () => {
  k = await startKapi({ args: ['--node-name', 'solo'] });
});

afterAll(() => stopKapi(k));

describe('leases', () => {
  it('refuses a negative duration or transition count with kube\'s causes', async () => {
    const r = await http(k, 'POST', LEASES('default'), { metadata: { name: 'bad' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } });
    const s = expectCode(r, 422);
    expect(s.message).toBe(
      'Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
    expect(s.details.causes.map((c: Obj) => c.field)).toEqual(['spec.leaseDurationSeconds', 'spec.leaseTransitions']);
  });

  it('reads renewTime as a MicroTime: a time without its six digits is a decode error', async () => {
    const r = await http(k, 'POST', LEASES('default'), { metadata: { name: 'sec' }, spec: { renewTime: '2025-01-02T03:04:05Z' } });
    expect(expectCode(r, 400).message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: parsing time "2025-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });

  it('creates on PUT, refuses an update without a resourceVersion, and drops the gated fields', async () => {
    const name = uniq('l');
    const body = { metadata: { name }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2025-01-02T03:04:05.123456Z', strategy: 'OldestEmulationVersion', preferredHolder: 'you' } };
    const created = expectCode(await http(k, 'PUT', LEASES('default', name), body), 201);
    expect(created.spec).toEqual({ holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2025-01-02T03:04:05.123456Z' });
    const s = expectCode(await http(k, 'PUT', LEASES('default', name), { metadata: { name }, spec: { holderIdentity: 'x' } }), 422);
    expect(s.message).toBe(`leases.coordination.k8s.io "${name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
    expect(s.details).toMatchObject({ name, group: 'coordination.k8s.io', kind: 'leases' });
    const stale = { ...created, spec: { holderIdentity: 'y' }, metadata: { ...created.metadata, resourceVersion: '1' } };
    expect(expectCode(await http(k, 'PUT', LEASES('default', name), stale), 409).reason).toBe('Conflict');
    const updated = expectCode(await http(k, 'PUT', LEASES('default', name), { ...created, spec: { holderIdentity: 'y' } }), 200);
    expect(updated.spec).toEqual({ holderIdentity: 'y' });
  });

  it('prints Name, Holder and Age', async () => {
    const t = expectCode(await http(k, 'GET', LEASES('kube-system'), undefined, { accept: TABLE }), 200);
    expect(t.columnDefinitions.map((c: Obj) => c.name)).toEqual(['Name', 'Holder', 'Age']);
    const row = (t.rows as Obj[]).find((r) => r.cells[0] === 'kube-controller-manager')!;
    expect(row.cells[1]).toMatch(/^solo_[0-9a-f-]{36}$/);
    expect(row.cells[2]).toMatch(/^[0-9]+s$/);
  });

  it('holds the controller lease and keeps an identity lease, as kube-controller-manager and kube-apiserver do', async () => {
    const ctl = expectCode(await http(k, 'GET', LEASES('kube-system', 'kube-controller-manager')), 200);
    expect(ctl.spec).toMatchObject({ leaseDurationSeconds: 15, leaseTransitions: 0 });
    expect(ctl.spec.holderIdentity).toMatch(/^solo_/);
    expect(ctl.spec.acquireTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(ctl.metadata.managedFields[0].manager).toBe('kube-controller-manager');
    const ids = expectCode(await http(k, 'GET', `${LEASES('kube-system')}?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver`), 200);
    expect(ids.items).toHaveLength(1);
    const id = ids.items[0];
    // kube's APIServerID of the host name, here of the node name.
    expect(id.metadata.name).toBe('apiserver-w7b6k7a6e6fr6gmprxm5bpiwk4');
    expect(id.metadata.labels).toEqual({ 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': 'solo' });
    expect(id.spec.holderIdentity).toMatch(new RegExp(`^${id.metadata.name}_[0-9a-f-]{36}$`));
    expect(id.spec.leaseDurationSeconds).toBe(3600);
  });
});

describe('leases with CoordinatedLeaderElection on', () => {
  let g: KapiProcess;
  beforeAll(async () => {
    g = await startKapi({ args: ['--feature-gates', 'CoordinatedLeaderElection=true'] });
  });
  afterAll(async () => {
    await g?.stop();
    if (g) await removeDir(g.dataDir);
  });

  it('keeps strategy and preferredHolder, and validates them as kube does (one path segment too deep)', async () => {
    const ok = expectCode(await http(g, 'POST', LEASES('default'), { metadata: { name: 'c' }, spec: { strategy: 'OldestEmulationVersion', preferredHolder: 'p' } }), 201);
    expect(ok.spec).toEqual({ strategy: 'OldestEmulationVersion', preferredHolder: 'p' });
    const bad = expectCode(await http(g, 'POST', LEASES('default'), { metadata: { name: 'd' }, spec: { strategy: 'Newest', preferredHolder: 'p' } }), 422);
    expect(bad.message).toBe('Lease.coordination.k8s.io "d" is invalid: spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"');
    const alone = expectCode(await http(g, 'POST', LEASES('default'), { metadata: { name: 'e' }, spec: { preferredHolder: 'p' } }), 422);
    expect(alone.message).toBe('Lease.coordination.k8s.io "e" is invalid: spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined');
  });
});
