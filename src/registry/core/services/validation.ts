// Service validation with kube 1.33's paths and messages (ValidateService, ValidateServiceUpdate,
// ValidateServiceClusterIPsRelatedFields, ValidateLoadBalancerStatus in
// pkg/apis/core/validation), on the v1 JSON form. The cluster is single-stack IPv4 unless the
// service CIDR flag says otherwise; the allocator (allocation.ts) checks the families.

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../../machinery/validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../machinery/validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../machinery/validation/network.js';
import { validateLegacyCIDR, validateLegacyIP } from '../../../machinery/validation/ip.js';
import { validateLabels } from '../../../machinery/validation/object-meta.js';
import { isDualStackIPs, isIPv6String, parseIPSloppy } from '../../../machinery/net/ip.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';
import type { KObject } from '../../../machinery/object.js';
import { GoStringer } from '../../../machinery/validation/field.js';

export const SESSION_AFFINITIES = ['ClientIP', 'None'];
export const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const LB_IP_MODES = ['Proxy', 'VIP'];
const MAX_AFFINITY_SECONDS = 86400;
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
export const LB_SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

export const specOf = (o: KObject): Obj => (asObj(o.spec) ?? {}) as Obj;
export const portsOf = (s: Obj): Obj[] => asArr(s.ports).map((p) => asObj(p) ?? {});
export const clusterIPsOf = (s: Obj): string[] => asArr(s.clusterIPs).map(str);

export const isHeadless = (s: Obj): boolean => {
  const ips = clusterIPsOf(s);
  return ips.length === 1 && ips[0] === 'None';
};

/** apiservice.ExternallyAccessible. */
export const externallyAccessible = (s: Obj): boolean =>
  s.type === 'LoadBalancer' || s.type === 'NodePort' || (s.type === 'ClusterIP' && asArr(s.externalIPs).length > 0);

/** apiservice.NeedsHealthCheck. */
export const needsHealthCheck = (s: Obj): boolean => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** Go's %#v of the core.ServicePort key kube builds for duplicate (protocol, port) pairs. */
const portKeyGo = (protocol: string, port: number): GoStringer =>
  new GoStringer(
    `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );

function validatePortNumOrName(v: unknown, field: string): FieldError[] {
  if (typeof v === 'number') return isValidPortNum(v).map((m) => invalid(field, v, m));
  if (typeof v === 'string') return isValidPortName(v).map((m) => invalid(field, v, m));
  return [];
}

function validateServicePort(p: Obj, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p.name);
  if (requireName && !name) errs.push(required(`${path}.name`));
  else if (name) {
    for (const m of isDNS1123Label(name)) errs.push(invalid(`${path}.name`, name, m));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    else names.add(name);
  }
  for (const m of isValidPortNum(num(p.port))) errs.push(invalid(`${path}.port`, num(p.port), m));
  const protocol = str(p.protocol);
  if (!protocol) errs.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(p.targetPort, `${path}.targetPort`));
  if (typeof p.appProtocol === 'string') for (const m of isQualifiedName(p.appProtocol)) errs.push(invalid(`${path}.appProtocol`, p.appProtocol, m));
  return errs;
}

function validateClientIPAffinity(cfg: unknown): FieldError[] {
  const path = 'spec.sessionAffinityConfig';
  const when = 'when session affinity type is ClientIP';
  const c = asObj(cfg);
  if (!c) return [required(path, when)];
  const ip = asObj(c.clientIP);
  if (!ip) return [required(`${path}.clientIP`, when)];
  if (ip.timeoutSeconds === undefined || ip.timeoutSeconds === null) return [required(`${path}.clientIP.timeoutSeconds`, when)];
  const t = num(ip.timeoutSeconds);
  if (t <= 0 || t > MAX_AFFINITY_SECONDS) {
    return [invalid(`${path}.clientIP.timeoutSeconds`, t, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** ValidateEndpointIP, after the address parsed. */
function validateEndpointIP(ip: string, field: string): FieldError[] {
  const a = parseIPSloppy(ip);
  if (!a) return [invalid(field, ip, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v4 = a.family === 'IPv4';
  const v = a.value;
  if (v === 0n) errs.push(invalid(field, ip, `may not be unspecified (${ip})`));
  if ((v4 && v >> 24n === 127n) || (!v4 && v === 1n)) errs.push(invalid(field, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if ((v4 && v >> 16n === 0xa9fen) || (!v4 && v >> 118n === 0x3fan)) errs.push(invalid(field, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if ((v4 && v >> 8n === 0xe00000n) || (!v4 && v >> 112n === 0xff02n)) {
    errs.push(invalid(field, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  }
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields. */
export function validateClusterIPsRelatedFields(s: Obj, old?: Obj): FieldError[] {
  if (s.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = clusterIPsOf(s);
  const clusterIP = str(s.clusterIP);
  if (clusterIP) {
    if (ips.length === 0) errs.push(required('spec.clusterIPs'));
    else if (ips[0] !== clusterIP) errs.push(invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified'));
  }
  const families = asArr(s.ipFamilies).map(str);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!IP_FAMILIES.includes(f)) errs.push(notSupported(`spec.ipFamilies[${i}]`, f, IP_FAMILIES));
    if (seen.has(f)) errs.push(duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  if (s.ipFamilyPolicy !== undefined && s.ipFamilyPolicy !== null && !IP_FAMILY_POLICIES.includes(str(s.ipFamilyPolicy))) {
    errs.push(notSupported('spec.ipFamilyPolicy', s.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  const existing = old ? clusterIPsOf(old) : [];
  let badIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        badIPs = true;
        errs.push(invalid('spec.clusterIPs', ips, "'None' must be the first and only value"));
      }
      return;
    }
    const e = validateLegacyIP(ip, `spec.clusterIPs[${i}]`, existing);
    if (e.length) badIPs = true;
    errs.push(...e);
  });
  if (ips.length > 2) errs.push(invalid('spec.clusterIPs', ips, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (ips.length > 1 && !isDualStackIPs(ips)) errs.push(invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family'));
  if (!isHeadless(s) && ips.length > 0 && families.length > 0) {
    ips.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) errs.push(invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip)) errs.push(invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** ValidateService (without the object metadata, which the store checks). */
export function validateService(obj: KObject, old?: KObject): FieldError[] {
  const s = specOf(obj);
  const o = old ? specOf(old) : undefined;
  const errs: FieldError[] = [];
  const ann = obj.metadata.annotations ?? {};
  if (Object.hasOwn(ann, TOPOLOGY_MODE) && Object.hasOwn(ann, TOPOLOGY_HINTS) && ann[TOPOLOGY_MODE] !== ann[TOPOLOGY_HINTS]) {
    errs.push(invalid(`metadata.annotations[${TOPOLOGY_MODE}]`, ann[TOPOLOGY_MODE], `must match annotations[${TOPOLOGY_HINTS}] when both are specified`));
  }
  const ports = portsOf(s);
  const headless = isHeadless(s);
  if (ports.length === 0 && !headless && s.type !== 'ExternalName') errs.push(required('spec.ports'));
  const ips = clusterIPsOf(s);
  switch (s.type) {
    case 'LoadBalancer':
      if (headless) errs.push(invalid('spec.clusterIPs[0]', ips[0], "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (headless) errs.push(invalid('spec.clusterIPs[0]', ips[0], "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (ips.length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (asArr(s.ipFamilies).length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (s.ipFamilyPolicy !== undefined && s.ipFamilyPolicy !== null) errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      const cname = str(s.externalName).replace(/\.$/, '');
      if (cname) for (const m of isDNS1123Subdomain(cname)) errs.push(invalid('spec.externalName', cname, m));
      else errs.push(required('spec.externalName'));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (s.selector !== undefined && s.selector !== null) errs.push(...validateLabels(s.selector, 'spec.selector'));
  const affinity = str(s.sessionAffinity);
  if (!affinity) errs.push(required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(affinity)) errs.push(notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES));
  if (affinity === 'ClientIP') errs.push(...validateClientIPAffinity(s.sessionAffinityConfig));
  else if (affinity === 'None' && s.sessionAffinityConfig !== undefined && s.sessionAffinityConfig !== null) {
    errs.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelatedFields(s, o));
  const oldExternal = o ? asArr(o.externalIPs).map(str) : [];
  asArr(s.externalIPs).forEach((ip, i) => {
    const path = `spec.externalIPs[${i}]`;
    const e = validateLegacyIP(str(ip), path, oldExternal);
    errs.push(...(e.length ? e : validateEndpointIP(str(ip), path)));
  });
  const type = str(s.type);
  if (!type) errs.push(required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errs.push(notSupported('spec.type', type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (num(p.nodePort) !== 0) errs.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (num(p.nodePort) === 0) return;
    const k = `${str(p.protocol)}/${num(p.nodePort)}`;
    if (nodePorts.has(k)) errs.push(duplicate(`spec.ports[${i}].nodePort`, num(p.nodePort)));
    nodePorts.add(k);
  });
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const k = `${str(p.protocol)}/${num(p.port)}`;
    if (portKeys.has(k)) errs.push(duplicate(`spec.ports[${i}]`, portKeyGo(str(p.protocol), num(p.port))));
    portKeys.add(k);
  });
  const ranges = asArr(s.loadBalancerSourceRanges).map(str);
  if (ranges.length > 0) {
    // kube spells this path with a capital L.
    const path = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer') errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const existing = o ? asArr(o.loadBalancerSourceRanges).map((v) => str(v).trim()) : [];
    ranges.forEach((r, i) => errs.push(...validateLegacyCIDR(r.trim(), `${path}[${i}]`, existing)));
  } else if (Object.hasOwn(ann, LB_SOURCE_RANGES_ANNOTATION)) {
    const path = `metadata.annotations[${LB_SOURCE_RANGES_ANNOTATION}]`;
    if (type !== 'LoadBalancer') errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const val = ann[LB_SOURCE_RANGES_ANNOTATION]!;
    if (!old || old.metadata.annotations?.[LB_SOURCE_RANGES_ANNOTATION] !== val) {
      const trimmed = val.trim();
      if (trimmed) for (const c of trimmed.split(',')) errs.push(...validateLegacyCIDR(c.trim(), path));
    }
  }
  if (s.allocateLoadBalancerNodePorts !== undefined && s.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && (s.allocateLoadBalancerNodePorts === undefined || s.allocateLoadBalancerNodePorts === null)) {
    errs.push(required('allocateLoadBalancerNodePorts'));
  }
  errs.push(...validateLoadBalancerClass(s));
  errs.push(...validateExternalTrafficPolicy(s));
  if (s.internalTrafficPolicy === undefined || s.internalTrafficPolicy === null) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(str(s.internalTrafficPolicy))) {
    errs.push(notSupported('spec.internalTrafficPolicy', s.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  // PreferSameTrafficDistribution is off in 1.33: PreferClose is the one value.
  if (s.trafficDistribution !== undefined && s.trafficDistribution !== null && s.trafficDistribution !== 'PreferClose') {
    errs.push(notSupported('spec.trafficDistribution', s.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

function validateLoadBalancerClass(s: Obj, o?: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const cls = s.loadBalancerClass;
  if (o && o.type === 'LoadBalancer' && s.type === 'LoadBalancer' && (o.loadBalancerClass ?? null) !== (cls ?? null)) {
    errs.push(invalid('spec.loadBalancerClass', cls ?? null, 'may not change once set'));
  }
  if (typeof cls !== 'string') return errs;
  if (s.type === 'LoadBalancer') for (const m of isQualifiedName(cls)) errs.push(invalid('spec.loadBalancerClass', cls, m));
  else errs.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  return errs;
}

function validateExternalTrafficPolicy(s: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const etp = str(s.externalTrafficPolicy);
  if (!externallyAccessible(s)) {
    if (etp) errs.push(invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  } else if (!etp) {
    errs.push(required('spec.externalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(etp)) {
    errs.push(notSupported('spec.externalTrafficPolicy', etp, TRAFFIC_POLICIES));
  }
  const hc = num(s.healthCheckNodePort);
  if (!needsHealthCheck(s)) {
    if (hc !== 0) errs.push(invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) {
    errs.push(required('spec.healthCheckNodePort'));
  } else {
    for (const m of isValidPortNum(hc)) errs.push(invalid('spec.healthCheckNodePort', hc, m));
  }
  return errs;
}

function validateUpgradeDowngradeClusterIPs(s: Obj, o: Obj): FieldError[] {
  if (s.type === 'ExternalName' || o.type === 'ExternalName') return [];
  if (isHeadless(o) && isHeadless(s)) return [];
  const errs: FieldError[] = [];
  const now = clusterIPsOf(s);
  const before = clusterIPsOf(o);
  if (before.length === now.length) {
    before.forEach((ip, i) => {
      if (ip !== now[i]) errs.push(invalid(`spec.clusterIPs[${i}]`, now, 'may not change once set'));
    });
  } else if (before.length > now.length) {
    if (now.length === 0) errs.push(invalid('spec.clusterIPs[0]', now, 'primary clusterIP can not be unset'));
    if (before.length > 0 && now.length > 0 && now[0] !== before[0]) errs.push(invalid('spec.clusterIPs[0]', now, 'may not change once set'));
    if (now.length === 1 && s.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (before.length > 0 && now[0] !== before[0]) {
    errs.push(invalid('spec.clusterIPs[0]', now, 'may not change once set'));
  }
  return errs;
}

function validateUpgradeDowngradeIPFamilies(s: Obj, o: Obj): FieldError[] {
  if (s.type === 'ExternalName' || o.type === 'ExternalName') return [];
  if (isHeadless(s) !== isHeadless(o) || isHeadless(s)) return [];
  const errs: FieldError[] = [];
  const now = asArr(s.ipFamilies).map(str);
  const before = asArr(o.ipFamilies).map(str);
  if (before.length === now.length) {
    before.forEach((f, i) => {
      if (f !== now[i]) errs.push(invalid('spec.ipFamilies[0]', now, 'may not change once set'));
    });
  } else if (before.length > now.length) {
    if (clusterIPsOf(s).length === 0) errs.push(invalid('spec.ipFamilies[0]', now, 'primary ipFamily can not be unset'));
    if (now.length > 0 && now[0] !== before[0]) errs.push(invalid('spec.ipFamilies[0]', clusterIPsOf(s), 'may not change once set'));
    if (now.length === 1 && s.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.ipFamilyPolicy', s.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (before.length > 0 && now.length > 0 && now[0] !== before[0]) {
    errs.push(invalid('spec.ipFamilies[0]', clusterIPsOf(s), 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate (the metadata update is checked by the store). */
export function validateServiceUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = specOf(obj);
  const o = specOf(old);
  const errs = [...validateUpgradeDowngradeClusterIPs(s, o), ...validateUpgradeDowngradeIPFamilies(s, o)];
  errs.push(...validateLoadBalancerClass(s, o));
  if (needsHealthCheck(o) && needsHealthCheck(s) && num(s.healthCheckNodePort) !== num(o.healthCheckNodePort)) {
    errs.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  errs.push(...validateService(obj, old));
  return errs;
}

/** ValidateServiceStatusUpdate: the load balancer's ingress points. */
export function validateServiceStatusUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = specOf(obj);
  const ingress = asArr(asObj(asObj(obj.status)?.loadBalancer)?.ingress).map((x) => asObj(x) ?? {});
  const path = 'status.loadBalancer.ingress';
  if (s.type !== 'LoadBalancer' && ingress.length !== 0) return [forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  const existing = asArr(asObj(asObj(old.status)?.loadBalancer)?.ingress)
    .map((x) => str(asObj(x)?.ip))
    .filter(Boolean);
  const errs: FieldError[] = [];
  ingress.forEach((ing, i) => {
    const p = `${path}[${i}]`;
    const ip = str(ing.ip);
    if (ip) errs.push(...validateLegacyIP(ip, `${p}.ip`, existing));
    if (ing.ipMode === undefined || ing.ipMode === null) {
      if (ip) errs.push(required(`${p}.ipMode`, 'must be specified when `ip` is set'));
    } else if (!ip) {
      errs.push(forbidden(`${p}.ipMode`, 'may not be specified when `ip` is not set'));
    } else if (!LB_IP_MODES.includes(str(ing.ipMode))) {
      errs.push(notSupported(`${p}.ipMode`, ing.ipMode, LB_IP_MODES));
    }
    const host = str(ing.hostname);
    if (host) {
      for (const m of isDNS1123Subdomain(host)) errs.push(invalid(`${p}.hostname`, host, m));
      if (parseIPSloppy(host)) errs.push(invalid(`${p}.hostname`, host, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
