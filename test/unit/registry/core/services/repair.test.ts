// Which IPAddress objects the allocation repair takes back (kube's RepairIPAddress.syncIPAddress).

import { describe, expect, it } from 'vitest';
import { ipRepairVerdict } from '../../../../../src/registry/core/services/allocation.js';
import type { KObject } from '../../../../../src/machinery/object.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function ip(name: string, created: number, parentRef: Record<string, string>, managed = true): KObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: { name, creationTimestamp: at(created), labels: managed ? { 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' } : {} },
    spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'web', ...parentRef } },
  } as KObject;
}

const svc = (created: number, clusterIPs: string[]): KObject =>
  ({ metadata: { namespace: 'default', name: 'web', creationTimestamp: at(created) }, spec: { clusterIP: clusterIPs[0], clusterIPs } }) as KObject;

describe('ipRepairVerdict', () => {
  it('leaves addresses of other managers and the ones their Service lists', () => {
    expect(ipRepairVerdict(ip('10.96.0.5', 0, {}, false), undefined, T0 + 600_000)).toBe('keep');
    expect(ipRepairVerdict(ip('10.96.0.5', 0, {}), svc(0, ['10.96.0.5']), T0 + 600_000)).toBe('keep');
  });

  it('matches a Service that spells its address non-standardly by the canonical form', () => {
    expect(ipRepairVerdict(ip('10.96.200.25', 0, {}), svc(0, ['10.96.200.025']), T0 + 600_000)).toBe('keep');
  });

  it('deletes at once one pointing at something else than a Service', () => {
    expect(ipRepairVerdict(ip('10.96.0.5', 0, { group: 'apps', resource: 'deployments' }), undefined, T0)).toBe('delete');
    expect(ipRepairVerdict(ip('10.96.0.5', 0, { resource: 'pods' }), undefined, T0)).toBe('delete');
  });

  it('waits 60 seconds before taking back the address of a Service that does not exist', () => {
    expect(ipRepairVerdict(ip('10.96.0.5', 0, {}), undefined, T0 + 30_000)).toBe('wait');
    expect(ipRepairVerdict(ip('10.96.0.5', 0, {}), undefined, T0 + 61_000)).toBe('delete');
  });

  it('an address its Service does not list goes, unless it is newer than the Service and a few seconds old', () => {
    expect(ipRepairVerdict(ip('10.96.0.5', 10_000, {}), svc(0, ['10.96.0.6']), T0 + 12_000)).toBe('wait');
    expect(ipRepairVerdict(ip('10.96.0.5', 10_000, {}), svc(0, ['10.96.0.6']), T0 + 16_000)).toBe('delete');
    expect(ipRepairVerdict(ip('10.96.0.5', 0, {}), svc(10_000, ['10.96.0.6']), T0 + 11_000)).toBe('delete');
  });
});
