// IP and CIDR field checks with kube 1.33's messages (k8s.io/apimachinery/pkg/util/validation
// ip.go). StrictIPCIDRValidation is alpha and off in 1.33, so the legacy fields accept what
// ParseIPSloppy accepts; IsValidIP (new fields, IPAddress names) is always strict.

import type { FieldError } from '../errors.js';
import { invalid } from './field.js';
import { IP_MSG } from './network.js';
import { ipString, parseCIDRSloppy, parseIPSloppy, parseIPStrict } from '../net/ip.js';

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
