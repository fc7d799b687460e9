// Pod addresses from a node's pod CIDR, as the host-local IPAM plugin hands them out: the
// network address and the gateway (.1) are never given, addresses go in order and a
// released one is reused only after the others (so a new pod rarely gets a dead pod's IP).

import { isIPv4 } from 'node:net';

const toInt = (ip: string): number => ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
const toIP = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

export class PodCIDR {
  private readonly base: number;
  private readonly size: number;
  private readonly used = new Set<number>();
  private next = 2;

  constructor(readonly cidr: string) {
    const [ip, bits] = cidr.split('/');
    const prefix = Number(bits);
    if (!ip || !isIPv4(ip) || !(prefix >= 8 && prefix <= 30)) {
      // IPv6 or odd ranges: a /24 of their own, so pods still get addresses.
      this.base = toInt('10.255.0.0');
      this.size = 256;
      return;
    }
    this.size = 2 ** (32 - prefix);
    this.base = (toInt(ip) & ~(this.size - 1)) >>> 0;
  }

  allocate(): string | undefined {
    const last = this.size - 2; // the broadcast address is not given either
    for (let i = 0; i < last - 1; i++) {
      const off = ((this.next - 2 + i) % (last - 1)) + 2;
      if (this.used.has(off)) continue;
      this.used.add(off);
      this.next = off + 1 > last ? 2 : off + 1;
      return toIP(this.base + off);
    }
    return undefined;
  }

  claim(ip: string): void {
    if (!isIPv4(ip)) return;
    const off = toInt(ip) - this.base;
    if (off > 0 && off < this.size) this.used.add(off);
  }

  release(ip: string): void {
    if (!isIPv4(ip)) return;
    this.used.delete(toInt(ip) - this.base);
  }
}
