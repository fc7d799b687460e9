// The patch types PATCH accepts, each turned from request bytes into a function that
// applies it to the current object: parsing errors surface before the store is touched,
// application errors inside the update loop (so a retry re-applies to the newer object).
// Status codes and texts follow kube-apiserver's patcher (endpoints/handlers/patch.go).

import { featureEnabled } from '../machinery/feature-gates.js';
import { applyJsonPatch, JsonPatchError, type Operation } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { StrategicMergeError, goValue, strategicMergePatch } from '../patch/strategic-merge.js';
import { JsonNumber, JsonSyntaxError, scanJson, type JsonDuplicate } from '../machinery/json-scan.js';
import { StatusError, badRequest } from '../machinery/errors.js';
import type { FieldValidation } from '../machinery/options.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
import { APPLY_PATCH_CBOR, APPLY_PATCH_YAML } from '../codec/apply-body.js';

export { APPLY_PATCH_CBOR, APPLY_PATCH_YAML };

/** maxJSONPatchOperations in kube's patch handler. */
const MAX_JSON_PATCH_OPERATIONS = 10000;

/** The patch types of a built-in resource, in the order kube lists them in its 415. */
export function supportedPatchTypes(): string[] {
  const types = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH_YAML];
  if (featureEnabled('CBORServingAndStorage')) types.push(APPLY_PATCH_CBOR);
  return types;
}

/** go-restful's 415: the PATCH route consumes only the patch types (checked before Accept). */
export function unsupportedPatchType(): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
}

/** Applies a parsed patch to a JSON document; `root` names the document's schema definition. */
export type PatchFn = (doc: Record<string, unknown>, root: string) => unknown;

/** What a patch that cannot be applied gets: kube's generic 422, its cause withheld. */
export function patchRejected(): StatusError {
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
}

/**
 * The patch document and its repeated keys; a syntax error is 400 with `wrap`'s wording.
 * Numbers keep their literal where JS cannot hold it (JsonNumber): a patch is applied to the
 * JSON text in kube, so `3.0` or `1e400` reach the typed decode as written.
 */
function scanPatch(body: string, wrap: (msg: string) => string): { doc: unknown; duplicates: JsonDuplicate[] } {
  try {
    const scanned = scanJson(body, { numbers: 'literal' });
    return { doc: scanned.value, duplicates: scanned.duplicates };
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(wrap(e.message));
    throw e;
  }
}

/** The patch document and, for Warn/Strict, kube's strict findings in it (repeated keys). */
function parseJson(body: string, wrap: (msg: string) => string, fv: FieldValidation): { doc: unknown; strictErrors: string[] } {
  const { doc, duplicates } = scanPatch(body, wrap);
  const strictErrors = fv === 'Ignore' ? [] : duplicates.map((d) => `duplicate field "${d.path}"`);
  return { doc, strictErrors };
}

/**
 * The first number a float64 cannot hold (`1e400`), where kube decodes the patch into
 * interface{} values (Go's strconv.ParseFloat overflows); found without recursion, as a patch
 * may nest 10,000 levels.
 */
export function firstOverflowingNumber(doc: unknown): string | undefined {
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof JsonNumber) {
      if (!Number.isFinite(v.value)) return v.raw;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      const vals = Object.values(v as Record<string, unknown>);
      for (let i = vals.length - 1; i >= 0; i--) stack.push(vals[i]);
    }
  }
  return undefined;
}

/** Go's name for a JSON value's kind in "cannot unmarshal X into ..." messages. */
function jsonKind(v: unknown): string {
  if (v instanceof JsonNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function parseJsonPatch(body: string, fv: FieldValidation): { apply: PatchFn; strictErrors: string[] } {
  const strict = fv !== 'Ignore';
  // With Warn/Strict kube decodes into its own op type first, so errors say so.
  const wrap = (m: string) => (strict ? `error decoding patch: ${m}` : m);
  const { doc, duplicates } = scanPatch(body, wrap);
  const listType = strict ? '[]handlers.jsonPatchOp' : 'jsonpatch.Patch';
  const opType = strict ? 'handlers.jsonPatchOp' : 'jsonpatch.Operation';
  if (doc !== null && !Array.isArray(doc)) throw badRequest(wrap(`json: cannot unmarshal ${jsonKind(doc)} into Go value of type ${listType}`));
  const ops = (doc ?? []) as unknown[];
  for (const op of ops) {
    if (op !== null && (typeof op !== 'object' || Array.isArray(op))) {
      throw badRequest(wrap(`json: cannot unmarshal ${jsonKind(op)} into Go value of type ${opType}`));
    }
    if (strict) {
      for (const f of ['op', 'path', 'from'] as const) {
        const v = (op as Record<string, unknown> | null)?.[f];
        if (v !== undefined && v !== null && typeof v !== 'string') {
          throw badRequest(wrap(`json: cannot unmarshal ${jsonKind(v)} into Go struct field jsonPatchOp.${f} of type string`));
        }
      }
    }
  }
  if (strict) {
    const big = firstOverflowingNumber(doc);
    if (big !== undefined) throw badRequest(wrap(`json: cannot unmarshal number ${big} into Go struct field jsonPatchOp.value of type float64`));
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
    );
  }
  const operations = ops.map((o) => (o ?? {}) as Operation);
  const strictErrors = strict ? opStrictErrors(operations, duplicates) : [];
  const apply: PatchFn = (doc) => {
    try {
      return applyJsonPatch(doc, operations);
    } catch (e) {
      if (e instanceof JsonPatchError) throw patchRejected();
      throw e;
    }
  };
  return { apply, strictErrors };
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * What kube's strict decode of the operations reports (before the object's own findings):
 * repeated keys anywhere in an operation and keys its operation type does not have.
 */
function opStrictErrors(ops: Operation[], duplicates: { path: string }[]): string[] {
  const out: string[] = [];
  ops.forEach((op, i) => {
    const prefix = `[${i}].`;
    for (const d of duplicates) if (d.path.startsWith(prefix)) out.push(`json patch duplicate field "${d.path}"`);
    for (const key of Object.keys(op)) if (!OP_FIELDS.has(key)) out.push(`json patch unknown field "${prefix}${key}"`);
  });
  return out;
}

function parseMergePatch(body: string, fv: FieldValidation): { apply: PatchFn; strictErrors: string[] } {
  const { doc: patch, strictErrors } = parseJson(body, (m) => `error decoding patch: ${m}`, fv);
  const isMap = patch !== null && typeof patch === 'object' && !Array.isArray(patch) && !(patch instanceof JsonNumber);
  // With Warn or Strict kube decodes the patch into a map first (null decodes to a nil map).
  if (!isMap && patch !== null && fv !== 'Ignore') {
    throw badRequest(`error decoding patch: json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`);
  }
  if (!isMap) {
    // json-patch's MergePatch: an array replaces the document (the nulls of its maps pruned),
    // anything else is a bad patch.
    if (!Array.isArray(patch)) throw badRequest('Invalid JSON Patch');
    const replaced = pruneArrayNulls(patch);
    return { apply: () => replaced, strictErrors };
  }
  // With Warn or Strict kube first decodes the patch into a map, whose numbers are float64s.
  const big = fv === 'Ignore' ? undefined : firstOverflowingNumber(patch);
  if (big !== undefined) throw badRequest(`error decoding patch: json: cannot unmarshal number ${big} into Go value of type float64`);
  return { apply: (doc) => applyMergePatch(doc, patch), strictErrors };
}

/** json-patch's pruneAryNulls: maps inside lose their null members (recursively); arrays keep theirs. */
function pruneArrayNulls(a: unknown[]): unknown[] {
  return a.map((x) => prune(x));
  function prune(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(prune);
    if (v !== null && typeof v === 'object' && !(v instanceof JsonNumber)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = prune(x);
      return out;
    }
    return v;
  }
}

function parseStrategicMergePatch(body: string, fv: FieldValidation): { fn: PatchFn; patch: Record<string, unknown>; strictErrors: string[] } {
  const { doc: patch, strictErrors } = parseJson(body, (m) => m, fv);
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch) || patch instanceof JsonNumber) {
    throw badRequest(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`);
  }
  // The strategic patcher always decodes the patch into a map first.
  const big = firstOverflowingNumber(patch);
  if (big !== undefined) throw badRequest(`json: cannot unmarshal number ${big} into Go value of type float64`);
  const p = patch as Record<string, unknown>;
  const fn: PatchFn = (doc, root) => {
    try {
      return strategicMergePatch(doc, p, root);
    } catch (e) {
      if (!(e instanceof StrategicMergeError)) throw e;
      if (e.code === 400) throw badRequest(e.message);
      if (e.code === 422) throw patchRejected();
      // kube passes these through unconverted (its error writer makes them a 500); they are
      // the client's mistake, and kapi never answers bad input with a 500.
      throw badRequest(e.message);
    }
  };
  return { fn, patch: p, strictErrors };
}

export interface ParsedPatch {
  apply: PatchFn;
  /** Findings of a strict decode of the patch itself (fieldValidation Warn/Strict). */
  strictErrors: string[];
  /** How kube quotes the patch in a 422 about the patched object. */
  quote: (patched: unknown) => string;
  /**
   * How the patched document's integers reach the typed object: JSON decoding for JSON and
   * merge patches, the unstructured converter (wrapping int32s) for strategic merge patches.
   */
  integers: 'json' | 'unstructured';
}

export function parsePatch(mediaType: string, body: string, fv: FieldValidation): ParsedPatch {
  const asJson = (patched: unknown) => JSON.stringify(patched);
  switch (mediaType) {
    case JSON_PATCH:
      return { ...parseJsonPatch(body, fv), quote: asJson, integers: 'json' };
    case MERGE_PATCH:
      return { ...parseMergePatch(body, fv), quote: asJson, integers: 'json' };
    case STRATEGIC_MERGE_PATCH: {
      const { fn, patch, strictErrors } = parseStrategicMergePatch(body, fv);
      // kube prints the patch map with %+v for strategic merge patches.
      return { apply: fn, strictErrors, quote: () => goValue(patch), integers: 'unstructured' };
    }
    default:
      throw unsupportedPatchType();
  }
}
