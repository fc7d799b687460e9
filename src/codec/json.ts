// JSON request bodies as kube's decoder reads them. The native parser reads the common body
// (no repeated keys, exact numbers, nesting within Go's limit) several times faster than the
// Go-faithful scanner; when it cannot prove its result is the scanner's, the scanner decides,
// and it words syntax errors as Go does (JsonSyntaxError).

import { MAX_JSON_DEPTH, scanJson, type JsonDuplicate, type JsonScanOptions } from '../machinery/json-scan.js';
import { parseJsonFast } from '../schema/json-fast.js';

export interface ParsedJson {
  value: unknown;
  /** Repeated keys, in the order Go meets them (none when the native parser read the text). */
  duplicates: JsonDuplicate[];
}

/** Parses JSON text; `opts` are the scanner's options for the text the native parser cannot take. */
export function parseJsonBody(text: string, opts: JsonScanOptions = {}): ParsedJson {
  const fast = parseJsonFast(text, opts.maxDepth ?? MAX_JSON_DEPTH);
  if (fast) return { value: fast.value, duplicates: [] };
  const scanned = scanJson(text, opts);
  return { value: scanned.value, duplicates: scanned.duplicates };
}
