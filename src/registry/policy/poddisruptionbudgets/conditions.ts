// The DisruptionAllowed condition of a PodDisruptionBudget's status, as kube's
// component-helpers/apps/poddisruptionbudget keeps it (written by the disruption controller
// and by an eviction that uses the last allowed disruption), with apimachinery's
// SetStatusCondition rules: a new transition time only when the status changes.

import { asArr, isObj, type Obj } from '../../../machinery/json-view.js';
import { nowTimestamp } from '../../../machinery/meta.js';

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

export interface NewCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
}

/** apimeta.SetStatusCondition on `status.conditions`; answers whether anything changed. */
export function setStatusCondition(status: Obj, c: NewCondition): boolean {
  const conditions = asArr(status.conditions).filter(isObj).map((x) => ({ ...x }));
  status.conditions = conditions;
  const existing = conditions.find((x) => x.type === c.type);
  const gen = c.observedGeneration ?? 0;
  if (!existing) {
    const cond: Obj = { type: c.type, status: c.status };
    if (gen) cond.observedGeneration = gen;
    cond.lastTransitionTime = nowTimestamp();
    cond.reason = c.reason;
    cond.message = c.message;
    conditions.push(cond);
    return true;
  }
  let changed = false;
  if (existing.status !== c.status) {
    existing.status = c.status;
    existing.lastTransitionTime = nowTimestamp();
    changed = true;
  }
  if (existing.reason !== c.reason) {
    existing.reason = c.reason;
    changed = true;
  }
  if ((existing.message ?? '') !== c.message) {
    existing.message = c.message;
    changed = true;
  }
  if (((existing.observedGeneration as number | undefined) ?? 0) !== gen) {
    if (gen) existing.observedGeneration = gen;
    else delete existing.observedGeneration;
    changed = true;
  }
  return changed;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** UpdateDisruptionAllowedCondition: SufficientPods while disruptions are allowed, InsufficientPods otherwise. */
export function updateDisruptionAllowedCondition(status: Obj): void {
  const gen = num(status.observedGeneration);
  if (num(status.disruptionsAllowed) > 0) {
    setStatusCondition(status, { type: DISRUPTION_ALLOWED, status: 'True', reason: SUFFICIENT_PODS, message: '', observedGeneration: gen });
  } else {
    setStatusCondition(status, { type: DISRUPTION_ALLOWED, status: 'False', reason: INSUFFICIENT_PODS, message: '', observedGeneration: gen });
  }
}

/** ConditionsAreUpToDate. */
export function conditionsUpToDate(status: Obj, generation: number): boolean {
  const cond = asArr(status.conditions)
    .filter(isObj)
    .find((c) => c.type === DISRUPTION_ALLOWED);
  if (!cond) return false;
  if (num(status.observedGeneration) !== generation) return false;
  if (num(status.disruptionsAllowed) > 0) return cond.status === 'True' && cond.reason === SUFFICIENT_PODS;
  return cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}
