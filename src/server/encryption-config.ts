// --encryption-provider-config: kube's EncryptionConfiguration (apiserver.config.k8s.io/v1),
// read and checked as kube-apiserver does (its messages), and turned into one transformer per
// resource: the resources of an entry ("pods", "statefulsets.apps", "*.apps", "*." for the
// core group, "*.*") get its providers (aescbc, aesgcm, secretbox, identity) in order; a
// resource no entry names reads and writes values as they are, refusing encrypted ones.

import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import {
  PrefixTransformers,
  aescbc,
  aesgcm,
  identity,
  secretboxTransformer,
  type PrefixTransformer,
  type Transformer,
} from '../storage/encryption/transformers.js';
import { recordTransformation, type TransformerFor } from '../storage/encryption/transforming-storage.js';

export class EncryptionConfigError extends Error {
  override name = 'EncryptionConfigError';
}

interface KeyConfig {
  name?: string;
  secret?: string;
}
type Provider = Record<string, { keys?: KeyConfig[] } | null | undefined>;
interface ResourceConfig {
  resources?: string[];
  providers?: Provider[];
}

const PROVIDERS = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'];
const AES_LENGTHS = [16, 24, 32];

/** A field error as kube's field.ErrorList prints it. */
const invalid = (path: string, value: string, detail: string): string => `${path}: Invalid value: ${value}: ${detail}`;
const required = (path: string, detail: string): string => `${path}: Required value: ${detail}`;

function validate(cfg: { resources?: ResourceConfig[] }): string[] {
  const errs: string[] = [];
  const resources = cfg.resources ?? [];
  if (resources.length === 0) errs.push(required('resources', 'at least one resources is required'));
  const seen = new Set<string>();
  resources.forEach((rc, i) => {
    const rpath = `resources[${i}]`;
    if (!rc.resources?.length) errs.push(required(`${rpath}.resources`, `at least one ${rpath}.resources is required`));
    if (!rc.providers?.length) errs.push(required(`${rpath}.providers`, `at least one ${rpath}.providers is required`));
    (rc.resources ?? []).forEach((r, j) => {
      const path = `${rpath}.resources[${j}]`;
      if (r !== r.toLowerCase()) errs.push(invalid(path, JSON.stringify(r), 'resource name should not contain capital letters'));
      if (r === '*') errs.push(invalid(path, JSON.stringify(r), "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"));
      if (r.endsWith('.events.k8s.io')) {
        errs.push(invalid(path, JSON.stringify(r), "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"));
      }
      if (r.endsWith('.extensions')) errs.push(invalid(path, JSON.stringify(r), "'extensions' group has been removed and cannot be used for encryption"));
      if (seen.has(r)) errs.push(invalid(path, JSON.stringify(r), 'the same resource cannot be specified multiple times'));
      seen.add(r);
    });
    (rc.providers ?? []).forEach((p, j) => {
      const path = `${rpath}.providers[${j}]`;
      const kinds = Object.keys(p ?? {}).filter((k) => PROVIDERS.includes(k) && p[k] !== undefined);
      if (kinds.length === 0) {
        errs.push(invalid(path, JSON.stringify(p), 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'));
        return;
      }
      if (kinds.length > 1) errs.push(invalid(path, JSON.stringify(p), 'more than one provider specified in a single element, should split into different list elements'));
      for (const kind of kinds) {
        if (kind === 'identity') continue;
        if (kind === 'kms') {
          errs.push(invalid(`${path}.kms`, '""', 'KMS providers are not supported by kapi; use aescbc, aesgcm or secretbox'));
          continue;
        }
        const keys = p[kind]?.keys ?? [];
        if (keys.length === 0) errs.push(required(`${path}.${kind}.keys`, 'at least one keys is required'));
        keys.forEach((k, n) => {
          const kpath = `${path}.${kind}.keys[${n}]`;
          if (!k.name) errs.push(required(`${kpath}.name`, 'name is a mandatory field for a key'));
          if (!k.secret) {
            errs.push(required(`${kpath}.secret`, 'secret is a mandatory field for a key'));
            return;
          }
          if (!/^[A-Za-z0-9+/]*={0,2}$/.test(k.secret) || k.secret.length % 4 !== 0) {
            errs.push(invalid(`${kpath}.secret`, '"REDACTED"', 'secrets must be base64 encoded'));
            return;
          }
          const len = Buffer.from(k.secret, 'base64').length;
          const expected = kind === 'secretbox' ? [32] : AES_LENGTHS;
          if (!expected.includes(len)) {
            errs.push(invalid(`${kpath}.secret`, '"REDACTED"', `secret is not of the expected length, got ${len}, expected one of [${expected.join(' ')}]`));
          }
        });
      }
    });
  });
  return errs;
}

/** One provider as kube builds it: its prefix over a transformer choosing among its keys. */
function providerTransformer(p: Provider): PrefixTransformer {
  if (p.identity !== undefined) return { prefix: Buffer.alloc(0), transformer: identity, label: 'identity' };
  const kind = (['aesgcm', 'aescbc', 'secretbox'] as const).find((k) => p[k] !== undefined)!;
  const make = kind === 'aescbc' ? aescbc : kind === 'aesgcm' ? aesgcm : secretboxTransformer;
  const keys: PrefixTransformer[] = (p[kind]!.keys ?? []).map((k) => ({
    prefix: Buffer.from(`${k.name}:`),
    transformer: make(Buffer.from(k.secret!, 'base64')),
    label: `${k.name}:`,
  }));
  const which = kind === 'secretbox' ? 'Secretbox' : 'AES';
  const prefix = `k8s:enc:${kind}:v1:`;
  return { prefix: Buffer.from(prefix), transformer: new PrefixTransformers(keys, `no matching key was found for the provided ${which} transformer`), label: prefix };
}

/** Parses, checks and builds an EncryptionConfiguration file. */
export async function loadEncryptionConfig(path: string): Promise<TransformerFor> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new EncryptionConfigError(`error while parsing file: error reading encryption provider configuration file ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
  if (text.length === 0) throw new EncryptionConfigError(`error while parsing file: encryption provider configuration file ${JSON.stringify(path)} is empty`);
  let doc: { apiVersion?: string; kind?: string; resources?: ResourceConfig[] };
  try {
    doc = parseYaml(text) as typeof doc;
  } catch (e) {
    throw new EncryptionConfigError(`error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
  if (doc?.kind !== 'EncryptionConfiguration' || doc.apiVersion !== 'apiserver.config.k8s.io/v1') {
    throw new EncryptionConfigError(
      `error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(path)}: no kind ${JSON.stringify(doc?.kind ?? '')} is registered for version ${JSON.stringify(doc?.apiVersion ?? '')}`,
    );
  }
  const errs = validate(doc);
  if (errs.length) throw new EncryptionConfigError(`error while parsing file: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
  // resource -> its providers; the first entry naming a resource (or a wildcard over it) wins.
  const byResource = new Map<string, PrefixTransformer[]>();
  for (const rc of doc.resources ?? []) {
    const providers = (rc.providers ?? []).map(providerTransformer);
    for (const r of rc.resources ?? []) {
      const key = r.includes('.') ? r : `${r}`;
      const [res, ...group] = key.split('.');
      const g = group.join('.');
      const anyInGroup = `*${g ? '.' + g : '.'}`;
      if (byResource.has(anyInGroup) && key !== anyInGroup) throw new EncryptionConfigError(`resource ${JSON.stringify(key)} is masked by earlier rule ${JSON.stringify(anyInGroup)}`);
      if (byResource.has('*.*')) throw new EncryptionConfigError(`resource ${JSON.stringify(key)} is masked by earlier rule "*.*"`);
      void res;
      byResource.set(key, [...(byResource.get(key) ?? []), ...providers]);
    }
  }
  const cache = new Map<string, Transformer>();
  return (resource: string) => {
    let t = cache.get(resource);
    if (t) return t;
    const dot = resource.indexOf('.');
    const group = dot < 0 ? '' : resource.slice(dot + 1);
    const providers = byResource.get(resource) ?? byResource.get(group ? `*.${group}` : '*.') ?? byResource.get('*.*');
    t = providers
      ? new PrefixTransformers(providers, 'no matching prefix found', (type, label, ok, seconds) => recordTransformation(resource, type, label, ok, seconds))
      : identity;
    cache.set(resource, t);
    return t;
  };
}

/** Without a config: every value as it is, and encrypted values refused (kube's default). */
export const noEncryption: TransformerFor = () => identity;
