// The admin kubeconfig written at start, so kubectl works with no other set-up: the server's
// URL, the CA that signed its serving certificate, and the admin's client certificate, all
// inline (the file can be copied elsewhere and still works).

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface KubeconfigSpec {
  server: string;
  /** PEM bundle the client trusts for the server's certificate. */
  caCert?: string;
  /** The user's credential: a client certificate and key (PEM), or a bearer token. */
  clientCert?: string;
  clientKey?: string;
  token?: string;
  /** Names of the cluster, user and context (default "kapi", "admin", "kapi"). */
  cluster?: string;
  user?: string;
  context?: string;
  namespace?: string;
}

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

export function kubeconfigText(spec: KubeconfigSpec): string {
  const cluster = spec.cluster ?? 'kapi';
  const user = spec.user ?? 'admin';
  const context = spec.context ?? 'kapi';
  const userLines: string[] = [];
  if (spec.clientCert && spec.clientKey) {
    userLines.push(`    client-certificate-data: ${b64(spec.clientCert)}`, `    client-key-data: ${b64(spec.clientKey)}`);
  }
  if (spec.token) userLines.push(`    token: ${JSON.stringify(spec.token)}`);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    ...(spec.caCert ? [`    certificate-authority-data: ${b64(spec.caCert)}`] : []),
    `    server: ${spec.server}`,
    `  name: ${cluster}`,
    'contexts:',
    '- context:',
    `    cluster: ${cluster}`,
    `    user: ${user}`,
    `    namespace: ${spec.namespace ?? 'default'}`,
    `  name: ${context}`,
    `current-context: ${context}`,
    'preferences: {}',
    'users:',
    `- name: ${user}`,
    ...(userLines.length > 0 ? ['  user:', ...userLines] : ['  user: {}']),
    '',
  ].join('\n');
}

/** Writes a kubeconfig (0600: it holds a private key) through a rename. */
export async function writeKubeconfig(path: string, spec: KubeconfigSpec): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, kubeconfigText(spec), { mode: 0o600 });
  await rename(tmp, path);
  return path;
}

export async function writeAdminKubeconfig(dataDir: string, spec: KubeconfigSpec): Promise<string> {
  return writeKubeconfig(join(dataDir, 'admin.kubeconfig'), spec);
}
