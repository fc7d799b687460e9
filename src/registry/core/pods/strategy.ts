// Pods (core/v1), after pkg/registry/core/pod (strategy.go, storage.go), the v1 pod
// defaults (pkg/apis/core/v1/defaults.go), the Priority and DefaultTolerationSeconds
// admission plugins, and the pod printer (pkg/printers/internalversion/printers.go).

import { specDiff } from '../../generic/spec-diff.js';
import { forbidden, type FieldError } from '../../../machinery/errors.js';
import type { AdmissionContext, ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, age, column, humanDuration } from '../../printers.js';
import { defaultPodSpec } from '../pod-defaults.js';
import {
  DELETION_COST,
  VOLUME_SOURCE_KEYS,
  dropDisabledPodSpecFields,
  canonicalQty,
  computePodQOS,
  isIP,
  validateContainersOnlyForPod,
  validatePodSpec,
  validatePodSpecificAnnotationUpdates,
  validatePodSpecificAnnotations,
  validDeletionCost,
} from '../pod-validation.js';
import { asArr, asObj, deepEqual, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { podBinding } from './binding.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;
const status = (o: KObject): Obj => (o.status ??= {}) as Obj;

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

const containersOf = (s: Obj): Obj[] => CONTAINER_LISTS.flatMap((k) => asArr(s[k]).filter(isObj));

// ---- defaults ----

function defaultProbe(p: unknown): void {
  const probe = asObj(p);
  if (!probe) return;
  probe.timeoutSeconds ||= 1;
  probe.periodSeconds ||= 10;
  probe.successThreshold ||= 1;
  probe.failureThreshold ||= 3;
  defaultHandler(probe);
}

function defaultHandler(h: Obj): void {
  const http = asObj(h.httpGet);
  if (http) {
    if (!http.path) http.path = '/';
    if (!http.scheme) http.scheme = 'HTTP';
  }
  const grpc = asObj(h.grpc);
  if (grpc && grpc.service === undefined) grpc.service = '';
}

function defaultFieldRef(ref: unknown): void {
  const r = asObj(ref);
  if (r && !r.apiVersion) r.apiVersion = 'v1';
}

function canonicalizeResourceList(list: unknown): void {
  const l = asObj(list);
  if (!l) return;
  for (const k of Object.keys(l)) l[k] = canonicalQty(l[k]);
}

function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCE_KEYS.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const src = asObj(v[k]);
    if (src && src.defaultMode === undefined) src.defaultMode = 0o644;
  }
  for (const item of asArr(asObj(v.downwardAPI)?.items)) defaultFieldRef(asObj(item)?.fieldRef);
  for (const s of asArr(asObj(v.projected)?.sources)) {
    const src = asObj(s) ?? {};
    const sat = asObj(src.serviceAccountToken);
    if (sat && sat.expirationSeconds === undefined) sat.expirationSeconds = 3600;
    for (const item of asArr(asObj(src.downwardAPI)?.items)) defaultFieldRef(asObj(item)?.fieldRef);
  }
  const hp = asObj(v.hostPath);
  if (hp && hp.type === undefined) hp.type = '';
  const iscsi = asObj(v.iscsi);
  if (iscsi && iscsi.iscsiInterface === undefined) iscsi.iscsiInterface = 'default';
  const rbd = asObj(v.rbd);
  if (rbd) {
    rbd.pool ??= 'rbd';
    rbd.user ??= 'admin';
    rbd.keyring ??= '/etc/ceph/keyring';
  }
  const az = asObj(v.azureDisk);
  if (az) {
    az.cachingMode ??= 'ReadWrite';
    az.fsType ??= 'ext4';
    az.readOnly ??= false;
    az.kind ??= 'Shared';
  }
  const sio = asObj(v.scaleIO);
  if (sio) {
    sio.storageMode ??= 'ThinProvisioned';
    sio.fsType ??= 'xfs';
  }
  const claimSpec = asObj(asObj(asObj(v.ephemeral)?.volumeClaimTemplate)?.spec);
  if (claimSpec) {
    claimSpec.volumeMode ??= 'Filesystem';
    canonicalizeResourceList(asObj(claimSpec.resources)?.requests);
    canonicalizeResourceList(asObj(claimSpec.resources)?.limits);
  }
}

/**
 * The v1 defaults kapi's pod-defaults.ts does not apply yet, for any pod spec (pods and
 * templates): probe and handler defaults, downward API apiVersion, volume sources
 * (a volume without a source is an emptyDir), and canonical quantities.
 */
export function applyPodSpecExtraDefaults(s: Obj): void {
  for (const c of containersOf(s)) {
    defaultProbe(c.livenessProbe);
    defaultProbe(c.readinessProbe);
    defaultProbe(c.startupProbe);
    const lc = asObj(c.lifecycle);
    if (lc) for (const k of ['postStart', 'preStop']) if (isObj(lc[k])) defaultHandler(lc[k] as Obj);
    for (const e of asArr(c.env)) defaultFieldRef(asObj(asObj(asObj(e)?.valueFrom))?.fieldRef);
    const res = asObj(c.resources);
    if (res) {
      canonicalizeResourceList(res.limits);
      canonicalizeResourceList(res.requests);
    }
  }
  for (const v of asArr(s.volumes)) if (isObj(v)) defaultVolume(v);
  canonicalizeResourceList(s.overhead);
}

/** SetDefaults_Pod: requests default to limits; service links on; host ports follow hostNetwork. */
function applyPodOnlyDefaults(s: Obj): void {
  for (const list of ['containers', 'initContainers'] as const) {
    for (const c of asArr(s[list]).filter(isObj)) {
      const res = asObj(c.resources);
      const limits = asObj(res?.limits);
      if (res && limits) {
        const requests = (res.requests = asObj(res.requests) ?? {});
        for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) requests[k] = v;
      }
      if (s.hostNetwork === true) {
        for (const p of asArr(c.ports).filter(isObj)) if (!p.hostPort) p.hostPort = p.containerPort;
      }
    }
  }
  if (s.enableServiceLinks === undefined || s.enableServiceLinks === null) s.enableServiceLinks = true;
}

// ---- admission effects ----

const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** The DefaultTolerationSeconds admission plugin (create and update). */
function addDefaultTolerations(s: Obj): void {
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
async function admitPriority(obj: KObject, ctx: AdmissionContext): Promise<void> {
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

// ---- disabled features in 1.33 ----

/** PodObservedGenerationTracking is alpha in 1.33: status.observedGeneration is dropped. */
function dropDisabledStatusFields(st: Obj, old?: Obj): void {
  const oldUses = old !== undefined && (old.observedGeneration !== undefined || asArr(old.conditions).some((c) => asObj(c)?.observedGeneration !== undefined));
  if (oldUses) return;
  delete st.observedGeneration;
  for (const c of asArr(st.conditions).filter(isObj)) delete c.observedGeneration;
}

// ---- validation ----

function validateCreate(obj: KObject): FieldError[] {
  const s = spec(obj);
  const errs = validatePodMetadataAndSpec(obj);
  if (asArr(s.ephemeralContainers).length > 0) errs.push({ type: 'FieldValueForbidden', field: 'spec.ephemeralContainers', detail: 'cannot be set on create' });
  if (str(s.nodeName) && asArr(s.schedulingGates).length > 0) {
    errs.push({ type: 'FieldValueForbidden', field: 'spec.nodeName', detail: 'cannot be set until all schedulingGates have been cleared' });
  }
  return errs;
}

/** validatePodMetadataAndSpec without ValidateObjectMeta (the store runs that first). */
function validatePodMetadataAndSpec(obj: KObject, opts: { allowInvalidPodDeletionCost?: boolean } = {}): FieldError[] {
  const s = spec(obj);
  const errs = validatePodSpecificAnnotations(obj.metadata.annotations, s, 'metadata.annotations', opts);
  errs.push(...validatePodSpec(s, 'spec', { resourceIsPod: true, podName: obj.metadata.name }));
  if (!str(s.serviceAccountName)) {
    asArr(s.volumes).forEach((v, vi) => {
      asArr(asObj(asObj(v)?.projected)?.sources).forEach((src, si) => {
        if (asObj(src)?.serviceAccountToken !== undefined) {
          errs.push({
            type: 'FieldValueForbidden',
            field: `spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`,
            detail: 'must not be specified when serviceAccountName is not set',
          });
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(s.containers, 'spec.containers'));
  errs.push(...validateContainersOnlyForPod(s.initContainers, 'spec.initContainers'));
  return errs;
}

export const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function containerUpdateErrors(next: unknown, prev: unknown, path: string): { errs: FieldError[]; stop: boolean } {
  const n = asArr(next);
  if (n.length !== asArr(prev).length) {
    return { errs: [{ type: 'FieldValueForbidden', field: path, detail: 'pod updates may not add or remove containers' }], stop: true };
  }
  const errs: FieldError[] = [];
  n.forEach((c, i) => {
    const image = str(asObj(c)?.image);
    if (!image) errs.push({ type: 'FieldValueRequired', field: `${path}[${i}].image`, detail: '' });
    if (image.trim().length !== image.length) {
      errs.push({ type: 'FieldValueInvalid', field: `${path}[${i}].image`, badValue: image, detail: 'must not have leading or trailing whitespace' });
    }
  });
  return { errs, stop: false };
}

function tolerationEqualIgnoringSeconds(a: Obj, b: Obj): boolean {
  const { tolerationSeconds: _a, ...ra } = a;
  const { tolerationSeconds: _b, ...rb } = b;
  void _a;
  void _b;
  return deepEqual(ra, rb);
}

function validatePodUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = spec(obj);
  const o = (old.spec ?? {}) as Obj;
  const oldCost = (old.metadata.annotations ?? {})[DELETION_COST];
  const allowInvalidPodDeletionCost = oldCost !== undefined && !validDeletionCost(oldCost);
  // kube runs some of these twice (ValidateObjectMeta, the pod annotations, the tolerations)
  // and its aggregated message drops the repeats; kapi runs each once.
  const errs = validatePodMetadataAndSpec(obj, { allowInvalidPodDeletionCost });
  errs.push(...validatePodSpecificAnnotationUpdates(obj.metadata.annotations, old.metadata.annotations, 'metadata.annotations'));

  for (const list of ['containers', 'initContainers'] as const) {
    const r = containerUpdateErrors(s[list], o[list], `spec.${list}`);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }

  const nads = s.activeDeadlineSeconds;
  const oads = o.activeDeadlineSeconds;
  if (typeof nads === 'number') {
    if (nads < 0 || nads > 2147483647) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds', badValue: nads, detail: 'must be between 0 and 2147483647, inclusive' });
      return errs;
    }
    if (typeof oads === 'number' && oads < nads) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds', badValue: nads, detail: 'must be less than or equal to previous value' });
      return errs;
    }
  } else if (typeof oads === 'number') {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.activeDeadlineSeconds', badValue: null, detail: 'must not update from a positive integer to nil value' });
  }

  // Only additions to tolerations (tolerationSeconds of existing ones may change).
  const newTols = asArr(s.tolerations).filter(isObj);
  const allKept = asArr(o.tolerations)
    .filter(isObj)
    .every((ot) => newTols.some((nt) => tolerationEqualIgnoringSeconds(ot, nt)));
  if (!allKept) errs.push({ type: 'FieldValueForbidden', field: 'spec.tolerations', detail: 'existing toleration can not be modified except its tolerationSeconds' });

  // Only deletions from schedulingGates.
  const oldGates = new Set(asArr(o.schedulingGates).map((g) => str(asObj(g)?.name)));
  asArr(s.schedulingGates).forEach((g, i) => {
    const name = str(asObj(g)?.name);
    if (!oldGates.has(name)) {
      errs.push({ type: 'FieldValueForbidden', field: `spec.schedulingGates[${i}].name`, detail: `only deletion is allowed, but found new scheduling gate '${name}'` });
    }
  });

  if (deepEqual(s, o)) return errs;

  const munged: Obj = structuredClone(s);
  for (const list of ['containers', 'initContainers'] as const) {
    const prev = asArr(o[list]);
    asArr(munged[list]).forEach((c, i) => {
      const mc = asObj(c);
      if (!mc) return;
      const pi = asObj(prev[i])?.image;
      if (pi === undefined) delete mc.image;
      else mc.image = pi;
    });
  }
  for (const f of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (o[f] === undefined) delete munged[f];
    else munged[f] = o[f];
  }
  if (typeof o.terminationGracePeriodSeconds === 'number' && o.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds;
  }
  if (!deepEqual(munged, o)) {
    errs.push({
      type: 'FieldValueForbidden',
      field: 'spec',
      detail: `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${specDiff('core.PodSpec', o, munged)}`,
    });
  }
  return errs;
}

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

function validatePodStatusUpdate(obj: KObject, old: KObject): FieldError[] {
  const st = status(obj);
  const ost = (old.status ?? {}) as Obj;
  const errs = validatePodSpecificAnnotationUpdates(obj.metadata.annotations, old.metadata.annotations, 'metadata.annotations');
  errs.push(...validatePodSpecificAnnotations(obj.metadata.annotations, spec(obj), 'metadata.annotations'));
  asArr(st.conditions).forEach((c, i) => {
    const t = str(asObj(c)?.type);
    if (SYSTEM_CONDITIONS.has(t)) return;
    // kube validates these under metadata.conditions (sic).
    for (const m of isQualifiedName(t)) errs.push({ type: 'FieldValueInvalid', field: `metadata.conditions[${i}].Type`, badValue: t, detail: m });
  });
  const nominated = str(st.nominatedNodeName);
  if (nominated && nominated !== str(ost.nominatedNodeName)) {
    for (const m of isDNS1123Subdomain(nominated)) errs.push({ type: 'FieldValueInvalid', field: 'status.nominatedNodeName', badValue: nominated, detail: m });
  }
  if ((st.qosClass ?? '') !== (ost.qosClass ?? '')) {
    errs.push({ type: 'FieldValueInvalid', field: 'status.qosClass', badValue: st.qosClass ?? '', detail: 'field is immutable' });
  }
  const restartPolicy = str((old.spec as Obj | undefined)?.restartPolicy);
  errs.push(...containerStateTransitions(st.containerStatuses, ost.containerStatuses, 'status.containerStatuses', restartPolicy, () => false));
  const initSpecs = asArr((old.spec as Obj | undefined)?.initContainers).filter(isObj);
  errs.push(
    ...containerStateTransitions(st.initContainerStatuses, ost.initContainerStatuses, 'status.initContainerStatuses', restartPolicy, (name) =>
      initSpecs.some((c) => c.name === name && c.restartPolicy === 'Always'),
    ),
  );
  errs.push(...containerStateTransitions(st.ephemeralContainerStatuses, ost.ephemeralContainerStatuses, 'status.ephemeralContainerStatuses', 'Never', () => false));
  errs.push(...validateIPList(asArr(st.podIPs), 'status.podIPs'));
  const hostIPs = asArr(st.hostIPs);
  if (hostIPs.length > 0) {
    const first = str(asObj(hostIPs[0])?.ip);
    if (str(st.hostIP) !== first) errs.push({ type: 'FieldValueInvalid', field: 'status.hostIPs[0].ip', badValue: first, detail: 'must be equal to `hostIP`' });
    errs.push(...validateIPList(hostIPs, 'status.hostIPs'));
  }
  return errs;
}

function containerStateTransitions(next: unknown, prev: unknown, path: string, restartPolicy: string, restartable: (name: string) => boolean): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  asArr(prev).forEach((raw, i) => {
    const os = asObj(raw) ?? {};
    const term = asObj(asObj(os.state)?.terminated);
    if (!term) return;
    if (term.exitCode !== 0 && restartPolicy === 'OnFailure') return;
    if (restartable(str(os.name))) return;
    for (const n of asArr(next)) {
      const ns = asObj(n) ?? {};
      if (ns.name === os.name && !asObj(asObj(ns.state)?.terminated)) {
        errs.push({ type: 'FieldValueForbidden', field: `${path}[${i}].state`, detail: 'may not be transitioned to non-terminated state' });
      }
    }
  });
  return errs;
}

function validateIPList(list: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ips = list.map((p) => str(asObj(p)?.ip));
  ips.forEach((ip, i) => {
    if (!isIP(ip)) errs.push({ type: 'FieldValueInvalid', field: `${path}[${i}].ip`, badValue: ip, detail: 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' });
  });
  if (ips.length > 1) {
    const v4 = ips.filter((ip) => !ip.includes(':')).length;
    const v6 = ips.length - v4;
    if (ips.length > 2 || v4 !== 1 || v6 !== 1) {
      errs.push({ type: 'FieldValueInvalid', field: path, badValue: list, detail: 'may specify no more than one IP for each IP family' });
    }
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(ip)) errs.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, badValue: list[i], detail: '' });
      seen.add(ip);
    });
  }
  return errs;
}

// ---- strategies ----

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  // Pods carry metadata.generation from 1.33 on (bumped on every spec change).
  tracksGeneration: true,
  applyDefaults(obj) {
    const s = spec(obj);
    defaultPodSpec(s);
    applyPodSpecExtraDefaults(s);
    applyPodOnlyDefaults(s);
  },
  prepareForCreate(obj) {
    const s = spec(obj);
    dropDisabledPodSpecFields(s);
    addDefaultTolerations(s);
    obj.status = { phase: 'Pending', qosClass: computePodQOS(s) };
  },
  prepareForUpdate(obj, old) {
    const s = spec(obj);
    const o = (old.spec ?? {}) as Obj;
    obj.status = old.status;
    dropDisabledPodSpecFields(s, o);
    addDefaultTolerations(s);
    // The Priority admission plugin keeps what it set on create.
    if (s.priority === undefined && o.priority !== undefined) s.priority = o.priority;
    if (s.preemptionPolicy === undefined && o.preemptionPolicy !== undefined) s.preemptionPolicy = o.preemptionPolicy;
    if (!deepEqual(s, o)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: validateCreate,
  validateUpdate: validatePodUpdate,
};

const statusStrategy: Strategy = {
  ...strategy,
  applyDefaults: () => undefined,
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
    // /status may not touch owner references (old kubelets corrupted them).
    if (old.metadata.ownerReferences === undefined) delete obj.metadata.ownerReferences;
    else obj.metadata.ownerReferences = old.metadata.ownerReferences;
    const st = status(obj);
    const ost = (old.status ?? {}) as Obj;
    // qosClass is set at creation; an empty one is backfilled from the old pod.
    if (!st.qosClass && ost.qosClass) st.qosClass = ost.qosClass;
    dropDisabledStatusFields(st, ost);
  },
  validateUpdate: validatePodStatusUpdate,
};

// ---- deletion ----

/**
 * CheckGracefulDelete: the grace period a DELETE gets (0 means at once). Unscheduled and
 * terminated pods go at once; otherwise the requested period, else the pod's
 * terminationGracePeriodSeconds; a negative period becomes 1.
 */
export function podDeleteGracePeriod(pod: KObject, requested?: number): number {
  const s = (pod.spec ?? {}) as Obj;
  let period = requested ?? (typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : 0);
  if (!str(s.nodeName)) period = 0;
  const phase = str((pod.status as Obj | undefined)?.phase);
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

// ---- field selectors ----

/** ToSelectableFields beyond metadata.name/namespace (pods' field selectors). */
export const podFieldLabels: Record<string, (obj: KObject) => string> = {
  'spec.nodeName': (o) => str((o.spec as Obj | undefined)?.nodeName),
  'spec.restartPolicy': (o) => str((o.spec as Obj | undefined)?.restartPolicy),
  'spec.schedulerName': (o) => str((o.spec as Obj | undefined)?.schedulerName),
  'spec.serviceAccountName': (o) => str((o.spec as Obj | undefined)?.serviceAccountName),
  'spec.hostNetwork': (o) => String((o.spec as Obj | undefined)?.hostNetwork === true),
  'status.phase': (o) => str((o.status as Obj | undefined)?.phase),
  'status.podIP': (o) => str(asObj(asArr((o.status as Obj | undefined)?.podIPs)[0])?.ip),
  'status.nominatedNodeName': (o) => str((o.status as Obj | undefined)?.nominatedNodeName),
};

/**
 * The field labels the v1 Pod conversion accepts (anything else: "field label not
 * supported: <label>"). `spec.host` is renamed to `spec.nodeName`; `status.podIPs` is
 * accepted but not selectable (it always reads "").
 */
export const POD_FIELD_LABEL_ALIASES: Record<string, string> = { 'spec.host': 'spec.nodeName' };

// ---- table ----

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
export function podCells(obj: KObject, now: Date): unknown[] {
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

export const pods: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'pods',
  kind: 'Pod',
  listKind: 'PodList',
  singularName: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  strategy,
  subresources: { status: statusStrategy },
  actions: { binding: podBinding },
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: true,
  gracefulDeletePeriod: podDeleteGracePeriod,
  fieldLabels: { ...podFieldLabels, 'spec.host': podFieldLabels['spec.nodeName']!, 'status.podIPs': () => '' },
  admission: {
    admitCreate: admitPriority,
  },
  table: {
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
  },
};
