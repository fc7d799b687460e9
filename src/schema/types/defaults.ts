// Server-side defaulting: the defaults kube-apiserver applies in code (the SetDefaults_*
// functions for apps/v1, core/v1, policy/v1, rbac/v1 and scheduling/v1), written down as data,
// plus `applySchemaDefaults`, which applies them together with the declarative
// `+default=` values recorded in the registry.
//
// How kube applies defaults, and so how this table is read:
//  - A rule keyed by a definition applies wherever that type appears (kube's generated
//    defaulters call the type's SetDefaults function for every occurrence), e.g. the
//    Container rules apply in Pods, pod templates of StatefulSets, and so on.
//  - Rules keyed by a top-level kind (Pod, Namespace) apply only to that kind, not to
//    the same nested types elsewhere (a PodTemplateSpec does not get Pod's rules).
//  - Parents before children: a definition's own rules run, then its `+default=` field
//    values, then its nested objects.
//  - "Unset" is Go's test: a pointer, slice or map field is unset when absent or null;
//    a plain string/number/bool field also when it holds the zero value ("", 0, false).
//
// policy/v1 (PodDisruptionBudget) and authorization/v1 (the access reviews) have no defaulting functions in kube 1.33.

import type { FieldSchema, SchemaRegistry, TypeRef } from '../model.js';
import { isGoZeroScalar } from '../go-zero.js';
import { roundQuantityUpToMilli } from '../quantity.js';
import { isObj, type Obj } from '../../machinery/json-view.js';

/** Field rules computed from the object rather than constant. */
export type FieldRuleName =
  /** Container.imagePullPolicy: Always for an untagged or `:latest` image, IfNotPresent otherwise. */
  | 'imagePullPolicyFromImage'
  /** A ResourceList (map of quantities): every value rounded up to milli precision. */
  | 'resourceListRoundUpMilli';

/** Rules over a whole object, run before its field rules. */
export type ObjectRuleName =
  /** Volume: no volume source set at all means `emptyDir: {}`. */
  | 'volumeEmptyDirWhenNoSource'
  /** Namespace: label kubernetes.io/metadata.name = metadata.name (when named). */
  | 'namespaceNameLabel'
  /** Pod: a container's (and init container's) requests default to its limits, key by key. */
  | 'podRequestsFromLimits'
  /** Pod with spec.hostNetwork: container ports' hostPort defaults to containerPort. */
  | 'podHostNetworkPorts'
  /**
   * StatefulSetUpdateStrategy: an empty type becomes RollingUpdate (and gets an empty
   * rollingUpdate when it has none); a RollingUpdate strategy with rollingUpdate set
   * gets rollingUpdate.partition 0 when unset.
   */
  | 'statefulSetUpdateStrategy'
  /**
   * StatefulSetSpec: every volumeClaimTemplates item reads back with apiVersion v1 and
   * kind PersistentVolumeClaim, whatever was sent (kube's apps/v1 conversion clears them
   * on the way in and sets them on the way out; not a default, but the same effect).
   */
  | 'statefulSetClaimTemplatesTypeMeta'
  /** rbac/v1 Subject: an empty apiGroup is rbac.authorization.k8s.io for User and Group (ServiceAccount keeps ''). */
  | 'rbacSubjectAPIGroup'
  /**
   * PodSpec: serviceAccount is the deprecated alias of serviceAccountName; core/v1's conversion
   * takes it when serviceAccountName is empty on the way in and writes serviceAccountName into
   * it on the way out (not a default, but the same effect, in every pod spec).
   */
  | 'podSpecServiceAccountAlias';

export type DefaultRule = { value: unknown } | { rule: FieldRuleName };

export interface DefinitionDefaults {
  /** Whole-object rules, in order. */
  object?: ObjectRuleName[];
  /**
   * Field defaults by JSON name. A dotted key ('spec.enableServiceLinks') reaches into
   * nested non-list objects (created when absent, as Go's non-pointer structs are).
   */
  fields?: Record<string, DefaultRule>;
}

const CORE = 'io.k8s.api.core.v1';
const APPS = 'io.k8s.api.apps.v1';
const SCHED = 'io.k8s.api.scheduling.v1';
const RBAC = 'io.k8s.api.rbac.v1';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

const FILE_MODE_0644 = 420;
const roundUp: DefaultRule = { rule: 'resourceListRoundUpMilli' };

const containerDefaults: DefinitionDefaults = {
  fields: {
    imagePullPolicy: { rule: 'imagePullPolicyFromImage' },
    terminationMessagePath: { value: '/dev/termination-log' },
    terminationMessagePolicy: { value: 'File' },
  },
};

/** The code-applied defaults of kube 1.33 (with its default feature gates), by definition. */
export const DEFAULTS: Record<string, DefinitionDefaults> = {
  // --- apps/v1 ---
  [`${APPS}.StatefulSetSpec`]: {
    object: ['statefulSetClaimTemplatesTypeMeta'],
    fields: {
      podManagementPolicy: { value: 'OrderedReady' },
      // StatefulSetAutoDeletePVC is on by default (GA in 1.32).
      persistentVolumeClaimRetentionPolicy: { value: { whenDeleted: 'Retain', whenScaled: 'Retain' } },
      replicas: { value: 1 },
      revisionHistoryLimit: { value: 10 },
    },
  },
  [`${APPS}.StatefulSetUpdateStrategy`]: { object: ['statefulSetUpdateStrategy'] },
  [`${APPS}.StatefulSetPersistentVolumeClaimRetentionPolicy`]: {
    fields: { whenDeleted: { value: 'Retain' }, whenScaled: { value: 'Retain' } },
  },

  // --- authentication.k8s.io/v1 ---
  'io.k8s.api.authentication.v1.TokenRequestSpec': { fields: { expirationSeconds: { value: 3600 } } },
  // --- scheduling/v1 ---
  [`${SCHED}.PriorityClass`]: { fields: { preemptionPolicy: { value: 'PreemptLowerPriority' } } },

  // --- rbac.authorization.k8s.io/v1 ---
  [`${RBAC}.RoleBinding`]: { fields: { 'roleRef.apiGroup': { value: RBAC_GROUP } } },
  [`${RBAC}.ClusterRoleBinding`]: { fields: { 'roleRef.apiGroup': { value: RBAC_GROUP } } },
  [`${RBAC}.Subject`]: { object: ['rbacSubjectAPIGroup'] },

  // --- core/v1: kinds ---
  [`${CORE}.Pod`]: {
    object: ['podRequestsFromLimits', 'podHostNetworkPorts'],
    // Pod only: templates (Deployments, StatefulSets, ...) do not get it.
    fields: { 'spec.enableServiceLinks': { value: true } },
  },
  [`${CORE}.Namespace`]: { object: ['namespaceNameLabel'] },

  // --- core/v1: nested types ---
  [`${CORE}.PodSpec`]: {
    object: ['podSpecServiceAccountAlias'],
    fields: {
      dnsPolicy: { value: 'ClusterFirst' },
      restartPolicy: { value: 'Always' },
      securityContext: { value: {} },
      terminationGracePeriodSeconds: { value: 30 },
      schedulerName: { value: 'default-scheduler' },
      overhead: roundUp,
    },
  },
  [`${CORE}.Container`]: containerDefaults,
  [`${CORE}.EphemeralContainer`]: containerDefaults,
  [`${CORE}.Probe`]: {
    fields: {
      timeoutSeconds: { value: 1 },
      periodSeconds: { value: 10 },
      successThreshold: { value: 1 },
      failureThreshold: { value: 3 },
    },
  },
  [`${CORE}.HTTPGetAction`]: { fields: { path: { value: '/' }, scheme: { value: 'HTTP' } } },
  [`${CORE}.Volume`]: { object: ['volumeEmptyDirWhenNoSource'] },
  [`${CORE}.SecretVolumeSource`]: { fields: { defaultMode: { value: FILE_MODE_0644 } } },
  [`${CORE}.ConfigMapVolumeSource`]: { fields: { defaultMode: { value: FILE_MODE_0644 } } },
  [`${CORE}.DownwardAPIVolumeSource`]: { fields: { defaultMode: { value: FILE_MODE_0644 } } },
  [`${CORE}.ProjectedVolumeSource`]: { fields: { defaultMode: { value: FILE_MODE_0644 } } },
  [`${CORE}.ServiceAccountTokenProjection`]: { fields: { expirationSeconds: { value: 3600 } } },
  [`${CORE}.HostPathVolumeSource`]: { fields: { type: { value: '' } } },
  [`${CORE}.ObjectFieldSelector`]: { fields: { apiVersion: { value: 'v1' } } },
  [`${CORE}.PersistentVolumeClaimSpec`]: { fields: { volumeMode: { value: 'Filesystem' } } },
  // kube sets this from SetDefaults_PersistentVolumeClaim; the status type appears only there
  // (so StatefulSet volumeClaimTemplates get it too, as in kube).
  [`${CORE}.PersistentVolumeClaimStatus`]: {
    fields: { phase: { value: 'Pending' }, capacity: roundUp, allocatedResources: roundUp },
  },
  [`${CORE}.NamespaceStatus`]: { fields: { phase: { value: 'Active' } } },
  [`${CORE}.ResourceRequirements`]: { fields: { limits: roundUp, requests: roundUp } },
  [`${CORE}.VolumeResourceRequirements`]: { fields: { limits: roundUp, requests: roundUp } },
  [`${CORE}.ContainerStatus`]: { fields: { allocatedResources: roundUp } },
  [`${CORE}.NodeStatus`]: { fields: { capacity: roundUp, allocatable: roundUp } },
  [`${CORE}.PersistentVolumeSpec`]: { fields: { capacity: roundUp } },
  // SetDefaults_PersistentVolume (the PersistentVolume kind only).
  [`${CORE}.PersistentVolume`]: {
    fields: { 'spec.persistentVolumeReclaimPolicy': { value: 'Retain' }, 'spec.volumeMode': { value: 'Filesystem' }, 'status.phase': { value: 'Pending' } },
  },

  // --- storage.k8s.io/v1 ---
  ['io.k8s.api.storage.v1.StorageClass']: { fields: { reclaimPolicy: { value: 'Delete' }, volumeBindingMode: { value: 'Immediate' } } },
};

// ---------------------------------------------------------------------------------------
// Named rules

/**
 * The tag of an image reference as kube's image-name parser sees it: '' when the
 * reference does not parse, 'latest' when it has neither tag nor digest.
 */
export function imageTag(image: string): string {
  const atDigest = image.indexOf('@');
  const digest = atDigest >= 0 ? image.slice(atDigest + 1) : '';
  const nameTag = atDigest >= 0 ? image.slice(0, atDigest) : image;
  if (digest && !/^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/.test(digest)) return '';
  const lastSlash = nameTag.lastIndexOf('/');
  const colon = nameTag.lastIndexOf(':');
  let name = nameTag;
  let tag = '';
  if (colon > lastSlash) {
    name = nameTag.slice(0, colon);
    tag = nameTag.slice(colon + 1);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return '';
  }
  if (!name || name.length > 255) return '';
  if (/^[a-f0-9]{64}$/.test(name)) return '';
  // An optional registry host (with a dot or port, or "localhost", or upper case),
  // then lower-case path components.
  const parts = name.split('/');
  const first = parts[0]!;
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase());
  if (hasDomain) {
    if (!/^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])(?:\.(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))*(?::[0-9]+)?$/.test(first) && !/^\[[0-9A-Fa-f:]+\](?::[0-9]+)?$/.test(first)) return '';
    parts.shift();
  }
  if (parts.length === 0) return '';
  for (const p of parts) if (!/^[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*$/.test(p)) return '';
  if (!tag && !digest) return 'latest';
  return tag;
}

/**
 * SetDefaults_Container's imagePullPolicy: Always when the image's tag is `latest` (which an
 * image with neither tag nor digest has), IfNotPresent otherwise (another tag, a digest
 * alone, or a reference that does not parse).
 */
export function imagePullPolicyFor(image: unknown): string {
  return typeof image === 'string' && imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

// ---------------------------------------------------------------------------------------
// Applying defaults

/** A deep copy of a JSON value: every request gets its own default objects. */
function clone<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Obj = {};
  for (const k in v) out[k] = clone((v as Obj)[k]);
  return out as T;
}

function isUnset(v: unknown, f: FieldSchema | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (!f || f.pointer) return false;
  return isGoZeroScalar(v, f.type);
}

/** A Go no-op: setting a non-pointer scalar to its own zero value. */
function isNoopDefault(value: unknown, f: FieldSchema | undefined): boolean {
  return f !== undefined && !f.pointer && isGoZeroScalar(value, f.type);
}

const fieldIndex = new WeakMap<object, Map<string, FieldSchema>>();

function fieldOf(registry: SchemaRegistry, def: string, name: string): FieldSchema | undefined {
  const schema = registry[def];
  if (!schema) return undefined;
  let idx = fieldIndex.get(schema);
  if (!idx) fieldIndex.set(schema, (idx = new Map(schema.fields.map((f) => [f.name, f]))));
  return idx.get(name);
}

function applyFieldRule(obj: Obj, key: string, rule: DefaultRule, f: FieldSchema | undefined): void {
  if ('value' in rule) {
    if (isUnset(obj[key], f) && !isNoopDefault(rule.value, f)) obj[key] = clone(rule.value);
    return;
  }
  switch (rule.rule) {
    case 'imagePullPolicyFromImage':
      if (isUnset(obj[key], f)) obj[key] = imagePullPolicyFor(obj.image);
      return;
    case 'resourceListRoundUpMilli': {
      const list = obj[key];
      if (!isObj(list)) return;
      for (const [k, v] of Object.entries(list)) if (typeof v === 'string') list[k] = roundQuantityUpToMilli(v);
      return;
    }
  }
}

function containersOf(spec: Obj, ...lists: string[]): Obj[] {
  const out: Obj[] = [];
  for (const l of lists) {
    const cs = spec[l];
    if (Array.isArray(cs)) for (const c of cs) if (isObj(c)) out.push(c);
  }
  return out;
}

function applyObjectRule(obj: Obj, rule: ObjectRuleName, registry: SchemaRegistry, def: string): void {
  switch (rule) {
    case 'volumeEmptyDirWhenNoSource': {
      const sources = volumeSourceFields(registry, def);
      if (sources.every((s) => obj[s] === undefined || obj[s] === null)) obj.emptyDir = {};
      return;
    }
    case 'namespaceNameLabel': {
      const meta = obj.metadata;
      if (!isObj(meta) || typeof meta.name !== 'string' || meta.name === '') return;
      if (!isObj(meta.labels)) meta.labels = {};
      (meta.labels as Obj)['kubernetes.io/metadata.name'] = meta.name;
      return;
    }
    case 'podRequestsFromLimits': {
      const spec = obj.spec;
      if (!isObj(spec)) return;
      for (const c of containersOf(spec, 'containers', 'initContainers')) {
        const res = c.resources;
        if (!isObj(res) || !isObj(res.limits)) continue;
        const limits = res.limits;
        if (Object.keys(limits).length === 0) continue;
        if (!isObj(res.requests)) res.requests = {};
        const requests = res.requests as Obj;
        for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = clone(v);
      }
      return;
    }
    case 'podHostNetworkPorts': {
      const spec = obj.spec;
      if (!isObj(spec) || spec.hostNetwork !== true) return;
      for (const c of containersOf(spec, 'containers', 'initContainers')) {
        if (!Array.isArray(c.ports)) continue;
        for (const p of c.ports) {
          if (isObj(p) && (p.hostPort === undefined || p.hostPort === null || p.hostPort === 0)) p.hostPort = p.containerPort;
        }
      }
      return;
    }
    case 'statefulSetClaimTemplatesTypeMeta': {
      if (!Array.isArray(obj.volumeClaimTemplates)) return;
      for (const t of obj.volumeClaimTemplates) {
        if (!isObj(t)) continue;
        t.apiVersion = 'v1';
        t.kind = 'PersistentVolumeClaim';
      }
      return;
    }
    case 'podSpecServiceAccountAlias': {
      const name = typeof obj.serviceAccountName === 'string' && obj.serviceAccountName !== '' ? obj.serviceAccountName : typeof obj.serviceAccount === 'string' ? obj.serviceAccount : '';
      if (name === '') {
        delete obj.serviceAccount;
        return;
      }
      obj.serviceAccountName = name;
      obj.serviceAccount = name;
      return;
    }
    case 'rbacSubjectAPIGroup': {
      if ((obj.apiGroup === undefined || obj.apiGroup === null || obj.apiGroup === '') && (obj.kind === 'User' || obj.kind === 'Group')) obj.apiGroup = RBAC_GROUP;
      return;
    }
    case 'statefulSetUpdateStrategy': {
      if (obj.type === undefined || obj.type === null || obj.type === '') {
        obj.type = 'RollingUpdate';
        if (!isObj(obj.rollingUpdate)) obj.rollingUpdate = {};
      }
      const ru = obj.rollingUpdate;
      if (obj.type === 'RollingUpdate' && isObj(ru) && (ru.partition === undefined || ru.partition === null)) ru.partition = 0;
      return;
    }
  }
}

const volumeSourceCache = new WeakMap<SchemaRegistry, Map<string, string[]>>();

/** The JSON names of a Volume's sources: all its fields but `name`. */
function volumeSourceFields(registry: SchemaRegistry, def: string): string[] {
  let byDef = volumeSourceCache.get(registry);
  if (!byDef) volumeSourceCache.set(registry, (byDef = new Map()));
  let list = byDef.get(def);
  if (!list) {
    list = (registry[def]?.fields ?? []).filter((f) => f.name !== 'name' && f.pointer).map((f) => f.name);
    byDef.set(def, list);
  }
  return list;
}

/**
 * Applies kube's defaults to `obj`, an object of the registry definition `definition`,
 * in place: the code defaults of DEFAULTS and the `+default=` values of the registry,
 * recursing into nested objects, lists of objects and maps of objects.
 *
 * A nested Go non-pointer struct that is absent is defaulted as an empty object and
 * kept only if defaulting set something in it (Go would always write it; writing
 * empty structs is the encoder's business, see goRoundTrip).
 */
export function applySchemaDefaults(obj: unknown, definition: string, registry: SchemaRegistry): void {
  if (!isObj(obj)) return;
  walk(obj, definition, registry);
}

/** A table rule, its dotted key resolved once against the schema. */
interface PlanRule {
  /** The nested struct fields leading to the field's object (created when absent). */
  parents: { name: string; pointer: boolean; def: string }[];
  last: string;
  /** The field the rule sets (undefined: not in the schema). */
  field: FieldSchema | undefined;
  rule: DefaultRule;
}

/** A field to descend into, with the plan of its type once it is needed. */
interface PlanChild {
  name: string;
  kind: 'ref' | 'array' | 'map';
  pointer: boolean;
  def: string;
  plan: Plan | undefined;
}

/** What defaulting does at one definition, worked out once, so the walk only follows it. */
interface Plan {
  def: string;
  object: ObjectRuleName[];
  rules: PlanRule[];
  /** Fields with a declarative `+default=` the table does not override. */
  declared: FieldSchema[];
  children: PlanChild[];
}
const plans = new WeakMap<SchemaRegistry, Map<string, Plan>>();

function planOf(def: string, registry: SchemaRegistry): Plan | undefined {
  let byDef = plans.get(registry);
  if (!byDef) plans.set(registry, (byDef = new Map()));
  let plan = byDef.get(def);
  if (plan) return plan;
  if (!registry[def]) return undefined;
  const table = DEFAULTS[def];
  const rules: PlanRule[] = [];
  for (const [key, rule] of Object.entries(table?.fields ?? {})) {
    const path = key.split('.');
    const last = path.pop()!;
    const parents: PlanRule['parents'] = [];
    let at = def;
    let reachable = true;
    for (const seg of path) {
      const f = fieldOf(registry, at, seg);
      // A path through anything but a nested struct never applies.
      if (!f || f.type.kind !== 'ref') {
        reachable = false;
        break;
      }
      parents.push({ name: seg, pointer: f.pointer === true, def: f.type.name });
      at = f.type.name;
    }
    if (reachable) rules.push({ parents, last, field: fieldOf(registry, at, last), rule });
  }
  plan = {
    def,
    object: table?.object ?? [],
    rules,
    declared: (registry[def]?.fields ?? []).filter((f) => f.default !== undefined && !table?.fields?.[f.name]),
    children: recursiveFields(def, registry).map((f): PlanChild => {
      const t = f.type;
      const kind = t.kind === 'ref' ? 'ref' : t.kind === 'array' ? 'array' : 'map';
      return { name: f.name, kind, pointer: f.pointer === true, def: refOf(t)!, plan: undefined };
    }),
  };
  byDef.set(def, plan);
  return plan;
}

const defaultingSubtrees = new WeakMap<SchemaRegistry, Map<string, boolean>>();

/** Whether defaulting can change anything in a struct of `def` or below it (memoized). */
function hasDefaults(def: string, registry: SchemaRegistry): boolean {
  let memo = defaultingSubtrees.get(registry);
  if (!memo) defaultingSubtrees.set(registry, (memo = new Map()));
  const known = memo.get(def);
  if (known !== undefined) return known;
  memo.set(def, false); // recursive types: assume no until proven otherwise
  const schema = registry[def];
  let yes = DEFAULTS[def] !== undefined;
  for (const f of schema?.fields ?? []) {
    if (yes) break;
    if (f.default !== undefined) yes = true;
    const ref = refOf(f.type);
    if (ref && hasDefaults(ref, registry)) yes = true;
  }
  memo.set(def, yes);
  return yes;
}

const refOf = (t: TypeRef): string | undefined =>
  t.kind === 'ref' ? t.name : t.kind === 'array' && t.items.kind === 'ref' ? t.items.name : t.kind === 'map' && t.values.kind === 'ref' ? t.values.name : undefined;

/** The fields of `def` worth descending into: those whose type has defaults somewhere below (read once, by planOf). */
function recursiveFields(def: string, registry: SchemaRegistry): FieldSchema[] {
  return (registry[def]?.fields ?? []).filter((f) => {
    const ref = refOf(f.type);
    return ref !== undefined && hasDefaults(ref, registry);
  });
}

const emptyDefaults = new WeakMap<SchemaRegistry, Map<string, Obj | null>>();

/**
 * What defaulting makes of an absent (empty) struct of `def`: the same every time, so it
 * is worked out once per definition (null when nothing), which keeps the walk from
 * descending into every absent nested struct of every request.
 */
function defaultsOfEmpty(def: string, registry: SchemaRegistry): Obj | null {
  let byDef = emptyDefaults.get(registry);
  if (!byDef) emptyDefaults.set(registry, (byDef = new Map()));
  if (byDef.has(def)) return byDef.get(def)!;
  // Guard against recursive types while computing.
  byDef.set(def, null);
  const tmp: Obj = {};
  walk(tmp, def, registry);
  const out = Object.keys(tmp).length > 0 ? tmp : null;
  byDef.set(def, out);
  return out;
}

function walk(obj: Obj, def: string, registry: SchemaRegistry): void {
  const plan = planOf(def, registry);
  if (plan) walkPlan(obj, plan, registry);
}

function walkPlan(obj: Obj, plan: Plan, registry: SchemaRegistry): void {
  for (const rule of plan.object) applyObjectRule(obj, rule, registry, plan.def);
  for (const { parents, last, field, rule } of plan.rules) {
    let target: Obj | undefined = obj;
    let created: Array<{ parent: Obj; key: string }> | undefined;
    for (const seg of parents) {
      if (!isObj(target![seg.name])) {
        if (seg.pointer) {
          target = undefined;
          break;
        }
        target![seg.name] = {};
        (created ??= []).push({ parent: target!, key: seg.name });
      }
      target = target![seg.name] as Obj;
    }
    if (!target) continue;
    applyFieldRule(target, last, rule, field);
    // Drop intermediate objects we created if nothing ended up in them.
    if (created) {
      for (const { parent, key: k } of created.reverse()) {
        const v = parent[k];
        if (isObj(v) && Object.keys(v).length === 0) delete parent[k];
      }
    }
  }
  for (const f of plan.declared) {
    if (isUnset(obj[f.name], f) && !isNoopDefault(f.default, f)) obj[f.name] = clone(f.default);
  }
  for (const c of plan.children) {
    const v = obj[c.name];
    if (c.kind === 'ref') {
      if (isObj(v)) walkChild(v, c, registry);
      else if ((v === undefined || v === null) && !c.pointer) {
        const tmp = defaultsOfEmpty(c.def, registry);
        if (tmp) obj[c.name] = clone(tmp);
      }
    } else if (c.kind === 'array') {
      if (Array.isArray(v)) for (const item of v) if (isObj(item)) walkChild(item, c, registry);
    } else if (isObj(v)) {
      for (const k in v) {
        const item = v[k];
        if (isObj(item)) walkChild(item, c, registry);
      }
    }
  }
}

function walkChild(v: Obj, c: PlanChild, registry: SchemaRegistry): void {
  const plan = (c.plan ??= planOf(c.def, registry));
  if (plan) walkPlan(v, plan, registry);
}
