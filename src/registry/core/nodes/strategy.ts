// Nodes (core/v1, cluster-scoped), after pkg/registry/core/node and ValidateNode(Update): a
// node is created with its status (a kubelet registers itself that way), later updates of the
// main resource keep the status and /status keeps the spec. New nodes get the not-ready taint,
// as kube's TaintNodesByCondition admission plugin adds it.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../../machinery/validation/field.js';
import { validateLegacyCIDR } from '../../../machinery/validation/ip.js';
import { isDualStackCIDRs } from '../../../machinery/net/ip.js';
import { asArr, asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { GoStringer } from '../../../machinery/validation/field.js';
import { copyQuantityList, listQuantityGoSharpV, qty } from '../../../schema/quantity.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;
const status = (o: KObject): Obj => (o.status ??= {}) as Obj;

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
// In kube's order (its message lists them unsorted).
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

/** helper.IsIntegerResourceName: pods, and extended resources (outside kubernetes.io, not quota requests). */
function isIntegerResource(name: string): boolean {
  if (name === 'pods') return true;
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return !native && !name.startsWith('requests.');
}

/** ValidateResourceQuantityValue over a ResourceList, at `status.<list>.<name>` (kube's Child, not Key). */
function validateResourceList(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const l = asObj(list) ?? {};
  for (const [k, v] of Object.entries(l)) {
    const q = qty(v);
    if (!q) continue;
    const p = `${path}.${k}`;
    if (q.value < 0) errs.push(invalid(p, q.canonical, 'must be greater than or equal to 0'));
    if (isIntegerResource(k) && Math.round(q.value * 1000) % 1000 !== 0) errs.push(invalid(p, new GoStringer(listQuantityGoSharpV(l, k) ?? q.canonical), 'must be an integer'));
  }
  return errs;
}

/** Go's %#v of a core.Taint, as Duplicate prints it. */
function taintGo(t: Obj): GoStringer {
  const added = t.timeAdded ? `time.Date(${JSON.stringify(str(t.timeAdded))})` : '<nil>';
  return new GoStringer(`core.Taint{Key:${JSON.stringify(str(t.key))}, Value:${JSON.stringify(str(t.value))}, Effect:${JSON.stringify(str(t.effect))}, TimeAdded:${added}}`);
}

/** validateNodeTaints: key and value as labels, a known effect, unique by key and effect. */
function validateTaints(taints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  asArr(taints).forEach((raw, i) => {
    const t = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const key = str(t.key);
    for (const m of isQualifiedName(key)) errs.push(invalid(`${p}.key`, key, m));
    const value = str(t.value);
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length) errs.push(invalid(`${p}.value`, value, valueErrs.join(';')));
    const effect = str(t.effect);
    if (!effect) errs.push(required(`${p}.effect`));
    else if (!TAINT_EFFECTS.includes(effect)) errs.push(notSupported(`${p}.effect`, effect, TAINT_EFFECTS));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      errs.push({ ...duplicate(p, taintGo(t)), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    keys.add(key);
    seen.set(effect, keys);
  });
  return errs;
}

function validate(obj: KObject): FieldError[] {
  const s = spec(obj);
  const st = (obj.status ?? {}) as Obj;
  const errs: FieldError[] = [];
  // kube reports spec.taints under "metadata.taints".
  if (asArr(s.taints).length > 0) errs.push(...validateTaints(s.taints, 'metadata.taints'));
  errs.push(...validateResourceList(st.capacity, 'status.capacity'));
  errs.push(...validateResourceList(st.allocatable, 'status.allocatable'));
  const swap = asObj(asObj(asObj(st.nodeInfo)?.swap));
  if (swap && typeof swap.capacity === 'number' && swap.capacity < 0) {
    errs.push(invalid('nodeSwapStatus.capacity', swap.capacity, 'must be greater than or equal to 0'));
  }
  const cidrs = asArr(s.podCIDRs).map(str);
  if (cidrs.length > 0) {
    cidrs.forEach((c, i) => errs.push(...validateLegacyCIDR(c, `spec.podCIDRs[${i}]`)));
    if (cidrs.length > 1 && (!isDualStackCIDRs(cidrs) || cidrs.length > 2)) {
      errs.push(invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
    }
  }
  return errs;
}

const CIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid';

function validateConfigSource(source: unknown, path: string, inStatus: boolean): FieldError[] {
  const src = asObj(source) ?? {};
  const errs: FieldError[] = [];
  const cm = asObj(src.configMap);
  if (cm) {
    const p = `${path}.configMap`;
    if (inStatus) {
      if (!str(cm.uid)) errs.push(required(`${p}.uid`, 'uid must be set in status'));
      if (!str(cm.resourceVersion)) errs.push(required(`${p}.resourceVersion`, 'resourceVersion must be set in status'));
    } else {
      if (str(cm.uid)) errs.push(forbidden(`${p}.uid`, 'uid must not be set in spec'));
      if (str(cm.resourceVersion)) errs.push(forbidden(`${p}.resourceVersion`, 'resourceVersion must not be set in spec'));
    }
    if (!str(cm.namespace)) errs.push(required(`${p}.namespace`, 'namespace must be set'));
    if (!str(cm.name)) errs.push(required(`${p}.name`, 'name must be set'));
    if (!str(cm.kubeletConfigKey)) errs.push(required(`${p}.kubeletConfigKey`, 'kubeletConfigKey must be set'));
  } else {
    errs.push(invalid(path, new GoStringer('&core.NodeConfigSource{ConfigMap:(*core.ConfigMapNodeConfigSource)(nil)}'), 'exactly one reference subfield must be non-nil'));
  }
  return errs;
}

/** ValidateNodeUpdate (after ValidateNode, as the strategy runs both). */
function validateNodeUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = spec(obj);
  const o = (old.spec ?? {}) as Obj;
  const st = (obj.status ?? {}) as Obj;
  const errs: FieldError[] = [];
  errs.push(...validateResourceList(st.capacity, 'status.capacity'));
  errs.push(...validateResourceList(st.allocatable, 'status.allocatable'));
  const seenAddresses: unknown[] = [];
  asArr(st.addresses).forEach((a, i) => {
    if (seenAddresses.some((x) => deepEqual(x, a))) {
      const ad = asObj(a) ?? {};
      errs.push(duplicate(`status.addresses[${i}]`, new GoStringer(`core.NodeAddress{Type:${JSON.stringify(str(ad.type))}, Address:${JSON.stringify(str(ad.address))}}`)));
    }
    seenAddresses.push(a);
  });
  const oldCidrs = asArr(o.podCIDRs);
  if (oldCidrs.length > 0) {
    const cidrs = asArr(s.podCIDRs);
    if (oldCidrs.length !== cidrs.length) errs.push(forbidden('spec.podCIDRs', CIDR_CHANGE));
    else oldCidrs.forEach((c, i) => c !== cidrs[i] && errs.push(forbidden('spec.podCIDRs', CIDR_CHANGE)));
  }
  if (str(o.providerID) && o.providerID !== s.providerID) {
    errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (s.configSource !== undefined && s.configSource !== null) errs.push(...validateConfigSource(s.configSource, 'spec.configSource', false));
  const cfg = asObj(st.config);
  if (cfg) {
    for (const k of ['assigned', 'active', 'lastKnownGood']) {
      if (cfg[k] !== undefined && cfg[k] !== null) errs.push(...validateConfigSource(cfg[k], `status.config.${k}`, true));
    }
  }
  if (asArr(s.taints).length > 0) errs.push(...validateTaints(s.taints, 'metadata.taints'));
  if (str(s.externalID) !== str(o.externalID)) errs.push(forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

/**
 * SetDefaults_NodeStatus (allocatable is the capacity when only the capacity is given), and
 * the v1 conversion of podCIDR and podCIDRs: the singular field wins when both are set and
 * differ, and always reads back as the first of the list.
 */
function defaultNode(obj: KObject): void {
  const st = asObj(obj.status);
  if (st && st.allocatable === undefined && asObj(st.capacity)) st.allocatable = copyQuantityList(asObj(st.capacity)!);
  const s = asObj(obj.spec);
  if (!s) return;
  const cidr = str(s.podCIDR);
  const cidrs = asArr(s.podCIDRs);
  if (cidr && (cidrs.length === 0 || cidrs[0] !== cidr)) s.podCIDRs = [cidr];
  const list = asArr(s.podCIDRs);
  if (list.length > 0) s.podCIDR = list[0];
  else delete s.podCIDR;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  applyDefaults: defaultNode,
  prepareForCreate(obj) {
    delete spec(obj).configSource;
    const st = asObj(obj.status);
    if (st) delete st.config;
  },
  prepareForUpdate(obj, old) {
    obj.status = old.status;
    if (!asObj(old.spec)?.configSource) delete spec(obj).configSource;
  },
  validate,
  validateUpdate: (obj, old) => [...validate(obj), ...validateNodeUpdate(obj, old)],
};

const statusStrategy: Strategy = {
  ...strategy,
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
    if (!asObj(old.status)?.config) delete status(obj).config;
  },
  validateUpdate: validateNodeUpdate,
};

/** The TaintNodesByCondition admission plugin: a new node starts with the not-ready taint. */
function addNotReadyTaint(obj: KObject): void {
  const s = spec(obj);
  const taints = asArr(s.taints) as Obj[];
  if (taints.some((t) => t.key === NOT_READY_TAINT && t.effect === 'NoSchedule')) return;
  s.taints = [...taints, { key: NOT_READY_TAINT, effect: 'NoSchedule' }];
}

function nodeRoles(obj: KObject): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj.metadata.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX)) {
      const role = k.slice(ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === ROLE_LABEL && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

function addressOf(st: Obj, type: string): string {
  const a = asArr(st.addresses).map((x) => asObj(x) ?? {}).find((x) => x.type === type);
  return a ? str(a.address) : '<none>';
}

function cells(obj: KObject, now: Date): unknown[] {
  const s = (obj.spec ?? {}) as Obj;
  const st = (obj.status ?? {}) as Obj;
  const ready = asArr(st.conditions).map((c) => asObj(c) ?? {}).find((c) => c.type === 'Ready');
  const states: string[] = [];
  if (ready) states.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (states.length === 0) states.push('Unknown');
  if (s.unschedulable === true) states.push('SchedulingDisabled');
  const roles = nodeRoles(obj).join(',') || '<none>';
  const info = asObj(st.nodeInfo) ?? {};
  const orUnknown = (v: unknown): string => str(v) || '<unknown>';
  return [
    obj.metadata.name,
    states.join(','),
    roles,
    age(obj, now),
    str(info.kubeletVersion),
    addressOf(st, 'InternalIP'),
    addressOf(st, 'ExternalIP'),
    orUnknown(info.osImage),
    orUnknown(info.kernelVersion),
    orUnknown(info.containerRuntimeVersion),
  ];
}

const ADDRESSES_DESCRIPTION =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

export const nodes: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'nodes',
  kind: 'Node',
  listKind: 'NodeList',
  singularName: 'node',
  shortNames: ['no'],
  categories: [],
  namespaced: false,
  strategy,
  subresources: { status: statusStrategy },
  nameValidator: nameIsDNSSubdomain,
  // kube's node storage answers a DELETE with a Status.
  returnDeletedObject: false,
  kubeStoragePath: 'minions',
  fieldLabels: { 'spec.unschedulable': (obj) => String(asObj(obj.spec)?.unschedulable === true) },
  admission: {
    // TaintNodesByCondition: a node is created not ready.
    admit: (obj, attrs) => {
      if (attrs.operation === 'CREATE' && attrs.subresource === '') addNotReadyTaint(obj);
    },
  },
  table: {
    columns: [
      NAME_COLUMN,
      column('Status', 'string', 'The status of the node'),
      column('Roles', 'string', 'The roles of the node'),
      AGE_COLUMN,
      column('Version', 'string', 'Kubelet Version reported by the node.'),
      column('Internal-IP', 'string', ADDRESSES_DESCRIPTION, 1),
      column('External-IP', 'string', ADDRESSES_DESCRIPTION, 1),
      column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
      column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
      column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
    ],
    cells,
  },
};
