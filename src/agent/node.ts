// One simulated node, as a kubelet runs it against the API: it registers its Node (capacity,
// allocatable, conditions, addresses, nodeInfo), renews its Lease in kube-node-lease every
// quarter of the lease duration, reports its status every --node-status-update-frequency
// (patched when something changed, or every --node-status-report-frequency as a heartbeat),
// watches its own Node (for the pod CIDR the node IPAM controller gives it) and the pods bound
// to it (field selector spec.nodeName), admits each new pod as kubelet does for host ports
// (a pod whose hostPort another pod holds is rejected: Failed, reason NodePorts), and runs each
// admitted pod in a PodWorker. It talks to the API with its own client, as
// `system:node:<name>` when its credentials say so.

import type { Logger } from 'pino';
import { isAlreadyExists, isConflict, isNotFound, RestClient } from '../client/rest.js';
import type { ClientConfig } from '../client/kubeconfig.js';
import { Informer } from '../client/informer.js';
import { EventRecorder, type EventSink, type ObjectRef } from '../client/events.js';
import { asArr, asObj, str, type Obj } from '../machinery/json-view.js';
import { PodWorker, type NodeContext } from './pod-worker.js';
import { nodeAddress } from './runtime-ids.js';
import type { AgentOptions } from './options.js';
import { PodCIDR } from './pod-cidr.js';
import { hostPorts, portsConflict } from '../machinery/host-ports.js';

export const KUBELET_VERSION = 'v1.33.0-kapi';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

const nowTime = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const microNow = (): string => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** The conditions a healthy kubelet reports, with their reasons and messages. */
const HEALTHY_CONDITIONS: { type: string; status: string; reason: string; message: string; event: string }[] = [
  { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', event: 'NodeHasSufficientMemory' },
  { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', event: 'NodeHasNoDiskPressure' },
  { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', event: 'NodeHasSufficientPID' },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', event: 'NodeReady' },
];

function hexOf(name: string, salt: string): string {
  let h = 0x811c9dc5;
  const s = salt + name;
  let out = '';
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    h = Math.imul(h ^ round, 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out;
}

/** How long pods wait for the node IPAM controller before the node picks its own range. */
const CIDR_WAIT_MS = 3000;

function fallbackCIDR(name: string): string {
  const h = parseInt(hexOf(name, 'cidr').slice(0, 4), 16) % 256;
  return `10.245.${h}.0/24`;
}

const uuidOf = (hex: string): string => hex.slice(0, 32).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

export class SimulatedNode {
  readonly client: RestClient;
  readonly hostIP: string;
  private readonly recorder: EventRecorder;
  private readonly workers = new Map<string, PodWorker>();
  private podInformer?: Informer;
  private nodeInformer?: Informer;
  private leaseTimer?: NodeJS.Timeout;
  private statusTimer?: NodeJS.Timeout;
  private lease?: Obj;
  private nodeUID = '';
  private cidr?: PodCIDR;
  private readonly createdAt = Date.now();
  private lastReport = 0;
  private stopped = false;
  private readonly log: Logger;
  private readonly ctx: NodeContext;

  constructor(
    readonly name: string,
    config: ClientConfig,
    private readonly options: AgentOptions,
    log: Logger,
  ) {
    this.log = log.child({ simulatedNode: name });
    this.hostIP = nodeAddress(name);
    this.client = new RestClient(config, { userAgent: `kubelet/${KUBELET_VERSION} (linux/amd64) kapi`, maxSockets: 32 });
    const sink: EventSink = {
      create: (ns, ev) => this.client.create(`/api/v1/namespaces/${ns}/events`, ev),
      patch: (ns, name, patch) => this.client.patch(`/api/v1/namespaces/${ns}/events/${name}`, patch, 'strategic'),
    };
    this.recorder = new EventRecorder(sink, { component: 'kubelet', host: name }, { log: this.log, qps: options.eventQPS, burst: options.eventBurst });
    this.ctx = {
      nodeName: name,
      hostIP: this.hostIP,
      client: this.client,
      recorder: this.recorder,
      options,
      log: this.log,
      allocateIP: () => this.podCIDR()?.allocate(),
      releaseIP: (ip) => this.cidr?.release(ip),
      claimIP: (ip) => this.cidr?.claim(ip),
    };
  }

  /**
   * The pod CIDR the node IPAM controller gave the node; against a server that gives none
   * (an apiserver without kapi's controllers), after a short wait, a /24 of 10.245.0.0/16 picked
   * by the node's name, as a CNI plugin with host-local ranges would have.
   */
  private podCIDR(): PodCIDR | undefined {
    if (!this.cidr && Date.now() - this.createdAt > CIDR_WAIT_MS) {
      this.cidr = new PodCIDR(fallbackCIDR(this.name));
      this.log.info({ node: this.name, podCIDR: this.cidr.cidr }, 'no pod CIDR from the server: using a local range');
    }
    return this.cidr;
  }

  private nodeRef(): ObjectRef {
    // kubelet refers to its node by name, with the name as UID.
    return { kind: 'Node', name: this.name, uid: this.name, apiVersion: 'v1' };
  }

  async start(): Promise<void> {
    this.recorder.event(this.nodeRef(), 'Normal', 'Starting', 'Starting kubelet.');
    await this.register();
    if (this.stopped) return;
    this.recorder.event(this.nodeRef(), 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    this.nodeInformer = new Informer(
      this.client,
      { path: '/api/v1/nodes', query: { fieldSelector: `metadata.name=${this.name}` }, log: this.log },
      { upsert: (n) => this.onNode(n), remove: () => this.onNodeDeleted() },
    );
    await this.nodeInformer.start();
    if (this.stopped) return;
    void this.renewLease();
    this.leaseTimer = setInterval(() => void this.renewLease(), (this.options.nodeLeaseDurationSeconds * 1000) / 4);
    this.statusTimer = setInterval(() => void this.updateStatus(), this.options.nodeStatusUpdateFrequencyMs);
    this.podInformer = new Informer(
      this.client,
      { path: '/api/v1/pods', query: { fieldSelector: `spec.nodeName=${this.name}` }, log: this.log },
      { upsert: (p, old) => this.onPod(p, old), remove: (p) => this.onPodGone(p) },
    );
    await this.podInformer.start();
    if (this.stopped) this.podInformer.stop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.podInformer?.stop();
    this.nodeInformer?.stop();
    for (const w of this.workers.values()) w.remove();
    this.workers.clear();
    this.recorder.stop();
    this.client.close();
  }

  // ---- the Node ----

  private conditions(now: string, old: Obj[]): Obj[] {
    return HEALTHY_CONDITIONS.map((c) => {
      const prev = old.find((o) => o.type === c.type);
      return {
        type: c.type,
        status: c.status,
        lastHeartbeatTime: now,
        lastTransitionTime: prev && prev.status === c.status ? (prev.lastTransitionTime ?? now) : now,
        reason: c.reason,
        message: c.message,
      };
    });
  }

  private statusFields(now: string, oldConditions: Obj[]): Obj {
    const capacity = { ...this.options.capacity };
    return {
      capacity,
      allocatable: { ...capacity },
      conditions: this.conditions(now, oldConditions),
      addresses: [
        { type: 'InternalIP', address: this.hostIP },
        { type: 'Hostname', address: this.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: hexOf(this.name, 'machine'),
        systemUUID: uuidOf(hexOf(this.name, 'uuid')),
        bootID: uuidOf(hexOf(this.name + String(process.pid), 'boot')),
        kernelVersion: '6.1.0-kapi',
        osImage: 'kapi simulated node',
        containerRuntimeVersion: 'kapi-simulated://0.1.0',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    };
  }

  private async register(): Promise<void> {
    const labels = {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': this.name,
      'kubernetes.io/os': 'linux',
      ...this.options.labels,
    };
    const node: Obj = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: this.name, labels, annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' } },
      spec: this.options.taints.length ? { taints: this.options.taints } : {},
      status: this.statusFields(nowTime(), []),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const made = await this.client.create('/api/v1/nodes', node);
        this.nodeUID = str(asObj(made.metadata)?.uid);
        this.lastReport = Date.now();
        this.log.info({ node: this.name }, 'registered node');
        this.reportTransitions([], asArr((asObj(made.status) ?? {}).conditions).map(asObj).filter((c): c is Obj => !!c));
        return;
      } catch (e) {
        if (isAlreadyExists(e)) {
          // Registered by an earlier run: take it over as it is; the status loop corrects it.
          const existing = await this.client.get(`/api/v1/nodes/${this.name}`);
          this.nodeUID = str(asObj(existing.metadata)?.uid);
          await this.updateStatus(true);
          return;
        }
        if (this.stopped) return;
        const wait = Math.min(7000, 200 * 2 ** attempt);
        this.log.warn({ node: this.name, err: (e as Error).message, retryInMs: wait }, 'node registration failed');
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private current(): Obj | undefined {
    return this.nodeInformer?.items.get(`/${this.name}`);
  }

  /** kubelet's status loop: patched when it changed, or as a heartbeat every report period. */
  private async updateStatus(force = false): Promise<void> {
    if (this.stopped) return;
    let node = this.current();
    try {
      node ??= await this.client.get<Obj>(`/api/v1/nodes/${this.name}`);
    } catch (e) {
      if (!isNotFound(e)) this.log.debug({ err: (e as Error).message }, 'node status: get failed');
      return;
    }
    if (!node) return;
    const oldStatus = asObj(node.status) ?? {};
    const oldConds = asArr(oldStatus.conditions).map(asObj).filter((c): c is Obj => !!c);
    const now = nowTime();
    const want = this.statusFields(now, oldConds);
    const changed = !sameConditions(oldConds, asArr(want.conditions) as Obj[]) || JSON.stringify(oldStatus.addresses) !== JSON.stringify(want.addresses);
    if (!force && !changed && Date.now() - this.lastReport < this.options.nodeStatusReportFrequencyMs) return;
    const order = (list: unknown, key: string) => asArr(list).map((x) => ({ [key]: asObj(x)?.[key] }));
    const patch = { status: { ...want, '$setElementOrder/conditions': order(want.conditions, 'type'), '$setElementOrder/addresses': order(want.addresses, 'type') } };
    try {
      await this.client.patch(`/api/v1/nodes/${this.name}/status`, patch, 'strategic');
      this.lastReport = Date.now();
      this.reportTransitions(oldConds, asArr(want.conditions) as Obj[]);
    } catch (e) {
      this.log.debug({ err: (e as Error).message }, 'node status update failed');
    }
  }

  /** kubelet's node status events: one per condition that took its healthy value. */
  private reportTransitions(old: Obj[], now: Obj[]): void {
    for (const c of HEALTHY_CONDITIONS) {
      const before = old.find((o) => o.type === c.type);
      const after = now.find((o) => o.type === c.type);
      if (after?.status !== c.status || before?.status === c.status) continue;
      this.recorder.event(this.nodeRef(), 'Normal', c.event, `Node ${this.name} status is now: ${c.event}`);
    }
  }

  private onNode(n: Obj): void {
    this.nodeUID = str(asObj(n.metadata)?.uid) || this.nodeUID;
    const cidr = str(asObj(n.spec)?.podCIDR);
    if (cidr && (!this.cidr || this.cidr.cidr !== cidr)) {
      this.cidr = new PodCIDR(cidr);
      for (const p of this.podInformer?.items.values() ?? []) {
        const ip = str(asObj(p.status)?.podIP);
        if (ip && ip !== this.hostIP) this.cidr.claim(ip);
      }
    }
  }

  private onNodeDeleted(): void {
    // kubelet registers once: a deleted Node stays deleted until the kubelet restarts.
    this.log.warn({ node: this.name }, 'the Node object was deleted');
  }

  // ---- the Lease ----

  private async renewLease(): Promise<void> {
    if (this.stopped) return;
    const path = `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases/${this.name}`;
    const fresh = (): Obj => {
      const metadata: Obj = { name: this.name, namespace: NODE_LEASE_NAMESPACE };
      if (this.nodeUID) metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.name, uid: this.nodeUID }];
      return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata, spec: { holderIdentity: this.name, leaseDurationSeconds: this.options.nodeLeaseDurationSeconds, renewTime: microNow() } };
    };
    try {
      if (!this.lease) {
        try {
          this.lease = await this.client.get(path);
        } catch (e) {
          if (!isNotFound(e)) throw e;
          this.lease = await this.client.create(`/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`, fresh());
          return;
        }
      }
      const next = structuredClone(this.lease);
      next.spec = { ...(asObj(next.spec) ?? {}), holderIdentity: this.name, leaseDurationSeconds: this.options.nodeLeaseDurationSeconds, renewTime: microNow() };
      this.lease = await this.client.update(path, next);
    } catch (e) {
      // A stale copy (409) or a lease deleted meanwhile (404): read it again next time.
      if (isConflict(e) || isNotFound(e)) this.lease = undefined;
      this.log.debug({ err: (e as Error).message }, 'lease renewal failed');
    }
  }

  // ---- pods ----

  private onPod(pod: Obj, old: Obj | undefined): void {
    const uid = str(asObj(pod.metadata)?.uid);
    const oldUID = old ? str(asObj(old.metadata)?.uid) : '';
    if (oldUID && oldUID !== uid) this.dropWorker(oldUID);
    const w = this.workers.get(uid);
    if (w) {
      w.update(pod);
      return;
    }
    const worker = new PodWorker(this.ctx, pod);
    this.workers.set(uid, worker);
    const refused = this.admit(pod);
    if (refused) worker.reject(refused.reason, refused.message);
    else worker.start();
  }

  /**
   * kubelet's admission of a new pod (the predicate admit handler), as far as the simulation
   * needs it: NodePorts, a host port (protocol, port, host IP) another admitted, non-terminal
   * pod on the node already uses. Pods already terminal, being deleted, or found running from
   * an earlier run of the agent are not checked. Answers kubelet's reason and message.
   */
  private admit(pod: Obj): { reason: string; message: string } | undefined {
    const status = asObj(pod.status) ?? {};
    const phase = str(status.phase);
    if (phase === 'Succeeded' || phase === 'Failed' || asObj(pod.metadata)?.deletionTimestamp) return undefined;
    if (phase === 'Running' && str(status.hostIP) === this.hostIP) return undefined;
    const want = hostPorts(pod);
    if (want.length === 0) return undefined;
    const uid = str(asObj(pod.metadata)?.uid);
    const used = new Set<string>();
    for (const w of this.workers.values()) {
      if (w.uid === uid || !w.active) continue;
      for (const p of hostPorts(w.current)) used.add(p);
    }
    if (!portsConflict(want, used)) return undefined;
    return { reason: 'NodePorts', message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports" };
  }

  private onPodGone(pod: Obj): void {
    this.dropWorker(str(asObj(pod.metadata)?.uid));
  }

  private dropWorker(uid: string): void {
    const w = this.workers.get(uid);
    if (!w) return;
    w.remove();
    this.workers.delete(uid);
  }
}

function sameConditions(a: Obj[], b: Obj[]): boolean {
  if (a.length !== b.length) return false;
  return b.every((c) => {
    const o = a.find((x) => x.type === c.type);
    return o && o.status === c.status && o.reason === c.reason && o.message === c.message;
  });
}
