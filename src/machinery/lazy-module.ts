// Packages that only some requests need (YAML, protobuf) are loaded on first use, not at
// start-up: they are CommonJS, so a synchronous require keeps the call sites synchronous.

import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

export function lazyModule<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= requireModule(id) as T);
}

export const yamlModule = lazyModule<typeof import('yaml')>('yaml');
export const protobufModule = lazyModule<typeof import('protobufjs')>('protobufjs');
