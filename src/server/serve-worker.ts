// The server's thread: cli.ts starts it with a stack deep enough for the deepest request data
// the decoders admit (10,000 levels), logs and serves from here, and stops on the main
// thread's word (a signal there).

import { writeSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import type { NodeConfig } from './node.js';
import { pkiOptions } from '../auth/pki/files.js';
import { ensurePKIOffThread } from '../auth/pki/worker.js';
import { applyOperateFlags, type OperateValues } from './operate-flags.js';

/** The server thread's stack, MiB: 10,000 nested levels through the deepest walker with room to spare. */
export const SERVER_STACK_MB = 256;

export interface ServeRequest {
  cfg: NodeConfig;
  /** The operating flags as parsed (cli.ts has checked them). */
  operateValues: OperateValues;
  verbose: boolean;
  /** When the process started (epoch ms), for the ready line's startupMs. */
  startedAt: number;
}

async function run(req: ServeRequest): Promise<void> {
  const log = pino({ name: 'kapi', level: req.verbose ? 'debug' : 'info' });
  const cfg = req.cfg;
  cfg.operate = applyOperateFlags(req.operateValues, log);
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
    node.shutdown().then(
      () => {
        log.info('shutdown complete');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
  try {
    await node.start();
  } catch (e) {
    // A worker's process.stdout and stderr reach the process asynchronously, and exit drops
    // what is still on the way: the reason is written to the descriptors themselves.
    if ((e as Error).name === 'EncryptionConfigError') {
      // Kube's "command failed": the reason, exit 1.
      writeSync(2, `Error: ${(e as Error).message}\n`);
      process.exit(1);
    }
    pino({ name: 'kapi' }, pino.destination({ dest: 1, sync: true })).fatal({ err: e }, 'failed to start');
    process.exit(1);
  }
  log.info(
    { url: node.url, kubeconfig: node.kubeconfigPath, storage: req.cfg.storageBackend, startupMs: Math.round(Date.now() - req.startedAt) },
    'kapi ready',
  );
}

if (!isMainThread && parentPort) void run(workerData as ServeRequest);
