// The node IPAM controller's range allocator (--allocate-node-cidrs with --cluster-cidr and
// --node-cidr-mask-size): each node without a pod CIDR gets the next free block of the
// cluster CIDR in spec.podCIDR and spec.podCIDRs; blocks of deleted nodes are free again.
// Simulated nodes take their pods' addresses from it, as kubelets with a CNI plugin do.

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import { StatusError } from '../../machinery/errors.js';
import { asObj, str, type Obj } from '../../machinery/json-view.js';
import { EventRecorder } from '../../client/events.js';
import { storeEventSink } from '../event-sink.js';
import type { SharedInformer } from '../framework/informer.js';
import { RateLimitingQueue } from '../framework/workqueue.js';
import { startWorkers } from '../framework/controller.js';
import { informersOf, type Controller, type ControllerContext } from '../manager.js';
import { CONTROLLER_MANAGER } from '../framework/client.js';

export interface NodeIPAMConfig {
  /** --cluster-cidr (IPv4). */
  clusterCIDR: string;
  /** --node-cidr-mask-size */
  nodeCIDRMaskSize: number;
}

export const DEFAULT_NODE_IPAM: NodeIPAMConfig = { clusterCIDR: '10.244.0.0/16', nodeCIDRMaskSize: 24 };

const toInt = (ip: string): number => ip.split('.').reduce((a, o) => a * 256 + Number(o), 0) >>> 0;
const toIP = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** Checks --cluster-cidr and --node-cidr-mask-size together; answers the error's text or undefined. */
export function checkNodeIPAM(cfg: NodeIPAMConfig): string | undefined {
  const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cfg.clusterCIDR);
  if (!m || m[1]!.split('.').some((o) => Number(o) > 255)) return `--cluster-cidr: invalid IPv4 CIDR ${JSON.stringify(cfg.clusterCIDR)}`;
  const prefix = Number(m[2]);
  if (prefix > cfg.nodeCIDRMaskSize || cfg.nodeCIDRMaskSize > 30) return '--node-cidr-mask-size must be at least the cluster CIDR\'s prefix length and at most 30';
  if (cfg.nodeCIDRMaskSize - prefix > 16) return '--node-cidr-mask-size is too large for --cluster-cidr (more than 65536 node blocks)';
  return undefined;
}

export class NodeIPAMController implements Controller {
  private readonly nodes: SharedInformer;
  private readonly queue: RateLimitingQueue<string>;
  private readonly recorder: EventRecorder;
  private readonly used = new Map<number, string>();
  private readonly base: number;
  private readonly blocks: number;
  private readonly blockSize: number;
  private cleanup?: () => void;
  private stopped = false;
  private readonly log: Logger;

  constructor(
    nodes: GenericStore,
    events: GenericStore,
    private readonly ctx: ControllerContext,
    private readonly cfg: NodeIPAMConfig,
  ) {
    this.log = ctx.log.child({ controller: 'node-ipam' });
    this.nodes = informersOf(ctx).of(nodes);
    const [ip, bits] = cfg.clusterCIDR.split('/');
    const prefix = Number(bits);
    this.blockSize = 2 ** (32 - cfg.nodeCIDRMaskSize);
    this.blocks = 2 ** (cfg.nodeCIDRMaskSize - prefix);
    this.base = (toInt(ip!) & ~(2 ** (32 - prefix) - 1)) >>> 0;
    this.queue = new RateLimitingQueue<string>('node_ipam');
    this.recorder = new EventRecorder(storeEventSink(events, CONTROLLER_MANAGER, () => !this.stopped && ctx.leading()), { component: 'cidrAllocator' }, { log: this.log });
  }

  private blockOf(cidr: string): number | undefined {
    const [ip, bits] = cidr.split('/');
    if (!ip || Number(bits) !== this.cfg.nodeCIDRMaskSize || !/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return undefined;
    const i = (toInt(ip) - this.base) / this.blockSize;
    return Number.isInteger(i) && i >= 0 && i < this.blocks ? i : undefined;
  }

  start(): void {
    startWorkers(this.queue, 1, (name) => this.sync(name), this.log);
    this.cleanup = this.nodes.addEventHandler({
      add: (n) => this.seen(n),
      update: (_o, n) => this.seen(n),
      delete: (n) => {
        const b = this.blockOf(str(asObj(n.spec)?.podCIDR));
        if (b !== undefined && this.used.get(b) === str(n.metadata.name)) this.used.delete(b);
      },
    });
  }

  stop(): void {
    this.stopped = true;
    this.cleanup?.();
    this.queue.shutDown();
    this.recorder.stop();
  }

  private seen(n: Obj): void {
    const name = str(asObj(n.metadata)?.name);
    const cidr = str(asObj(n.spec)?.podCIDR);
    if (cidr) {
      const b = this.blockOf(cidr);
      if (b !== undefined) this.used.set(b, name);
      return;
    }
    this.queue.add(name);
  }

  private async sync(name: string): Promise<void> {
    if (this.stopped || !this.ctx.leading()) return;
    const node = this.nodes.get('', name);
    if (!node || str(asObj(node.spec)?.podCIDR)) return;
    let block = -1;
    for (let i = 0; i < this.blocks; i++) {
      if (!this.used.has(i)) {
        block = i;
        break;
      }
    }
    if (block < 0) {
      this.recorder.event({ kind: 'Node', name, uid: str(node.metadata.uid), apiVersion: 'v1' }, 'Normal', 'CIDRNotAvailable', `Node ${name} status is now: CIDRNotAvailable`);
      return;
    }
    const cidr = `${toIP(this.base + block * this.blockSize)}/${this.cfg.nodeCIDRMaskSize}`;
    this.used.set(block, name);
    let wrote = false;
    try {
      await this.nodes.store.guaranteedUpdate(
        '',
        name,
        '',
        (cur) => {
          wrote = false;
          if (str(asObj(cur.spec)?.podCIDR) || !this.ctx.leading()) return cur;
          wrote = true;
          const next = structuredClone(cur);
          next.spec = { ...(next.spec ?? {}), podCIDR: cidr, podCIDRs: [cidr] };
          return next;
        },
        undefined,
        false,
        { manager: 'kube-controller-manager', subresource: '' },
      );
      if (!wrote && this.used.get(block) === name) this.used.delete(block);
    } catch (e) {
      this.used.delete(block);
      if (e instanceof StatusError && e.code === 404) return;
      throw e;
    }
  }
}
