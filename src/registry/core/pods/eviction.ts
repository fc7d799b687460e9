// pods/eviction, after kube's EvictionREST (pkg/registry/core/pod/storage/eviction.go): a
// POSTed policy/v1 Eviction deletes the pod with the Eviction's DeleteOptions once the pod's
// PodDisruptionBudget allows it. A terminal or Pending pod, or one already being deleted, goes
// without asking. Otherwise the budget's disruptionsAllowed is checked and decremented, and
// the pod recorded in its disruptedPods, by one status update conditional on the budget's
// resourceVersion: two evictions racing for the last allowed disruption cannot both win, the
// loser re-reads the budget and gets 429. An unready pod may go without using the budget when
// unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the default) while the budget
// is met; its deletion is then conditional on the pod not having changed since. Before the
// delete the pod gets the DisruptionTarget condition, as kube writes it.

import { StatusError, badRequest, conflict, forbidden, internalError, type GroupResource } from '../../../machinery/errors.js';
import type { KObject } from '../../../machinery/object.js';
import { asArr, isObj, type Obj } from '../../../machinery/json-view.js';
import { nowTimestamp } from '../../../machinery/meta.js';
import { selectorFromObject } from '../../../machinery/label-selector-object.js';
import { deleteOptionsOf } from '../../generic/delete-options.js';
import { updateDisruptionAllowedCondition } from '../../policy/poddisruptionbudgets/conditions.js';
import type { ActionDeleteOptions, ActionStore, ActionSubresource } from '../../types.js';

const PDB_GR: GroupResource = { group: 'policy', resource: 'poddisruptionbudget' };
/** kube's MaxDisruptedPodSize: more unconfirmed evictions than this and the budget refuses. */
const MAX_DISRUPTED_POD_SIZE = 2000;
/** The loopback client kube's eviction writes the budget with. */
const OWNER = { manager: 'kube-apiserver', subresource: 'status' };
const TOO_MANY = "Cannot evict pod as it would violate the pod's disruption budget.";

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const statusOf = (o: KObject): Obj => (isObj(o.status) ? o.status : {});
const specOf = (o: KObject): Obj => (isObj(o.spec) ? o.spec : {});
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function tooManyRequests(retryAfterSeconds: number, cause: string): StatusError {
  return new StatusError(429, 'TooManyRequests', TOO_MANY, {
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  });
}

/** createTooManyRequestsError: the budget has not caught up with its spec (or the pod changed). */
const stillProcessing = (pdbName: string): StatusError => tooManyRequests(10, `The disruption budget ${pdbName} is still being processed by the server.`);

const isConflict = (e: unknown): boolean => e instanceof StatusError && e.code === 409;

function podReady(pod: KObject): boolean {
  return asArr(statusOf(pod).conditions).some((c) => isObj(c) && c.type === 'Ready' && c.status === 'True');
}

/** canIgnorePDB: the pod is not running (yet or any more), or already going. */
function canIgnorePDB(pod: KObject): boolean {
  const phase = statusOf(pod).phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || Boolean(pod.metadata.deletionTimestamp);
}

/** The budgets whose selector matches the pod; a nil, empty or invalid selector matches nothing. */
async function budgetsOf(pdbs: ActionStore, pod: KObject): Promise<KObject[]> {
  const out: KObject[] = [];
  for (const pdb of await pdbs.currentObjects(pod.metadata.namespace ?? '')) {
    let matches = false;
    try {
      const sel = selectorFromObject(specOf(pdb).selector);
      matches = !sel.empty && sel.matches(pod.metadata.labels ?? {});
    } catch {
      continue;
    }
    if (matches) out.push(pdb);
  }
  return out;
}

/**
 * checkAndDecrement: one disruption taken from the budget, the pod recorded as disrupted, in one
 * update conditional on the budget's resourceVersion (a conflict is the caller's to retry).
 */
async function checkAndDecrement(pdbs: ActionStore, podName: string, pdb: KObject, dryRun: boolean): Promise<void> {
  const status = structuredClone(statusOf(pdb));
  if (num(status.observedGeneration) < (pdb.metadata.generation ?? 0)) throw stillProcessing(pdb.metadata.name ?? '');
  if (num(status.disruptionsAllowed) < 0) throw forbidden(PDB_GR, pdb.metadata.name ?? '', 'pdb disruptions allowed is negative');
  if (Object.keys(isObj(status.disruptedPods) ? status.disruptedPods : {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw forbidden(PDB_GR, pdb.metadata.name ?? '', 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (num(status.disruptionsAllowed) === 0) {
    throw tooManyRequests(0, `The disruption budget ${pdb.metadata.name} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`);
  }
  status.disruptionsAllowed = num(status.disruptionsAllowed) - 1;
  if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status);
  if (dryRun) return;
  status.disruptedPods = { ...(isObj(status.disruptedPods) ? status.disruptedPods : {}), [podName]: nowTimestamp() };
  await pdbs.update(pdb.metadata.namespace ?? '', pdb.metadata.name!, { ...pdb, status }, 'status', false, OWNER);
}

/** Retries `fn` while it fails with a conflict: `steps` tries, `delayMs` apart (kube's retry.OnError). */
async function onConflict<T>(steps: number, delayMs: number, fn: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (!isConflict(e) || i >= steps) throw e;
      await sleep(delayMs * (0.9 + Math.random() * 0.2));
    }
  }
}

/** The Eviction's deleteOptions, with the request's dryRun when the body names none. */
function deleteOptionsFrom(body: KObject, dryRun: boolean): ActionDeleteOptions {
  const raw = (body as unknown as Obj).deleteOptions;
  if (raw === undefined || raw === null) return { dryRun };
  const d = raw as Obj;
  const fromBody = asArr(d.dryRun);
  if (fromBody.length > 0 && dryRun && !(fromBody.length === 1 && fromBody[0] === 'All')) {
    throw badRequest(`Non-matching dry-run options in request and content: [All] and [${fromBody.join(' ')}]`);
  }
  const opts = deleteOptionsOf(d);
  if (dryRun) opts.dryRun = true;
  return opts;
}

/**
 * addConditionAndDeletePod: the DisruptionTarget condition through pods/status (checked against
 * the options' preconditions, which then follow the pod's new resourceVersion), then the delete.
 */
async function markAndDelete(pods: ActionStore, namespace: string, name: string, options: ActionDeleteOptions): Promise<ActionDeleteOptions> {
  let opts = options;
  if (!opts.dryRun) {
    const { obj } = await pods.guaranteedUpdate(namespace, name, 'status', (old) => {
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== old.metadata.uid) {
        throw conflict({ group: '', resource: 'pods' }, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
        throw conflict({ group: '', resource: 'pods' }, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`);
      }
      const pod = structuredClone(old);
      const status = (pod.status ??= {}) as Obj;
      const conditions = asArr(status.conditions).filter(isObj);
      const i = conditions.findIndex((c) => c.type === 'DisruptionTarget');
      const prev = i >= 0 ? conditions[i]! : undefined;
      const cond: Obj = {
        type: 'DisruptionTarget',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : nowTimestamp(),
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      };
      if (i >= 0) conditions[i] = cond;
      else conditions.push(cond);
      status.conditions = conditions;
      return pod;
    });
    if (opts.preconditions?.resourceVersion) opts = { ...opts, preconditions: { ...opts.preconditions, resourceVersion: obj.metadata.resourceVersion } };
  }
  await pods.delete(namespace, name, opts);
  return opts;
}

export const podEviction: ActionSubresource = {
  kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
  async post(pods, namespace, name, body, reqOpts) {
    if (body.metadata.name !== name) throw badRequest('name in URL does not match name in Eviction object');
    const original = deleteOptionsFrom(body, reqOpts.dryRun);
    let deleteOptions = original;
    const pdbs = pods.peer('policy', 'poddisruptionbudgets');
    let pod!: KObject;
    let pdbName = '';
    let conditional = false;
    let deletedAlready = false;
    // Outer loop: a conflict after the inner retries re-reads the pod and starts again.
    await onConflict(5, 500, async () => {
      pod = await pods.getObject(namespace, name);
      if (canIgnorePDB(pod)) {
        deleteOptions = await markAndDelete(pods, namespace, name, deleteOptions);
        deletedAlready = true;
        return;
      }
      const budgets = await budgetsOf(pdbs, pod);
      if (budgets.length > 1) throw internalError(new Error('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'));
      if (budgets.length === 0) return;
      let pdb = budgets[0]!;
      pdbName = pdb.metadata.name ?? '';
      if (!podReady(pod)) {
        if (specOf(pdb).unhealthyPodEvictionPolicy === 'AlwaysAllow') {
          conditional = true;
          return;
        }
        const st = statusOf(pdb);
        if (num(st.currentHealthy) >= num(st.desiredHealthy) && num(st.desiredHealthy) > 0) {
          conditional = true;
          return;
        }
      }
      let refresh = false;
      await onConflict(5, 10, async () => {
        if (refresh) pdb = await pdbs.getObject(namespace, pdbName);
        refresh = true;
        await checkAndDecrement(pdbs, pod.metadata.name!, pdb, Boolean(deleteOptions.dryRun));
      });
    });
    if (!deletedAlready) {
      if (conditional) deleteOptions = { ...deleteOptions, preconditions: { ...deleteOptions.preconditions, resourceVersion: pod.metadata.resourceVersion } };
      try {
        await markAndDelete(pods, namespace, name, deleteOptions);
      } catch (e) {
        // The pod changed under an unbudgeted eviction: the client is told to try again.
        if (isConflict(e) && conditional && !original.preconditions?.resourceVersion) throw stillProcessing(pdbName);
        throw e;
      }
    }
    return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
  },
};
