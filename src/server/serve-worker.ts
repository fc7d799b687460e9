// The server's thread: cli.ts starts it with a stack deep enough for the deepest request data
// the decoders admit (10,000 levels), logs and serves from here, and stops on the main
// thread's word (a signal there).

import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import type { NodeConfig } from './node.js';
import { pkiOptions } from '../auth/pki/files.js';
import { ensurePKIOffThread } from '../auth/pki/worker.js';
import { setFeatureGates } from '../machinery/feature-gates.js';

/** The server thread's stack, MiB: 10,000 nested levels through the deepest walker with room to spare. */
export const SERVER_STACK_MB = 256;

export interface ServeRequest {
  cfg: NodeConfig;
  featureGates: string;
  verbose: boolean;
  /** When the process started (epoch ms), for the ready line's startupMs. */
  startedAt: number;
}

async function run(req: ServeRequest): Promise<void> {
  setFeatureGates(req.featureGates);
  const log = pino({ name: 'kapi', level: req.verbose ? 'debug' : 'info' });
  const cfg = req.cfg;
  // The certificates are made (first start) on another worker while the server's modules load.
  if ('tls' in cfg.serving) {
    const pki = ensurePKIOffThread(pkiOptions(cfg.bindAddress, cfg.serving.tls));
    pki.catch(() => undefined);
    cfg.serving.tls.pki = pki;
  }
  const { KapiNode } = await import('./node.js');
  const node = new KapiNode(cfg, log);
  parentPort!.on('message', (m: { stop?: string }) => {
    if (!m.stop) return;
    log.info({ signal: m.stop }, 'shutting down');
    node.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  try {
    await node.start();
  } catch (e) {
    log.fatal({ err: e }, 'failed to start');
    process.exit(1);
  }
  log.info(
    { url: node.url, kubeconfig: node.kubeconfigPath, storage: req.cfg.storageBackend, startupMs: Math.round(Date.now() - req.startedAt) },
    'kapi ready',
  );
}

if (!isMainThread && parentPort) void run(workerData as ServeRequest);
