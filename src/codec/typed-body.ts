// Decoding a request body into an object of the endpoint's kind, through the schema:
// the body's own apiVersion/kind are read first (as kube's decoder does), then the typed
// decode drops unknown fields, sees duplicate keys, and fails on wrong types. What the
// client asked with fieldValidation decides whether those issues warn or reject.

import { badRequest, unsupportedMediaType } from '../machinery/errors.js';
import type { FieldValidation } from '../machinery/options.js';
import {
  DecodeError,
  cannotBeHandledMessage,
  decodeTyped,
  fieldValidationMessage,
  interpretTypeMeta,
  jsonSyntaxCause,
  unrecognizedObjectMessage,
} from '../schema/decode.js';
import { JsonSyntaxError, type JsonDuplicate } from '../machinery/json-scan.js';
import { parseJsonBody } from './json.js';
import { goDecodeUtf8, yamlBodyText } from '../machinery/utf8.js';
import { YamlDecodeError, parseYamlWithDuplicates, type YamlDuplicate } from '../schema/yaml-dups.js';
import type { SchemaRegistry } from '../schema/model.js';
import { baseMediaType, bodyMediaTypes } from './body.js';
import { PROTOBUF_MEDIA_TYPE, ProtobufDecodeError, decodeProtobufObject } from './protobuf/index.js';
import { CBOR_MEDIA_TYPE, cborEnabled, decodeCborTypedBody } from './cbor/index.js';
import type { GroupVersionKind } from '../machinery/api-resource.js';
import { checkTarget, type TypedTarget } from './typed-target.js';

export type { TypedTarget };

export interface TypedBody {
  object: Record<string, unknown>;
  /** Warning header texts (fieldValidation=Warn). */
  warnings: string[];
}

export function decodeTypedBody(
  body: Buffer,
  contentType: string | undefined,
  target: TypedTarget,
  registry: SchemaRegistry,
  fieldValidation: FieldValidation,
): TypedBody {
  const mt = baseMediaType(contentType) || 'application/json';
  let doc: unknown;
  let duplicates: JsonDuplicate[] = [];
  let yamlDuplicates: YamlDuplicate[] | undefined;
  const unrecognized = (cause: string) => badRequest(unrecognizedObjectMessage(target.kind, cause, body));
  if (mt === CBOR_MEDIA_TYPE && cborEnabled()) {
    // CBOR has its own rules for repeated keys and unknown fields (see cbor/typed.ts).
    const r = decodeCborTypedBody(body, target, registry, fieldValidation, (gvk) => checkTarget(gvk, target));
    return { object: r.object, warnings: r.warnings };
  }
  if (mt === 'application/json') {
    try {
      const parsed = parseJsonBody(goDecodeUtf8(body), { numbers: 'literal', duplicateObjects: 'merge' });
      doc = parsed.value;
      duplicates = parsed.duplicates;
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw unrecognized(jsonSyntaxCause(e.message));
      throw e;
    }
  } else if (mt === 'application/yaml') {
    const read = yamlBodyText(body);
    if ('error' in read) throw unrecognized(`yaml: ${read.error}`);
    try {
      const parsed = parseYamlWithDuplicates(read.text, { exactIntegers: true, readerFault: read.fault });
      doc = parsed.value;
      yamlDuplicates = parsed.duplicates;
    } catch (e) {
      if (e instanceof YamlDecodeError) throw unrecognized(e.message);
      throw e;
    }
  } else if (mt === PROTOBUF_MEDIA_TYPE) {
    try {
      doc = decodeProtobufObject(body, { apiVersion: target.group ? `${target.group}/${target.version}` : target.version, kind: target.kind }).object;
    } catch (e) {
      if (e instanceof ProtobufDecodeError) {
        if (!e.gvk) throw unrecognized(e.message);
        const version = e.gvk.apiVersion.slice(e.gvk.apiVersion.indexOf('/') + 1);
        throw badRequest(cannotBeHandledMessage(e.gvk.kind, version, target.kind, e.message));
      }
      throw e;
    }
  } else {
    throw unsupportedMediaType(mt, bodyMediaTypes());
  }

  return decodeTypedDocument(doc, target, registry, fieldValidation, {
    duplicates,
    yamlDuplicates,
    sortKeys: mt === 'application/yaml',
    reuse: true,
    unrecognized,
  });
}

/**
 * A parsed document (JSON numbers kept as their literals where it matters) decoded as an
 * object of the target kind: what a body goes through after its syntax, and what a patched
 * object goes through without being written out and read again.
 */
export function decodeTypedDocument(
  doc: unknown,
  target: TypedTarget,
  registry: SchemaRegistry,
  fieldValidation: FieldValidation,
  opts: {
    duplicates?: JsonDuplicate[];
    yamlDuplicates?: YamlDuplicate[];
    sortKeys?: boolean;
    /** The document was parsed for this call alone: what needs no change is kept, not copied. */
    reuse?: boolean;
    unrecognized?: (cause: string) => Error;
    /** How integers convert (schema/decode.ts DecodeTypedOptions.integers). */
    integers?: 'json' | 'unstructured';
  } = {},
): TypedBody {
  const unrecognized = opts.unrecognized ?? ((cause: string) => badRequest(cause));
  const duplicates = opts.duplicates ?? [];
  const yamlDuplicates = opts.yamlDuplicates;
  let gvk: GroupVersionKind;
  try {
    gvk = interpretTypeMeta(doc);
  } catch (e) {
    if (e instanceof DecodeError) throw unrecognized(e.message);
    throw e;
  }
  checkTarget(gvk, target);
  // A body may leave apiVersion/kind out: the endpoint supplies them.
  const kind = gvk.kind || target.kind;
  const version = gvk.version || target.version;
  let decoded;
  try {
    // The document was parsed for this call alone: what needs no change is kept, not copied.
    decoded = decodeTyped(doc, target.definition, registry, { duplicates, sortKeys: opts.sortKeys ?? false, reuse: opts.reuse ?? false, integers: opts.integers });
  } catch (e) {
    if (e instanceof DecodeError) throw badRequest(cannotBeHandledMessage(kind, version, target.kind, e.message));
    throw e;
  }
  const verdict = fieldValidationMessage(fieldValidation, { kind, version, targetKind: target.kind }, { strictErrors: decoded.strictErrors, yamlDuplicates });
  if (verdict.error) throw badRequest(verdict.error);
  return { object: decoded.object, warnings: verdict.warnings };
}
