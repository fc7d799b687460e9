// kube's NodeRestriction admission plugin, for what kapi serves: the Node authorizer lets a
// node write Nodes, pods and leases in general; these checks narrow the writes to its own
// objects. A node may create and update only its own Node (not its taints, owner references,
// or labels outside the kubelet's own), create only mirror pods bound to itself, delete and
// update the status of only the pods bound to it (not their labels), touch only its own Lease
// in kube-node-lease, change nothing of a claim but its status' capacity and conditions, and
// ask for service account tokens only bound to a pod bound to itself.

import type { KObject } from '../../../machinery/object.js';
import { forbidden, notFound, type GroupResource } from '../../../machinery/errors.js';
import { deepEqual } from '../../../machinery/json-view.js';
import { NODE_LEASE_NAMESPACE, nodeIdentity } from './authorizer.js';
import type { Attributes, AuthorizationResult } from '../authorizer.js';
import type { RequestWriteChecks, WriteRequest } from '../write-request.js';
import { featureEnabled } from '../../../machinery/feature-gates.js';
import { goQuote } from '../../../machinery/go-format.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_RESTRICTION_NAMESPACE = 'node-restriction.kubernetes.io';

const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, parent: string): boolean => ns === parent || ns.endsWith(`.${parent}`);

function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  return KUBELET_LABEL_NAMESPACES.some((n) => inNamespace(labelNamespace(key), n));
}

/** The label keys a node may not add, remove or change (getForbiddenLabels), sorted. */
function forbiddenLabels(now: Record<string, string> | undefined, before: Record<string, string> | undefined): string[] {
  const a = now ?? {};
  const b = before ?? {};
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(a)) if (b[k] !== v) modified.add(k);
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) modified.add(k);
  const out: string[] = [];
  for (const k of modified) {
    const ns = labelNamespace(k);
    const kube = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
    if (inNamespace(ns, NODE_RESTRICTION_NAMESPACE) || (kube && !isKubeletLabel(k))) out.push(k);
  }
  return out.sort();
}

const specOf = (o: KObject): Record<string, unknown> => (o.spec ?? {}) as Record<string, unknown>;

/** The checks NodeRestriction makes of a node's write, or none for other users and resources. */
export function nodeWriteChecks(
  w: WriteRequest,
  lookupNode?: (name: string) => KObject | undefined,
  lookupPod?: (namespace: string, name: string) => KObject | undefined,
  authorize?: (a: Attributes) => AuthorizationResult,
): RequestWriteChecks | undefined {
  const { isNode, nodeName } = nodeIdentity(w.user);
  if (!isNode) return undefined;
  const gr: GroupResource = { group: w.group, resource: w.resource };
  const refuse = (name: string, why: string): never => {
    throw forbidden(gr, name, why);
  };
  const everything = (why: string): RequestWriteChecks => ({
    create: (o) => refuse(o.metadata.name ?? '', why),
    update: (o) => refuse(o.metadata.name ?? '', why),
    delete: (o) => refuse(o.metadata.name ?? '', why),
  });
  if (!nodeName) return everything(`could not determine node from user ${JSON.stringify(w.user.name)}`);

  switch (`${w.resource}.${w.group}`) {
    case 'pods.':
      switch (w.subresource) {
        case '':
          return {
            create: (pod) => admitMirrorPod(nodeName, pod, refuse, lookupNode),
            update: (pod) => refuse(pod.metadata.name ?? '', `unexpected operation "UPDATE", node ${JSON.stringify(nodeName)} can only create and delete mirror pods`),
            delete: (pod) => {
              if (specOf(pod).nodeName !== nodeName) refuse(pod.metadata.name ?? '', `node ${JSON.stringify(nodeName)} can only delete pods with spec.nodeName set to itself`);
            },
          };
        case 'status':
          return {
            update: (pod, old) => {
              const name = pod.metadata.name ?? '';
              if (specOf(old).nodeName !== nodeName) refuse(name, `node ${JSON.stringify(nodeName)} can only update pod status for pods with spec.nodeName set to itself`);
              if (!deepEqual(pod.metadata.labels ?? {}, old.metadata.labels ?? {})) refuse(name, `node ${JSON.stringify(nodeName)} cannot update labels through pod status`);
            },
          };
        case 'eviction':
          // admitPodEviction: a node may evict only the pods bound to it. A pod the node cannot
          // see is left to the eviction itself, which answers kube's 404.
          return {
            create: (ev) => {
              const name = w.name || ev.metadata.name || '';
              if (!name) return refuse('', 'could not determine pod from request data');
              const pod = lookupPod?.(w.namespace, name);
              if (pod && specOf(pod).nodeName !== nodeName) refuse(name, `node ${nodeName} can only evict pods with spec.nodeName set to itself`);
            },
          };
        default:
          return everything(`unexpected pod subresource ${JSON.stringify(w.subresource)}, only 'status' and 'eviction' are allowed`);
      }
    case 'nodes.': {
      const own = (o: KObject): void => {
        const requested = w.name || o.metadata.name || '';
        if (requested !== nodeName) refuse(requested, `node ${JSON.stringify(nodeName)} is not allowed to modify node ${JSON.stringify(requested)}`);
      };
      return {
        create: (node) => {
          own(node);
          if (specOf(node).configSource) refuse(node.metadata.name ?? '', `node ${JSON.stringify(nodeName)} is not allowed to create pods with a non-nil configSource`);
          const bad = forbiddenLabels(node.metadata.labels, undefined);
          if (bad.length) refuse(node.metadata.name ?? '', `node ${JSON.stringify(nodeName)} is not allowed to set the following labels: ${bad.join(', ')}`);
        },
        update: (node, old) => {
          own(node);
          const name = node.metadata.name ?? '';
          const cs = specOf(node).configSource;
          if (cs && !deepEqual(cs, specOf(old).configSource)) refuse(name, `node ${JSON.stringify(nodeName)} is not allowed to update configSource to a new non-nil configSource`);
          if (!deepEqual(specOf(node).taints ?? null, specOf(old).taints ?? null)) refuse(name, `node ${JSON.stringify(nodeName)} is not allowed to modify taints`);
          if (!deepEqual(node.metadata.ownerReferences ?? null, old.metadata.ownerReferences ?? null)) refuse(name, `node ${JSON.stringify(nodeName)} is not allowed to modify ownerReferences`);
          const bad = forbiddenLabels(node.metadata.labels, old.metadata.labels);
          if (bad.length) refuse(name, `is not allowed to modify labels: ${bad.join(', ')}`);
        },
        delete: (node) => own(node),
      };
    }
    case 'leases.coordination.k8s.io': {
      const check = (o: KObject): void => {
        const name = w.name || o.metadata.name || '';
        if (w.namespace !== NODE_LEASE_NAMESPACE) refuse(name, `can only access leases in the ${JSON.stringify(NODE_LEASE_NAMESPACE)} system namespace`);
        if (name !== nodeName) refuse(name, 'can only access node lease with the same name as the requesting node');
      };
      return { create: check, update: check, delete: check };
    }
    case 'persistentvolumeclaims.':
      if (w.subresource !== 'status') return everything('may only update PVC status');
      return {
        update: (pvc, old) => {
          // Only status.capacity and status.conditions may change.
          const strip = (o: KObject): unknown => {
            const status = { ...((o.status ?? {}) as Record<string, unknown>) };
            delete status.capacity;
            delete status.conditions;
            const meta = { ...o.metadata };
            delete meta.resourceVersion;
            delete meta.managedFields;
            return { spec: o.spec ?? null, status, metadata: meta };
          };
          if (!deepEqual(strip(pvc), strip(old))) {
            refuse(pvc.metadata.name ?? '', `node ${JSON.stringify(nodeName)} is not allowed to update fields other than status.quantity and status.conditions`);
          }
        },
      };
    case 'serviceaccounts.':
      if (w.subresource !== 'token') return undefined;
      // admitServiceAccount: the TokenRequest must be bound to a pod, by uid, bound to this node.
      return {
        create: (tr) => {
          const ref = (specOf(tr).boundObjectRef ?? undefined) as { apiVersion?: string; kind?: string; name?: string; uid?: string } | undefined;
          if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) return refuse(w.name, 'node requested token not bound to a pod');
          if (!ref.uid) return refuse(w.name, 'node requested token with a pod binding without a uid');
          if (!lookupPod) return;
          const pod = lookupPod(w.namespace, ref.name);
          // The lister's NotFound names the resource in the singular, as kube answers it.
          if (!pod) throw notFound({ group: '', resource: 'pod' }, ref.name);
          if (pod.metadata.uid !== ref.uid) {
            refuse(w.name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
          }
          if (specOf(pod).nodeName !== nodeName) refuse(w.name, 'node requested token bound to a pod scheduled on a different node');
          if (!featureEnabled('ServiceAccountNodeAudienceRestriction')) return;
          // ServiceAccountNodeAudienceRestriction: one audience at most ('' is the API's), one
          // the pod's projected token volumes ask for, or one the node is allowed by name.
          const audiences = (specOf(tr).audiences ?? []) as string[];
          if (audiences.length > 1) refuse(w.name, 'node may only request 0 or 1 audiences');
          const audience = audiences[0] ?? '';
          if (podReferencesAudience(pod, audience)) return;
          const verdict = authorize?.({
            user: w.user,
            verb: 'request-serviceaccounts-token-audience',
            isResourceRequest: true,
            path: '',
            apiGroup: '',
            apiVersion: 'v1',
            namespace: w.namespace,
            resource: audience,
            subresource: '',
            name: w.name,
          });
          if (verdict?.decision === 'allow') return;
          refuse(w.name, `audience ${goQuote(audience)} not found in pod spec volume, ${w.user.name} is not authorized to request tokens for this audience`);
        },
      };
    default:
      return undefined;
  }
}

/**
 * Whether a pod's volumes ask for tokens of `audience`: a projected serviceAccountToken source
 * (no audience is the API's, ''). kube also follows CSI volumes (inline, or a claim's
 * PersistentVolume) to their CSIDriver's tokenRequests; kapi serves no CSIDrivers, so those
 * never match, as on a kube without the driver object.
 */
function podReferencesAudience(pod: KObject, audience: string): boolean {
  const volumes = (specOf(pod).volumes ?? []) as { projected?: { sources?: { serviceAccountToken?: { audience?: string } }[] } }[];
  return volumes.some((v) => (v.projected?.sources ?? []).some((src) => src.serviceAccountToken && (src.serviceAccountToken.audience ?? '') === audience));
}

/** admitPodCreate: only mirror pods, bound to this node, owned by it, referencing nothing the node could not read. */
function admitMirrorPod(nodeName: string, pod: KObject, refuse: (name: string, why: string) => never, lookupNode?: (name: string) => KObject | undefined): void {
  const name = pod.metadata.name ?? '';
  const q = JSON.stringify(nodeName);
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
    refuse(name, `pod does not have ${JSON.stringify(MIRROR_POD_ANNOTATION)} annotation, node ${q} can only create mirror pods`);
  }
  const spec = specOf(pod) as {
    nodeName?: string;
    serviceAccountName?: string;
    volumes?: { secret?: unknown; configMap?: unknown; persistentVolumeClaim?: unknown; ephemeral?: unknown }[];
    resourceClaims?: unknown[];
  };
  if (spec.nodeName !== nodeName) refuse(name, `node ${q} can only create pods with spec.nodeName set to itself`);
  const owners = (pod.metadata.ownerReferences ?? []) as { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
  if (owners.length > 1) refuse(name, `node ${q} can only create pods with a single owner reference set to itself`);
  if (owners.length === 0) refuse(name, `node ${q} can only create pods with an owner reference set to itself`);
  const owner = owners[0]!;
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) refuse(name, `node ${q} can only create pods with an owner reference set to itself`);
  if (owner.controller !== true) refuse(name, `node ${q} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) refuse(name, `node ${q} must not set blockOwnerDeletion on an owner reference`);
  if (lookupNode) {
    const node = lookupNode(nodeName);
    if (!node) throw notFound({ group: '', resource: 'nodes' }, nodeName);
    if (owner.uid !== node.metadata.uid) refuse(name, `node ${nodeName} UID mismatch: expected ${owner.uid ?? ''} got ${node.metadata.uid ?? ''}`);
  }
  if (spec.serviceAccountName) refuse(name, `node ${q} can not create pods that reference a service account`);
  const refs = podReferences(pod);
  if (refs.secrets) refuse(name, `node ${q} can not create pods that reference secrets`);
  if (refs.configMaps) refuse(name, `node ${q} can not create pods that reference configmaps`);
  if (refs.clusterTrustBundles) refuse(name, `node ${q} can not create pods that reference clustertrustbundles`);
  if ((spec.volumes ?? []).some((v) => v.persistentVolumeClaim)) refuse(name, `node ${q} can not create pods that reference persistentvolumeclaims`);
  if ((spec.resourceClaims ?? []).length > 0) refuse(name, `node ${q} can not create pods that reference resourceclaims`);
}

interface EnvSource {
  env?: { valueFrom?: { secretKeyRef?: unknown; configMapKeyRef?: unknown } }[];
  envFrom?: { secretRef?: unknown; configMapRef?: unknown }[];
}

/** What a pod refers to that a node could read through it (podutil.VisitPodSecretNames / ConfigmapNames). */
function podReferences(pod: KObject): { secrets: boolean; configMaps: boolean; clusterTrustBundles: boolean } {
  const spec = specOf(pod) as {
    imagePullSecrets?: unknown[];
    containers?: EnvSource[];
    initContainers?: EnvSource[];
    ephemeralContainers?: EnvSource[];
    volumes?: Record<string, { sources?: Record<string, unknown>[]; secretRef?: unknown } | undefined>[];
  };
  const out = { secrets: (spec.imagePullSecrets ?? []).length > 0, configMaps: false, clusterTrustBundles: false };
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    for (const e of c.env ?? []) {
      if (e.valueFrom?.secretKeyRef) out.secrets = true;
      if (e.valueFrom?.configMapKeyRef) out.configMaps = true;
    }
    for (const e of c.envFrom ?? []) {
      if (e.secretRef) out.secrets = true;
      if (e.configMapRef) out.configMaps = true;
    }
  }
  for (const v of spec.volumes ?? []) {
    if (v.secret) out.secrets = true;
    if (v.configMap) out.configMaps = true;
    // Volume sources that name a secret of their own (azureFile, cephfs, cinder, flexVolume, iscsi, rbd, scaleIO, storageos, csi).
    for (const k of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos', 'csi']) {
      const src = v[k] as Record<string, unknown> | undefined;
      if (src && (src.secretRef || src.secretName || src.nodePublishSecretRef)) out.secrets = true;
    }
    for (const p of v.projected?.sources ?? []) {
      if (p.secret) out.secrets = true;
      if (p.configMap) out.configMaps = true;
      if (p.clusterTrustBundle) out.clusterTrustBundles = true;
    }
  }
  return out;
}
