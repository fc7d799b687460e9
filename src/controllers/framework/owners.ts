// Owner references as kube's controllers use them (metav1.GetControllerOf, NewControllerRef,
// LabelSelectorAsSelector) and the adoption rules of pkg/controller's ControllerRefManager:
// an object the controller's selector matches and nobody controls is adopted, one it controls
// but no longer matches is released, one another controller owns is left alone.

import type { KObject } from '../../machinery/object.js';
import { asArr, isObj, str, type Obj } from '../../machinery/json-view.js';
import { StatusError } from '../../machinery/errors.js';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export function ownerReferences(obj: KObject): OwnerReference[] {
  return asArr(obj.metadata.ownerReferences).filter(isObj) as unknown as OwnerReference[];
}

/** The owner reference marked controller, if any (metav1.GetControllerOf). */
export function controllerOf(obj: KObject): OwnerReference | undefined {
  return ownerReferences(obj).find((r) => r.controller === true);
}

/** metav1.NewControllerRef: controller and blocking the owner's foreground deletion. */
export function newControllerRef(owner: KObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export { NOTHING, selectorFromObject, type Selector } from '../../machinery/label-selector-object.js';

/** Go's %v of a *metav1.LabelSelector, as kube's messages print one. */
export function selectorGoString(sel: unknown): string {
  if (!isObj(sel)) return 'nil';
  const ml = isObj(sel.matchLabels) ? Object.entries(sel.matchLabels as Obj).sort(([a], [b]) => (a < b ? -1 : 1)) : [];
  const exprs = asArr(sel.matchExpressions)
    .filter(isObj)
    .map((e) => `LabelSelectorRequirement{Key:${str(e.key)},Operator:${str(e.operator)},Values:[]string{${asArr(e.values).map((v) => JSON.stringify(String(v))).join(',')}},}`);
  return `&LabelSelector{MatchLabels:map[string]string{${ml.map(([k, v]) => `${k}: ${String(v)},`).join('')}},MatchExpressions:[]LabelSelectorRequirement{${exprs.join(',')}},}`;
}

export const isNotFound = (e: unknown): boolean => e instanceof StatusError && e.code === 404;
export const isConflict = (e: unknown): boolean => e instanceof StatusError && e.code === 409 && e.reason === 'Conflict';
export const isAlreadyExists = (e: unknown): boolean => e instanceof StatusError && e.reason === 'AlreadyExists';

/** How a controller adopts and releases objects of one kind. */
export interface ClaimOps {
  adopt(obj: KObject): Promise<void>;
  release(obj: KObject): Promise<void>;
  /** Before adopting anything: the owner, read fresh, must still exist and not be deleting (RecheckDeletionTimestamp). */
  canAdopt(): Promise<void>;
}

/**
 * ControllerRefManager.ClaimObjects: the objects `owner` controls after adopting orphans its
 * selector matches and releasing those it no longer matches. Errors are gathered; what could
 * be claimed is still answered with them.
 */
export async function claimObjects(owner: KObject, objs: KObject[], match: (o: KObject) => boolean, ops: ClaimOps): Promise<{ claimed: KObject[]; errors: unknown[] }> {
  const claimed: KObject[] = [];
  const errors: unknown[] = [];
  let adoptCheck: Promise<void> | undefined;
  const uid = owner.metadata.uid;
  const ownerDeleting = Boolean(owner.metadata.deletionTimestamp);
  for (const obj of objs) {
    const ref = controllerOf(obj);
    try {
      if (ref) {
        if (ref.uid !== uid) continue;
        if (match(obj)) {
          claimed.push(obj);
          continue;
        }
        if (ownerDeleting) continue;
        await ops.release(obj);
        continue;
      }
      if (ownerDeleting || !match(obj) || obj.metadata.deletionTimestamp) continue;
      if (owner.metadata.namespace && owner.metadata.namespace !== obj.metadata.namespace) continue;
      adoptCheck ??= ops.canAdopt();
      await adoptCheck;
      await ops.adopt(obj);
      claimed.push(obj);
    } catch (e) {
      if (!isNotFound(e)) errors.push(e);
    }
  }
  return { claimed, errors };
}
