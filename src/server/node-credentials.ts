// Credentials for simulated nodes: each node authenticates as kube's Node authorizer expects a
// kubelet to, `system:node:<name>` in `system:nodes`, with a client certificate from the
// cluster CA. Without the CA's key the nodes use the credentials they were given (the
// kubeconfig's): the seam where a bootstrap flow (CSRs) would go.

import type { Logger } from 'pino';
import type { ClientConfig } from '../client/kubeconfig.js';
import type { NodeCredentials } from '../agent/agent.js';
import { issueCert, type CertKey } from '../auth/pki/certs.js';

export const NODES_GROUP = 'system:nodes';
export const nodeUser = (name: string): string => `system:node:${name}`;

export function nodeCredentials(base: ClientConfig, ca: CertKey | undefined, log: Logger): NodeCredentials {
  if (!ca) {
    if (base.server.startsWith('https:')) log.warn('no CA key to issue node certificates: the simulated nodes use the kubeconfig\'s credentials');
    return () => Promise.resolve(base);
  }
  return async (name) => {
    const c = await issueCert(ca, { commonName: nodeUser(name), organizations: [NODES_GROUP], usages: ['client'] });
    return { ...base, clientCert: c.cert, clientKey: c.key, token: undefined };
  };
}
