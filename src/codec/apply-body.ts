// Server-Side Apply bodies: an apply configuration in YAML (application/apply-patch+yaml, of
// which JSON is a subset) or CBOR (application/apply-patch+cbor), decoded once into the plain
// value Server-Side Apply merges. Repeated keys in YAML are what fieldValidation judges: kube
// converts YAML to JSON with goyaml.v2's strict mode beside it, so they warn or reject.

import { yamlBodyText } from '../machinery/utf8.js';
import { badRequest, type StatusError } from '../machinery/errors.js';
import { JsonSyntaxError } from '../machinery/json-scan.js';
import type { FieldValidation } from '../machinery/options.js';
import { YamlDecodeError, parseYamlWithDuplicates } from '../schema/yaml-dups.js';
import { applyPatchCborToJson } from './cbor/apply-patch.js';
import { parseJsonBody } from './json.js';
import { plainNumbersKeepingInts } from '../machinery/raw-json.js';

export const APPLY_PATCH_YAML = 'application/apply-patch+yaml';
export const APPLY_PATCH_CBOR = 'application/apply-patch+cbor';

export interface ApplyConfiguration {
  config: Record<string, unknown>;
  /**
   * Warning header texts (repeated YAML keys under fieldValidation=Warn), and the error of the
   * same keys under Strict. kube reads the body strictly only once the apply has merged it
   * (applyPatcher: a conflict or a bad field wins over both), so they are the caller's to give then.
   */
  warnings: string[];
  strictError?: StatusError;
}

/** An apply patch body as the configuration it carries; a body kube cannot read is its 400. */
export function decodeApplyConfiguration(body: Buffer, mediaType: string, fieldValidation: FieldValidation): ApplyConfiguration {
  if (mediaType === APPLY_PATCH_CBOR) return { config: asConfig(applyPatchCborToJson(body)), warnings: [] };
  // kube reads every apply body with its YAML reader (UTF-16 or UTF-8, bad bytes refused as it meets them).
  const read = yamlBodyText(body);
  if ('error' in read) throw badRequest(`error decoding YAML: error converting YAML to JSON: yaml: ${read.error}`);
  const { text } = read;
  // A body the reader refuses somewhere is YAML's to judge (it may fail earlier, or end before).
  const json = read.fault ? undefined : jsonConfig(text);
  if (json !== undefined) return { config: asConfig(json), warnings: [] };
  let parsed;
  try {
    parsed = parseYamlWithDuplicates(text, { exactIntegers: true, readerFault: read.fault });
    plainNumbersKeepingInts(parsed.value);
  } catch (e) {
    if (e instanceof YamlDecodeError) throw badRequest(`error decoding YAML: error converting YAML to JSON: ${e.message}`);
    throw e;
  }
  const config = asConfig(parsed.value);
  if (parsed.duplicates.length === 0 || fieldValidation === 'Ignore') return { config, warnings: [] };
  const msg = `error converting YAML to JSON: yaml: unmarshal errors:\n  ${parsed.duplicates.map((d) => d.message).join('\n  ')}`;
  if (fieldValidation === 'Strict') return { config, warnings: [], strictError: badRequest(`error strict decoding YAML: ${msg}`) };
  // Warn: one warning per repeated key (the aggregate's lines).
  return { config, warnings: parsed.duplicates.map((d) => d.message) };
}

/**
 * Most appliers (kubectl, client-go) send JSON: an object in plain JSON without repeated keys
 * reads the same through the JSON parser as through the YAML reader, only faster. Anything else
 * (repeated keys, which the YAML reader words as kube does, or text that is not JSON) goes to YAML.
 */
function jsonConfig(text: string): unknown {
  if (text.trimStart()[0] !== '{') return undefined;
  try {
    // Integers beyond 2^53 are kept exact (recorded beside the rounded numbers, raw-json.ts).
    const parsed = parseJsonBody(text, { numbers: 'literal' });
    return parsed.duplicates.length ? undefined : plainNumbersKeepingInts(parsed.value);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}

/** The decoded body as an apply configuration: an object (null reads as an empty one). */
function asConfig(doc: unknown): Record<string, unknown> {
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    // sigs.k8s.io/yaml's Unmarshal: the YAML read, then its JSON decoded into the map.
    throw badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${Array.isArray(doc) ? 'array' : typeof doc} into Go value of type map[string]interface {}`,
    );
  }
  return doc as Record<string, unknown>;
}
