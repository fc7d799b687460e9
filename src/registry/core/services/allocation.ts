// What a Service write does to the address and port pools, after kube 1.33's service REST
// (pkg/registry/core/service/storage: storage.go's beginCreate/beginUpdate/afterDelete and
// alloc.go): IP families and policy defaulted from the cluster's ranges, ClusterIPs and
// NodePorts allocated before validation (a failed write gives them back), released once a
// write that stops using them commits, and after a delete.

import { internalError, invalid, StatusError, type FieldError } from '../../../machinery/errors.js';
import type { KObject } from '../../../machinery/object.js';
import { canonicalIPString, ipString, parseIPSloppy, type IPFamily } from '../../../machinery/net/ip.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';
import type { HookEnv, HookStore, WriteHooks, WriteTxn } from '../../types.js';
import { AllocationError, IPAllocator, type ServiceRef } from './ip-allocator.js';
import { PortAllocator } from './port-allocator.js';
import { clusterIPsOf, isHeadless, needsHealthCheck, portsOf, validateClusterIPsRelatedFields } from './validation.js';
import { MANAGED_BY_ALLOCATOR, MANAGED_BY_LABEL } from '../../networking/ipaddresses/strategy.js';
import { decodeObject } from '../../../machinery/stored-bytes.js';

type Spec = Obj;

/** How often the pools are checked against the services (kube's repair interval). */
const REPAIR_MS = 3 * 60_000;
/** How old an allocation no service holds must be before it is taken back. */
const LEAK_GRACE_MS = 60_000;

const spec = (svc: KObject): Spec => (svc.spec ??= {}) as Spec;
const familyOf = (ip: string): IPFamily | 'unknown' => parseIPSloppy(ip)?.family ?? 'unknown';
const otherFamily = (f: IPFamily): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
const sameList = (a: unknown[], b: unknown[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const familiesOf = (s: Spec): string[] => asArr(s.ipFamilies).map(str);
const refOf = (svc: KObject): ServiceRef => ({ namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' });

function invalidService(svc: KObject, errs: FieldError[]): StatusError {
  return invalid('Service', '', svc.metadata.name ?? '', errs);
}

/** needsClusterIP: every type but ExternalName. */
const needsClusterIP = (s: Spec): boolean => s.type !== 'ExternalName';

/** shouldAllocateNodePorts (the allocator's): NodePort, and LoadBalancer unless it opted out. */
const shouldAllocateNodePorts = (s: Spec): boolean =>
  s.type === 'NodePort' || (s.type === 'LoadBalancer' && (s.allocateLoadBalancerNodePorts === undefined || s.allocateLoadBalancerNodePorts === null || s.allocateLoadBalancerNodePorts === true));

/**
 * needsNodePort (the storage's, for what an update keeps or drops): the type alone. A
 * LoadBalancer that opted out of allocation keeps the node ports it already had.
 */
const needsNodePort = (s: Spec): boolean => s.type === 'NodePort' || s.type === 'LoadBalancer';

const nodePortsOf = (s: Spec): number[] => portsOf(s).map((p) => (typeof p.nodePort === 'number' ? p.nodePort : 0)).filter((n) => n !== 0);

/** normalizeClusterIPs: keep clusterIP and clusterIPs in step for clients that set only one. */
export function normalizeClusterIPs(s: Spec, o?: Spec): void {
  const ip = str(s.clusterIP);
  if (!o) {
    if (ip && clusterIPsOf(s).length === 0) s.clusterIPs = [ip];
    return;
  }
  const oldIP = str(o.clusterIP);
  // An old client patching something else sent the singular field only.
  if (clusterIPsOf(o).length > 0 && clusterIPsOf(s).length === 0 && oldIP === ip) s.clusterIPs = [...clusterIPsOf(o)];
  if (oldIP !== ip) {
    const samePlural = sameList(clusterIPsOf(o), clusterIPsOf(s));
    if (oldIP && !ip) {
      if (samePlural) delete s.clusterIPs;
    } else if (samePlural) {
      s.clusterIPs = [ip];
    }
  }
}

/** patchAllocatedValues: an update that leaves out allocated values keeps them. */
export function patchAllocatedValues(s: Spec, o: Spec): void {
  if (needsClusterIP(o) && needsClusterIP(s)) {
    if (!str(s.clusterIP) && str(o.clusterIP)) s.clusterIP = o.clusterIP;
    if (clusterIPsOf(s).length === 0 && clusterIPsOf(o).length > 0) s.clusterIPs = [...clusterIPsOf(o)];
  }
  if (needsNodePort(o) && needsNodePort(s)) {
    const oldUsed = new Set(nodePortsOf(o));
    const used = new Set(nodePortsOf(s).filter((p) => oldUsed.has(p)));
    const byName = new Map<string, number>();
    for (const p of portsOf(o)) byName.set(str(p.name), typeof p.nodePort === 'number' ? p.nodePort : 0);
    for (const p of portsOf(s)) {
      if (typeof p.nodePort === 'number' && p.nodePort !== 0) continue;
      const v = byName.get(str(p.name)) ?? 0;
      if (!used.has(v) && v !== 0) p.nodePort = v;
    }
  }
  if (needsHealthCheck(o) && needsHealthCheck(s) && !s.healthCheckNodePort && o.healthCheckNodePort) {
    s.healthCheckNodePort = o.healthCheckNodePort;
  }
}

/** dropTypeDependentFields: values a type change makes meaningless (and that the user left as they were). */
export function dropTypeDependentFields(s: Spec, o: Spec): void {
  if (needsClusterIP(o) && !needsClusterIP(s)) {
    if (str(o.clusterIP) === str(s.clusterIP) && sameList(clusterIPsOf(o), clusterIPsOf(s))) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (sameList(familiesOf(o), familiesOf(s))) delete s.ipFamilies;
    if (str(o.ipFamilyPolicy) === str(s.ipFamilyPolicy)) delete s.ipFamilyPolicy;
  }
  const oldNodePorts = new Set(nodePortsOf(o));
  if (needsNodePort(o) && !needsNodePort(s) && nodePortsOf(s).every((p) => oldNodePorts.has(p))) {
    for (const p of portsOf(s)) delete p.nodePort;
  }
  if (needsHealthCheck(o) && !needsHealthCheck(s) && (o.healthCheckNodePort ?? 0) === (s.healthCheckNodePort ?? 0)) delete s.healthCheckNodePort;
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer' && typeof s.allocateLoadBalancerNodePorts === 'boolean' && s.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts) {
    delete s.allocateLoadBalancerNodePorts;
  }
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer' && (o.loadBalancerClass ?? null) === (s.loadBalancerClass ?? null)) delete s.loadBalancerClass;
  const accessible = (x: Spec): boolean => x.type === 'LoadBalancer' || x.type === 'NodePort' || (x.type === 'ClusterIP' && asArr(x.externalIPs).length > 0);
  if (accessible(o) && !accessible(s) && str(o.externalTrafficPolicy) === str(s.externalTrafficPolicy)) delete s.externalTrafficPolicy;
  // needsInternalTrafficPolicy: every type but ExternalName.
  if (o.type !== 'ExternalName' && s.type === 'ExternalName' && (o.internalTrafficPolicy ?? null) === (s.internalTrafficPolicy ?? null)) delete s.internalTrafficPolicy;
}

/**
 * The load balancer's status once the type is no longer LoadBalancer (part of kube's
 * dropTypeDependentFields, which runs in PrepareForUpdate, after the status was copied from
 * the stored object: the strategy calls it there).
 */
export function dropLoadBalancerStatus(obj: KObject, old: KObject): void {
  const s = (obj.spec ?? {}) as Spec;
  const o = (old.spec ?? {}) as Spec;
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer') obj.status = { ...(asObj(obj.status) ?? {}), loadBalancer: {} };
}

/**
 * What kube's RepairIPAddress does with an IPAddress (syncIPAddress): addresses of other
 * managers are left alone; one of the allocator's that points at something else than a
 * Service goes; one whose Service is gone goes once it is older than the 60 s a create may
 * take; one its Service does not list goes, unless it is a few seconds old and newer than the
 * Service (a create that is being reverted).
 */
export function ipRepairVerdict(ip: KObject, svc: KObject | undefined, now: number): 'keep' | 'wait' | 'delete' {
  if (ip.metadata.labels?.[MANAGED_BY_LABEL] !== MANAGED_BY_ALLOCATOR) return 'keep';
  const parent = asObj(asObj(ip.spec)?.parentRef) ?? {};
  if (str(parent.group) !== '' || parent.resource !== 'services') return 'delete';
  const created = Date.parse(ip.metadata.creationTimestamp ?? '');
  const age = now - created;
  if (!svc) return age > LEAK_GRACE_MS ? 'delete' : 'wait';
  // The service may spell its address non-standardly (`10.96.0.010`); the IPAddress is canonical.
  if (clusterIPsOf(spec(svc)).some((v) => canonicalIPString(v) === (ip.metadata.name ?? ''))) return 'keep';
  if (created > Date.parse(svc.metadata.creationTimestamp ?? '') && age < 5_000) return 'wait';
  return 'delete';
}

/** A port allocation in progress (kube's PortAllocationOperation): undone or finished with the write. */
class PortOp {
  private readonly allocatedPorts: number[] = [];
  private readonly deferred: number[] = [];

  constructor(
    private readonly pa: PortAllocator,
    private readonly dryRun: boolean,
    private readonly svc: ServiceRef,
  ) {}

  async allocate(port: number): Promise<void> {
    if (this.dryRun) {
      if (this.pa.has(port) || this.allocatedPorts.includes(port)) throw new AllocationError('provided port is already allocated', 'allocated');
      this.allocatedPorts.push(port);
      return;
    }
    if (!this.pa.inRange(port)) throw this.pa.notInRange();
    if (!(await this.pa.take(port, this.svc))) throw new AllocationError('provided port is already allocated', 'allocated');
    this.allocatedPorts.push(port);
  }

  async allocateNext(): Promise<number> {
    if (this.dryRun) {
      // kube answers a dummy port past the usual range.
      const last = this.allocatedPorts.length ? Math.max(...this.allocatedPorts) : 32768;
      this.allocatedPorts.push(last + 1);
      return last + 1;
    }
    const port = await this.pa.takeNext(this.svc);
    this.allocatedPorts.push(port);
    return port;
  }

  releaseDeferred(port: number): void {
    this.deferred.push(port);
  }

  async rollback(): Promise<void> {
    if (this.dryRun) return;
    for (const p of this.allocatedPorts) await this.pa.release(p);
  }

  async commit(): Promise<void> {
    if (this.dryRun) return;
    for (const p of this.deferred) await this.pa.release(p);
  }
}

/** The ranges kube-apiserver was started with, and their allocators. */
export class ServiceAllocators implements WriteHooks {
  readonly ips = new Map<IPFamily, IPAllocator>();
  readonly primary: IPFamily;
  readonly ports: PortAllocator;

  private timer?: NodeJS.Timeout;

  constructor(private readonly env: HookEnv) {
    const cidrs = env.options.serviceClusterIPRange.split(',').map((c) => c.trim()).filter(Boolean);
    const ipStore = (): HookStore => env.store('networking.k8s.io', 'ipaddresses');
    for (const c of cidrs) {
      const a = new IPAllocator(c, ipStore);
      this.ips.set(a.family, a);
    }
    this.primary = new IPAllocator(cidrs[0] ?? '10.96.0.0/12', ipStore).family;
    this.ports = new PortAllocator(env.options.serviceNodePortRange, env);
  }

  // ---- repair (kube's repair loops of the ClusterIP and NodePort allocators) ----

  start(): void {
    const run = (): void => {
      this.repair(Date.now()).catch((e: unknown) => this.env.log.warn({ err: (e as Error).message }, 'service allocation repair failed'));
    };
    setImmediate(run);
    this.timer = setInterval(run, REPAIR_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Brings the pools in line with the services: an address or port no service holds (a write
   * that died between allocating and storing the service) is released, an address after
   * kube's RepairIPAddress rules (ipRepairVerdict), a port once it is older than a grace
   * period, so a write in flight on another node keeps it; one a service holds but the pool
   * lost is taken again.
   */
  async repair(now: number): Promise<void> {
    const services = this.env.store('', 'services');
    const ipStore = this.env.store('networking.k8s.io', 'ipaddresses');
    const byRef = new Map<string, KObject>();
    const portOwner = new Map<number, string>();
    for (const e of services.cache.list(services.prefix)) {
      const svc = decodeObject(e.bytes);
      const s = spec(svc);
      const ref = `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}`;
      byRef.set(ref, svc);
      for (const p of nodePortsOf(s)) portOwner.set(p, ref);
      if (needsHealthCheck(s) && typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort > 0) portOwner.set(s.healthCheckNodePort, ref);
    }
    const held = new Set<string>();
    for (const e of ipStore.cache.list(ipStore.prefix)) {
      const ip = decodeObject(e.bytes);
      held.add(ip.metadata.name!);
      const parent = asObj(asObj(ip.spec)?.parentRef) ?? {};
      if (ipRepairVerdict(ip, byRef.get(`${str(parent.namespace)}/${str(parent.name)}`), now) !== 'delete') continue;
      try {
        await ipStore.delete('', ip.metadata.name!, { preconditions: { uid: ip.metadata.uid } });
        this.env.log.info({ ip: ip.metadata.name }, 'released a leaked ClusterIP');
      } catch (err) {
        // Gone or rewritten meanwhile (taken again by a write in flight): nothing to take back.
        if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
      }
    }
    for (const [ref, svc] of byRef) {
      const s = spec(svc);
      if (!needsClusterIP(s) || isHeadless(s)) continue;
      for (const ip of clusterIPsOf(s)) {
        if (held.has(ip)) continue;
        const parsed = parseIPSloppy(ip);
        const a = parsed ? this.ips.get(parsed.family) : undefined;
        if (!parsed || !a) continue;
        const [namespace, name] = ref.split('/') as [string, string];
        const taken = await a.allocate(parsed, { namespace, name }, false).then(
          () => true,
          () => false,
        );
        if (taken) this.env.log.info({ ip, service: ref }, 'took back a ClusterIP its Service holds');
      }
    }
    for (const port of this.ports.allocated()) {
      if (portOwner.has(port)) continue;
      if (now - (this.ports.takenAt(port) ?? now) < LEAK_GRACE_MS) continue;
      await this.ports.release(port);
      this.env.log.info({ port }, 'released a leaked NodePort');
    }
    for (const [port, ref] of portOwner) {
      if (this.ports.has(port) || !this.ports.inRange(port)) continue;
      const [namespace, name] = ref.split('/') as [string, string];
      await this.ports.take(port, { namespace, name });
    }
  }

  // ---- the hooks ----

  async beginCreate(svc: KObject, dryRun: boolean): Promise<WriteTxn> {
    const s = spec(svc);
    normalizeClusterIPs(s);
    this.initIPFamilyFields(svc);
    const allocatedIPs = await this.allocClusterIPs(svc, dryRun);
    const op = new PortOp(this.ports, dryRun, refOf(svc));
    try {
      if (s.type === 'NodePort' || s.type === 'LoadBalancer') await this.initNodePorts(svc, op);
      if (needsHealthCheck(s)) await this.allocHealthCheckNodePort(s, op);
    } catch (e) {
      await op.rollback();
      await this.releaseIPs(allocatedIPs, dryRun);
      throw e;
    }
    return {
      commit: async () => undefined,
      revert: async () => {
        await op.rollback();
        await this.releaseIPs(allocatedIPs, dryRun);
      },
    };
  }

  async beginUpdate(svc: KObject, oldSvc: KObject, dryRun: boolean): Promise<WriteTxn> {
    const s = spec(svc);
    const o = (asObj(oldSvc.spec) ?? {}) as Spec;
    patchAllocatedValues(s, o);
    normalizeClusterIPs(s, o);
    this.initIPFamilyFields(svc, oldSvc);
    const { allocated, release } = await this.updateClusterIPs(svc, oldSvc, dryRun);
    const op = new PortOp(this.ports, dryRun, refOf(svc));
    try {
      if ((o.type === 'NodePort' || o.type === 'LoadBalancer') && (s.type === 'ExternalName' || s.type === 'ClusterIP')) {
        for (const p of nodePortsOf(o)) op.releaseDeferred(p);
      }
      if (s.type === 'NodePort' || s.type === 'LoadBalancer') await this.updateNodePorts(svc, o, op);
      if (!needsHealthCheck(o) && needsHealthCheck(s)) await this.allocHealthCheckNodePort(s, op);
      else if (needsHealthCheck(o) && !needsHealthCheck(s) && typeof o.healthCheckNodePort === 'number') op.releaseDeferred(o.healthCheckNodePort);
    } catch (e) {
      await op.rollback();
      await this.releaseIPs(allocated, dryRun);
      throw e;
    }
    // kube's PrepareForUpdate runs after its BeginUpdate: the type-dependent fields go now.
    dropTypeDependentFields(s, o);
    return {
      commit: async () => {
        await op.commit();
        await this.releaseIPs(release, dryRun);
      },
      revert: async () => {
        await op.rollback();
        await this.releaseIPs(allocated, dryRun);
      },
    };
  }

  async afterDelete(svc: KObject): Promise<void> {
    const s = spec(svc);
    if (needsClusterIP(s) && !isHeadless(s)) {
      const byFamily = new Map<IPFamily, string>();
      for (const ip of clusterIPsOf(s)) {
        const f = familyOf(ip);
        if (f !== 'unknown') byFamily.set(f, ip);
      }
      await this.releaseIPs(byFamily, false);
    }
    for (const p of nodePortsOf(s)) await this.ports.release(p);
    if (needsHealthCheck(s) && typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort > 0) await this.ports.release(s.healthCheckNodePort);
  }

  // ---- IP families ----

  /** initIPFamilyFields: the policy and families a service gets from its fields and the cluster's ranges. */
  private initIPFamilyFields(svc: KObject, oldSvc?: KObject): void {
    const s = spec(svc);
    const o = oldSvc ? ((asObj(oldSvc.spec) ?? {}) as Spec) : undefined;
    if (s.type === 'ExternalName') return;
    if (o && this.matchingPreferDualStack(s, o)) return;
    if (s.ipFamilyPolicy === undefined || s.ipFamilyPolicy === null) {
      if (o && typeof o.ipFamilyPolicy === 'string') s.ipFamilyPolicy = o.ipFamilyPolicy;
      else if (s.clusterIP === 'None' && !asObj(s.selector)) s.ipFamilyPolicy = 'RequireDualStack';
      else s.ipFamilyPolicy = 'SingleStack';
    }
    const pre = validateClusterIPsRelatedFields(s, o);
    if (pre.length) throw invalidService(svc, pre);
    const errs: FieldError[] = [];
    const policy = str(s.ipFamilyPolicy);
    if (o) {
      if (policy === 'SingleStack') {
        if (sameList(clusterIPsOf(o), clusterIPsOf(s)) && clusterIPsOf(s).length > 1) s.clusterIPs = clusterIPsOf(s).slice(0, 1);
        if (sameList(familiesOf(o), familiesOf(s)) && familiesOf(s).length > 1) s.ipFamilies = familiesOf(s).slice(0, 1);
      } else {
        if (clusterIPsOf(s).length > 0 && clusterIPsOf(s).length < clusterIPsOf(o).length) {
          errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: policy, detail: "must be 'SingleStack' to release the secondary cluster IP" });
        }
        if (familiesOf(s).length > 0 && familiesOf(s).length < familiesOf(o).length) {
          errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: policy, detail: "must be 'SingleStack' to release the secondary IP family" });
        }
      }
    }
    if (policy === 'SingleStack') {
      if (clusterIPsOf(s).length === 2) {
        errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: policy, detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified" });
      }
      if (familiesOf(s).length === 2) {
        errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: policy, detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified" });
      }
    }
    const ips = clusterIPsOf(s);
    for (let i = 0; i < ips.length; i++) {
      if (ips[i] === 'None') break;
      const fam = familyOf(ips[i]!);
      if (i >= familiesOf(s).length) {
        if (fam === 'unknown' || !this.ips.has(fam)) {
          errs.push({ type: 'FieldValueInvalid', field: `spec.clusterIPs[${i}]`, badValue: ips, detail: `${fam} is not configured on this cluster` });
        } else {
          s.ipFamilies = [...familiesOf(s), fam];
        }
      }
    }
    if (errs.length) throw invalidService(svc, errs);
    if (s.clusterIP === 'None' && !asObj(s.selector)) {
      if (familiesOf(s).length === 0) s.ipFamilies = [this.primary];
      const fams = familiesOf(s);
      if (fams.length < 2 && policy !== 'SingleStack') s.ipFamilies = [fams[0]!, otherFamily(fams[0] as IPFamily)];
      return;
    }
    if (policy === 'RequireDualStack' && this.ips.size < 2) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: policy, detail: 'this cluster is not configured for dual-stack services' });
    }
    familiesOf(s).forEach((f, i) => {
      if (!this.ips.has(f as IPFamily)) errs.push({ type: 'FieldValueInvalid', field: `spec.ipFamilies[${i}]`, badValue: f, detail: 'not configured on this cluster' });
    });
    if (errs.length) throw invalidService(svc, errs);
    if (familiesOf(s).length === 0) s.ipFamilies = [this.primary];
    const fams = familiesOf(s);
    if (policy !== 'SingleStack' && fams.length === 1 && this.ips.size === 2) s.ipFamilies = [fams[0]!, otherFamily(fams[0] as IPFamily)];
  }

  private matchingPreferDualStack(s: Spec, o: Spec): boolean {
    if (s.ipFamilyPolicy === undefined || s.ipFamilyPolicy === null) return false;
    if (o.type !== s.type) return false;
    if (s.type !== 'ClusterIP' && s.type !== 'NodePort' && s.type !== 'LoadBalancer') return false;
    if (s.ipFamilyPolicy !== 'PreferDualStack') return false;
    if (o.ipFamilyPolicy !== undefined && o.ipFamilyPolicy !== null && o.ipFamilyPolicy !== 'PreferDualStack') return false;
    return sameList(clusterIPsOf(o), clusterIPsOf(s)) && sameList(familiesOf(o), familiesOf(s));
  }

  // ---- ClusterIPs ----

  /** allocClusterIPs: one address per family the service asks for (a given one, or the next free). */
  private async allocClusterIPs(svc: KObject, dryRun: boolean): Promise<Map<IPFamily, string>> {
    const s = spec(svc);
    if (s.type === 'ExternalName' || isHeadless(s)) return new Map();
    const ips = clusterIPsOf(s);
    const toAlloc = new Map<IPFamily, string>();
    familiesOf(s).forEach((f, i) => {
      if (i > ips.length - 1) ips.push('');
      toAlloc.set(f as IPFamily, ips[i]!);
    });
    s.clusterIPs = ips;
    const allocated = await this.allocIPs(svc, toAlloc, dryRun);
    familiesOf(s).forEach((f, i) => {
      const ip = allocated.get(f as IPFamily);
      if (ip === undefined) return;
      ips[i] = ip;
      if (i === 0) s.clusterIP = ip;
    });
    return allocated;
  }

  private async allocIPs(svc: KObject, toAlloc: Map<IPFamily, string>, dryRun: boolean): Promise<Map<IPFamily, string>> {
    const allocated = new Map<IPFamily, string>();
    try {
      for (const [family, ip] of toAlloc) {
        const a = this.ips.get(family)!;
        if (!ip) {
          try {
            allocated.set(family, ipString(await a.allocateNext(refOf(svc), dryRun)));
          } catch (e) {
            if (e instanceof AllocationError) throw internalError(`failed to allocate a serviceIP: ${e.message}`);
            throw e;
          }
          continue;
        }
        const parsed = parseIPSloppy(ip);
        if (!parsed) throw internalError(`failed to parse service IP ${JSON.stringify(ip)}`);
        try {
          await a.allocate(parsed, refOf(svc), dryRun);
        } catch (e) {
          if (!(e instanceof AllocationError)) throw e;
          throw invalidService(svc, [
            { type: 'FieldValueInvalid', field: 'spec.clusterIPs', badValue: clusterIPsOf(spec(svc)), detail: `failed to allocate IP ${ip}: ${e.message}` },
          ]);
        }
        allocated.set(family, ip);
      }
    } catch (e) {
      await this.releaseIPs(allocated, dryRun);
      throw e;
    }
    return allocated;
  }

  private async releaseIPs(ips: Map<IPFamily, string>, dryRun: boolean): Promise<void> {
    if (dryRun) return;
    for (const [family, ip] of ips) {
      const a = this.ips.get(family);
      // A family the cluster no longer serves has nothing to give back.
      if (a) await a.release(ip);
    }
  }

  /** updateClusterIPs: allocations and releases a type change or a dual-stack change brings. */
  private async updateClusterIPs(svc: KObject, oldSvc: KObject, dryRun: boolean): Promise<{ allocated: Map<IPFamily, string>; release: Map<IPFamily, string> }> {
    const s = spec(svc);
    const o = (asObj(oldSvc.spec) ?? {}) as Spec;
    const none = { allocated: new Map<IPFamily, string>(), release: new Map<IPFamily, string>() };
    if (this.matchingPreferDualStack(s, o)) return none;
    if (o.type === 'ExternalName' && s.type !== 'ExternalName') return { allocated: await this.allocClusterIPs(svc, dryRun), release: new Map() };
    if (isHeadless(o)) return none;
    if (o.type !== 'ExternalName' && s.type === 'ExternalName') {
      const release = new Map<IPFamily, string>();
      familiesOf(o).forEach((f, i) => {
        const ip = clusterIPsOf(o)[i];
        if (ip) release.set(f as IPFamily, ip);
      });
      return { allocated: new Map(), release };
    }
    const upgraded = familiesOf(o).length === 1 && familiesOf(s).length === 2;
    const downgraded = familiesOf(o).length === 2 && familiesOf(s).length === 1;
    if (upgraded) {
      const ips = clusterIPsOf(s);
      if (ips.length < 2) ips.push('');
      s.clusterIPs = ips;
      const fam = familiesOf(s)[1] as IPFamily;
      const allocated = await this.allocIPs(svc, new Map([[fam, ips[1]!]]), dryRun);
      ips[1] = allocated.get(fam)!;
      return { allocated, release: new Map() };
    }
    if (downgraded) return { allocated: new Map(), release: new Map([[familiesOf(o)[1] as IPFamily, clusterIPsOf(o)[1]!]]) };
    return none;
  }

  // ---- NodePorts ----

  /** initNodePorts: a node port for every service port (one per port number), given or next free. */
  private async initNodePorts(svc: KObject, op: PortOp): Promise<void> {
    const s = spec(svc);
    const ports = portsOf(s);
    const byPort = new Map<number, number>();
    const allocate = shouldAllocateNodePorts(s);
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i]!;
      const nodePort = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (nodePort === 0 && !allocate) continue;
      const portNum = typeof p.port === 'number' ? p.port : 0;
      const done = byPort.get(portNum) ?? 0;
      if (done === 0) {
        // A port number may appear twice (TCP and UDP): a node port given on any of them counts.
        const requested = ports.find((q) => q.port === portNum && typeof q.nodePort === 'number' && q.nodePort !== 0)?.nodePort as number | undefined;
        if (requested) {
          await this.allocPort(svc, op, requested, `spec.ports[${i}].nodePort`);
          p.nodePort = requested;
          byPort.set(portNum, requested);
        } else {
          const next = await this.allocNextPort(op);
          p.nodePort = next;
          byPort.set(portNum, next);
        }
      } else if (nodePort !== done) {
        if (nodePort === 0) p.nodePort = done;
        else await this.allocPort(svc, op, nodePort, `spec.ports[${i}].nodePort`);
      }
    }
  }

  /** updateNodePorts: new node ports allocated, dropped ones released once the update commits. */
  private async updateNodePorts(svc: KObject, o: Spec, op: PortOp): Promise<void> {
    const s = spec(svc);
    const oldPorts = nodePortsOf(o);
    const taken = new Set<number>();
    const seen: string[] = [];
    const ports = portsOf(s);
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i]!;
      const nodePort = typeof p.nodePort === 'number' ? p.nodePort : 0;
      if (nodePort === 0 && !shouldAllocateNodePorts(s)) continue;
      let np = nodePort;
      if (np !== 0) {
        if (!oldPorts.includes(np) && !taken.has(np)) {
          await this.allocPort(svc, op, np, `spec.ports[${i}].nodePort`);
          taken.add(np);
        }
      } else {
        np = await this.allocNextPort(op);
        p.nodePort = np;
      }
      const k = `${str(p.protocol)}/${np}`;
      if (seen.includes(k)) throw internalError(`duplicate nodePort: {${str(p.protocol)} ${np}}`);
      seen.push(k);
    }
    const now = nodePortsOf(s);
    for (const p of oldPorts) if (!now.includes(p)) op.releaseDeferred(p);
  }

  private async allocPort(svc: KObject, op: PortOp, port: number, field: string): Promise<void> {
    try {
      await op.allocate(port);
    } catch (e) {
      if (!(e instanceof AllocationError)) throw e;
      throw invalidService(svc, [{ type: 'FieldValueInvalid', field, badValue: port, detail: e.message }]);
    }
  }

  private async allocNextPort(op: PortOp): Promise<number> {
    try {
      return await op.allocateNext();
    } catch (e) {
      if (e instanceof AllocationError) throw internalError(`failed to allocate a nodePort: ${e.message}`);
      throw e;
    }
  }

  private async allocHealthCheckNodePort(s: Spec, op: PortOp): Promise<void> {
    const requested = typeof s.healthCheckNodePort === 'number' ? s.healthCheckNodePort : 0;
    try {
      if (requested !== 0) await op.allocate(requested);
      else s.healthCheckNodePort = await op.allocateNext();
    } catch (e) {
      if (!(e instanceof AllocationError)) throw e;
      if (requested !== 0) throw internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${e.message}`);
      throw internalError(`failed to allocate a HealthCheck NodePort 0: ${e.message}`);
    }
  }
}
