// The four RBAC types share one strategy shape (pkg/registry/rbac/*/strategy.go): PUT may
// create, updates need no resourceVersion, no generation, nothing server-owned to clear. What
// differs is validation and the Table (bindings print their role and subjects; roles use the
// default Name / Created At table, as kube has no printer for them).

import type { FieldError } from '../../machinery/errors.js';
import type { KObject } from '../../machinery/object.js';
import { nameIsPathSegment } from '../../machinery/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../printers.js';
import type { ResourceDef, Strategy, TableConvertor } from '../types.js';
import { plainStrategy } from '../plain-strategy.js';
import type { BindingObject } from './types.js';
import { RBAC_GROUP } from './types.js';

export function rbacStrategy(validate: (obj: KObject) => FieldError[], validateUpdate?: (obj: KObject, old: KObject) => FieldError[]): Strategy {
  return plainStrategy({
    allowCreateOnUpdate: true,
    validate,
    // kube's ValidateUpdate validates the object, then calls Validate<Type>Update, which
    // validates it once more before its own checks: every error of the object is listed twice
    // among the causes (the message, an aggregate, shows each once).
    validateUpdate: (obj, old) => [...validate(obj), ...validate(obj), ...(validateUpdate?.(obj, old) ?? [])],
  });
}

/** rbac.SubjectsStrings: users, groups and `namespace/name` of service accounts. */
function subjectsStrings(b: BindingObject): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of b.subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

export function bindingTable(what: 'roleBinding' | 'clusterRoleBinding', roleRefDescription: string): TableConvertor {
  return {
    columns: [
      NAME_COLUMN,
      column('Role', 'string', roleRefDescription),
      AGE_COLUMN,
      column('Users', 'string', `Users in the ${what}`, 1),
      column('Groups', 'string', `Groups in the ${what}`, 1),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, 1),
    ],
    cells: (obj, now) => {
      const b = obj as BindingObject;
      return [obj.metadata.name, `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`, age(obj, now), ...subjectsStrings(b)];
    },
  };
}

/** The names every RBAC type shares. */
export function rbacDef(resource: string, kind: string, namespaced: boolean, strategy: Strategy, table?: TableConvertor): ResourceDef {
  return {
    group: RBAC_GROUP,
    version: 'v1',
    resource,
    kind,
    listKind: `${kind}List`,
    singularName: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced,
    strategy,
    nameValidator: nameIsPathSegment,
    returnDeletedObject: false,
    table,
  };
}
