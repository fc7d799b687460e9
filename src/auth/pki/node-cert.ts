// Client certificates for node agents: the user `system:node:<name>` in the group
// `system:nodes` (what kube's Node authorizer and NodeRestriction recognise), signed by the
// cluster CA under --cert-dir and written beside it as `nodes/<name>.crt` and `.key` (0600).

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueCert, type CertKey } from './certs.js';
import { pkiPaths } from './files.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

export interface NodeCert extends CertKey {
  certPath: string;
  keyPath: string;
}

async function writePrivate(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data, { mode });
  await rename(tmp, path);
}

/** Issues (and writes) the certificate of node `name` from the CA in `certDir`. */
export async function issueNodeCert(certDir: string, name: string): Promise<NodeCert> {
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || name.length > 253) {
    throw new Error(`invalid node name ${JSON.stringify(name)}: must be a DNS subdomain`);
  }
  const paths = pkiPaths(certDir);
  const ca = { cert: await readFile(paths.caCert, 'utf8'), key: await readFile(paths.caKey, 'utf8') };
  const pair = await issueCert(ca, { commonName: `${NODE_USER_PREFIX}${name}`, organizations: [NODES_GROUP], usages: ['client'] });
  const dir = join(certDir, 'nodes');
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  await writePrivate(certPath, pair.cert, 0o644);
  await writePrivate(keyPath, pair.key, 0o600);
  return { ...pair, certPath, keyPath };
}
