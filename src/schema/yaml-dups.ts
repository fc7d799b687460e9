// YAML request bodies the way kube-apiserver reads them (sigs.k8s.io/yaml over goyaml.v2, i.e.
// YAML 1.1: `yes`/`on` are booleans, `<<` merge keys work, timestamps stay strings), plus the
// duplicate keys goyaml.v2's strict mode reports: `line 14: key "paused" already set in map`,
// where the line is the line of the repeated key's value, listed in the order goyaml.v2 meets
// them (a value's own duplicates before its key's). The last duplicate wins in the value, as in
// the non-strict conversion kube decodes from.

import type { CST, Node as YamlNode, Pair } from 'yaml';
import { yamlModule } from '../machinery/lazy-module.js';

const isAlias = (n: unknown) => yamlModule().isAlias(n);
const isMap = (n: unknown) => yamlModule().isMap(n);
const isPair = (n: unknown) => yamlModule().isPair(n);
const isScalar = (n: unknown) => yamlModule().isScalar(n);
const isSeq = (n: unknown) => yamlModule().isSeq(n);
import { JsonNumber, goQuote } from '../machinery/json-scan.js';
import { goSharpV } from '../machinery/go-format.js';
import { goyamlSyntaxError } from './goyaml-syntax.js';

export const MAX_YAML_DEPTH = 10_000;

export interface YamlDuplicate {
  /** kube-style path of the repeated key, e.g. `spec.paused`, `spec.template.spec.containers[0].name`. */
  path: string;
  /** 1-based line, as goyaml.v2 reports it (the line of the repeated key's value). */
  line: number;
  /** The key as goyaml.v2 prints it (%#v): `"paused"`, `1`, `true`. */
  key: string;
  /** `line 14: key "paused" already set in map` */
  message: string;
}

export interface YamlParseResult {
  value: unknown;
  duplicates: YamlDuplicate[];
}

export interface YamlParseOptions {
  /** Alias expansion limit (the yaml package's maxAliasCount). Default 100. */
  maxAliasCount?: number;
  /** Default 10,000. */
  maxDepth?: number;
  /** YAML version; default '1.1' (goyaml.v2). */
  version?: '1.1' | '1.2';
  /**
   * Integers beyond 2^53 as JsonNumbers (their literal kept), as goyaml.v2 reads them into
   * int64 or uint64 and the conversion to JSON writes them: for the typed decoding, which
   * keeps them exact.
   */
  exactIntegers?: boolean;
  /** A byte the reader refuses after this many characters (utf8.ts yamlBodyText). */
  readerFault?: { error: string; limit: number };
}

/** A YAML body kube cannot read; the message is close to goyaml.v2's (`yaml: line 3: ...`). */
export class YamlDecodeError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'YamlDecodeError';
  }
}

// goyaml.v2 keeps timestamps and sexagesimal numbers as strings when decoding into interface{}.
const dropTags = (tags: unknown[]): unknown[] =>
  tags.filter((t) => {
    const tag = t as { tag?: string; format?: string };
    return tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME';
  });

/** How goyaml.v2 prints a map key with %#v. */
function keyRepr(key: unknown): string {
  const v = isScalar(key) ? key.value : key;
  if (typeof v === 'string') return goQuote(v);
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return goQuote(String(v));
}

/** Identity of a key after YAML resolution (goyaml.v2 compares resolved values). */
function keyIdentity(key: unknown): string {
  const v = isScalar(key) ? key.value : key;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object') return `node:${String((key as { range?: number[] }).range?.[0])}`;
  return `${typeof v}:${String(v)}`;
}

function keySegment(key: unknown): string {
  const v = isScalar(key) ? key.value : key;
  return v === null || v === undefined ? 'null' : String(v);
}

/** A `<<` merge key (the yaml package resolves it to a symbol). */
const isMergeKey = (key: unknown): boolean => isScalar(key) && typeof key.value === 'symbol';

interface WalkFrame {
  node: YamlNode;
  items: unknown[];
  isMap: boolean;
  i: number;
  /** For maps: the value of items[i] was walked; check its key next. */
  valueDone: boolean;
  seen: Set<string> | null;
  segment: string;
}

/** Parses a YAML document (the first one, as goyaml.v2 Unmarshal does), reporting duplicate keys. */
export function parseYamlWithDuplicates(text: string, opts: YamlParseOptions = {}): YamlParseResult {
  const maxDepth = opts.maxDepth ?? MAX_YAML_DEPTH;
  const maxAliasCount = opts.maxAliasCount ?? 100;
  // goyaml.v2's own words for text it cannot read; the yaml package below reads the value.
  const found: { selfAlias?: string } = {};
  const syntaxError = goyamlSyntaxError(text, opts.readerFault, found);
  if (syntaxError !== undefined) throw new YamlDecodeError(syntaxError);
  // Deeper than kube's limit is refused from a scan of the brackets, before any parsing.
  if (flowDepthAtLeast(text, maxDepth + 1)) throw new YamlDecodeError(`yaml: exceeded max depth of ${maxDepth}`);
  // The CST parser is iterative: measure the nesting before anything recursive runs.
  const lineCounter = new (yamlModule().LineCounter)();
  const tokens = Array.from(new (yamlModule().Parser)(lineCounter.addNewLine).parse(text));
  const depth = cstDepth(tokens);
  // The yaml package composes recursively: the server's thread has the stack for kube's
  // 10,000 levels (src/server/serve-worker.ts).
  if (depth > maxDepth) throw new YamlDecodeError(`yaml: exceeded max depth of ${maxDepth}`);
  let doc;
  try {
    const composer = new (yamlModule().Composer)({
      version: opts.version ?? '1.1',
      uniqueKeys: false,
      merge: true,
      customTags: dropTags as never,
    });
    // goyaml.v2's Unmarshal reads the first document only.
    doc = composer.compose(tokens).next().value;
  } catch (e) {
    if (e instanceof RangeError) throw new YamlDecodeError(`yaml: exceeded max depth of ${maxDepth}`);
    throw e;
  }
  if (!doc) return { value: null, duplicates: [] };
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const line = lineCounter.linePos(err.pos[0]).line;
    const msg = err.message.split('\n')[0];
    throw new YamlDecodeError(`yaml: line ${line}: ${msg}`, line);
  }

  const lineOf = (offset: number): number => lineCounter.linePos(offset).line;

  // Walk maps and sequences (not through aliases), post-order per pair, as goyaml.v2 decodes.
  const duplicates: YamlDuplicate[] = [];
  let nullKey: unknown;
  const root = doc.contents as YamlNode | null;
  const stack: WalkFrame[] = [];
  const pathOf = (last: string, lastIsIndex: boolean): string => {
    let p = '';
    for (let k = 1; k < stack.length; k++) p += stack[k].segment;
    p += lastIsIndex ? last : p === '' ? last : `.${last}`;
    return p.startsWith('.') ? p.slice(1) : p;
  };
  const push = (node: unknown, segment: string): void => {
    if (isScalar(node)) {
      goFloatScalar(node as YamlScalarNode);
      if (opts.exactIntegers) exactIntScalar(node as YamlScalarNode);
    }
    if (isMap(node) || isSeq(node)) {
      if (stack.length + 1 > maxDepth) throw new YamlDecodeError(`yaml: exceeded max depth of ${maxDepth}`);
      stack.push({
        node: node as YamlNode,
        items: (node as { items: unknown[] }).items,
        isMap: isMap(node),
        i: 0,
        valueDone: false,
        seen: isMap(node) ? new Set<string>() : null,
        segment,
      });
    }
  };
  push(root, '');
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.i >= f.items.length) {
      stack.pop();
      continue;
    }
    if (!f.isMap) {
      const item = f.items[f.i++];
      push(item, `[${f.i - 1}]`);
      continue;
    }
    const pair = f.items[f.i] as Pair<unknown, unknown>;
    if (!isPair(pair)) {
      f.i++;
      continue;
    }
    if (!f.valueDone) {
      // goyaml.v2 decodes a key before its value; a collection cannot be a Go map key.
      if (isMap(pair.key) || isSeq(pair.key)) {
        const key = (pair.key as { toJS(doc: unknown, opts?: unknown): unknown }).toJS(doc, { maxAliasCount });
        throw new YamlDecodeError(`yaml: invalid map key: ${goSharpV(key, 'map[interface {}]interface {}')}`);
      }
      f.valueDone = true;
      // sigs.k8s.io/yaml's conversion to JSON has no text for a null key; it refuses it once
      // goyaml.v2 has decoded the whole document.
      if (nullKey === undefined && !isMergeKey(pair.key) && (pair.key === null || (isScalar(pair.key) && pair.key.value === null))) {
        nullKey = pair.value;
      }
      if (!isAlias(pair.value)) {
        const seg = keySegment(pair.key);
        push(pair.value, stack.length === 1 ? seg : `.${seg}`);
      }
      continue;
    }
    f.valueDone = false;
    f.i++;
    if (isMergeKey(pair.key)) continue;
    const id = keyIdentity(pair.key);
    if (f.seen!.has(id)) {
      const valueNode = pair.value as { range?: [number, number, number] } | null;
      const keyNode = pair.key as { range?: [number, number, number] } | null;
      const offset = valueNode?.range?.[0] ?? keyNode?.range?.[0] ?? 0;
      const line = lineOf(offset);
      const key = keyRepr(pair.key);
      duplicates.push({
        path: pathOf(keySegment(pair.key), false),
        line,
        key,
        message: `line ${line}: key ${key} already set in map`,
      });
    } else f.seen!.add(id);
  }

  // The decoder refuses an alias inside the node it names (after the key checks above, which
  // an earlier invalid key would meet first in most documents).
  if (found.selfAlias !== undefined) throw new YamlDecodeError(`yaml: anchor '${found.selfAlias}' value contains itself`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount });
  } catch (e) {
    if (e instanceof RangeError) throw new YamlDecodeError(`yaml: exceeded max depth of ${maxDepth}`);
    if (e instanceof ReferenceError || /alias/i.test((e as Error).message)) {
      throw new YamlDecodeError('yaml: document contains excessive aliasing');
    }
    throw e;
  }
  if (nullKey !== undefined) {
    const v = isScalar(nullKey) || isMap(nullKey) || isSeq(nullKey) || isAlias(nullKey) ? (nullKey as { toJS(doc: unknown, opts?: unknown): unknown }).toJS(doc, { maxAliasCount }) : null;
    const printed = v === null || v === undefined ? '<nil>' : goSharpV(v, 'map[interface {}]interface {}');
    throw new YamlDecodeError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${printed}`);
  }
  return { value: value ?? null, duplicates };
}

interface YamlScalarNode {
  value: unknown;
  source?: string;
}

/**
 * A float scalar as goyaml.v2 and sigs.k8s.io/yaml take it: a decimal too large for a float64
 * does not resolve as a number and stays the string it was written as; `.inf` and `.nan` are
 * floats JSON cannot carry, which kube's conversion to JSON refuses.
 */
function goFloatScalar(node: YamlScalarNode): void {
  const v = node.value;
  if (typeof v !== 'number' || Number.isFinite(v)) return;
  const src = (node.source ?? '').trim();
  if (/^[-+]?\.(inf|Inf|INF)$/.test(src) || /^\.(nan|NaN|NAN)$/.test(src)) {
    throw new YamlDecodeError(`json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`);
  }
  if (src !== '') node.value = src;
}

/** A decimal integer scalar a JS number rounds: its literal kept in a JsonNumber. */
function exactIntScalar(node: YamlScalarNode): void {
  const v = node.value;
  if (typeof v !== 'number' || Number.isSafeInteger(v) || !Number.isInteger(v)) return;
  const m = /^([-+]?)([1-9][0-9]*)$/.exec((node.source ?? '').trim());
  if (m) node.value = new JsonNumber(`${m[1] === '-' ? '-' : ''}${m[2]}`, v);
}

/**
 * Whether flow collections (`[`, `{`) nest at least `limit` deep, skipping quoted scalars inside
 * them. A bracket in a plain scalar outside any flow collection counts too, which can only
 * overstate the depth of text with thousands of unclosed brackets.
 */
function flowDepthAtLeast(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth >= limit) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
    else if (depth > 0 && (c === 0x22 || c === 0x27)) {
      // A quoted scalar: '' escapes a single quote, \ escapes in double quotes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (c === 0x22 && d === 0x5c) i++;
        else if (d === c) {
          if (c === 0x27 && text.charCodeAt(i + 1) === 0x27) i++;
          else break;
        }
      }
    }
  }
  return false;
}

/** The nesting depth of collections in CST tokens (iteratively). */
function cstDepth(tokens: readonly CST.Token[]): number {
  let max = 0;
  const work: [CST.Token | null | undefined, number][] = tokens.map((t) => [t, 0]);
  while (work.length > 0) {
    const [t, d] = work.pop()!;
    if (!t) continue;
    switch (t.type) {
      case 'document':
        work.push([t.value, d]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        const nd = d + 1;
        if (nd > max) max = nd;
        for (const item of t.items as { key?: CST.Token | null; value?: CST.Token }[]) {
          if (item.key) work.push([item.key, nd]);
          if (item.value) work.push([item.value, nd]);
        }
        break;
      }
      default:
        break;
    }
  }
  return max;
}
