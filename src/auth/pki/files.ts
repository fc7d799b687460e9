// The PKI on disk, in kubeadm's file names: `<cert-dir>/ca.crt`, `ca.key`, `apiserver.crt`,
// `apiserver.key` (the serving certificate), and `admin.crt`, `admin.key` (the client
// certificate of `kubernetes-admin` in `system:masters`, which admin.kubeconfig carries).
//
// `ensurePKI` makes whatever is missing and keeps whatever is still good, so the first start
// creates everything and later starts reuse it. A serving certificate that no longer names
// every wanted host (a new --bind-address or --tls-san), expires within 30 days, or was not
// issued by the CA on disk is issued again; so is such an admin certificate. The CA is never
// replaced: clients trust it. Several nodes of a cluster can share one cert dir made ahead
// of time (`kapi pki`): each then finds everything in place and writes nothing.

import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isIP } from 'node:net';
import { certCovers, createCA, issueCert, signedBy, type CertKey } from './certs.js';

export const ADMIN_USER = 'kubernetes-admin';
export const ADMIN_GROUP = 'system:masters';

const RENEW_MARGIN_MS = 30 * 86_400_000;

export interface PKIPaths {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
}

export function pkiPaths(certDir: string): PKIPaths {
  return {
    dir: certDir,
    caCert: join(certDir, 'ca.crt'),
    caKey: join(certDir, 'ca.key'),
    servingCert: join(certDir, 'apiserver.crt'),
    servingKey: join(certDir, 'apiserver.key'),
    adminCert: join(certDir, 'admin.crt'),
    adminKey: join(certDir, 'admin.key'),
  };
}

/** The names every serving certificate carries: the in-cluster service names and loopback. */
export const DEFAULT_SERVING_HOSTS = [
  'localhost',
  '127.0.0.1',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];

/**
 * The hosts a serving certificate must name: the bind address (unless it is the unspecified
 * address, which no client dials), kube's defaults, and the `--tls-san` extras.
 */
export function servingHosts(bindAddress: string, extra: string[] = []): string[] {
  const out: string[] = [];
  const unspecified = bindAddress === '0.0.0.0' || bindAddress === '::' || bindAddress === '';
  if (!unspecified) out.push(isIP(bindAddress) === 6 ? bindAddress.replace(/^\[|\]$/g, '') : bindAddress);
  out.push(...DEFAULT_SERVING_HOSTS, ...extra);
  return [...new Set(out.filter(Boolean))];
}

export interface PKI {
  paths: PKIPaths;
  /** The CA certificate (PEM), trusted for client certificates and put in kubeconfigs. */
  caCert: string;
  /** The CA key, when this cert dir has it (it can then issue client certificates). */
  caKey?: string;
  serving: CertKey;
  admin?: CertKey;
  /** Files written by this call (empty when everything was reused). */
  written: string[];
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
async function writeAtomic(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data, { mode });
  await chmod(tmp, mode);
  await rename(tmp, path);
}

async function writePair(certPath: string, keyPath: string, pair: CertKey, written: string[]): Promise<void> {
  // The key first: a reader that finds the new certificate finds its key.
  await writeAtomic(keyPath, pair.key, 0o600);
  await writeAtomic(certPath, pair.cert, 0o644);
  written.push(certPath, keyPath);
}

export interface EnsurePKIOptions {
  certDir: string;
  /** Names and addresses the serving certificate must carry (see `servingHosts`). */
  hosts: string[];
  /** Skip the serving certificate (one is brought with --tls-cert-file). */
  noServing?: boolean;
}

/** What the PKI must hold for a server's flags: its cert dir, the names it serves, whether it brings its own serving certificate. */
export function pkiOptions(
  bindAddress: string,
  t: { certDir: string; sans: string[]; certFile?: string; keyFile?: string },
): EnsurePKIOptions {
  return { certDir: t.certDir, hosts: servingHosts(bindAddress, t.sans), noServing: t.certFile !== undefined && t.keyFile !== undefined };
}

export async function ensurePKI(opts: EnsurePKIOptions): Promise<PKI> {
  const paths = pkiPaths(opts.certDir);
  await mkdir(paths.dir, { recursive: true, mode: 0o755 });
  const written: string[] = [];
  let caCert = await readIfExists(paths.caCert);
  let caKey = await readIfExists(paths.caKey);
  if (caCert === undefined) {
    if (caKey !== undefined) throw new Error(`${paths.caKey} exists without ${paths.caCert}`);
    const ca = await createCA();
    await writePair(paths.caCert, paths.caKey, ca, written);
    caCert = ca.cert;
    caKey = ca.key;
  }
  const ca = caKey === undefined ? undefined : { cert: caCert, key: caKey };
  const need = (what: string): CertKey => {
    if (!ca) throw new Error(`${what} must be issued but ${paths.caKey} is missing`);
    return ca;
  };

  const current = async (certPath: string, keyPath: string, good: (cert: string) => boolean): Promise<CertKey | undefined> => {
    const cert = await readIfExists(certPath);
    const key = await readIfExists(keyPath);
    return cert !== undefined && key !== undefined && good(cert) ? { cert, key } : undefined;
  };

  let serving: CertKey | undefined;
  if (!opts.noServing) {
    serving = await current(paths.servingCert, paths.servingKey, (c) => signedBy(c, caCert) && certCovers(c, opts.hosts, RENEW_MARGIN_MS));
    if (!serving) {
      serving = await issueCert(need('the serving certificate'), { commonName: 'kube-apiserver', usages: ['server'], hosts: opts.hosts });
      await writePair(paths.servingCert, paths.servingKey, serving, written);
    }
  }
  let admin = await current(paths.adminCert, paths.adminKey, (c) => signedBy(c, caCert) && certCovers(c, [], RENEW_MARGIN_MS));
  if (!admin && ca) {
    admin = await issueCert(ca, { commonName: ADMIN_USER, organizations: [ADMIN_GROUP], usages: ['client'] });
    await writePair(paths.adminCert, paths.adminKey, admin, written);
  }
  return { paths, caCert, caKey, serving: serving ?? { cert: '', key: '' }, admin, written };
}
