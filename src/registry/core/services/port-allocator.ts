// NodePort allocation from --service-node-port-range. kube keeps the range as one bitmap object
// (/registry/ranges/servicenodeports); kapi keeps one small key per allocated port under that
// prefix instead, written with compare-and-swap through an actor of its own: taking a port is
// creating its key (create-if-absent, so two nodes of the replicated mode never both win one
// port), releasing it is deleting the key, and nothing rewrites a whole bitmap per service. The
// keys are not an API resource; a watch cache on their prefix tells which ports are taken.

import { KindActor, type Decision } from '../../../actors/kind-actor.js';
import { WatchCache } from '../../../cache/watch-cache.js';
import { nowTimestamp } from '../../../machinery/meta.js';
import { stripResourceVersion } from '../../../machinery/stored-bytes.js';
import type { HookEnv } from '../../types.js';
import { AllocationError, ERR_FULL, type ServiceRef } from './ip-allocator.js';
import { parsePortRange, portRangeString, type PortRange } from './ranges.js';

export const ERR_PORT_ALLOCATED = 'provided port is already allocated';

/** The lower part of the range is kept for ports users ask for (KEP-3668). */
function rangeOffset(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(size / 32)), 128);
}

export class PortAllocator {
  readonly range: PortRange;
  private readonly prefix: string;
  private readonly cache: WatchCache;
  private readonly actor: KindActor;

  constructor(rangeText: string, env: HookEnv) {
    this.range = parsePortRange(rangeText);
    this.prefix = `${env.storagePrefix}/ranges/servicenodeports/`;
    this.cache = new WatchCache(this.prefix, false, { historyMs: env.historyMs, maxHistory: 100_000 });
    env.registryWatch.add(this.cache);
    this.actor = new KindActor(env.storage, (key) => {
      const e = this.cache.get(key);
      return e ? { key, value: stripResourceVersion(e), modRevision: e.rv, createRevision: e.createRevision } : null;
    });
  }

  private key(port: number): string {
    return `${this.prefix}${port}`;
  }

  inRange(port: number): boolean {
    return port >= this.range.base && port < this.range.base + this.range.size;
  }

  has(port: number): boolean {
    return this.cache.get(this.key(port)) !== undefined;
  }

  /** Every port this node sees taken. */
  allocated(): number[] {
    return this.cache.list(this.prefix).map((e) => Number(e.name));
  }

  notInRange(): AllocationError {
    return new AllocationError(`provided port is not in the valid range. The range of valid ports is ${portRangeString(this.range)}`, 'range');
  }

  /** Takes `port` for the service; false when it was taken already. */
  async take(port: number, svc: ServiceRef): Promise<boolean> {
    const value = Buffer.from(
      JSON.stringify({ kind: 'NodePortAllocation', apiVersion: 'kapi.io/v1', metadata: { name: String(port), creationTimestamp: nowTimestamp() }, service: `${svc.namespace}/${svc.name}` }),
    );
    try {
      await this.actor.submit(this.key(port), (cur): Decision => {
        if (cur) throw new AllocationError(ERR_PORT_ALLOCATED, 'allocated');
        return { kind: 'put', value };
      });
      return true;
    } catch (e) {
      if (e instanceof AllocationError) return false;
      throw e;
    }
  }

  /** Takes a free port: a random one of the upper part of the range first, then of the lower part. */
  async takeNext(svc: ServiceRef): Promise<number> {
    const off = rangeOffset(this.range.size);
    const bands: Array<[number, number]> = [[off, this.range.size - 1]];
    if (off > 0) bands.push([0, off - 1]);
    for (const [lo, hi] of bands) {
      const n = hi - lo + 1;
      if (n <= 0) continue;
      const start = Math.floor(Math.random() * n);
      for (let i = 0; i < n; i++) {
        const port = this.range.base + lo + ((start + i) % n);
        if (this.has(port)) continue;
        if (await this.take(port, svc)) return port;
      }
    }
    throw new AllocationError(ERR_FULL, 'full');
  }

  /** Frees `port`; a port already free is fine. */
  async release(port: number): Promise<void> {
    await this.actor.submit(this.key(port), (cur): Decision => (cur ? { kind: 'delete' } : { kind: 'none' }));
  }

  /** When each taken port was taken (ms since the epoch), for the leak repair. */
  takenAt(port: number): number | undefined {
    const e = this.cache.get(this.key(port));
    if (!e) return undefined;
    const meta = (JSON.parse(e.bytes.toString('utf8')) as { metadata?: { creationTimestamp?: string } }).metadata;
    return meta?.creationTimestamp ? Date.parse(meta.creationTimestamp) : undefined;
  }
}
