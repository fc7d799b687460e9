// The types served since the first wave, side by side (issue 16): Services, Nodes, Events (core
// and events.k8s.io), PersistentVolumes, StorageClasses, IPAddresses, ServiceAccounts (and their
// token subresource) and the RBAC types. For each, a life cycle through every verb and patch
// type, Table output and the field selectors it supports, then its notable validation rules,
// defaults, immutable fields and warnings. Every sequence cleans up after itself.
//
// What kube picks at random is never left to it: services get their cluster IPs and node ports
// from the request (or are headless), and issued tokens are compared by status only.

import type { Sequence, Step } from '../format.js';
import { Rand } from '../random.js';
import { encodeProtobufObject } from '../../../src/codec/protobuf/index.js';
import { badInput, lifecycle as corpusLifecycle } from './conform-corpus.js';
import { LATER_TYPES, NS, Seq, objectPath, type Obj, type TypeInfo } from './kit.js';

const SEED = 20_261_126;

const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const LABEL = { suite: 'types' };
const T = LATER_TYPES;

const labelled = (doc: Obj): Obj => ({ ...doc, metadata: { ...(doc.metadata as Obj), labels: LABEL } });

/** Every verb on one object of the type, as clients send them, with reads in between. */
function lifecycle(t: TypeInfo, name: string, doc: Obj = t.make(name)): Sequence {
  const path = objectPath(t, name);
  const s = new Seq(`types-${t.key}-lifecycle`);
  s.post(t.collection(), labelled(doc));
  s.get(path);
  s.get(path, TABLE, 'get as Table');
  s.get(`${t.collection()}?labelSelector=suite%3Dtypes`, TABLE, 'list as Table');
  s.get(`${t.collection()}?fieldSelector=metadata.name%3D${name}`, undefined, 'list by name');
  s.patch(path, 'merge', t.change);
  s.patch(path, 'smp', { metadata: { labels: { smp: 'y' } } });
  s.patch(path, 'json6902', [{ op: 'add', path: '/metadata/annotations', value: { jp: 'x' } }]);
  s.patch(`${path}?fieldManager=types-apply`, 'apply', { apiVersion: t.apiVersion, kind: t.kind, metadata: { name, labels: { applied: 'yes' } } });
  const read = s.get(path, undefined, 'read').last;
  s.putFrom(path, read, { metadata: { annotations: { put: 'yes' } } });
  s.get(path, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' }, 'read as metadata');
  if (t.subresources.includes('status')) {
    s.get(`${path}/status`, undefined, 'get status');
    s.patch(`${path}/status`, 'merge', { metadata: { labels: { ignored: 'yes' } } }, 'status patch of metadata');
  }
  s.delete(`${path}?dryRun=All`, undefined, 'dry-run delete');
  s.delete(path, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
  s.get(path, undefined, 'gone');
  return s.done();
}

function services(): Sequence[] {
  const t = T.services;
  const coll = t.collection();
  const svc = (name: string, spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
  const out: Sequence[] = [lifecycle(t, 'ct-svc-life')];

  const bad = new Seq('types-services-invalid');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1' }), undefined, 'no ports');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ port: 0 }] }), undefined, 'port 0');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ port: 70000 }] }), undefined, 'port out of range');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ port: 80 }, { port: 81 }] }), undefined, 'two ports without names');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ name: 'a', port: 80 }, { name: 'a', port: 80 }] }), undefined, 'duplicate port and name');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ name: 'Bad_Name', port: 80, protocol: 'ICMP', targetPort: 'Not_A_Name' }] }), undefined, 'bad port name, protocol, target port');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ port: 80, targetPort: 0 }] }), undefined, 'target port 0');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: 'bogus', ports: [{ port: 80 }] }), undefined, 'cluster IP not an IP');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.0.0.5', ports: [{ port: 80 }] }), undefined, 'cluster IP outside the range');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.0.1', ports: [{ port: 80 }] }), undefined, 'cluster IP taken (the kubernetes service)');
  bad.post(coll, svc('ct-svc-bad', { type: 'Bogus', ports: [{ port: 80 }] }), undefined, 'unknown type');
  bad.post(coll, svc('ct-svc-bad', { type: 'ExternalName' }), undefined, 'ExternalName without a name');
  bad.post(coll, svc('ct-svc-bad', { type: 'ExternalName', externalName: 'Not A Name!' }), undefined, 'ExternalName not a DNS name');
  bad.post(coll, svc('ct-svc-bad', { type: 'ExternalName', externalName: 'db.example.com', clusterIP: '10.96.200.1' }), undefined, 'ExternalName with a cluster IP');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ports: [{ port: 80, nodePort: 30001 }] }), undefined, 'node port on a ClusterIP service');
  bad.post(coll, svc('ct-svc-bad', { type: 'NodePort', clusterIP: '10.96.200.1', ports: [{ port: 80, nodePort: 80 }] }), undefined, 'node port out of range');
  bad.post(coll, svc('ct-svc-bad', { type: 'NodePort', clusterIP: '10.96.200.1', ports: [{ name: 'a', port: 80, nodePort: 30100 }, { name: 'b', port: 81, nodePort: 30100 }] }), undefined, 'duplicate node port');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }), undefined, 'external traffic policy on ClusterIP');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', sessionAffinity: 'Sticky', ports: [{ port: 80 }] }), undefined, 'unknown session affinity');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } }, ports: [{ port: 80 }] }), undefined, 'session affinity timeout 0');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ipFamilyPolicy: 'Bogus', ports: [{ port: 80 }] }), undefined, 'unknown IP family policy');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', ipFamilies: ['IPv6'], ports: [{ port: 80 }] }), undefined, 'IP family not of the cluster');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', clusterIPs: ['10.96.200.2'], ports: [{ port: 80 }] }), undefined, 'clusterIPs not starting with clusterIP');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', externalIPs: ['bogus'], ports: [{ port: 80 }] }), undefined, 'external IP not an IP');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', loadBalancerSourceRanges: ['10.0.0.0/8'], ports: [{ port: 80 }] }), undefined, 'source ranges on ClusterIP');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', internalTrafficPolicy: 'Nowhere', ports: [{ port: 80 }] }), undefined, 'unknown internal traffic policy');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: 'None', type: 'NodePort', ports: [{ port: 80 }] }), undefined, 'headless NodePort');
  bad.post(coll, svc('ct-svc-bad', { clusterIP: '10.96.200.1', selector: { 'bad key!': 'x' }, ports: [{ port: 80 }] }), undefined, 'bad selector key');
  out.push(bad.done());

  const life = new Seq('types-services-defaults-and-immutability');
  const path = objectPath(t, 'ct-svc-ip');
  life.post(coll, svc('ct-svc-ip', { clusterIP: '10.96.200.10', selector: { app: 'x' }, ports: [{ port: 80 }] }), undefined, 'create with a cluster IP: defaults');
  life.get(`/apis/networking.k8s.io/v1/ipaddresses/10.96.200.10`, undefined, 'its IPAddress');
  life.post(coll, svc('ct-svc-ip2', { clusterIP: '10.96.200.10', ports: [{ port: 80 }] }), undefined, 'the same IP again');
  life.patch(path, 'merge', { spec: { clusterIP: '10.96.200.11', clusterIPs: ['10.96.200.11'] } }, 'change the cluster IP');
  life.patch(path, 'merge', { spec: { clusterIP: null, clusterIPs: null } }, 'clear the cluster IP');
  // kube's update of a service whose cached copy is older than the last write tries twice, and
  // the first try's allocations are not given back (the second finds its own port taken): a
  // watch of a second (the object as it is now) lets kube's cache catch up before each update
  // that allocates.
  // (Only its status is compared: what a watch from 0 shows first depends on that same lag.)
  const settle = () => life.req('a second for the cache (watch)', { method: 'GET', path: `${coll}?watch=1&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dct-svc-ip` }, { ignoreBody: true });
  settle();
  life.patch(path, 'merge', { spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30181 }] } }, 'to NodePort');
  life.patch(path, 'merge', { spec: { externalTrafficPolicy: 'Local' } }, 'external traffic policy Local');
  life.patch(path, 'merge', { spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Cluster' } }, 'to LoadBalancer');
  life.patch(path, 'merge', { spec: { loadBalancerSourceRanges: ['10.0.0.0/8', '192.168.1.0/24'] } }, 'source ranges');
  life.patch(path, 'merge', { spec: { loadBalancerClass: 'example.com/lb' } }, 'load balancer class');
  life.patch(`${path}/status`, 'merge', { status: { loadBalancer: { ingress: [{ ip: '192.0.2.10', ipMode: 'VIP' }] } } }, 'status: an ingress');
  life.patch(`${path}/status`, 'merge', { status: { loadBalancer: { ingress: [{ ip: 'bogus' }] } } }, 'status: a bad ingress IP');
  life.patch(`${path}/status`, 'merge', { status: { loadBalancer: { ingress: [{ hostname: '192.0.2.1' }] } } }, 'status: an IP as hostname');
  life.patch(path, 'merge', { spec: { loadBalancerClass: 'example.com/other' } }, 'change the load balancer class');
  life.get(path, TABLE, 'LoadBalancer as Table');
  life.patch(path, 'merge', { spec: { type: 'ClusterIP', externalTrafficPolicy: null, loadBalancerSourceRanges: null, allocateLoadBalancerNodePorts: null, loadBalancerClass: null, ports: [{ port: 80, nodePort: null }] } }, 'back to ClusterIP');
  life.patch(path, 'merge', { spec: { type: 'ExternalName', externalName: 'db.example.com' } }, 'to ExternalName keeping the IP');
  life.patch(path, 'merge', { spec: { type: 'ExternalName', externalName: 'db.example.com', clusterIP: '', clusterIPs: null, ipFamilies: null, ipFamilyPolicy: null } }, 'to ExternalName');
  life.get(path, TABLE, 'ExternalName as Table');
  settle();
  life.patch(path, 'merge', { spec: { type: 'ClusterIP', clusterIP: '10.96.200.12', externalName: null, ports: [{ port: 80 }] } }, 'back to ClusterIP with a new IP');
  life.get(path);
  out.push(life.done());

  // A LoadBalancer that opts out of node ports keeps those it had; deleting the service gives
  // them back.
  const lbn = new Seq('types-services-lb-without-node-ports');
  const lbnPath = objectPath(t, 'ct-svc-lbn');
  lbn.post(coll, svc('ct-svc-lbn', { type: 'NodePort', clusterIP: '10.96.200.30', ports: [{ port: 80, nodePort: 30190 }] }), undefined, 'NodePort');
  lbn.patch(lbnPath, 'merge', { spec: { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false } }, 'to LoadBalancer without node ports: it keeps its own');
  lbn.get(lbnPath, TABLE, 'as Table');
  lbn.delete(lbnPath, undefined, 'delete');
  lbn.post(coll, svc('ct-svc-lbn2', { type: 'NodePort', clusterIP: '10.96.200.31', ports: [{ port: 80, nodePort: 30190 }] }), undefined, 'its node port is free again');
  out.push(lbn.done());

  const np = new Seq('types-services-node-ports');
  np.post(coll, svc('ct-svc-np', { type: 'NodePort', clusterIP: '10.96.200.20', ports: [{ name: 'http', port: 80, nodePort: 30200 }, { name: 'dns', port: 53, protocol: 'UDP', nodePort: 30201 }] }), undefined, 'NodePort: defaults');
  np.post(coll, svc('ct-svc-np2', { type: 'NodePort', clusterIP: '10.96.200.21', ports: [{ port: 80, nodePort: 30200 }] }), undefined, 'a node port taken');
  np.patch(objectPath(t, 'ct-svc-np'), 'smp', { spec: { ports: [{ name: 'http', port: 80, nodePort: 30202 }] } }, 'smp of one port (by port)');
  np.patch(objectPath(t, 'ct-svc-np'), 'json6902', [{ op: 'replace', path: '/spec/ports/0/nodePort', value: 40000 }], 'node port out of range');
  np.post(coll, svc('ct-svc-lb', { type: 'LoadBalancer', clusterIP: '10.96.200.22', externalTrafficPolicy: 'Local', healthCheckNodePort: 30203, ports: [{ port: 443, nodePort: 30204 }] }), undefined, 'LoadBalancer with a health check port');
  np.get(`${coll}?fieldSelector=spec.type%3DLoadBalancer`, undefined, 'by type');
  np.get(`${coll}?fieldSelector=spec.clusterIP%3D10.96.200.20`, undefined, 'by cluster IP');
  np.get(`${coll}?fieldSelector=spec.ports%3D80`, undefined, 'unsupported field selector');
  np.get(`${coll}?labelSelector=suite%3Dnone`, TABLE, 'an empty list as Table');
  np.post(coll, svc('ct-svc-ext', { type: 'ClusterIP', clusterIP: '10.96.200.23', externalIPs: ['192.0.2.5'], ports: [{ port: 80 }] }), undefined, 'external IPs');
  np.get(objectPath(t, 'ct-svc-ext'), TABLE, 'external IPs as Table');
  np.post(coll, svc('ct-svc-hl', { clusterIP: 'None', selector: { app: 'x' }, ports: [{ port: 80, targetPort: 'http' }], publishNotReadyAddresses: true }), undefined, 'headless');
  np.post(coll, svc('ct-svc-ac', { clusterIP: '10.96.200.24', sessionAffinity: 'ClientIP', ports: [{ port: 80, appProtocol: 'http' }] }), undefined, 'client IP affinity: its default timeout');
  np.post(coll, svc('ct-svc-zero', { clusterIP: '10.96.200.025', ports: [{ port: 80 }] }), undefined, 'a cluster IP with a leading zero');
  out.push(np.done());

  // Health-check node ports and node port changes (every port given: kube's are random).
  const hc = new Seq('types-services-health-check-ports');
  const hcPath = objectPath(t, 'ct-svc-hc');
  hc.post(coll, svc('ct-svc-hc', { type: 'LoadBalancer', clusterIP: '10.96.202.1', externalTrafficPolicy: 'Local', healthCheckNodePort: 30210, ports: [{ port: 80, nodePort: 30211 }] }), undefined, 'LoadBalancer, Local, its health check port');
  hc.patch(hcPath, 'merge', { spec: { healthCheckNodePort: 30212 } }, 'change the health check port');
  hc.patch(hcPath, 'merge', { spec: { healthCheckNodePort: 30211 } }, 'the health check port on a node port');
  hc.patch(hcPath, 'merge', { spec: { ports: [{ port: 80, nodePort: 30213 }] } }, 'change the node port');
  hc.patch(hcPath, 'merge', { spec: { ports: [{ port: 80, nodePort: 30210 }] } }, 'a node port on the health check port');
  hc.patch(hcPath, 'merge', { spec: { externalTrafficPolicy: 'Cluster', healthCheckNodePort: null } }, 'Cluster: the health check port goes');
  hc.patch(hcPath, 'merge', { spec: { externalTrafficPolicy: 'Local', healthCheckNodePort: 30214 } }, 'Local again with a given port');
  hc.post(coll, svc('ct-svc-hc2', { clusterIP: '10.96.202.2', healthCheckNodePort: 30215, ports: [{ port: 80 }] }), undefined, 'a health check port on ClusterIP');
  hc.post(coll, svc('ct-svc-hc3', { type: 'NodePort', clusterIP: '10.96.202.3', externalTrafficPolicy: 'Local', healthCheckNodePort: 30216, ports: [{ port: 80, nodePort: 30217 }] }), undefined, 'a health check port on NodePort');
  hc.post(coll, svc('ct-svc-hc4', { type: 'LoadBalancer', clusterIP: '10.96.202.4', externalTrafficPolicy: 'Local', healthCheckNodePort: 30211, ports: [{ port: 80, nodePort: 30218 }] }), undefined, 'a health check port taken');
  hc.post(coll, svc('ct-svc-hc5', { type: 'LoadBalancer', clusterIP: '10.96.202.5', externalTrafficPolicy: 'Local', healthCheckNodePort: 99999, ports: [{ port: 80, nodePort: 30219 }] }), undefined, 'a health check port out of range');
  hc.get(`${coll}?fieldSelector=spec.type%3DLoadBalancer`, TABLE, 'LoadBalancers as Table');
  out.push(hc.done());

  const kube = new Seq('types-services-kubernetes');
  kube.get(objectPath(t, 'kubernetes'), TABLE, 'the kubernetes service as Table');
  // Its target port is the server's own secure port, which differs between any two servers.
  kube.req('dry-run delete of the kubernetes service', { method: 'DELETE', path: `${objectPath(t, 'kubernetes')}?dryRun=All` }, { ignoreBody: true });
  kube.patch(`${objectPath(t, 'kubernetes')}?dryRun=All`, 'merge', { spec: { clusterIP: '10.96.0.2' } }, 'dry-run change of its cluster IP');
  out.push(kube.done());
  return out;
}

function nodes(): Sequence[] {
  const t = T.nodes;
  const coll = t.collection();
  const node = (name: string, spec: Obj = {}, extra: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec, ...extra });
  const out: Sequence[] = [lifecycle(t, 'ct-node-life')];

  const bad = new Seq('types-nodes-invalid');
  bad.post(coll, node('ct-node-bad', { podCIDR: 'bogus' }), undefined, 'pod CIDR not a CIDR');
  bad.post(coll, node('ct-node-bad', { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.2.0/24'] }), undefined, 'podCIDRs not starting with podCIDR');
  bad.post(coll, node('ct-node-bad', { podCIDRs: ['10.244.1.0/24', '10.244.2.0/24'] }), undefined, 'two CIDRs of one family');
  bad.post(coll, node('ct-node-bad', { taints: [{ key: 'a', effect: 'Bogus' }] }), undefined, 'taint of an unknown effect');
  bad.post(coll, node('ct-node-bad', { taints: [{ effect: 'NoSchedule' }] }), undefined, 'taint without a key');
  bad.post(coll, node('ct-node-bad', { taints: [{ key: 'a', value: 'x', effect: 'NoSchedule' }, { key: 'a', value: 'y', effect: 'NoSchedule' }] }), undefined, 'duplicate taint');
  bad.post(coll, node('ct-node-bad', { taints: [{ key: 'bad key!', value: 'bad value!', effect: 'NoExecute' }] }), undefined, 'taint of a bad key and value');
  bad.post(coll, node('Bad_Node'), undefined, 'name not a DNS subdomain');
  bad.post(coll, node('ct-node-bad', {}, { status: { capacity: { cpu: '-1', 'bad name!': '1' } } }), undefined, 'bad capacity in status');
  out.push(bad.done());

  const s = new Seq('types-nodes-spec-and-status');
  const path = objectPath(t, 'ct-node-1');
  s.post(coll, node('ct-node-1', { podCIDR: '10.244.1.0/24', taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }, { status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' } } }), undefined, 'create: podCIDRs defaulted, status dropped?');
  s.patch(path, 'merge', { spec: { podCIDR: '10.244.9.0/24', podCIDRs: ['10.244.9.0/24'] } }, 'change the pod CIDR');
  s.patch(path, 'merge', { spec: { providerID: 'aws:///zone/i-1' } }, 'set the provider ID');
  s.patch(path, 'merge', { spec: { providerID: 'aws:///zone/i-2' } }, 'change the provider ID');
  s.patch(path, 'smp', { spec: { taints: [{ key: 'gpu', effect: 'NoExecute' }] } }, 'smp adds a taint (replaces the list?)');
  s.patch(path, 'merge', { spec: { unschedulable: true } }, 'cordon');
  s.get(`${coll}?fieldSelector=spec.unschedulable%3Dtrue`, undefined, 'unschedulable nodes');
  s.get(`${coll}?fieldSelector=spec.unschedulable%3Dfalse`, undefined, 'schedulable nodes');
  s.get(`${coll}?fieldSelector=spec.podCIDR%3D10.244.1.0%2F24`, undefined, 'unsupported field selector');
  s.patch(`${path}/status`, 'merge', { status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '3500m', memory: '7Gi', pods: '110' }, addresses: [{ type: 'InternalIP', address: '10.0.0.10' }, { type: 'Hostname', address: 'ct-node-1' }], nodeInfo: { kubeletVersion: 'v1.33.0', osImage: 'Linux', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7', architecture: 'amd64', operatingSystem: 'linux', machineID: 'm', systemUUID: 's', bootID: 'b', kubeProxyVersion: 'v1.33.0' }, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready', lastHeartbeatTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' }] } }, 'status: capacity, addresses, info, Ready');
  s.get(path, TABLE, 'as Table: Ready,SchedulingDisabled');
  s.get(coll.concat('?labelSelector=suite%3Dnone'), TABLE, 'an empty Node table');
  s.patch(`${path}/status`, 'merge', { status: { allocatable: { cpu: '8' } } }, 'status: allocatable above capacity');
  s.patch(path, 'merge', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': '' } } }, 'roles');
  s.get(path, TABLE, 'roles as Table');
  s.patch(path, 'merge', { spec: { configSource: { configMap: { name: 'c', namespace: 'kube-system', kubeletConfigKey: 'k' } } } }, 'config source (dropped)');
  s.patch(path, 'merge', { metadata: { labels: { 'beta.kubernetes.io/arch': 'amd64' } } }, 'a deprecated label');
  out.push(s.done());
  return out;
}

function events(): Sequence[] {
  const core = T.events;
  const ev = T['events.k8s.io'];
  const out: Sequence[] = [lifecycle(core, 'ct-ev-life'), lifecycle(ev, 'ct-evk-life')];
  const base = core.make('ct-ev-bad');
  const baseNew = ev.make('ct-ev-bad');

  const bad = new Seq('types-events-invalid');
  const c = (note: string, patch: Obj) => bad.post(core.collection(), { ...base, ...patch }, undefined, note);
  const n = (note: string, patch: Obj) => bad.post(ev.collection(), { ...baseNew, ...patch }, undefined, note);
  c('involved object in another namespace', { involvedObject: { kind: 'Pod', name: 'p', namespace: 'kube-system' } });
  c('no involved object', { involvedObject: {} });
  c('unknown type', { type: 'Bogus' });
  c('reportingController without eventTime', { reportingComponent: 'example.com/c' });
  c('eventTime without reporting fields', { eventTime: '2025-01-01T00:00:00.000000Z' });
  c('eventTime with every field', { eventTime: '2025-01-01T00:00:00.000000Z', reportingComponent: 'example.com/c', reportingInstance: 'i', action: 'Do' });
  c('a long reason', { reason: 'r'.repeat(200) });
  c('namespace empty in the body of a namespaced event', { metadata: { name: 'ct-ev-bad', namespace: '' } });
  n('no eventTime', { eventTime: null });
  n('no reportingController', { reportingController: '' });
  n('reportingController not qualified', { reportingController: 'not a name' });
  n('no reportingInstance', { reportingInstance: '' });
  n('no action', { action: '' });
  n('no reason', { reason: '' });
  n('unknown type', { type: 'Info' });
  n('a long note', { note: 'n'.repeat(1100) });
  n('regarding in another namespace', { regarding: { kind: 'Pod', name: 'p', namespace: 'kube-system' } });
  n('series with count 1', { series: { count: 1, lastObservedTime: '2025-01-01T00:00:01.000000Z' } });
  n('a deprecated count', { deprecatedCount: 2 });
  out.push(bad.done());

  // In a namespace of its own: the lists by field would show kube's own events in default.
  const s = new Seq('types-events-conversion-and-selectors');
  const ns = 'ct-events';
  const inNs = (doc: Obj, key: string): Obj => ({ ...doc, metadata: { ...(doc.metadata as Obj), namespace: ns }, [key]: { kind: 'Pod', name: 'p', namespace: ns, apiVersion: 'v1' } });
  s.namespace(ns);
  s.post(ev.collection(ns), { ...inNs(ev.make('ct-ev-new'), 'regarding'), series: { count: 2, lastObservedTime: '2025-01-01T00:00:05.000000Z' }, related: { kind: 'Node', name: 'n1', apiVersion: 'v1' } }, undefined, 'an events.k8s.io event');
  s.get(objectPath(core, 'ct-ev-new', ns), undefined, 'read as a core event');
  s.get(objectPath(core, 'ct-ev-new', ns), TABLE, 'as a core Table');
  s.get(objectPath(ev, 'ct-ev-new', ns), TABLE, 'as an events.k8s.io Table');
  s.post(core.collection(ns), inNs(core.make('ct-ev-old'), 'involvedObject'), undefined, 'a core event');
  s.get(objectPath(ev, 'ct-ev-old', ns), undefined, 'read as events.k8s.io');
  s.patch(objectPath(ev, 'ct-ev-old', ns), 'merge', { note: 'changed' }, 'events.k8s.io change of a legacy event');
  s.patch(objectPath(ev, 'ct-ev-new', ns), 'merge', { reportingController: 'example.com/other' }, 'change its reporting controller');
  s.patch(objectPath(ev, 'ct-ev-new', ns), 'merge', { regarding: { name: 'q' } }, 'change what it regards');
  s.patch(objectPath(core, 'ct-ev-new', ns), 'merge', { source: { component: 'other' } }, 'change its source through core');
  for (const sel of ['involvedObject.kind%3DPod', 'involvedObject.name%3Dp', 'reason%3DStarted', 'type%3DNormal', 'source%3Dkubelet', 'reportingComponent%3Dexample.com%2Fctl', 'involvedObject.fieldPath%3D', 'message%3Dstarted']) {
    s.get(`${core.collection(ns)}?fieldSelector=${sel}`, undefined, `core by ${decodeURIComponent(sel)}`);
  }
  for (const sel of ['regarding.kind%3DPod', 'reason%3DStarted', 'type%3DNormal', 'reportingController%3Dexample.com%2Fctl', 'involvedObject.kind%3DPod']) {
    s.get(`${ev.collection(ns)}?fieldSelector=${sel}`, undefined, `events.k8s.io by ${decodeURIComponent(sel)}`);
  }
  s.get(`${core.collection(ns)}?labelSelector=suite%3Dnone`, TABLE, 'an empty core Table');
  out.push(s.done());
  return out;
}

function persistentVolumes(): Sequence[] {
  const t = T.persistentvolumes;
  const coll = t.collection();
  const pv = (name: string, spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name }, spec });
  const ok = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/ct' } };
  const out: Sequence[] = [lifecycle(t, 'ct-pv-life')];

  const bad = new Seq('types-persistentvolumes-invalid');
  const b = (note: string, spec: Obj) => bad.post(coll, pv('ct-pv-bad', spec), undefined, note);
  b('no capacity', { accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } });
  b('capacity of cpu', { ...ok, capacity: { cpu: '1' } });
  b('zero capacity', { ...ok, capacity: { storage: '0' } });
  b('no access modes', { capacity: { storage: '1Gi' }, hostPath: { path: '/tmp/x' } });
  b('unknown access mode', { ...ok, accessModes: ['ReadWriteSometimes'] });
  b('ReadWriteOncePod with another', { ...ok, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] });
  b('no volume source', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] });
  b('two volume sources', { ...ok, nfs: { server: 's', path: '/x' } });
  b('unknown reclaim policy', { ...ok, persistentVolumeReclaimPolicy: 'Keep' });
  b('Recycle of a hostPath outside /tmp', { ...ok, hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Recycle' });
  b('relative hostPath', { ...ok, hostPath: { path: 'data/x' } });
  b('hostPath with ..', { ...ok, hostPath: { path: '/tmp/../etc' } });
  b('unknown volume mode', { ...ok, volumeMode: 'Raw' });
  b('bad storage class name', { ...ok, storageClassName: 'Bad_Class' });
  b('claimRef without a name', { ...ok, claimRef: { namespace: NS } });
  b('claimRef without a namespace', { ...ok, claimRef: { name: 'c' } });
  b('node affinity without terms', { ...ok, nodeAffinity: { required: { nodeSelectorTerms: [] } } });
  b('local without node affinity', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/mnt/disk' } });
  b('csi without a driver', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], csi: { volumeHandle: 'h' } });
  b('nfs without a server', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], nfs: { path: '/x' } });
  out.push(bad.done());

  const s = new Seq('types-persistentvolumes-updates');
  const path = objectPath(t, 'ct-pv-1');
  s.post(coll, pv('ct-pv-1', { ...ok, storageClassName: 'slow', mountOptions: ['ro'], claimRef: { namespace: NS, name: 'claim-1' } }), undefined, 'create: defaults, claimRef, finalizer');
  s.patch(path, 'merge', { spec: { hostPath: { path: '/tmp/other' } } }, 'change the volume source');
  s.patch(path, 'merge', { spec: { hostPath: null, nfs: { server: 's', path: '/x' } } }, 'swap the volume source');
  s.patch(path, 'merge', { spec: { persistentVolumeReclaimPolicy: 'Delete' } }, 'change the reclaim policy');
  s.patch(path, 'merge', { spec: { persistentVolumeReclaimPolicy: 'Recycle' } }, 'Recycle of /tmp: a warning');
  s.patch(path, 'merge', { spec: { accessModes: ['ReadWriteMany'] } }, 'change the access modes');
  s.patch(path, 'merge', { spec: { volumeMode: 'Block' } }, 'change the volume mode');
  s.patch(path, 'merge', { spec: { storageClassName: 'fast' } }, 'change the class');
  s.patch(path, 'merge', { spec: { claimRef: { name: 'claim-2' } } }, 'change the claim');
  s.patch(path, 'merge', { spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }] } } } }, 'add node affinity');
  s.patch(`${path}/status`, 'merge', { status: { phase: 'Bound', message: 'bound' } }, 'status: Bound');
  s.get(path, TABLE, 'as Table');
  s.patch(`${path}/status`, 'merge', { status: { phase: 'Lost' } }, 'status: an unknown phase');
  s.patch(`${path}/status`, 'merge', { status: { phase: 'Released', lastPhaseTransitionTime: '2025-01-01T00:00:00Z' } }, 'status: Released at a time');
  s.get(`${coll}?fieldSelector=status.phase%3DReleased`, undefined, 'unsupported selector: phase');
  s.post(coll, pv('ct-pv-2', { ...ok, hostPath: { path: '/tmp/ct2', type: 'DirectoryOrCreate' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] }] } } }), undefined, 'a deprecated topology label: a warning');
  s.post(coll, { ...pv('ct-pv-3', ok), metadata: { name: 'ct-pv-3', annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } } }, undefined, 'the beta class annotation: a warning');
  s.get(`${coll}?labelSelector=suite%3Dnone`, TABLE, 'an empty PV Table');
  s.delete(path, undefined, 'delete: held by its finalizer');
  s.get(path, undefined, 'terminating');
  out.push(s.done());
  return out;
}

function storageClasses(): Sequence[] {
  const t = T.storageclasses;
  const coll = t.collection();
  const sc = (name: string, extra: Obj): Obj => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, ...extra });
  const out: Sequence[] = [lifecycle(t, 'ct-sc-life')];

  const bad = new Seq('types-storageclasses-invalid');
  bad.post(coll, sc('ct-sc-bad', {}), undefined, 'no provisioner');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'not a name!' }), undefined, 'provisioner not a name');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'p'.repeat(300) }), undefined, 'provisioner too long');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'example.com/disk', reclaimPolicy: 'Recycle' }), undefined, 'reclaim policy Recycle');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'example.com/disk', volumeBindingMode: 'Later' }), undefined, 'unknown binding mode');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'example.com/disk', parameters: { '': 'x' } }), undefined, 'an empty parameter name');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'example.com/disk', allowedTopologies: [{ matchLabelExpressions: [] }] }), undefined, 'an empty topology term');
  bad.post(coll, sc('ct-sc-bad', { provisioner: 'example.com/disk', allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }] }), undefined, 'topology values empty');
  out.push(bad.done());

  const s = new Seq('types-storageclasses-immutable');
  const path = objectPath(t, 'ct-sc-1');
  s.post(coll, sc('ct-sc-1', { provisioner: 'example.com/disk', parameters: { type: 'ssd' }, mountOptions: ['debug'], allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] }] }), undefined, 'create: defaults');
  s.patch(path, 'merge', { provisioner: 'example.com/other' }, 'change the provisioner');
  s.patch(path, 'merge', { parameters: { type: 'hdd' } }, 'change the parameters');
  s.patch(path, 'merge', { reclaimPolicy: 'Retain' }, 'change the reclaim policy');
  s.patch(path, 'merge', { volumeBindingMode: 'WaitForFirstConsumer' }, 'change the binding mode');
  s.patch(path, 'merge', { allowedTopologies: null }, 'drop the topologies');
  s.patch(path, 'merge', { mountOptions: ['ro'], allowVolumeExpansion: true }, 'change mount options and expansion');
  s.patch(path, 'merge', { metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } }, 'make it the default');
  s.get(path, TABLE, 'the default as Table');
  s.post(coll, { ...sc('ct-sc-2', { provisioner: 'example.com/disk', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }), metadata: { name: 'ct-sc-2', annotations: { 'storageclass.beta.kubernetes.io/is-default-class': 'true' } } }, undefined, 'the beta default annotation');
  s.get(`${coll}?fieldSelector=provisioner%3Dexample.com%2Fdisk`, undefined, 'unsupported field selector');
  s.get(`${coll}?fieldSelector=metadata.name%3Dct-sc-2`, TABLE, 'by name as Table');
  for (const v of ['v1', 'v1beta1']) {
    s.get(`${coll}?limit=1`, { accept: `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=${v}` }, `a page of one as a ${v} PartialObjectMetadataList`);
    s.get(`${coll}?limit=1`, { accept: `application/json;as=Table;g=meta.k8s.io;v=${v}` }, `a page of one as a ${v} Table`);
  }
  out.push(s.done());
  return out;
}

function ipAddresses(): Sequence[] {
  const t = T.ipaddresses;
  const coll = t.collection();
  const ip = (name: string, spec: Obj): Obj => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name }, spec });
  const ref = { group: '', resource: 'services', namespace: NS, name: 'owner' };
  const out: Sequence[] = [lifecycle(t, '10.96.250.1')];

  const bad = new Seq('types-ipaddresses-invalid');
  bad.post(coll, ip('not-an-ip', { parentRef: ref }), undefined, 'name not an IP');
  bad.post(coll, ip('10.96.250.01', { parentRef: ref }), undefined, 'name with a leading zero');
  bad.post(coll, ip('2001:db8::0001', { parentRef: ref }), undefined, 'IPv6 not canonical');
  bad.post(coll, ip('10.96.250.2', {}), undefined, 'no parentRef');
  bad.post(coll, ip('10.96.250.2', { parentRef: { group: '', resource: '', name: 'x' } }), undefined, 'parentRef without a resource');
  bad.post(coll, ip('10.96.250.2', { parentRef: { group: 'Bad Group', resource: 'services', name: 'x' } }), undefined, 'parentRef of a bad group');
  bad.post(coll, ip('10.96.250.2', { parentRef: { group: '', resource: 'services', namespace: 'Bad_NS', name: '' } }), undefined, 'parentRef of bad namespace and no name');
  bad.post(coll, ip('0.0.0.0', { parentRef: ref }), undefined, 'the unspecified address');
  out.push(bad.done());

  const s = new Seq('types-ipaddresses-updates');
  s.post(coll, ip('2001:db8::5', { parentRef: ref }), undefined, 'an IPv6 address');
  s.patch(objectPath(t, '2001:db8::5'), 'merge', { spec: { parentRef: { name: 'other' } } }, 'change the parent');
  s.get(objectPath(t, '2001:db8::5'), TABLE, 'as Table');
  s.get(`${coll}?fieldSelector=spec.parentRef.name%3Downer`, undefined, 'unsupported field selector');
  out.push(s.done());
  return out;
}

function serviceAccounts(): Sequence[] {
  const t = T.serviceaccounts;
  const coll = t.collection();
  const out: Sequence[] = [lifecycle(t, 'ct-sa-life')];
  const s = new Seq('types-serviceaccounts');
  const path = objectPath(t, 'ct-sa-1');
  s.post(coll, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ct-sa-1' }, secrets: [{ name: 's1' }], imagePullSecrets: [{ name: 'pull' }], automountServiceAccountToken: true }, undefined, 'create with secrets');
  s.post(coll, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Bad_SA' } }, undefined, 'name not a DNS subdomain');
  s.post(coll, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ct-sa-2', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } } }, undefined, 'enforce-mountable-secrets: a warning');
  s.get(path, TABLE, 'as Table');
  s.patch(path, 'smp', { secrets: [{ name: 's2' }] }, 'smp of secrets (merged by name)');
  s.post(`${path}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 100 } }, undefined, 'token: too short');
  s.post(`${path}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', name: 'nope', apiVersion: 'v1' } } }, undefined, 'token: bound to a missing pod');
  s.post(`${path}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600, boundObjectRef: { kind: 'ConfigMap', name: 'x', apiVersion: 'v1' } } }, undefined, 'token: bound to an unsupported kind');
  s.post(`${path}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name: 'other' }, spec: {} }, undefined, 'token: another name');
  s.post(`${objectPath(t, 'ct-sa-missing')}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }, undefined, 'token of a missing account');
  s.req('token: issued (its body is random)', { method: 'POST', path: `${path}/token`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3600 } } }, { ignoreBody: true });
  s.req('token: dry run', { method: 'POST', path: `${path}/token?dryRun=All`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } }, { ignoreBody: true });
  s.get(`${path}/token`, undefined, 'token: GET');
  s.get(`${coll}?fieldSelector=metadata.name%3Dct-sa-1`, TABLE, 'by name as Table');
  s.get(`${coll}?fieldSelector=secrets%3Ds1`, undefined, 'unsupported field selector');
  out.push(s.done());
  return out;
}

function rbacTypes(): Sequence[] {
  const out = ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'].map((k) => lifecycle(T[k], `ct-${k.slice(0, 8)}-life`));
  const rb = T.rolebindings;
  const crb = T.clusterrolebindings;
  const cr = T.clusterroles;
  const s = new Seq('types-rbac-updates');
  s.post(rb.collection(), rb.make('ct-rb-1'), undefined, 'a role binding');
  s.patch(objectPath(rb, 'ct-rb-1'), 'merge', { roleRef: { name: 'other' } }, 'change its role');
  s.patch(objectPath(rb, 'ct-rb-1'), 'merge', { roleRef: { kind: 'ClusterRole' } }, 'change its role kind');
  s.patch(objectPath(rb, 'ct-rb-1'), 'merge', { subjects: [{ kind: 'ServiceAccount', name: 'robot' }] }, 'a service account subject defaults its namespace?');
  s.get(objectPath(rb, 'ct-rb-1'), TABLE, 'as Table');
  s.post(crb.collection(), { ...crb.make('ct-crb-1'), subjects: [{ kind: 'Group', name: 'devs' }, { kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'robot', namespace: 'kube-system' }] }, undefined, 'a cluster role binding: subjects defaulted');
  s.get(objectPath(crb, 'ct-crb-1'), TABLE, 'as Table');
  s.patch(objectPath(crb, 'ct-crb-1'), 'json6902', [{ op: 'replace', path: '/roleRef/name', value: 'x' }], 'change its role');
  s.post(cr.collection(), { ...cr.make('ct-cr-agg'), rules: [], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] } }, undefined, 'an aggregated cluster role');
  s.post(cr.collection(), { ...cr.make('ct-cr-part'), metadata: { name: 'ct-cr-part', labels: { 'example.com/agg': 'true' } }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }, undefined, 'a part of it');
  s.get(objectPath(cr, 'ct-cr-agg'), undefined, 'the aggregate (no controller fills it)');
  s.get(objectPath(cr, 'ct-cr-agg'), TABLE, 'as Table');
  s.patch(objectPath(cr, 'ct-cr-agg'), 'merge', { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }] } }, 'a bad selector');
  s.post(T.roles.collection(), { ...T.roles.make('ct-role-bad'), rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] }, undefined, 'a rule without verbs');
  s.post(T.roles.collection(), { ...T.roles.make('ct-role-2'), rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: ['a'], verbs: ['get', 'GET'] }] }, undefined, 'names, subresources, verb case');
  s.get(`${T.roles.collection()}?fieldSelector=metadata.name%3Dct-role-2`, TABLE, 'roles by name as Table');
  s.get(`${rb.collection()}?fieldSelector=roleRef.name%3Dr`, undefined, 'unsupported field selector');
  s.get(`${crb.collection()}?labelSelector=suite%3Dnone`, TABLE, 'an empty binding Table');
  out.push(s.done());
  return out;
}

/** Rules and defaults not reached by the sequences above: a second pass over each type. */
function more(): Sequence[] {
  const out: Sequence[] = [];
  const svc = T.services;
  const s = new Seq('types-services-more');
  const path = objectPath(svc, 'ct-svc-more');
  const body = (spec: Obj, name = 'ct-svc-more'): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
  s.post(svc.collection(), body({ clusterIP: '10.96.201.1', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443, targetPort: 'https' }] }), undefined, 'two named ports');
  const read = s.get(path, undefined, 'read').last;
  s.putFrom(path, read, { spec: { clusterIP: null, clusterIPs: null } }, 'PUT without the cluster IP keeps it');
  s.patch(path, 'smp', { spec: { ports: [{ port: 8080, name: 'alt' }] } }, 'smp adds a port (merged by port)');
  s.patch(path, 'smp', { spec: { ports: [{ port: 443, $patch: 'delete' }] } }, 'smp deletes a port');
  s.patch(`${path}?fieldManager=svc-apply`, 'apply', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ct-svc-more' }, spec: { ports: [{ port: 9090, protocol: 'UDP', name: 'metrics' }] } }, 'apply a UDP port');
  s.patch(path, 'merge', { spec: { ipFamilyPolicy: 'RequireDualStack' } }, 'require dual stack on a single-stack cluster');
  s.patch(path, 'merge', { spec: { ipFamilyPolicy: 'PreferDualStack' } }, 'prefer dual stack');
  s.patch(path, 'merge', { spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } } }, 'affinity timeout above a day');
  s.patch(path, 'merge', { spec: { trafficDistribution: 'PreferClose' } }, 'traffic distribution');
  s.patch(path, 'merge', { spec: { trafficDistribution: 'Nearest' } }, 'unknown traffic distribution');
  s.patch(path, 'merge', { spec: { ports: [{ name: 'http', port: 80, appProtocol: 'not a protocol!' }] } }, 'bad appProtocol');
  s.patch(path, 'merge', { spec: { ports: [{ name: 'a-port-name-that-is-far-too-long-for-a-port', port: 80 }] } }, 'port name too long');
  s.patch(path, 'merge', { metadata: { annotations: { 'service.kubernetes.io/topology-aware-hints': 'auto' } } }, 'the deprecated topology annotation: a warning');
  s.patch(path, 'merge', { spec: { externalName: 'db.example.com' } }, 'externalName on ClusterIP: a warning');
  s.patch(path, 'merge', { spec: { loadBalancerIP: '192.0.2.1' } }, 'loadBalancerIP on ClusterIP');
  s.patch(`${path}/status`, 'merge', { status: { conditions: [{ type: 'Ready', status: 'Maybe', reason: 'r', message: 'm', lastTransitionTime: '2025-01-01T00:00:00Z' }] } }, 'status: a condition of a bad status');
  s.patch(`${path}/status`, 'merge', { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: 'm', lastTransitionTime: '2025-01-01T00:00:00Z' }] } }, 'status: a condition');
  s.get(`${svc.collection()}?fieldSelector=spec.type!%3DClusterIP`, undefined, 'by type, not equal');
  s.get(`${svc.collection()}?fieldSelector=spec.clusterIP%3D10.96.201.1,metadata.name%3Dct-svc-more`, TABLE, 'by IP and name as Table');
  s.post(svc.collection(), body({ clusterIP: '10.96.201.2', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'], ports: [{ port: 80 }] }, 'ct-svc-fam'), undefined, 'two families, single stack');
  s.post(svc.collection(), body({ type: 'ExternalName', externalName: 'db.example.com.', ports: [{ port: 5432 }] }, 'ct-svc-en'), undefined, 'ExternalName with a trailing dot and ports');
  s.post(svc.collection(), body({ type: 'LoadBalancer', clusterIP: '10.96.201.3', allocateLoadBalancerNodePorts: false, loadBalancerClass: 'Not Valid', ports: [{ port: 80 }] }, 'ct-svc-lbc'), undefined, 'bad load balancer class');
  s.post(svc.collection(), body({ clusterIP: '10.96.201.4', ports: [{ port: 80, protocol: 'SCTP' }] }, 'ct-svc-sctp'), undefined, 'SCTP');
  out.push(s.done());

  const nodes = T.nodes;
  const n = new Seq('types-nodes-more');
  const np = objectPath(nodes, 'ct-node-more');
  n.post(nodes.collection(), { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ct-node-more' }, spec: { taints: [{ key: 'a', effect: 'NoExecute', timeAdded: '2025-01-01T00:00:00Z' }] } }, undefined, 'a taint with a time');
  n.patch(np, 'merge', { spec: { podCIDR: '10.244.3.0/24' } }, 'set the pod CIDR once');
  n.patch(np, 'merge', { spec: { podCIDRs: ['10.244.3.0/24', 'fd00::/64'] } }, 'add an IPv6 CIDR');
  n.patch(np, 'json6902', [{ op: 'add', path: '/spec/taints/-', value: { key: 'b', effect: 'PreferNoSchedule' } }], 'append a taint');
  n.patch(np, 'merge', { spec: { externalID: 'ext-1' } }, 'the deprecated external ID');
  n.patch(`${np}?fieldManager=node-apply`, 'apply', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ct-node-more', labels: { zone: 'a' } }, spec: { unschedulable: false } }, 'apply');
  n.patch(`${np}/status`, 'merge', { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.11' }, { type: 'ExternalIP', address: '192.0.2.11' }], nodeInfo: { kubeletVersion: 'v1.33.1', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://2.0', architecture: 'arm64', operatingSystem: 'linux', machineID: 'm', systemUUID: 's', bootID: 'b', kubeProxyVersion: '' } } }, 'status: addresses and info');
  n.get(np, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', 'x-wide': '1' }, 'as Table');
  n.get(`${np}?includeObject=None`, TABLE, 'as Table without the object');
  n.patch(`${np}/status`, 'merge', { status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'gone', lastHeartbeatTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' }] } }, 'status: Ready Unknown');
  n.get(np, TABLE, 'NotReady as Table');
  n.patch(`${np}/status`, 'merge', { status: { daemonEndpoints: { kubeletEndpoint: { Port: 10250 } }, capacity: { cpu: '2', 'hugepages-2Mi': '1Gi' }, allocatable: { cpu: '2', 'hugepages-2Mi': '2Gi' } } }, 'status: hugepages allocatable above capacity');
  n.patch(`${np}/status`, 'merge', { status: { capacity: { memory: '-1' } } }, 'status: negative memory');
  n.patch(`${np}/status`, 'merge', { status: { capacity: { 'bad/name/x': '1' } } }, 'status: bad resource name');
  out.push(n.done());

  const ev = T['events.k8s.io'];
  const core = T.events;
  const e = new Seq('types-events-more');
  e.post(ev.collection(), { ...ev.make('ct-evm-1'), series: { count: 3, lastObservedTime: '2025-01-01T00:00:09.000000Z' } }, undefined, 'a series');
  e.patch(objectPath(ev, 'ct-evm-1'), 'merge', { series: { count: 4, lastObservedTime: '2025-01-01T00:00:10.000000Z' } }, 'the series grows');
  e.patch(objectPath(ev, 'ct-evm-1'), 'merge', { series: null }, 'the series goes');
  e.patch(objectPath(ev, 'ct-evm-1'), 'merge', { type: 'Warning' }, 'change the type');
  e.patch(objectPath(ev, 'ct-evm-1'), 'merge', { eventTime: '2025-01-02T00:00:00.000000Z' }, 'change the event time');
  e.patch(objectPath(ev, 'ct-evm-1'), 'merge', { related: { kind: 'Node', name: 'n2' } }, 'add a related object');
  e.patch(objectPath(ev, 'ct-evm-1'), 'merge', { deprecatedFirstTimestamp: '2025-01-01T00:00:00Z' }, 'set the first timestamp');
  e.patch(objectPath(core, 'ct-evm-1'), 'merge', { count: 9, lastTimestamp: '2025-01-03T00:00:00Z' }, 'core: count and last time');
  e.get(objectPath(ev, 'ct-evm-1'), undefined, 'read through events.k8s.io');
  e.post(ev.collection(), { ...ev.make('ct-evm-2'), action: 'a'.repeat(129), reason: 'r'.repeat(129), reportingInstance: 'i'.repeat(129) }, undefined, 'long action, reason, instance');
  e.post(ev.collection(), { ...ev.make('ct-evm-3'), regarding: { kind: 'Node', name: 'n1' } }, undefined, 'regarding a cluster object');
  e.post(core.collection(), { ...core.make('ct-evm-4'), involvedObject: { kind: 'Node', name: 'n1' }, source: {}, reportingComponent: '', series: { count: 1, lastObservedTime: '2025-01-01T00:00:00.000000Z' } }, undefined, 'core: a series of 1, no source');
  e.post(core.collection(), { ...core.make('ct-evm-5'), type: '' }, undefined, 'core: no type');
  e.post(core.collection(), { ...core.make('ct-evm-6'), eventTime: '2025-01-01T00:00:00.000000Z', reportingComponent: 'not a name!', reportingInstance: 'i', action: 'A' }, undefined, 'core: a bad reporting component');
  e.get(`${core.collection()}?fieldSelector=involvedObject.kind%3DNode`, TABLE, 'core Table by kind');
  e.get(`${ev.collection()}?labelSelector=suite%3Dnone`, TABLE, 'an empty events.k8s.io Table');
  out.push(e.done());

  const pv = T.persistentvolumes;
  const p = new Seq('types-persistentvolumes-more');
  const pvp = objectPath(pv, 'ct-pvm-1');
  p.post(pv.collection(), { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ct-pvm-1' }, spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOncePod'], csi: { driver: 'example.com.csi', volumeHandle: 'h1', fsType: 'ext4', volumeAttributes: { a: 'b' } }, persistentVolumeReclaimPolicy: 'Delete', volumeMode: 'Block', mountOptions: ['discard'] } }, undefined, 'a CSI volume');
  p.get(pvp, TABLE, 'as Table');
  p.patch(pvp, 'merge', { spec: { capacity: { storage: 'lots' } } }, 'a bad capacity');
  p.patch(pvp, 'merge', { spec: { csi: { volumeHandle: 'h2' } } }, 'change the CSI handle');
  p.patch(pvp, 'merge', { spec: { volumeAttributesClassName: 'gold' } }, 'a volume attributes class (off in 1.33)');
  p.patch(pvp, 'merge', { spec: { claimRef: { kind: 'PersistentVolumeClaim', namespace: NS, name: 'c', uid: '11111111-2222-3333-4444-555555555555' } } }, 'a claimRef with a uid');
  p.get(pvp, TABLE, 'claimed as Table');
  p.patch(`${pvp}/status`, 'merge', { status: { phase: 'Failed', reason: 'Broken', message: 'it broke' } }, 'status: Failed with a reason');
  p.get(pvp, TABLE, 'failed as Table');
  p.post(pv.collection(), { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ct-pvm-2' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' }, mountOptions: ['ro'] } }, undefined, 'mount options on hostPath');
  p.post(pv.collection(), { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ct-pvm-3' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], cephfs: { monitors: ['m'] } } }, undefined, 'a deprecated plugin: a warning');
  p.post(pv.collection(), { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ct-pvm-4' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/mnt/x' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }] } } } }, undefined, 'a local volume');
  p.patch(objectPath(pv, 'ct-pvm-4'), 'merge', { spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n2'] }] }] } } } }, 'change its node affinity');
  p.post(pv.collection(), { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ct-pvm-5' }, spec: { capacity: { storage: '1.5Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/y' } } }, undefined, 'a fractional capacity');
  out.push(p.done());

  const sc = T.storageclasses;
  const c = new Seq('types-storageclasses-more');
  c.post(sc.collection(), { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ct-scm-1' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' }, undefined, 'no provisioner');
  c.get(`${sc.collection()}?labelSelector=suite%3Dnone`, TABLE, 'an empty Table');
  const cr = c.get(objectPath(sc, 'ct-scm-1'), undefined, 'read').last;
  c.putFrom(objectPath(sc, 'ct-scm-1'), cr, { reclaimPolicy: null }, 'PUT without the reclaim policy');
  c.patch(`${objectPath(sc, 'ct-scm-1')}?fieldManager=sc-apply`, 'apply', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ct-scm-1' }, provisioner: 'kubernetes.io/no-provisioner', mountOptions: ['a'] }, 'apply mount options');
  c.patch(`${objectPath(sc, 'ct-scm-1')}?fieldManager=sc-apply`, 'apply', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ct-scm-1' }, provisioner: 'example.com/x' }, 'apply another provisioner');
  c.post(sc.collection(), { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ct-scm-2' }, provisioner: 'Example.COM/Disk', parameters: { big: 'x'.repeat(263_000) } }, undefined, 'parameters too large, provisioner with capitals');
  c.post(sc.collection(), { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ct-scm-3' }, provisioner: 'example.com/disk', allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'a'] }, { key: 'zone', values: ['b'] }] }, { matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }] }, undefined, 'duplicate values and keys');
  out.push(c.done());

  const ip = T.ipaddresses;
  const i = new Seq('types-ipaddresses-more');
  i.post(ip.collection(), ip.make('10.96.251.1'), undefined, 'an address');
  i.patch(objectPath(ip, '10.96.251.1'), 'merge', { spec: { parentRef: null } }, 'drop its parent');
  i.patch(objectPath(ip, '10.96.251.1'), 'merge', { spec: { parentRef: { resource: 'gateways', group: 'example.com' } } }, 'change its parent resource');
  i.get(`${ip.collection()}?fieldSelector=metadata.name%3D10.96.251.1`, TABLE, 'by name as Table');
  i.post(ip.collection(), ip.make('192.168.1.1'), undefined, 'outside the service range');
  i.post(ip.collection(), ip.make('::ffff:10.96.251.2'), undefined, 'an IPv4-mapped IPv6 address');
  out.push(i.done());

  const sa = T.serviceaccounts;
  const a = new Seq('types-serviceaccounts-more');
  a.post(sa.collection(), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ct-sam-1', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'false' } }, imagePullSecrets: [{ name: 'a' }, { name: 'a' }] }, undefined, 'enforce false; repeated pull secrets');
  a.patch(objectPath(sa, 'ct-sam-1'), 'merge', { secrets: [{ name: 'x', namespace: 'other', kind: 'Secret' }] }, 'a secret of another namespace');
  a.get(`${sa.collection()}?labelSelector=suite%3Dnone`, TABLE, 'an empty Table');
  // The audience it is given is the server's own issuer (a flag of each server), and the token random.
  a.req('token: no audiences', { method: 'POST', path: `${objectPath(sa, 'ct-sam-1')}/token`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600, audiences: [] } } }, { ignoreBody: true });
  a.post(`${objectPath(sa, 'ct-sam-1')}/token`, { apiVersion: 'v1', kind: 'ServiceAccount', spec: {} }, undefined, 'token: the wrong kind');
  out.push(a.done());

  const r = new Seq('types-rbac-more');
  r.post(T.clusterroles.collection(), { ...T.clusterroles.make('ct-crm-1'), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }, undefined, 'aggregation with rules');
  r.patch(objectPath(T.clusterroles, 'ct-crm-1'), 'merge', { rules: [{ verbs: [] }] }, 'a bad rule on update');
  r.post(T.roles.collection(), { ...T.roles.make('ct-rm-1'), rules: [{ nonResourceURLs: ['/x'], verbs: ['get'] }] }, undefined, 'a Role of non-resource URLs');
  r.post(T.roles.collection(), T.roles.make('ct-rm-2'), undefined, 'a role');
  r.patch(objectPath(T.roles, 'ct-rm-2'), 'json6902', [{ op: 'add', path: '/rules/0/verbs/-', value: '' }], 'an empty verb');
  r.post(T.rolebindings.collection(), { ...T.rolebindings.make('ct-rbm-1'), subjects: [{ kind: 'ServiceAccount', name: 'robot', apiGroup: '' }, { kind: 'Group', name: 'system:authenticated' }] }, undefined, 'a binding: service account and group');
  r.get(`${T.rolebindings.collection()}?fieldSelector=metadata.name%3Dct-rbm-1`, TABLE, 'as Table');
  r.patch(objectPath(T.rolebindings, 'ct-rbm-1'), 'merge', { subjects: [{ kind: 'User', name: '' }] }, 'a bad subject on update');
  r.post(T.clusterrolebindings.collection(), { ...T.clusterrolebindings.make('ct-crbm-1'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } }, undefined, 'a cluster binding of a Role');
  r.post(T.clusterrolebindings.collection(), { ...T.clusterrolebindings.make('ct-crbm-2'), subjects: [] }, undefined, 'a cluster binding without subjects');
  r.get(objectPath(T.clusterrolebindings, 'ct-crbm-2'), TABLE, 'as Table');
  out.push(r.done());

  // The DefaultStorageClass admission plugin: claims without a class take the default one.
  const d = new Seq('types-storageclasses-default-for-claims');
  const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
  const claim = (name: string, extra: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, ...extra }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
  d.post(claims, claim('ct-pvc-0'), undefined, 'a claim while no class is the default');
  d.post(sc.collection(), { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'ct-scd-1', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/disk' }, undefined, 'a default class');
  d.req('a second for the informer (watch; its events depend on the same lag)', { method: 'GET', path: `${sc.collection()}?watch=1&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dct-scd-1` }, { ignoreBody: true });
  d.post(claims, claim('ct-pvc-1'), undefined, 'a claim without a class takes it');
  d.post(claims, { ...claim('ct-pvc-2'), spec: { ...(claim('ct-pvc-2').spec as Obj), storageClassName: '' } }, undefined, 'an empty class name stays empty');
  d.post(claims, claim('ct-pvc-3', { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } }), undefined, 'the beta annotation instead: a warning, no default');
  d.patch(objectPath(sc, 'ct-scd-1'), 'merge', { metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'false' } } }, 'no longer the default');
  // kube's admission reads classes from an informer: a second (a watch) for it to see the change.
  d.req('a second for the informer (watch; its events depend on the same lag)', { method: 'GET', path: `${sc.collection()}?watch=1&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dct-scd-1` }, { ignoreBody: true });
  d.post(claims, claim('ct-pvc-4'), undefined, 'a claim without a class stays without');
  d.get(`${claims}?labelSelector=suite%3Dnone`, TABLE, 'an empty claim Table');
  out.push(d.done());

  // Tokens bound to objects: a pod that exists, one of another uid.
  const b = new Seq('types-serviceaccounts-bound-tokens');
  const saPath = objectPath(sa, 'ct-sab-1');
  b.post(sa.collection(), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ct-sab-1' } }, undefined, 'an account');
  b.post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ct-sab-pod' }, spec: { serviceAccountName: 'ct-sab-1', containers: [{ name: 'c', image: 'nginx:1.27' }] } }, undefined, 'a pod of it');
  b.req('token bound to the pod (its body is random)', { method: 'POST', path: `${saPath}/token`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ct-sab-pod' } } } }, { ignoreBody: true });
  b.post(`${saPath}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ct-sab-pod', uid: '00000000-0000-0000-0000-000000000000' } } }, undefined, 'bound to the pod by another uid');
  b.post(`${saPath}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope' } } }, undefined, 'bound to a missing secret');
  b.req('bound to a pod of another version (issued)', { method: 'POST', path: `${saPath}/token`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], boundObjectRef: { kind: 'Pod', apiVersion: 'v2', name: 'ct-sab-pod' } } } }, { ignoreBody: true });
  b.req('an expiry past 2^32 seconds (issued)', { method: 'POST', path: `${saPath}/token`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 4_294_967_296 } } }, { ignoreBody: true });
  out.push(b.done());

  // Collections: deletecollection of each type, watches from 0
  // (the objects as ADDED events, then the timeout), apply on status subresources.
  const w = new Seq('types-collections-and-watches');
  const mk = (t: TypeInfo, name: string): Obj => ({ ...t.make(name), metadata: { name, labels: { coll: 'ct' } } });
  const kinds = [T.services, T.nodes, T.events, T['events.k8s.io'], T.persistentvolumes, T.storageclasses, T.serviceaccounts, T.roles, T.clusterrolebindings];
  kinds.forEach((t, i) => w.post(t.collection(), mk(t, `ct-coll-${i}`), undefined, `a labelled ${t.kind} (${t.key})`));
  for (const t of kinds) w.get(`${t.collection()}?watch=1&resourceVersion=0&timeoutSeconds=1&labelSelector=coll%3Dct`, undefined, `watch ${t.key} from 0`);
  w.patch(`${objectPath(T.nodes, 'ct-coll-1')}/status?fieldManager=kubelet`, 'apply', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'ct-coll-1' }, status: { capacity: { cpu: '2' }, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'KubeletReady', message: 'ok' }] } }, 'apply node status');
  w.patch(`${objectPath(T.services, 'ct-coll-0')}/status?fieldManager=lb`, 'apply', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ct-coll-0' }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: '2025-01-01T00:00:00Z' }] } }, 'apply service status');
  w.patch(`${objectPath(T.persistentvolumes, 'ct-coll-4')}/status?fieldManager=binder`, 'apply', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ct-coll-4' }, status: { phase: 'Available' } }, 'apply volume status');
  for (const t of kinds) w.delete(`${t.collection()}?labelSelector=coll%3Dct`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 }, `deletecollection of ${t.key}`);
  for (const t of kinds) w.get(`${t.collection()}?labelSelector=coll%3Dct`, undefined, `${t.key} left`);
  out.push(w.done());

  // Every later type in each encoding: created from protobuf, read as protobuf, YAML and CBOR
  // (which kube 1.33 does not serve), listed as protobuf and as a v1beta1 Table.
  const enc = new Seq('types-encodings');
  Object.values(T).forEach((t, i) => {
    const name = t.key === 'ipaddresses' ? '10.96.252.1' : `ct-enc-${i}`;
    enc.raw(`create ${t.key} from protobuf`, 'POST', t.collection(), { headers: { 'content-type': 'application/vnd.kubernetes.protobuf' }, body: encodeProtobufObject(t.make(name)) });
    enc.cleanup(t, name);
    enc.get(objectPath(t, name), { accept: 'application/vnd.kubernetes.protobuf' }, `${t.key} as protobuf`);
    enc.get(objectPath(t, name), { accept: 'application/yaml' }, `${t.key} as YAML`);
    enc.get(objectPath(t, name), { accept: 'application/cbor' }, `${t.key} as CBOR`);
    enc.get(`${t.collection()}?fieldSelector=metadata.name%3D${name}`, { accept: 'application/vnd.kubernetes.protobuf' }, `${t.key} listed as protobuf`);
    enc.get(`${t.collection()}?fieldSelector=metadata.name%3D${name}`, { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' }, `${t.key} listed as a v1beta1 Table`);
  });
  out.push(enc.done());
  return out;
}

/**
 * Steps of the generated corpus left out here: YAML syntax errors and integers beyond int64 or
 * 2^53 in bodies are the codecs' matters (their words and numbers are not the types'), and the
 * first-wave corpus already holds them.
 */
const CODEC_MATTERS = new Set(['apply bad YAML', 'integer out of range', 'merge patch number out of range', 'type swap: an integer as a string']);

/**
 * A list of every IPAddress: kube's reference server holds, for a while, addresses its
 * allocator took for services whose create then failed (its repair loop frees them later).
 */
const unselectedAddresses = (st: Step): boolean => st.req.method === 'GET' && st.req.path === '/apis/networking.k8s.io/v1/ipaddresses?fieldSelector=%3D';

/** A sequence without some of its steps, with later steps' references (bodyFrom, checks) renumbered. */
function withoutSteps(seq: Sequence, drop: (s: Step) => boolean): Sequence {
  const index = new Map<number, number>();
  const steps: Step[] = [];
  seq.steps.forEach((st, i) => {
    if (drop(st)) return;
    index.set(i, steps.length);
    const req = st.req.bodyFrom ? { ...st.req, bodyFrom: { ...st.req.bodyFrom, step: index.get(st.req.bodyFrom.step) ?? 0 } } : st.req;
    steps.push({ ...st, req, ...(st.checks !== undefined ? { checks: index.get(st.checks) ?? 0 } : {}) });
  });
  return { name: seq.name, steps };
}

/**
 * The first wave's generated corpus (conform-corpus.ts: random media types, Accept headers and
 * options over a life cycle, then malformed and refused input) over these types, seeded apart.
 */
function generated(): Sequence[] {
  const r = new Rand(SEED);
  const out: Sequence[] = [];
  for (const t of Object.values(T)) {
    out.push(corpusLifecycle(t, r));
    out.push(...badInput(t, r).map((q) => withoutSteps(q, (st) => CODEC_MATTERS.has(st.note ?? '') || unselectedAddresses(st))));
  }
  return out;
}

export const conformTypes = {
  name: 'conform-types',
  sequences: (): Sequence[] => [...services(), ...nodes(), ...events(), ...persistentVolumes(), ...storageClasses(), ...ipAddresses(), ...serviceAccounts(), ...rbacTypes(), ...more(), ...generated()],
};
