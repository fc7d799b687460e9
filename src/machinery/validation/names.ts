// Name, label-key and label-value rules with kube's messages (k8s.io/apimachinery/pkg/util/
// validation): each check answers the list of problems, empty when the value is valid. Lengths
// are counted in UTF-8 bytes, as Go's len() counts them.

import type { FieldError } from '../errors.js';
import { invalid } from './field.js';

const utf8Length = (s: string): number => (s.length < 64 ? Buffer.byteLength(s, 'utf8') : Buffer.byteLength(s));

/** validation.RegexError: a regular expression's failure, with examples of valid values. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = msg + ' (e.g. ';
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return out + `regex used for validation is '${fmt}')`;
}

export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
export const EMPTY_ERROR = 'must be non-empty';

const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QNAME_RE = new RegExp(`^${QNAME_FMT}$`);
const QNAME_ERROR = regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc');
const QNAME_MAX = 63;
const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_ERROR = regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345');
const LABEL_VALUE_MAX = 63;
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_LABEL_ERROR = regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc');
const DNS1123_LABEL_MAX = 63;
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_ERROR = regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com');
const DNS1123_SUBDOMAIN_MAX = 253;

/**
 * Strings a check found valid, per check. The same label keys, names and values come back on
 * every write, and a set lookup is far cheaper than the regular expressions. Bounded: cleared
 * when full.
 */
class ValidMemo {
  private readonly seen = new Set<string>();

  has(value: string): boolean {
    return this.seen.has(value);
  }

  /** `errs` as the check's result; `value` is remembered when it has none. */
  note(value: string, errs: string[]): string[] {
    if (errs.length === 0 && value.length <= 256) {
      if (this.seen.size >= 4096) this.seen.clear();
      this.seen.add(value);
    }
    return errs;
  }
}

const validLabels = new ValidMemo();
const validSubdomains = new ValidMemo();
const validQualifiedNames = new ValidMemo();
const validLabelValues = new ValidMemo();

/** validation.IsDNS1123Label. */
export function isDNS1123Label(value: string): string[] {
  if (validLabels.has(value)) return [];
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!DNS1123_LABEL_RE.test(value)) {
    // A valid subdomain that is no label: the length was checked, so it is the dots.
    errs.push(DNS1123_SUBDOMAIN_RE.test(value) ? 'must not contain dots' : DNS1123_LABEL_ERROR);
  }
  return validLabels.note(value, errs);
}

/** validation.IsDNS1123Subdomain. */
export function isDNS1123Subdomain(value: string): string[] {
  if (validSubdomains.has(value)) return [];
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(DNS1123_SUBDOMAIN_ERROR);
  return validSubdomains.note(value, errs);
}

/** validation.IsQualifiedName: the rule of label keys, annotation keys and finalizers. */
export function isQualifiedName(value: string): string[] {
  if (validQualifiedNames.has(value)) return [];
  const errs: string[] = [];
  const slash = value.indexOf('/');
  let name = value;
  if (slash >= 0) {
    if (value.indexOf('/', slash + 1) >= 0) {
      return [`a qualified name ${QNAME_ERROR} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
    }
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (utf8Length(name) > QNAME_MAX) errs.push(`name part ${maxLenError(QNAME_MAX)}`);
  if (!QNAME_RE.test(name)) errs.push(`name part ${QNAME_ERROR}`);
  return validQualifiedNames.note(value, errs);
}

/** validation.IsValidLabelValue. */
export function isValidLabelValue(value: string): string[] {
  if (validLabelValues.has(value)) return [];
  const errs: string[] = [];
  if (utf8Length(value) > LABEL_VALUE_MAX) errs.push(maxLenError(LABEL_VALUE_MAX));
  if (!LABEL_VALUE_RE.test(value)) errs.push(LABEL_VALUE_ERROR);
  return validLabelValues.note(value, errs);
}

/** A name validator: `prefix` is true for generateName, where a trailing '-' is allowed. */
export type NameValidator = (name: string, prefix: boolean) => string[];

const maskTrailingDash = (name: string, prefix: boolean): string =>
  prefix && name.length > 1 && name.endsWith('-') ? name.slice(0, -1) + 'a' : name;

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(maskTrailingDash(name, prefix));
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(maskTrailingDash(name, prefix));

// The checks above as field errors at a path (kube's ValidateDNS1123Label and friends).
export const validateDNS1123Label = (v: string, field: string): FieldError[] => isDNS1123Label(v).map((m) => invalid(field, v, m));
export const validateDNS1123Subdomain = (v: string, field: string): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(field, v, m));
export const validateQualifiedName = (v: string, field: string): FieldError[] => isQualifiedName(v).map((m) => invalid(field, v, m));

/**
 * path.ValidatePathSegmentName: the only name rule of types whose strategy validates no
 * metadata (kube's generic check): not `.` or `..`, no `/` or `%`.
 */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  if (!prefix) for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};
