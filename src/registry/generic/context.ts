// What the generic store's parts (read.ts, write.ts, delete.ts) share: the store's
// dependencies and per-kind state, handed to them as one context by store.ts.

import type { Logger } from 'pino';
import type { Storage } from '../../storage/interface.js';
import type { KindActor } from '../../actors/kind-actor.js';
import type { RegistryWatch } from '../../cache/registry-watch.js';
import type { WatchCache } from '../../cache/watch-cache.js';
import type { GroupResource } from '../../machinery/errors.js';
import type { KObject } from '../../machinery/object.js';
import type { FieldManager } from '../../patch/ssa/field-manager.js';
import type { ActionStore, HookStore, RegistryOptions, ResourceDef, WriteHooks } from '../types.js';
import type { StoredForm } from './stored-form.js';

export interface StoreDeps {
  storage: Storage;
  registryWatch: RegistryWatch;
  /** e.g. `/registry` (kube's --etcd-prefix). */
  storagePrefix: string;
  log: Logger;
  historyMs: number;
  /**
   * Looks up a namespace's current state; used by create to refuse missing or terminating
   * namespaces. The object is for reading only (it may be shared with other readers).
   */
  namespaceOf: (name: string) => Promise<Readonly<KObject> | undefined>;
  /** The objects admission plugins read (synchronously, from the watch cache), of one namespace when given. */
  admissionList: (group: string, resource: string, namespace?: string) => KObject[];
  /** Another served resource's store, for types whose writes reach other objects (write hooks). */
  storeFor?: (group: string, resource: string) => (HookStore & ActionStore) | undefined;
  /** The server's settings the types read (the service ranges). */
  options?: RegistryOptions;
}

/** One kind's store as its parts see it. */
export interface StoreContext {
  readonly def: ResourceDef;
  readonly deps: StoreDeps;
  readonly cache: WatchCache;
  /** Serializes this kind's writes (see actors/kind-actor.ts). */
  readonly actor: KindActor;
  /** The kind's key prefix, e.g. `/registry/apps/statefulsets/`. */
  readonly prefix: string;
  readonly gr: GroupResource;
  readonly apiVersion: string;
  /** The type's schema definition name (io.k8s.api.apps.v1.StatefulSet). */
  readonly definition: string;
  readonly fieldManager: FieldManager;
  /** The revision this node's caches reflect. */
  readonly cacheRevision: number;
  keyFor(namespace: string, name: string): string;
  /** The key prefix of a list: one namespace, or everything. */
  listPrefix(namespace: string): string;
  /** Brings the cache to the freshness a resourceVersion asks for (store.ts). */
  freshen(resourceVersion: string | undefined): Promise<number>;
  /** How the kind's objects sit in storage (its own shape, or another resource's). */
  readonly stored: StoredForm;
  /** The kind's write hooks (kube's BeginCreate, BeginUpdate, AfterDelete), made on first use. */
  readonly hooks: WriteHooks | undefined;
}

/** How long a read waits for the cache to reach a resourceVersion (kube: 3 s). */
export const WAIT_FOR_RV_MS = 3000;

/** The parts of an object a no-op check compares (resourceVersion is not content). */
export function canonical(obj: KObject): KObject {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  void _rv;
  return { ...obj, metadata: meta };
}
