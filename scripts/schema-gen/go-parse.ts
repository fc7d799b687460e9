// A small, purpose-built reader for the parts of gofmt'ed Go source that the schema
// generator needs: imports, `type` declarations (structs with their fields, struct
// tags and doc-comment markers; named basic/slice/map types; aliases) and `const`
// declarations with literal values. Function bodies and everything else are skipped.
//
// It is not a Go parser: it relies on the layout gofmt produces (one struct field per
// line, doc comments directly above the declaration they document), which holds for
// the k8s.io/api and k8s.io/apimachinery API packages.

export type GoType =
  | { t: 'ident'; pkg?: string; name: string }
  | { t: 'pointer'; elem: GoType }
  | { t: 'slice'; elem: GoType }
  | { t: 'array'; len: string; elem: GoType }
  | { t: 'map'; key: GoType; value: GoType }
  | { t: 'struct'; fields: GoField[] }
  | { t: 'interface' }
  | { t: 'func' }
  | { t: 'chan'; elem: GoType };

export interface GoField {
  /** Go field name; undefined for an embedded field. */
  name?: string;
  type: GoType;
  /** Raw struct tag (without backquotes), '' when none. */
  tag: string;
  /** Doc comment lines (text after `//`), top to bottom. */
  doc: string[];
  line: number;
}

export interface GoTypeDecl {
  name: string;
  /** `type A = B` */
  alias: boolean;
  type: GoType;
  doc: string[];
  file: string;
}

export interface GoConst {
  name: string;
  /** Declared type name (unqualified, same package) when explicit. */
  typeName?: string;
  /** The literal value when the expression is a single string/number/bool literal. */
  value?: string | number | boolean;
}

export interface GoFile {
  path: string;
  packageName: string;
  /** local name -> import path */
  imports: Map<string, string>;
  types: GoTypeDecl[];
  consts: GoConst[];
}

interface Token {
  k: 'ident' | 'string' | 'raw' | 'number' | 'char' | 'punct' | 'nl';
  v: string;
  line: number;
}

interface Comment {
  text: string;
  line: number;
  /** Nothing but whitespace before it on its line. */
  ownLine: boolean;
}

function tokenize(src: string): { tokens: Token[]; comments: Comment[] } {
  const tokens: Token[] = [];
  const comments: Comment[] = [];
  let i = 0;
  let line = 1;
  let lineHasCode = false;
  const n = src.length;
  const push = (k: Token['k'], v: string): void => {
    tokens.push({ k, v, line });
    lineHasCode = true;
  };
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      tokens.push({ k: 'nl', v: '\n', line });
      line++;
      lineHasCode = false;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      let j = src.indexOf('\n', i);
      if (j < 0) j = n;
      comments.push({ text: src.slice(i + 2, j), line, ownLine: !lineHasCode });
      i = j;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const j = src.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      for (let p = i; p < end; p++) if (src[p] === '\n') line++;
      i = end;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && src[j] !== '"') {
        if (src[j] === '\\') j++;
        j++;
      }
      push('string', src.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = src.indexOf('`', i + 1);
      const end = j < 0 ? n : j + 1;
      const v = src.slice(i, end);
      push('raw', v);
      for (const ch of v) if (ch === '\n') line++;
      i = end;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      while (j < n && src[j] !== "'") {
        if (src[j] === '\\') j++;
        j++;
      }
      push('char', src.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c) || c.charCodeAt(0) > 127) {
      let j = i + 1;
      while (j < n && (/[A-Za-z0-9_]/.test(src[j]!) || src.charCodeAt(j) > 127)) j++;
      push('ident', src.slice(i, j));
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(src[j]!)) j++;
      push('number', src.slice(i, j));
      i = j;
      continue;
    }
    // Multi-character operators are irrelevant here except `...`; single chars suffice.
    push('punct', c);
    i++;
  }
  return { tokens, comments };
}

/** Decodes a Go interpreted or raw string literal. */
export function goStringValue(lit: string): string {
  if (lit.startsWith('`')) return lit.slice(1, -1);
  try {
    return JSON.parse(lit) as string;
  } catch {
    return lit.slice(1, -1);
  }
}

class Parser {
  private pos = 0;
  constructor(
    private readonly toks: Token[],
    private readonly docAt: (line: number) => string[],
  ) {}

  private peek(off = 0): Token | undefined {
    return this.toks[this.pos + off];
  }
  private next(): Token {
    const t = this.toks[this.pos++];
    if (!t) throw new Error('unexpected end of file');
    return t;
  }
  private skipNl(): void {
    while (this.peek()?.k === 'nl' || (this.peek()?.k === 'punct' && this.peek()?.v === ';')) this.pos++;
  }
  private expect(v: string): void {
    const t = this.next();
    if (t.v !== v) throw new Error(`line ${t.line}: expected '${v}', got '${t.v}'`);
  }
  private isPunct(v: string, off = 0): boolean {
    const t = this.peek(off);
    return t !== undefined && t.k === 'punct' && t.v === v;
  }

  /** Skips to the end of the current statement: a newline at bracket depth 0. */
  private skipStatement(): void {
    let depth = 0;
    while (this.pos < this.toks.length) {
      const t = this.next();
      if (t.k === 'punct' && '([{'.includes(t.v)) depth++;
      else if (t.k === 'punct' && ')]}'.includes(t.v)) depth--;
      else if (t.k === 'nl' && depth <= 0) return;
    }
  }

  parseFile(path: string): GoFile {
    const file: GoFile = { path, packageName: '', imports: new Map(), types: [], consts: [] };
    while (this.pos < this.toks.length) {
      this.skipNl();
      const t = this.peek();
      if (!t) break;
      if (t.k === 'ident' && t.v === 'package') {
        this.next();
        file.packageName = this.next().v;
        continue;
      }
      if (t.k === 'ident' && t.v === 'import') {
        this.next();
        if (this.isPunct('(')) {
          this.next();
          for (;;) {
            this.skipNl();
            if (this.isPunct(')')) {
              this.next();
              break;
            }
            this.parseImportSpec(file);
          }
        } else {
          this.parseImportSpec(file);
        }
        continue;
      }
      if (t.k === 'ident' && t.v === 'type') {
        const declLine = t.line;
        this.next();
        if (this.isPunct('(')) {
          this.next();
          for (;;) {
            this.skipNl();
            if (this.isPunct(')')) {
              this.next();
              break;
            }
            const specLine = this.peek()!.line;
            file.types.push(this.parseTypeSpec(path, this.docAt(specLine)));
          }
        } else {
          file.types.push(this.parseTypeSpec(path, this.docAt(declLine)));
        }
        continue;
      }
      if (t.k === 'ident' && t.v === 'const') {
        this.next();
        if (this.isPunct('(')) {
          this.next();
          for (;;) {
            this.skipNl();
            if (this.isPunct(')')) {
              this.next();
              break;
            }
            file.consts.push(...this.parseConstSpec());
          }
        } else {
          file.consts.push(...this.parseConstSpec());
        }
        continue;
      }
      // func, var, and anything else: skipped.
      this.skipStatement();
    }
    return file;
  }

  private parseImportSpec(file: GoFile): void {
    let alias: string | undefined;
    const t = this.next();
    let pathLit = t;
    if (t.k === 'ident' || (t.k === 'punct' && (t.v === '_' || t.v === '.'))) {
      alias = t.v;
      pathLit = this.next();
    }
    const p = goStringValue(pathLit.v);
    const local = alias ?? defaultImportName(p);
    if (local !== '_' && local !== '.') file.imports.set(local, p);
    this.skipStatement();
  }

  private parseTypeSpec(path: string, doc: string[]): GoTypeDecl {
    const name = this.next().v;
    let alias = false;
    if (this.isPunct('=')) {
      this.next();
      alias = true;
    }
    const type = this.parseType();
    // Rest of the line (there should be nothing but maybe a comment).
    if (this.peek() && this.peek()!.k !== 'nl' && !this.isPunct(')')) this.skipStatement();
    return { name, alias, type, doc, file: path };
  }

  private parseConstSpec(): GoConst[] {
    const names: string[] = [this.next().v];
    while (this.isPunct(',')) {
      this.next();
      names.push(this.next().v);
    }
    let typeName: string | undefined;
    if (this.peek()?.k === 'ident') {
      typeName = this.next().v;
      if (this.isPunct('.')) {
        // qualified type: not ours
        this.next();
        this.next();
        typeName = undefined;
      }
    }
    const exprToks: Token[] = [];
    if (this.isPunct('=')) {
      this.next();
      let depth = 0;
      while (this.pos < this.toks.length) {
        const t = this.peek()!;
        if (t.k === 'nl' && depth <= 0) break;
        if (t.k === 'punct' && t.v === ')' && depth === 0) break;
        if (t.k === 'punct' && '([{'.includes(t.v)) depth++;
        if (t.k === 'punct' && ')]}'.includes(t.v)) depth--;
        exprToks.push(this.next());
      }
    } else if (this.peek()?.k !== 'nl' && !this.isPunct(')')) {
      this.skipStatement();
    }
    let value: GoConst['value'];
    if (names.length === 1 && exprToks.length === 1) {
      const e = exprToks[0]!;
      if (e.k === 'string' || e.k === 'raw') value = goStringValue(e.v);
      else if (e.k === 'number' && /^[0-9]+$/.test(e.v)) value = Number(e.v);
      else if (e.k === 'ident' && (e.v === 'true' || e.v === 'false')) value = e.v === 'true';
    } else if (names.length === 1 && exprToks.length === 2 && exprToks[0]!.v === '-' && exprToks[1]!.k === 'number') {
      value = -Number(exprToks[1]!.v);
    }
    return names.map((name) => ({ name, typeName, value }));
  }

  parseType(): GoType {
    const t = this.next();
    if (t.k === 'punct') {
      if (t.v === '*') return { t: 'pointer', elem: this.parseType() };
      if (t.v === '[') {
        if (this.isPunct(']')) {
          this.next();
          return { t: 'slice', elem: this.parseType() };
        }
        let len = '';
        while (!this.isPunct(']')) len += this.next().v;
        this.next();
        return { t: 'array', len, elem: this.parseType() };
      }
      if (t.v === '(') {
        const inner = this.parseType();
        this.expect(')');
        return inner;
      }
      throw new Error(`line ${t.line}: unexpected '${t.v}' in type`);
    }
    if (t.k !== 'ident') throw new Error(`line ${t.line}: unexpected ${t.k} '${t.v}' in type`);
    switch (t.v) {
      case 'map': {
        this.expect('[');
        const key = this.parseType();
        this.expect(']');
        return { t: 'map', key, value: this.parseType() };
      }
      case 'struct':
        return { t: 'struct', fields: this.parseStructBody() };
      case 'interface':
        this.skipBraces();
        return { t: 'interface' };
      case 'chan':
        return { t: 'chan', elem: this.parseType() };
      case 'func':
        this.skipFuncSignature();
        return { t: 'func' };
    }
    if (this.isPunct('.')) {
      this.next();
      return { t: 'ident', pkg: t.v, name: this.next().v };
    }
    return { t: 'ident', name: t.v };
  }

  private skipBraces(): void {
    this.expect('{');
    let depth = 1;
    while (depth > 0) {
      const t = this.next();
      if (t.k === 'punct' && t.v === '{') depth++;
      if (t.k === 'punct' && t.v === '}') depth--;
    }
  }

  private skipFuncSignature(): void {
    // params
    let depth = 0;
    do {
      const t = this.next();
      if (t.k === 'punct' && t.v === '(') depth++;
      if (t.k === 'punct' && t.v === ')') depth--;
    } while (depth > 0);
    // results: a parenthesised list or a single type, up to end of line / ; / field tag
    if (this.isPunct('(')) {
      depth = 0;
      do {
        const t = this.next();
        if (t.k === 'punct' && t.v === '(') depth++;
        if (t.k === 'punct' && t.v === ')') depth--;
      } while (depth > 0);
    } else if (this.peek() && this.peek()!.k !== 'nl' && this.peek()!.k !== 'raw' && !this.isPunct(';') && !this.isPunct('}') && !this.isPunct(')') && !this.isPunct(',')) {
      this.parseType();
    }
  }

  private parseStructBody(): GoField[] {
    this.expect('{');
    const fields: GoField[] = [];
    for (;;) {
      this.skipNl();
      if (this.isPunct('}')) {
        this.next();
        return fields;
      }
      const first = this.peek()!;
      const doc = this.docAt(first.line);
      // Embedded: `T`, `*T`, `pkg.T`, `*pkg.T`, each followed by a tag, newline or `}`.
      const isEmbedded =
        this.isPunct('*') ||
        (first.k === 'ident' && this.isPunct('.', 1)) ||
        (first.k === 'ident' && (this.peek(1)?.k === 'raw' || this.peek(1)?.k === 'string' || this.peek(1)?.k === 'nl' || this.isPunct('}', 1) || this.isPunct(';', 1)));
      if (isEmbedded) {
        const type = this.parseType();
        const tag = this.parseTag();
        fields.push({ type, tag, doc, line: first.line });
        continue;
      }
      const names = [this.next().v];
      while (this.isPunct(',')) {
        this.next();
        names.push(this.next().v);
      }
      const type = this.parseType();
      const tag = this.parseTag();
      for (const name of names) fields.push({ name, type, tag, doc, line: first.line });
    }
  }

  private parseTag(): string {
    const t = this.peek();
    if (t && (t.k === 'raw' || t.k === 'string')) {
      this.next();
      return goStringValue(t.v);
    }
    return '';
  }
}

export function defaultImportName(importPath: string): string {
  const parts = importPath.split('/');
  let last = parts[parts.length - 1]!;
  // gopkg.in/yaml.v2 style and major-version suffixes are not used by the packages we read.
  if (/^v[0-9]+$/.test(last) && parts.length > 1 && !importPath.startsWith('k8s.io/')) last = parts[parts.length - 2]!;
  return last.replace(/[^A-Za-z0-9_]/g, '_');
}

export function parseGoFile(path: string, src: string): GoFile {
  const { tokens, comments } = tokenize(src);
  const byLine = new Map<number, Comment>();
  for (const c of comments) if (c.ownLine) byLine.set(c.line, c);
  // The doc comment of a declaration on line L: the run of own-line comments ending on L-1.
  const docAt = (line: number): string[] => {
    const out: string[] = [];
    for (let l = line - 1; byLine.has(l); l--) out.unshift(byLine.get(l)!.text);
    return out;
  };
  try {
    return new Parser(tokens, docAt).parseFile(path);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * gengo-style comment tags: lines of the form `+key` or `+key=value` (after trimming
 * the comment text), collected per key in order.
 */
export function commentTags(doc: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const raw of doc) {
    const line = raw.trim();
    if (!line.startsWith('+')) continue;
    const body = line.slice(1);
    const eq = body.indexOf('=');
    const key = (eq < 0 ? body : body.slice(0, eq)).trim();
    const value = eq < 0 ? '' : body.slice(eq + 1).trim();
    if (!key) continue;
    const list = out.get(key) ?? [];
    list.push(value);
    out.set(key, list);
  }
  return out;
}

/** reflect.StructTag.Get */
export function structTag(tag: string, key: string): string | undefined {
  const re = /([A-Za-z0-9_.-]+):"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(tag); m; m = re.exec(tag)) {
    if (m[1] === key) return goStringValue(`"${m[2]}"`);
  }
  return undefined;
}
