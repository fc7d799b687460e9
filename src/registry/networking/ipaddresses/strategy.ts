// IPAddresses (networking.k8s.io/v1, cluster-scoped), after pkg/registry/networking/ipaddress:
// one object per allocated IP, named by the address in canonical form, pointing at its owner.
// The Service allocator (../../core/services/ip-allocator.ts) creates and deletes them as
// kube 1.33's does; a user may create one to reserve an address.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef } from '../../types.js';
import { plainStrategy } from '../../plain-strategy.js';
import type { KObject } from '../../../machinery/object.js';
import { invalid, required } from '../../../machinery/validation/field.js';
import { isDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { nameIsIPAddress, nameIsPathSegment } from '../../../machinery/validation/name-validators.js';
import { asObj, deepEqual, str, type Obj } from '../../../machinery/json-view.js';
import { NAME_COLUMN, age, column } from '../../printers.js';

/** The labels kube's allocator puts on the objects it owns. */
export const IP_FAMILY_LABEL = 'ipaddress.kubernetes.io/ip-family';
export const MANAGED_BY_LABEL = 'ipaddress.kubernetes.io/managed-by';
export const MANAGED_BY_ALLOCATOR = 'ipallocator.k8s.io';

const pathSegment = (v: string, field: string): FieldError[] => nameIsPathSegment(v, false).map((m) => invalid(field, v, m));

function validateParentRef(ref: unknown): FieldError[] {
  const p = asObj(ref);
  if (!p) return [required('spec.parentRef')];
  const errs: FieldError[] = [];
  const group = str(p.group);
  if (group) for (const m of isDNS1123Subdomain(group)) errs.push(invalid('spec.parentRef.group', group, m));
  if (!str(p.resource)) errs.push(required('spec.parentRef.resource'));
  else errs.push(...pathSegment(str(p.resource), 'spec.parentRef.resource'));
  if (!str(p.name)) errs.push(required('spec.parentRef.name'));
  else errs.push(...pathSegment(str(p.name), 'spec.parentRef.name'));
  if (str(p.namespace)) errs.push(...pathSegment(str(p.namespace), 'spec.parentRef.namespace'));
  return errs;
}

const parentRefOf = (obj: KObject): unknown => asObj(obj.spec)?.parentRef;

/** Go's %#v of the internal ParentReference (a pointer, as kube prints it: dereferenced; nil is null). */
function parentRefGo(ref: unknown): { goString: string } | null {
  const p = asObj(ref);
  if (!p) return null;
  const f = (k: string): string => JSON.stringify(str(p[k]));
  return { goString: `networking.ParentReference{Group:${f('group')}, Resource:${f('resource')}, Namespace:${f('namespace')}, Name:${f('name')}}` };
}

const strategy = plainStrategy({
  validate: (obj) => validateParentRef(parentRefOf(obj)),
  validateUpdate(obj, old) {
    const errs = validateParentRef(parentRefOf(obj));
    if (!deepEqual(parentRefOf(obj), parentRefOf(old))) errs.push(invalid('spec.parentRef', parentRefGo(parentRefOf(obj)), 'field is immutable'));
    return errs;
  },
});

function parentRefText(obj: KObject): string {
  const p = asObj(parentRefOf(obj)) as Obj | undefined;
  if (!p) return '<none>';
  const group = str(p.group);
  let text = (group ? `${str(p.resource)}.${group}` : str(p.resource)).toLowerCase();
  if (str(p.namespace)) text += `/${str(p.namespace)}`;
  return `${text}/${str(p.name)}`;
}

export const ipAddresses: ResourceDef = {
  group: 'networking.k8s.io',
  version: 'v1',
  resource: 'ipaddresses',
  kind: 'IPAddress',
  listKind: 'IPAddressList',
  singularName: 'ipaddress',
  shortNames: ['ip'],
  categories: [],
  namespaced: false,
  strategy,
  nameValidator: nameIsIPAddress,
  returnDeletedObject: false,
  storageVersion: { group: 'networking.k8s.io', version: 'v1beta1' },
  table: {
    // kube's printer writes an Age cell it declares no column for.
    columns: [NAME_COLUMN, column('ParentRef', 'string', 'ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.')],
    cells: (obj, now) => [obj.metadata.name, parentRefText(obj), age(obj, now)],
  },
};
