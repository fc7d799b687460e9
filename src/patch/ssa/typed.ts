// Objects seen through the schema's merge markers, after structured-merge-diff's typed
// package: which paths a value sets (ToFieldSet), how two values differ (Compare), how an
// apply configuration merges into a live object (Merge) and how paths are removed
// (RemoveItems). Values are plain decoded JSON.
//
// Markers (model.ts): listType atomic/set/map with listMapKeys; without listType, a
// patchStrategy of merge reads as a map list keyed by patchMergeKey (a set without a key);
// no marker at all is atomic. mapType on a map or struct field, or structType on a struct
// definition, makes it atomic (a field's granular mapType overrides its struct's atomic one). Runtime "any" values are deduced from their shape.

import type { FieldSchema, SchemaRegistry, StructSchema, TypeRef } from '../../schema/model.js';
import { FieldSet, fieldPE, indexPE, pathString, quoted, sortPEs, stableJson, valuePE, type PathElement } from './fieldpath.js';
import { deepEqual, isObj, type Obj } from '../../machinery/json-view.js';
import { JsonNumber } from '../../machinery/json-scan.js';
import { goPlainV, goSharpV } from '../../machinery/go-format.js';

/** structured-merge-diff's scalar kinds (a scalar without one takes any value: quantities, times, int-or-strings). */
export type ScalarKind = 'numeric' | 'string' | 'boolean';

export type TypeNode =
  | { t: 'scalar'; scalar?: ScalarKind }
  | { t: 'deduced' }
  | {
      t: 'struct';
      schema: StructSchema;
      atomic: boolean;
      fields: Map<string, FieldSchema>;
      isObjectMeta: boolean;
      /** The nodes of declared fields, resolved on first use. */
      kids: Map<string, TypeNode>;
      /** Its FieldsV1 writer (see structWalker), compiled on first use. */
      walker: StructWalker | undefined;
    }
  | { t: 'map'; elem: TypeNode; atomic: boolean }
  | {
      t: 'list';
      elem: TypeNode;
      rel: 'atomic' | 'set' | 'map';
      keys: string[];
      keyDefaults: Map<string, unknown>;
      /** The keys in `k:` order (by name), each with its quoted spelling. */
      keyOrder: { name: string; quoted: string }[];
    };

type StructNode = Extract<TypeNode, { t: 'struct' }>;

const SCALAR: TypeNode = { t: 'scalar' };
const DEDUCED: TypeNode = { t: 'deduced' };
const SCALARS: Record<string, TypeNode> = {
  string: { t: 'scalar', scalar: 'string' },
  boolean: { t: 'scalar', scalar: 'boolean' },
  int32: { t: 'scalar', scalar: 'numeric' },
  int64: { t: 'scalar', scalar: 'numeric' },
  number: { t: 'scalar', scalar: 'numeric' },
};

export class SsaError extends Error {}

/** Resolves schema types to merge nodes, once per registry. */
export class TypeResolver {
  private readonly structs = new Map<string, TypeNode>();
  private readonly byField = new WeakMap<FieldSchema, TypeNode>();

  constructor(readonly registry: SchemaRegistry) {}

  root(definition: string): TypeNode {
    return this.struct(definition);
  }

  /**
   * A struct type, atomic as its definition says unless the field that holds it says otherwise
   * (`+structType=granular` on PersistentVolumeSpec.claimRef: an ObjectReference, atomic
   * elsewhere, is owned field by field there).
   */
  private struct(name: string, override?: 'atomic' | 'granular'): TypeNode {
    const key = override ? `${name}#${override}` : name;
    let n = this.structs.get(key);
    if (!n) {
      const schema = this.registry[name];
      if (!schema) return DEDUCED;
      n = {
        t: 'struct',
        schema,
        atomic: override ? override === 'atomic' : schema.structType === 'atomic',
        fields: new Map(schema.fields.map((f) => [f.name, f])),
        isObjectMeta: schema.name.endsWith('.ObjectMeta'),
        kids: new Map(),
        walker: undefined,
      };
      this.structs.set(key, n);
    }
    return n;
  }

  field(f: FieldSchema): TypeNode {
    let n = this.byField.get(f);
    if (!n) {
      n = this.ref(f.type, f);
      this.byField.set(f, n);
    }
    return n;
  }

  private ref(t: TypeRef, f?: FieldSchema): TypeNode {
    switch (t.kind) {
      case 'ref':
        return this.struct(t.name, f?.mapType);
      case 'any':
        // A RawExtension (ControllerRevision.data): one value to structured-merge-diff, owned whole.
        return SCALAR;
      case 'fieldsV1':
        return DEDUCED;
      case 'map':
        return { t: 'map', elem: this.ref(t.values), atomic: f?.mapType === 'atomic' };
      case 'array': {
        let rel = f?.listType;
        let keys = f?.listMapKeys ?? [];
        if (!rel) {
          const merge = (f?.patchStrategy ?? '').split(',').includes('merge');
          if (merge && f?.patchMergeKey) {
            rel = 'map';
            keys = [f.patchMergeKey];
          } else rel = merge ? 'set' : 'atomic';
        }
        const elem = this.ref(t.items);
        const keyDefaults = new Map<string, unknown>();
        if (rel === 'map' && elem.t === 'struct') {
          for (const k of keys) {
            const d = keyDefault(elem.fields.get(k));
            if (d !== undefined) keyDefaults.set(k, d);
          }
        }
        return { t: 'list', elem, rel, keys, keyDefaults, keyOrder: keyOrderOf(keys) };
      }
      default:
        return SCALARS[t.kind] ?? SCALAR;
    }
  }

  /** The node of a struct field or map value; undefined for a field the struct does not declare. */
  childOf(n: TypeNode, key: string): TypeNode | undefined {
    if (n.t === 'struct') {
      let c = n.kids.get(key);
      if (c === undefined) {
        const f = n.fields.get(key);
        if (!f) return undefined;
        c = this.field(f);
        n.kids.set(key, c);
      }
      return c;
    }
    if (n.t === 'map') return n.elem;
    return DEDUCED;
  }
}

/**
 * A key field's default as kube's OpenAPI states it (structured-merge-diff reads it there): the
 * declared one, else, for a field Go always writes (not a pointer, no omitempty), its zero
 * value, which openapi-gen sets as the default of such fields (a container's name is "").
 */
function keyDefault(f: { default?: unknown; omitempty?: boolean; pointer?: boolean; type: { kind: string } } | undefined): unknown {
  if (!f) return undefined;
  if (f.default !== undefined) return f.default;
  if (f.omitempty || f.pointer) return undefined;
  switch (f.type.kind) {
    case 'string':
      return '';
    case 'int32':
    case 'int64':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

function keyOrderOf(keys: string[]): { name: string; quoted: string }[] {
  return keys
    .slice()
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({ name, quoted: JSON.stringify(name) }));
}

const DEDUCED_MAP: TypeNode = { t: 'map', elem: DEDUCED, atomic: false };
const DEDUCED_LIST: TypeNode = { t: 'list', elem: DEDUCED, rel: 'atomic', keys: [], keyDefaults: new Map(), keyOrder: [] };

/** A deduced node becomes a granular map, an atomic list or a scalar, by the value's shape. */
function resolve(n: TypeNode, v: unknown): TypeNode {
  if (n.t !== 'deduced') return n;
  if (isObj(v)) return DEDUCED_MAP;
  if (Array.isArray(v)) return DEDUCED_LIST;
  return SCALAR;
}

/** The path element of a list item, as listItemToPathElement builds it. */
export function itemPE(n: Extract<TypeNode, { t: 'list' }>, item: unknown, index: number): PathElement {
  if (n.rel === 'map') {
    if (n.keys.length === 0 || !isObj(item)) return indexPE(index);
    // keyPE's spelling, built straight from the item; a missing key is reported in `keys` order.
    for (const k of n.keys) {
      if (item[k] === undefined && n.keyDefaults.get(k) === undefined) {
        throw new SsaError(`associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
      }
    }
    let s = 'k:{';
    for (let i = 0; i < n.keyOrder.length; i++) {
      const k = n.keyOrder[i];
      let v = item[k.name];
      if (v === undefined) v = n.keyDefaults.get(k.name);
      s += `${i ? ',' : ''}${k.quoted}:${stableJson(v)}`;
    }
    return `${s}}`;
  }
  if (n.rel === 'set') {
    if (item !== null && typeof item === 'object') return indexPE(index);
    return valuePE(item);
  }
  return indexPE(index);
}

/**
 * Items of a list by path element, first occurrence wins, in list order. Lists are short:
 * they are searched in place, and get a Map only when long.
 */
class ItemIndex {
  readonly order: PathElement[] = [];
  private readonly values: unknown[] = [];
  private map?: Map<PathElement, number>;
  /** Whether some element came more than once. */
  dups = false;

  private find(pe: PathElement): number {
    return this.map ? (this.map.get(pe) ?? -1) : this.order.indexOf(pe);
  }

  has(pe: PathElement): boolean {
    return this.find(pe) >= 0;
  }

  get(pe: PathElement): unknown {
    const i = this.find(pe);
    return i >= 0 ? this.values[i] : undefined;
  }

  /** Adds an item unless its element is already there. */
  add(pe: PathElement, v: unknown): void {
    if (this.find(pe) >= 0) {
      this.dups = true;
      return;
    }
    this.order.push(pe);
    this.values.push(v);
    if (this.map) this.map.set(pe, this.order.length - 1);
    else if (this.order.length > 8) this.map = new Map(this.order.map((p, i) => [p, i]));
  }
}

/** The index of a missing or empty list (shared: never added to). */
const NO_ITEMS = new ItemIndex();

function indexItems(n: Extract<TypeNode, { t: 'list' }>, list: unknown): ItemIndex {
  if (!Array.isArray(list) || list.length === 0) return NO_ITEMS;
  const out = new ItemIndex();
  for (let i = 0; i < list.length; i++) out.add(itemPE(n, list[i], i), list[i]);
  return out;
}

/** Whether a plain object has no own keys (without listing them). */
function noKeys(o: Obj): boolean {
  for (const _ in o) return false;
  return true;
}

const isEmptyish = (v: unknown): boolean => v === null || v === undefined || (Array.isArray(v) ? v.length === 0 : isObj(v) && noKeys(v));

// ---- ToFieldSet ----

/** The paths an object sets. `skip` filters root fields out of the walk (metadata.managedFields is never walked). */
export function toFieldSet(r: TypeResolver, root: TypeNode, v: unknown): FieldSet {
  const out = new FieldSet();
  walkInto(r, root, v, out);
  return out;
}

/** Adds the fields inside `v` (a struct/map/list value) into `dst`, the set at v's own path. */
function walkInto(r: TypeResolver, node: TypeNode, v: unknown, dst: FieldSet): void {
  const n = resolve(node, v);
  if (n.t === 'list') {
    if (!Array.isArray(v)) return;
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      const pe = itemPE(n, item, i);
      addValue(r, n.elem, item, dst, pe, false);
      dst.addMember(pe);
    }
    return;
  }
  if (n.t === 'struct' || n.t === 'map') {
    if (!isObj(v)) return;
    for (const k in v) {
      const cv = v[k];
      if (cv === undefined) continue;
      if (n.t === 'struct' && k === 'managedFields' && n.isObjectMeta) continue;
      const cn = r.childOf(n, k);
      if (!cn) continue;
      const pe = fieldPE(k);
      addValue(r, cn, cv, dst, pe, n.t === 'map');
    }
  }
}

/** Adds value `v` found at `pe` under `parent`. */
function addValue(r: TypeResolver, node: TypeNode, v: unknown, parent: FieldSet, pe: PathElement, mapEntry: boolean): void {
  const n = resolve(node, v);
  if (n.t === 'scalar' || ((n.t === 'map' || n.t === 'struct') && n.atomic) || (n.t === 'list' && n.rel === 'atomic')) {
    parent.addMember(pe);
    return;
  }
  if (v === null || mapEntry || (isObj(v) && noKeys(v))) parent.addMember(pe);
  if (v === null) return;
  const sub = parent.children.get(pe) ?? new FieldSet();
  walkInto(r, n, v, sub);
  if (!sub.isEmpty()) parent.setChild(pe, sub);
}

// ---- Compare ----

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

export const isSame = (c: Comparison): boolean => c.added.isEmpty() && c.removed.isEmpty() && c.modified.isEmpty();

export function compare(r: TypeResolver, root: TypeNode, lhs: unknown, rhs: unknown): Comparison {
  const c: Comparison = { added: new FieldSet(), removed: new FieldSet(), modified: new FieldSet() };
  cmpNode(r, root, lhs, rhs, new Frame(undefined, '', c.added, c.removed, c.modified), '', true);
  return c;
}

/** What a write changed (added ∪ modified, as one set) and what it removed: compare without the union. */
export interface Changes {
  changed: FieldSet;
  removed: FieldSet;
}

export function changes(r: TypeResolver, root: TypeNode, lhs: unknown, rhs: unknown): Changes {
  const out: Changes = { changed: new FieldSet(), removed: new FieldSet() };
  // Added and modified paths are inserted into the same trie, which is their union.
  cmpNode(r, root, lhs, rhs, new Frame(undefined, '', out.changed, out.removed, out.changed), '', true);
  return out;
}

function isLeaf(n: TypeNode, l: unknown, rr: unknown): boolean {
  switch (n.t) {
    case 'scalar':
      return true;
    case 'list':
      if (n.rel === 'atomic') return true;
      if ((l !== undefined && l !== null && !Array.isArray(l)) || (rr !== undefined && rr !== null && !Array.isArray(rr))) return true;
      return isEmptyish(l) && isEmptyish(rr);
    case 'map':
    case 'struct':
      if (n.atomic) return true;
      if ((l !== undefined && l !== null && !isObj(l)) || (rr !== undefined && rr !== null && !isObj(rr))) return true;
      return isEmptyish(l) && isEmptyish(rr);
    default:
      return true;
  }
}

const ADDED = 0;
const REMOVED = 1;
const MODIFIED = 2;

/**
 * A level of the walk that has children: per result set, the set at its path, found once and
 * reused by all its children (rather than walking each leaf's path from the root).
 */
class Frame {
  constructor(
    readonly parent: Frame | undefined,
    readonly pe: PathElement,
    /** Added, removed, modified: the sets at this frame's path, filled in as needed. */
    private added?: FieldSet,
    private removed?: FieldSet,
    private modified?: FieldSet,
  ) {}

  /** The result set `which` at this frame's path (created along the way). */
  setAt(which: number): FieldSet {
    switch (which) {
      case ADDED:
        return (this.added ??= this.parent!.setAt(which).child(this.pe));
      case REMOVED:
        return (this.removed ??= this.parent!.setAt(which).child(this.pe));
      default:
        return (this.modified ??= this.parent!.setAt(which).child(this.pe));
    }
  }
}

/** Compares l and rv found at element `pe` under `parent` (the root has no element). */
function cmpNode(r: TypeResolver, node: TypeNode, l: unknown, rv: unknown, parent: Frame, pe: PathElement, root = false): void {
  const n = resolve(node, rv !== undefined ? rv : l);
  if (isLeaf(n, l, rv)) {
    if (root) return;
    if (l === undefined) parent.setAt(ADDED).addMember(pe);
    else if (rv === undefined) parent.setAt(REMOVED).addMember(pe);
    else if (!deepEqual(l, rv)) parent.setAt(MODIFIED).addMember(pe);
    return;
  }
  const f = root ? parent : new Frame(parent, pe);
  forEachChildPair(r, n, l, rv, (cn, lc, rc, cpe) => cmpNode(r, cn, lc, rc, f, cpe));
  if (!root) {
    if (l === undefined) parent.setAt(ADDED).addMember(pe);
    else if (rv === undefined) parent.setAt(REMOVED).addMember(pe);
  }
}

// ---- Compare, straight to FieldsV1 ----

/**
 * The FieldsV1 JSON of what `rhs` adds or modifies against `lhs` (compare's added ∪ modified;
 * removals are left out), minus the paths of `strip` (FieldSet.difference) and minus the
 * root fields in `drop` (withoutTopLevel); undefined when nothing is left. Built as text in
 * the comparison walk: it equals `changes(...).changed.withoutTopLevel(drop).difference(strip)`
 * serialized, without the sets in between, which on a create cost as much as the walk.
 */
export function changedFieldsV1Json(
  r: TypeResolver,
  root: TypeNode,
  lhs: unknown,
  rhs: unknown,
  strip?: FieldSet,
  drop: readonly PathElement[] = [],
): string | undefined {
  const n = resolve(root, rhs !== undefined ? rhs : lhs);
  if (isLeaf(n, lhs, rhs)) return undefined;
  return changedLevel(r, n, lhs, rhs, false, strip, drop);
}

/**
 * The changes inside one non-leaf value as FieldsV1 text, or undefined when there are none.
 * `self`: the value itself is added, so its object starts with `".":{}` (a value added without
 * changes inside is a plain member, `{}`, which the caller writes). Struct levels are written by
 * their compiled walker (structWalker), in FieldsV1 order as they are walked.
 */
function changedLevel(
  r: TypeResolver,
  n: TypeNode,
  l: unknown,
  rv: unknown,
  self: boolean,
  strip: FieldSet | undefined,
  drop: readonly PathElement[],
): string | undefined {
  if (n.t === 'struct') return structWalker(r, n)(isObj(l) ? l : undefined, isObj(rv) ? rv : undefined, self, strip, drop, r);
  const pes: PathElement[] = [];
  const texts: string[] = [];
  const visit = (cnode: TypeNode, lc: unknown, rc: unknown, pe: PathElement): void => {
    if (drop.length && drop.includes(pe)) return;
    const t = changedChild(r, cnode, lc, rc, pe, strip);
    if (t === undefined) return;
    pes.push(pe);
    texts.push(t);
  };
  forEachChildPair(r, n, l, rv, visit);
  if (pes.length === 0) return undefined;
  return levelJson(pes, texts, self);
}

/** The text of one child of a level (`{}` for a plain member), or undefined when it changed nothing. */
function changedChild(r: TypeResolver, cnode: TypeNode, lc: unknown, rc: unknown, pe: PathElement, strip: FieldSet | undefined): string | undefined {
  const c = resolve(cnode, rc !== undefined ? rc : lc);
  // A stripped member keeps only what lies below it.
  const member = !(strip && strip.members.has(pe));
  if (isLeaf(c, lc, rc)) {
    if (!member || !(lc === undefined || (rc !== undefined && !deepEqual(lc, rc)))) return undefined;
    return '{}';
  }
  const added = member && lc === undefined;
  const sub = changedLevel(r, c, lc, rc, added, strip?.children.get(pe), NO_DROP);
  if (sub === undefined && !added) return undefined;
  return sub ?? '{}';
}

/** One level's FieldsV1 text from its elements and their inner text. */
function levelJson(pes: PathElement[], texts: string[], self: boolean): string {
  const order = pes.slice();
  if (order.length > 1) sortPEs(order);
  let out = self ? '{".":{}' : '{';
  let first = !self;
  const byPE = order.length > 8 ? new Map(pes.map((pe, i) => [pe, texts[i]])) : undefined;
  for (const pe of order) {
    const t = byPE ? byPE.get(pe) : texts[pes.indexOf(pe)];
    out += `${first ? '' : ','}${quoted(pe)}:${t}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * A struct level's FieldsV1 writer (changedLevel's struct case), compiled once per struct from
 * its schema: the declared fields in FieldsV1 order (by name, as UTF-16 units order them, which
 * sortPEs also uses), each read with a constant property name, each scalar's test inline.
 * The walk runs over every object a create stores; generic code reading fields by variable
 * name cost it measurably more in the server.
 */
type StructWalker = (
  lo: Obj | undefined,
  ro: Obj | undefined,
  self: boolean,
  strip: FieldSet | undefined,
  drop: readonly PathElement[],
  r: TypeResolver,
) => string | undefined;

/** What the compiled walkers call back into. */
interface WalkerHelpers {
  child: typeof changedChild;
  equal: typeof deepEqual;
}
const HELPERS: WalkerHelpers = { child: changedChild, equal: deepEqual };

function structWalker(r: TypeResolver, n: StructNode): StructWalker {
  if (n.walker) return n.walker;
  const names = [...n.fields.keys()].filter((k) => !(n.isObjectMeta && k === 'managedFields'));
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const nodes = names.map((name) => r.childOf(n, name)!);
  // Every value spliced into the source is a JSON string literal of our own schema's names.
  const lit = (v: string): string => JSON.stringify(v);
  let body = "let out = self ? '{\".\":{}' : '{';\nlet empty = !self;\nlet lc, rc;\n";
  names.forEach((name, i) => {
    const pe = fieldPE(name);
    body += `lc = lo === undefined ? undefined : lo[${lit(name)}];\nrc = ro === undefined ? undefined : ro[${lit(name)}];\n`;
    body += `if ((lc !== undefined || rc !== undefined) && (drop.length === 0 || !drop.includes(${lit(pe)}))) {\n`;
    if (nodes[i].t === 'scalar') {
      // changedChild of a scalar: a member (unless stripped) when added or modified.
      body += `  if ((strip === undefined || !strip.members.has(${lit(pe)})) && (lc === undefined || (rc !== undefined && !h.equal(lc, rc)))) {\n`;
      body += `    out += empty ? ${lit(`${quoted(pe)}:{}`)} : ${lit(`,${quoted(pe)}:{}`)};\n    empty = false;\n  }\n`;
    } else {
      body += `  const t = h.child(r, nodes[${i}], lc, rc, ${lit(pe)}, strip);\n`;
      body += `  if (t !== undefined) {\n    out += (empty ? ${lit(`${quoted(pe)}:`)} : ${lit(`,${quoted(pe)}:`)}) + t;\n    empty = false;\n  }\n`;
    }
    body += '}\n';
  });
  body += "return empty && !self ? undefined : out + '}';";
  const compile = new Function('nodes', 'h', `return function (lo, ro, self, strip, drop, r) {\n${body}\n};`) as (
    nodes: TypeNode[],
    h: WalkerHelpers,
  ) => StructWalker;
  n.walker = compile(nodes, HELPERS);
  return n.walker;
}

const NO_DROP: readonly PathElement[] = [];

/**
 * The children of a non-leaf pair as Compare pairs them: list items by element (the old
 * list's order, then the new list's additions), struct fields and map keys (the old side's,
 * then the new side's additions). Undeclared fields and ObjectMeta's managedFields are skipped.
 */
function forEachChildPair(
  r: TypeResolver,
  n: TypeNode,
  l: unknown,
  rv: unknown,
  f: (node: TypeNode, lc: unknown, rc: unknown, pe: PathElement) => void,
): void {
  if (n.t === 'list') {
    const li = indexItems(n, l);
    const ri = indexItems(n, rv);
    if (li.dups || ri.dups) {
      forEachItemPairWithDuplicates(n, l as unknown[], rv as unknown[], f);
      return;
    }
    for (const ipe of li.order) f(n.elem, li.get(ipe), ri.get(ipe), ipe);
    for (const ipe of ri.order) if (!li.has(ipe)) f(n.elem, undefined, ri.get(ipe), ipe);
    return;
  }
  if (n.t !== 'map' && n.t !== 'struct') return;
  const lo = isObj(l) ? l : undefined;
  const ro = isObj(rv) ? rv : undefined;
  const skipMeta = n.t === 'struct' && n.isObjectMeta;
  if (lo) {
    for (const k in lo) {
      const lc = lo[k];
      if (lc === undefined || (skipMeta && k === 'managedFields')) continue;
      const cn = r.childOf(n, k);
      if (cn) f(cn, lc, ro ? ro[k] : undefined, fieldPE(k));
    }
  }
  if (ro) {
    for (const k in ro) {
      const rc = ro[k];
      if (rc === undefined || (lo && lo[k] !== undefined) || (skipMeta && k === 'managedFields')) continue;
      const cn = r.childOf(n, k);
      if (cn) f(cn, undefined, rc, fieldPE(k));
    }
  }
}

/**
 * The item pairs of lists where an element repeats (a live object may hold duplicates),
 * as structured-merge-diff compares them: repeated items are one leaf, modified when the
 * runs differ; an element that stops or starts repeating is removed or added as a leaf,
 * with its single item on the other side walked as removed or added.
 */
function forEachItemPairWithDuplicates(
  n: Extract<TypeNode, { t: 'list' }>,
  l: unknown[] | undefined,
  rv: unknown[] | undefined,
  f: (node: TypeNode, lc: unknown, rc: unknown, pe: PathElement) => void,
): void {
  const byPE = (list: unknown[] | undefined): Map<PathElement, unknown[]> => {
    const m = new Map<PathElement, unknown[]>();
    (Array.isArray(list) ? list : []).forEach((item, i) => {
      const pe = itemPE(n, item, i);
      const run = m.get(pe);
      if (run) run.push(item);
      else m.set(pe, [item]);
    });
    return m;
  };
  const lm = byPE(l);
  const rm = byPE(rv);
  const all = [...lm.keys(), ...[...rm.keys()].filter((pe) => !lm.has(pe))];
  for (const pe of all) {
    const ls = lm.get(pe) ?? [];
    const rs = rm.get(pe) ?? [];
    if (ls.length <= 1 && rs.length <= 1) f(n.elem, ls[0], rs[0], pe);
    else if (ls.length >= 2 && rs.length >= 2) f(SCALAR, ls, rs, pe);
    else if (ls.length >= 2) {
      if (rs.length) f(n.elem, undefined, rs[0], pe);
      f(SCALAR, ls, undefined, pe);
    } else {
      if (ls.length) f(n.elem, ls[0], undefined, pe);
      f(SCALAR, undefined, rs, pe);
    }
  }
}

// ---- Merge (apply) ----

/** live ⊕ config: the config's value wins at every leaf; granular lists and maps merge by element. */
export function merge(r: TypeResolver, root: TypeNode, lhs: unknown, rhs: unknown): unknown {
  return mergeNode(r, root, lhs, rhs);
}

function mergeNode(r: TypeResolver, node: TypeNode, l: unknown, rv: unknown): unknown {
  const n = resolve(node, rv !== undefined ? rv : l);
  if (isLeaf(n, l, rv)) return rv !== undefined ? rv : l;
  if (n.t === 'list') {
    const out = mergeList(r, n, l, rv);
    return out.length ? out : undefined;
  }
  if (n.t === 'map' || n.t === 'struct') {
    const lo = isObj(l) ? l : undefined;
    const ro = isObj(rv) ? rv : undefined;
    const out: Obj = {};
    let any = false;
    if (lo) {
      for (const k in lo) {
        const lc = lo[k];
        if (lc === undefined) continue;
        const cn = r.childOf(n, k);
        const rc = ro ? ro[k] : undefined;
        const m = cn ? mergeNode(r, cn, lc, rc) : rc !== undefined ? rc : lc;
        if (m !== undefined) {
          out[k] = m;
          any = true;
        }
      }
    }
    if (ro) {
      for (const k in ro) {
        const rc = ro[k];
        if (rc === undefined || (lo && lo[k] !== undefined)) continue;
        const cn = r.childOf(n, k);
        const m = cn ? mergeNode(r, cn, undefined, rc) : rc;
        if (m !== undefined) {
          out[k] = m;
          any = true;
        }
      }
    }
    return any ? out : undefined;
  }
  return rv !== undefined ? rv : l;
}

/**
 * Merged list order as structured-merge-diff orders it: live order is kept, items the config
 * shares with live appear in the config's order, and new config items are placed where the
 * config puts them relative to the shared ones.
 */
function mergeList(r: TypeResolver, n: Extract<TypeNode, { t: 'list' }>, l: unknown, rv: unknown): unknown[] {
  const li = indexItems(n, l);
  const ri = indexItems(n, rv);
  const out: unknown[] = [];
  const shared = ri.order.filter((pe) => li.has(pe));
  let si = 0;
  // A live list may repeat an element (the configuration may not): the repeats stay as they
  // are where the configuration leaves the element alone, and give way to its one item where
  // it sets it.
  const repeats = li.dups ? repeatedItems(n, l as unknown[]) : undefined;
  const emit = (pe: PathElement, lc: unknown, rc: unknown) => {
    const run = repeats?.get(pe);
    if (run) {
      if (rc === undefined) out.push(...run);
      else {
        const m = mergeNode(r, n.elem, undefined, rc);
        if (m !== undefined) out.push(m);
      }
      return;
    }
    const m = mergeNode(r, n.elem, lc, rc);
    if (m !== undefined) out.push(m);
  };
  let lI = 0;
  let rI = 0;
  const lLen = li.order.length;
  const rLen = ri.order.length;
  let guard = 0;
  while (lI < lLen || rI < rLen) {
    if (++guard > 4 * (lLen + rLen) + 8) break;
    const next = si < shared.length ? shared[si] : undefined;
    if (lI < lLen && rI < rLen) {
      const pe = li.order[lI];
      if (pe === ri.order[rI]) {
        emit(pe, li.get(pe), ri.get(pe));
        lI++;
        rI++;
        si++;
        continue;
      }
      if (ri.has(pe) && next !== undefined && next !== pe) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const pe = li.order[lI];
      if (!ri.has(pe)) {
        emit(pe, li.get(pe), undefined);
        lI++;
        continue;
      }
      if (rI >= rLen) {
        lI++;
        continue;
      }
    }
    if (rI < rLen) {
      const pe = ri.order[rI];
      emit(pe, li.get(pe), ri.get(pe));
      rI++;
      if (next === pe) si++;
    }
  }
  return out;
}

/** The items of elements that occur more than once, by element. */
function repeatedItems(n: Extract<TypeNode, { t: 'list' }>, list: unknown[]): Map<PathElement, unknown[]> {
  const all = new Map<PathElement, unknown[]>();
  list.forEach((item, i) => {
    const pe = itemPE(n, item, i);
    const run = all.get(pe);
    if (run) run.push(item);
    else all.set(pe, [item]);
  });
  for (const [pe, run] of all) if (run.length < 2) all.delete(pe);
  return all;
}

// ---- RemoveItems ----

/** The value without the paths of `set` (a member path removes that field or item whole). */
export function removeItems(r: TypeResolver, root: TypeNode, v: unknown, set: FieldSet): unknown {
  return removeNode(r, root, v, set);
}

function removeNode(r: TypeResolver, node: TypeNode, v: unknown, set: FieldSet): unknown {
  const n = resolve(node, v);
  // What is left of a list or map that is empty (or emptied, or atomic) is null, as
  // structured-merge-diff's removal leaves it; the parent keeps the key.
  if (n.t === 'list') {
    if (!Array.isArray(v)) return v;
    if (v.length === 0 || n.rel === 'atomic') return null;
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const pe = itemPE(n, v[i], i);
      if (set.members.has(pe)) continue;
      const sub = set.children.get(pe);
      out.push(sub ? removeNode(r, n.elem, v[i], sub) : v[i]);
    }
    return out.length ? out : null;
  }
  if (n.t === 'map' || n.t === 'struct') {
    if (!isObj(v)) return v;
    if (noKeys(v) || n.atomic) return null;
    const out: Obj = {};
    let any = false;
    for (const k of Object.keys(v)) {
      const pe = fieldPE(k);
      if (set.members.has(pe)) continue;
      const sub = set.children.get(pe);
      const cn = r.childOf(n, k);
      out[k] = sub ? removeNode(r, cn ?? DEDUCED, v[k], sub) : v[k];
      any = true;
    }
    return any ? out : null;
  }
  return v;
}

// ---- EnsureNamedFieldsAreMembers ----

/**
 * The set with every declared struct field that has paths below it made a member too
 * (structured-merge-diff's EnsureNamedFieldsAreMembers): the removal steps of an apply treat
 * a struct as owned, whole, by whoever owns something in it. Map keys and list items are
 * left as they are.
 */
export function ensureNamedFields(r: TypeResolver, node: TypeNode, set: FieldSet): FieldSet {
  if (set.children.size === 0) return set;
  const out = new FieldSet();
  for (const m of set.members) out.addMember(m);
  for (const [pe, c] of set.children) {
    let cn: TypeNode | undefined;
    if (pe.charCodeAt(0) === 102 && (node.t === 'struct' || node.t === 'map')) {
      const name = pe.slice(2);
      if (node.t === 'struct' && node.fields.has(name)) out.addMember(pe);
      cn = r.childOf(node, name);
    } else if (pe.charCodeAt(0) === 107 && node.t === 'list') {
      cn = node.elem;
    }
    out.setChild(pe, cn ? ensureNamedFields(r, cn, c) : c);
  }
  return out;
}

// ---- the zero object ----

/**
 * A kind's zero value as Go's JSON encoding writes it (the live object an operation on a
 * missing object is compared against): non-omitempty fields at their zero, structs always
 * (encoding/json never omits a struct), metav1.Time as null, pointers and omitempty scalars,
 * slices and maps left out.
 */
export function zeroObject(registry: SchemaRegistry, definition: string): Obj {
  return zeroStruct(registry, definition, 0) ?? {};
}

function zeroStruct(registry: SchemaRegistry, name: string, depth: number): Obj | undefined {
  const s = registry[name];
  if (!s || depth > 12) return undefined;
  const out: Obj = {};
  for (const f of s.fields) {
    const z = zeroField(registry, f, depth);
    if (z !== undefined) out[f.name] = z;
  }
  return out;
}

function zeroField(registry: SchemaRegistry, f: FieldSchema, depth: number): unknown {
  const t = f.type;
  if (f.pointer) return f.omitempty ? undefined : null;
  switch (t.kind) {
    case 'ref':
      return zeroStruct(registry, t.name, depth + 1);
    case 'time':
    case 'microTime':
      return null;
    case 'quantity':
      return '0';
    case 'intOrString':
      return 0;
    case 'any':
      return f.omitempty ? undefined : null;
    default:
      break;
  }
  if (f.omitempty) return undefined;
  switch (t.kind) {
    case 'string':
    case 'bytes':
      return t.kind === 'bytes' ? null : '';
    case 'boolean':
      return false;
    case 'int32':
    case 'int64':
    case 'number':
      return 0;
    default:
      return null;
  }
}

// ---- schema check ----

/**
 * What the type converter refuses in an apply configuration, each as `<path>: <what>`
 * (`.spec.foo: field not declared in schema`, `.spec.template.spec.containers[name="c"].ports:
 * duplicate entries for key [containerPort=80,protocol="TCP"]`), in the order of the walk:
 * a list's repeated elements before what is inside its items.
 */
export function configTypeErrors(r: TypeResolver, root: TypeNode, v: unknown): string[] {
  const out: string[] = [];
  typeErrorsIn(r, root, v, [], out);
  return out;
}

function typeErrorsIn(r: TypeResolver, node: TypeNode, v: unknown, path: PathElement[], out: string[]): void {
  const n = resolve(node, v);
  if (n.t === 'list' && Array.isArray(v)) {
    const pes: PathElement[] = [];
    const seen = new Set<PathElement>();
    for (let i = 0; i < v.length; i++) {
      let pe: PathElement;
      try {
        pe = itemPE(n, v[i], i);
      } catch {
        pe = indexPE(i);
      }
      if (n.rel !== 'atomic' && seen.has(pe)) out.push(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
      seen.add(pe);
      pes.push(pe);
    }
    for (let i = 0; i < v.length; i++) typeErrorsIn(r, n.elem, v[i], [...path, pes[i]], out);
  } else if ((n.t === 'struct' || n.t === 'map') && isObj(v)) {
    for (const k of Object.keys(v)) {
      const cn = r.childOf(n, k);
      if (!cn) {
        out.push(`${pathString([...path, fieldPE(k)])}: field not declared in schema`);
        continue;
      }
      typeErrorsIn(r, cn, v[k], [...path, fieldPE(k)], out);
    }
  } else if (n.t === 'scalar' && n.scalar && v !== null && v !== undefined) {
    const e = scalarError(n.scalar, v);
    if (e) out.push(`${pathString(path)}: ${e}`);
  }
}

/**
 * structured-merge-diff's scalar check, in its words: a numeric field takes any number (its
 * range is checked only when the merged object converts), and names what it got by Go's %T; a
 * string field quotes the value with %#v, a boolean one with %v. A number beyond float64 is
 * text to it (the YAML reader leaves 1e400 a string).
 */
function scalarError(kind: ScalarKind, v: unknown): string | undefined {
  const isNumber = typeof v === 'number' ? Number.isFinite(v) : v instanceof JsonNumber && Number.isFinite(v.value);
  switch (kind) {
    case 'numeric':
      return isNumber ? undefined : `expected numeric (int or float), got ${goTypeOf(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got &{${goPlainV(v)}}`;
  }
}

/** Go's %T of a decoded JSON value. */
function goTypeOf(v: unknown): string {
  if (typeof v === 'string' || (typeof v === 'number' && !Number.isFinite(v)) || (v instanceof JsonNumber && !Number.isFinite(v.value))) return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (isObj(v)) return 'map[string]interface {}';
  return 'float64';
}

