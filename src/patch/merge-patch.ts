// JSON Merge Patch (RFC 7386): objects merge key by key, null deletes, anything else
// (arrays included, and numbers kept as their literals) replaces.

import { JsonNumber } from '../machinery/json-scan.js';
import { copyExactInts } from '../machinery/raw-json.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  if (isObject(target)) copyExactInts(target, out);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}
