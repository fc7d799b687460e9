// Label and field selectors with kube-apiserver 1.33 semantics and error texts.
//
// Reference behaviour (facts only, re-implemented here):
//   - label selectors: k8s.io/apimachinery/pkg/labels/selector.go (lexer, parser, Requirement)
//     plus pkg/util/validation (IsQualifiedName / IsValidLabelValue / IsDNS1123Subdomain texts),
//     pkg/util/validation/field (Error / Path rendering) and pkg/util/errors (aggregate rendering);
//   - field selectors: k8s.io/apimachinery/pkg/fields/selector.go (splitTerms, splitTerm,
//     UnescapeValue, EscapeValue);
//   - unsupported field labels: runtime.DefaultMetaV1FieldSelectorConversion and the per-kind
//     AddFieldLabelConversionFunc registrations (pkg/apis/core/v1, batch/v1, events/v1,
//     certificates/v1, resource/*) and the CRD crConverter.ConvertFieldLabel.
//
// ---------------------------------------------------------------------------------------------
// HOW THE LIST/WATCH HANDLER MUST ANSWER (apiserver/pkg/endpoints/handlers/get.go ListResource)
// ---------------------------------------------------------------------------------------------
//   1. `labelSelector` / `fieldSelector` query values are decoded like Go's url.ParseQuery
//      ('+' is a space, %XX decoded); when a parameter is repeated only the FIRST value is used.
//   2. Both are parsed while decoding ListOptions; any parse error becomes
//      `errors.NewBadRequest(err.Error())`, i.e. the parse error text is the whole message.
//      => catch SelectorParseError from parseLabelSelector / parseFieldSelector.
//   3. Then the field selector is passed through the kind's field-label conversion; an unknown
//      label is again `errors.NewBadRequest(err.Error())`.
//      => catch SelectorParseError from validateFieldSelector.
//   4. The HTTP response for all of the above is status 400 with this body (no `details`):
//
//        {
//          "kind": "Status",
//          "apiVersion": "v1",
//          "metadata": {},
//          "status": "Failure",
//          "message": "<SelectorParseError.message, verbatim>",
//          "reason": "BadRequest",
//          "code": 400
//        }
//
//      (exactly what `badRequest(err.message)` in ./status-error.ts builds).
//   5. Related texts the same handler uses (also 400 BadRequest), for a watch/list on a single
//      name: if a field selector is given and `exactMatch('metadata.name')` is missing or differs
//      from the name in the URL: "fieldSelector metadata.name doesn't match requested name".
//
// Examples of messages clients see (kubectl prefixes its own "Unable to find ..." text):
//   labelSelector=app:web     -> unable to parse requirement: <nil>: Invalid value: "app:web": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
//   labelSelector=a=b c       -> found 'c', expected: ',' or 'end of string'
//   labelSelector=x y         -> unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt
//   labelSelector=x>a         -> unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer
//   fieldSelector=foo         -> invalid selector: 'foo'; can't understand 'foo'
//   fieldSelector=a=b=c       -> invalid field selector: unescaped character in value: 61
//   apps/v1 statefulsets, fieldSelector=spec.foo=bar
//                             -> "spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"
//   v1 pods, fieldSelector=spec.foo=bar -> field label not supported: spec.foo

import { aggregate, goCompare, goQuote, parseInt64 } from './go-format.js';
import { isQualifiedName, isValidLabelValue } from './validation/names.js';

/** Thrown for an invalid selector; `message` is exactly the 400 message kube-apiserver sends. */
export class SelectorParseError extends Error {
  readonly code = 400;
  readonly reason = 'BadRequest';
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}

/** field.Invalid(path, value, detail).Error() */
const fieldInvalid = (path: string, value: string, detail: string): string =>
  `${path}: Invalid value: ${goQuote(value)}: ${detail}`;

// ---------------------------------------------------------------------------------------------
// Label selectors
// ---------------------------------------------------------------------------------------------

/** selection.Operator strings as kube spells them. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and de-duplicated for in/notin; one value for =, ==, !=, gt, lt; empty for exists/!. */
  readonly values: readonly string[];
}

function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(labels![r.key]!);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(labels![r.key]!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const have = parseInt64(labels![r.key]!);
      const want = parseInt64(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

function requirementString(r: LabelRequirement): string {
  let s = r.operator === '!' ? '!' + r.key : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return s;
    case 'in':
    case 'notin':
      s += ` ${r.operator} (`;
      break;
    case 'gt':
      s += '>';
      break;
    case 'lt':
      s += '<';
      break;
    default:
      s += r.operator;
  }
  s += r.values.length === 1 ? r.values[0]! : [...r.values].sort(goCompare).join(',');
  if (r.operator === 'in' || r.operator === 'notin') s += ')';
  return s;
}

export class LabelSelector {
  /** Requirements sorted by key (as kube's parser leaves them); all must match (AND). */
  readonly requirements: readonly LabelRequirement[];

  constructor(requirements: readonly LabelRequirement[]) {
    this.requirements = requirements;
  }

  /** True when the selector does not restrict anything (matches every object). */
  get empty(): boolean {
    return this.requirements.length === 0;
  }

  matches(labels: Record<string, string> | undefined): boolean {
    for (const r of this.requirements) if (!requirementMatches(r, labels)) return false;
    return true;
  }

  /** labels.Selector.RequiresExactMatch: the single value the label must have, if any. */
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
        return r.values[0];
      }
      return undefined;
    }
    return undefined;
  }

  /** Canonical form, as kube's Selector.String() prints it. */
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

const EVERYTHING = new LabelSelector([]);

// --- lexer -----------------------------------------------------------------------------------

type Tok =
  | 'error'
  | 'eos'
  | ')'
  | ','
  | '!'
  | '=='
  | '='
  | '>'
  | 'id'
  | 'in'
  | '<'
  | '!='
  | 'notin'
  | '(';

const LITERAL_TOKENS: ReadonlyMap<string, Tok> = new Map<string, Tok>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

interface Item {
  tok: Tok;
  lit: string;
}

const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean =>
  c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';
/** The lexer's "no more input" value; a NUL in the input reads the same, as in kube. */
const END = '\0';

function tokenize(input: string): Item[] {
  let pos = 0;
  const read = (): string => (pos < input.length ? input[pos++]! : END);
  const unread = (): void => {
    pos--;
  };

  const scanIdOrKeyword = (): Item => {
    let buf = '';
    for (;;) {
      const c = read();
      if (c === END) break;
      if (isSpecial(c) || isWhitespace(c)) {
        unread();
        break;
      }
      buf += c;
    }
    const kw = LITERAL_TOKENS.get(buf);
    return kw ? { tok: kw, lit: buf } : { tok: 'id', lit: buf };
  };

  const scanSpecial = (): Item => {
    let buf = '';
    let last: Item | undefined;
    for (;;) {
      const c = read();
      if (c === END) break;
      if (!isSpecial(c)) {
        unread();
        break;
      }
      buf += c;
      const t = LITERAL_TOKENS.get(buf);
      if (t) {
        last = { tok: t, lit: buf };
      } else if (last) {
        unread();
        break;
      }
    }
    return last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` };
  };

  const items: Item[] = [];
  for (;;) {
    let c = read();
    while (isWhitespace(c)) c = read();
    let item: Item;
    if (c === END) {
      item = { tok: 'eos', lit: '' };
    } else if (isSpecial(c)) {
      unread();
      item = scanSpecial();
    } else {
      unread();
      item = scanIdOrKeyword();
    }
    items.push(item);
    if (item.tok === 'eos') return items;
  }
}

// --- parser ----------------------------------------------------------------------------------

/** Internal: a failure inside one requirement (gets the "unable to parse requirement: " prefix). */
class RequirementError {
  constructor(readonly message: string) {}
}

class LabelParser {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  /** In the "values" context the keywords in/notin are plain identifiers. */
  private static asValue(it: Item): Item {
    return it.tok === 'in' || it.tok === 'notin' ? { tok: 'id', lit: it.lit } : it;
  }
  private peek(values: boolean): Item {
    const it = this.items[this.pos]!;
    return values ? LabelParser.asValue(it) : it;
  }
  private next(values: boolean): Item {
    const it = this.items[this.pos++]!;
    return values ? LabelParser.asValue(it) : it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek(true);
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') {
        throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
      try {
        reqs.push(this.parseRequirement());
      } catch (e) {
        if (e instanceof RequirementError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
        throw e;
      }
      const after = this.next(true);
      if (after.tok === 'eos') return reqs;
      if (after.tok !== ',') throw new SelectorParseError(`found '${after.lit}', expected: ',' or 'end of string'`);
      const follow = this.peek(true);
      if (follow.tok !== 'id' && follow.tok !== '!') {
        throw new SelectorParseError(`found '${follow.lit}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    let op: LabelOperator | undefined;
    let it = this.next(true);
    if (it.tok === '!') {
      op = '!';
      it = this.next(true);
    }
    if (it.tok !== 'id') throw new RequirementError(`found '${it.lit}', expected: identifier`);
    const key = it.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length > 0) throw new RequirementError(fieldInvalid('<nil>', key, keyErrs.join('; ')));
    const la = this.peek(true).tok;
    if (op === undefined && (la === 'eos' || la === ',')) op = 'exists';
    if (op === 'exists' || op === '!') return newRequirement(key, op, []);

    const opItem = this.next(false);
    switch (opItem.tok) {
      case 'in':
      case 'notin':
        return newRequirement(key, opItem.tok, this.parseValues());
      case '=':
      case '==':
      case '!=':
        return newRequirement(key, opItem.tok, this.parseExactValue());
      case '>':
        return newRequirement(key, 'gt', this.parseExactValue());
      case '<':
        return newRequirement(key, 'lt', this.parseExactValue());
      default:
        throw new RequirementError(`found '${opItem.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private parseValues(): string[] {
    const open = this.next(true);
    if (open.tok !== '(') throw new RequirementError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.peek(true);
    if (tok === 'id' || tok === ',') {
      const set = this.parseIdentifiersList();
      // parseIdentifiersList only returns when the next token is ')'.
      this.next(true);
      return set;
    }
    if (tok === ')') {
      this.next(true);
      return [''];
    }
    throw new RequirementError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  // 1.33 behaviour: after ",," the second comma is consumed, so "(a,,)" is an error there
  // (changed only in later releases behind a feature gate).
  private parseIdentifiersList(): string[] {
    const set = new Set<string>();
    for (;;) {
      const it = this.next(true);
      if (it.tok === 'id') {
        set.add(it.lit);
        const la = this.peek(true);
        if (la.tok === ',') continue;
        if (la.tok === ')') return [...set];
        throw new RequirementError(`found '${la.lit}', expected: ',' or ')'`);
      } else if (it.tok === ',') {
        if (set.size === 0) set.add('');
        const la = this.peek(true);
        if (la.tok === ')') {
          set.add('');
          return [...set];
        }
        if (la.tok === ',') {
          this.next(true);
          set.add('');
        }
      } else {
        throw new RequirementError(`found '${it.lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const la = this.peek(true);
    if (la.tok === 'eos' || la.tok === ',') return [''];
    const it = this.next(true);
    if (it.tok === 'id') return [it.lit];
    throw new RequirementError(`found '${it.lit}', expected: identifier`);
  }
}

/** labels.NewRequirement as reached from the parser (key already validated). */
function newRequirement(key: string, op: LabelOperator, rawValues: string[]): LabelRequirement {
  // sets.String.List(): de-duplicated and sorted.
  const values = [...new Set(rawValues)].sort(goCompare);
  const errs: string[] = [];
  if (op === 'gt' || op === 'lt') {
    values.forEach((v, i) => {
      if (parseInt64(v) === undefined) {
        errs.push(fieldInvalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    });
  }
  values.forEach((v, i) => {
    const ve = isValidLabelValue(v);
    if (ve.length > 0) errs.push(fieldInvalid(`values[${i}][${key}]`, v, ve.join('; ')));
  });
  if (errs.length > 0) throw new RequirementError(aggregate(errs));
  return { key, operator: op, values };
}

/**
 * Parses a `labelSelector` query value (labels.Parse). Throws SelectorParseError carrying the
 * exact 400 message. The empty string (or only whitespace) selects everything.
 */
export function parseLabelSelector(s: string): LabelSelector {
  const reqs = new LabelParser(tokenize(s)).parse();
  if (reqs.length === 0) return EVERYTHING;
  reqs.sort((a, b) => goCompare(a.key, b.key));
  return new LabelSelector(reqs);
}

// ---------------------------------------------------------------------------------------------
// Field selectors
// ---------------------------------------------------------------------------------------------

export interface FieldRequirement {
  readonly field: string;
  /** `==` is folded into `=`, as in kube. */
  readonly operator: '=' | '!=';
  /** Unescaped value. */
  readonly value: string;
}

export class FieldSelector {
  /** Terms in kube's order (sorted by their raw text); all must match (AND). */
  readonly requirements: readonly FieldRequirement[];

  constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = requirements;
  }

  get empty(): boolean {
    return this.requirements.length === 0;
  }

  /** A missing field reads as "" (kube's fields.Set.Get). */
  matches(fields: Record<string, string>): boolean {
    for (const r of this.requirements) {
      const v = Object.hasOwn(fields, r.field) ? fields[r.field]! : '';
      if (r.operator === '=' ? v !== r.value : v === r.value) return false;
    }
    return true;
  }

  /** RequiresExactMatch: the value of the first `field=value` term for `field`, if any. */
  exactMatch(field: string): string | undefined {
    for (const r of this.requirements) if (r.operator === '=' && r.field === field) return r.value;
    return undefined;
  }

  /** kube's Selector.String(): values are printed unescaped. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${r.value}`).join(',');
  }
}

/** fields.EscapeValue: escapes `\`, `,` and `=` so a value survives parseFieldSelector. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

function splitTerms(sel: string): string[] {
  if (sel.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  let i = 0;
  for (const c of sel) {
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(sel.slice(start, i));
      start = i + 1;
    }
    i += c.length;
  }
  terms.push(sel.slice(start));
  return terms;
}

/** First occurrence of `!=`, `==` or `=` (checked in that order at each position). */
function splitTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. as its number.
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Parses a `fieldSelector` query value (fields.ParseSelector). Throws SelectorParseError. */
export function parseFieldSelector(s: string): FieldSelector {
  const parts = splitTerms(s).sort(goCompare);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new SelectorParseError(`invalid selector: '${s}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    // A term with neither field nor value (`=`, `!=`) selects everything: kube's Transform drops it.
    if (t.lhs === '' && value === '') continue;
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value });
  }
  return new FieldSelector(reqs);
}

// --- field label conversion ------------------------------------------------------------------

export interface KindForMessage {
  group: string;
  version: string;
  kind: string;
}

export interface FieldLabelOptions {
  /** Custom resources answer like apiextensions' crConverter: "field label not supported: <label>". */
  customResource?: boolean;
  /**
   * Accepted labels that kube rewrites before matching (e.g. pods: {'spec.host': 'spec.nodeName'};
   * events.k8s.io/v1: {'regarding.name': 'involvedObject.name', ...}). Keys are accepted even if
   * absent from `supported`.
   */
  aliases?: Readonly<Record<string, string>>;
}

// Built-in kinds (1.33) whose scheme registers its own field-label conversion func, and the text
// that func answers for an unknown label. Every other built-in kind falls back to
// runtime.DefaultMetaV1FieldSelectorConversion (only metadata.name / metadata.namespace).
const NOT_SUPPORTED = (label: string): string => `field label not supported: ${label}`;
const CUSTOM_FIELD_LABEL_MESSAGES: ReadonlyMap<string, (label: string) => string> = new Map([
  ['/v1/Pod', NOT_SUPPORTED],
  ['/v1/Node', NOT_SUPPORTED],
  ['/v1/ReplicationController', NOT_SUPPORTED],
  ['/v1/Event', NOT_SUPPORTED],
  ['/v1/Namespace', NOT_SUPPORTED],
  ['/v1/Secret', NOT_SUPPORTED],
  ['/v1/Service', NOT_SUPPORTED],
  ['events.k8s.io/v1/Event', NOT_SUPPORTED],
  ['certificates.k8s.io/v1/CertificateSigningRequest', NOT_SUPPORTED],
  ['batch/v1/Job', (label: string) => `field label ${goQuote(label)} not supported for batchv1.Job`],
  ...['v1alpha3', 'v1beta1', 'v1beta2'].map(
    (v) =>
      [
        `resource.k8s.io/${v}/ResourceSlice`,
        (label: string) => `field label not supported for resource.k8s.io/${v}, Kind=ResourceSlice: ${label}`,
      ] as const,
  ),
]);

/** The exact 400 message kube-apiserver sends for an unsupported field label of `kind`. */
export function unsupportedFieldLabelMessage(label: string, kind: KindForMessage, opts: FieldLabelOptions = {}): string {
  if (opts.customResource) return NOT_SUPPORTED(label);
  const custom = CUSTOM_FIELD_LABEL_MESSAGES.get(`${kind.group}/${kind.version}/${kind.kind}`);
  if (custom) return custom(label);
  return `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/**
 * Applies the kind's field-label conversion (ListResource's FieldSelector.Transform): every term's
 * field must be in `supported` (or be an alias key); the first offending term (in the selector's
 * sorted order) raises SelectorParseError with kube's message for that kind. Returns the selector
 * with aliases rewritten. For kinds without a registered conversion in kube, `supported` should be
 * ['metadata.name', 'metadata.namespace']; for cluster-scoped custom resources ['metadata.name'].
 */
export function validateFieldSelector(
  sel: FieldSelector,
  supported: readonly string[],
  kindForMessage: KindForMessage,
  opts: FieldLabelOptions = {},
): FieldSelector {
  const aliases = opts.aliases ?? {};
  let changed = false;
  const out = sel.requirements.map((r) => {
    if (Object.hasOwn(aliases, r.field)) {
      const field = aliases[r.field]!;
      if (field === r.field) return r;
      changed = true;
      return { ...r, field };
    }
    if (!supported.includes(r.field)) {
      throw new SelectorParseError(unsupportedFieldLabelMessage(r.field, kindForMessage, opts));
    }
    return r;
  });
  return changed ? new FieldSelector(out) : sel;
}
