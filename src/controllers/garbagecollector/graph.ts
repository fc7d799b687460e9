// The garbage collector's dependency graph, after kube's pkg/controller/garbagecollector
// (graph.go, graph_builder.go): one node per object uid with the owner references it holds and
// the nodes that name it as owner. Owners named but never seen are "virtual" nodes until the
// API says whether they exist. The builder turns informer events into graph changes and tells
// the collector what to look at: dependents whose owner went away, owners whose foreground
// deletion may be finished, objects that start being deleted with the orphan or foreground
// finalizer.

import type { OwnerReference } from '../framework/owners.js';

export interface Identity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** The dependent's namespace for a virtual node; the object's own for an observed one. */
  namespace: string;
}

export const identityKey = (i: Identity): string => `${i.apiVersion}\x00${i.kind}\x00${i.namespace}\x00${i.name}\x00${i.uid}`;

export const identityString = (i: Identity): string => `[${i.apiVersion}/${i.kind}, namespace: ${i.namespace}, name: ${i.name}, uid: ${i.uid}]`;

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[] = [];
  beingDeleted = false;
  deletingDependents = false;
  /** Not seen through an informer (yet): made up from a dependent's owner reference. */
  virtual: boolean;

  constructor(
    public identity: Identity,
    virtual: boolean,
  ) {
    this.virtual = virtual;
  }

  get observed(): boolean {
    return !this.virtual;
  }

  /** A copy with the same dependents (kube replaces a virtual node's identity by cloning it). */
  clone(): GraphNode {
    const n = new GraphNode({ ...this.identity }, this.virtual);
    for (const d of this.dependents) n.dependents.add(d);
    n.owners = this.owners;
    n.beingDeleted = this.beingDeleted;
    n.deletingDependents = this.deletingDependents;
    return n;
  }

  /** Dependents whose reference to this node blocks its foreground deletion. */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const d of this.dependents) {
      if (d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true)) out.push(d);
    }
    return out;
  }
}

/** The coordinates of a reference (ownerReferenceCoordinates) match an identity's. */
export function refMatches(ref: OwnerReference, id: Identity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

/** referencesDiffs: owners added, removed and changed (same uid, other fields) between two lists. */
export function referencesDiffs(
  before: OwnerReference[],
  after: OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: { oldRef: OwnerReference; newRef: OwnerReference }[] } {
  const old = new Map(before.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { oldRef: OwnerReference; newRef: OwnerReference }[] = [];
  for (const r of after) {
    const o = old.get(r.uid);
    if (!o) {
      added.push(r);
      continue;
    }
    old.delete(r.uid);
    if (JSON.stringify(canonicalRef(o)) !== JSON.stringify(canonicalRef(r))) changed.push({ oldRef: o, newRef: r });
  }
  return { added, removed: [...old.values()], changed };
}

const canonicalRef = (r: OwnerReference): unknown[] => [r.apiVersion, r.kind, r.name, r.uid, r.controller ?? null, r.blockOwnerDeletion ?? null];

/**
 * partitionDependents: dependents whose reference to `owner`'s uid matches its coordinates
 * (and, for a namespaced owner, live in its namespace), and those with a reference to that
 * uid that does not.
 */
export function partitionDependents(dependents: Iterable<GraphNode>, owner: Identity): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  const namespaced = owner.namespace !== '';
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (namespaced && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const r of dep.owners) {
        if (r.uid !== owner.uid) continue;
        if (r.name === owner.name && r.kind === owner.kind && r.apiVersion === owner.apiVersion) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

function identityLess(a: Identity, b: Identity): boolean {
  for (const k of ['kind', 'apiVersion', 'namespace', 'name', 'uid'] as const) if (a[k] !== b[k]) return a[k] < b[k];
  return false;
}

/**
 * getAlternateOwnerIdentity: after a virtual owner was found absent under one identity, the
 * next other identity dependents name that uid by (so each is checked in turn).
 */
export function alternateOwnerIdentity(deps: GraphNode[], absent: Identity): Identity | undefined {
  const clusterScoped = absent.namespace === '';
  const seen = new Set([identityKey(absent)]);
  let first: Identity | undefined;
  let firstFollowing: Identity | undefined;
  for (const dep of deps) {
    for (const r of dep.owners) {
      if (r.uid !== absent.uid) continue;
      if (r.name === absent.name && r.kind === absent.kind && r.apiVersion === absent.apiVersion && (clusterScoped || absent.namespace === dep.identity.namespace)) continue;
      const ref: Identity = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid, namespace: dep.identity.namespace };
      if (clusterScoped && ref.apiVersion === absent.apiVersion && ref.kind === absent.kind) ref.namespace = '';
      const k = identityKey(ref);
      if (seen.has(k)) continue;
      seen.add(k);
      if (!first || identityLess(ref, first)) first = ref;
      if (identityLess(absent, ref) && (!firstFollowing || identityLess(ref, firstFollowing))) firstFollowing = ref;
    }
  }
  return firstFollowing ?? first;
}
