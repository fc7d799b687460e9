// What a StatefulSet's pods, claims and revisions look like, after kube's
// pkg/controller/statefulset/stateful_set_utils.go and controller/history: pod names
// `<set>-<ordinal>` and their identity labels, claim names `<claim>-<set>-<ordinal>`, the
// owner references the claim retention policy calls for, and ControllerRevisions holding the
// pod template as a strategic merge patch, named with kube's FNV hash of that patch.

import type { KObject } from '../../machinery/object.js';
import { asArr, isObj, str, type Obj } from '../../machinery/json-view.js';
import { goMarshal } from '../go-json.js';
import { controllerOf, newControllerRef, ownerReferences, type OwnerReference } from '../framework/owners.js';

export const SET_API_VERSION = 'apps/v1';
export const SET_KIND = 'StatefulSet';
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const REVISION_LABEL = 'controller-revision-hash';
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export const specOf = (o: KObject): Obj => (o.spec ?? {}) as Obj;
export const statusOf = (o: KObject): Obj => (o.status ?? {}) as Obj;
const num = (v: unknown, d = 0): number => (typeof v === 'number' ? v : d);

export const replicasOf = (set: KObject): number => num(specOf(set).replicas, 1);
export const startOrdinal = (set: KObject): number => num((specOf(set).ordinals as Obj | undefined)?.start);
export const endOrdinal = (set: KObject): number => startOrdinal(set) + replicasOf(set) - 1;

const ORDINAL = /^(.*)-([0-9]+)$/;

/** The set's name and the ordinal a pod's name carries (-1 when it carries none). */
export function parentAndOrdinal(pod: KObject): { parent: string; ordinal: number } {
  const m = ORDINAL.exec(pod.metadata.name ?? '');
  if (!m) return { parent: '', ordinal: -1 };
  // strconv.ParseInt(s, 10, 32): out of range is an error, so no ordinal.
  const n = Number(m[2]);
  return { parent: m[1]!, ordinal: n <= 2147483647 ? n : -1 };
}

export const ordinalOf = (pod: KObject): number => parentAndOrdinal(pod).ordinal;

export function inOrdinalRange(pod: KObject, set: KObject): boolean {
  const o = ordinalOf(pod);
  return o >= startOrdinal(set) && o <= endOrdinal(set);
}

export const podName = (set: KObject, ordinal: number): string => `${set.metadata.name}-${ordinal}`;

export const claimName = (set: KObject, template: KObject, ordinal: number): string => `${template.metadata?.name ?? ''}-${set.metadata.name}-${ordinal}`;

export const isMemberOf = (set: KObject, pod: KObject): boolean => parentAndOrdinal(pod).parent === set.metadata.name;

export function identityMatches(set: KObject, pod: KObject): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    set.metadata.name === parent &&
    pod.metadata.name === podName(set, ordinal) &&
    pod.metadata.namespace === set.metadata.namespace &&
    pod.metadata.labels?.[POD_NAME_LABEL] === pod.metadata.name
  );
}

export const claimTemplates = (set: KObject): KObject[] => asArr(specOf(set).volumeClaimTemplates).filter(isObj) as unknown as KObject[];

export function storageMatches(set: KObject, pod: KObject): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map<string, Obj>();
  for (const v of asArr(specOf(pod).volumes).filter(isObj)) volumes.set(str(v.name), v);
  for (const t of claimTemplates(set)) {
    const v = volumes.get(t.metadata?.name ?? '');
    const pvc = v?.persistentVolumeClaim as Obj | undefined;
    if (!pvc || pvc.claimName !== claimName(set, t, ordinal)) return false;
  }
  return true;
}

export interface RetentionPolicy {
  whenDeleted: string;
  whenScaled: string;
}

export function retentionPolicy(set: KObject): RetentionPolicy {
  const p = specOf(set).persistentVolumeClaimRetentionPolicy as Obj | undefined;
  return { whenDeleted: str(p?.whenDeleted) || 'Retain', whenScaled: str(p?.whenScaled) || 'Retain' };
}

/** The claims a pod of the set needs, by template name (getPersistentVolumeClaims). */
export function claimsFor(set: KObject, pod: KObject): { template: string; claim: KObject }[] {
  const ordinal = ordinalOf(pod);
  const selectorLabels = ((specOf(set).selector as Obj | undefined)?.matchLabels ?? {}) as Record<string, string>;
  return claimTemplates(set).map((t) => {
    const claim = structuredClone(t);
    claim.metadata = { ...(claim.metadata ?? {}) };
    claim.metadata.name = claimName(set, t, ordinal);
    claim.metadata.namespace = set.metadata.namespace;
    claim.metadata.labels = claim.metadata.labels ? { ...claim.metadata.labels, ...selectorLabels } : { ...selectorLabels };
    delete claim.metadata.creationTimestamp;
    return { template: t.metadata.name ?? '', claim };
  });
}

/** updateStorage: the pod's volumes for the set's claims first, then its other volumes. */
export function updateStorage(set: KObject, pod: KObject): void {
  const claims = claimsFor(set, pod);
  const names = new Set(claims.map((c) => c.template));
  const volumes: Obj[] = claims.map((c) => ({ name: c.template, persistentVolumeClaim: { claimName: c.claim.metadata.name } }));
  for (const v of asArr(specOf(pod).volumes).filter(isObj)) if (!names.has(str(v.name))) volumes.push(v);
  (pod.spec ??= {}).volumes = volumes;
}

/** updateIdentity: name, namespace and the identity labels. */
export function updateIdentity(set: KObject, pod: KObject): void {
  const ordinal = ordinalOf(pod);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  const labels = (pod.metadata.labels = { ...(pod.metadata.labels ?? {}) });
  labels[POD_NAME_LABEL] = pod.metadata.name;
  // PodIndexLabel is GA and locked on in 1.33.
  labels[POD_INDEX_LABEL] = String(ordinal);
}

/** newStatefulSetPod: the template made a pod with its identity, hostname, subdomain and claims. */
export function newSetPod(set: KObject, ordinal: number): KObject {
  const template = (specOf(set).template ?? {}) as { metadata?: Obj; spec?: Obj };
  const tm = template.metadata ?? {};
  const pod: KObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${set.metadata.name}-`,
      name: podName(set, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...((tm.labels as Record<string, string>) ?? {}) },
      ownerReferences: [newControllerRef(set, SET_API_VERSION, SET_KIND)],
    },
    spec: structuredClone(template.spec ?? {}),
  };
  if (isObj(tm.annotations)) pod.metadata.annotations = { ...(tm.annotations as Record<string, string>) };
  if (Array.isArray(tm.finalizers) && tm.finalizers.length) pod.metadata.finalizers = [...(tm.finalizers as string[])];
  updateIdentity(set, pod);
  pod.spec!.hostname = pod.metadata.name;
  const svc = str(specOf(set).serviceName);
  if (svc) pod.spec!.subdomain = svc;
  updateStorage(set, pod);
  return pod;
}

export const podRevision = (pod: KObject): string => pod.metadata.labels?.[REVISION_LABEL] ?? '';

export function setPodRevision(pod: KObject, revision: string): void {
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [REVISION_LABEL]: revision };
}

// ---- pod states ----

const phaseOf = (pod: KObject): string => str(statusOf(pod).phase);

export function readyCondition(pod: KObject): Obj | undefined {
  return asArr(statusOf(pod).conditions)
    .filter(isObj)
    .find((c) => c.type === 'Ready');
}

export const isPodReady = (pod: KObject): boolean => readyCondition(pod)?.status === 'True';
export const isCreated = (pod: KObject): boolean => phaseOf(pod) !== '';
export const isPending = (pod: KObject): boolean => phaseOf(pod) === 'Pending';
export const isFailed = (pod: KObject): boolean => phaseOf(pod) === 'Failed';
export const isSucceeded = (pod: KObject): boolean => phaseOf(pod) === 'Succeeded';
export const isTerminating = (pod: KObject): boolean => Boolean(pod.metadata.deletionTimestamp);
export const isRunningAndReady = (pod: KObject): boolean => phaseOf(pod) === 'Running' && isPodReady(pod);
export const isHealthy = (pod: KObject): boolean => isRunningAndReady(pod) && !isTerminating(pod);

/** podutil.IsPodAvailable: ready for at least minReadySeconds. */
export function isAvailable(pod: KObject, minReadySeconds: number, now = Date.now()): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const t = Date.parse(str(readyCondition(pod)?.lastTransitionTime));
  return Number.isFinite(t) && t + minReadySeconds * 1000 < now;
}

// ---- claim ownership for the retention policy ----

const matchesRef = (ref: OwnerReference, obj: KObject, apiVersion: string, kind: string): boolean =>
  ref.apiVersion === apiVersion && ref.kind === kind && ref.name === obj.metadata.name;

const refToSet = (ref: OwnerReference, set: KObject): boolean => matchesRef(ref, set, SET_API_VERSION, SET_KIND);
const refToPod = (ref: OwnerReference, pod: KObject): boolean => matchesRef(ref, pod, 'v1', 'Pod');

export function hasOwnerRef(target: KObject, owner: KObject): boolean {
  return ownerReferences(target).some((r) => r.uid === owner.metadata.uid);
}

export function hasStaleOwnerRef(target: KObject, owner: KObject, isSet: boolean): boolean {
  for (const r of ownerReferences(target)) {
    if (isSet ? refToSet(r, owner) : refToPod(r, owner)) return r.uid !== owner.metadata.uid;
  }
  return false;
}

export function hasUnexpectedController(claim: KObject, set: KObject, pod: KObject): boolean {
  const p = retentionPolicy(set);
  if (p.whenScaled === 'Retain' && p.whenDeleted === 'Retain') return false;
  for (const r of ownerReferences(claim)) {
    if (refToSet(r, set)) {
      if (r.uid !== set.metadata.uid) return true;
      continue;
    }
    if (refToPod(r, pod)) {
      if (r.uid !== pod.metadata.uid) return true;
      continue;
    }
    if (r.controller === true) return true;
  }
  return false;
}

function hasNonControllerOwner(claim: KObject, set: KObject, pod: KObject): boolean {
  return ownerReferences(claim).some((r) => (r.uid === set.metadata.uid || r.uid === pod.metadata.uid) && r.controller !== true);
}

/** isClaimOwnerUpToDate: whether the claim's owners are what the retention policy asks for. */
export function claimOwnerUpToDate(claim: KObject, set: KObject, pod: KObject): boolean {
  if (hasStaleOwnerRef(claim, set, true) || hasStaleOwnerRef(claim, pod, false)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const p = retentionPolicy(set);
  const scaledDown = !inOrdinalRange(pod, set);
  const onSet = hasOwnerRef(claim, set);
  const onPod = hasOwnerRef(claim, pod);
  if (p.whenScaled === 'Delete' && p.whenDeleted === 'Delete') return scaledDown !== onSet && scaledDown === onPod;
  if (p.whenScaled === 'Delete') return !onSet && scaledDown === onPod;
  if (p.whenDeleted === 'Delete') return onSet && !onPod;
  return !onSet && !onPod;
}

/** updateClaimOwnerRefForSetAndPod: the claim's references to the set and the pod, as the policy says. */
export function updateClaimOwnerRefs(claim: KObject, set: KObject, pod: KObject): void {
  const unexpected = hasUnexpectedController(claim, set, pod);
  let refs = ownerReferences(claim).filter((r) => !(refToSet(r, set) || refToPod(r, pod)));
  const add = (owner: KObject, apiVersion: string, kind: string): void => {
    if (!refs.some((r) => r.uid === owner.metadata.uid)) refs = [...refs, newControllerRef(owner, apiVersion, kind)];
  };
  if (!unexpected) {
    const p = retentionPolicy(set);
    const scaledDown = !inOrdinalRange(pod, set);
    if (p.whenScaled === 'Delete') {
      if (scaledDown) add(pod, 'v1', 'Pod');
      else if (p.whenDeleted === 'Delete') add(set, SET_API_VERSION, SET_KIND);
    } else if (p.whenDeleted === 'Delete') {
      add(set, SET_API_VERSION, SET_KIND);
    }
  }
  if (refs.length) claim.metadata.ownerReferences = refs;
  else delete claim.metadata.ownerReferences;
}

// ---- revisions ----

/** getPatch: the set's pod template as a strategic merge patch that puts it back whole. */
export function templatePatch(set: KObject): string {
  const template = { ...((specOf(set).template ?? {}) as Obj), $patch: 'replace' };
  return goMarshal({ spec: { template } });
}

const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString. */
function safeEncode(s: string): string {
  let out = '';
  for (const ch of s) out += SAFE_ALPHANUMS[ch.codePointAt(0)! % SAFE_ALPHANUMS.length];
  return out;
}

/** FNV-1 (32 bit), as hash/fnv.New32. */
function fnv1_32(data: Buffer): number {
  let h = 0x811c9dc5;
  for (const b of data) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h >>> 0;
}

/** history.HashControllerRevision of a revision holding `raw`, with the collision count as probe. */
export function hashRevision(raw: string, collisionCount: number | undefined): string {
  const parts = [Buffer.from(raw, 'utf8')];
  if (collisionCount !== undefined) parts.push(Buffer.from(String(collisionCount)));
  return safeEncode(String(fnv1_32(Buffer.concat(parts))));
}

export function revisionName(setName: string, hash: string): string {
  return `${setName.length > 223 ? setName.slice(0, 223) : setName}-${hash}`;
}

/** The revision's data in the form its hash was computed over. */
export const revisionData = (rev: KObject): string => goMarshal(rev.data ?? null);

export const revisionNumber = (rev: KObject): number => num(rev.revision);

/** newRevision: the ControllerRevision the set's current template makes. */
export function newRevision(set: KObject, revision: number, collisionCount: number): KObject {
  const raw = templatePatch(set);
  const hash = hashRevision(raw, collisionCount);
  const tmplLabels = ((specOf(set).template as Obj | undefined)?.metadata as Obj | undefined)?.labels as Record<string, string> | undefined;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(set.metadata.name!, hash),
      namespace: set.metadata.namespace,
      labels: { ...(tmplLabels ?? {}), [REVISION_HASH_LABEL]: hash },
      annotations: { ...(set.metadata.annotations ?? {}) },
      ownerReferences: [newControllerRef(set, SET_API_VERSION, SET_KIND)],
    },
    data: JSON.parse(raw) as unknown,
    revision,
  };
}

/** history.EqualRevision: the same data (hash labels, when both parse as numbers, must agree). */
export function equalRevision(a: KObject, b: KObject): boolean {
  const ha = a.metadata.labels?.[REVISION_HASH_LABEL];
  const hb = b.metadata.labels?.[REVISION_HASH_LABEL];
  const na = ha !== undefined && /^-?[0-9]+$/.test(ha) ? Number(ha) : undefined;
  const nb = hb !== undefined && /^-?[0-9]+$/.test(hb) ? Number(hb) : undefined;
  if (na !== undefined && nb !== undefined && na !== nb) return false;
  return revisionData(a) === revisionData(b);
}

/** SortControllerRevisions: by revision, then creation time, then name. */
export function sortRevisions(revs: KObject[]): KObject[] {
  return revs.sort((a, b) => {
    const d = revisionNumber(a) - revisionNumber(b);
    if (d !== 0) return d;
    const ta = str(a.metadata.creationTimestamp);
    const tb = str(b.metadata.creationTimestamp);
    if (ta !== tb) return ta < tb ? -1 : 1;
    const na = a.metadata.name ?? '';
    const nb = b.metadata.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/** ApplyRevision: the set with the revision's template (the patch replaces the template whole). */
export function applyRevision(set: KObject, rev: KObject): KObject {
  const out = structuredClone(set) as KObject;
  const tmpl = ((rev.data as Obj | undefined)?.spec as Obj | undefined)?.template as Obj | undefined;
  if (tmpl) {
    const { $patch: _p, ...rest } = tmpl;
    void _p;
    out.spec = { ...(out.spec ?? {}), template: structuredClone(rest) };
  }
  return out;
}

/** The revisions the set controls or nobody does (ListControllerRevisions). */
export function ownedOrOrphan(rev: KObject, set: KObject): boolean {
  const ref = controllerOf(rev);
  return !ref || ref.uid === set.metadata.uid;
}
