// What kube's create handler adds to the objects of resources that are never stored
// (TokenRequest, TokenReview): the field manager still records, on the answer, an Update entry
// for what the request set.

import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import { resolverFor } from '../patch/ssa/field-manager.js';
import { toFieldSet } from '../patch/ssa/typed.js';
import { nowTimestamp } from '../machinery/meta.js';

export function createOnlyManagedFields(
  group: string,
  version: string,
  kind: string,
  request: Record<string, unknown>,
  manager: string,
  subresource = '',
): Record<string, unknown>[] | undefined {
  const r = resolverFor(SCHEMAS);
  const root = r.root(rootDefinition(group, version, kind));
  const { metadata: _m, kind: _k, apiVersion: _a, status: _s, ...fields } = request;
  void _m;
  void _k;
  void _a;
  void _s;
  const set = toFieldSet(r, root, fields);
  if (set.isEmpty()) return undefined;
  const entry: Record<string, unknown> = {
    manager,
    operation: 'Update',
    apiVersion: group ? `${group}/${version}` : version,
    time: nowTimestamp(),
    fieldsType: 'FieldsV1',
    fieldsV1: set.toFieldsV1(),
  };
  if (subresource) entry.subresource = subresource;
  return [entry];
}
