// IP addresses and CIDRs as kube reads and prints them: k8s.io/utils/net's ParseIPSloppy and
// ParseCIDRSloppy (IPv4 parts may carry leading zeros, read as decimal), Go's net.IP.String()
// (an IPv4-mapped IPv6 address prints as IPv4; IPv6 in RFC 5952 form) and net/netip's strict
// parse. Addresses are held as bigints so that ranges and offsets are plain arithmetic.

export type IPFamily = 'IPv4' | 'IPv6';

export interface IPAddr {
  /** IPv4 for dotted quads and IPv4-mapped IPv6 addresses (Go's To4() != nil). */
  family: IPFamily;
  /** The address as a number: 32 bits for IPv4, 128 for IPv6. */
  value: bigint;
}

export interface CIDR {
  family: IPFamily;
  /** The network address (the host bits cleared). */
  base: bigint;
  prefix: number;
  /** Address bits: 32 or 128. */
  bits: number;
}

const V4_MAPPED = 0xffffn << 32n;

function parseV4(s: string, strict: boolean): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    if (strict && p.length > 1 && p.startsWith('0')) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(s: string, strict: boolean): bigint | undefined {
  if (!s.includes(':') || /[^0-9a-fA-F:.]/.test(s)) return undefined;
  let text = s;
  let tail: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail = parseV4(text.slice(lastColon + 1), strict);
    if (tail === undefined) return undefined;
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (x: string): string[] | undefined => {
    if (x === '') return [];
    const g = x.split(':');
    return g.every((h) => /^[0-9a-fA-F]{1,4}$/.test(h)) ? g : undefined;
  };
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !rest) return undefined;
  const count = head.length + rest.length;
  if (halves.length === 2 ? count > 7 : count !== 8) return undefined;
  const all = [...head, ...Array<string>(8 - count).fill('0'), ...rest];
  let v = 0n;
  for (const h of all) v = (v << 16n) | BigInt(parseInt(h, 16));
  if (tail !== undefined) v = (v & ~0xffffffffn) | tail;
  return v;
}

function parse(s: string, strict: boolean): IPAddr | undefined {
  const v4 = parseV4(s, strict);
  if (v4 !== undefined) return { family: 'IPv4', value: v4 };
  const v6 = parseV6(s, strict);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { family: 'IPv4', value: v6 & 0xffffffffn };
  return { family: 'IPv6', value: v6 };
}

/** netutils.ParseIPSloppy: undefined when `s` is not an address. */
export const parseIPSloppy = (s: string): IPAddr | undefined => parse(s, false);

/**
 * netip.ParseAddr's verdict, as kube's strict checks use it: no leading zeros, and whether the
 * text is an IPv4-mapped IPv6 address.
 */
export function parseIPStrict(s: string): { ok: boolean; mapped: boolean } {
  const v6 = s.includes(':') ? parseV6(s, true) : undefined;
  if (v6 !== undefined) return { ok: true, mapped: v6 >> 32n === 0xffffn };
  return { ok: parseV4(s, true) !== undefined, mapped: false };
}

/** `s` in net.IP.String()'s spelling when it is an address (`10.96.0.010` is `10.96.0.10`), else as given. */
export function canonicalIPString(s: string): string {
  const ip = parseIPSloppy(s);
  return ip ? ipString(ip) : s;
}

const v4Text = (v: bigint): string => [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');

/** Go's net.IP.String(). */
export function ipString(ip: IPAddr): string {
  if (ip.family === 'IPv4') return v4Text(ip.value);
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn));
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number[]): string => g.map((x) => x.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** netutils.IsIPv6String: a valid address that is not IPv4 (nor IPv4-mapped). */
export const isIPv6String = (s: string): boolean => parseIPSloppy(s)?.family === 'IPv6';

/** netutils.ParseCIDRSloppy: the network of `s` ("10.96.0.0/12"), undefined when invalid. */
export function parseCIDRSloppy(s: string): CIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addrText = s.slice(0, slash);
  const prefixText = s.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(prefixText)) return undefined;
  let family: IPFamily;
  let value: bigint;
  const v4 = parseV4(addrText, false);
  if (v4 !== undefined) {
    family = 'IPv4';
    value = v4;
  } else {
    const v6 = parseV6(addrText, false);
    if (v6 === undefined) return undefined;
    family = 'IPv6';
    value = v6;
  }
  const bits = family === 'IPv4' ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > bits) return undefined;
  const hostBits = BigInt(bits - prefix);
  return { family, base: (value >> hostBits) << hostBits, prefix, bits };
}

/** The CIDR in its canonical text. */
export const cidrString = (c: CIDR): string => `${ipString({ family: c.family, value: c.base })}/${c.prefix}`;

/** The number of addresses in the network. */
export const cidrSize = (c: CIDR): bigint => 1n << BigInt(c.bits - c.prefix);

/** Whether `ip` lies in the network. */
export function cidrContains(c: CIDR, ip: IPAddr): boolean {
  if (ip.family !== c.family) return false;
  const hostBits = BigInt(c.bits - c.prefix);
  return ip.value >> hostBits === c.base >> hostBits;
}

/** The address `offset` places after the network address. */
export const cidrAddr = (c: CIDR, offset: bigint): IPAddr => ({ family: c.family, value: c.base + offset });

/** netutils.IsDualStackIPStrings: exactly one address of each family (valid addresses only). */
export function isDualStackIPs(ips: string[]): boolean {
  const fams = new Set(ips.map((s) => parseIPSloppy(s)?.family));
  return fams.has('IPv4') && fams.has('IPv6') && !fams.has(undefined);
}

/** netutils.IsDualStackCIDRStrings. */
export function isDualStackCIDRs(cidrs: string[]): boolean {
  const fams = new Set(cidrs.map((s) => parseCIDRSloppy(s)?.family));
  return fams.has('IPv4') && fams.has('IPv6') && !fams.has(undefined);
}

/** The address `v` of an IPv4 value, shaped as an IPv4-mapped IPv6 value (for mixed arithmetic). */
export const v4Mapped = (v: bigint): bigint => V4_MAPPED | v;
