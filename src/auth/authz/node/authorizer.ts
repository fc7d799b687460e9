// The Node authorizer (kube's plugin/pkg/auth/authorizer/node), for the node agents: a user
// `system:node:<name>` in `system:nodes` may read its own Node and the pods bound to it (and
// list or watch pods only with `spec.nodeName=<name>`), write its Node and the pods' status
// (NodeRestriction, src/auth/authz/node/restriction.ts, narrows those writes to its own
// objects), use its Lease in kube-node-lease, read the claims, volumes, secrets, config maps
// and resource claims of its pods, make tokens for its pods' service accounts, use its
// CSINode and (by field selector) its ResourceSlices, and whatever the static node rules allow (kube's
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
  secrets: Set<string>;
  configMaps: Set<string>;
  resourceClaims: Set<string>;
}

type Obj = Record<string, unknown>;
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x): x is Obj => !!x && typeof x === 'object') : []);
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The secrets and config maps a container's environment names. */
function visitContainerRefs(c: Obj, secrets: Set<string>, configMaps: Set<string>): void {
  for (const e of objs(c.env)) {
    const from = obj(e.valueFrom);
    if (str(obj(from?.secretKeyRef)?.name)) secrets.add(str(obj(from?.secretKeyRef)?.name));
    if (str(obj(from?.configMapKeyRef)?.name)) configMaps.add(str(obj(from?.configMapKeyRef)?.name));
  }
  for (const e of objs(c.envFrom)) {
    if (str(obj(e.secretRef)?.name)) secrets.add(str(obj(e.secretRef)?.name));
    if (str(obj(e.configMapRef)?.name)) configMaps.add(str(obj(e.configMapRef)?.name));
  }
}

/** Volume sources that name a secret by `secretRef.name` (kube's VisitPodSecretNames). */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

function podFacts(o: KObject): PodFacts {
  const spec = (o.spec ?? {}) as Obj;
  const claims: string[] = [];
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const resourceClaims = new Set<string>();
  for (const r of objs(spec.imagePullSecrets)) if (str(r.name)) secrets.add(str(r.name));
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) for (const c of objs(spec[list])) visitContainerRefs(c, secrets, configMaps);
  for (const v of objs(spec.volumes)) {
    const pvc = obj(v.persistentVolumeClaim);
    if (str(pvc?.claimName)) claims.push(str(pvc?.claimName));
    // A generic ephemeral volume's claim is named <pod>-<volume>.
    else if (v.ephemeral && str(v.name)) claims.push(`${o.metadata.name}-${str(v.name)}`);
    if (str(obj(v.secret)?.secretName)) secrets.add(str(obj(v.secret)?.secretName));
    if (str(obj(v.azureFile)?.secretName)) secrets.add(str(obj(v.azureFile)?.secretName));
    if (str(obj(obj(v.csi)?.nodePublishSecretRef)?.name)) secrets.add(str(obj(obj(v.csi)?.nodePublishSecretRef)?.name));
    for (const src of SECRET_REF_SOURCES) if (str(obj(obj(v[src])?.secretRef)?.name)) secrets.add(str(obj(obj(v[src])?.secretRef)?.name));
    if (str(obj(v.configMap)?.name)) configMaps.add(str(obj(v.configMap)?.name));
    for (const p of objs(obj(v.projected)?.sources)) {
      if (str(obj(p.secret)?.name)) secrets.add(str(obj(p.secret)?.name));
      if (str(obj(p.configMap)?.name)) configMaps.add(str(obj(p.configMap)?.name));
    }
  }
  for (const c of objs(spec.resourceClaims)) if (str(c.resourceClaimName)) resourceClaims.add(str(c.resourceClaimName));
  for (const c of objs(obj(o.status)?.resourceClaimStatuses)) if (str(c.resourceClaimName)) resourceClaims.add(str(c.resourceClaimName));
  return {
    nodeName: str(spec.nodeName),
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name ?? '',
    claims,
    serviceAccount: str(spec.serviceAccountName) || 'default',
    secrets,
    configMaps,
    resourceClaims,
  };
}

/** The secrets (namespace/name) a PersistentVolume names (kube's VisitPVSecretNames, for the sources kube lists). */
function pvSecrets(pv: KObject): string[] {
  const spec = (pv.spec ?? {}) as Obj;
  const out: string[] = [];
  const add = (ref: Obj | undefined, defaultNamespace = ''): void => {
    if (str(ref?.name)) out.push(`${str(ref?.namespace) || defaultNamespace}/${str(ref?.name)}`);
  };
  const csi = obj(spec.csi);
  for (const k of ['controllerPublishSecretRef', 'nodePublishSecretRef', 'nodeStageSecretRef', 'controllerExpandSecretRef', 'nodeExpandSecretRef']) add(obj(csi?.[k]));
  for (const src of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) add(obj(obj(spec[src])?.secretRef));
  const azure = obj(spec.azureFile);
  if (str(azure?.secretName)) out.push(`${str(azure?.secretNamespace) || 'default'}/${str(azure?.secretName)}`);
  return out;
}

type Related = 'pod' | 'pvc' | 'pv' | 'serviceaccount' | 'secret' | 'configmap' | 'resourceclaim' | 'volumeattachment' | 'resourceslice';

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

  /** The names of the PersistentVolumes the claims of this node's pods are bound to. */
  private nodeVolumeNames(pods: PodFacts[]): string[] {
    const pvcs = this.src.store('', 'persistentvolumeclaims');
    if (!pvcs) return [];
    const out: string[] = [];
    for (const p of pods) {
      for (const c of p.claims) {
        const e = pvcs.cache.get(pvcs.keyFor(p.namespace, c));
        if (!e) continue;
        const volumeName = ((decodeObject(e.bytes).spec ?? {}) as { volumeName?: string }).volumeName;
        if (volumeName) out.push(volumeName);
      }
    }
    return out;
  }

  /** Those volumes' objects, where they exist (for the secrets they name). */
  private nodeVolumes(pods: PodFacts[]): KObject[] {
    const pvs = this.src.store('', 'persistentvolumes');
    if (!pvs) return [];
    return this.nodeVolumeNames(pods)
      .map((n) => pvs.cache.get(pvs.keyFor('', n)))
      .filter((e) => e !== undefined)
      .map((e) => decodeObject(e.bytes));
  }

  /**
   * kube's hasPathFrom, over the relations kapi can see: pod -> node; claim, secret, config
   * map, resource claim and account -> pod; volume -> claim; secret -> volume. Kinds kapi does
   * not serve (volume attachments, resource slices) have no objects, so nothing relates them.
   */
  private related(nodeName: string, kind: Related, namespace: string, name: string): boolean {
    const pods = this.nodePods(nodeName);
    const inNs = pods.filter((p) => p.namespace === namespace);
    switch (kind) {
      case 'pod':
        return inNs.some((p) => p.name === name);
      case 'pvc':
        return inNs.some((p) => p.claims.includes(name));
      case 'serviceaccount':
        return inNs.some((p) => p.serviceAccount === name);
      case 'configmap':
        return inNs.some((p) => p.configMaps.has(name));
      case 'resourceclaim':
        return inNs.some((p) => p.resourceClaims.has(name));
      case 'secret':
        return inNs.some((p) => p.secrets.has(name)) || this.nodeVolumes(pods).some((pv) => pvSecrets(pv).includes(`${namespace}/${name}`));
      case 'pv':
        // A bound claim relates its volume by name, whether the volume exists or not.
        return this.nodeVolumeNames(pods).includes(name);
      case 'volumeattachment':
      case 'resourceslice':
        return false;
    }
  }

  private authorizeRelated(nodeName: string, kind: Related, a: Attributes): AuthorizationResult {
    if (!a.name) return noOpinion('No Object name found');
    if (!this.related(nodeName, kind, a.namespace, a.name)) return noOpinion(`no relationship found between node '${nodeName}' and this object`);
    return ALLOW;
  }

  private authorizeGet(nodeName: string, kind: Related, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return this.authorizeRelated(nodeName, kind, a);
  }

  /** Secrets and config maps: get, list and watch of one named object its pods use. */
  private authorizeReadNamespacedObject(nodeName: string, kind: Related, a: Attributes): AuthorizationResult {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
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
        case 'secrets.':
          return this.authorizeReadNamespacedObject(nodeName, 'secret', a);
        case 'configmaps.':
          return this.authorizeReadNamespacedObject(nodeName, 'configmap', a);
        case 'resourceclaims.resource.k8s.io':
          return this.authorizeGet(nodeName, 'resourceclaim', a);
        case 'volumeattachments.storage.k8s.io':
          return this.authorizeGet(nodeName, 'volumeattachment', a);
        case 'csinodes.storage.k8s.io':
          return this.authorizeCSINode(nodeName, a);
        case 'resourceslices.resource.k8s.io':
          return this.authorizeResourceSlice(nodeName, a);
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

  private authorizeCSINode(nodeName: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return noOpinion('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  }

  private authorizeResourceSlice(nodeName: string, a: Attributes): AuthorizationResult {
    if (a.subresource) return noOpinion('cannot authorize ResourceSlice subresources');
    switch (a.verb) {
      case 'create':
        // A create names no object yet: NodeRestriction checks its node name.
        return ALLOW;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.authorizeRelated(nodeName, 'resourceslice', a);
      case 'list':
      case 'watch':
      case 'deletecollection':
        if ((a.fieldSelector ?? []).some((r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === nodeName)) return ALLOW;
        return noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default:
        return noOpinion('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
    }
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
