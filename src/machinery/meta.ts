// Server-owned metadata: names from generateName, uids, timestamps, and the small
// helpers the store uses to compare objects.

import { randomBytes, randomUUID } from 'node:crypto';
import type { KObject } from './object.js';
import { copyExactIntsDeep } from './raw-json.js';

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

const formatSeconds = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

let stampSecond = NaN;
let stamp = '';

/**
 * RFC 3339 with second precision, as metav1.Time serializes: `d`, or now. Every write stamps
 * the time (creationTimestamp, managedFields), so the current second is formatted once.
 */
export function nowTimestamp(d?: Date): string {
  if (d) return formatSeconds(d);
  const sec = Math.floor(Date.now() / 1000);
  if (sec !== stampSecond) {
    stamp = formatSeconds(new Date(sec * 1000));
    stampSecond = sec;
  }
  return stamp;
}

/** A deep copy; integers beyond 2^53 keep their exact values (raw-json.ts). */
export const clone = <T>(v: T): T => {
  const c = structuredClone(v);
  copyExactIntsDeep(v, c);
  return c;
};

export function hasPendingFinalizers(obj: KObject): boolean {
  return (obj.metadata.finalizers?.length ?? 0) > 0;
}

/** ObjectMeta's fields in Go's order, which is the order kube writes them in. */
export const OBJECT_META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

/**
 * An embedded ObjectMeta (a pod template's, a claim template's) as kube writes it: Go's
 * metav1.Time has no omitempty effect, so an unset creationTimestamp reads back as null, in
 * its place among the fields.
 */
export function withNullCreationTimestamp(meta: Record<string, unknown>): Record<string, unknown> {
  if ('creationTimestamp' in meta) return meta;
  const out: Record<string, unknown> = {};
  for (const k of OBJECT_META_FIELDS) {
    if (k === 'creationTimestamp') out[k] = null;
    else if (meta[k] !== undefined) out[k] = meta[k];
  }
  // Fields kube does not know were dropped by the decoder; anything else keeps its value.
  for (const k of Object.keys(meta)) if (!(k in out)) out[k] = meta[k];
  return out;
}
