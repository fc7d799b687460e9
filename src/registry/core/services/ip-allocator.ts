// ClusterIP allocation from --service-cluster-ip-range, as kube 1.33 does it (the IPAddress
// allocator of MultiCIDRServiceAllocator, GA and on): every allocated address is an IPAddress
// object (networking.k8s.io/v1) named by the address and pointing at its Service. Creating that
// object through the ipaddresses store is the allocation: the store's create-if-absent makes
// two writers of one address (on this node or another node of the replicated mode) end with
// one winner, and the objects survive restarts. Releasing is deleting the object.
//
// Which addresses are free is read from the ipaddresses watch cache; a stale cache only costs
// a retry (the create answers AlreadyExists and the next address is tried).

import { StatusError } from '../../../machinery/errors.js';
import type { KObject } from '../../../machinery/object.js';
import { canonicalIPString, cidrAddr, cidrContains, cidrSize, cidrString, ipString, parseCIDRSloppy, type CIDR, type IPAddr, type IPFamily } from '../../../machinery/net/ip.js';
import type { HookStore } from '../../types.js';
import { IP_FAMILY_LABEL, MANAGED_BY_ALLOCATOR, MANAGED_BY_LABEL } from '../../networking/ipaddresses/strategy.js';

/** An allocation that failed, with the allocator's own words (kube's ipallocator errors). */
export class AllocationError extends Error {
  constructor(
    message: string,
    readonly reason: 'allocated' | 'full' | 'range',
  ) {
    super(message);
  }
}

export const ERR_IP_ALLOCATED = 'provided IP is already allocated';
export const ERR_FULL = 'range is full';
/** The MetaAllocator's answer for an address outside every service CIDR. */
const ERR_MISMATCHED_NETWORK = 'the provided network does not match the current range';

export interface ServiceRef {
  namespace: string;
  name: string;
}

/** KEP-3070: the lower part of the range is kept for addresses users ask for. */
function rangeOffset(size: bigint): bigint {
  if (size <= 16n) return 0n;
  const offset = size / 16n;
  if (offset < 16n) return 16n;
  if (offset > 256n) return 256n;
  return offset;
}

function randomBelow(n: bigint): bigint {
  if (n <= 0n) return 0n;
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return BigInt(Math.floor(Math.random() * Number(n)));
  return BigInt(Math.floor(Math.random() * Number.MAX_SAFE_INTEGER)) % n;
}

export class IPAllocator {
  readonly cidr: CIDR;
  readonly family: IPFamily;
  /** Offsets from the network address of the first and last usable addresses. */
  private readonly first: bigint;
  private readonly last: bigint;
  private readonly offset: bigint;

  constructor(
    cidrText: string,
    /** The ipaddresses store, looked up when first needed (stores are made one by one). */
    private readonly storeOf: () => HookStore,
  ) {
    const cidr = parseCIDRSloppy(cidrText);
    if (!cidr) throw new Error(`invalid service CIDR ${JSON.stringify(cidrText)}`);
    this.cidr = cidr;
    this.family = cidr.family;
    const size = cidrSize(cidr);
    // Not the network address; for IPv4 not the broadcast address either.
    this.first = 1n;
    this.last = cidr.family === 'IPv4' ? size - 2n : size - 1n;
    this.offset = rangeOffset(size - 1n - (cidr.family === 'IPv4' ? 1n : 0n));
  }

  /** The first usable address (the `kubernetes` Service's). */
  get firstAddress(): IPAddr {
    return cidrAddr(this.cidr, this.first);
  }

  private usable(ip: IPAddr): boolean {
    if (!cidrContains(this.cidr, ip)) return false;
    const off = ip.value - this.cidr.base;
    return off >= this.first && off <= this.last;
  }

  private get store(): HookStore {
    return this.storeOf();
  }

  private taken(ip: IPAddr): boolean {
    return this.store.cache.get(this.store.keyFor('', ipString(ip))) !== undefined;
  }

  /** Reserves `ip` for the service; a dry run only checks the range, as kube's does. */
  async allocate(ip: IPAddr, svc: ServiceRef, dryRun: boolean): Promise<void> {
    if (!this.usable(ip)) {
      if (dryRun) {
        throw new AllocationError(`the provided IP (${ipString(ip)}) is not in the valid range. The range of valid IPs is ${cidrString(this.cidr)}`, 'range');
      }
      throw new AllocationError(ERR_MISMATCHED_NETWORK, 'range');
    }
    if (dryRun) return;
    if (!(await this.create(ip, svc))) throw new AllocationError(ERR_IP_ALLOCATED, 'allocated');
  }

  /**
   * Reserves a free address, from a random point of the upper part of the range first, then
   * of the lower part. A dry run answers the network address, as kube's does.
   */
  async allocateNext(svc: ServiceRef, dryRun: boolean): Promise<IPAddr> {
    if (dryRun) return { family: this.family, value: this.cidr.base };
    const bands: Array<[bigint, bigint]> = [[this.first + this.offset, this.last]];
    if (this.offset > 0n) bands.push([this.first, this.first + this.offset - 1n]);
    for (const [lo, hi] of bands) {
      if (hi < lo) continue;
      const n = hi - lo + 1n;
      const start = randomBelow(n);
      for (let i = 0n; i < n; i++) {
        const ip = cidrAddr(this.cidr, lo + ((start + i) % n));
        if (this.taken(ip)) continue;
        if (await this.create(ip, svc)) return ip;
      }
    }
    throw new AllocationError(ERR_FULL, 'full');
  }

  /**
   * Frees `ip` (its IPAddress object, named by the canonical form: a service may list a
   * non-standard spelling such as `10.96.0.010`); an address already free is fine.
   */
  async release(ip: string): Promise<void> {
    try {
      await this.store.delete('', canonicalIPString(ip), {});
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }

  /** Whether `ip` is an address of this allocator's family. */
  owns(ip: IPAddr): boolean {
    return ip.family === this.family;
  }

  /** Creates the IPAddress object; false when the address is taken. */
  private async create(ip: IPAddr, svc: ServiceRef): Promise<boolean> {
    const obj: KObject = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IPAddress',
      metadata: { name: ipString(ip), labels: { [IP_FAMILY_LABEL]: this.family, [MANAGED_BY_LABEL]: MANAGED_BY_ALLOCATOR } },
      spec: { parentRef: { group: '', resource: 'services', namespace: svc.namespace, name: svc.name } },
    } as KObject;
    try {
      await this.store.create('', obj, false, { manager: 'kube-apiserver', subresource: '' });
      return true;
    } catch (e) {
      if (e instanceof StatusError && e.reason === 'AlreadyExists') return false;
      throw e;
    }
  }
}
