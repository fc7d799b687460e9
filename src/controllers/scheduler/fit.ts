// Whether a pod fits a node: kube-scheduler's filter plugins in their order (NodeUnschedulable,
// NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit), each answering kube's
// reasons, and whether a failure is one preemption could resolve (kube's Unschedulable) or not
// (UnschedulableAndUnresolvable). Pure functions over decoded objects.

import { asArr, asObj, str, type Obj } from '../../machinery/json-view.js';
import { qty } from '../../schema/quantity.js';
import { hostPorts, portsConflict } from '../../machinery/host-ports.js';

export interface Failure {
  reasons: string[];
  /** Preemption could make room (kube's Unschedulable, as opposed to ...AndUnresolvable). */
  resolvable: boolean;
}

/** What a node already runs, as the scheduler's cache counts it (assumed pods included). */
export interface NodeUsage {
  pods: number;
  requested: Map<string, number>;
  /** hostIP/protocol/port in use. */
  ports: Set<string>;
}

export const emptyUsage = (): NodeUsage => ({ pods: 0, requested: new Map(), ports: new Set() });

const spec = (o: Obj): Obj => asObj(o.spec) ?? {};
const list = (v: unknown): Obj[] => asArr(v).map(asObj).filter((x): x is Obj => !!x);

// ---- taints and tolerations (v1 helpers) ----

export function tolerates(toleration: Obj, taint: Obj): boolean {
  const effect = str(toleration.effect);
  if (effect && effect !== str(taint.effect)) return false;
  const key = str(toleration.key);
  const op = str(toleration.operator) || 'Equal';
  if (key && key !== str(taint.key)) return false;
  if (!key && op !== 'Exists') return false;
  if (op === 'Exists') return true;
  return str(toleration.value) === str(taint.value);
}

const toleratedBy = (tolerations: Obj[], taint: Obj): boolean => tolerations.some((t) => tolerates(t, taint));

// ---- node selectors ----

function requirementMatches(r: Obj, value: string | undefined): boolean {
  const values = asArr(r.values).map(str);
  switch (str(r.operator)) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !/^-?[0-9]+$/.test(value) || !/^-?[0-9]+$/.test(values[0] ?? '')) return false;
      const a = Number(value);
      const b = Number(values[0]);
      return str(r.operator) === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A NodeSelectorTerm: every label and field expression holds (an empty term matches nothing). */
function termMatches(term: Obj, node: Obj): boolean {
  const exprs = list(term.matchExpressions);
  const fields = list(term.matchFields);
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = (asObj(asObj(node.metadata)?.labels) ?? {}) as Record<string, string>;
  for (const e of exprs) if (!requirementMatches(e, Object.hasOwn(labels, str(e.key)) ? labels[str(e.key)] : undefined)) return false;
  for (const f of fields) {
    if (str(f.key) !== 'metadata.name') return false;
    if (!requirementMatches(f, str(asObj(node.metadata)?.name))) return false;
  }
  return true;
}

/** A NodeSelector: any of its terms. */
export function nodeSelectorMatches(selector: Obj | undefined, node: Obj): boolean {
  if (!selector) return true;
  return list(selector.nodeSelectorTerms).some((t) => termMatches(t, node));
}

// ---- resources ----

/** kube's computePodResourceRequest: containers and sidecars add up, plain init containers count at their peak. */
export function podRequests(pod: Obj): Map<string, number> {
  const s = spec(pod);
  const sum = new Map<string, number>();
  const add = (into: Map<string, number>, c: Obj): void => {
    for (const [k, v] of Object.entries(asObj(asObj(c.resources)?.requests) ?? {})) {
      const q = qty(v);
      if (q) into.set(k, (into.get(k) ?? 0) + q.value);
    }
  };
  for (const c of list(s.containers)) add(sum, c);
  let sidecars = new Map<string, number>();
  const initPeak = new Map<string, number>();
  for (const c of list(s.initContainers)) {
    if (c.restartPolicy === 'Always') {
      const next = new Map(sidecars);
      add(next, c);
      sidecars = next;
      add(sum, c);
      continue;
    }
    const one = new Map<string, number>(sidecars);
    add(one, c);
    for (const [k, v] of one) initPeak.set(k, Math.max(initPeak.get(k) ?? 0, v));
  }
  for (const [k, v] of initPeak) sum.set(k, Math.max(sum.get(k) ?? 0, v));
  for (const [k, v] of Object.entries(asObj(s.overhead) ?? {})) {
    const q = qty(v);
    if (q) sum.set(k, (sum.get(k) ?? 0) + q.value);
  }
  return sum;
}

const allocatable = (node: Obj, name: string): number => qty(asObj(asObj(node.status)?.allocatable)?.[name])?.value ?? 0;

// ---- the filters, in kube's order ----

/** The first filter that rejects `pod` on `node`, or undefined when it fits. */
export function filterNode(pod: Obj, node: Obj, usage: NodeUsage): Failure | undefined {
  const s = spec(pod);
  const ns = spec(node);
  const tolerations = list(s.tolerations);
  const nodeName = str(asObj(node.metadata)?.name);

  // NodeUnschedulable.
  if (ns.unschedulable === true && !toleratedBy(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })) {
    return { reasons: ['node(s) were unschedulable'], resolvable: false };
  }
  // NodeName.
  if (str(s.nodeName) && str(s.nodeName) !== nodeName) return { reasons: ["node(s) didn't match the requested node name"], resolvable: false };
  // TaintToleration: the first NoSchedule or NoExecute taint nobody tolerates.
  for (const t of list(ns.taints)) {
    if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
    if (!toleratedBy(tolerations, t)) return { reasons: [`node(s) had untolerated taint {${str(t.key)}: ${str(t.value)}}`], resolvable: false };
  }
  // NodeAffinity: nodeSelector and the required terms.
  const labels = (asObj(asObj(node.metadata)?.labels) ?? {}) as Record<string, string>;
  const selector = asObj(s.nodeSelector) ?? {};
  const selectorOK = Object.entries(selector).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
  const required = asObj(asObj(asObj(s.affinity)?.nodeAffinity)?.requiredDuringSchedulingIgnoredDuringExecution);
  if (!selectorOK || !nodeSelectorMatches(required, node)) return { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false };
  // NodePorts.
  if (portsConflict(hostPorts(pod), usage.ports)) return { reasons: ["node(s) didn't have free ports for the requested pod ports"], resolvable: true };
  // NodeResourcesFit.
  const reasons: string[] = [];
  if (usage.pods + 1 > allocatable(node, 'pods')) reasons.push('Too many pods');
  for (const [name, want] of podRequests(pod)) {
    if (want <= 0) continue;
    const free = allocatable(node, name) - (usage.requested.get(name) ?? 0);
    if (want > free + 1e-9) reasons.push(`Insufficient ${name}`);
  }
  if (reasons.length) return { reasons, resolvable: true };
  return undefined;
}

/** The FitError message kube-scheduler writes, with DefaultPreemption's part. */
export function fitErrorMessage(total: number, failures: Failure[], preFilter: string | undefined, preemptionNever: boolean): string {
  let msg = `0/${total} nodes are available:`;
  if (preFilter) msg += ` ${preFilter}.`;
  else {
    const hist = new Map<string, number>();
    for (const f of failures) for (const r of f.reasons) hist.set(r, (hist.get(r) ?? 0) + 1);
    const parts = [...hist].map(([r, n]) => `${n} ${r}`).sort();
    if (parts.length) msg += ` ${parts.join(', ')}.`;
  }
  if (preemptionNever) return `${msg} preemption: not eligible due to preemptionPolicy=Never.`;
  // kapi does not preempt: every node preemption could help has no victims to offer.
  const pre = new Map<string, number>();
  for (const f of preFilter ? failures.map(() => ({ reasons: [], resolvable: false })) : failures) {
    const r = f.resolvable ? 'No preemption victims found for incoming pod' : 'Preemption is not helpful for scheduling';
    pre.set(r, (pre.get(r) ?? 0) + 1);
  }
  const parts = [...pre].map(([r, n]) => `${n} ${r}`).sort();
  return `${msg} preemption: 0/${total} nodes are available: ${parts.join(', ')}.`;
}
