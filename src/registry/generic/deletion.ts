// How DELETE's options turn into the garbage collector's finalizers, after
// k8s.io/apiserver registry/generic/registry/store.go (shouldOrphanDependents,
// shouldDeleteDependents, deletionFinalizersForGarbageCollection) and the namespace
// registry's own variant. The collector that acts on the finalizers is not part of this.

import type { KObject } from '../../machinery/object.js';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/**
 * A type's default when DELETE names no policy (rest.GarbageCollectionDeleteStrategy).
 * None of kapi's types orphans by default in their served versions (apps/v1 StatefulSets
 * delete dependents in the background; the rest do not say), so unset means background.
 */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

export interface PropagationOptions {
  propagationPolicy?: PropagationPolicy;
  /** Deprecated alias: true is Orphan, false is "delete dependents" (Background in the generic store). */
  orphanDependents?: boolean;
}

function shouldOrphan(finalizers: string[], opts: PropagationOptions, policy?: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Orphan';
  // A finalizer already on the object outranks the type's default.
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN) return true;
    if (f === FINALIZER_FOREGROUND) return false;
  }
  return policy === 'OrphanDependents';
}

function shouldDeleteInForeground(finalizers: string[], opts: PropagationOptions, policy?: GarbageCollectionPolicy): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === FINALIZER_FOREGROUND) return true;
    if (f === FINALIZER_ORPHAN) return false;
  }
  return false;
}

/**
 * The object's finalizers after a DELETE with `opts`: both GC finalizers are dropped and
 * added back as the options, the existing finalizers and the type's default say.
 * Undefined when nothing changes.
 */
export function gcFinalizersOnDelete(obj: KObject, opts: PropagationOptions, policy?: GarbageCollectionPolicy): string[] | undefined {
  const current = obj.metadata.finalizers ?? [];
  const next = current.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (shouldOrphan(current, opts, policy)) next.push(FINALIZER_ORPHAN);
  if (shouldDeleteInForeground(current, opts, policy)) next.push(FINALIZER_FOREGROUND);
  const a = new Set(current);
  const b = new Set(next);
  if (a.size === b.size && [...a].every((f) => b.has(f))) return undefined;
  return next;
}

/**
 * The namespace registry's rule on the first DELETE: an option sets or clears each GC
 * finalizer (orphanDependents=false asks for foreground here), no option keeps what is there.
 */
export function namespaceFinalizersOnDelete(obj: KObject, opts: PropagationOptions): string[] | undefined {
  const current = obj.metadata.finalizers ?? [];
  const has = (f: string) => current.includes(f);
  let orphan = has(FINALIZER_ORPHAN);
  let foreground = has(FINALIZER_FOREGROUND);
  if (opts.orphanDependents !== undefined) {
    orphan = opts.orphanDependents;
    foreground = !opts.orphanDependents;
  } else if (opts.propagationPolicy) {
    orphan = opts.propagationPolicy === 'Orphan';
    foreground = opts.propagationPolicy === 'Foreground';
  }
  if (orphan === has(FINALIZER_ORPHAN) && foreground === has(FINALIZER_FOREGROUND)) return undefined;
  const next = current.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  return next;
}

export function setFinalizers(obj: KObject, finalizers: string[]): void {
  if (finalizers.length) obj.metadata.finalizers = finalizers;
  else delete obj.metadata.finalizers;
}
