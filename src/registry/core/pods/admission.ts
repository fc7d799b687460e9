// What kube's admission plugins do to a pod on the way in, on every write to the pod itself
// (none of them looks at subresources): DefaultTolerationSeconds (the not-ready and
// unreachable tolerations, on create and update), Priority (priorityClassName resolved into
// priority and preemptionPolicy on create, kept on update) and RuntimeClass (the class must
// exist: kapi serves none, as a cluster without RuntimeClass objects).

import { forbidden } from '../../../machinery/errors.js';
import type { Admission, AdmissionAttributes, AdmissionContext } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { asArr, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { defaultPriorityClass } from '../../scheduling/priorityclasses/strategy.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;

const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** The DefaultTolerationSeconds admission plugin (create and update). */
export function addDefaultTolerations(s: Obj): void {
  const tolerations = asArr(s.tolerations).filter(isObj);
  let notReady = false;
  let unreachable = false;
  for (const t of tolerations) {
    const k = str(t.key);
    const noExec = t.effect === 'NoExecute' || !t.effect;
    if ((k === NOT_READY || !k) && noExec) notReady = true;
    if ((k === UNREACHABLE || !k) && noExec) unreachable = true;
  }
  if (notReady && unreachable) return;
  const out = [...asArr(s.tolerations)];
  if (!notReady) out.push({ key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
  if (!unreachable) out.push({ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
  s.tolerations = out;
}

const PC_GR = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };
const PODS_GR = { group: '', resource: 'pods' };

/** The Priority admission plugin on create: resolve priorityClassName into priority and preemptionPolicy. */
function admitPriority(obj: KObject, ctx: AdmissionContext): void {
  const s = spec(obj);
  const classes = ctx.list(PC_GR);
  let priority: number;
  let policy: string | undefined;
  const className = str(s.priorityClassName);
  const name = obj.metadata.name ?? '';
  if (!className) {
    const d = defaultPriorityClass(classes);
    if (d) {
      s.priorityClassName = d.metadata.name;
      priority = (d.value as number | undefined) ?? 0;
      policy = d.preemptionPolicy as string | undefined;
    } else {
      priority = 0;
      policy = 'PreemptLowerPriority';
    }
  } else {
    const pc = classes.find((c) => c.metadata.name === className);
    if (!pc) throw forbidden(PODS_GR, name, `no PriorityClass with name ${className} was found`);
    priority = (pc.value as number | undefined) ?? 0;
    policy = pc.preemptionPolicy as string | undefined;
  }
  if (typeof s.priority === 'number' && s.priority !== priority) {
    throw forbidden(
      PODS_GR,
      name,
      `the integer value of priority (${s.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  s.priority = priority;
  if (policy !== undefined) {
    if (s.preemptionPolicy !== undefined && s.preemptionPolicy !== null && s.preemptionPolicy !== policy) {
      throw forbidden(
        PODS_GR,
        name,
        `the string value of PreemptionPolicy (${str(s.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    s.preemptionPolicy = policy;
  }
}

/** The Priority plugin on update: what it set on create stays (validation keeps the rest immutable). */
function keepPriority(obj: KObject, old: KObject): void {
  const s = spec(obj);
  const o = (old.spec ?? {}) as Obj;
  if ((s.priority === undefined || s.priority === null) && o.priority !== undefined) s.priority = o.priority;
  if ((s.preemptionPolicy === undefined || s.preemptionPolicy === null) && o.preemptionPolicy !== undefined) s.preemptionPolicy = o.preemptionPolicy;
}

const RUNTIME_CLASSES = { group: 'node.k8s.io', resource: 'runtimeclasses' };

/** The RuntimeClass plugin: a pod naming a class needs it to exist. */
function admitRuntimeClass(obj: KObject, attrs: AdmissionAttributes, ctx: AdmissionContext): void {
  const name = str(spec(obj).runtimeClassName);
  if (!name || attrs.operation !== 'CREATE') return;
  if (!ctx.list(RUNTIME_CLASSES).some((c) => c.metadata.name === name)) {
    throw forbidden(PODS_GR, attrs.name, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
  }
}

export const podAdmission: Admission = {
  admit(obj, attrs, ctx) {
    if (attrs.subresource !== '') return;
    // The mutating chain's order: Priority, DefaultTolerationSeconds, RuntimeClass.
    if (attrs.operation === 'CREATE') admitPriority(obj, ctx);
    else if (attrs.old) keepPriority(obj, attrs.old);
    addDefaultTolerations(spec(obj));
    admitRuntimeClass(obj, attrs, ctx);
  },
};
