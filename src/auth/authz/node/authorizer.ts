// The Node authorizer (kube's plugin/pkg/auth/authorizer/node), for the node agents: a user
// `system:node:<name>` in `system:nodes` may read its own Node and the pods bound to it (and
// list or watch pods only with `spec.nodeName=<name>`), write its Node and the pods' status
// (NodeRestriction, src/auth/authz/node/restriction.ts, narrows those writes to its own
// objects), use its Lease in kube-node-lease, read the claims and volumes of its pods, make
// tokens for its pods' service accounts, and whatever the static node rules allow (kube's
// NodeRules: the `system:node` role's rules). Anything else gets no opinion, so RBAC may still
// allow it.
//
// kube walks a graph of pods, claims, volumes and accounts built from informers; here the
// relations are read from the node's watch caches when asked, starting from the pods bound to
// the node (an index by spec.nodeName kept from the pods cache's events).

import type { GenericStore } from '../../../registry/generic/store.js';
import type { KObject } from '../../../machinery/object.js';
import { decodeObject } from '../../../machinery/stored-bytes.js';
import type { PolicyRule } from '../../../registry/rbac/types.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../authorizer.js';
import type { UserInfo } from '../../authn/user.js';
import { rulesAllow } from '../rbac/rules.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** kube's NodeIdentity: the node name of a user `system:node:<name>` in system:nodes. */
export function nodeIdentity(u: UserInfo): { isNode: boolean; nodeName: string } {
  if (!u.name.startsWith(NODE_USER_PREFIX) || !u.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: u.name.slice(NODE_USER_PREFIX.length) };
}

export interface NodeAuthorizerSources {
  /** A served resource's store, when it is served. */
  store(group: string, resource: string): GenericStore | undefined;
  /** kube's static node rules (the `system:node` cluster role of the bootstrap policy). */
  nodeRules: readonly PolicyRule[];
}

interface PodFacts {
  nodeName: string;
  namespace: string;
  name: string;
  claims: string[];
  serviceAccount: string;
}

function podFacts(obj: KObject): PodFacts {
  const spec = (obj.spec ?? {}) as { nodeName?: string; serviceAccountName?: string; volumes?: { name?: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }[] };
  const claims: string[] = [];
  for (const v of spec.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName) claims.push(v.persistentVolumeClaim.claimName);
    // A generic ephemeral volume's claim is named <pod>-<volume>.
    else if (v.ephemeral && v.name) claims.push(`${obj.metadata.name}-${v.name}`);
  }
  return {
    nodeName: spec.nodeName ?? '',
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    claims,
    serviceAccount: spec.serviceAccountName || 'default',
  };
}

const ALLOW: AuthorizationResult = { decision: 'allow', reason: '' };
const noOpinion = (reason = ''): AuthorizationResult => ({ decision: 'no-opinion', reason });

export class NodeAuthorizer implements Authorizer, RuleResolver {
  readonly name = 'Node';
  /** Pod keys by node name, and each pod's facts by key. */
  private readonly podsByNode = new Map<string, Set<string>>();
  private readonly pods = new Map<string, PodFacts>();
  private stops: (() => void)[] = [];

  constructor(private readonly src: NodeAuthorizerSources) {}

  start(): void {
    const pods = this.src.store('', 'pods');
    if (!pods) return;
    const set = (key: string, bytes: Buffer | undefined): void => {
      const before = this.pods.get(key);
      if (before) this.podsByNode.get(before.nodeName)?.delete(key);
      if (!bytes) {
        this.pods.delete(key);
        return;
      }
      const facts = podFacts(decodeObject(bytes));
      this.pods.set(key, facts);
      if (facts.nodeName) {
        let s = this.podsByNode.get(facts.nodeName);
        if (!s) this.podsByNode.set(facts.nodeName, (s = new Set()));
        s.add(key);
      }
    };
    const reload = (): void => {
      this.pods.clear();
      this.podsByNode.clear();
      for (const e of pods.cache.list(pods.prefix)) set(e.key, e.bytes);
    };
    this.stops.push(pods.cache.subscribe((events) => events.forEach((e) => set(e.entry.key, e.type === 'DELETED' ? undefined : e.entry.bytes))));
    this.stops.push(pods.cache.onReset(reload));
    reload();
  }

  stop(): void {
    for (const s of this.stops) s();
    this.stops = [];
  }

  private nodePods(nodeName: string): PodFacts[] {
    return [...(this.podsByNode.get(nodeName) ?? [])].map((k) => this.pods.get(k)!).filter(Boolean);
  }

  /** kube's hasPathFrom, over the relations kapi serves: pod -> node, claim -> pod, volume -> claim, account -> pod. */
  private related(nodeName: string, kind: 'pod' | 'pvc' | 'pv' | 'serviceaccount', namespace: string, name: string): boolean {
    const pods = this.nodePods(nodeName);
    switch (kind) {
      case 'pod':
        return pods.some((p) => p.namespace === namespace && p.name === name);
      case 'pvc':
        return pods.some((p) => p.namespace === namespace && p.claims.includes(name));
      case 'serviceaccount':
        return pods.some((p) => p.namespace === namespace && p.serviceAccount === name);
      case 'pv': {
        const pvcs = this.src.store('', 'persistentvolumeclaims');
        if (!pvcs) return false;
        for (const p of pods) {
          for (const c of p.claims) {
            const e = pvcs.cache.get(pvcs.keyFor(p.namespace, c));
            if (!e) continue;
            const volumeName = ((decodeObject(e.bytes).spec ?? {}) as { volumeName?: string }).volumeName;
            if (volumeName === name) return true;
          }
        }
        return false;
      }
    }
  }

  private authorizeRelated(nodeName: string, kind: 'pod' | 'pvc' | 'pv' | 'serviceaccount', a: Attributes): AuthorizationResult {
    if (!a.name) return noOpinion('No Object name found');
    if (!this.related(nodeName, kind, a.namespace, a.name)) return noOpinion(`no relationship found between node '${nodeName}' and this object`);
    return ALLOW;
  }

  private authorizeGet(nodeName: string, kind: 'pod' | 'pvc' | 'pv', a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return this.authorizeRelated(nodeName, kind, a);
  }

  authorize(a: Attributes): AuthorizationResult {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return noOpinion();
    if (!nodeName) return noOpinion(`unknown node for user ${JSON.stringify(a.user.name)}`);
    if (a.isResourceRequest) {
      const gr = `${a.resource}.${a.apiGroup}`;
      switch (gr) {
        case 'persistentvolumeclaims.':
          if (a.subresource === 'status') {
            if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
            return this.authorizeRelated(nodeName, 'pvc', a);
          }
          return this.authorizeGet(nodeName, 'pvc', a);
        case 'persistentvolumes.':
          return this.authorizeGet(nodeName, 'pv', a);
        case 'serviceaccounts.':
          if (a.verb === 'get' && !a.subresource) return noOpinion('not allowed to get service accounts');
          if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
          if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
          return this.authorizeRelated(nodeName, 'serviceaccount', a);
        case 'leases.coordination.k8s.io':
          return this.authorizeLease(nodeName, a);
        case 'nodes.':
          return this.authorizeNode(nodeName, a);
        case 'pods.':
          return this.authorizePod(nodeName, a);
      }
    }
    return rulesAllow(a, this.src.nodeRules) ? ALLOW : noOpinion();
  }

  private authorizeLease(nodeName: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${JSON.stringify(NODE_LEASE_NAMESPACE)} system namespace`);
    // A create names no object in its URL: NodeRestriction checks the lease's name.
    if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
    return ALLOW;
  }

  private authorizeNode(nodeName: string, a: Attributes): AuthorizationResult {
    if (a.subresource === '') {
      // Writes are narrowed to the node's own object by NodeRestriction.
      if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return ALLOW;
      if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
        if (a.name === nodeName) return ALLOW;
        if (a.name === '') return noOpinion(`node '${nodeName}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${nodeName}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return ALLOW;
    }
    return noOpinion();
  }

  private authorizePod(nodeName: string, a: Attributes): AuthorizationResult {
    switch (a.subresource) {
      case '':
        switch (a.verb) {
          case 'get':
            return this.authorizeGet(nodeName, 'pod', a);
          case 'list':
          case 'watch':
            if ((a.fieldSelector ?? []).some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === nodeName)) return ALLOW;
            if (a.name) return this.authorizeRelated(nodeName, 'pod', a);
            return noOpinion('can only list/watch pods with spec.nodeName field selector');
          case 'create':
          case 'delete':
            // Mirror pods and the final delete of a pod the node ran; NodeRestriction narrows them.
            return ALLOW;
        }
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return ALLOW;
        break;
      case 'eviction':
        if (a.verb === 'create') return ALLOW;
        break;
    }
    return noOpinion();
  }

  /** kube's Node authorizer lists no rules; for a node it says the list is incomplete. */
  rulesFor(user: UserInfo): RulesResult {
    if (nodeIdentity(user).isNode) return { resourceRules: [], nonResourceRules: [], incomplete: true, error: 'node authorizer does not support user rule resolution' };
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}
