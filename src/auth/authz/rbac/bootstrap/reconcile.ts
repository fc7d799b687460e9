// The RBAC bootstrap policy, reconciled at every start as kube-apiserver's post-start hook does
// (component-helpers' reconciliation, in its "union" mode): a missing role or binding is
// created; an existing one keeps what users added and gains what the policy has that it lacks
// (labels and annotations merged under the user's, missing rules appended, missing
// aggregation selectors and subjects added); a binding whose role reference differs is
// deleted and made again. An object annotated `rbac.authorization.kubernetes.io/autoupdate:
// "false"` is left alone. Writes go through the registry's store verbs as kube-apiserver's
// own (manager `kube-apiserver`), and a conflict with a concurrent writer (another node of a
// cluster starting at the same time) reconciles again from the fresh object.

import type { Logger } from 'pino';
import type { GenericStore } from '../../../../registry/generic/store.js';
import type { KObject } from '../../../../machinery/object.js';
import { StatusError } from '../../../../machinery/errors.js';
import { clone } from '../../../../machinery/meta.js';
import { deepEqual } from '../../../../machinery/json-view.js';
import type { BindingObject, RoleObject, Subject } from '../../../../registry/rbac/types.js';
import { covers } from '../rules.js';
import type { RbacStores } from '../index.js';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_ROLES, BOOTSTRAP_ROLE_BINDINGS } from './policy.generated.js';

export const AUTO_UPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

const OWNER = { manager: 'kube-apiserver', subresource: '' };

export type Operation = 'none' | 'create' | 'update' | 'recreate';

export interface Reconciled {
  operation: Operation;
  /** The object annotated autoupdate=false: nothing was written, whatever it lacks. */
  protected: boolean;
  object: KObject;
}

/** kube's merge: later maps win; no map at all stays none. */
function merge(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const m of maps) {
    if (m && !out) out = {};
    if (m) Object.assign(out!, m);
  }
  return out;
}

/** Puts the policy's labels and annotations on `result` (existing values win); whether that changed the existing object's. */
function mergeMetadata(result: KObject, existing: KObject, expected: KObject): boolean {
  const annotations = merge(expected.metadata.annotations, existing.metadata.annotations);
  const labels = merge(expected.metadata.labels, existing.metadata.labels);
  if (annotations) result.metadata.annotations = annotations;
  if (labels) result.metadata.labels = labels;
  return !deepEqual(annotations, existing.metadata.annotations) || !deepEqual(labels, existing.metadata.labels);
}

/** What an existing role must become to hold the policy's role (computeReconciledRole, union mode). */
export function reconcileRole(existing: KObject, expected: KObject): Reconciled {
  const result = clone(existing) as RoleObject;
  let operation: Operation = 'none';
  const isProtected = existing.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'false';
  if (mergeMetadata(result, existing, expected)) operation = 'update';

  const exp = expected as RoleObject;
  const missing = covers((existing as RoleObject).rules ?? [], exp.rules ?? []).missing;
  if (missing.length > 0) {
    result.rules = [...(result.rules ?? []), ...missing];
    operation = 'update';
  }
  const have = result.aggregationRule?.clusterRoleSelectors ?? [];
  const want = exp.aggregationRule?.clusterRoleSelectors ?? [];
  if (!exp.aggregationRule && result.aggregationRule) {
    // Not an aggregated role in the policy: the aggregation goes.
    delete result.aggregationRule;
    operation = 'update';
  } else if (exp.aggregationRule) {
    const missingSelectors = want.filter((w) => !have.some((h) => deepEqual(h, w)));
    if (missingSelectors.length > 0) {
      result.aggregationRule = { ...(result.aggregationRule ?? {}), clusterRoleSelectors: [...have, ...missingSelectors] };
      operation = 'update';
    }
  }
  return { operation, protected: isProtected, object: result };
}

const sameSubject = (a: Subject, b: Subject): boolean =>
  a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

/** What an existing binding must become to hold the policy's binding (computeReconciledRoleBinding, union mode). */
export function reconcileBinding(existing: KObject, expected: KObject): Reconciled {
  const isProtected = existing.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'false';
  const e = existing as BindingObject;
  const x = expected as BindingObject;
  if (!deepEqual(e.roleRef, x.roleRef)) return { operation: 'recreate', protected: isProtected, object: clone(expected) };
  const result = clone(existing) as BindingObject;
  let operation: Operation = 'none';
  if (mergeMetadata(result, existing, expected)) operation = 'update';
  const have = e.subjects ?? [];
  const missing: Subject[] = [];
  for (const s of x.subjects ?? []) if (!have.some((h) => sameSubject(h, s)) && !missing.some((m) => sameSubject(m, s))) missing.push(s);
  if (missing.length > 0) {
    result.subjects = [...have, ...missing];
    operation = 'update';
  }
  return { operation, protected: isProtected, object: result };
}

const isConflict = (e: unknown): boolean => e instanceof StatusError && (e.code === 409 || e.reason === 'NotFound');

/** Creates, updates or recreates one object until it holds the policy's (a few attempts on races). */
async function ensureOne(store: GenericStore, expected: KObject, reconcile: (existing: KObject, expected: KObject) => Reconciled, log: Logger): Promise<void> {
  const ns = expected.metadata.namespace ?? '';
  const name = expected.metadata.name!;
  for (let attempt = 0; ; attempt++) {
    let existing: KObject | undefined;
    try {
      existing = await store.getObject(ns, name);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
    try {
      if (!existing) {
        await store.create(ns, clone(expected), false, OWNER);
        log.debug({ kind: expected.kind, namespace: ns || undefined, name }, 'created bootstrap RBAC object');
        return;
      }
      const r = reconcile(existing, expected);
      if (r.operation === 'none') return;
      if (r.protected) {
        log.warn({ kind: expected.kind, namespace: ns || undefined, name }, `skipped reconcile-protected ${expected.kind} (${AUTO_UPDATE_ANNOTATION}: "false")`);
        return;
      }
      if (r.operation === 'recreate') {
        await store.delete(ns, name, { preconditions: { uid: existing.metadata.uid } });
        await store.create(ns, clone(expected), false, OWNER);
      } else {
        await store.update(ns, name, r.object, '', false, OWNER);
      }
      log.debug({ kind: expected.kind, namespace: ns || undefined, name, operation: r.operation }, 'reconciled bootstrap RBAC object');
      return;
    } catch (e) {
      // Someone else wrote it in between (AlreadyExists, a stale resourceVersion, gone): again.
      if (attempt < 5 && (isConflict(e) || (e instanceof StatusError && e.reason === 'AlreadyExists'))) continue;
      throw e;
    }
  }
}

/** Reconciles the whole bootstrap policy, each object on its own (a failure does not stop the rest). */
export async function ensureBootstrapPolicy(stores: RbacStores, log: Logger): Promise<void> {
  const plan: [GenericStore, readonly KObject[], (existing: KObject, expected: KObject) => Reconciled][] = [
    [stores.clusterRoles, BOOTSTRAP_CLUSTER_ROLES, reconcileRole],
    [stores.clusterRoleBindings, BOOTSTRAP_CLUSTER_ROLE_BINDINGS, reconcileBinding],
    [stores.roles, BOOTSTRAP_ROLES, reconcileRole],
    [stores.roleBindings, BOOTSTRAP_ROLE_BINDINGS, reconcileBinding],
  ];
  let failed = 0;
  // One kind at a time, its objects together: the kind's actor commits them in a few batches.
  for (const [store, objects, reconcile] of plan) {
    await Promise.all(
      objects.map(async (obj) => {
        try {
          await ensureOne(store, obj, reconcile, log);
        } catch (e) {
          failed++;
          log.error({ err: (e as Error).message, kind: obj.kind, name: obj.metadata.name }, 'unable to reconcile bootstrap RBAC object');
        }
      }),
    );
  }
  if (failed > 0) throw new Error(`${failed} bootstrap RBAC objects could not be reconciled`);
}

