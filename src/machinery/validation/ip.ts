// IP and CIDR field checks with kube 1.33's messages (k8s.io/apimachinery/pkg/util/validation
// ip.go). StrictIPCIDRValidation is alpha and off in 1.33, so the legacy fields accept what
// ParseIPSloppy accepts; IsValidIP (new fields, IPAddress names) is always strict.

import type { FieldError } from '../errors.js';
import { invalid } from './field.js';
import { IP_MSG } from './network.js';
import { cidrString, ipString, parseCIDRSloppy, parseIPSloppy, parseIPStrict } from '../net/ip.js';

export const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** IsValidIPForLegacyField: a value the old object already held is accepted as it is. */
export function validateLegacyIP(value: string, field: string, validOld: readonly string[] = []): FieldError[] {
  if (validOld.includes(value)) return [];
  return parseIPSloppy(value) ? [] : [invalid(field, value, IP_MSG)];
}

/** IsValidCIDRForLegacyField. */
export function validateLegacyCIDR(value: string, field: string, validOld: readonly string[] = []): FieldError[] {
  if (validOld.includes(value)) return [];
  return parseCIDRSloppy(value) ? [] : [invalid(field, value, CIDR_MSG)];
}

/** IsValidIP's messages for `value` (strict, canonical form), without a path. */
export function strictIPErrors(value: string): string[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [IP_MSG];
  const errs: string[] = [];
  const strict = parseIPStrict(value);
  if (!strict.ok) errs.push('must not have leading 0s');
  if (strict.mapped) errs.push('must not be an IPv4-mapped IPv6 address');
  if (errs.length) return errs;
  const canonical = ipString(ip);
  if (value !== canonical) errs.push(`must be in canonical form (${JSON.stringify(canonical)})`);
  return errs;
}

/** GetWarningsForIP: an accepted address written in a form a later release will refuse. */
export function ipWarnings(field: string, value: string): string[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [];
  const strict = parseIPStrict(value);
  if (!strict.ok || strict.mapped) {
    return [`${field}: non-standard IP address ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(ipString(ip))}`];
  }
  if (ip.family === 'IPv6' && ipString(ip) !== value) {
    return [`${field}: IPv6 address ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(ipString(ip))})`];
  }
  return [];
}

/** GetWarningsForCIDR: host bits set, non-standard forms, non-canonical IPv6. */
export function cidrWarnings(field: string, value: string): string[] {
  const cidr = parseCIDRSloppy(value);
  if (!cidr) return [];
  const slash = value.indexOf('/');
  const addrText = value.slice(0, slash);
  const addr = parseIPSloppy(addrText)!;
  const warnings: string[] = [];
  const canonical = cidrString(cidr);
  if (addr.value !== cidr.base) {
    warnings.push(`${field}: CIDR value ${JSON.stringify(value)} is ambiguous in this context (should be ${JSON.stringify(canonical)} or ${JSON.stringify(`${ipString(addr)}/${cidr.bits}`)}?)`);
  }
  const strict = parseIPStrict(addrText);
  const prefixText = value.slice(slash + 1);
  if (!strict.ok || strict.mapped || (prefixText.length > 1 && prefixText.startsWith('0'))) {
    warnings.push(`${field}: non-standard CIDR value ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(canonical)}`);
  }
  if (warnings.length === 0 && cidr.family === 'IPv6') {
    const prefixForm = `${ipString(addr)}/${cidr.prefix}`;
    if (prefixForm !== value) warnings.push(`${field}: IPv6 CIDR value ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(prefixForm)})`);
  }
  return warnings;
}
