// Resources that are created, answered and never stored (the reviews, TokenRequest): their
// definition, and what kube's create handler adds to their answers (the field manager still
// records an Update entry for what the request set).

import { SCHEMAS, rootDefinition } from '../schema/types/index.js';
import { resolverFor } from '../patch/ssa/field-manager.js';
import { toFieldSet } from '../patch/ssa/typed.js';
import { nowTimestamp } from '../machinery/meta.js';
import { nameIsDNSSubdomain } from '../machinery/validation/names.js';
import { plainStrategy } from '../registry/plain-strategy.js';
import type { CreateOnlyREST, ResourceDef } from '../registry/types.js';

/** Never used: nothing is stored. */
const NO_STRATEGY = plainStrategy({ allowUnconditionalUpdate: false });

/** A resource whose only verb is create, answered by `create`. */
export function createOnlyDef(group: string, resource: string, kind: string, namespaced: boolean, create: CreateOnlyREST): ResourceDef {
  return {
    group,
    version: 'v1',
    resource,
    kind,
    listKind: `${kind}List`,
    singularName: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced,
    strategy: NO_STRATEGY,
    nameValidator: nameIsDNSSubdomain,
    returnDeletedObject: false,
    verbs: ['create'],
    createOnly: create,
  };
}

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
