// Services (core/v1), after pkg/registry/core/service: SetDefaults_Service, the validation of
// validation.ts, the status only through /status, create-on-update allowed, and the address and
// port pools of allocation.ts (kube's BeginCreate, BeginUpdate and AfterDelete hooks). No
// proxying: a Service is its object and its allocations.

import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsDNS1035Label } from '../../../machinery/validation/name-validators.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { ServiceAllocators, dropLoadBalancerStatus } from './allocation.js';
import { externallyAccessible, specOf, validateService, validateServiceStatusUpdate, validateServiceUpdate } from './validation.js';
import { serviceWarnings } from './warnings.js';

const DEFAULT_AFFINITY_SECONDS = 10800;

/** SetDefaults_Service (core/v1). */
function applyDefaults(obj: KObject): void {
  const s = (obj.spec ??= {}) as Obj;
  if (!str(s.sessionAffinity)) s.sessionAffinity = 'None';
  if (s.sessionAffinity === 'None') delete s.sessionAffinityConfig;
  if (s.sessionAffinity === 'ClientIP') {
    const ip = asObj(asObj(s.sessionAffinityConfig)?.clientIP);
    if (!ip || ip.timeoutSeconds === undefined || ip.timeoutSeconds === null) {
      s.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_AFFINITY_SECONDS } };
    }
  }
  if (!str(s.type)) s.type = 'ClusterIP';
  for (const p of asArr(s.ports)) {
    const port = asObj(p);
    if (!port) continue;
    if (!str(port.protocol)) port.protocol = 'TCP';
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (externallyAccessible(s) && !str(s.externalTrafficPolicy)) s.externalTrafficPolicy = 'Cluster';
  if ((s.internalTrafficPolicy === undefined || s.internalTrafficPolicy === null) && (s.type === 'NodePort' || s.type === 'LoadBalancer' || s.type === 'ClusterIP')) {
    s.internalTrafficPolicy = 'Cluster';
  }
  if (s.type === 'LoadBalancer') {
    if (s.allocateLoadBalancerNodePorts === undefined || s.allocateLoadBalancerNodePorts === null) s.allocateLoadBalancerNodePorts = true;
    // LoadBalancerIPMode (on): an ingress point with an address is a VIP unless it says otherwise.
    for (const ing of asArr(asObj(asObj(obj.status)?.loadBalancer)?.ingress)) {
      const i = asObj(ing);
      if (i && str(i.ip) && (i.ipMode === undefined || i.ipMode === null)) i.ipMode = 'VIP';
    }
  }
}

const strategy: Strategy = {
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  applyDefaults,
  prepareForCreate(obj) {
    obj.status = { loadBalancer: {} };
  },
  prepareForUpdate(obj, old) {
    // The type-dependent fields of the spec are dropped by the update hook, after allocation.
    obj.status = old.status;
    dropLoadBalancerStatus(obj, old);
  },
  validate: (obj) => validateService(obj),
  validateUpdate: validateServiceUpdate,
  warningsOnCreate: (obj) => serviceWarnings(obj),
  warningsOnUpdate: (obj, old) => serviceWarnings(obj, old),
};

const statusStrategy: Strategy = {
  ...strategy,
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
  },
  validateUpdate: validateServiceStatusUpdate,
  warningsOnUpdate: () => [],
};

// ---- table ----

function loadBalancerIPs(obj: KObject): string {
  const out = new Set<string>();
  for (const ing of asArr(asObj(asObj(obj.status)?.loadBalancer)?.ingress)) {
    const i = asObj(ing) ?? {};
    if (str(i.ip)) out.add(str(i.ip));
    else if (str(i.hostname)) out.add(str(i.hostname));
  }
  // The server prints wide rows, which are not cut short.
  return [...out].sort().join(',');
}

function externalIP(obj: KObject): string {
  const s = specOf(obj);
  const external = asArr(s.externalIPs).map(str);
  switch (s.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIPs(obj);
      if (external.length) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(s.externalName);
  }
  return '<unknown>';
}

function portsText(s: Obj): string {
  return asArr(s.ports)
    .map((p) => {
      const port = asObj(p) ?? {};
      const np = typeof port.nodePort === 'number' && port.nodePort > 0 ? `:${port.nodePort}` : '';
      return `${String(port.port ?? 0)}${np}/${str(port.protocol)}`;
    })
    .join(',');
}

/** labels.FormatLabels: sorted key=value pairs, or <none>. */
function formatSelector(sel: unknown): string {
  const m = asObj(sel);
  if (!m || Object.keys(m).length === 0) return '<none>';
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${str(m[k])}`)
    .join(',');
}

function cells(obj: KObject, now: Date): unknown[] {
  const s = specOf(obj);
  const ips = asArr(s.clusterIPs).map(str);
  return [obj.metadata.name, str(s.type), ips[0] ?? '<none>', externalIP(obj), portsText(s) || '<none>', age(obj, now), formatSelector(s.selector)];
}

export const services: ResourceDef = {
  group: '',
  version: 'v1',
  resource: 'services',
  kind: 'Service',
  listKind: 'ServiceList',
  singularName: 'service',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  strategy,
  subresources: { status: statusStrategy },
  nameValidator: nameIsDNS1035Label,
  returnDeletedObject: true,
  kubeStoragePath: 'services/specs',
  writeHooks: (env) => new ServiceAllocators(env),
  fieldLabels: {
    'spec.clusterIP': (obj) => str(specOf(obj).clusterIP),
    'spec.type': (obj) => str(specOf(obj).type),
  },
  table: {
    columns: [
      NAME_COLUMN,
      column(
        'Type',
        'string',
        'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
      ),
      column(
        'Cluster-IP',
        'string',
        'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
      ),
      column(
        'External-IP',
        'string',
        'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.',
      ),
      column('Port(s)', 'string', 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies'),
      AGE_COLUMN,
      column(
        'Selector',
        'string',
        'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
        1,
      ),
    ],
    cells,
  },
};
