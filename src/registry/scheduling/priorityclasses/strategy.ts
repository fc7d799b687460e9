// PriorityClass (scheduling.k8s.io/v1): cluster-scoped; value required and immutable;
// the `system-` prefix belongs to the built-in classes; at most one global default
// (enforced like kube's Priority admission plugin, with a 403).

import { forbidden, type FieldError } from '../../../machinery/errors.js';
import type { Admission, ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { deepEqual } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';

export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_PREFIX = 'system-';
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** The built-in classes, with kube's values. */
export const SYSTEM_PRIORITY_CLASSES: KObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

function systemClassError(obj: KObject): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.metadata.name === obj.metadata.name);
  if (!known) return `${obj.metadata.name} is not a known system priority class`;
  if (known.value !== obj.value) return `value of ${obj.metadata.name} PriorityClass must be ${String(known.value)}`;
  if (obj.globalDefault === true) return `globalDefault of ${obj.metadata.name} PriorityClass must be false`;
  return undefined;
}

function validate(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  if (obj.value === undefined || obj.value === null) {
    errs.push({ type: 'FieldValueRequired', field: 'value', detail: '' });
  } else if (typeof obj.value !== 'number' || !Number.isInteger(obj.value) || obj.value > 2147483647 || obj.value < -2147483648) {
    errs.push({ type: 'FieldValueInvalid', field: 'value', badValue: obj.value, detail: 'must be a 32-bit integer' });
  }
  if (name.startsWith(SYSTEM_PREFIX)) {
    const why = systemClassError(obj);
    if (why) {
      errs.push({
        type: 'FieldValueForbidden',
        field: 'metadata.name',
        detail: `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}`,
      });
    }
  } else if (typeof obj.value === 'number' && obj.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push({
      type: 'FieldValueForbidden',
      field: 'value',
      detail: `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
    });
  }
  // ValidatePreemptionPolicy: an empty value is "Required", an unknown one "Unsupported".
  if (obj.preemptionPolicy === '') {
    errs.push({ type: 'FieldValueRequired', field: 'preemptionPolicy', detail: '' });
  } else if (obj.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.includes(obj.preemptionPolicy as string)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'preemptionPolicy', badValue: obj.preemptionPolicy, detail: '', supported: PREEMPTION_POLICIES });
  }
  return errs;
}

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: true,
  // preemptionPolicy's default comes from the schema; this only shapes the JSON.
  applyDefaults(obj) {
    // globalDefault is omitempty in kube's JSON: false is never written.
    if (obj.globalDefault === false) delete obj.globalDefault;
  },
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validate,
  validateUpdate(obj, old) {
    const errs: FieldError[] = [];
    if (obj.value !== old.value) errs.push({ type: 'FieldValueForbidden', field: 'value', detail: 'may not be changed in an update.' });
    if (!deepEqual(obj.preemptionPolicy, old.preemptionPolicy)) {
      errs.push({ type: 'FieldValueInvalid', field: 'preemptionPolicy', badValue: obj.preemptionPolicy, detail: 'field is immutable' });
    }
    return errs;
  },
};

const gr = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

/**
 * The global default PriorityClass: when a race left several, the one with the smallest
 * value (the Priority plugin's getDefaultPriorityClass).
 */
export function defaultPriorityClass(classes: KObject[]): KObject | undefined {
  let out: KObject | undefined;
  for (const c of classes) {
    if (c.globalDefault !== true) continue;
    if (!out || ((out.value as number | undefined) ?? 0) > ((c.value as number | undefined) ?? 0)) out = c;
  }
  return out;
}

/**
 * The Priority admission plugin's rule for classes (validating, create and update): only one
 * class may be the global default. The default it compares with is the one pods get (the
 * smallest value among defaults); an update of that very class passes.
 */
const priorityClassAdmission: Admission = {
  validate(obj, attrs, ctx) {
    if (attrs.subresource !== '' || obj.globalDefault !== true) return;
    const d = defaultPriorityClass(ctx.list(gr));
    if (d && (attrs.operation === 'CREATE' || d.metadata.name !== obj.metadata.name)) {
      throw forbidden(gr, obj.metadata.name ?? '', `PriorityClass ${d.metadata.name} is already marked as default. Only one default can exist`);
    }
  },
};

export const priorityClasses: ResourceDef = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  resource: 'priorityclasses',
  kind: 'PriorityClass',
  listKind: 'PriorityClassList',
  singularName: 'priorityclass',
  shortNames: ['pc'],
  categories: [],
  namespaced: false,
  strategy,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: false,
  admission: priorityClassAdmission,
  table: {
    columns: [
      NAME_COLUMN,
      column('Value', 'integer', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.'),
      column('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.'),
      AGE_COLUMN,
      column('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
    ],
    cells: (obj, now) => [obj.metadata.name, obj.value, obj.globalDefault === true, age(obj, now), obj.preemptionPolicy ?? ''],
  },
  bootstrap: SYSTEM_PRIORITY_CLASSES,
  deleteForbidden: (name) => (SYSTEM_PRIORITY_CLASSES.some((c) => c.metadata.name === name) ? 'this is a system priority class and cannot be deleted' : undefined),
};
