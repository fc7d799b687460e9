// PodDisruptionBudget (policy/v1): minAvailable and maxUnavailable are exclusive
// IntOrString values; generation follows spec; status only through /status.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { validateLabelSelector } from '../../../machinery/validation/object-meta.js';
import { validateConditions } from '../../../machinery/validation/conditions.js';
import { nameIsPathSegment } from '../../../machinery/validation/names.js';
import { semanticEqual } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';
import { GoStringer, nonNegative } from '../../../machinery/validation/field.js';
import { goPointerValue } from '../../../machinery/go-format.js';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];
const PERCENT = /^[0-9]+%$/;

interface PdbSpec {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  selector?: unknown;
  unhealthyPodEvictionPolicy?: string;
}

const spec = (o: KObject): PdbSpec => (o.spec ?? {}) as PdbSpec;

/** Go's %#v of an intstr.IntOrString holding a string (its String() has a pointer receiver). */
const intOrStringGo = (v: string): GoStringer => new GoStringer(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}`);

const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** ValidatePositiveIntOrPercent then IsNotMoreThan100Percent (apps validation). */
export function validateIntOrPercent(v: unknown, field: string): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'number') return nonNegative(v, field);
  if (typeof v === 'string') {
    if (!PERCENT.test(v)) return [{ type: 'FieldValueInvalid', field, badValue: intOrStringGo(v), detail: PERCENT_MSG }];
    if (Number(v.slice(0, -1)) > 100) return [{ type: 'FieldValueInvalid', field, badValue: intOrStringGo(v), detail: 'must not be greater than 100%' }];
    return [];
  }
  return [{ type: 'FieldValueInvalid', field, badValue: v, detail: "must be an integer or percentage (e.g '5%%')" }];
}

function validateSpec(obj: KObject): FieldError[] {
  const s = spec(obj);
  const errs: FieldError[] = [];
  if (s.minAvailable !== undefined && s.maxUnavailable !== undefined) {
    // Go's %#v of the internal struct, its pointer fields by address.
    const p = goPointerValue;
    const text =
      `policy.PodDisruptionBudgetSpec{MinAvailable:${p('intstr.IntOrString', true)}, Selector:${p('v1.LabelSelector', s.selector !== undefined && s.selector !== null)}, ` +
      `MaxUnavailable:${p('intstr.IntOrString', true)}, UnhealthyPodEvictionPolicy:${p('policy.UnhealthyPodEvictionPolicyType', s.unhealthyPodEvictionPolicy !== undefined)}}`;
    errs.push({ type: 'FieldValueInvalid', field: 'spec', badValue: new GoStringer(text), detail: 'minAvailable and maxUnavailable cannot be both set' });
  }
  errs.push(...validateIntOrPercent(s.minAvailable, 'spec.minAvailable'));
  errs.push(...validateIntOrPercent(s.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(s.selector, 'spec.selector'));
  if (s.unhealthyPodEvictionPolicy !== undefined && !EVICTION_POLICIES.includes(s.unhealthyPodEvictionPolicy)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'spec.unhealthyPodEvictionPolicy',
      badValue: s.unhealthyPodEvictionPolicy,
      detail: '',
      supported: EVICTION_POLICIES,
    });
  }
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1): the conditions, then the counts. */
function validateStatus(obj: KObject): FieldError[] {
  const st = (obj.status ?? {}) as Record<string, unknown>;
  return [
    ...validateConditions(st.conditions, 'status.conditions'),
    ...['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'].flatMap((f) => nonNegative(st[f], `status.${f}`)),
  ];
}

const emptyStatus = (): Record<string, unknown> => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });

const strategy: Strategy = {
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  tracksGeneration: true,
  applyDefaults: () => undefined,
  prepareForCreate(obj) {
    obj.status = emptyStatus();
  },
  prepareForUpdate(obj, old) {
    obj.status = old.status;
    // Semantic equality, as kube's: an emptied list is no change.
    if (!semanticEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  validate: validateSpec,
  validateUpdate: (obj) => validateSpec(obj),
};

const statusStrategy: Strategy = {
  ...strategy,
  // Only spec is carried over: metadata changes through /status are kept, as in kube.
  prepareForUpdate(obj, old) {
    obj.spec = old.spec;
  },
  validateUpdate: validateStatus,
};

const intOrNA = (v: unknown): string => (v === undefined || v === null ? 'N/A' : String(v));

export const podDisruptionBudgets: ResourceDef = {
  group: 'policy',
  version: 'v1',
  resource: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  listKind: 'PodDisruptionBudgetList',
  singularName: 'poddisruptionbudget',
  shortNames: ['pdb'],
  categories: [],
  namespaced: true,
  strategy,
  subresources: { status: statusStrategy },
  nameValidator: nameIsPathSegment,
  genericMetadataOnly: true,
  returnDeletedObject: false,
  table: {
    columns: [
      NAME_COLUMN,
      column('Min Available', 'string', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
      column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
      AGE_COLUMN,
    ],
    cells: (obj, now) => {
      const s = spec(obj);
      const st = (obj.status ?? {}) as { disruptionsAllowed?: number };
      return [obj.metadata.name, intOrNA(s.minAvailable), intOrNA(s.maxUnavailable), st.disruptionsAllowed ?? 0, age(obj, now)];
    },
  },
};
