// The pod status a kubelet writes, computed from the simulated runtime's containers as
// kubelet's generateAPIPodStatus does: the phase (getPhase), the conditions it owns in its
// order (PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled) after
// the conditions others own, readiness gates, and a ContainerStatus per container.

import { asArr, asObj, str, type Obj } from '../machinery/json-view.js';

export type ContainerRun =
  | { kind: 'waiting'; reason: string; message?: string }
  | { kind: 'running'; startedAt: string }
  | { kind: 'terminated'; exitCode: number; reason: string; startedAt: string; finishedAt: string; containerID: string };

/** One container as the simulated runtime knows it. */
export interface SimContainer {
  name: string;
  /** The image as the spec names it, and the runtime's normalized reference once created. */
  specImage: string;
  image: string;
  imageID: string;
  containerID: string;
  run: ContainerRun;
  /** The previous run's end, after a restart. */
  last?: Extract<ContainerRun, { kind: 'terminated' }>;
  restartCount: number;
  ready: boolean;
  started: boolean;
  /** A restartable init container (a sidecar: `restartPolicy: Always`). */
  sidecar: boolean;
  created: boolean;
  volumeMounts: Obj[];
}

export interface PodRuntime {
  sandboxReady: boolean;
  init: SimContainer[];
  containers: SimContainer[];
  /** The pod is done: its containers will not run again (deleted, or terminal). */
  terminal: boolean;
  /** Forced failure of the whole pod (the `fail` fault). */
  failed?: boolean;
}

export interface NodeFacts {
  hostIP: string;
}

// The conditions kubelet owns (kubetypes.PodConditionByKubelet).
export const KUBELET_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers']);

const spec = (pod: Obj): Obj => asObj(pod.spec) ?? {};

function containerStatus(c: SimContainer): Obj {
  const state: Obj = {};
  const r = c.run;
  if (r.kind === 'waiting') state.waiting = r.message ? { reason: r.reason, message: r.message } : { reason: r.reason };
  else if (r.kind === 'running') state.running = { startedAt: r.startedAt };
  else state.terminated = { exitCode: r.exitCode, reason: r.reason, startedAt: r.startedAt, finishedAt: r.finishedAt, containerID: r.containerID };
  const out: Obj = {
    name: c.name,
    state,
    lastState: c.last ? { terminated: { exitCode: c.last.exitCode, reason: c.last.reason, startedAt: c.last.startedAt, finishedAt: c.last.finishedAt, containerID: c.last.containerID } } : {},
    ready: c.ready,
    restartCount: c.restartCount,
    image: c.created ? c.image : c.specImage,
    imageID: c.created ? c.imageID : '',
  };
  if (c.containerID) out.containerID = c.containerID;
  // kubelet's prober: only a running container can be started.
  out.started = c.started && r.kind === 'running';
  if (c.created && c.volumeMounts.length > 0) out.volumeMounts = c.volumeMounts;
  return out;
}

/** getPhase, for the simulated containers. */
export function podPhase(pod: Obj, rt: PodRuntime): string {
  if (rt.failed) return 'Failed';
  const restartPolicy = str(spec(pod).restartPolicy) || 'Always';
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of rt.init) {
    if (c.sidecar) {
      if (c.run.kind === 'running' && !c.started) pendingInit++;
      else if (c.run.kind === 'waiting' && !c.last) pendingInit++;
      continue;
    }
    if (c.run.kind === 'running') pendingInit++;
    else if (c.run.kind === 'terminated') {
      if (c.run.exitCode !== 0) failedInit++;
    } else if (c.last) {
      if (c.last.exitCode !== 0) failedInit++;
      pendingInit++;
    } else pendingInit++;
  }
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  let waiting = 0;
  for (const c of rt.containers) {
    if (c.run.kind === 'running') running++;
    else if (c.run.kind === 'terminated') {
      stopped++;
      if (c.run.exitCode === 0) succeeded++;
    } else if (c.last) stopped++;
    else waiting++;
  }
  if (failedInit > 0 && restartPolicy === 'Never') return 'Failed';
  const anyStarted = rt.containers.some((c) => c.run.kind !== 'waiting' || c.last);
  if ((pendingInit > 0 && !anyStarted) || waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (rt.terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

const names = (l: string[]): string => `[${l.join(' ')}]`;

/** kubelet's generated conditions, each without times (added by `withTimes`). */
export function kubeletConditions(pod: Obj, rt: PodRuntime, phase: string, others: Obj[]): Obj[] {
  const s = spec(pod);
  const ready2start: Obj = { type: 'PodReadyToStartContainers', status: rt.sandboxReady && !rt.terminal ? 'True' : 'False' };

  // Initialized.
  let initialized: Obj;
  const incomplete = rt.init.filter((c) => (c.sidecar ? !c.started : !(c.run.kind === 'terminated' && c.run.exitCode === 0))).map((c) => c.name);
  const regularStarted = rt.containers.some((c) => c.run.kind !== 'waiting' || c.last);
  if (phase === 'Succeeded') initialized = { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  else if (regularStarted || incomplete.length === 0) initialized = { type: 'Initialized', status: 'True' };
  else initialized = { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: ${names(incomplete)}` };

  // ContainersReady.
  let containersReady: Obj;
  if (phase === 'Failed' || phase === 'Succeeded') {
    containersReady = { type: 'ContainersReady', status: 'False', reason: phase === 'Failed' ? 'PodFailed' : 'PodCompleted' };
  } else {
    const unready = [...rt.init.filter((c) => c.sidecar), ...rt.containers].filter((c) => !c.ready).map((c) => c.name);
    containersReady =
      unready.length > 0
        ? { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: ${names(unready)}` }
        : { type: 'ContainersReady', status: 'True' };
  }

  // Ready: ContainersReady and every readiness gate's condition True.
  let ready: Obj;
  if (containersReady.status !== 'True') {
    ready = { type: 'Ready', status: containersReady.status, reason: containersReady.reason, message: containersReady.message };
    if (ready.message === undefined) delete ready.message;
  } else {
    const msgs: string[] = [];
    for (const g of asArr(s.readinessGates)) {
      const t = str(asObj(g)?.conditionType);
      const c = others.find((o) => o.type === t);
      if (!c) msgs.push(`corresponding condition of pod readiness gate ${JSON.stringify(t)} does not exist.`);
      else if (c.status !== 'True') msgs.push(`the status of pod readiness gate ${JSON.stringify(t)} is not "True", but ${str(c.status)}`);
    }
    ready = msgs.length ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: msgs.join(', ') } : { type: 'Ready', status: 'True' };
  }
  return [ready2start, initialized, ready, containersReady, { type: 'PodScheduled', status: 'True' }];
}

/** Conditions with kube's times: a transition time kept while the status stays, now when it changes. */
function withTimes(conds: Obj[], old: Obj[], now: string): Obj[] {
  return conds.map((c) => {
    const prev = old.find((o) => o.type === c.type);
    const out: Obj = { type: c.type, status: c.status, lastProbeTime: null, lastTransitionTime: prev && prev.status === c.status ? (prev.lastTransitionTime ?? now) : now };
    if (c.reason) out.reason = c.reason;
    if (c.message) out.message = c.message;
    return out;
  });
}

/** The whole status the kubelet would write now. */
export function podStatus(pod: Obj, rt: PodRuntime, facts: { hostIP: string; podIP?: string; startTime: string; now: string }): Obj {
  const old = asObj(pod.status) ?? {};
  const oldConds = asArr(old.conditions).map(asObj).filter((c): c is Obj => !!c);
  const others = oldConds.filter((c) => !KUBELET_CONDITIONS.has(str(c.type)));
  let phase = podPhase(pod, rt);
  // A terminal phase never changes back.
  const oldPhase = str(old.phase);
  if ((oldPhase === 'Failed' || oldPhase === 'Succeeded') && phase !== oldPhase) phase = oldPhase;
  const mine = withTimes(kubeletConditions(pod, rt, phase, others), oldConds, facts.now);
  const status: Obj = {
    phase,
    conditions: [...others, ...mine],
    hostIP: facts.hostIP,
    hostIPs: [{ ip: facts.hostIP }],
    startTime: facts.startTime,
  };
  if (facts.podIP) {
    status.podIP = facts.podIP;
    status.podIPs = [{ ip: facts.podIP }];
  }
  if (rt.init.length > 0) status.initContainerStatuses = rt.init.map(containerStatus);
  status.containerStatuses = rt.containers.map(containerStatus);
  if (old.qosClass) status.qosClass = old.qosClass;
  return status;
}
