// Name rules of the types beyond DNS subdomains and labels, with kube's messages: DNS-1035
// labels (Service names), path segments (core/v1 Event names: only the store's key rules) and
// IP addresses (IPAddress names).

import { maxLenError, regexError, type NameValidator } from './names.js';
import { strictIPErrors } from './ip.js';

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_ERROR = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL_FMT,
  'my-name',
  'abc-123',
);

/** validation.IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value) > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(DNS1035_LABEL_ERROR);
  return errs;
}

/** NameIsDNS1035Label: generateName may end in '-'. */
export const nameIsDNS1035Label: NameValidator = (name, prefix) =>
  isDNS1035Label(prefix && name.length > 1 && name.endsWith('-') ? name.slice(0, -1) + 'a' : name);

/** path.ValidatePathSegmentName: what a name needs to be one segment of a URL and a store key. */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
};

/** ValidateIPAddressName: the name is an IP address in canonical form (prefix is not considered). */
export const nameIsIPAddress: NameValidator = (name) => strictIPErrors(name);
