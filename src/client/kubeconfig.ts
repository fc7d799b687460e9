// Reading a kubeconfig as client-go's clientcmd does for the parts kapi's own clients use: the
// current context's cluster (server, CA) and user (client certificate and key, or a bearer
// token), inline (`*-data`, base64) or as files relative to the kubeconfig's folder.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { asArr, asObj, str, type Obj } from '../machinery/json-view.js';

export interface ClientConfig {
  /** The server's URL (https://host:port, or http:// for a plain-HTTP server). */
  server: string;
  /** PEM bundle trusted for the server's certificate. */
  caCert?: string;
  insecureSkipTLSVerify?: boolean;
  /** The user's client certificate and key (PEM). */
  clientCert?: string;
  clientKey?: string;
  token?: string;
}

function named(list: unknown, name: string, what: string, file: string): Obj {
  const hit = asArr(list).map(asObj).find((e) => e && str(e.name) === name);
  if (!hit) throw new Error(`${file}: ${what} ${JSON.stringify(name)} not found`);
  return hit;
}

export function readKubeconfig(path: string, context?: string): ClientConfig {
  const doc = asObj(parse(readFileSync(path, 'utf8'))) ?? {};
  const base = dirname(path);
  const file = (p: string): string => readFileSync(isAbsolute(p) ? p : join(base, p), 'utf8');
  const inline = (o: Obj, key: string): string | undefined => {
    const data = str(o[`${key}-data`]);
    if (data) return Buffer.from(data, 'base64').toString('utf8');
    const p = str(o[key]);
    return p ? file(p) : undefined;
  };
  const ctxName = context ?? str(doc['current-context']);
  if (!ctxName) throw new Error(`${path}: no current-context`);
  const ctx = asObj(named(doc.contexts, ctxName, 'context', path).context) ?? {};
  const cluster = asObj(named(doc.clusters, str(ctx.cluster), 'cluster', path).cluster) ?? {};
  const user = str(ctx.user) ? (asObj(named(doc.users, str(ctx.user), 'user', path).user) ?? {}) : {};
  const server = str(cluster.server);
  if (!server) throw new Error(`${path}: cluster ${JSON.stringify(str(ctx.cluster))} has no server`);
  const tokenFile = str(user.tokenFile);
  return {
    server: server.replace(/\/+$/, ''),
    caCert: inline(cluster, 'certificate-authority'),
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    clientCert: inline(user, 'client-certificate'),
    clientKey: inline(user, 'client-key'),
    token: str(user.token) || (tokenFile ? file(tokenFile).trim() : undefined),
  };
}
