// Building blocks of the hand-written and generated conformance suites: paths and minimal
// valid objects of every served type, request builders, and sequences that clean up after
// themselves (clean-up steps are sent but not compared: what is left to tidy differs between
// kube, which runs no controllers here, and kapi, which runs its own).

import type { RequestSpec, Sequence, Step } from '../format.js';

export type Obj = Record<string, unknown>;

export const NS = 'default';

export const CT = {
  json: { 'content-type': 'application/json' },
  yaml: { 'content-type': 'application/yaml' },
  proto: { 'content-type': 'application/vnd.kubernetes.protobuf' },
  merge: { 'content-type': 'application/merge-patch+json' },
  json6902: { 'content-type': 'application/json-patch+json' },
  smp: { 'content-type': 'application/strategic-merge-patch+json' },
  apply: { 'content-type': 'application/apply-patch+yaml' },
} as const;

export const PROTO = 'application/vnd.kubernetes.protobuf';

/** A served type: where it lives and a minimal valid object of it. */
export interface TypeInfo {
  key: string;
  apiVersion: string;
  kind: string;
  /** The collection path (in namespace `ns` for namespaced types). */
  collection(ns?: string): string;
  namespaced: boolean;
  /** A minimal valid object named `name`. */
  make(name: string): Obj;
  /** A change to its spec that validation accepts (a merge patch). */
  change: Obj;
  subresources: string[];
}

const core = (resource: string) => (ns = NS) => `/api/v1/namespaces/${ns}/${resource}`;
const grouped = (gv: string, resource: string) => (ns = NS) => `/apis/${gv}/namespaces/${ns}/${resource}`;

export const stsSpec = (name: string, extra: Obj = {}): Obj => ({
  serviceName: name,
  selector: { matchLabels: { app: name } },
  template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  ...extra,
});

export const podSpec = (extra: Obj = {}): Obj => ({ containers: [{ name: 'c', image: 'nginx:1.27' }], ...extra });

export const TYPES: Record<string, TypeInfo> = {
  namespaces: {
    key: 'namespaces',
    apiVersion: 'v1',
    kind: 'Namespace',
    collection: () => '/api/v1/namespaces',
    namespaced: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
    change: { metadata: { labels: { changed: 'yes' } } },
    subresources: ['status', 'finalize'],
  },
  pods: {
    key: 'pods',
    apiVersion: 'v1',
    kind: 'Pod',
    collection: core('pods'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: podSpec() }),
    change: { spec: { activeDeadlineSeconds: 30 } },
    subresources: ['status'],
  },
  persistentvolumeclaims: {
    key: 'persistentvolumeclaims',
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    collection: core('persistentvolumeclaims'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
    change: { metadata: { labels: { changed: 'yes' } } },
    subresources: ['status'],
  },
  controllerrevisions: {
    key: 'controllerrevisions',
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    collection: grouped('apps/v1', 'controllerrevisions'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data: { a: 1 }, revision: 1 }),
    change: { metadata: { labels: { changed: 'yes' } } },
    subresources: [],
  },
  statefulsets: {
    key: 'statefulsets',
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    collection: grouped('apps/v1', 'statefulsets'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name }, spec: stsSpec(name) }),
    change: { spec: { replicas: 3 } },
    subresources: ['status', 'scale'],
  },
  poddisruptionbudgets: {
    key: 'poddisruptionbudgets',
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    collection: grouped('policy/v1', 'poddisruptionbudgets'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: name } } } }),
    change: { spec: { minAvailable: 2 } },
    subresources: ['status'],
  },
  priorityclasses: {
    key: 'priorityclasses',
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    collection: () => '/apis/scheduling.k8s.io/v1/priorityclasses',
    namespaced: false,
    make: (name) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 1000 }),
    change: { description: 'changed' },
    subresources: [],
  },
  leases: {
    key: 'leases',
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    collection: grouped('coordination.k8s.io/v1', 'leases'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'holder', leaseDurationSeconds: 15 } }),
    change: { spec: { leaseDurationSeconds: 30 } },
    subresources: [],
  },
};

export const ALL_TYPES = Object.values(TYPES);

const cluster = (gv: string, resource: string) => () => (gv === 'v1' ? `/api/v1/${resource}` : `/apis/${gv}/${resource}`);
const RBAC = 'rbac.authorization.k8s.io/v1';

/**
 * The types served since the first wave (conform-types.ts). Kept apart from TYPES, whose list
 * the generated corpus draws from (adding to it would change that suite's seeded sequences).
 */
export const LATER_TYPES: Record<string, TypeInfo> = {
  services: {
    key: 'services',
    apiVersion: 'v1',
    kind: 'Service',
    collection: core('services'),
    namespaced: true,
    // Headless: no cluster IP to allocate (kube picks one at random from the range).
    make: (name) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { clusterIP: 'None', selector: { app: name }, ports: [{ port: 80 }] } }),
    change: { spec: { sessionAffinity: 'ClientIP' } },
    subresources: ['status'],
  },
  nodes: {
    key: 'nodes',
    apiVersion: 'v1',
    kind: 'Node',
    collection: cluster('v1', 'nodes'),
    namespaced: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } }),
    change: { spec: { unschedulable: true } },
    subresources: ['status'],
  },
  events: {
    key: 'events',
    apiVersion: 'v1',
    kind: 'Event',
    collection: core('events'),
    namespaced: true,
    make: (name) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', name: 'p', namespace: NS, apiVersion: 'v1' },
      reason: 'Started',
      message: 'started',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
      count: 1,
      firstTimestamp: '2025-01-01T00:00:00Z',
      lastTimestamp: '2025-01-01T00:00:00Z',
    }),
    change: { count: 2 },
    subresources: [],
  },
  'events.k8s.io': {
    key: 'events.k8s.io',
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    collection: grouped('events.k8s.io/v1', 'events'),
    namespaced: true,
    make: (name) => ({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name },
      eventTime: '2025-01-01T00:00:00.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Started',
      reason: 'Started',
      regarding: { kind: 'Pod', name: 'p', namespace: NS, apiVersion: 'v1' },
      note: 'started',
      type: 'Normal',
    }),
    change: { note: 'changed' },
    subresources: [],
  },
  persistentvolumes: {
    key: 'persistentvolumes',
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    collection: cluster('v1', 'persistentvolumes'),
    namespaced: false,
    make: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/tmp/${name}` } } }),
    change: { spec: { capacity: { storage: '2Gi' } } },
    subresources: ['status'],
  },
  storageclasses: {
    key: 'storageclasses',
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    collection: cluster('storage.k8s.io/v1', 'storageclasses'),
    namespaced: false,
    make: (name) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/disk' }),
    change: { allowVolumeExpansion: true },
    subresources: [],
  },
  ipaddresses: {
    key: 'ipaddresses',
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    collection: cluster('networking.k8s.io/v1', 'ipaddresses'),
    namespaced: false,
    make: (name) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name }, spec: { parentRef: { group: '', resource: 'services', namespace: NS, name: 'owner' } } }),
    change: { metadata: { labels: { changed: 'yes' } } },
    subresources: [],
  },
  serviceaccounts: {
    key: 'serviceaccounts',
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    collection: core('serviceaccounts'),
    namespaced: true,
    make: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }),
    change: { automountServiceAccountToken: false },
    subresources: ['token'],
  },
  roles: {
    key: 'roles',
    apiVersion: RBAC,
    kind: 'Role',
    collection: grouped(RBAC, 'roles'),
    namespaced: true,
    make: (name) => ({ apiVersion: RBAC, kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] }),
    change: { rules: [{ apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['*'] }] },
    subresources: [],
  },
  rolebindings: {
    key: 'rolebindings',
    apiVersion: RBAC,
    kind: 'RoleBinding',
    collection: grouped(RBAC, 'rolebindings'),
    namespaced: true,
    make: (name) => ({ apiVersion: RBAC, kind: 'RoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] }),
    change: { subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'robot', namespace: NS }] },
    subresources: [],
  },
  clusterroles: {
    key: 'clusterroles',
    apiVersion: RBAC,
    kind: 'ClusterRole',
    collection: cluster(RBAC, 'clusterroles'),
    namespaced: false,
    make: (name) => ({ apiVersion: RBAC, kind: 'ClusterRole', metadata: { name }, rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] }),
    change: { rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] },
    subresources: [],
  },
  clusterrolebindings: {
    key: 'clusterrolebindings',
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    collection: cluster(RBAC, 'clusterrolebindings'),
    namespaced: false,
    make: (name) => ({ apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr' }, subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: NS }] }),
    change: { subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }] },
    subresources: [],
  },
};

/** Every type a sequence knows how to clean up after. */
const KNOWN_TYPES = [...ALL_TYPES, ...Object.values(LATER_TYPES)];

/** Matches a type's collection path (group 1: namespace), object name (2) and subresource (3). */
/** A JSON text's value, or undefined when it is not JSON (raw bodies of bad-input cases). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function collectionPattern(t: TypeInfo): RegExp {
  const c = t.namespaced ? t.collection('\u0000').replace(/\./g, '\\.').replace('\u0000', '([^/]*)') : `()${t.collection().replace(/\./g, '\\.')}`;
  return new RegExp(`^${c}(?:/([^/]+)(?:/([^/]+))?)?/?$`);
}

export const objectPath = (t: TypeInfo, name: string, ns = NS): string => `${t.collection(ns)}/${name}`;

/** A sequence under construction: requests in order; `clean` adds what removes its objects. */
export class Seq {
  readonly steps: Step[] = [];
  private readonly cleanups: Step[][] = [];

  constructor(readonly name: string) {}

  req(note: string, req: RequestSpec, extra: Partial<Step> = {}): this {
    this.steps.push({ note, req, ...extra });
    this.cleanupCreated(req);
    return this;
  }

  private readonly cleaned = new Set<string>();

  /** Whatever a request may create is removed at the end (a POST's object, an apply's target). */
  private cleanupCreated(req: RequestSpec): void {
    if (req.path.includes('dryRun=')) return;
    const path = req.path.split('?')[0];
    // Namespaced types first: `/api/v1/namespaces/<ns>/pods` also reads as a namespace's subresource.
    for (const t of [...KNOWN_TYPES].sort((a, b) => Number(b.namespaced) - Number(a.namespaced))) {
      const m = collectionPattern(t).exec(path);
      if (!m) continue;
      const ns = m[1] || NS;
      let name: string | undefined;
      if (req.method === 'POST' && m[2] === undefined) {
        const b = (typeof req.body === 'object' && req.body !== null ? req.body : typeof req.body === 'string' ? parsed(req.body) : undefined) as { metadata?: { name?: unknown } } | undefined;
        if (typeof b?.metadata?.name === 'string') name = b.metadata.name;
      } else if (req.method === 'PATCH' && m[2] !== undefined && m[3] === undefined && req.headers?.['content-type']?.startsWith('application/apply-patch')) {
        name = decodeURIComponent(m[2]);
      }
      if (name !== undefined && name !== '' && !this.cleaned.has(`${t.key}/${ns}/${name}`)) this.cleanup(t, name, ns);
      return;
    }
  }

  get(path: string, headers?: Record<string, string>, note = 'get'): this {
    return this.req(note, { method: 'GET', path, ...(headers ? { headers } : {}) });
  }

  post(path: string, body: unknown, headers?: Record<string, string>, note = 'create'): this {
    return this.req(note, { method: 'POST', path, body, ...(headers ? { headers } : {}) });
  }

  put(path: string, body: unknown, headers?: Record<string, string>, note = 'update'): this {
    return this.req(note, { method: 'PUT', path, body, ...(headers ? { headers } : {}) });
  }

  /** PUT of step `from`'s answer with a merge patch applied (read-modify-write). */
  putFrom(path: string, from: number, mergePatch?: unknown, note = 'read-modify-write'): this {
    return this.req(note, { method: 'PUT', path, bodyFrom: { step: from, mergePatch } });
  }

  patch(path: string, type: keyof typeof CT, body: unknown, note = `${type} patch`): this {
    return this.req(note, { method: 'PATCH', path, headers: { ...CT[type] }, body });
  }

  delete(path: string, body?: unknown, note = 'delete'): this {
    return this.req(note, { method: 'DELETE', path, ...(body !== undefined ? { body } : {}) });
  }

  raw(note: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: Buffer | string } = {}, extra: Partial<Step> = {}): this {
    const req: RequestSpec = { method, path };
    if (opts.headers) req.headers = opts.headers;
    if (Buffer.isBuffer(opts.body)) req.bodyBase64 = opts.body.toString('base64');
    else if (opts.body !== undefined) req.body = opts.body;
    return this.req(note, req, extra);
  }

  /** The index of the last step so far. */
  get last(): number {
    return this.steps.length - 1;
  }

  /** Removes an object at the end, whatever state it is in (finalizers dropped, namespaces finalized). */
  cleanup(t: TypeInfo, name: string, ns = NS): this {
    const id = `${t.key}/${ns}/${name}`;
    if (this.cleaned.has(id)) return this;
    this.cleaned.add(id);
    const path = objectPath(t, name, ns);
    const group: Step[] = [];
    this.cleanups.push(group);
    const c = (req: RequestSpec) => group.push({ note: 'clean up', req, cleanup: true });
    c({ method: 'PATCH', path, headers: { ...CT.merge }, body: { metadata: { finalizers: null } } });
    c({ method: 'DELETE', path, body: { gracePeriodSeconds: 0 } });
    if (t.key === 'namespaces') {
      c({ method: 'PUT', path: `${path}/finalize`, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: { finalizers: [] } } });
    }
    return this;
  }

  /** A namespace the sequence creates (and removes at the end). */
  namespace(name: string, labels?: Record<string, string>): this {
    this.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } }, undefined, 'create namespace');
    return this.cleanup(TYPES.namespaces, name);
  }

  done(): Sequence {
    return { name: this.name, steps: [...this.steps, ...[...this.cleanups].reverse().flat()] };
  }
}

/** A one-request sequence (no state). */
export function one(name: string, req: RequestSpec, extra: Partial<Step> = {}): Sequence {
  return { name, steps: [{ req, ...extra }] };
}
