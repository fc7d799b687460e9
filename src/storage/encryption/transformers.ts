// Value transformers for encryption at rest, after k8s.io/apiserver's storage/value: each
// writes kube's stored form, so a kapi store and a kube-apiserver's etcd hold the same bytes
// for the same keys and config.
//
//   identity   the value as is; reading a value that starts with `k8s:enc:` fails
//   aescbc     `k8s:enc:aescbc:v1:<key>:` + IV (16) + AES-CBC of the PKCS#7-padded value
//   aesgcm     `k8s:enc:aesgcm:v1:<key>:` + nonce (12) + AES-GCM sealed, the storage key as
//              authenticated data (a value copied under another key does not open)
//   secretbox  `k8s:enc:secretbox:v1:<key>:` + nonce (24) + NaCl secretbox (XSalsa20-Poly1305)
//
// A provider holds several keys: the first writes, a value names the key that wrote it.
// A resource's providers are tried in order on read; the first provider writes.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretbox } from '@noble/ciphers/salsa.js';

export interface Transformer {
  /** `key` is the storage key (aesgcm's authenticated data). */
  toStorage(value: Buffer, key: string): Buffer;
  /** Throws with kube's message when the value cannot be read. */
  fromStorage(value: Buffer, key: string): Buffer;
  /** Whether a value reads with other than the first provider or key (set by fromStorage). */
  readonly lastStale?: boolean;
}

export class TransformError extends Error {}

const ENCRYPTED = Buffer.from('k8s:enc:');

/** kube's identity transformer (NewEncryptCheckTransformer). */
export const identity: Transformer = {
  toStorage: (v) => v,
  fromStorage(v) {
    if (v.length >= ENCRYPTED.length && v.subarray(0, ENCRYPTED.length).equals(ENCRYPTED)) {
      throw new TransformError('identity transformer tried to read encrypted data');
    }
    return v;
  },
};

const aesAlgorithm = (mode: 'cbc' | 'gcm', key: Buffer): string => `aes-${key.length * 8}-${mode}`;

export function aescbc(key: Buffer): Transformer {
  const alg = aesAlgorithm('cbc', key);
  return {
    toStorage(v) {
      const iv = randomBytes(16);
      const c = createCipheriv(alg, key, iv);
      return Buffer.concat([iv, c.update(v), c.final()]);
    },
    fromStorage(data) {
      if (data.length < 16) throw new TransformError('the stored data was shorter than the required size');
      const iv = data.subarray(0, 16);
      const body = data.subarray(16);
      if (body.length % 16 !== 0) throw new TransformError('the stored data is not a multiple of the block size');
      // The padding is checked here, as kube checks it, for kube's messages.
      const d = createDecipheriv(alg, key, iv);
      d.setAutoPadding(false);
      const out = Buffer.concat([d.update(body), d.final()]);
      const pad = out.length > 0 ? out[out.length - 1] : 0;
      if (pad === 0 || pad > out.length) throw new TransformError('invalid PKCS7 data (empty or not padded)');
      for (let i = out.length - pad; i < out.length; i++) if (out[i] !== pad) throw new TransformError('invalid padding on input');
      return out.subarray(0, out.length - pad);
    },
  };
}

export function aesgcm(key: Buffer): Transformer {
  const alg = aesAlgorithm('gcm', key);
  return {
    toStorage(v, storageKey) {
      const nonce = randomBytes(12);
      const c = createCipheriv(alg, key, nonce) as ReturnType<typeof createCipheriv> & { setAAD(b: Buffer): void; getAuthTag(): Buffer };
      c.setAAD(Buffer.from(storageKey));
      const ct = Buffer.concat([c.update(v), c.final()]);
      return Buffer.concat([nonce, ct, c.getAuthTag()]);
    },
    fromStorage(data, storageKey) {
      if (data.length < 12) throw new TransformError('the stored data was shorter than the required size');
      if (data.length < 12 + 16) throw new TransformError('cipher: message authentication failed');
      const d = createDecipheriv(alg, key, data.subarray(0, 12)) as ReturnType<typeof createDecipheriv> & { setAAD(b: Buffer): void; setAuthTag(b: Buffer): void };
      d.setAAD(Buffer.from(storageKey));
      d.setAuthTag(data.subarray(data.length - 16));
      try {
        return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]);
      } catch {
        throw new TransformError('cipher: message authentication failed');
      }
    },
  };
}

export function secretboxTransformer(key: Buffer): Transformer {
  return {
    toStorage(v) {
      const nonce = randomBytes(24);
      return Buffer.concat([nonce, Buffer.from(secretbox(key, nonce).seal(v))]);
    },
    fromStorage(data) {
      if (data.length < 16 + 24) throw new TransformError('the stored data was shorter than the required size');
      try {
        return Buffer.from(secretbox(key, data.subarray(0, 24)).open(data.subarray(24)));
      } catch {
        throw new TransformError('output array was not large enough for encryption');
      }
    },
  };
}

export interface PrefixTransformer {
  prefix: Buffer;
  transformer: Transformer;
  /** The metric label: the prefix, or "identity". */
  label: string;
}

/** Go's utilerrors aggregate text. */
const aggregate = (errs: string[]): string => (errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);

/**
 * kube's prefixTransformers: the first transformer whose prefix starts the value reads it
 * (its prefix stripped); one that fails lets the next matching one try; the first writes.
 * `noMatch` is the error when no prefix matches.
 */
export class PrefixTransformers implements Transformer {
  lastStale = false;

  constructor(
    readonly transformers: PrefixTransformer[],
    private readonly noMatch: string,
    /** Told of each read and write (kube's apiserver_storage_transformation_* metrics). */
    private readonly observe?: (type: 'from_storage' | 'to_storage', label: string, ok: boolean, seconds: number) => void,
  ) {}

  toStorage(value: Buffer, key: string): Buffer {
    const t0 = performance.now();
    const first = this.transformers[0];
    const out = first.transformer.toStorage(value, key);
    this.observe?.('to_storage', first.label, true, (performance.now() - t0) / 1e3);
    return first.prefix.length ? Buffer.concat([first.prefix, out]) : out;
  }

  fromStorage(value: Buffer, key: string): Buffer {
    const t0 = performance.now();
    const errs: string[] = [];
    for (let i = 0; i < this.transformers.length; i++) {
      const t = this.transformers[i];
      if (value.length < t.prefix.length || !value.subarray(0, t.prefix.length).equals(t.prefix)) continue;
      try {
        const out = t.transformer.fromStorage(value.subarray(t.prefix.length), key);
        this.observe?.('from_storage', t.label, true, (performance.now() - t0) / 1e3);
        this.lastStale = i !== 0 || t.transformer.lastStale === true;
        return out;
      } catch (e) {
        // An identity that meets encrypted data lets the next provider try, uncounted.
        if (t.prefix.length === 0) continue;
        this.observe?.('from_storage', t.label, false, 0);
        errs.push((e as Error).message);
      }
    }
    if (errs.length) throw new TransformError(aggregate(errs));
    this.observe?.('from_storage', 'unknown', false, 0);
    throw new TransformError(this.noMatch);
  }
}
