// Certificates for kapi's own PKI: a CA, serving certificates and client certificates, made
// with @peculiar/x509 on Node's WebCrypto (no openssl at run time).
//
// Keys are ECDSA P-256 (kubeadm's `ECDSA-P256`): generating one takes a millisecond where an
// RSA key takes tens to hundreds, and every test and every fresh data dir makes three. The
// library is loaded only when something has to be issued: a start that finds its files reads
// PEM and never loads it.

import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

type X509Lib = typeof import('@peculiar/x509');

/** The key types as the library declares them (the DOM's WebCrypto types, which Node's match). */
type KeyPair = Parameters<X509Lib['X509CertificateGenerator']['createSelfSigned']>[0]['keys'];
type PrivateKey = KeyPair['privateKey'];
type CryptoProvider = Parameters<X509Lib['cryptoProvider']['set']>[0];
type Extension = InstanceType<X509Lib['Extension']>;

let lib: Promise<X509Lib> | undefined;

/** @peculiar/x509 needs a Reflect metadata polyfill before it loads (its DI container asks for it). */
function x509(): Promise<X509Lib> {
  lib ??= (async () => {
    await import('reflect-metadata');
    const m = await import('@peculiar/x509');
    m.cryptoProvider.set(webcrypto as unknown as CryptoProvider);
    return m;
  })();
  return lib;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** A certificate and its private key, both PEM. */
export interface CertKey {
  cert: string;
  key: string;
}

export interface SubjectSpec {
  commonName: string;
  /** O= entries: a client certificate's groups. */
  organizations?: string[];
}

export interface IssueOptions extends SubjectSpec {
  /** serverAuth, clientAuth, or both. */
  usages: ('server' | 'client')[];
  /** DNS names and IP addresses for the subjectAltName (serving certificates). */
  hosts?: string[];
  notBefore?: Date;
  notAfter?: Date;
}

function subjectName(s: SubjectSpec): Record<string, string[]>[] {
  const name: Record<string, string[]>[] = [];
  for (const o of s.organizations ?? []) name.push({ O: [o] });
  if (s.commonName !== '') name.push({ CN: [s.commonName] });
  return name;
}

/** A positive 128-bit serial, as Go's crypto/x509 users pick them. */
function serial(): string {
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return b.toString('hex');
}

async function exportKey(key: PrivateKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<PrivateKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return (await webcrypto.subtle.importKey('pkcs8', der, ALG, true, ['sign'])) as unknown as PrivateKey;
}

async function newKeys(): Promise<KeyPair> {
  return (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as KeyPair;
}

/** A self-signed CA, valid ten years (kubeadm's CA lifetime). */
export async function createCA(commonName = 'kubernetes'): Promise<CertKey> {
  const m = await x509();
  const keys = await newKeys();
  const now = Date.now();
  const cert = await m.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: subjectName({ commonName }),
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 3650 * DAY_MS),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new m.BasicConstraintsExtension(true, undefined, true),
      new m.KeyUsagesExtension(m.KeyUsageFlags.digitalSignature | m.KeyUsageFlags.keyEncipherment | m.KeyUsageFlags.keyCertSign, true),
      await m.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

/**
 * A certificate signed by `ca`: a serving certificate (`usages: ['server']`, with `hosts`), a
 * client certificate (`['client']`: the user is the CN, the groups the O entries), or both.
 * Valid one year unless told otherwise.
 */
export async function issueCert(ca: CertKey, opts: IssueOptions): Promise<CertKey> {
  const m = await x509();
  const caCert = new m.X509Certificate(ca.cert);
  const caKey = await importKey(ca.key);
  const keys = await newKeys();
  const now = Date.now();
  const eku: string[] = [];
  if (opts.usages.includes('server')) eku.push(m.ExtendedKeyUsage.serverAuth);
  if (opts.usages.includes('client')) eku.push(m.ExtendedKeyUsage.clientAuth);
  const extensions: Extension[] = [
    new m.BasicConstraintsExtension(false, undefined, true),
    new m.KeyUsagesExtension(m.KeyUsageFlags.digitalSignature | m.KeyUsageFlags.keyEncipherment, true),
    new m.ExtendedKeyUsageExtension(eku, false),
    await m.AuthorityKeyIdentifierExtension.create(caCert, false),
  ];
  const hosts = opts.hosts ?? [];
  if (hosts.length > 0) {
    extensions.push(
      new m.SubjectAlternativeNameExtension(
        hosts.map((h) => (isIP(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h })),
        false,
      ),
    );
  }
  const cert = await m.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: subjectName(opts),
    issuer: caCert.subjectName,
    notBefore: opts.notBefore ?? new Date(now - 60_000),
    notAfter: opts.notAfter ?? new Date(now + 365 * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALG,
    extensions,
  });
  return { cert: cert.toString('pem') + '\n', key: await exportKey(keys.privateKey) };
}

/** Whether `cert` is valid for at least `marginMs` more and names every one of `hosts`. */
export function certCovers(certPem: string, hosts: string[], marginMs: number): boolean {
  let c: X509Certificate;
  try {
    c = new X509Certificate(certPem);
  } catch {
    return false;
  }
  if (Date.parse(c.validTo) - Date.now() < marginMs) return false;
  return hosts.every((h) => (isIP(h) ? c.checkIP(h) !== undefined : c.checkHost(h, { wildcards: false }) !== undefined));
}

/** Whether `cert` was issued by `ca` (its signature checks out with the CA's key). */
export function signedBy(certPem: string, caPem: string): boolean {
  try {
    const c = new X509Certificate(certPem);
    const ca = new X509Certificate(caPem);
    return c.checkIssued(ca) && c.verify(ca.publicKey);
  } catch {
    return false;
  }
}
