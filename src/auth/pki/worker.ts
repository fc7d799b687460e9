// A first start makes its certificates on a worker thread, while the main thread loads the
// server's modules and opens the store: loading the certificate library and issuing three
// certificates costs a few hundred milliseconds of one core, and the main thread has as much
// of its own to do before it can listen.

import { existsSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ensurePKI, pkiPaths, type EnsurePKIOptions, type PKI } from './files.js';

/** Whether every file of the PKI is there already (a later start reads them, no worker needed). */
function complete(opts: EnsurePKIOptions): boolean {
  const p = pkiPaths(opts.certDir);
  const files = [p.caCert, p.caKey, p.adminCert, p.adminKey];
  if (!opts.noServing) files.push(p.servingCert, p.servingKey);
  return files.every((f) => existsSync(f));
}

/** ensurePKI, on a worker thread when there is something to make. */
export function ensurePKIOffThread(opts: EnsurePKIOptions): Promise<PKI> {
  if (complete(opts)) return ensurePKI(opts);
  return new Promise<PKI>((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: opts });
    w.once('message', (m: { pki?: PKI; error?: string }) => (m.pki ? resolve(m.pki) : reject(new Error(m.error))));
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the certificate worker exited with ${code}`)));
  });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  ensurePKI(workerData as EnsurePKIOptions).then(
    (pki) => port.postMessage({ pki }),
    (e: unknown) => port.postMessage({ error: (e as Error).message }),
  );
}
