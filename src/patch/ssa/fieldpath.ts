// Field paths and sets as structured-merge-diff models them, with kube's FieldsV1 wire form.
//
// A path element is kept in its FieldsV1 spelling, which is also its identity:
//   f:<field>          a struct field or map key
//   k:{"name":"x"}     an item of a map list, by its keys (sorted by key name)
//   v:"x"              an item of a set list, by its value
//   i:3                an item of a list without keys, by position
// A set is a trie: at each level, the elements that are members (the path ends there) and
// the children (paths that go deeper). A path can be both; FieldsV1 writes that as `".": {}`.

export type PathElement = string;
export type Path = readonly PathElement[];

const fieldPEs = new Map<string, PathElement>();

/**
 * `f:` element of a field or map key. Interned: the same few names recur on every write, and
 * one string per name keeps its hash, so the sets' lookups do not rehash fresh concatenations.
 */
export function fieldPE(name: string): PathElement {
  let pe = fieldPEs.get(name);
  if (pe === undefined) {
    pe = `f:${name}`;
    if (fieldPEs.size > 50_000) fieldPEs.clear();
    fieldPEs.set(name, pe);
  }
  return pe;
}

/** `k:` element of a map-list item: the key fields sorted by name, as JSON. */
export function keyPE(keys: [string, unknown][]): PathElement {
  if (keys.length === 1) return `k:{${quoted(keys[0][0])}:${stableJson(keys[0][1])}}`;
  const sorted = keys.length > 1 ? keys.slice().sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) : keys;
  let s = 'k:{';
  for (let i = 0; i < sorted.length; i++) {
    if (i) s += ',';
    s += `${quoted(sorted[i][0])}:${stableJson(sorted[i][1])}`;
  }
  return `${s}}`;
}

export const valuePE = (v: unknown): PathElement => `v:${stableJson(v)}`;
export const indexPE = (i: number): PathElement => `i:${i}`;

const quotedNames = new Map<string, string>();

/** JSON.stringify of a string that recurs (key names, path elements), memoized. */
export function quoted(s: string): string {
  let q = quotedNames.get(s);
  if (q === undefined) {
    q = JSON.stringify(s);
    if (quotedNames.size > 50_000) quotedNames.clear();
    quotedNames.set(s, q);
  }
  return q;
}

/** JSON with object keys sorted, as Go writes maps. */
export function stableJson(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}

// ---- ordering (fieldpath.PathElement.Compare and value.Compare) ----

const KIND_RANK: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

function valueRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) - (b as number);
    case 1:
      return cmpStr(a as string, b as string);
    case 2:
      return (a ? 1 : 0) - (b ? 1 : 0);
    case 3: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c) return c;
      }
      return x.length - y.length;
    }
    case 4: {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x).sort();
      const ky = Object.keys(y).sort();
      for (let i = 0; i < Math.min(kx.length, ky.length); i++) {
        const c = cmpStr(kx[i], ky[i]) || compareValues(x[kx[i]], y[ky[i]]);
        if (c) return c;
      }
      return kx.length - ky.length;
    }
    default:
      return 0;
  }
}

const parsedKeys = new Map<string, unknown>();

/** JSON of a k:/v: element, memoized (the same few keys recur on every write). */
function parsedRest(pe: PathElement): unknown {
  let v = parsedKeys.get(pe);
  if (v === undefined) {
    v = JSON.parse(pe.slice(2));
    if (parsedKeys.size > 10_000) parsedKeys.clear();
    parsedKeys.set(pe, v);
  }
  return v;
}

/** Sorts elements in FieldsV1 order; field names alone order as plain strings (UTF-16 units, as cmpStr). */
export function sortPEs(keys: PathElement[]): void {
  for (let i = 0; i < keys.length; i++) {
    if (keys[i].charCodeAt(0) !== 102) {
      keys.sort(comparePE);
      return;
    }
  }
  if (keys.length > 16) {
    keys.sort(cmpStr);
    return;
  }
  // Insertion sort: levels are small and often already in order, and it spares sort's calls.
  for (let i = 1; i < keys.length; i++) {
    const x = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > x) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = x;
  }
}

export function comparePE(a: PathElement, b: PathElement): number {
  // Same kind of field element: the names order as the whole strings do.
  if (a.charCodeAt(0) === 102 && b.charCodeAt(0) === 102) return cmpStr(a, b);
  const ka = KIND_RANK[a[0]] ?? 4;
  const kb = KIND_RANK[b[0]] ?? 4;
  if (ka !== kb) return ka - kb;
  const ra = a.slice(2);
  const rb = b.slice(2);
  switch (a[0]) {
    case 'f':
      return cmpStr(ra, rb);
    case 'i':
      return Number(ra) - Number(rb);
    case 'v':
      return compareValues(parsedRest(a), parsedRest(b));
    case 'k': {
      // FieldList.Compare: field by field (name, then value), then length.
      const x = parsedRest(a) as Record<string, unknown>;
      const y = parsedRest(b) as Record<string, unknown>;
      const kx = Object.keys(x);
      const ky = Object.keys(y);
      for (let i = 0; i < Math.min(kx.length, ky.length); i++) {
        const c = cmpStr(kx[i], ky[i]) || compareValues(x[kx[i]], y[ky[i]]);
        if (c) return c;
      }
      return kx.length - ky.length;
    }
    default:
      return cmpStr(a, b);
  }
}

/** A path as kube prints it in conflicts: `.spec.template.spec.containers[name="app"].image`. */
export function pathString(path: Path): string {
  let s = '';
  for (const pe of path) {
    const rest = pe.slice(2);
    switch (pe[0]) {
      case 'f':
        s += `.${rest}`;
        break;
      case 'k': {
        const o = JSON.parse(rest) as Record<string, unknown>;
        s += `[${Object.keys(o)
          .map((k) => `${k}=${stableJson(o[k])}`)
          .join(',')}]`;
        break;
      }
      case 'v':
        s += `[=${rest}]`;
        break;
      case 'i':
        s += `[${rest}]`;
        break;
      default:
        s += pe;
    }
  }
  return s;
}

export class FieldsV1Error extends Error {}

const NO_MEMBERS: ReadonlySet<PathElement> = new Set();
const NO_CHILDREN: ReadonlyMap<PathElement, FieldSet> = new Map();

/**
 * A set of paths. Sets are built in place (insert, addMember, child) and are read-only from
 * then on: the set operations answer new sets that share unchanged subtrees with their
 * operands (or an operand itself), so a set that took part in one must not be mutated.
 * A level allocates its members and children only once it has some (most levels have one kind).
 */
export class FieldSet {
  private m: Set<PathElement> | undefined = undefined;
  private c: Map<PathElement, FieldSet> | undefined = undefined;

  /** The elements whose paths end at this level. */
  get members(): ReadonlySet<PathElement> {
    return this.m ?? NO_MEMBERS;
  }

  /** The sets of the paths that go deeper, by their element at this level. */
  get children(): ReadonlyMap<PathElement, FieldSet> {
    return this.c ?? NO_CHILDREN;
  }

  addMember(pe: PathElement): void {
    (this.m ??= new Set()).add(pe);
  }

  setChild(pe: PathElement, c: FieldSet): void {
    (this.c ??= new Map()).set(pe, c);
  }

  isEmpty(): boolean {
    return (this.m === undefined || this.m.size === 0) && (this.c === undefined || this.c.size === 0);
  }

  /** The child set at `pe`, created when missing. */
  child(pe: PathElement): FieldSet {
    let c = this.c?.get(pe);
    if (!c) {
      c = new FieldSet();
      (this.c ??= new Map()).set(pe, c);
    }
    return c;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.child(path[i]);
    s.addMember(path[path.length - 1]);
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && s; i++) s = s.children.get(path[i]);
    return s !== undefined && s.members.has(path[path.length - 1]);
  }

  /** A deep copy, free to mutate. */
  clone(): FieldSet {
    const out = new FieldSet();
    if (this.m?.size) out.m = new Set(this.m);
    if (this.c?.size) {
      out.c = new Map();
      for (const [pe, c] of this.c) out.c.set(pe, c.clone());
    }
    return out;
  }

  union(o: FieldSet): FieldSet {
    if (o.isEmpty()) return this;
    if (this.isEmpty()) return o;
    const out = new FieldSet();
    if (this.m?.size || o.m?.size) {
      out.m = new Set(this.m);
      if (o.m) for (const m of o.m) out.m.add(m);
    }
    if (this.c?.size || o.c?.size) {
      const oc = o.c;
      const cs = new Map(this.c);
      if (oc) {
        for (const [pe, c] of oc) {
          const mine = this.c?.get(pe);
          cs.set(pe, mine ? mine.union(c) : c);
        }
      }
      out.c = cs;
    }
    return out;
  }

  /** In place: this ∪= o (o's subtrees are copied, so this stays free to mutate). */
  addAll(o: FieldSet): void {
    for (const m of o.members) this.addMember(m);
    for (const [pe, c] of o.children) {
      const mine = this.c?.get(pe);
      if (mine) mine.addAll(c);
      else this.setChild(pe, c.clone());
    }
  }

  difference(o: FieldSet): FieldSet {
    if (o.isEmpty() || this.isEmpty()) return this;
    const out = new FieldSet();
    let changed = false;
    for (const m of this.members) {
      if (o.members.has(m)) changed = true;
      else out.addMember(m);
    }
    for (const [pe, c] of this.children) {
      const oc = o.children.get(pe);
      if (!oc) {
        out.setChild(pe, c);
        continue;
      }
      const d = c.difference(oc);
      if (d !== c) changed = true;
      if (!d.isEmpty()) out.setChild(pe, d);
    }
    return changed ? out : this;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (o.members.has(m)) out.addMember(m);
    for (const [pe, c] of this.children) {
      const oc = o.children.get(pe);
      if (!oc) continue;
      const d = c.intersection(oc);
      if (!d.isEmpty()) out.setChild(pe, d);
    }
    return out;
  }

  /** Whether the two sets share a path. */
  overlaps(o: FieldSet): boolean {
    const [small, big] = this.members.size <= o.members.size ? [this.members, o.members] : [o.members, this.members];
    for (const m of small) if (big.has(m)) return true;
    for (const [pe, c] of this.children) {
      const oc = o.children.get(pe);
      if (oc && c.overlaps(oc)) return true;
    }
    return false;
  }

  /** Whether every path of this set is in `o`. */
  subsetOf(o: FieldSet): boolean {
    if (this === o) return true;
    for (const m of this.members) if (!o.members.has(m)) return false;
    for (const [pe, c] of this.children) {
      const oc = o.children.get(pe);
      if (!oc || !c.subsetOf(oc)) return false;
    }
    return true;
  }

  /** Whether every path of this set is in the union of `sets` (without building the union). */
  subsetOfUnion(sets: readonly FieldSet[]): boolean {
    for (const m of this.members) if (!sets.some((o) => o.members.has(m))) return false;
    for (const [pe, c] of this.children) {
      const subs: FieldSet[] = [];
      for (const o of sets) {
        const oc = o.children.get(pe);
        if (oc) subs.push(oc);
      }
      if (subs.length === 0 || !c.subsetOfUnion(subs)) return false;
    }
    return true;
  }

  equals(o: FieldSet): boolean {
    return this.subsetOf(o) && o.subsetOf(this);
  }

  /** Without the given top-level fields and everything under them (RecursiveDifference for top-level paths). */
  withoutTopLevel(pes: readonly PathElement[]): FieldSet {
    if (!pes.some((pe) => this.members.has(pe) || this.children.has(pe))) return this;
    const out = new FieldSet();
    out.m = new Set(this.m);
    out.c = new Map(this.c);
    for (const pe of pes) {
      out.m.delete(pe);
      out.c.delete(pe);
    }
    return out;
  }

  /** Every path, members before children at each level, each in element order (Set.Iterate). */
  iterate(f: (p: PathElement[]) => void, prefix: PathElement[] = []): void {
    for (const m of [...this.members].sort(comparePE)) f([...prefix, m]);
    for (const pe of [...this.children.keys()].sort(comparePE)) this.children.get(pe)!.iterate(f, [...prefix, pe]);
  }

  /** FieldsV1 JSON: elements in order, `{}` at a leaf, `".": {}` first where a member also has children. */
  toFieldsV1(): Record<string, unknown> {
    return this.emitObject(false);
  }

  toFieldsV1Json(): string {
    return this.emit(false);
  }

  /** The keys of this level in FieldsV1 order. */
  private sortedKeys(): PathElement[] {
    let keys: PathElement[];
    if (this.children.size === 0) keys = Array.from(this.members);
    else {
      keys = Array.from(this.children.keys());
      if (this.members.size) for (const m of this.members) if (!this.children.has(m)) keys.push(m);
    }
    if (keys.length > 1) sortPEs(keys);
    return keys;
  }

  private emit(includeSelf: boolean): string {
    let out = includeSelf ? '{".":{}' : '{';
    const keys = this.sortedKeys();
    for (let i = 0; i < keys.length; i++) {
      const pe = keys[i];
      if (i > 0 || includeSelf) out += ',';
      const c = this.children.size ? this.children.get(pe) : undefined;
      out += `${quoted(pe)}:${c ? c.emit(this.members.has(pe)) : '{}'}`;
    }
    return out + '}';
  }

  private emitObject(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = includeSelf ? { '.': {} } : {};
    const keys = this.sortedKeys();
    for (let i = 0; i < keys.length; i++) {
      const pe = keys[i];
      const c = this.children.size ? this.children.get(pe) : undefined;
      out[pe] = c ? c.emitObject(this.members.has(pe)) : {};
    }
    return out;
  }

  static fromFieldsV1(v: unknown): FieldSet {
    return FieldSet.readFieldsV1(v).set;
  }

  /**
   * The set FieldsV1 describes, and whether its text is in the order this module (and kube's
   * structured-merge-diff) writes: keys sorted as path elements, `"."` first. kube's /scale
   * writes leave FieldsV1 in Go's map order instead (keys sorted as strings).
   */
  static readFieldsV1(v: unknown): { set: FieldSet; canonical: boolean } {
    if (v === null || v === undefined) return { set: new FieldSet(), canonical: true };
    if (typeof v !== 'object' || Array.isArray(v)) throw new FieldsV1Error('expected an object');
    inOrder = true;
    const set = decodeLevel(v as Record<string, unknown>) ?? new FieldSet();
    return { set, canonical: inOrder };
  }

  /** FieldsV1 as Go's encoding/json writes it from a map: every level's keys sorted as strings. */
  toFieldsV1GoMapOrder(): Record<string, unknown> {
    return sortKeysDeep(this.toFieldsV1()) as Record<string, unknown>;
  }
}

function sortKeysDeep(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = sortKeysDeep(o[k]);
  return out;
}

/** Whether the FieldsV1 object decodeLevel last read had a `"."` key (read right after it returns). */
let lastHadDot = false;

/** Whether every level decodeLevel read so far had its keys in canonical order. */
let inOrder = true;

/**
 * The set FieldsV1 object `o` describes (undefined when it has no elements): `{}` or
 * `".": {}` under a key makes that path a member, any other key goes deeper.
 */
function decodeLevel(o: Record<string, unknown>): FieldSet | undefined {
  let out: FieldSet | undefined;
  let dot = false;
  let prev: PathElement | undefined;
  for (const k in o) {
    if (k === '.') {
      dot = true;
      if (prev !== undefined) inOrder = false;
      continue;
    }
    const c = o[k];
    const t = k.charCodeAt(0);
    if (k.charCodeAt(1) !== 58 || (t !== 102 && t !== 107 && t !== 118 && t !== 105)) throw new FieldsV1Error(`unknown path element ${JSON.stringify(k)}`);
    if (c === null || typeof c !== 'object' || Array.isArray(c)) throw new FieldsV1Error('expected an object');
    const pe = normalizePE(k);
    if (inOrder && prev !== undefined && comparePE(prev, pe) > 0) inOrder = false;
    prev = pe;
    const sub = decodeLevel(c as Record<string, unknown>);
    out ??= new FieldSet();
    if (!sub || lastHadDot) out.addMember(pe);
    if (sub) out.setChild(pe, sub);
  }
  lastHadDot = dot;
  return out;
}

const normalized = new Map<string, PathElement>();

/** Re-spells a k:/v: element as this module writes it, so equal elements are equal strings. */
function normalizePE(k: string): PathElement {
  if (k.charCodeAt(0) === 102 || k.charCodeAt(0) === 105) return k;
  let n = normalized.get(k);
  if (n === undefined) {
    n = respell(k);
    if (normalized.size > 10_000) normalized.clear();
    normalized.set(k, n);
  }
  return n;
}

function respell(k: string): PathElement {
  if (k[0] === 'k') {
    let o: unknown;
    try {
      o = JSON.parse(k.slice(2));
    } catch {
      throw new FieldsV1Error(`invalid key element ${k}`);
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new FieldsV1Error(`invalid key element ${k}`);
    return keyPE(Object.entries(o as Record<string, unknown>));
  }
  if (k[0] === 'v') {
    try {
      return valuePE(JSON.parse(k.slice(2)));
    } catch {
      throw new FieldsV1Error(`invalid value element ${k}`);
    }
  }
  return k;
}
