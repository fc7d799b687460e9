// The RBAC objects as the authorizer reads them: kept decoded from the node's watch caches
// (kube's informer listers), with the bindings indexed by subject. kube's rule resolver walks
// every ClusterRoleBinding, and every RoleBinding of the namespace, for each request; here a
// request looks up its user's name, its groups and (for a service account) its account, and
// only visits the bindings that name one of them.
//
// The index follows the caches' events as they are published, so a binding written on this
// node counts from the moment the write is answered (the embedded store feeds the caches
// before it acknowledges).

import type { GenericStore } from '../../../registry/generic/store.js';
import { decodeObject } from '../../../machinery/stored-bytes.js';
import type { KObject } from '../../../machinery/object.js';
import type { BindingObject, PolicyRule, RoleObject, RoleRef, Subject } from '../../../registry/rbac/types.js';
import type { UserInfo } from '../../authn/user.js';

export interface RbacStores {
  roles: GenericStore;
  clusterRoles: GenericStore;
  roleBindings: GenericStore;
  clusterRoleBindings: GenericStore;
}

export interface IndexedBinding {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  namespace: string;
  roleRef: RoleRef;
  subjects: Subject[];
}

const SA_PREFIX = 'system:serviceaccount:';

/** The index keys a subject of a binding in `namespace` ('' for cluster bindings) is found under. */
function subjectKey(s: Subject, namespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `u\0${s.name}`;
    case 'Group':
      return `g\0${s.name}`;
    case 'ServiceAccount': {
      // A RoleBinding's service account subject without a namespace is in the binding's.
      const ns = s.namespace || namespace;
      return ns ? `u\0${SA_PREFIX}${ns}:${s.name}` : undefined;
    }
    default:
      return undefined;
  }
}

/** kube's appliesTo: the index of the first subject that is this user, or -1. */
export function subjectIndexFor(user: UserInfo, subjects: readonly Subject[], namespace: string): number {
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i]!;
    switch (s.kind) {
      case 'User':
        if (user.name === s.name) return i;
        break;
      case 'Group':
        if (user.groups.includes(s.name)) return i;
        break;
      case 'ServiceAccount': {
        const ns = s.namespace || namespace;
        if (ns && user.name === `${SA_PREFIX}${ns}:${s.name}`) return i;
        break;
      }
    }
  }
  return -1;
}

/** One kind's objects by cache key, decoded once per stored version. */
class DecodedKind<T> {
  readonly byKey = new Map<string, T>();
  constructor(
    private readonly store: GenericStore,
    private readonly decode: (obj: KObject) => T,
    private readonly onChange: (key: string, before: T | undefined, after: T | undefined) => void,
  ) {}

  start(): () => void {
    const unsubscribe = this.store.cache.subscribe((events) => {
      for (const e of events) this.set(e.entry.key, e.type === 'DELETED' ? undefined : e.entry.bytes);
    });
    const unreset = this.store.cache.onReset(() => this.reload());
    this.reload();
    return () => {
      unsubscribe();
      unreset();
    };
  }

  private reload(): void {
    const seen = new Set<string>();
    for (const e of this.store.cache.list(this.store.prefix)) {
      seen.add(e.key);
      this.set(e.key, e.bytes);
    }
    for (const key of [...this.byKey.keys()]) if (!seen.has(key)) this.set(key, undefined);
  }

  private set(key: string, bytes: Buffer | undefined): void {
    const before = this.byKey.get(key);
    let after: T | undefined;
    if (bytes) {
      after = this.decode(decodeObject(bytes));
      this.byKey.set(key, after);
    } else {
      this.byKey.delete(key);
    }
    this.onChange(key, before, after);
  }
}

function bindingOf(kind: IndexedBinding['kind']): (obj: KObject) => IndexedBinding {
  return (obj) => {
    const b = obj as BindingObject;
    return {
      kind,
      name: obj.metadata.name ?? '',
      namespace: obj.metadata.namespace ?? '',
      roleRef: b.roleRef ?? { apiGroup: '', kind: '', name: '' },
      subjects: b.subjects ?? [],
    };
  };
}

const rulesOfObject = (obj: KObject): PolicyRule[] => (obj as RoleObject).rules ?? [];

export class RbacIndex {
  private readonly roles: DecodedKind<PolicyRule[]>;
  private readonly clusterRoles: DecodedKind<PolicyRule[]>;
  private readonly roleBindings: DecodedKind<IndexedBinding>;
  private readonly clusterRoleBindings: DecodedKind<IndexedBinding>;
  /** Cluster bindings by subject key. */
  private readonly clusterBySubject = new Map<string, Set<IndexedBinding>>();
  /** Namespaced bindings by namespace, then subject key. */
  private readonly namespacedBySubject = new Map<string, Map<string, Set<IndexedBinding>>>();
  private stops: (() => void)[] = [];
  private readonly keyOf: (kind: 'roles' | 'clusterRoles', namespace: string, name: string) => string;

  constructor(private readonly stores: RbacStores) {
    this.roles = new DecodedKind(stores.roles, rulesOfObject, () => undefined);
    this.clusterRoles = new DecodedKind(stores.clusterRoles, rulesOfObject, () => undefined);
    this.roleBindings = new DecodedKind(stores.roleBindings, bindingOf('RoleBinding'), (_k, before, after) => this.reindex(before, after));
    this.clusterRoleBindings = new DecodedKind(stores.clusterRoleBindings, bindingOf('ClusterRoleBinding'), (_k, before, after) => this.reindex(before, after));
    this.keyOf = (kind, namespace, name) => (kind === 'roles' ? stores.roles.keyFor(namespace, name) : stores.clusterRoles.keyFor('', name));
  }

  start(): void {
    this.stops = [this.roles.start(), this.clusterRoles.start(), this.roleBindings.start(), this.clusterRoleBindings.start()];
  }

  stop(): void {
    for (const s of this.stops) s();
    this.stops = [];
  }

  private bucket(b: IndexedBinding): Map<string, Set<IndexedBinding>> {
    if (b.kind === 'ClusterRoleBinding') return this.clusterBySubject;
    let m = this.namespacedBySubject.get(b.namespace);
    if (!m) this.namespacedBySubject.set(b.namespace, (m = new Map()));
    return m;
  }

  private reindex(before: IndexedBinding | undefined, after: IndexedBinding | undefined): void {
    if (before) {
      const m = this.bucket(before);
      for (const s of before.subjects) {
        const k = subjectKey(s, before.namespace);
        if (!k) continue;
        const set = m.get(k);
        set?.delete(before);
        if (set && set.size === 0) m.delete(k);
      }
    }
    if (after) {
      const m = this.bucket(after);
      for (const s of after.subjects) {
        const k = subjectKey(s, after.namespace);
        if (!k) continue;
        let set = m.get(k);
        if (!set) m.set(k, (set = new Set()));
        set.add(after);
      }
    }
  }

  /** The bindings (cluster ones when `namespace` is undefined) that name this user, by name. */
  bindingsFor(user: UserInfo, namespace?: string): IndexedBinding[] {
    const m = namespace === undefined ? this.clusterBySubject : this.namespacedBySubject.get(namespace);
    if (!m || m.size === 0) return [];
    const found = new Set<IndexedBinding>();
    const add = (k: string): void => {
      const set = m.get(k);
      if (set) for (const b of set) found.add(b);
    };
    add(`u\0${user.name}`);
    for (const g of user.groups) add(`g\0${g}`);
    if (found.size <= 1) return [...found];
    return [...found].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The rules a binding's role reference names, or the lister's not-found message. */
  roleRefRules(ref: RoleRef, namespace: string): { rules: PolicyRule[] } | { error: string } {
    switch (ref.kind) {
      case 'Role': {
        const rules = this.roles.byKey.get(this.keyOf('roles', namespace, ref.name));
        return rules ? { rules } : { error: `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found` };
      }
      case 'ClusterRole': {
        const rules = this.clusterRoles.byKey.get(this.keyOf('clusterRoles', '', ref.name));
        return rules ? { rules } : { error: `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found` };
      }
      default:
        return { error: `unsupported role reference kind: ${JSON.stringify(ref.kind)}` };
    }
  }
}
