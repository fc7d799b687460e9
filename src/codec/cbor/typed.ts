// A CBOR request body decoded into an object of the endpoint's kind, as kube's CBOR
// serializer does it (runtime/serializer/cbor/cbor.go):
//
//  1. apiVersion/kind are read first (a lax decode into TypeMeta). Anything that fails
//     here (not well-formed, past a limit, a repeated top-level key, a non-string
//     apiVersion) is `the object provided is unrecognized (must be of type X): unable to
//     determine group/version/kind: <cbor error> (<hex of the first 30 bytes>)`;
//  2. the body is decoded into the kind's type through the same schema as JSON bodies
//     (typed-body.ts), so defaults, wrong types and dropped unknown fields are alike;
//  3. unlike JSON, a repeated map key is never a warning: kube rejects the body where its
//     decoder meets the repeat (not inside an unknown field, which it skips);
//  4. with fieldValidation Warn or Strict, the first unknown field is kube's one strict
//     error, `cbor: found unknown field at map element index N` (fxamacker/cbor reports
//     only the index, within the map that holds the field).

import { badRequest } from '../../machinery/errors.js';
import type { FieldValidation } from '../../machinery/options.js';
import { DecodeError, cannotBeHandledMessage, decodeTyped, unrecognizedObjectMessage } from '../../schema/decode.js';
import { JsonNumber } from '../../machinery/json-scan.js';
import type { SchemaRegistry } from '../../schema/model.js';
import { CborDecodeError, decodeCbor, duplicateKeyMessage, type CborDocument } from './decode.js';
import type { GroupVersionKind } from '../../machinery/api-resource.js';
import type { TypedTarget } from '../typed-target.js';

export interface CborTypedBody {
  object: Record<string, unknown>;
  warnings: string[];
  /** The body's group/version/kind (defaults from the endpoint filled in). */
  gvk: GroupVersionKind;
}

/** fxamacker/cbor's name for the CBOR type a decoded value came from. */
function cborTypeName(v: unknown): string {
  if (typeof v === 'string') return 'byte string';
  if (Array.isArray(v)) return 'array';
  if (v instanceof JsonNumber) {
    if (/[.eE]/.test(v.raw)) return 'primitives';
    return v.raw.startsWith('-') ? 'negative integer' : 'positive integer';
  }
  if (typeof v === 'object' && v !== null) return 'map';
  return 'primitives';
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** The lax TypeMeta pass: exact (case-sensitive) keys, string values, then the group/version. */
function interpret(doc: unknown): GroupVersionKind {
  if (doc !== null && !isMap(doc)) {
    const why = Array.isArray(doc) ? ' (cannot decode CBOR array to struct without toarray option)' : '';
    throw new DecodeError(`cbor: cannot unmarshal ${cborTypeName(doc)} into Go value of type v1.TypeMeta${why}`);
  }
  const field = (name: 'apiVersion' | 'kind'): string => {
    const v = doc?.[name];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') {
      throw new DecodeError(`cbor: cannot unmarshal ${cborTypeName(v)} into Go struct field v1.TypeMeta.${name} of type string`);
    }
    return v;
  };
  const apiVersion = field('apiVersion');
  const kind = field('kind');
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const parts = apiVersion.split('/');
  // TypeMeta.GroupVersionKind() drops an apiVersion that does not parse; the endpoint's
  // group/version then stand in, as for a body without one.
  if (parts.length > 2) return { group: '', version: '', kind };
  if (parts.length === 1) return { group: '', version: apiVersion, kind };
  return { group: parts[0], version: parts[1], kind };
}

/** Splits kube's field path (`spec.containers[0].foo`) into keys and indexes. */
function pathTokens(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = /^([\s\S]*?)((?:\[\d+\])*)$/.exec(part)!;
    if (m[1] !== '' || m[2] === '') out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** The map holding the field at `path` and the field's key (keys may contain dots). */
function locate(node: unknown, toks: (string | number)[]): { parent: Record<string, unknown>; key: string } | undefined {
  if (toks.length === 0) return undefined;
  const [first] = toks;
  if (typeof first === 'number') {
    return Array.isArray(node) ? locate(node[first], toks.slice(1)) : undefined;
  }
  if (!isMap(node)) return undefined;
  // Longest key first: a key may itself hold dots.
  for (let n = toks.length; n >= 1; n--) {
    const slice = toks.slice(0, n);
    if (slice.some((t) => typeof t === 'number')) continue;
    const key = slice.join('.');
    if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
    if (n === toks.length) return { parent: node, key };
    const found = locate(node[key], toks.slice(n));
    if (found) return found;
  }
  return undefined;
}

/** Where a top-level field sits in the body's top-level map. */
function topIndex(doc: CborDocument, key: string | number | undefined): number {
  if (!isMap(doc.value) || typeof key !== 'string') return -1;
  return (doc.keyOrder.get(doc.value) ?? Object.keys(doc.value)).indexOf(key);
}

function unknownFieldMessage(doc: CborDocument, path: string): string {
  const at = locate(doc.value, pathTokens(path));
  const index = at ? (doc.keyOrder.get(at.parent) ?? Object.keys(at.parent)).indexOf(at.key) : 0;
  return `cbor: found unknown field at map element index ${Math.max(0, index)}`;
}

/**
 * The typed decoder words a wrong type as encoding/json does; kube's CBOR decoder
 * (fxamacker/cbor) says it in CBOR terms, and names the field by the outermost struct and
 * its field (each enclosing struct renames the error on its way out), e.g.
 * `cbor: cannot unmarshal byte string into Go struct field v1.StatefulSet.spec of type int32`.
 */
function cborTypeMessage(message: string, doc: CborDocument, kind: string): string {
  const m = /^json: cannot unmarshal (string|number(?: (\S+))?|bool|array|object) into Go (?:struct field (\S+)|value) of type (.+)$/.exec(message);
  if (!m) return message;
  const [, what, literal, field, goType] = m;
  let cbor: string;
  let detail = '';
  if (what === 'string') cbor = doc.textStrings > 0 && doc.byteStrings === 0 ? 'UTF-8 text string' : 'byte string';
  else if (what === 'bool') cbor = 'primitives';
  else if (what === 'array') cbor = 'array';
  else if (what === 'object') cbor = 'map';
  else if (literal === undefined || /^-?[0-9]+$/.test(literal)) {
    cbor = literal?.startsWith('-') ? 'negative integer' : 'positive integer';
    if (literal !== undefined && /^u?int(8|16|32|64)?$/.test(goType)) detail = ` (${literal} overflows ${goType})`;
  } else cbor = 'primitives';
  // A struct destination (package.Type) refuses an array with fxamacker's own reason.
  if (cbor === 'array' && /^\*?[a-z0-9]+\.[A-Z]\w*$/.test(goType)) detail = ' (cannot decode CBOR array to struct without toarray option)';
  if (field === undefined) return `cbor: cannot unmarshal ${cbor} into Go value of type ${goType}${detail}`;
  // JSON names `<InnerStruct>.<field path>`; the path's first field belongs to the kind's struct.
  const top = field.split('.')[1] ?? field;
  return `cbor: cannot unmarshal ${cbor} into Go struct field v1.${kind}.${top} of type ${goType}${detail}`;
}

const under = (path: string, prefix: string): boolean =>
  path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);

export function decodeCborTypedBody(
  body: Buffer,
  target: TypedTarget,
  registry: SchemaRegistry,
  fieldValidation: FieldValidation,
  checkTarget: (gvk: GroupVersionKind) => void,
): CborTypedBody {
  const unrecognized = (cause: string) =>
    badRequest(unrecognizedObjectMessage(target.kind, `unable to determine group/version/kind: ${cause}`, body));
  let doc: CborDocument;
  try {
    doc = decodeCbor(body, { numbers: 'literal', nonStringKeys: 'placeholder' });
  } catch (e) {
    if (!(e instanceof CborDecodeError)) throw e;
    if (e.stage === 'wellformed') throw unrecognized(e.message);
    throw badRequest(cannotBeHandledMessage(target.kind, target.version, target.kind, e.message));
  }
  // The TypeMeta pass checks the top-level map's keys for repeats, known or not.
  const topDup = doc.duplicates.find((d) => d.path === '');
  if (topDup) throw unrecognized(duplicateKeyMessage(topDup));

  let gvk: GroupVersionKind;
  try {
    gvk = interpret(doc.value);
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw unrecognized(e.message);
  }
  const kind = gvk.kind || target.kind;
  const version = gvk.version || target.version;
  checkTarget(gvk);

  const cannot = (cause: string) => badRequest(cannotBeHandledMessage(kind, version, target.kind, cause));
  let decoded;
  try {
    decoded = decodeTyped(doc.value, target.definition, registry, { quantityNumbers: false });
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    const message = cborTypeMessage(e.message, doc, target.kind);
    // kube stops at whichever comes first in the body: a repeated key aborts its map at
    // once, a type error is kept while decoding goes on. Told apart here by top-level field.
    const dup = doc.duplicates.find((d) => d.path !== '');
    const field = /^cbor: cannot unmarshal .* into Go struct field v1\.\w+\.(\S+) of type/.exec(message)?.[1];
    if (dup && field !== undefined && topIndex(doc, pathTokens(dup.path)[0]) <= topIndex(doc, field)) throw cannot(duplicateKeyMessage(dup));
    throw cannot(message);
  }
  const known = (path: string): boolean => !decoded.unknownFields.some((u) => under(path, u));
  // Repeats inside unknown fields are skipped over by kube's decoder, never seen.
  const dup = doc.duplicates.find((d) => d.path !== '' && known(d.path));
  if (dup) throw cannot(duplicateKeyMessage(dup));
  // A key that is not a string is an unknown field of a struct, but a wrong type in a map.
  const badKey = doc.nonStringKeys.find((n) => known(n.path ? `${n.path}.${n.key}` : n.key));
  if (badKey) {
    const top = String(pathTokens(badKey.path)[0]);
    throw cannot(`cbor: cannot unmarshal ${badKey.type} into Go struct field v1.${target.kind}.${top} of type string`);
  }

  const warnings: string[] = [];
  if (decoded.unknownFields.length > 0 && fieldValidation !== 'Ignore') {
    const msg = unknownFieldMessage(doc, decoded.unknownFields[0]);
    if (fieldValidation === 'Strict') {
      throw badRequest(cannotBeHandledMessage(kind, version, target.kind, `strict decoding error: ${msg}`));
    }
    warnings.push(msg);
  }
  return { object: decoded.object, warnings, gvk: { group: gvk.group, version, kind } };
}
