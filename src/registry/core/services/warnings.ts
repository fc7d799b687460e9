// GetWarningsForService (pkg/api/service/warnings.go): accepted values a client should know
// about, as `Warning` headers.

import type { KObject } from '../../../machinery/object.js';
import { cidrWarnings, ipWarnings } from '../../../machinery/validation/ip.js';
import { asArr, str } from '../../../machinery/json-view.js';
import { clusterIPsOf, specOf } from './validation.js';

const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';

export function serviceWarnings(obj: KObject, old?: KObject): string[] {
  void old;
  const s = specOf(obj);
  const out: string[] = [];
  if (Object.hasOwn(obj.metadata.annotations ?? {}, TOPOLOGY_HINTS)) {
    out.push(`annotation ${TOPOLOGY_HINTS} is deprecated, please use ${TOPOLOGY_MODE} instead`);
  }
  // helper.IsServiceIPSet: a ClusterIP that is neither empty nor None.
  const ip = str(s.clusterIP);
  if (ip && ip !== 'None') clusterIPsOf(s).forEach((v, i) => out.push(...ipWarnings(`spec.clusterIPs[${i}]`, v)));
  asArr(s.externalIPs).forEach((v, i) => out.push(...ipWarnings(`spec.externalIPs[${i}]`, str(v))));
  if (str(s.loadBalancerIP)) out.push(...ipWarnings('spec.loadBalancerIP', str(s.loadBalancerIP)));
  asArr(s.loadBalancerSourceRanges).forEach((v, i) => out.push(...cidrWarnings(`spec.loadBalancerSourceRanges[${i}]`, str(v))));
  if (s.type === 'ExternalName' && asArr(s.externalIPs).length > 0) out.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (s.type !== 'ExternalName' && str(s.externalName)) out.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  return out;
}
