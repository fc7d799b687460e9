// Server-owned metadata: names from generateName, uids, timestamps, and the small
// helpers the store uses to compare objects.

import { randomBytes, randomUUID } from 'node:crypto';
import type { KObject } from '../types.js';

// kube's name generator alphabet: no vowels (no accidental words) and no look-alikes.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
const RANDOM_LENGTH = 5;
const MAX_NAME_LENGTH = 63;
const MAX_GENERATED_PREFIX = MAX_NAME_LENGTH - RANDOM_LENGTH;

export function generateName(base: string): string {
  const prefix = base.length > MAX_GENERATED_PREFIX ? base.slice(0, MAX_GENERATED_PREFIX) : base;
  const bytes = randomBytes(RANDOM_LENGTH);
  let s = '';
  for (const b of bytes) s += ALPHANUMS[b % ALPHANUMS.length];
  return prefix + s;
}

export const newUID = (): string => randomUUID();

/** RFC 3339 with second precision, as metav1.Time serializes. */
export const nowTimestamp = (d: Date = new Date()): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Structural equality of decoded JSON values, independent of key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

export const clone = <T>(v: T): T => structuredClone(v);

export function hasPendingFinalizers(obj: KObject): boolean {
  return (obj.metadata.finalizers?.length ?? 0) > 0;
}
