// Label and field selectors turned into one predicate over the cache's entries, after
// k8s.io/apiserver's SelectionPredicate with the type's field labels (its GetAttrs).

import type { CacheEntry } from '../../cache/watch-cache.js';
import { decodeObject } from '../../machinery/stored-bytes.js';
import type { KObject } from '../../machinery/object.js';
import { validateFieldSelector, SelectorParseError, type FieldSelector, type LabelSelector } from '../../machinery/selectors.js';
import { badRequest } from '../../machinery/errors.js';
import type { ResourceDef } from '../types.js';

/** The selectors of a request, parsed (kube parses them while decoding ListOptions). */
export interface ParsedSelectors {
  label?: LabelSelector;
  field?: FieldSelector;
}

/** Which objects a list, watch or deletecollection is about. */
export type SelectionPredicate = (e: CacheEntry) => boolean;

interface LabeledEntry extends CacheEntry {
  labels?: Record<string, string>;
}

// Labels are small and asked for on every watch event, so they stay on the entry; whole
// objects (for type-specific field labels) are decoded per evaluation, never kept.
const labelsOf = (e: LabeledEntry): Record<string, string> => (e.labels ??= decodeObject(e.bytes).metadata.labels ?? {});

/**
 * The predicate for parsed selectors, after the type's field-label conversion (an unknown
 * field label is a 400). Field labels are metadata.name, metadata.namespace (namespaced
 * types) and the type's own `fieldLabels`. Undefined when nothing is selected.
 */
export function selectorFilter(def: ResourceDef, sel: ParsedSelectors): SelectionPredicate | undefined {
  const { label } = sel;
  let field = sel.field;
  const extra = def.fieldLabels ?? {};
  try {
    const base = def.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name'];
    const supported = [...base, ...Object.keys(extra)];
    if (field) field = validateFieldSelector(field, supported, { group: def.group, version: def.version, kind: def.kind });
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
  const f = field && !field.empty ? field : undefined;
  const l = label && !label.empty ? label : undefined;
  if (!f && !l) return undefined;
  // Only the type's own labels need the object decoded.
  const typeLabels = f ? f.requirements.map((r) => r.field).filter((name) => Object.hasOwn(extra, name)) : [];
  return (e) => {
    if (f) {
      const fields: Record<string, string> = { 'metadata.name': e.name };
      if (def.namespaced) fields['metadata.namespace'] = e.namespace;
      if (typeLabels.length) {
        const obj: KObject = decodeObject(e.bytes);
        for (const name of typeLabels) fields[name] = extra[name]!(obj);
      }
      if (!f.matches(fields)) return false;
    }
    if (l && !l.matches(labelsOf(e))) return false;
    return true;
  };
}
