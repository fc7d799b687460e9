// The service account signing key and the keys tokens are verified with (kube-apiserver's
// --service-account-signing-key-file and --service-account-key-file). Without flags, kapi
// makes an ECDSA P-256 key pair under the cert dir on its first start, in kubeadm's file names
// (`sa.key`, `sa.pub`), and reuses it afterwards: every node of a cluster that shares the cert
// dir (`kapi pki`) signs and verifies with the same key.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

export const SA_KEY_FILE = 'sa.key';
export const SA_PUB_FILE = 'sa.pub';

export interface SigningKey {
  key: KeyObject;
  /** The JWS algorithm kube picks for the key: RS256 for RSA, ES256/384/512 by the curve. */
  alg: string;
  /** kube's key id: the unpadded base64url SHA-256 of the public key's PKIX DER. */
  kid: string;
}

export interface VerifyKey {
  key: KeyObject;
  kid: string;
}

export function keyId(pub: KeyObject): string {
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
}

export function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error(`unknown private key curve ${String(curve)}, must be 256, 384, or 521`);
  }
  throw new Error(`unknown private key type ${String(key.asymmetricKeyType)}, must be RSA or ECDSA`);
}

export function signingKeyFromPEM(pem: string, source: string): SigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (e) {
    throw new Error(`failed to parse service-account-signing-key-file ${source}: ${(e as Error).message}`, { cause: e });
  }
  return { key, alg: algorithmOf(key), kid: keyId(createPublicKey(key)) };
}

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/**
 * The public keys of a PEM file, as kube's keyutil reads --service-account-key-file: public
 * keys, private keys (their public half) and certificates (their key).
 */
export function verifyKeysFromPEM(pem: string, source: string): VerifyKey[] {
  const out: VerifyKey[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const block = m[0];
    const type = m[1];
    let pub: KeyObject;
    try {
      if (type === 'CERTIFICATE') pub = new X509Certificate(block).publicKey;
      else if (type.endsWith('PRIVATE KEY')) pub = createPublicKey(createPrivateKey(block));
      else pub = createPublicKey(block);
    } catch (e) {
      throw new Error(`failed to parse key file ${source}: ${(e as Error).message}`, { cause: e });
    }
    out.push({ key: pub, kid: keyId(pub) });
  }
  if (out.length === 0) throw new Error(`data does not contain any valid RSA or ECDSA public keys: ${source}`);
  return out;
}

export interface ServiceAccountKeyOptions {
  /** --service-account-signing-key-file */
  signingKeyFile?: string;
  /** --service-account-key-file (repeatable) */
  keyFiles: string[];
  /** Where the generated pair lives when no signing key is given (the cert dir). */
  certDir: string;
}

export interface ServiceAccountKeys {
  signing: SigningKey;
  verify: VerifyKey[];
  /** Files written on this start. */
  written: string[];
}

async function writeAtomic(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data, { mode });
  await rename(tmp, path);
}

/** Reads the keys the flags name, or the generated pair (made on the first start). */
export async function loadServiceAccountKeys(o: ServiceAccountKeyOptions): Promise<ServiceAccountKeys> {
  const written: string[] = [];
  let signingPath = o.signingKeyFile;
  if (signingPath === undefined) {
    signingPath = join(o.certDir, SA_KEY_FILE);
    const pubPath = join(o.certDir, SA_PUB_FILE);
    if (!existsSync(signingPath)) {
      await mkdir(o.certDir, { recursive: true, mode: 0o755 });
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      await writeAtomic(signingPath, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 0o600);
      await writeAtomic(pubPath, pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, 0o644);
      written.push(signingPath, pubPath);
    }
  }
  const signing = signingKeyFromPEM(await readFile(signingPath, 'utf8'), signingPath);
  const verify: VerifyKey[] = [];
  for (const f of o.keyFiles) verify.push(...verifyKeysFromPEM(await readFile(f, 'utf8'), f));
  // As kube-apiserver does when --service-account-key-file is not given: verify with the signing key.
  if (o.keyFiles.length === 0) verify.push({ key: createPublicKey(signing.key), kid: signing.kid });
  return { signing, verify, written };
}
