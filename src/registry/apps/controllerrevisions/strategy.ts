// ControllerRevision (apps/v1), after pkg/registry/apps/controllerrevision and
// ValidateControllerRevision(Update): data is required and immutable, revision is
// non-negative, nothing else is checked or defaulted.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { nonNegative } from '../../../machinery/validation/field.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { deepEqual } from '../../../machinery/json-view.js';
import { validateObjectMeta } from '../../../machinery/validation/object-meta.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';

/** ValidateControllerRevisionCreate: the revision, and data present as a JSON object. */
function validate(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(obj.revision, 'revision'));
  const data = obj.data;
  // A missing or null `data` decodes to a nil RawExtension.
  if (data === undefined || data === null) errs.push({ type: 'FieldValueRequired', field: 'data', detail: 'data is mandatory' });
  else if (typeof data !== 'object' || Array.isArray(data)) errs.push({ type: 'FieldValueRequired', field: 'data', detail: 'data must be a valid JSON object' });
  return errs;
}

/**
 * ValidateControllerRevisionUpdate: the metadata again as on create (kube's
 * validateControllerRevision runs on updates too), the revision, and data unchanged.
 */
function validateUpdate(obj: KObject, old: KObject): FieldError[] {
  const errs = validateObjectMeta(obj.metadata, true, nameIsDNSSubdomain);
  errs.push(...nonNegative(obj.revision, 'revision'));
  if (!deepEqual(obj.data, old.data)) errs.push({ type: 'FieldValueInvalid', field: 'data', badValue: obj.data ?? null, detail: 'field is immutable' });
  return errs;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  applyDefaults(obj) {
    // revision has no omitempty: an unset one reads back as 0.
    if (obj.revision === undefined) obj.revision = 0;
  },
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validate,
  validateUpdate,
};

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  controller?: boolean;
}

/** The CONTROLLER cell: `<kind>.<group>/<name>` of the controlling owner, lower-cased kind, or <none>. */
export function controllerOf(obj: KObject): string {
  const ref = ((obj.metadata.ownerReferences ?? []) as OwnerReference[]).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = ref.kind ?? '';
  if (!kind && !group) return ref.name ?? '';
  const gk = group ? `${kind}.${group}` : kind;
  return `${gk.toLowerCase()}/${ref.name ?? ''}`;
}

export const controllerRevisions: ResourceDef = {
  group: 'apps',
  version: 'v1',
  resource: 'controllerrevisions',
  kind: 'ControllerRevision',
  listKind: 'ControllerRevisionList',
  singularName: 'controllerrevision',
  shortNames: [],
  categories: [],
  namespaced: true,
  strategy,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: false,
  table: {
    columns: [
      NAME_COLUMN,
      column('Controller', 'string', 'Controller of the object'),
      column('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
      AGE_COLUMN,
    ],
    cells: (obj, now) => [obj.metadata.name, controllerOf(obj), typeof obj.revision === 'number' ? obj.revision : 0, age(obj, now)],
  },
};
