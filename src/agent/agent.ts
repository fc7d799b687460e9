// The node agent: N simulated kubelets in one process (`kapi agent`, or in-process with
// `kapi serve --simulate-nodes N`), each with its own client and credentials.

import type { Logger } from 'pino';
import type { ClientConfig } from '../client/kubeconfig.js';
import { SimulatedNode } from './node.js';
import type { AgentOptions } from './options.js';

/** The client configuration of one node: the server, and the node's own credentials. */
export type NodeCredentials = (nodeName: string) => Promise<ClientConfig>;

export class NodeAgent {
  private readonly nodes: SimulatedNode[] = [];
  private stopped = false;

  constructor(
    private readonly options: AgentOptions,
    private readonly credentials: NodeCredentials,
    private readonly log: Logger,
  ) {}

  /** Registers every node and starts its loops; resolves when all of them run. */
  async start(): Promise<void> {
    await Promise.all(
      this.options.nodeNames.map(async (name) => {
        const node = new SimulatedNode(name, await this.credentials(name), this.options, this.log);
        if (this.stopped) return;
        this.nodes.push(node);
        await node.start();
      }),
    );
    this.log.info({ nodes: this.options.nodeNames }, 'simulated nodes running');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.nodes.map((n) => n.stop()));
  }
}
