// The service ranges of kube-apiserver's flags, --service-cluster-ip-range and
// --service-node-port-range, read and checked as kube-apiserver does at start. Light on
// purpose: the command line reads them before the server's modules load.

import { cidrAddr, ipString, parseCIDRSloppy } from '../../../machinery/net/ip.js';

export interface PortRange {
  base: number;
  size: number;
}

/** utilnet.ParsePortRange: "30000-32767", "30000+2767" or a single port. */
export function parsePortRange(text: string): PortRange {
  const t = text.trim();
  let m = /^([0-9]+)-([0-9]+)$/.exec(t);
  let low: number;
  let high: number;
  if (m) {
    low = Number(m[1]);
    high = Number(m[2]);
  } else if ((m = /^([0-9]+)\+([0-9]+)$/.exec(t))) {
    low = Number(m[1]);
    high = low + Number(m[2]);
  } else if (/^[0-9]+$/.test(t)) {
    low = high = Number(t);
  } else {
    throw new Error(`invalid port range ${JSON.stringify(text)}`);
  }
  if (low > 65535 || high > 65535 || high < low) throw new Error(`invalid port range ${JSON.stringify(text)}`);
  return { base: low, size: high - low + 1 };
}

export const portRangeString = (r: PortRange): string => `${r.base}-${r.base + r.size - 1}`;

/** The first address of --service-cluster-ip-range: the `kubernetes` Service's, and a name of the serving certificate. */
export function firstServiceIP(ranges: string): string {
  const cidr = parseCIDRSloppy(ranges.split(',')[0]!.trim());
  if (!cidr) throw new Error(`invalid service CIDR ${JSON.stringify(ranges)}`);
  return ipString(cidrAddr(cidr, 1n));
}

/** kube-apiserver's checks of --service-cluster-ip-range: one CIDR, or two of different families. */
export function checkServiceRanges(value: string): string {
  const cidrs = value.split(',').map((c) => c.trim());
  const parsed = cidrs.map((c) => parseCIDRSloppy(c));
  if (cidrs.length > 2 || parsed.some((c) => !c)) throw new Error(`--service-cluster-ip-range: invalid value ${JSON.stringify(value)}`);
  if (parsed.length === 2 && parsed[0]!.family === parsed[1]!.family) {
    throw new Error('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
  }
  for (const c of parsed) {
    if (c!.family === 'IPv6' && c!.prefix < 64) throw new Error(`--service-cluster-ip-range: shortest allowed prefix length for service CIDR is 64, got ${c!.prefix}`);
    if (c!.bits - c!.prefix < 2) throw new Error(`--service-cluster-ip-range: ${value} is too small`);
  }
  return cidrs.join(',');
}

/** pflag's answer to a --service-node-port-range that does not parse. */
export function checkPortRange(value: string): string {
  try {
    parsePortRange(value);
  } catch {
    throw new Error(`invalid argument ${JSON.stringify(value)} for "--service-node-port-range" flag`);
  }
  return value;
}
