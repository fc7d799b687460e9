import type { FieldError } from '../machinery/errors.js';
import type { AdmissionPlugin } from './admission-plugins.js';
import type { KObject } from '../machinery/object.js';
import type { APIResource, ResourceNames } from '../machinery/api-resource.js';

import type { NameValidator } from '../machinery/validation/names.js';
import type { GarbageCollectionPolicy } from './generic/deletion.js';
import type { Logger } from 'pino';
import type { Storage } from '../storage/interface.js';
import type { RegistryWatch } from '../cache/registry-watch.js';
import type { WatchCache } from '../cache/watch-cache.js';
import type { FieldOwner } from '../patch/ssa/field-manager.js';

/** One column of a meta.k8s.io/v1 Table. */
export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

export interface TableConvertor {
  columns: TableColumn[];
  /** The cells of one row, aligned with `columns`. */
  cells(obj: KObject, now: Date): unknown[];
}

/**
 * A resource type's rules, in one stateless object (after k8s.io/apiserver's
 * RESTCreateStrategy / RESTUpdateStrategy). The generic store calls these in a fixed order.
 */
export interface Strategy {
  /** Clear fields the caller may not set on create (e.g. status) and set server-owned ones. */
  prepareForCreate(obj: KObject): void;
  /** Carry over what the caller may not change (status for the main resource, spec for /status). */
  prepareForUpdate(obj: KObject, old: KObject): void;
  /** Type defaults (run after decoding, before validation). */
  applyDefaults(obj: KObject): void;
  /** Normalizes after the name is known (e.g. a namespace's name label). */
  canonicalize?(obj: KObject): void;
  validate(obj: KObject): FieldError[];
  validateUpdate(obj: KObject, old: KObject): FieldError[];
  /** kube's WarningsOnCreate / WarningsOnUpdate: `Warning` headers for accepted objects. */
  warningsOnCreate?(obj: KObject): string[];
  warningsOnUpdate?(obj: KObject, old: KObject): string[];
  /** Whether PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** Whether PUT without metadata.resourceVersion is allowed (an unconditional update). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether create sets metadata.generation to 1 (strategies bump it on spec changes). */
  readonly tracksGeneration: boolean;
}

/**
 * Checks a request's writes must pass beyond the type's own rules, handed down by the layers
 * above (kube's policy-based RBAC storages, NodeRestriction, and the create authorization of
 * an apply or PUT that creates). All throw to refuse.
 */
export interface WriteChecks {
  /** On the object a create (POST, or a PUT or apply that creates) will store, before the store's own steps. */
  create?(obj: KObject): void;
  /** On the same object once it is defaulted and valid, before admission and the commit (kube's createValidation). */
  createValidated?(obj: KObject): void;
  /** On each attempt of the update loop, on the new object and the one it replaces, before they are validated. */
  update?(obj: KObject, old: KObject): void;
}


export type AdmissionOperation = 'CREATE' | 'UPDATE';

/** What an admission plugin is told of a write (kube's admission.Attributes, reduced). */
export interface AdmissionAttributes {
  /** CREATE for every write that makes an object (POST, an apply or PUT that creates). */
  operation: AdmissionOperation;
  name: string;
  namespace: string;
  /** '' for the main resource. */
  subresource: string;
  /** The stored object an UPDATE replaces. */
  old?: KObject;
}

/**
 * A type's admission plugins (kube's NamespaceLifecycle is the store's own namespace check).
 * The store runs them on every write path (POST, PUT, each patch type, apply, /status,
 * /scale, create-on-update) in kube's order: `admit` (mutating admission) on the defaulted
 * object after its managedFields and before the strategy's prepare step; `validate`
 * (validating admission) after the strategy's validation, before the commit. Both run inside
 * the update loop, so they are synchronous; they throw a StatusError to refuse.
 */
export interface Admission {
  /**
   * Before a create's steps: waits, for a bounded time, until what `admit` reads is in the
   * watch cache (the ServiceAccount plugin's retries for a new namespace's default account).
   */
  awaitCreate?(obj: KObject, attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void>;
  admit?(obj: KObject, attrs: AdmissionAttributes, ctx: AdmissionContext): void;
  validate?(obj: KObject, attrs: AdmissionAttributes, ctx: AdmissionContext): void;
}

export interface AdmissionContext {
  /**
   * The current objects of a resource (in one namespace, when given), from this node's watch
   * cache (kube's informers); [] for a resource not served.
   */
  list(resource: ResourceKey, namespace?: string): KObject[];
  /** Whether a plugin runs (--disable-admission-plugins turns kube's defaults off). */
  enabled(plugin: AdmissionPlugin): boolean;
}

export interface ScaleSpec {
  /** spec.replicas of the object. */
  specReplicas(obj: KObject): number;
  setSpecReplicas(obj: KObject, n: number): void;
  statusReplicas(obj: KObject): number;
  /** The label selector in its string form (status.selector of the Scale). */
  selector(obj: KObject): string;
}

/** Who made a request, as the authenticators (and impersonation) settled it: kube's user.Info. */
export interface RequestUser {
  name: string;
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** What a create-only resource's handler is told about the request. */
export interface CreateOnlyRequest {
  namespace: string;
  user: RequestUser;
  dryRun: boolean;
  /** The field manager (fieldManager, else the user agent's name). */
  manager: string;
  annotate(key: string, value: string): void;
}

/**
 * A resource that is never stored: a POST of its kind is answered with the object filled in
 * (kube's TokenReview, SelfSubjectReview and the access reviews). Every other verb is 405.
 */
export interface CreateOnlyREST {
  create(obj: KObject, req: CreateOnlyRequest): Promise<Record<string, unknown>>;
}

/** Another resource's storage, read and written through conversions. */
export interface StoredAs {
  group: string;
  resource: string;
  /** The object in the stored resource's shape. */
  toStored(obj: KObject): KObject;
  /** The stored object in this type's shape. */
  fromStored(obj: KObject): KObject;
}

/**
 * What a write did in other objects (allocations), to keep or undo once the write's own commit
 * is known: kube's FinishFunc of BeginCreate and BeginUpdate.
 */
export interface WriteTxn {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

/**
 * Writes that need more than the object itself, after the generic store's hooks: BeginCreate
 * runs after defaults and name generation and before validation (it may change the object);
 * BeginUpdate runs on each attempt of the update loop; AfterDelete once the object is gone.
 * None of them runs for /status writes (subresource strategies do not allocate).
 */
export interface WriteHooks {
  beginCreate(obj: KObject, dryRun: boolean): Promise<WriteTxn>;
  beginUpdate(obj: KObject, old: KObject, dryRun: boolean): Promise<WriteTxn>;
  afterDelete(obj: KObject): Promise<void>;
  /** Background work of the hooks' own (kube's repair loops of the allocators), once the store is loaded. */
  start?(): void;
  stop?(): void;
}

/** Server settings the registry's types read (kube-apiserver's flags of the same names). */
export interface RegistryOptions {
  /** --service-cluster-ip-range (e.g. 10.96.0.0/12). */
  serviceClusterIPRange: string;
  /** --service-node-port-range (e.g. 30000-32767). */
  serviceNodePortRange: string;
  /** --disable-admission-plugins */
  disabledAdmissionPlugins?: string[];
}

/** What a type's hooks may use: the other stores, the storage and the server's settings. */
export interface HookEnv {
  /** The store of another served resource. */
  store(group: string, resource: string): HookStore;
  storage: Storage;
  registryWatch: RegistryWatch;
  storagePrefix: string;
  historyMs: number;
  options: RegistryOptions;
  log: Logger;
}

/** The verbs of a store as hooks use them (GenericStore). */
export interface HookStore {
  readonly cache: WatchCache;
  /** The key prefix of the store's objects (every namespace). */
  readonly prefix: string;
  keyFor(namespace: string, name: string): string;
  create(namespace: string, obj: KObject, dryRun?: boolean, owner?: { manager: string; subresource: string }): Promise<{ obj: KObject }>;
  delete(namespace: string, name: string, opts: { preconditions?: { uid?: string; resourceVersion?: string } }): Promise<unknown>;
}

/** The store of the object an action acts on (GenericStore): its one update loop. */
export interface ActionStore {
  readonly gr: { group: string; resource: string };
  guaranteedUpdate(
    namespace: string,
    name: string,
    subresource: string,
    tryUpdate: (old: KObject) => KObject,
    createIfMissing?: () => KObject,
    dryRun?: boolean,
  ): Promise<{ obj: KObject }>;
  /** A consistent read of one object (404 when missing). */
  getObject(namespace: string, name: string): Promise<KObject>;
  /** The current objects of a namespace, read consistently. */
  currentObjects(namespace: string): Promise<KObject[]>;
  update(namespace: string, name: string, input: KObject, subresource?: string, dryRun?: boolean, owner?: FieldOwner): Promise<{ obj: KObject }>;
  delete(namespace: string, name: string, opts: ActionDeleteOptions): Promise<unknown>;
  /** Another served resource's store (pods/eviction reads and writes PodDisruptionBudgets). */
  peer(group: string, resource: string): ActionStore;
}

/** DeleteOptions as the generic store takes them. */
export interface ActionDeleteOptions {
  dryRun?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
}

/** A POST subresource that takes a `kind` body (a Binding, an Eviction) for one object. */
export interface ActionSubresource {
  /** The kind of the body, and of the discovery entry. */
  kind: { group: string; version: string; kind: string };
  /** The strategy of the updates the action makes through the store (subresource = its name). */
  strategy?: Strategy;
  /** Acts on object `name`; answers the code and the body to send (a Status or an object). */
  post(store: ActionStore, namespace: string, name: string, body: KObject, opts: { dryRun: boolean }): Promise<{ code: number; body: Record<string, unknown> }>;
}

/** What a write of a subresource's own object answers: the object, and the parent strategy's warnings. */
export interface SubresourceWriteResult {
  object: Record<string, unknown>;
  warnings: string[];
}

/**
 * A subresource served by an object of its own over its parent object, taking and answering
 * another kind than the parent's (kube's ScaleREST for /scale). The verbs call it instead of
 * the parent's store.
 */
export interface SubresourceREST {
  /** The kind it takes and answers, with its schema definition. */
  readonly kind: { group: string; version: string; kind: string; definition: string };
  get(namespace: string, name: string, resourceVersion?: string): Promise<Record<string, unknown>>;
  /**
   * PUT and PATCH: `tryUpdate` turns the current object of `kind` into the wanted one. It
   * runs inside the parent's update loop, again on the latest parent after a conflict.
   */
  update(namespace: string, name: string, tryUpdate: (current: Record<string, unknown>) => unknown, dryRun: boolean, owner: FieldOwner): Promise<SubresourceWriteResult>;
  /** Server-Side Apply of a configuration of `kind`. */
  apply(namespace: string, name: string, config: Record<string, unknown>, opts: { manager: string; force: boolean; dryRun: boolean }): Promise<SubresourceWriteResult>;
}

export interface ResourceKey {
  group: string;
  resource: string;
}

export interface ResourceDef extends ResourceNames {
  strategy: Strategy;
  /** Subresources that take a whole object (status, finalize), each with its strategy. */
  subresources?: Record<string, Strategy>;
  /** kube's per-type name rule (most types: DNS subdomain; StatefulSet and Namespace: DNS label). */
  nameValidator: NameValidator;
  /**
   * The strategy validates no metadata (a PodDisruptionBudget): only kube's generic check runs,
   * after the strategy's and only when it passed, with path-segment names and without core
   * validation's finalizer-name rule.
   */
  genericMetadataOnly?: boolean;
  /** Type-specific finalizers beyond metadata.finalizers (a namespace's spec.finalizers). */
  pendingTypeFinalizers?: (obj: KObject) => boolean;
  /**
   * Adjusts an object that a DELETE is about to mark or remove (a namespace turns
   * Terminating); may throw to refuse (a second delete of a terminating namespace).
   */
  prepareForDelete?: (obj: KObject, alreadyMarked: boolean) => void;
  /**
   * Objects a DELETE may never remove, by name: the reason of kube's 403 (the immortal
   * namespaces of NamespaceLifecycle admission, the system PriorityClasses), checked after the
   * options are read and before the object is looked up. deletecollection does not ask (kube's
   * collection delete bypasses both checks).
   */
  deleteForbidden?: (name: string) => string | undefined;
  /** Present for types with a /scale subresource (autoscaling/v1 Scale): where replicas live. */
  scale?: ScaleSpec;
  /**
   * Graceful deletion (rest.RESTGracefulDeleteStrategy.CheckGracefulDelete): the grace
   * period a DELETE gives the object, from the requested one; 0 deletes at once.
   */
  gracefulDeletePeriod?: (obj: KObject, requested?: number) => number;
  /** What DELETE without a propagation policy does to dependents; unset is background. */
  garbageCollectionPolicy?: GarbageCollectionPolicy;
  /** The type handles its own deletion marking (namespaces): no deletionGracePeriodSeconds. */
  ownDeletion?: boolean;
  table?: TableConvertor;
  admission?: Admission;
  /** What DELETE answers when the object is gone at once: a Status (most types) or the object. */
  returnDeletedObject: boolean;
  /**
   * The path kube's storage keeps this resource under, where it is not the resource's name
   * (services under `services/specs`, nodes under `minions`): it shows in storage errors' keys.
   */
  kubeStoragePath?: string;
  /** Discovery verbs, when they differ from the full set (namespaces have no deletecollection). */
  verbs?: string[];
  /** Set for a resource served without storage (reviews): only POST to the collection. */
  createOnly?: CreateOnlyREST;
  /** Objects the server keeps from its first start on (e.g. the default namespaces): created when missing at every start. */
  bootstrap?: KObject[];
  /** Objects created at the very first start only (on an empty store): the user may delete them. */
  bootstrapOnce?: KObject[];
  /**
   * Set when the type serves another resource's stored objects in its own shape (kube's
   * cohabiting resources: events.k8s.io/v1 Events are the core/v1 Events).
   */
  storedAs?: StoredAs;
  /**
   * The group/version kube stores the type in, when it is not the served one (discovery's
   * storageVersionHash reads it): IPAddresses are still stored as v1beta1 in 1.33.
   */
  storageVersion?: { group: string; version: string };
  /**
   * Subresources that take another kind by POST and act on the object (kube's Creater
   * subresources: pods/binding, pods/eviction), by name.
   */
  actions?: Record<string, ActionSubresource>;
  /** The work writes do beyond the object itself (kube's BeginCreate, BeginUpdate and AfterDelete). */
  writeHooks?: (env: HookEnv) => WriteHooks;
  /**
   * Field labels a field selector may use beyond metadata.name and metadata.namespace
   * (kube's per-kind field label conversion and ToSelectableFields), each reading its value.
   */
  fieldLabels?: Record<string, (obj: KObject) => string>;
  /**
   * kube's prerelease lifecycle of this group version's kind, when it is deprecated (the
   * k8s.io/api APILifecycleDeprecated/Removed/Replacement facts): requests to it answer a
   * deprecation warning, as kube-apiserver's do.
   */
  lifecycle?: APILifecycle;
}

export interface APILifecycle {
  /** The release [major, minor] that deprecated it. */
  deprecated: readonly [number, number];
  /** The release that stops serving it, when one is set. */
  removed?: readonly [number, number];
  /** What to use instead. */
  replacement?: { group: string; version: string; kind: string };
}

/**
 * A resource served without storage of its own, read-only (kube's ComponentStatus REST):
 * get and list only, answered from live checks.
 */
export interface ReadOnlyREST {
  readonly def: ResourceDef;
  get(name: string): Promise<KObject>;
  list(): Promise<KObject[]>;
}


const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const verbsOf = (def: ResourceDef): string[] => def.verbs ?? ALL_VERBS;

/** The group/version the type's objects are stored in (its own, another resource's, or an older one). */
export const storageVersionOf = (def: ResourceDef): { group: string; version: string } =>
  def.storageVersion ?? (def.storedAs ? { group: def.storedAs.group, version: 'v1' } : { group: def.group, version: def.version });

/** The type as discovery and OpenAPI describe it. */
export function apiResourceOf(def: ResourceDef): APIResource {
  return {
    group: def.group,
    version: def.version,
    resource: def.resource,
    kind: def.kind,
    listKind: def.listKind,
    singularName: def.singularName,
    shortNames: def.shortNames,
    categories: def.categories,
    namespaced: def.namespaced,
    verbs: verbsOf(def),
    objectSubresources: Object.keys(def.subresources ?? {}).sort(),
    actions: Object.entries(def.actions ?? {}).map(([name, a]) => ({ name, ...a.kind })),
    scale: def.scale !== undefined,
    // kube documents the deleted object as the DELETE answer only for storages that return it
    // (MayReturnFullObjectDeleter); a namespace's own delete logic answers with it but is
    // documented as a Status.
    deleteReturnsObject: def.returnDeletedObject && !def.ownDeletion,
  };
}
