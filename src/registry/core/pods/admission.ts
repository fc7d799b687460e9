// What kube's admission plugins do to a pod on the way in: DefaultTolerationSeconds (the
// not-ready and unreachable tolerations) and Priority (priorityClassName resolved into
// priority and preemptionPolicy).

import { forbidden } from '../../../machinery/errors.js';
import type { AdmissionContext } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { asArr, isObj, str, type Obj } from '../../../machinery/json-view.js';

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
export async function admitPriority(obj: KObject, ctx: AdmissionContext): Promise<void> {
  const s = spec(obj);
  const classes = await ctx.list(PC_GR);
  let priority: number;
  let policy: string | undefined;
  const className = str(s.priorityClassName);
  const name = obj.metadata.name ?? '';
  if (!className) {
    const defaults = classes.filter((c) => c.globalDefault === true);
    if (defaults.length > 0) {
      // The smallest value wins when several claim to be the default.
      const d = defaults.reduce((a, b) => ((b.value as number) < (a.value as number) ? b : a));
      s.priorityClassName = d.metadata.name;
      priority = d.value as number;
      policy = d.preemptionPolicy as string | undefined;
    } else {
      priority = 0;
      policy = 'PreemptLowerPriority';
    }
  } else {
    const pc = classes.find((c) => c.metadata.name === className);
    if (!pc) throw forbidden(PODS_GR, name, `no PriorityClass with name ${className} was found`);
    priority = pc.value as number;
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
