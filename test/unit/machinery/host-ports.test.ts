// The host ports a pod asks for, and when two clash, as kube's NodePorts compares them.

import { describe, expect, it } from 'vitest';
import { hostPorts, portsConflict } from '../../../src/machinery/host-ports.js';

const pod = (ports: object[], initPorts: object[] = []) => ({
  spec: { containers: [{ name: 'a', ports }], initContainers: initPorts.length ? [{ name: 'i', ports: initPorts }] : undefined },
});

describe('host ports', () => {
  it('lists hostIP/protocol/port of the ports with a hostPort, with kube defaults', () => {
    expect(hostPorts(pod([{ containerPort: 80 }, { containerPort: 80, hostPort: 8080 }, { containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }], [{ containerPort: 9, hostPort: 9 }]))).toEqual([
      '0.0.0.0/TCP/8080',
      '10.0.0.1/UDP/53',
      '0.0.0.0/TCP/9',
    ]);
    expect(hostPorts({})).toEqual([]);
  });

  it('clashes on the same protocol and port, with the same host IP or 0.0.0.0 on either side', () => {
    const used = new Set(['10.0.0.1/TCP/80']);
    expect(portsConflict(['10.0.0.1/TCP/80'], used)).toBe(true);
    expect(portsConflict(['0.0.0.0/TCP/80'], used)).toBe(true);
    expect(portsConflict(['10.0.0.1/TCP/80'], new Set(['0.0.0.0/TCP/80']))).toBe(true);
    expect(portsConflict(['10.0.0.2/TCP/80'], used)).toBe(false);
    expect(portsConflict(['10.0.0.1/UDP/80'], used)).toBe(false);
    expect(portsConflict(['10.0.0.1/TCP/81'], used)).toBe(false);
    expect(portsConflict([], used)).toBe(false);
  });
});
