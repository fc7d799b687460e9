// The garbage collector, after kube's pkg/controller/garbagecollector (garbagecollector.go,
// graph_builder.go, operations.go): informers on every served resource feed the dependency
// graph (graph.ts); two queues act on it:
// - attemptToDelete: an object whose owners may be gone. Owners are classified by a live
//   read as solid (present), dangling (absent, or another object under that name) or waiting
//   for their dependents (being deleted in the foreground). With no solid owner left the
//   object is deleted (in the foreground when an owner waits for it, else by its own
//   finalizers' policy); with some solid owners, the dangling and waiting references are
//   removed. An owner being deleted in the foreground loses its `foregroundDeletion`
//   finalizer once no dependent blocks it (`blockOwnerDeletion`).
// - attemptToOrphan: an object deleted with the `orphan` finalizer has its dependents'
//   references to it removed, then the finalizer.
// Owners a dependent names but no informer has shown are virtual nodes: a read that finds
// them absent removes them from the graph, which queues their dependents.

import type { Logger } from 'pino';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KObject } from '../../machinery/object.js';
import { StatusError, conflict } from '../../machinery/errors.js';
import type { Controller } from '../manager.js';
import type { ControllerClient } from '../framework/client.js';
import { EventRecorder } from '../framework/events.js';
import type { InformerFactory } from '../framework/informer.js';
import { NotLeadingError } from '../framework/leading.js';
import { ownerReferences, isNotFound, type OwnerReference } from '../framework/owners.js';
import { RateLimitingQueue } from '../framework/workqueue.js';
import { GraphNode, alternateOwnerIdentity, identityKey, identityString, partitionDependents, refMatches, referencesDiffs, type Identity } from './graph.js';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
/** kube-controller-manager's --concurrent-gc-syncs. */
const WORKERS = 20;
const ABSENT_CACHE_SIZE = 500;

/** A reference to a kind no served resource has (kube's restMappingError): retried. */
class NoMappingError extends Error {}
/** A cluster-scoped object naming a namespaced owner: never valid, not retried. */
class NamespacedOwnerOfClusterScopedObject extends Error {}
/** attemptToDeleteItem ended in a virtual delete event: nothing to retry. */
const VIRTUAL_DELETE = Symbol('virtual delete');

type Action = 'forget' | 'requeue';

/** A set that forgets its oldest entries past a size (kube's ReferenceCache). */
class ReferenceCache {
  private readonly keys = new Map<string, true>();
  constructor(private readonly size: number) {}
  add(id: Identity): void {
    const k = identityKey(id);
    this.keys.delete(k);
    this.keys.set(k, true);
    if (this.keys.size > this.size) this.keys.delete(this.keys.keys().next().value!);
  }
  has(id: Identity): boolean {
    const k = identityKey(id);
    if (!this.keys.has(k)) return false;
    this.keys.delete(k);
    this.keys.set(k, true);
    return true;
  }
}

interface GraphEvent {
  type: 'add' | 'update' | 'delete';
  obj: KObject;
  old?: KObject;
  identity: Identity;
  virtual?: boolean;
}

const beingDeleted = (o: KObject): boolean => Boolean(o.metadata.deletionTimestamp);
const hasFinalizer = (o: KObject, f: string): boolean => (o.metadata.finalizers ?? []).includes(f);
const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

export class GarbageCollector implements Controller {
  private readonly uidToNode = new Map<string, GraphNode>();
  private readonly attemptToDelete = new RateLimitingQueue<GraphNode>('garbage_collector_attempt_to_delete');
  private readonly attemptToOrphan = new RateLimitingQueue<GraphNode>('garbage_collector_attempt_to_orphan');
  private readonly absentOwners = new ReferenceCache(ABSENT_CACHE_SIZE);
  private readonly recorder: EventRecorder;
  private readonly cleanups: (() => void)[] = [];
  private stopped = false;
  private busy = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    private readonly informers: InformerFactory,
    private readonly stores: () => GenericStore[],
    private readonly client: ControllerClient,
    private readonly log: Logger,
  ) {
    this.recorder = new EventRecorder(client, 'garbage-collector-controller', log);
  }

  /** The stores the collector watches: every served resource but the views of another's objects. */
  private monitored(): GenericStore[] {
    return this.stores().filter((s) => !s.def.storedAs);
  }

  start(): void {
    for (const store of this.monitored()) {
      const inf = this.informers.for(store.def.group, store.def.resource);
      const id = (o: KObject): Identity => ({
        apiVersion: store.apiVersion,
        kind: store.def.kind,
        name: o.metadata.name ?? '',
        uid: o.metadata.uid ?? '',
        namespace: o.metadata.namespace ?? '',
      });
      this.cleanups.push(
        inf.addEventHandler({
          add: (o) => this.processGraphChange({ type: 'add', obj: o, identity: id(o) }),
          update: (old, cur) => this.processGraphChange({ type: 'update', obj: cur, old, identity: id(cur) }),
          delete: (o) => this.processGraphChange({ type: 'delete', obj: o, identity: id(o) }),
        }),
      );
    }
    for (let i = 0; i < WORKERS; i++) {
      void this.run(this.attemptToDelete, (n) => this.attemptToDeleteWorker(n));
      void this.run(this.attemptToOrphan, (n) => this.attemptToOrphanWorker(n));
    }
  }

  stop(): void {
    this.stopped = true;
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
    for (const c of this.cleanups.splice(0)) c();
    this.recorder.stop();
  }

  /** Whether the graph has a node for `uid` (tests). */
  hasUID(uid: string): boolean {
    return this.uidToNode.has(uid);
  }

  /** Resolves when neither queue has work (tests and benches). */
  idle(): Promise<void> {
    if (this.busy === 0 && this.attemptToDelete.length === 0 && this.attemptToOrphan.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private async run(queue: RateLimitingQueue<GraphNode>, work: (n: GraphNode) => Promise<Action>): Promise<void> {
    for (;;) {
      const n = await queue.get();
      if (n === undefined) return;
      this.busy++;
      try {
        const action = await work(n);
        if (action === 'forget') queue.forget(n);
        else queue.addRateLimited(n);
      } catch (err) {
        if (err instanceof NotLeadingError || this.stopped) queue.forget(n);
        else {
          this.log.debug({ item: identityString(n.identity), err: (err as Error).message }, 'garbage collector: error syncing item');
          queue.addRateLimited(n);
        }
      } finally {
        queue.done(n);
        this.busy--;
        if (this.busy === 0 && this.attemptToDelete.length === 0 && this.attemptToOrphan.length === 0) for (const w of this.idleWaiters.splice(0)) w();
      }
    }
  }

  // ---- the graph (GraphBuilder) ----

  private processGraphChange(ev: GraphEvent): void {
    const uid = ev.identity.uid;
    let existing = this.uidToNode.get(uid);
    if (existing && !ev.virtual && !existing.observed) {
      const observed = ev.identity;
      if (identityKey(observed) !== identityKey(existing.identity)) {
        // Dependents that named this uid by other coordinates may point at nothing.
        const { nonmatching } = partitionDependents(existing.dependents, observed);
        for (const dep of nonmatching) {
          if (observed.namespace && dep.identity.namespace !== observed.namespace) this.reportInvalidNamespaceOwnerRef(dep, observed.uid);
          this.attemptToDelete.add(dep);
        }
        existing = existing.clone();
        existing.identity = observed;
        this.uidToNode.set(uid, existing);
      }
      existing.virtual = false;
    }
    const obj = ev.obj;
    if (ev.type !== 'delete' && !existing) {
      const n = new GraphNode(ev.identity, false);
      n.owners = ownerReferences(obj);
      n.beingDeleted = beingDeleted(obj);
      n.deletingDependents = n.beingDeleted && hasFinalizer(obj, FOREGROUND);
      this.uidToNode.set(uid, n);
      this.addDependentToOwners(n, n.owners);
      this.processTransitions(ev.old, obj, n);
      return;
    }
    if (ev.type !== 'delete' && existing) {
      const refs = ownerReferences(obj);
      const { added, removed, changed } = referencesDiffs(existing.owners, refs);
      if (added.length || removed.length || changed.length) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = refs;
        this.addDependentToOwners(existing, added);
        this.removeDependentFromOwners(existing, removed);
      }
      if (beingDeleted(obj)) existing.beingDeleted = true;
      this.processTransitions(ev.old, obj, existing);
      return;
    }
    // delete
    if (!existing) return;
    let remove = true;
    if (ev.virtual) {
      const deleted = ev.identity;
      if (existing.virtual) {
        const { matching, nonmatching } = partitionDependents(existing.dependents, deleted);
        if (nonmatching.length > 0) {
          // Other dependents name this uid differently: check those coordinates next.
          remove = false;
          if (matching.length > 0) {
            this.absentOwners.add(deleted);
            for (const dep of matching) this.attemptToDelete.add(dep);
          }
          if (identityKey(existing.identity) === identityKey(deleted)) {
            const alt = alternateOwnerIdentity(nonmatching, deleted);
            if (alt) {
              const replacement = existing.clone();
              replacement.identity = alt;
              this.uidToNode.set(uid, replacement);
              this.attemptToDelete.addRateLimited(replacement);
            }
          }
        }
      } else if (identityKey(existing.identity) !== identityKey(deleted)) {
        // The object exists under other coordinates: only the dependents that named these are dangling.
        remove = false;
        const { matching } = partitionDependents(existing.dependents, deleted);
        if (matching.length > 0) {
          this.absentOwners.add(deleted);
          for (const dep of matching) this.attemptToDelete.add(dep);
        }
      }
    }
    if (!remove) return;
    this.uidToNode.delete(uid);
    this.removeDependentFromOwners(existing, existing.owners);
    if (existing.dependents.size > 0) this.absentOwners.add(ev.identity);
    for (const dep of existing.dependents) this.attemptToDelete.add(dep);
    for (const o of existing.owners) {
      const owner = this.uidToNode.get(o.uid);
      if (owner?.deletingDependents) this.attemptToDelete.add(owner);
    }
  }

  private addDependentToOwners(n: GraphNode, owners: OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const o of owners) {
      let owner = this.uidToNode.get(o.uid);
      const known = owner !== undefined;
      if (!owner) {
        owner = new GraphNode({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, uid: o.uid, namespace: n.identity.namespace }, true);
        this.uidToNode.set(o.uid, owner);
      }
      owner.dependents.add(n);
      if (!known) {
        this.attemptToDelete.add(owner);
      } else if (!potentiallyInvalid) {
        const ownerNamespaced = owner.identity.namespace !== '';
        if (ownerNamespaced && owner.identity.namespace !== n.identity.namespace) {
          if (owner.observed) this.reportInvalidNamespaceOwnerRef(n, o.uid);
          potentiallyInvalid = true;
        } else if (!refMatches(o, owner.identity)) {
          potentiallyInvalid = true;
        } else if (!ownerNamespaced && owner.identity.namespace !== n.identity.namespace && !owner.observed) {
          potentiallyInvalid = true;
        }
      }
    }
    if (potentiallyInvalid) this.attemptToDelete.add(n);
  }

  private removeDependentFromOwners(n: GraphNode, owners: OwnerReference[]): void {
    for (const o of owners) this.uidToNode.get(o.uid)?.dependents.delete(n);
  }

  /** An owner a removed or unblocked reference no longer holds back may be finished. */
  private addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: { oldRef: OwnerReference; newRef: OwnerReference }[]): void {
    for (const r of removed) {
      if (r.blockOwnerDeletion !== true) continue;
      const n = this.uidToNode.get(r.uid);
      if (n) this.attemptToDelete.add(n);
    }
    for (const c of changed) {
      if (c.oldRef.blockOwnerDeletion === true && c.newRef.blockOwnerDeletion !== true) {
        const n = this.uidToNode.get(c.newRef.uid);
        if (n) this.attemptToDelete.add(n);
      }
    }
  }

  private processTransitions(old: KObject | undefined, cur: KObject, n: GraphNode): void {
    const starts = (f: string): boolean => beingDeleted(cur) && hasFinalizer(cur, f) && (!old || !beingDeleted(old) || !hasFinalizer(old, f));
    if (starts(ORPHAN)) {
      this.attemptToOrphan.add(n);
      return;
    }
    if (starts(FOREGROUND)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) this.attemptToDelete.add(dep);
      this.attemptToDelete.add(n);
    }
  }

  private reportInvalidNamespaceOwnerRef(n: GraphNode, ownerUID: string): void {
    const ref = n.owners.find((o) => o.uid === ownerUID);
    if (!ref) return;
    const invalid = `[${ref.apiVersion}/${ref.kind}, namespace: ${n.identity.namespace}, name: ${ref.name}, uid: ${ref.uid}]`;
    const about: KObject = { apiVersion: n.identity.apiVersion, kind: n.identity.kind, metadata: { name: n.identity.name, namespace: n.identity.namespace, uid: n.identity.uid } };
    this.recorder.event(about, 'Warning', 'OwnerRefInvalidNamespace', `ownerRef ${invalid} does not exist in namespace ${JSON.stringify(n.identity.namespace)}`);
  }

  // ---- acting on the graph (GarbageCollector) ----

  /** The store serving an apiVersion and kind (kube's REST mapping; the version is not checked). */
  private storeFor(apiVersion: string, kind: string): GenericStore {
    const group = groupOf(apiVersion);
    const s = this.monitored().find((st) => st.def.group === group && st.def.kind === kind);
    if (!s) throw new NoMappingError(`unable to get REST mapping for ${apiVersion}/${kind}`);
    return s;
  }

  private async getObject(id: Identity): Promise<KObject> {
    const s = this.storeFor(id.apiVersion, id.kind);
    return s.getObject(s.def.namespaced ? id.namespace : '', id.name);
  }

  private virtualDelete(id: Identity): void {
    const obj: KObject = { metadata: { name: id.name, namespace: id.namespace, uid: id.uid } };
    this.processGraphChange({ type: 'delete', obj, identity: id, virtual: true });
  }

  private async attemptToDeleteWorker(n: GraphNode): Promise<Action> {
    if (!n.observed) {
      const inGraph = this.uidToNode.get(n.identity.uid);
      if (!inGraph || inGraph.observed) return 'forget';
    }
    let r: typeof VIRTUAL_DELETE | undefined;
    try {
      r = await this.attemptToDeleteItem(n);
    } catch (e) {
      if (e instanceof NamespacedOwnerOfClusterScopedObject) return 'forget';
      throw e;
    }
    if (r === VIRTUAL_DELETE) return 'forget';
    // A virtual node that was added and removed while the informers were resyncing must not stay.
    return n.observed ? 'forget' : 'requeue';
  }

  private async attemptToDeleteItem(item: GraphNode): Promise<typeof VIRTUAL_DELETE | undefined> {
    if (item.beingDeleted && !item.deletingDependents) return undefined;
    let latest: KObject;
    try {
      latest = await this.getObject(item.identity);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      this.virtualDelete(item.identity);
      return VIRTUAL_DELETE;
    }
    if (latest.metadata.uid !== item.identity.uid) {
      this.virtualDelete(item.identity);
      return VIRTUAL_DELETE;
    }
    if (item.deletingDependents) {
      await this.processDeletingDependentsItem(item);
      return undefined;
    }
    const refs = ownerReferences(latest);
    if (refs.length === 0) return undefined;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const { isDangling, owner } = await this.isDangling(ref, item);
      if (isDangling) dangling.push(ref);
      else if (owner && beingDeleted(owner) && hasFinalizer(owner, FOREGROUND)) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return undefined;
      // Still owned: only the references to absent owners and owners waiting for it go.
      const uids = new Set([...dangling, ...waiting].map((r) => r.uid));
      await this.patchOwners(item, (cur) => {
        const keep = ownerReferences(cur).filter((r) => !uids.has(r.uid));
        if (keep.length) cur.metadata.ownerReferences = keep;
        else delete cur.metadata.ownerReferences;
      });
      return undefined;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      // It has dependents of its own: if one of them is itself deleting in the foreground,
      // unblock our owners first, or the two would wait for each other.
      for (const dep of item.dependents) {
        if (!dep.deletingDependents) continue;
        await this.patchOwners(item, (cur) => {
          cur.metadata.ownerReferences = ownerReferences(cur).map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r));
        });
        break;
      }
      await this.deleteObject(item.identity, 'Foreground');
      return undefined;
    }
    const policy = hasFinalizer(latest, ORPHAN) ? 'Orphan' : hasFinalizer(latest, FOREGROUND) ? 'Foreground' : 'Background';
    await this.deleteObject(item.identity, policy);
    return undefined;
  }

  private async isDangling(ref: OwnerReference, item: GraphNode): Promise<{ isDangling: boolean; owner?: KObject }> {
    const key: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: '' };
    if (this.absentOwners.has(key)) return { isDangling: true };
    key.namespace = item.identity.namespace;
    if (this.absentOwners.has(key)) return { isDangling: true };
    const store = this.storeFor(ref.apiVersion, ref.kind);
    if (!store.def.namespaced) key.namespace = '';
    if (item.identity.namespace === '' && store.def.namespaced) {
      throw new NamespacedOwnerOfClusterScopedObject(`cluster-scoped object ${identityString(item.identity)} has a namespaced owner`);
    }
    let owner: KObject;
    try {
      owner = await store.getObject(store.def.namespaced ? item.identity.namespace : '', ref.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      this.absentOwners.add(key);
      return { isDangling: true };
    }
    if (owner.metadata.uid !== ref.uid) {
      this.absentOwners.add(key);
      return { isDangling: true };
    }
    return { isDangling: false, owner };
  }

  private async processDeletingDependentsItem(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      await this.removeFinalizer(item, FOREGROUND);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep);
  }

  private async deleteObject(id: Identity, policy: 'Orphan' | 'Foreground' | 'Background'): Promise<void> {
    const s = this.storeFor(id.apiVersion, id.kind);
    await this.client.delete(s.def.group, s.def.resource, s.def.namespaced ? id.namespace : '', id.name, { preconditions: { uid: id.uid }, propagationPolicy: policy });
  }

  /** A change of an object's owner references, on the object of that uid only. */
  private async patchOwners(item: GraphNode, change: (cur: KObject) => void): Promise<void> {
    const s = this.storeFor(item.identity.apiVersion, item.identity.kind);
    await this.client.patch(s.def.group, s.def.resource, s.def.namespaced ? item.identity.namespace : '', item.identity.name, (cur) => {
      if (cur.metadata.uid !== item.identity.uid) throw conflict(s.gr, item.identity.name, 'the object was replaced');
      change(cur);
      return cur;
    });
  }

  private async removeFinalizer(owner: GraphNode, finalizer: string): Promise<void> {
    const s = this.storeFor(owner.identity.apiVersion, owner.identity.kind);
    try {
      await this.client.patch(s.def.group, s.def.resource, s.def.namespaced ? owner.identity.namespace : '', owner.identity.name, (cur) => {
        if (cur.metadata.uid !== owner.identity.uid) throw new StatusError(404, 'NotFound', 'the object was replaced');
        const rest = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        if (rest.length) cur.metadata.finalizers = rest;
        else delete cur.metadata.finalizers;
        return cur;
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  private async attemptToOrphanWorker(owner: GraphNode): Promise<Action> {
    const errors: string[] = [];
    await Promise.all(
      [...owner.dependents].map(async (dep) => {
        try {
          await this.patchOwners(dep, (cur) => {
            const keep = ownerReferences(cur).filter((r) => r.uid !== owner.identity.uid);
            if (keep.length) cur.metadata.ownerReferences = keep;
            else delete cur.metadata.ownerReferences;
          });
        } catch (e) {
          if (e instanceof NotLeadingError) throw e;
          if (!isNotFound(e)) errors.push(`orphaning ${identityString(dep.identity)} failed, ${(e as Error).message}`);
        }
      }),
    );
    if (errors.length) {
      this.log.debug({ owner: identityString(owner.identity), errors }, 'garbage collector: orphaning dependents failed');
      return 'requeue';
    }
    await this.removeFinalizer(owner, ORPHAN);
    return 'forget';
  }
}
