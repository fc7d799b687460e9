// Port and IP address rules with kube's messages (k8s.io/apimachinery/pkg/util/validation:
// IsValidPortNum, IsValidPortName; k8s.io/utils/net ParseIPSloppy).

import { inclusiveRange } from './field.js';

/** validation.IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

/** validation.IsValidPortName (an IANA service name). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

export const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** netutils.ParseIPSloppy: IPv4 (leading zeros allowed) or IPv6. */
export function isIP(v: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(v)) return v.split('.').every((p) => Number(p) <= 255);
  if (!v.includes(':') || /[^0-9a-fA-F:.]/.test(v)) return false;
  let s = v;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  const groups = 8;
  if (tail.includes('.')) {
    if (!isIP(tail) || tail.includes(':')) return false;
    s = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = s.split('::');
  if (dbl.length > 2) return false;
  const parts = (x: string): string[] => (x === '' ? [] : x.split(':'));
  const head = parts(dbl[0]);
  const rest = dbl.length === 2 ? parts(dbl[1]) : [];
  const all = [...head, ...rest];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return dbl.length === 2 ? all.length < groups : all.length === groups;
}
