// List and watch filters: the labelSelector and fieldSelector query parameters, parsed here
// and turned into the registry's selection predicate.

import { parseFieldSelector, parseLabelSelector, SelectorParseError } from '../machinery/selectors.js';
import { badRequest } from '../machinery/errors.js';
import type { ResourceDef } from '../registry/types.js';
import { selectorFilter, type ParsedSelectors, type SelectionPredicate } from '../registry/generic/selection.js';

export { selectorFilter, type ParsedSelectors };

/** Parses labelSelector and fieldSelector; a syntax error is kube's 400 with the parser's text. */
export function parseSelectors(q: URLSearchParams): ParsedSelectors {
  const ls = q.get('labelSelector') ?? '';
  const fs = q.get('fieldSelector') ?? '';
  try {
    return { label: ls ? parseLabelSelector(ls) : undefined, field: fs ? parseFieldSelector(fs) : undefined };
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
}

export function buildFilter(def: ResourceDef, q: URLSearchParams): SelectionPredicate | undefined {
  return selectorFilter(def, parseSelectors(q));
}
