// The syntax errors of goyaml.v2 (sigs.k8s.io/yaml/goyaml.v2, the YAML reader kube-apiserver
// converts request bodies with), worded and placed as it words and places them:
// `yaml: line 3: mapping values are not allowed in this context`, `yaml: line 2: did not find
// expected key`, `yaml: found character that cannot start any token`.
//
// The `yaml` package reads the value (yaml-dups.ts); it accepts and refuses nearly the same
// texts, but its errors have other words and other places. goyaml.v2's words depend on the
// state of its scanner and parser (libyaml's, ported to Go) when it gives up: which token it
// was scanning, which simple key was still pending, how far ahead it had looked. So this is a
// scanner and a parser of the same shape, written from its behaviour, that produce no values,
// only the first error, with the marks that error carries. goyaml.v2's own rule turns the marks
// into the line it prints (decode.go's fail): the problem mark's 0-based line, plus one for a
// scanner error only, else the context mark's line; no `line N:` when that is 0.
//
// Unmarshal reads the first document only, and the scanner looks no further ahead than the
// parser needs, so what follows the first document is not checked, as in kube. Beyond syntax,
// the one error of reading the node tree is here too: an alias before its anchor
// (`unknown anchor 'x' referenced`); an alias inside its own anchor is found for the caller.

interface Mark {
  index: number;
  line: number;
  column: number;
}

const enum T {
  StreamStart,
  StreamEnd,
  VersionDirective,
  TagDirective,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowSequenceEnd,
  FlowMappingStart,
  FlowMappingEnd,
  BlockEntry,
  FlowEntry,
  Key,
  Value,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

interface Token {
  type: T;
  start: Mark;
  end: Mark;
  /** Anchor or alias name; tag handle; %TAG handle. */
  value?: string;
  /** %YAML version. */
  major?: number;
  minor?: number;
}

interface SimpleKey {
  possible: boolean;
  required: boolean;
  tokenNumber: number;
  mark: Mark;
}

/** goyaml.v2 gave up: the message as its fail() prints it (without `yaml: `). */
class Fail {
  constructor(readonly message: string) {}
}

function failAt(scanner: boolean, problem: string, problemMark: Mark | undefined, contextMark: Mark | undefined): Fail {
  let line = 0;
  if (problemMark && problemMark.line !== 0) line = problemMark.line + (scanner ? 1 : 0);
  else if (contextMark && contextMark.line !== 0) line = contextMark.line;
  return new Fail(line !== 0 ? `line ${line}: ${problem}` : problem);
}

const MAX_FLOW_LEVEL = 10_000;
const MAX_INDENTS = 10_000;

const SP = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

const isBlank = (c: number): boolean => c === SP || c === TAB;
const isBreak = (c: number): boolean => c === CR || c === LF || c === 0x85 || c === 0x2028 || c === 0x2029;
const isAlpha = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const hexValue = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);
const ch = (s: string): number => s.charCodeAt(0);

/** Characters of a tag URI besides alphanumerics (goyaml.v2 keeps `,[]` even in flow context). */
const URI_CHARS = new Set(Array.from(";/?:@&=+$,.!~*'()[]%", ch));
/** What may follow an anchor or alias name. */
const AFTER_ANCHOR = new Set(Array.from('?:,]}%@`', ch));
/** Characters that cannot start a plain scalar. */
const INDICATORS = new Set(Array.from('-?:,[]{}#&*!|>\'"%@`', ch));
/** Characters that end a plain scalar in flow context. */
const FLOW_STOPS = new Set(Array.from(',?[]{}', ch));
const ESCAPES = new Set(Array.from('0abt\tnvfre "\'\\N_LP', ch));

class Scanner {
  private readonly cp: Uint32Array;
  private readonly n: number;
  private pos = 0;
  mark: Mark = { index: 0, line: 0, column: 0 };
  private tokens: Token[] = [];
  private head = 0;
  private parsed = 0;
  private available = false;
  private streamStartProduced = false;
  private indent = -1;
  private readonly indents: number[] = [];
  private simpleKeyAllowed = false;
  private readonly simpleKeys: SimpleKey[] = [];
  private readonly keysByToken = new Map<number, number>();
  private flowLevel = 0;

  /** Characters the reader decodes before refusing a byte (Infinity: it refuses none). */
  private readonly limit: number;
  private readonly limitError: string;

  constructor(text: string, fault?: { error: string; limit: number }) {
    this.limit = fault?.limit ?? Infinity;
    this.limitError = fault?.error ?? '';
    // Code points: goyaml.v2's marks count characters, not bytes. A leading byte order mark is
    // the reader's, before any mark.
    const cp = new Uint32Array(text.length);
    let n = 0;
    for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
      const c = text.codePointAt(i)!;
      if (c > 0xffff) i++;
      cp[n++] = c;
    }
    this.cp = cp;
    this.n = n;
  }

  // --- reading

  private at(k = 0): number {
    const i = this.pos + k;
    if (i >= this.limit) throw new Fail(this.limitError);
    return i < this.n ? this.cp[i] : 0;
  }
  private isZ(k = 0): boolean {
    if (this.pos + k >= this.limit) throw new Fail(this.limitError);
    return this.pos + k >= this.n;
  }
  private isBlankZ(k = 0): boolean {
    return this.isZ(k) || isBlank(this.at(k)) || isBreak(this.at(k));
  }
  private isBreakZ(k = 0): boolean {
    return this.isZ(k) || isBreak(this.at(k));
  }
  private skip(): void {
    this.mark.index++;
    this.mark.column++;
    this.pos++;
  }
  /** A line break (CR LF counts two characters, one line). */
  private skipLine(): void {
    if (this.at() === CR && this.at(1) === LF) {
      this.mark.index += 2;
      this.mark.column = 0;
      this.mark.line++;
      this.pos += 2;
    } else if (isBreak(this.at())) {
      this.mark.index++;
      this.mark.column = 0;
      this.mark.line++;
      this.pos++;
    }
  }
  private here(): Mark {
    return { ...this.mark };
  }
  private error(context: string, contextMark: Mark, problem: string): Fail {
    void context;
    return failAt(true, problem, this.here(), contextMark);
  }

  // --- the token queue the parser reads

  peek(): Token {
    if (!this.available) this.fetchMoreTokens();
    return this.tokens[this.head];
  }
  skipToken(): void {
    this.available = false;
    this.parsed++;
    this.head++;
    if (this.head === this.tokens.length) {
      this.tokens = [];
      this.head = 0;
    }
  }
  private insert(pos: number, token: Token): void {
    if (pos < 0) this.tokens.push(token);
    else this.tokens.splice(this.head + pos, 0, token);
  }

  private fetchMoreTokens(): void {
    for (;;) {
      if (this.head !== this.tokens.length) {
        const idx = this.keysByToken.get(this.parsed);
        if (idx === undefined) break;
        if (!this.simpleKeyIsValid(this.simpleKeys[idx])) break;
      }
      this.fetchNextToken();
    }
    this.available = true;
  }

  private fetchNextToken(): void {
    if (!this.streamStartProduced) {
      this.indent = -1;
      this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: this.here() });
      this.simpleKeyAllowed = true;
      this.streamStartProduced = true;
      this.insert(-1, { type: T.StreamStart, start: this.here(), end: this.here() });
      return;
    }
    this.scanToNextToken();
    this.unrollIndent(this.mark.column);
    if (this.isZ()) return this.fetchStreamEnd();
    const c = this.at();
    const col0 = this.mark.column === 0;
    if (col0 && c === ch('%')) return this.fetchDirective();
    if (col0 && c === ch('-') && this.at(1) === c && this.at(2) === c && this.isBlankZ(3)) return this.fetchDocumentIndicator(T.DocumentStart);
    if (col0 && c === ch('.') && this.at(1) === c && this.at(2) === c && this.isBlankZ(3)) return this.fetchDocumentIndicator(T.DocumentEnd);
    if (c === ch('[')) return this.fetchFlowCollectionStart(T.FlowSequenceStart);
    if (c === ch('{')) return this.fetchFlowCollectionStart(T.FlowMappingStart);
    if (c === ch(']')) return this.fetchFlowCollectionEnd(T.FlowSequenceEnd);
    if (c === ch('}')) return this.fetchFlowCollectionEnd(T.FlowMappingEnd);
    if (c === ch(',')) return this.fetchFlowEntry();
    if (c === ch('-') && this.isBlankZ(1)) return this.fetchBlockEntry();
    if (c === ch('?') && (this.flowLevel > 0 || this.isBlankZ(1))) return this.fetchKey();
    if (c === ch(':') && (this.flowLevel > 0 || this.isBlankZ(1))) return this.fetchValue();
    if (c === ch('*')) return this.fetchAnchor(T.Alias);
    if (c === ch('&')) return this.fetchAnchor(T.Anchor);
    if (c === ch('!')) return this.fetchTag();
    if (c === ch('|') && this.flowLevel === 0) return this.fetchBlockScalar();
    if (c === ch('>') && this.flowLevel === 0) return this.fetchBlockScalar();
    if (c === ch("'") || c === ch('"')) return this.fetchFlowScalar(c === ch("'"));
    if (
      !(this.isBlankZ() || INDICATORS.has(c)) ||
      (c === ch('-') && !isBlank(this.at(1))) ||
      (this.flowLevel === 0 && (c === ch('?') || c === ch(':')) && !this.isBlankZ(1))
    ) {
      return this.fetchPlainScalar();
    }
    throw this.error('while scanning for the next token', this.here(), 'found character that cannot start any token');
  }

  // --- simple keys, flow levels, indentation

  private simpleKeyIsValid(key: SimpleKey): boolean {
    if (!key.possible) return false;
    if (key.mark.line < this.mark.line || key.mark.index + 1024 < this.mark.index) {
      if (key.required) throw this.error('while scanning a simple key', key.mark, "could not find expected ':'");
      key.possible = false;
      return false;
    }
    return true;
  }

  private saveSimpleKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.mark.column;
    if (!this.simpleKeyAllowed) return;
    const key: SimpleKey = { possible: true, required, tokenNumber: this.parsed + (this.tokens.length - this.head), mark: this.here() };
    this.removeSimpleKey();
    this.simpleKeys[this.simpleKeys.length - 1] = key;
    this.keysByToken.set(key.tokenNumber, this.simpleKeys.length - 1);
  }

  private removeSimpleKey(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1];
    if (!key.possible) return;
    if (key.required) throw this.error('while scanning a simple key', key.mark, "could not find expected ':'");
    key.possible = false;
    this.keysByToken.delete(key.tokenNumber);
  }

  private increaseFlowLevel(): void {
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: this.parsed + (this.tokens.length - this.head), mark: this.here() });
    this.flowLevel++;
    if (this.flowLevel > MAX_FLOW_LEVEL) {
      throw this.error('while increasing flow level', this.simpleKeys[this.simpleKeys.length - 1].mark, `exceeded max depth of ${MAX_FLOW_LEVEL}`);
    }
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel === 0) return;
    this.flowLevel--;
    const last = this.simpleKeys.pop()!;
    this.keysByToken.delete(last.tokenNumber);
  }

  private rollIndent(column: number, number: number, type: T, mark: Mark): void {
    if (this.flowLevel > 0 || this.indent >= column) return;
    this.indents.push(this.indent);
    this.indent = column;
    if (this.indents.length > MAX_INDENTS) {
      throw this.error('while increasing indent level', this.simpleKeys[this.simpleKeys.length - 1].mark, `exceeded max depth of ${MAX_INDENTS}`);
    }
    this.insert(number > -1 ? number - this.parsed : -1, { type, start: mark, end: mark });
  }

  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      this.insert(-1, { type: T.BlockEnd, start: this.here(), end: this.here() });
      this.indent = this.indents.pop()!;
    }
  }

  // --- fetching tokens

  private fetchStreamEnd(): void {
    if (this.mark.column !== 0) {
      this.mark.column = 0;
      this.mark.line++;
    }
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, { type: T.StreamEnd, start: this.here(), end: this.here() });
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanDirective());
  }

  private fetchDocumentIndicator(type: T): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.here();
    this.skip();
    this.skip();
    this.skip();
    this.insert(-1, { type, start, end: this.here() });
  }

  private fetchFlowCollectionStart(type: T): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    this.fetchSingle(type);
  }

  private fetchFlowCollectionEnd(type: T): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.fetchSingle(type);
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.fetchSingle(T.FlowEntry);
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) throw this.error('', this.here(), 'block sequence entries are not allowed in this context');
      this.rollIndent(this.mark.column, -1, T.BlockSequenceStart, this.here());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.fetchSingle(T.BlockEntry);
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) throw this.error('', this.here(), 'mapping keys are not allowed in this context');
      this.rollIndent(this.mark.column, -1, T.BlockMappingStart, this.here());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    this.fetchSingle(T.Key);
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1];
    if (this.simpleKeyIsValid(key)) {
      this.insert(key.tokenNumber - this.parsed, { type: T.Key, start: key.mark, end: key.mark });
      this.rollIndent(key.mark.column, key.tokenNumber, T.BlockMappingStart, key.mark);
      key.possible = false;
      this.keysByToken.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) throw this.error('', this.here(), 'mapping values are not allowed in this context');
        this.rollIndent(this.mark.column, -1, T.BlockMappingStart, this.here());
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.fetchSingle(T.Value);
  }

  /** A one-character token. */
  private fetchSingle(type: T): void {
    const start = this.here();
    this.skip();
    this.insert(-1, { type, start, end: this.here() });
  }

  private fetchAnchor(type: T): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanAnchor(type));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanTag());
  }

  private fetchBlockScalar(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.insert(-1, this.scanBlockScalar());
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanFlowScalar(single));
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanPlainScalar());
  }

  // --- scanning

  private scanToNextToken(): void {
    for (;;) {
      if (this.mark.column === 0 && this.at() === 0xfeff) this.skip();
      while (this.at() === SP || ((this.flowLevel > 0 || !this.simpleKeyAllowed) && this.at() === TAB)) this.skip();
      if (this.at() === ch('#')) while (!this.isBreakZ()) this.skip();
      if (!this.isZ() && isBreak(this.at())) {
        this.skipLine();
        if (this.flowLevel === 0) this.simpleKeyAllowed = true;
      } else break;
    }
  }

  private skipBlanksAndComment(): void {
    while (isBlank(this.at())) this.skip();
    if (this.at() === ch('#')) while (!this.isBreakZ()) this.skip();
  }

  private scanDirective(): Token {
    const start = this.here();
    this.skip();
    let name = '';
    while (isAlpha(this.at())) {
      name += String.fromCodePoint(this.at());
      this.skip();
    }
    if (name === '') throw this.error('while scanning a directive', start, 'could not find expected directive name');
    if (!this.isBlankZ()) throw this.error('while scanning a directive', start, 'found unexpected non-alphabetical character');
    let token: Token;
    if (name === 'YAML') {
      while (isBlank(this.at())) this.skip();
      const major = this.scanVersionNumber(start);
      if (this.at() !== ch('.')) throw this.error('while scanning a %YAML directive', start, "did not find expected digit or '.' character");
      this.skip();
      const minor = this.scanVersionNumber(start);
      token = { type: T.VersionDirective, start, end: this.here(), major, minor };
    } else if (name === 'TAG') {
      while (isBlank(this.at())) this.skip();
      const handle = this.scanTagHandle(true, start);
      if (!isBlank(this.at())) throw this.error('while scanning a %TAG directive', start, 'did not find expected whitespace');
      while (isBlank(this.at())) this.skip();
      this.scanTagUri(true, '', start);
      if (!this.isBlankZ()) throw this.error('while scanning a %TAG directive', start, 'did not find expected whitespace or line break');
      token = { type: T.TagDirective, start, end: this.here(), value: handle };
    } else {
      throw this.error('while scanning a directive', start, 'found unknown directive name');
    }
    this.skipBlanksAndComment();
    if (!this.isBreakZ()) throw this.error('while scanning a directive', start, 'did not find expected comment or line break');
    if (!this.isZ()) this.skipLine();
    return token;
  }

  private scanVersionNumber(start: Mark): number {
    let value = 0;
    let length = 0;
    while (isDigit(this.at())) {
      if (++length > 2) throw this.error('while scanning a %YAML directive', start, 'found extremely long version number');
      value = value * 10 + (this.at() - 0x30);
      this.skip();
    }
    if (length === 0) throw this.error('while scanning a %YAML directive', start, 'did not find expected version number');
    return value;
  }

  private scanAnchor(type: T): Token {
    const start = this.here();
    this.skip();
    let name = '';
    while (isAlpha(this.at())) {
      name += String.fromCodePoint(this.at());
      this.skip();
    }
    const end = this.here();
    if (name === '' || !(this.isBlankZ() || AFTER_ANCHOR.has(this.at()))) {
      throw this.error(type === T.Anchor ? 'while scanning an anchor' : 'while scanning an alias', start, 'did not find expected alphabetic or numeric character');
    }
    return { type, start, end, value: name };
  }

  private scanTag(): Token {
    const start = this.here();
    let handle: string;
    if (this.at(1) === ch('<')) {
      this.skip();
      this.skip();
      this.scanTagUri(false, '', start);
      if (this.at() !== ch('>')) throw this.error('while scanning a tag', start, "did not find the expected '>'");
      this.skip();
      handle = '';
    } else {
      handle = this.scanTagHandle(false, start);
      if (handle.length > 1 && handle.endsWith('!')) this.scanTagUri(false, '', start);
      else {
        const suffix = this.scanTagUri(false, handle, start);
        // `!x` is the handle `!` with the suffix `x`; a lone `!` has no handle.
        handle = suffix === '' ? '' : '!';
      }
    }
    if (!this.isBlankZ()) throw this.error('while scanning a tag', start, 'did not find expected whitespace or line break');
    return { type: T.Tag, start, end: this.here(), value: handle };
  }

  private tagError(directive: boolean, start: Mark, problem: string): Fail {
    return this.error(directive ? 'while parsing a %TAG directive' : 'while parsing a tag', start, problem);
  }

  private scanTagHandle(directive: boolean, start: Mark): string {
    if (this.at() !== ch('!')) throw this.tagError(directive, start, "did not find expected '!'");
    let s = '!';
    this.skip();
    while (isAlpha(this.at())) {
      s += String.fromCodePoint(this.at());
      this.skip();
    }
    if (this.at() === ch('!')) {
      s += '!';
      this.skip();
    } else if (directive && s !== '!') throw this.tagError(directive, start, "did not find expected '!'");
    return s;
  }

  /** The URI after a handle (`head`: a handle read as the start of a `!suffix`); returns the suffix text. */
  private scanTagUri(directive: boolean, head: string, start: Mark): string {
    let s = head.length > 1 ? head.slice(1) : '';
    let hasTag = head.length > 0;
    while (isAlpha(this.at()) || URI_CHARS.has(this.at())) {
      if (this.at() === ch('%')) {
        this.scanUriEscapes(directive, start);
        s += '%';
      } else {
        s += String.fromCodePoint(this.at());
        this.skip();
      }
      hasTag = true;
    }
    if (!hasTag) throw this.tagError(directive, start, 'did not find expected tag URI');
    return s;
  }

  private scanUriEscapes(directive: boolean, start: Mark): void {
    let w = 1024;
    while (w > 0) {
      if (!(this.at() === ch('%') && isHex(this.at(1)) && isHex(this.at(2)))) throw this.tagError(directive, start, 'did not find URI escaped octet');
      const octet = (hexValue(this.at(1)) << 4) + hexValue(this.at(2));
      if (w === 1024) {
        w = (octet & 0x80) === 0 ? 1 : (octet & 0xe0) === 0xc0 ? 2 : (octet & 0xf0) === 0xe0 ? 3 : (octet & 0xf8) === 0xf0 ? 4 : 0;
        if (w === 0) throw this.tagError(directive, start, 'found an incorrect leading UTF-8 octet');
      } else if ((octet & 0xc0) !== 0x80) throw this.tagError(directive, start, 'found an incorrect trailing UTF-8 octet');
      this.skip();
      this.skip();
      this.skip();
      w--;
    }
  }

  private scanBlockScalar(): Token {
    const start = this.here();
    this.skip();
    let increment = 0;
    const chomp = (): void => {
      if (this.at() === ch('+') || this.at() === ch('-')) this.skip();
    };
    const digit = (): void => {
      if (!isDigit(this.at())) return;
      if (this.at() === ch('0')) throw this.error('while scanning a block scalar', start, 'found an indentation indicator equal to 0');
      increment = this.at() - 0x30;
      this.skip();
    };
    if (this.at() === ch('+') || this.at() === ch('-')) {
      chomp();
      digit();
    } else if (isDigit(this.at())) {
      digit();
      chomp();
    }
    this.skipBlanksAndComment();
    if (!this.isBreakZ()) throw this.error('while scanning a block scalar', start, 'did not find expected comment or line break');
    if (!this.isZ()) this.skipLine();
    const end = this.here();
    let indent = increment > 0 ? (this.indent >= 0 ? this.indent + increment : increment) : 0;
    indent = this.scanBlockScalarBreaks(indent, start);
    while (this.mark.column === indent && !this.isZ()) {
      while (!this.isBreakZ()) this.skip();
      if (!this.isZ()) this.skipLine();
      indent = this.scanBlockScalarBreaks(indent, start);
    }
    return { type: T.Scalar, start, end };
  }

  private scanBlockScalarBreaks(indent: number, start: Mark): number {
    let maxIndent = 0;
    for (;;) {
      while ((indent === 0 || this.mark.column < indent) && this.at() === SP) this.skip();
      if (this.mark.column > maxIndent) maxIndent = this.mark.column;
      if ((indent === 0 || this.mark.column < indent) && this.at() === TAB) {
        throw this.error('while scanning a block scalar', start, 'found a tab character where an indentation space is expected');
      }
      if (this.isZ() || !isBreak(this.at())) break;
      this.skipLine();
    }
    if (indent === 0) indent = Math.max(maxIndent, this.indent + 1, 1);
    return indent;
  }

  private scanFlowScalar(single: boolean): Token {
    const start = this.here();
    this.skip();
    const quote = single ? ch("'") : ch('"');
    for (;;) {
      const c0 = this.at();
      if (
        this.mark.column === 0 &&
        ((c0 === ch('-') && this.at(1) === c0 && this.at(2) === c0) || (c0 === ch('.') && this.at(1) === c0 && this.at(2) === c0)) &&
        this.isBlankZ(3)
      ) {
        throw this.error('while scanning a quoted scalar', start, 'found unexpected document indicator');
      }
      if (this.isZ()) throw this.error('while scanning a quoted scalar', start, 'found unexpected end of stream');
      let leadingBlanks = false;
      while (!this.isBlankZ()) {
        const c = this.at();
        if (single && c === quote && this.at(1) === quote) {
          this.skip();
          this.skip();
        } else if (c === quote) break;
        else if (!single && c === ch('\\') && !this.isZ(1) && isBreak(this.at(1))) {
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          break;
        } else if (!single && c === ch('\\')) {
          const e = this.at(1);
          const codeLength = e === ch('x') ? 2 : e === ch('u') ? 4 : e === ch('U') ? 8 : 0;
          if (codeLength === 0 && (this.isZ(1) || !ESCAPES.has(e))) throw this.error('while parsing a quoted scalar', start, 'found unknown escape character');
          this.skip();
          this.skip();
          if (codeLength > 0) {
            let value = 0;
            for (let k = 0; k < codeLength; k++) {
              if (!isHex(this.at(k))) throw this.error('while parsing a quoted scalar', start, 'did not find expected hexdecimal number');
              value = value * 16 + hexValue(this.at(k));
            }
            if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
              throw this.error('while parsing a quoted scalar', start, 'found invalid Unicode character escape code');
            }
            for (let k = 0; k < codeLength; k++) this.skip();
          }
        } else this.skip();
      }
      if (this.at() === quote) break;
      while (isBlank(this.at()) || (!this.isZ() && isBreak(this.at()))) {
        if (isBlank(this.at())) this.skip();
        else {
          this.skipLine();
          leadingBlanks = true;
        }
      }
      void leadingBlanks;
    }
    this.skip();
    return { type: T.Scalar, start, end: this.here() };
  }

  private scanPlainScalar(): Token {
    const start = this.here();
    let end = this.here();
    const indent = this.indent + 1;
    let leadingBlanks = false;
    for (;;) {
      const c0 = this.at();
      if (
        this.mark.column === 0 &&
        ((c0 === ch('-') && this.at(1) === c0 && this.at(2) === c0) || (c0 === ch('.') && this.at(1) === c0 && this.at(2) === c0)) &&
        this.isBlankZ(3)
      ) {
        break;
      }
      if (c0 === ch('#')) break;
      while (!this.isBlankZ()) {
        const c = this.at();
        if ((c === ch(':') && this.isBlankZ(1)) || (this.flowLevel > 0 && FLOW_STOPS.has(c))) break;
        leadingBlanks = false;
        this.skip();
        end = this.here();
      }
      if (!(isBlank(this.at()) || (!this.isZ() && isBreak(this.at())))) break;
      while (isBlank(this.at()) || (!this.isZ() && isBreak(this.at()))) {
        if (isBlank(this.at())) {
          if (leadingBlanks && this.mark.column < indent && this.at() === TAB) {
            throw this.error('while scanning a plain scalar', start, 'found a tab character that violates indentation');
          }
          this.skip();
        } else {
          this.skipLine();
          leadingBlanks = true;
        }
      }
      if (this.flowLevel === 0 && this.mark.column < indent) break;
    }
    if (leadingBlanks) this.simpleKeyAllowed = true;
    return { type: T.Scalar, start, end };
  }
}

// --- the parser (events), as far as errors go

const enum S {
  StreamStart,
  ImplicitDocumentStart,
  DocumentStart,
  DocumentContent,
  DocumentEnd,
  BlockNode,
  BlockNodeOrIndentlessSequence,
  FlowNode,
  BlockSequenceFirstEntry,
  BlockSequenceEntry,
  IndentlessSequenceEntry,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingValue,
  FlowSequenceFirstEntry,
  FlowSequenceEntry,
  FlowSequenceEntryMappingKey,
  FlowSequenceEntryMappingValue,
  FlowSequenceEntryMappingEnd,
  FlowMappingFirstKey,
  FlowMappingKey,
  FlowMappingValue,
  FlowMappingEmptyValue,
  End,
}

const enum E {
  StreamStart,
  StreamEnd,
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

interface YamlEvent {
  type: E;
  anchor?: string;
}

const parserError = (problem: string, problemMark: Mark, contextMark?: Mark): Fail => failAt(false, problem, problemMark, contextMark);

class Parser {
  private state = S.StreamStart;
  private readonly states: S[] = [];
  private readonly marks: Mark[] = [];
  private tagHandles: string[] = [];

  constructor(private readonly s: Scanner) {}

  private pop(): S {
    return this.states.pop()!;
  }

  next(): YamlEvent {
    const s = this.s;
    switch (this.state) {
      case S.StreamStart:
        s.peek();
        this.state = S.ImplicitDocumentStart;
        s.skipToken();
        return { type: E.StreamStart };
      case S.ImplicitDocumentStart:
        return this.documentStart(true);
      case S.DocumentStart:
        return this.documentStart(false);
      case S.DocumentContent: {
        const t = s.peek();
        if (t.type === T.VersionDirective || t.type === T.TagDirective || t.type === T.DocumentStart || t.type === T.DocumentEnd || t.type === T.StreamEnd) {
          this.state = this.pop();
          return { type: E.Scalar };
        }
        return this.node(true, false);
      }
      case S.DocumentEnd: {
        const t = s.peek();
        if (t.type === T.DocumentEnd) s.skipToken();
        this.tagHandles = [];
        this.state = S.DocumentStart;
        return { type: E.DocumentEnd };
      }
      case S.BlockNode:
        return this.node(true, false);
      case S.BlockNodeOrIndentlessSequence:
        return this.node(true, true);
      case S.FlowNode:
        return this.node(false, false);
      case S.BlockSequenceFirstEntry:
      case S.BlockSequenceEntry:
        return this.blockSequenceEntry(this.state === S.BlockSequenceFirstEntry);
      case S.IndentlessSequenceEntry:
        return this.indentlessSequenceEntry();
      case S.BlockMappingFirstKey:
      case S.BlockMappingKey:
        return this.blockMappingKey(this.state === S.BlockMappingFirstKey);
      case S.BlockMappingValue:
        return this.blockMappingValue();
      case S.FlowSequenceFirstEntry:
      case S.FlowSequenceEntry:
        return this.flowSequenceEntry(this.state === S.FlowSequenceFirstEntry);
      case S.FlowSequenceEntryMappingKey: {
        const t = s.peek();
        if (t.type !== T.Value && t.type !== T.FlowEntry && t.type !== T.FlowSequenceEnd) {
          this.states.push(S.FlowSequenceEntryMappingValue);
          return this.node(false, false);
        }
        s.skipToken();
        this.state = S.FlowSequenceEntryMappingValue;
        return { type: E.Scalar };
      }
      case S.FlowSequenceEntryMappingValue: {
        const t = s.peek();
        if (t.type === T.Value) {
          s.skipToken();
          const t2 = s.peek();
          if (t2.type !== T.FlowEntry && t2.type !== T.FlowSequenceEnd) {
            this.states.push(S.FlowSequenceEntryMappingEnd);
            return this.node(false, false);
          }
        }
        this.state = S.FlowSequenceEntryMappingEnd;
        return { type: E.Scalar };
      }
      case S.FlowSequenceEntryMappingEnd:
        s.peek();
        this.state = S.FlowSequenceEntry;
        return { type: E.MappingEnd };
      case S.FlowMappingFirstKey:
      case S.FlowMappingKey:
        return this.flowMappingKey(this.state === S.FlowMappingFirstKey);
      case S.FlowMappingValue:
      case S.FlowMappingEmptyValue: {
        const t = s.peek();
        if (this.state === S.FlowMappingEmptyValue) {
          this.state = S.FlowMappingKey;
          return { type: E.Scalar };
        }
        if (t.type === T.Value) {
          s.skipToken();
          const t2 = s.peek();
          if (t2.type !== T.FlowEntry && t2.type !== T.FlowMappingEnd) {
            this.states.push(S.FlowMappingKey);
            return this.node(false, false);
          }
        }
        this.state = S.FlowMappingKey;
        return { type: E.Scalar };
      }
      case S.End:
        return { type: E.StreamEnd };
    }
  }

  private documentStart(implicit: boolean): YamlEvent {
    const s = this.s;
    let t = s.peek();
    if (!implicit) {
      while (t.type === T.DocumentEnd) {
        s.skipToken();
        t = s.peek();
      }
    }
    if (implicit && t.type !== T.VersionDirective && t.type !== T.TagDirective && t.type !== T.DocumentStart && t.type !== T.StreamEnd) {
      this.processDirectives();
      this.states.push(S.DocumentEnd);
      this.state = S.BlockNode;
      return { type: E.DocumentStart };
    }
    if (t.type !== T.StreamEnd) {
      this.processDirectives();
      t = s.peek();
      if (t.type !== T.DocumentStart) throw parserError('did not find expected <document start>', t.start);
      this.states.push(S.DocumentEnd);
      this.state = S.DocumentContent;
      s.skipToken();
      return { type: E.DocumentStart };
    }
    this.state = S.End;
    s.skipToken();
    return { type: E.StreamEnd };
  }

  private processDirectives(): void {
    const s = this.s;
    let t = s.peek();
    let version = false;
    while (t.type === T.VersionDirective || t.type === T.TagDirective) {
      if (t.type === T.VersionDirective) {
        if (version) throw parserError('found duplicate %YAML directive', t.start);
        if (t.major !== 1 || t.minor !== 1) throw parserError('found incompatible YAML document', t.start);
        version = true;
      } else {
        if (this.tagHandles.includes(t.value!)) throw parserError('found duplicate %TAG directive', t.start);
        this.tagHandles.push(t.value!);
      }
      s.skipToken();
      t = s.peek();
    }
    for (const h of ['!', '!!']) if (!this.tagHandles.includes(h)) this.tagHandles.push(h);
  }

  private node(block: boolean, indentlessSequence: boolean): YamlEvent {
    const s = this.s;
    let t = s.peek();
    if (t.type === T.Alias) {
      this.state = this.pop();
      s.skipToken();
      return { type: E.Alias, anchor: t.value };
    }
    const start = t.start;
    let anchor: string | undefined;
    let tagHandle: string | undefined;
    let tagMark: Mark | undefined;
    if (t.type === T.Anchor) {
      anchor = t.value;
      s.skipToken();
      t = s.peek();
      if (t.type === T.Tag) {
        tagHandle = t.value;
        tagMark = t.start;
        s.skipToken();
        t = s.peek();
      }
    } else if (t.type === T.Tag) {
      tagHandle = t.value;
      tagMark = t.start;
      s.skipToken();
      t = s.peek();
      if (t.type === T.Anchor) {
        anchor = t.value;
        s.skipToken();
        t = s.peek();
      }
    }
    if (tagHandle !== undefined && tagHandle !== '' && !this.tagHandles.includes(tagHandle)) {
      throw parserError('found undefined tag handle', tagMark!, start);
    }
    if (indentlessSequence && t.type === T.BlockEntry) {
      this.state = S.IndentlessSequenceEntry;
      return { type: E.SequenceStart, anchor };
    }
    if (t.type === T.Scalar) {
      this.state = this.pop();
      s.skipToken();
      return { type: E.Scalar, anchor };
    }
    if (t.type === T.FlowSequenceStart) {
      this.state = S.FlowSequenceFirstEntry;
      return { type: E.SequenceStart, anchor };
    }
    if (t.type === T.FlowMappingStart) {
      this.state = S.FlowMappingFirstKey;
      return { type: E.MappingStart, anchor };
    }
    if (block && t.type === T.BlockSequenceStart) {
      this.state = S.BlockSequenceFirstEntry;
      return { type: E.SequenceStart, anchor };
    }
    if (block && t.type === T.BlockMappingStart) {
      this.state = S.BlockMappingFirstKey;
      return { type: E.MappingStart, anchor };
    }
    if (anchor !== undefined || tagHandle !== undefined) {
      this.state = this.pop();
      return { type: E.Scalar, anchor };
    }
    throw parserError('did not find expected node content', t.start, start);
  }

  private blockSequenceEntry(first: boolean): YamlEvent {
    const s = this.s;
    if (first) {
      this.marks.push(s.peek().start);
      s.skipToken();
    }
    let t = s.peek();
    if (t.type === T.BlockEntry) {
      s.skipToken();
      t = s.peek();
      if (t.type !== T.BlockEntry && t.type !== T.BlockEnd) {
        this.states.push(S.BlockSequenceEntry);
        return this.node(true, false);
      }
      this.state = S.BlockSequenceEntry;
      return { type: E.Scalar };
    }
    if (t.type === T.BlockEnd) {
      this.state = this.pop();
      this.marks.pop();
      s.skipToken();
      return { type: E.SequenceEnd };
    }
    throw parserError("did not find expected '-' indicator", t.start, this.marks.pop());
  }

  private indentlessSequenceEntry(): YamlEvent {
    const s = this.s;
    let t = s.peek();
    if (t.type === T.BlockEntry) {
      s.skipToken();
      t = s.peek();
      if (t.type !== T.BlockEntry && t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
        this.states.push(S.IndentlessSequenceEntry);
        return this.node(true, false);
      }
      this.state = S.IndentlessSequenceEntry;
      return { type: E.Scalar };
    }
    this.state = this.pop();
    return { type: E.SequenceEnd };
  }

  private blockMappingKey(first: boolean): YamlEvent {
    const s = this.s;
    if (first) {
      this.marks.push(s.peek().start);
      s.skipToken();
    }
    let t = s.peek();
    if (t.type === T.Key) {
      s.skipToken();
      t = s.peek();
      if (t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
        this.states.push(S.BlockMappingValue);
        return this.node(true, true);
      }
      this.state = S.BlockMappingValue;
      return { type: E.Scalar };
    }
    if (t.type === T.BlockEnd) {
      this.state = this.pop();
      this.marks.pop();
      s.skipToken();
      return { type: E.MappingEnd };
    }
    throw parserError('did not find expected key', t.start, this.marks.pop());
  }

  private blockMappingValue(): YamlEvent {
    const s = this.s;
    let t = s.peek();
    if (t.type === T.Value) {
      s.skipToken();
      t = s.peek();
      if (t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
        this.states.push(S.BlockMappingKey);
        return this.node(true, true);
      }
    }
    this.state = S.BlockMappingKey;
    return { type: E.Scalar };
  }

  private flowSequenceEntry(first: boolean): YamlEvent {
    const s = this.s;
    if (first) {
      this.marks.push(s.peek().start);
      s.skipToken();
    }
    let t = s.peek();
    if (t.type !== T.FlowSequenceEnd) {
      if (!first) {
        if (t.type !== T.FlowEntry) throw parserError("did not find expected ',' or ']'", t.start, this.marks.pop());
        s.skipToken();
        t = s.peek();
      }
      if (t.type === T.Key) {
        this.state = S.FlowSequenceEntryMappingKey;
        s.skipToken();
        return { type: E.MappingStart };
      }
      if (t.type !== T.FlowSequenceEnd) {
        this.states.push(S.FlowSequenceEntry);
        return this.node(false, false);
      }
    }
    this.state = this.pop();
    this.marks.pop();
    s.skipToken();
    return { type: E.SequenceEnd };
  }

  private flowMappingKey(first: boolean): YamlEvent {
    const s = this.s;
    if (first) {
      this.marks.push(s.peek().start);
      s.skipToken();
    }
    let t = s.peek();
    if (t.type !== T.FlowMappingEnd) {
      if (!first) {
        if (t.type !== T.FlowEntry) throw parserError("did not find expected ',' or '}'", t.start, this.marks.pop());
        s.skipToken();
        t = s.peek();
      }
      if (t.type === T.Key) {
        s.skipToken();
        t = s.peek();
        if (t.type !== T.Value && t.type !== T.FlowEntry && t.type !== T.FlowMappingEnd) {
          this.states.push(S.FlowMappingValue);
          return this.node(false, false);
        }
        this.state = S.FlowMappingValue;
        return { type: E.Scalar };
      }
      if (t.type !== T.FlowMappingEnd) {
        this.states.push(S.FlowMappingEmptyValue);
        return this.node(false, false);
      }
    }
    this.state = this.pop();
    this.marks.pop();
    s.skipToken();
    return { type: E.MappingEnd };
  }
}

/**
 * goyaml.v2's error for the first document of a YAML text (`yaml: line 3: ...`), or undefined
 * when it reads it. `fault`: the reader refuses a byte after `limit` characters (utf8.ts
 * yamlBodyText); the scanner meets that error when it reads that far, not before.
 */
export function goyamlSyntaxError(text: string, fault?: { error: string; limit: number }, found: { selfAlias?: string } = {}): string | undefined {
  const parser = new Parser(new Scanner(text, fault));
  try {
    parser.next(); // stream start
    const first = parser.next();
    if (first.type !== E.DocumentStart) return undefined;
    // decode.go's parse: the document's one node, event by event, then its end. An anchor
    // names the latest node given it.
    const anchors = new Map<string, number>();
    const open: number[] = [];
    let nodes = 0;
    let depth = 0;
    let selfAlias: string | undefined;
    do {
      const ev = parser.next();
      if (ev.type === E.Alias) {
        const target = anchors.get(ev.anchor!);
        if (target === undefined) return `yaml: unknown anchor '${ev.anchor}' referenced`;
        if (selfAlias === undefined && open.includes(target)) selfAlias = ev.anchor;
      } else if (ev.type === E.Scalar) {
        if (ev.anchor !== undefined) anchors.set(ev.anchor, ++nodes);
      } else if (ev.type === E.SequenceStart || ev.type === E.MappingStart) {
        const id = ++nodes;
        if (ev.anchor !== undefined) anchors.set(ev.anchor, id);
        open.push(id);
        depth++;
      } else if (ev.type === E.SequenceEnd || ev.type === E.MappingEnd) {
        open.pop();
        depth--;
      }
    } while (depth > 0);
    parser.next(); // document end
    // An alias inside the node it names, which the decoder refuses (decode.go's alias) in
    // document order with its other refusals: the caller's to report.
    found.selfAlias = selfAlias;
    return undefined;
  } catch (e) {
    if (e instanceof Fail) return `yaml: ${e.message}`;
    throw e;
  }
}
