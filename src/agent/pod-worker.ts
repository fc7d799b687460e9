// One pod on a simulated node, as kubelet's pod worker runs it: the sandbox (the pod's IP) after
// the start delay, init containers one after the other, then the containers, readiness as the
// probes' initial delays say, the faults the `kapi.io/simulate` annotation asks for, and on a
// graceful delete the containers' stop within the grace period, the terminal status and the
// final delete (grace 0, on the pod's UID). Every change of state becomes one status patch
// (changes that happen together share one), and a patch is only sent when the status the
// kubelet would write differs from the pod's.

import type { Logger } from 'pino';
import { ApiError, isConflict, isNotFound, type RestClient } from '../client/rest.js';
import type { EventRecorder, ObjectRef } from '../client/events.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../machinery/json-view.js';
import { KUBELET_CONDITIONS, podStatus, type PodRuntime, type SimContainer } from './pod-status.js';
import { imageID, newContainerID, normalizeImage } from './runtime-ids.js';
import { FAULTS, SIMULATE_ANNOTATION, type AgentOptions, type Fault } from './options.js';

/** What a pod worker needs from its node. */
export interface NodeContext {
  nodeName: string;
  hostIP: string;
  client: RestClient;
  recorder: EventRecorder;
  options: AgentOptions;
  log: Logger;
  /** An address from the node's pod CIDR; undefined while the node has none. */
  allocateIP(): string | undefined;
  releaseIP(ip: string): void;
  /** Marks an address in use (a pod found running when the agent starts). */
  claimIP(ip: string): void;
}

const BACKOFF_START_MS = 10_000;
/** How soon a failed volume mount (a refused token) is tried again. */
const MOUNT_RETRY_MS = 2_000;
/** kubelet's token manager refreshes a token once 80% of its lifetime has passed. */
const TOKEN_REFRESH_FRACTION = 0.8;
const BACKOFF_MAX_MS = 300_000;

const nowTime = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const meta = (o: Obj): Obj => asObj(o.metadata) ?? {};
const spec = (o: Obj): Obj => asObj(o.spec) ?? {};

function probeDelayMs(c: Obj, probe: string): number | undefined {
  const p = asObj(c[probe]);
  if (!p) return undefined;
  return Math.max(0, Number(p.initialDelaySeconds ?? 0)) * 1000;
}

function statusMounts(c: Obj): Obj[] {
  return asArr(c.volumeMounts)
    .map(asObj)
    .filter((m): m is Obj => !!m)
    .map((m) => {
      const out: Obj = { name: m.name, mountPath: m.mountPath };
      if (m.readOnly === true) {
        out.readOnly = true;
        out.recursiveReadOnly = 'Disabled';
      }
      return out;
    });
}

export class PodWorker {
  private pod: Obj;
  readonly uid: string;
  private readonly rt: PodRuntime;
  private podIP?: string;
  private startTime: string;
  private readonly timers = new Set<NodeJS.Timeout>();
  private writing = false;
  private dirty = false;
  private gone = false;
  private terminating = false;
  private stopAt = 0;
  private fault?: Fault;
  private readonly specs = new Map<string, Obj>();
  private readonly backoff = new Map<string, number>();
  private readonly unhealthyReported = new Set<string>();
  /** The pod's projected token volumes have their tokens (kubelet mounts volumes before the sandbox). */
  private mounted = false;
  /** kubelet's admission refused the pod: it never runs, and stays Failed with this. */
  private rejection?: { reason: string; message: string };

  constructor(
    private readonly node: NodeContext,
    pod: Obj,
  ) {
    this.pod = pod;
    this.uid = str(meta(pod).uid);
    const s = spec(pod);
    const status = asObj(pod.status) ?? {};
    this.startTime = str(status.startTime) || nowTime();
    const make = (c: Obj, sidecar: boolean): SimContainer => {
      this.specs.set(str(c.name), c);
      return {
        name: str(c.name),
        specImage: str(c.image),
        image: normalizeImage(str(c.image)),
        imageID: imageID(str(c.image)),
        containerID: '',
        run: { kind: 'waiting', reason: asArr(s.initContainers).length > 0 ? 'PodInitializing' : 'ContainerCreating' },
        restartCount: 0,
        ready: false,
        started: false,
        sidecar,
        created: false,
        volumeMounts: statusMounts(c),
      };
    };
    this.rt = {
      sandboxReady: false,
      init: asArr(s.initContainers).map(asObj).filter((c): c is Obj => !!c).map((c) => make(c, c.restartPolicy === 'Always')),
      containers: asArr(s.containers).map(asObj).filter((c): c is Obj => !!c).map((c) => make(c, false)),
      terminal: false,
    };
    const f = str(meta(pod).annotations && asObj(meta(pod).annotations)?.[SIMULATE_ANNOTATION]);
    if ((FAULTS as readonly string[]).includes(f)) this.fault = f as Fault;
  }

  /** The pod as the worker last saw it. */
  get current(): Obj {
    return this.pod;
  }

  /**
   * Whether the pod counts against its node, as kubelet's admitted active pods: admitted and
   * not terminal (a terminating pod still holds what it asked for).
   */
  get active(): boolean {
    return !this.gone && !this.rejection && !this.rt.terminal;
  }

  private get name(): string {
    return str(meta(this.pod).name);
  }

  private get namespace(): string {
    return str(meta(this.pod).namespace);
  }

  private get log(): Logger {
    return this.node.log;
  }

  private ref(container?: string, init = false): ObjectRef {
    const m = meta(this.pod);
    const ref: ObjectRef = { kind: 'Pod', namespace: str(m.namespace), name: str(m.name), uid: str(m.uid), apiVersion: 'v1', resourceVersion: str(m.resourceVersion) };
    if (container) ref.fieldPath = `spec.${init ? 'initContainers' : 'containers'}{${container}}`;
    return ref;
  }

  private after(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.gone) f();
    }, ms);
    this.timers.add(t);
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Starts the pod: adopts what an earlier run of the agent started, or starts it afresh. */
  start(): void {
    const status = asObj(this.pod.status) ?? {};
    const phase = str(status.phase);
    if (phase === 'Succeeded' || phase === 'Failed') {
      this.rt.terminal = true;
      if (meta(this.pod).deletionTimestamp) void this.finalDelete();
      return;
    }
    if (this.adopt(status)) {
      // A restarted kubelet's token manager starts empty: the running pod's tokens are asked for again.
      this.mounted = true;
      void this.mountTokens();
      this.update(this.pod);
      return;
    }
    if (meta(this.pod).deletionTimestamp) {
      // Deleted before anything ran: nothing to stop.
      void this.finalDelete();
      return;
    }
    // The first status (ContainerCreating) is written before the sandbox starts, so every pod
    // shows it, however short the delay.
    void this.writeStatus().then(() => this.after(this.node.options.podStartDelayMs, () => this.startSandbox()));
  }

  /**
   * kubelet's rejectPod: admission refused the pod (its predicate's name as reason, the
   * failure as message). Nothing runs; the pod is Failed with "Pod was rejected: <message>",
   * with a Warning event, and waits for its owner to delete it.
   */
  reject(reason: string, message: string): void {
    this.rejection = { reason, message: `Pod was rejected: ${message}` };
    this.rt.terminal = true;
    this.node.recorder.event(this.ref(), 'Warning', reason, message);
    if (meta(this.pod).deletionTimestamp) {
      void this.finalDelete();
      return;
    }
    this.sync();
  }

  /** A pod this node ran before the agent restarted: its containers are still running. */
  private adopt(status: Obj): boolean {
    if (str(status.phase) !== 'Running' || str(status.hostIP) !== this.node.hostIP) return false;
    const cs = asArr(status.containerStatuses).map(asObj);
    if (cs.length !== this.rt.containers.length) return false;
    const ip = str(status.podIP);
    if (ip && ip !== this.node.hostIP) this.node.claimIP(ip);
    this.podIP = ip || undefined;
    this.rt.sandboxReady = true;
    const take = (c: SimContainer, s: Obj | undefined): void => {
      if (!s) return;
      const state = asObj(s.state) ?? {};
      c.created = true;
      c.containerID = str(s.containerID) || newContainerID();
      c.restartCount = Number(s.restartCount ?? 0);
      if (asObj(state.running)) c.run = { kind: 'running', startedAt: str(asObj(state.running)!.startedAt) || nowTime() };
      else if (asObj(state.terminated)) {
        const t = asObj(state.terminated)!;
        c.run = { kind: 'terminated', exitCode: Number(t.exitCode ?? 0), reason: str(t.reason), startedAt: str(t.startedAt), finishedAt: str(t.finishedAt), containerID: str(t.containerID) };
      } else c.run = { kind: 'running', startedAt: nowTime() };
      c.started = c.run.kind === 'running';
      c.ready = c.run.kind === 'running' && this.fault !== 'never-ready';
    };
    this.rt.init.forEach((c) => take(c, asArr(status.initContainerStatuses).map(asObj).find((s) => s?.name === c.name)));
    this.rt.containers.forEach((c) => take(c, cs.find((s) => s?.name === c.name)));
    return true;
  }

  /** A new version of the pod from the watch. */
  update(pod: Obj): void {
    if (this.gone) return;
    this.pod = pod;
    const m = meta(pod);
    if (m.deletionTimestamp) {
      this.beginTermination();
      return;
    }
    if (this.rejection) {
      this.sync();
      return;
    }
    // An image changed in place: the container restarts with the new one.
    for (const c of asArr(spec(pod).containers).map(asObj)) {
      const sim = this.rt.containers.find((x) => x.name === str(c?.name));
      if (!c || !sim || sim.specImage === str(c.image)) continue;
      this.specs.set(sim.name, c);
      sim.specImage = str(c.image);
      sim.image = normalizeImage(sim.specImage);
      sim.imageID = imageID(sim.specImage);
      if (sim.run.kind === 'running') {
        this.node.recorder.event(this.ref(sim.name), 'Normal', 'Killing', `Container ${sim.name} definition changed, will be restarted`);
        this.exitContainer(sim, 0, 'Completed');
        this.runContainer(sim, false, true);
      }
    }
    this.sync();
  }

  /** The pod is gone from the API. */
  remove(): void {
    this.gone = true;
    this.clearTimers();
    if (this.podIP && this.podIP !== this.node.hostIP) this.node.releaseIP(this.podIP);
    this.podIP = undefined;
  }

  // ---- the lifecycle ----

  private startSandbox(): void {
    if (this.rt.sandboxReady || this.terminating) return;
    if (!this.mounted) {
      void this.mountTokens().then((ok) => {
        if (ok) this.mounted = true;
        this.after(ok ? 0 : MOUNT_RETRY_MS, () => this.startSandbox());
      });
      return;
    }
    const hostNetwork = spec(this.pod).hostNetwork === true;
    const ip = hostNetwork ? this.node.hostIP : this.node.allocateIP();
    if (!ip) {
      // The node has no pod CIDR yet (the node IPAM controller gives one): try again soon.
      this.after(500, () => this.startSandbox());
      return;
    }
    this.podIP = ip;
    this.rt.sandboxReady = true;
    this.nextInit(0);
  }

  /**
   * kubelet's projected volume plugin: each `serviceAccountToken` source of a projected volume
   * (the ServiceAccount admission plugin's `kube-api-access-*` among them) is a TokenRequest
   * for the pod's account, bound to the pod by uid, for the source's audience (none: the API's)
   * and lifetime, made as the node (the Node authorizer and NodeRestriction judge it). Nothing
   * is written anywhere, as no container runs; a refusal is kubelet's FailedMount event and the
   * pod waits in ContainerCreating, as kubelet's does. Each token is asked for again at 80% of
   * its lifetime, as kubelet's token manager does.
   */
  private async mountTokens(): Promise<boolean> {
    const ns = this.namespace;
    const account = str(spec(this.pod).serviceAccountName) || 'default';
    let shortest = Infinity;
    for (const v of asArr(spec(this.pod).volumes).map(asObj)) {
      for (const src of asArr(asObj(v?.projected)?.sources).map(asObj)) {
        const tp = asObj(src?.serviceAccountToken);
        if (!tp) continue;
        const expirationSeconds = Number(tp.expirationSeconds ?? 3600);
        const audience = str(tp.audience);
        const request = {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { audiences: audience ? [audience] : null, expirationSeconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: this.name, uid: this.uid } },
        };
        try {
          await this.node.client.create(`/api/v1/namespaces/${ns}/serviceaccounts/${account}/token`, request);
        } catch (e) {
          if (this.gone) return false;
          const why = `MountVolume.SetUp failed for volume ${JSON.stringify(str(v?.name))} : failed to fetch token: ${(e as Error).message}`;
          this.node.recorder.event(this.ref(), 'Warning', 'FailedMount', why);
          return false;
        }
        shortest = Math.min(shortest, expirationSeconds);
      }
    }
    if (shortest !== Infinity) this.after(shortest * 1000 * TOKEN_REFRESH_FRACTION, () => void this.refreshTokens());
    return true;
  }

  private async refreshTokens(): Promise<void> {
    if (this.terminating || this.rt.terminal) return;
    if (!(await this.mountTokens())) this.after(MOUNT_RETRY_MS, () => void this.refreshTokens());
  }

  private nextInit(i: number): void {
    if (this.terminating) return;
    const c = this.rt.init[i];
    if (!c) {
      this.startContainers();
      return;
    }
    this.runContainer(c, true, false);
    if (c.sidecar) {
      this.nextInit(i + 1);
      return;
    }
    this.after(this.node.options.podStartDelayMs, () => {
      this.exitContainer(c, 0, 'Completed');
      c.ready = false;
      this.sync();
      this.nextInit(i + 1);
    });
  }

  private startContainers(): void {
    for (const c of this.rt.containers) this.runContainer(c, false, false);
    if (this.fault === 'fail') {
      this.after(Math.max(this.node.options.podStartDelayMs, 100), () => this.failPod());
    }
  }

  /** Creates and starts one container; readiness follows its probes (and the fault). */
  private runContainer(c: SimContainer, init: boolean, restart: boolean): void {
    const cspec = this.specs.get(c.name) ?? {};
    const pull = str(cspec.imagePullPolicy) || 'IfNotPresent';
    if (pull === 'Always') {
      this.node.recorder.event(this.ref(c.name, init), 'Normal', 'Pulling', `Pulling image ${JSON.stringify(c.specImage)}`);
      this.node.recorder.event(this.ref(c.name, init), 'Normal', 'Pulled', `Successfully pulled image ${JSON.stringify(c.specImage)} in 0s (0s including waiting). Image size: 0 bytes.`);
    } else {
      this.node.recorder.event(this.ref(c.name, init), 'Normal', 'Pulled', `Container image ${JSON.stringify(c.specImage)} already present on machine`);
    }
    c.created = true;
    c.containerID = newContainerID();
    c.run = { kind: 'running', startedAt: nowTime() };
    if (restart) c.restartCount++;
    this.node.recorder.event(this.ref(c.name, init), 'Normal', 'Created', `Created container: ${c.name}`);
    this.node.recorder.event(this.ref(c.name, init), 'Normal', 'Started', `Started container ${c.name}`);
    const startup = probeDelayMs(cspec, 'startupProbe');
    const readiness = probeDelayMs(cspec, 'readinessProbe');
    const containerID = c.containerID;
    const becomeStarted = (): void => {
      if (c.containerID !== containerID || c.run.kind !== 'running') return;
      c.started = true;
      if (init && !c.sidecar) {
        this.sync();
        return;
      }
      const becomeReady = (): void => {
        if (c.containerID !== containerID || c.run.kind !== 'running') return;
        if (this.fault === 'never-ready') {
          if (!this.unhealthyReported.has(c.name)) {
            this.unhealthyReported.add(c.name);
            this.node.recorder.event(this.ref(c.name, init), 'Warning', 'Unhealthy', `Readiness probe failed: the ${SIMULATE_ANNOTATION} annotation says never-ready`);
          }
          this.sync();
          return;
        }
        c.ready = true;
        this.sync();
      };
      if (readiness && readiness > 0) {
        this.sync();
        this.after(readiness, becomeReady);
      } else becomeReady();
    };
    c.started = false;
    c.ready = false;
    if (startup && startup > 0) {
      this.sync();
      this.after(startup, becomeStarted);
    } else becomeStarted();
    if (this.fault === 'crash-loop' && !init) {
      this.after(this.node.options.crashAfterMs, () => this.crash(c));
    }
  }

  private exitContainer(c: SimContainer, exitCode: number, reason: string): void {
    if (c.run.kind !== 'running') return;
    c.run = { kind: 'terminated', exitCode, reason, startedAt: c.run.startedAt, finishedAt: nowTime(), containerID: c.containerID };
    c.ready = false;
  }

  /** A crash-looping container exits with 1; kubelet restarts it, with a growing back-off. */
  private crash(c: SimContainer): void {
    if (this.terminating || c.run.kind !== 'running') return;
    this.exitContainer(c, 1, 'Error');
    const last = c.run as unknown as Extract<SimContainer['run'], { kind: 'terminated' }>;
    const policy = str(spec(this.pod).restartPolicy) || 'Always';
    if (policy === 'Never') {
      this.rt.terminal = true;
      this.rt.sandboxReady = false;
      this.sync();
      return;
    }
    const prev = this.backoff.get(c.name);
    if (prev === undefined) {
      // The first exit restarts at once; the back-off starts with the next one.
      this.backoff.set(c.name, 0);
      c.last = last;
      this.runContainer(c, false, true);
      this.sync();
      return;
    }
    const delay = prev === 0 ? BACKOFF_START_MS : Math.min(BACKOFF_MAX_MS, prev * 2);
    this.backoff.set(c.name, delay);
    c.last = last;
    const podRef = `${this.name}_${this.namespace}(${this.uid})`;
    c.run = { kind: 'waiting', reason: 'CrashLoopBackOff', message: `back-off ${delay / 1000}s restarting failed container=${c.name} pod=${podRef}` };
    this.node.recorder.event(this.ref(c.name), 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podRef}`);
    this.sync();
    this.after(delay, () => {
      if (this.terminating) return;
      this.runContainer(c, false, true);
      this.sync();
    });
  }

  /** The `fail` fault: the containers exit with 1 and the pod fails as a whole. */
  private failPod(): void {
    if (this.terminating) return;
    for (const c of this.rt.containers) this.exitContainer(c, 1, 'Error');
    this.rt.failed = true;
    this.rt.terminal = true;
    this.rt.sandboxReady = false;
    this.clearTimers();
    this.sync();
  }

  private beginTermination(): void {
    const m = meta(this.pod);
    const graceMs = Math.max(0, Number(m.deletionGracePeriodSeconds ?? 0)) * 1000;
    const configured = this.node.options.podStopDelayMs;
    const stopMs = configured === undefined ? graceMs : Math.min(graceMs, configured);
    const at = Date.now() + stopMs;
    if (this.terminating) {
      // A second delete may shorten the grace period.
      if (at >= this.stopAt) return;
    } else {
      this.terminating = true;
      for (const c of [...this.rt.containers, ...this.rt.init]) {
        if (c.run.kind === 'running') this.node.recorder.event(this.ref(c.name, this.rt.init.includes(c)), 'Normal', 'Killing', `Stopping container ${c.name}`);
      }
    }
    this.stopAt = at;
    this.clearTimers();
    const anyRunning = [...this.rt.containers, ...this.rt.init].some((c) => c.run.kind === 'running');
    if (!anyRunning || this.rt.terminal) {
      this.finishTermination(true);
      return;
    }
    this.after(stopMs, () => this.finishTermination(stopMs < graceMs || graceMs === 0));
  }

  /** The containers are stopped (exit 0 after SIGTERM, or 137 when killed at the end of the grace period). */
  private finishTermination(graceful: boolean): void {
    for (const c of [...this.rt.containers, ...this.rt.init]) {
      if (c.run.kind === 'running') this.exitContainer(c, graceful ? 0 : 137, graceful ? 'Completed' : 'Error');
    }
    const started = this.rt.sandboxReady || this.rt.terminal;
    this.rt.terminal = true;
    this.rt.sandboxReady = false;
    if (!started) {
      void this.finalDelete();
      return;
    }
    void this.writeStatus().then(() => this.finalDelete());
  }

  private async finalDelete(): Promise<void> {
    if (this.gone) return;
    try {
      await this.node.client.delete(`/api/v1/namespaces/${this.namespace}/pods/${this.name}`, { gracePeriodSeconds: 0, preconditions: { uid: this.uid } });
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return;
      this.log.warn({ pod: `${this.namespace}/${this.name}`, err: (e as Error).message }, 'final delete failed; will retry');
      this.after(1000, () => void this.finalDelete());
    }
  }

  // ---- status ----

  /** Writes the status soon: changes made in the same turn share one patch. */
  private sync(): void {
    this.dirty = true;
    if (this.writing) return;
    this.writing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      while (this.dirty && !this.gone) {
        this.dirty = false;
        await this.writeStatusOnce();
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeStatus(): Promise<void> {
    while (this.writing) await new Promise((r) => setImmediate(r));
    this.writing = true;
    try {
      this.dirty = false;
      await this.writeStatusOnce();
    } finally {
      this.writing = false;
      // A change made while this write was on its way still goes out.
      if (this.dirty) this.sync();
    }
  }

  private async writeStatusOnce(): Promise<void> {
    if (this.gone) return;
    if (this.rejection) {
      await this.writeRejection(this.rejection);
      return;
    }
    const desired = podStatus(this.pod, this.rt, { hostIP: this.node.hostIP, podIP: this.podIP, startTime: this.startTime, now: nowTime() });
    const current = asObj(this.pod.status) ?? {};
    if (sameStatus(desired, current)) return;
    const order = asArr(desired.conditions).map((c) => ({ type: asObj(c)?.type }));
    const patch = { metadata: { uid: this.uid }, status: { ...explicitRemovals(desired), '$setElementOrder/conditions': order } };
    await this.patchStatus(patch);
  }

  /**
   * The status kubelet's status manager writes for a rejected pod: phase Failed, the reason
   * and message, the start time, the QoS class kept; of the conditions, only those kubelet does
   * not own stay (its merge drops the others, a PodScheduled among them).
   */
  private async writeRejection(r: { reason: string; message: string }): Promise<void> {
    const current = asObj(this.pod.status) ?? {};
    const conds = asArr(current.conditions).map(asObj).filter((c): c is Obj => !!c);
    const owned = conds.filter((c) => KUBELET_CONDITIONS.has(str(c.type)));
    if (str(current.phase) === 'Failed' && str(current.reason) === r.reason && str(current.message) === r.message && owned.length === 0 && str(current.startTime)) return;
    const status: Obj = { phase: 'Failed', reason: r.reason, message: r.message, startTime: str(current.startTime) || this.startTime };
    if (owned.length > 0) status.conditions = owned.map((c) => ({ type: c.type, $patch: 'delete' }));
    await this.patchStatus({ metadata: { uid: this.uid }, status });
  }

  private async patchStatus(patch: Obj): Promise<void> {
    try {
      const updated = await this.node.client.patch(`/api/v1/namespaces/${this.namespace}/pods/${this.name}/status`, patch, 'strategic');
      // Later decisions start from what was written (the watch brings the same soon).
      if (!this.gone && str(meta(updated).uid) === this.uid) this.pod = updated;
    } catch (e) {
      if (isNotFound(e) || (e instanceof ApiError && (e.code === 409 || e.code === 422))) {
        // Gone, or another pod of the same name now: the watch tells.
        return;
      }
      this.log.warn({ pod: `${this.namespace}/${this.name}`, err: (e as Error).message }, 'status update failed; will retry');
      this.after(1000, () => this.sync());
    }
  }
}

/**
 * A strategic merge patch merges list entries by key: a field the new status no longer has (a
 * condition's reason, a container's former state) must be deleted by name, as kubelet's patch
 * (a two-way diff of old and new status) does with nulls.
 */
function explicitRemovals(status: Obj): Obj {
  const out: Obj = { ...status };
  out.conditions = asArr(status.conditions).map((c) => ({ reason: null, message: null, ...asObj(c) }));
  const states = (v: unknown): Obj => ({ waiting: null, running: null, terminated: null, ...asObj(v) });
  for (const k of ['containerStatuses', 'initContainerStatuses']) {
    if (status[k] === undefined) continue;
    out[k] = asArr(status[k]).map((c) => ({ ...asObj(c), state: states(asObj(c)?.state), lastState: states(asObj(c)?.lastState) }));
  }
  return out;
}

/** Whether the kubelet's status is already the pod's (times of unchanged conditions aside). */
function sameStatus(desired: Obj, current: Obj): boolean {
  for (const k of ['phase', 'hostIP', 'podIP', 'startTime']) if (str(desired[k]) !== str(current[k])) return false;
  if (!deepEqual(desired.containerStatuses ?? null, current.containerStatuses ?? null)) return false;
  if (!deepEqual(desired.initContainerStatuses ?? null, current.initContainerStatuses ?? null)) return false;
  const cur = asArr(current.conditions).map(asObj);
  for (const c of asArr(desired.conditions).map(asObj)) {
    const o = cur.find((x) => x?.type === c?.type);
    if (!o || str(o.status) !== str(c?.status) || str(o.reason) !== str(c?.reason) || str(o.message) !== str(c?.message)) return false;
  }
  return true;
}
