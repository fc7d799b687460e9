// The pod's Table (printPod in pkg/printers/internalversion/printers.go): server-side
// Tables are always wide.

import type { KObject } from '../../../machinery/object.js';
import type { TableConvertor } from '../../types.js';
import { AGE_COLUMN, NAME_COLUMN, age, column, humanDuration } from '../../printers.js';
import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; running?: unknown; terminated?: { reason?: string; exitCode?: number; signal?: number } };
  lastState?: { terminated?: { finishedAt?: string } };
}

interface PodStatus {
  phase?: string;
  reason?: string;
  podIPs?: { ip?: string }[];
  nominatedNodeName?: string;
  conditions?: { type?: string; status?: string; reason?: string }[];
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
}

/** printPod's cells (server-side Tables are always wide). */
function podCells(obj: KObject, now: Date): unknown[] {
  const s = (obj.spec ?? {}) as Obj;
  const st = (obj.status ?? {}) as PodStatus;
  const initSpecs = asArr(s.initContainers).filter(isObj);
  const restartable = (name: string | undefined): boolean => initSpecs.some((c) => c.name === name && c.restartPolicy === 'Always');
  let restarts = 0;
  let restartableRestarts = 0;
  const total = asArr(s.containers).length + initSpecs.filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let lastRestart = 0;
  let lastRestartableRestart = 0;
  const phase = st.phase ?? '';
  let reason = st.reason || phase;
  for (const c of st.conditions ?? []) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  const finished = (cs: ContainerStatus): number => {
    const f = cs.lastState?.terminated?.finishedAt;
    return f ? Date.parse(f) : 0;
  };
  let initializing = false;
  const inits = st.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    restarts += c.restartCount ?? 0;
    lastRestart = Math.max(lastRestart, finished(c));
    if (restartable(c.name)) {
      restartableRestarts += c.restartCount ?? 0;
      lastRestartableRestart = Math.max(lastRestartableRestart, finished(c));
    }
    const term = c.state?.terminated;
    if (term && (term.exitCode ?? 0) === 0) continue;
    if (restartable(c.name) && c.started === true) {
      if (c.ready) ready++;
      continue;
    }
    if (term) {
      if (!term.reason) reason = term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode ?? 0}`;
      else reason = `Init:${term.reason}`;
      initializing = true;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
      initializing = true;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
      initializing = true;
    }
    break;
  }
  const initialized = (st.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = st.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += c.restartCount ?? 0;
      lastRestart = Math.max(lastRestart, finished(c));
      const term = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (term?.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode ?? 0}`;
      else if (c.ready && c.state?.running !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (obj.metadata.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (obj.metadata.deletionTimestamp && phase !== 'Failed' && phase !== 'Succeeded') reason = 'Terminating';
  const restartsCell = restarts !== 0 && lastRestart > 0 ? `${restarts} (${humanDuration(now.getTime() - lastRestart)} ago)` : String(restarts);
  const podIP = st.podIPs?.[0]?.ip || '<none>';
  const node = str(s.nodeName) || '<none>';
  const nominated = st.nominatedNodeName || '<none>';
  let gates = '<none>';
  const rg = asArr(s.readinessGates);
  if (rg.length > 0) {
    let trueCount = 0;
    for (const g of rg) {
      const t = asObj(g)?.conditionType;
      const cond = (st.conditions ?? []).find((c) => c.type === t);
      if (cond?.status === 'True') trueCount++;
    }
    gates = `${trueCount}/${rg.length}`;
  }
  return [obj.metadata.name, `${ready}/${total}`, reason, restartsCell, age(obj, now), podIP, node, nominated, gates];
}

export const podTable: TableConvertor = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE_COLUMN,
    column('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    column(
      'Node',
      'string',
      'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
      1,
    ),
    column(
      'Nominated Node',
      'string',
      'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
      1,
    ),
    column(
      'Readiness Gates',
      'string',
      'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
      1,
    ),
  ],
  cells: podCells,
};
