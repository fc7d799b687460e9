// kubectl's client-side apply annotation under Server-Side Apply, after apimachinery's
// lastAppliedManager (the upgrade: conflicts on fields the annotation still describes as live
// belong to the client-side applier and are taken over) and lastAppliedUpdater (the annotation
// follows what "kubectl" applies server-side, once it exists).

import type { KObject } from '../../machinery/object.js';
import type { FieldSet } from './fieldpath.js';
import { stableJson } from './fieldpath.js';
import { compare, toFieldSet, type TypeNode, type TypeResolver } from './typed.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manager whose applies take part in the upgrade; any other name opts out. */
export const KUBECTL_MANAGER = 'kubectl';

/** The fields the annotation owns as they are live; undefined when there is no usable annotation. */
export function allowedFromLastApplied(r: TypeResolver, root: TypeNode, apiVersion: string, live: KObject): FieldSet | undefined {
  const raw = live.metadata.annotations?.[LAST_APPLIED];
  if (!raw) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (last === null || typeof last !== 'object' || (last as { apiVersion?: unknown }).apiVersion !== apiVersion) return undefined;
  try {
    const set = toFieldSet(r, root, last);
    const c = compare(r, root, last, live);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

/** Sets the annotation to the applied config (without the annotation), as Go encodes an unstructured object. */
export function updateLastApplied(obj: KObject, config: Record<string, unknown>): void {
  const ann = obj.metadata.annotations;
  if (!ann || !ann[LAST_APPLIED]) return;
  const copy = structuredClone(config) as { metadata?: { annotations?: Record<string, string> } };
  if (copy.metadata?.annotations) delete copy.metadata.annotations[LAST_APPLIED];
  obj.metadata.annotations = { ...ann, [LAST_APPLIED]: `${stableJson(copy)}\n` };
}
