// List and watch filters: label and field selectors turned into one entry predicate.

import type { CacheEntry } from '../cache/watch-cache.js';
import { decodeObject } from '../registry/generic/object-bytes.js';
import type { ResourceDef } from '../registry/types.js';
import { parseFieldSelector, parseLabelSelector, validateFieldSelector, SelectorParseError } from './selectors.js';
import { badRequest } from './status-error.js';

interface LabeledEntry extends CacheEntry {
  labels?: Record<string, string>;
}

const labelsOf = (e: LabeledEntry): Record<string, string> => (e.labels ??= decodeObject(e.bytes).metadata.labels ?? {});

export function buildFilter(def: ResourceDef, q: URLSearchParams): ((e: CacheEntry) => boolean) | undefined {
  const ls = q.get('labelSelector') ?? '';
  const fs = q.get('fieldSelector') ?? '';
  if (!ls && !fs) return undefined;
  try {
    const label = ls ? parseLabelSelector(ls) : undefined;
    const field = fs ? parseFieldSelector(fs) : undefined;
    const supported = def.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name'];
    if (field) validateFieldSelector(field, supported, { group: def.group, version: def.version, kind: def.kind });
    if ((!label || label.empty) && (!field || field.empty)) return undefined;
    return (e) => {
      if (field && !field.empty && !field.matches({ 'metadata.name': e.name, 'metadata.namespace': e.namespace })) return false;
      if (label && !label.empty && !label.matches(labelsOf(e))) return false;
      return true;
    };
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
}
