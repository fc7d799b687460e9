// Strategic merge patch as kube-apiserver applies it (k8s.io/apimachinery
// util/strategicpatch, with MergeParallelList and IgnoreUnmatchedNulls): a merge patch
// whose lists follow the schema's patchStrategy/patchMergeKey markers, plus the
// directives `$patch` (replace | delete, and merge-key list items to delete),
// `$retainKeys`, `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`.
//
// The schema is kapi's own (src/schema): a field's markers come from the same data the
// OpenAPI documents publish, so built-in types patch the way kube's Go struct tags make them.

import type { TypeRef } from '../schema/model.js';
import { SCHEMAS } from '../schema/types/index.js';
import { JsonNumber } from '../machinery/json-scan.js';
import { copyExactInts } from '../machinery/raw-json.js';

type JMap = Record<string, unknown>;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

// k8s.io/apimachinery/pkg/util/mergepatch error texts.
const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
const NO_LIST_OF_LISTS = 'lists of lists are not supported';

/**
 * A patch kube cannot apply. `code` is what kube-apiserver answers: 400 for malformed
 * directives, 422 for the ones it reports generically, 500 for errors it passes through raw.
 */
export class StrategicMergeError extends Error {
  constructor(
    message: string,
    readonly code: 400 | 422 | 500,
  ) {
    super(message);
  }
}

const isMap = (v: unknown): v is JMap => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);

/** Go's %v of a decoded JSON value (map keys sorted, as fmt prints maps). */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  }
  if (v instanceof JsonNumber) return String(v.value);
  return String(v);
}

/** The Go dynamic type a decoded value would have (ints stay int64 in kube's decoding). */
function goType(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (v instanceof JsonNumber) return Number.isInteger(v.value) && !/[.eE]/.test(v.raw) ? 'int64' : 'float64';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

interface PatchMeta {
  type?: TypeRef;
  strategy: string;
  mergeKey: string;
}

/** LookupPatchMetadata: a field's type and markers; a map's values carry no markers. */
function lookup(t: TypeRef | undefined, key: string): PatchMeta {
  if (t?.kind === 'ref') {
    const f = SCHEMAS[t.name]?.fields.find((x) => x.name === key);
    if (!f) return { strategy: '', mergeKey: '' };
    // retainKeys rides along with another strategy ("merge,retainKeys"); $retainKeys works without it.
    const strategy = (f.patchStrategy ?? '').split(',').filter((s) => s && s !== 'retainKeys')[0] ?? '';
    return { type: f.type, strategy, mergeKey: f.patchMergeKey ?? '' };
  }
  if (t?.kind === 'map') return { type: t.values, strategy: '', mergeKey: '' };
  return { strategy: '', mergeKey: '' };
}

const elemOf = (t: TypeRef | undefined): TypeRef | undefined => (t?.kind === 'array' ? t.items : undefined);

/** Applies `patch` to `original` (neither is modified) for the schema definition `root`. */
export function strategicMergePatch(original: JMap, patch: JMap, root: string): JMap {
  return mergeMap(cloneJson(original), cloneJson(patch), { kind: 'ref', name: root });
}

/**
 * A deep copy of a JSON value that keeps its JsonNumbers (structuredClone would make plain
 * objects of them, and an integer beyond 2^53 would lose its literal). Iterative: values nest
 * 10,000 deep.
 */
function cloneJson<V>(v: V): V {
  const copy = (x: unknown): unknown => (x === null || typeof x !== 'object' || x instanceof JsonNumber ? x : Array.isArray(x) ? [...x] : { ...x });
  const root = copy(v);
  if (root !== v && typeof root === 'object' && root !== null) copyExactInts(v as object, root);
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const o = todo.pop() as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const c = o[k];
      if (c === null || typeof c !== 'object' || c instanceof JsonNumber) continue;
      const d = copy(c) as object;
      copyExactInts(c, d);
      // Keys like __proto__ are own data properties here, as JSON parsing made them.
      Object.defineProperty(o, k, { value: d, enumerable: true, writable: true, configurable: true });
      todo.push(d);
    }
  }
  return root as V;
}

function badArgType(expected: string, actual: unknown): StrategicMergeError {
  return new StrategicMergeError(`expected a ${expected}, but received a ${goReflectType(actual)}`, 500);
}

function goReflectType(v: unknown): string {
  const t = goType(v);
  if (t === 'map') return 'map[string]interface {}';
  if (t === 'slice') return '[]interface {}';
  if (t === 'nil') return '%!s(<nil>)';
  return t === 'boolean' ? 'bool' : t;
}

function noMergeKey(m: JMap, key: string): StrategicMergeError {
  return new StrategicMergeError(`map: ${goValue(m)} does not contain declared merge key: ${key}`, 500);
}

function mergeMap(original: JMap, patch: JMap, t: TypeRef | undefined): JMap {
  if (DIRECTIVE in patch) {
    const d = patch[DIRECTIVE];
    if (d === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (d === 'delete') return {};
    throw new StrategicMergeError(`unknown patch type: ${goValue(d)} in map: ${goValue(patch)}`, 500);
  }
  applyRetainKeys(original, patch);
  mergeOrderedLists(original, patch, t);

  for (const k of Object.keys(patch)) {
    const patchV = patch[k];
    let key = k;
    let isDeleteList = false;
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      key = extractKey(k, DELETE_FROM_PRIMITIVE_LIST, BAD_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[key];
      continue;
    }
    if (!(key in original) || goType(original[key]) !== goType(patchV)) {
      // Taken whole: without its directives (a `$patch: delete` item of a list the target
      // does not have is nothing to delete), or not at all when the value is one.
      if (!isDeleteList) {
        const [v, keep] = removeDirectives(discardNulls(patchV));
        if (keep) original[key] = v;
        else delete original[key];
      }
      continue;
    }
    const origV = original[key];
    const meta = lookup(t, key);
    if (isMap(origV)) {
      original[key] = meta.strategy === 'replace' ? patchV : mergeMap(origV, patchV as JMap, meta.type);
    } else if (Array.isArray(origV)) {
      original[key] = mergeSliceHandler(origV, patchV as unknown[], meta, isDeleteList);
    } else {
      original[key] = patchV;
    }
  }
  return original;
}

/** A patch value without `$patch` directives; false when the value itself is one. */
function removeDirectives(v: unknown): [unknown, boolean] {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const [y, keep] = removeDirectives(x);
      if (keep) out.push(y);
    }
    return [out, true];
  }
  if (isMap(v)) {
    if (DIRECTIVE in v) return [undefined, false];
    for (const k of Object.keys(v)) {
      const [y, keep] = removeDirectives(v[k]);
      if (keep) v[k] = y;
      else delete v[k];
    }
  }
  return [v, true];
}

function discardNulls(v: unknown): unknown {
  if (Array.isArray(v)) v.forEach(discardNulls);
  else if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNulls(v[k]);
    }
  }
  return v;
}

function extractKey(s: string, prefix: string, bad: string): string {
  const i = s.indexOf('/');
  if (i < 0 || s.slice(0, i) !== prefix) throw new StrategicMergeError(bad, 400);
  return s.slice(i + 1);
}

/** $retainKeys: keys of `original` not listed go away; the patch may only set listed keys. */
function applyRetainKeys(original: JMap, patch: JMap): void {
  if (!(RETAIN_KEYS in patch)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw new StrategicMergeError(BAD_RETAIN_KEYS, 400);
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw new StrategicMergeError(BAD_RETAIN_KEYS, 400);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** $setElementOrder/<field>: merges that field's list now and orders it as the directive says. */
function mergeOrderedLists(original: JMap, patch: JMap, t: TypeRef | undefined): void {
  for (const dirKey of Object.keys(patch)) {
    if (!dirKey.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[dirKey];
    delete patch[dirKey];
    if (!Array.isArray(order)) throw badArgType('[]interface {}', order);
    const key = extractKey(dirKey, SET_ELEMENT_ORDER, BAD_SET_ELEMENT_ORDER);
    const foundOriginal = key in original;
    const foundPatch = key in patch;
    let origList: unknown[] = [];
    let patchList: unknown[] = [];
    if (foundOriginal) {
      if (!Array.isArray(original[key])) throw badArgType('[]interface {}', original[key]);
      origList = original[key] as unknown[];
    }
    if (foundPatch) {
      if (!Array.isArray(patch[key])) throw badArgType('[]interface {}', patch[key]);
      patchList = patch[key] as unknown[];
    }
    const meta = lookup(t, key);
    validateAgainstOrder(patchList, order, meta.mergeKey);
    let merged: unknown[];
    if (foundOriginal && foundPatch) merged = mergeSliceHandler(origList, patchList, meta, false);
    else if (foundOriginal) merged = origList;
    else if (foundPatch) merged = patchList;
    else continue;
    const [inOrder, serverOnly] = partition(merged, order, meta.mergeKey);
    const kind = sliceElementType([origList, patchList]);
    original[key] = normalizeElementOrder(inOrder, serverOnly, order, origList, meta.mergeKey, kind);
    delete patch[key];
  }
}

/** The patch list's items must appear in the $setElementOrder list in the same relative order. */
function validateAgainstOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (!order.length || !patchList.length) return;
  const kept = mergeKey ? patchList.filter((v) => !(isMap(v) && v[DIRECTIVE] === 'delete')) : patchList;
  if (mergeKey && patchList.some((v) => !isMap(v))) throw badArgType('map[string]interface {}', patchList.find((v) => !isMap(v)));
  let p = 0;
  let o = 0;
  while (p < kept.length && o < order.length) {
    const item = kept[p];
    if (isMap(item) && DIRECTIVE in item) {
      p++;
      continue;
    }
    if (mergeKeyEqual(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < kept.length && o >= order.length) {
    throw new StrategicMergeError(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goValue(order)}\n`, 500);
  }
}

function mergeKeyEqual(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isMap(a)) throw badArgType('map[string]interface {}', a);
  if (!isMap(b)) throw badArgType('map[string]interface {}', b);
  if (!(mergeKey in a)) throw noMergeKey(a, mergeKey);
  if (!(mergeKey in b)) throw noMergeKey(b, mergeKey);
  return a[mergeKey] === b[mergeKey];
}

function mergeSliceHandler(original: unknown[], patch: unknown[], meta: PatchMeta, isDeleteList: boolean): unknown[] {
  // A deletion list works the same whatever the field's strategy.
  if (meta.strategy === 'merge' || isDeleteList) return mergeSlice(original, patch, elemOf(meta.type), meta.mergeKey, isDeleteList);
  return patch;
}

/** The one Go type all elements share; lists of lists and mixed lists are refused. */
function sliceElementType(slices: unknown[][]): string {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === 'slice') throw new StrategicMergeError(NO_LIST_OF_LISTS, 422);
      } else if (prev !== t) {
        throw new StrategicMergeError(`list element types are not identical: ${goValue(slices)}`, 500);
      }
    }
  }
  if (prev === undefined) throw new StrategicMergeError('no elements in any of the given slices', 500);
  return prev;
}

function mergeSlice(original: unknown[], patch: unknown[], elem: TypeRef | undefined, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (!original.length && !patch.length) return original;
  const kind = sliceElementType([original, patch]);
  let merged: unknown[];
  if (kind !== 'map') {
    if (isDeleteList) {
      const drop = new Set(patch);
      return original.filter((v) => !drop.has(v));
    }
    merged = dedupe([...original, ...patch]);
  } else {
    if (!mergeKey) throw new StrategicMergeError(`cannot merge lists without merge key for ${elem?.kind === 'ref' ? elem.name : 'map'}`, 500);
    [original, patch] = applyListDirectives(original, patch, mergeKey);
    merged = mergeByKey(original, patch, mergeKey, elem);
  }
  const [inPatch, serverOnly] = partition(merged, patch, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, patch, original, mergeKey, kind);
}

function dedupe(list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of list) if (!out.includes(v)) out.push(v);
  return out;
}

/** Items with `$patch`: delete removes the keyed item; replace makes the rest of the patch the list. */
function applyListDirectives(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const m = v as JMap;
    if (!(DIRECTIVE in m)) {
      plain.push(v);
      continue;
    }
    const d = m[DIRECTIVE];
    if (d === 'delete') {
      if (!(mergeKey in m)) throw noMergeKey(m, mergeKey);
      original = original.filter((e, i) => {
        if (!isMap(e)) throw new StrategicMergeError(`value for key ${i} is not a map.`, 500);
        return !(mergeKey in e && e[mergeKey] === m[mergeKey]);
      });
    } else if (d === 'replace') {
      replace = true;
    } else if (d === 'merge') {
      throw new StrategicMergeError('merging lists cannot yet be specified in the patch', 500);
    } else {
      throw new StrategicMergeError(`unknown patch type: ${goValue(d)} in map: ${goValue(m)}`, 500);
    }
  }
  return replace ? [plain, []] : [original, plain];
}

function findByKey(list: unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (!isMap(e)) throw new StrategicMergeError(`value for key ${i} is not a map.`, 500);
    if (mergeKey in e && e[mergeKey] === value) return i;
  }
  return -1;
}

/** Merges keyed items into a copy of `original`; new items go to the end of the copy only. */
function mergeByKey(original: unknown[], patch: unknown[], mergeKey: string, elem: TypeRef | undefined): unknown[] {
  // The caller orders the result by `original` as it was: Go's append leaves its slice short.
  original = [...original];
  for (const v of patch) {
    const m = v as JMap;
    if (!(mergeKey in m)) throw noMergeKey(m, mergeKey);
    const i = findByKey(original, mergeKey, m[mergeKey]);
    if (i >= 0) original[i] = mergeMap(original[i] as JMap, m, elem);
    else original.push(v);
  }
  return original;
}

/** Splits `list` into the items present in `by` (by merge key for maps) and the rest. */
function partition(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inBy: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of list) {
    let found: boolean;
    if (mergeKey) {
      if (!isMap(v)) throw badArgType('map[string]interface {}', v);
      if (!(mergeKey in v)) throw noMergeKey(v, mergeKey);
      found = findByKey(by, mergeKey, v[mergeKey]) >= 0;
    } else {
      found = by.includes(v);
    }
    (found ? inBy : rest).push(v);
  }
  return [inBy, rest];
}

function indexIn(list: unknown[], v: unknown, mergeKey: string, kind: string): number {
  const val = (x: unknown) => (kind === 'map' ? (isMap(x) ? x[mergeKey] : undefined) : x);
  const want = val(v);
  return list.findIndex((x) => val(x) === want);
}

/** Sorts `items` by their position in `order`; items marked for deletion go last. */
function normalizeSliceOrder(items: unknown[], order: unknown[], mergeKey: string, kind: string): unknown[] {
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    for (const v of [...items, ...order]) {
      if (!isMap(v)) throw badArgType('map[string]interface {}', v);
      if (!(mergeKey in v)) throw noMergeKey(v, mergeKey);
    }
    toDelete = items.filter((v) => (v as JMap)[DIRECTIVE] === 'delete');
    items = items.filter((v) => (v as JMap)[DIRECTIVE] !== 'delete');
  }
  const sorted = items
    .map((v, i) => ({ v, i, at: indexIn(order, v, mergeKey, kind) }))
    .sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : a.i - b.i))
    .map((x) => x.v);
  return [...sorted, ...toDelete];
}

/**
 * The patch's items in the patch's order, the server-only items in the live order, woven
 * together: a server-only item goes before a patch item only when the live list already
 * had it in front.
 */
function normalizeElementOrder(patchItems: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: string): unknown[] {
  const right = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const left = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}
