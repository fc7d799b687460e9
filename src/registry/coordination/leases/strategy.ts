// Lease (coordination.k8s.io/v1): namespaced, after pkg/registry/coordination/lease and
// ValidateLease. Updates must carry a resourceVersion (leader election relies on that
// compare-and-swap); PUT of a missing lease creates it. `strategy` and `preferredHolder`
// belong to coordinated leader election, an alpha gate off in 1.33: dropped unless it is on.

import type { FieldError } from '../../../machinery/errors.js';
import type { ResourceDef, Strategy } from '../../types.js';
import type { KObject } from '../../../machinery/object.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { featureEnabled } from '../../../machinery/feature-gates.js';
import { asObj, type Obj } from '../../../machinery/json-view.js';
import { AGE_COLUMN, NAME_COLUMN, age, column } from '../../printers.js';

const STRATEGIES = ['OldestEmulationVersion'];

const specOf = (o: KObject): Obj | undefined => asObj(o.spec);

function dropDisabledFields(obj: KObject, old?: KObject): void {
  if (featureEnabled('CoordinatedLeaderElection')) return;
  const spec = specOf(obj);
  if (!spec) return;
  const was = old ? specOf(old) : undefined;
  if (was?.strategy === undefined) delete spec.strategy;
  if (was?.preferredHolder === undefined) delete spec.preferredHolder;
}

/** ValidateCoordinatedLeaseStrategy; kube names the field one level too deep, and so do we. */
function validateStrategy(strategy: string, path: string): FieldError[] {
  const field = `${path}.strategy`;
  if (!strategy.includes('/')) {
    return STRATEGIES.includes(strategy) ? [] : [{ type: 'FieldValueNotSupported', field, badValue: strategy, detail: '', supported: STRATEGIES }];
  }
  return isQualifiedName(strategy).map((detail) => ({ type: 'FieldValueInvalid' as const, field, badValue: strategy, detail }));
}

function validateSpec(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(obj) ?? {};
  const duration = spec.leaseDurationSeconds;
  if (typeof duration === 'number' && duration <= 0) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.leaseDurationSeconds', badValue: duration, detail: 'must be greater than 0' });
  }
  const transitions = spec.leaseTransitions;
  if (typeof transitions === 'number' && transitions < 0) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.leaseTransitions', badValue: transitions, detail: 'must be greater than or equal to 0' });
  }
  if (typeof spec.strategy === 'string') errs.push(...validateStrategy(spec.strategy, 'spec.strategy'));
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && !spec.strategy) {
    errs.push({ type: 'FieldValueForbidden', field: 'spec.preferredHolder', detail: 'may only be specified if `strategy` is defined' });
  }
  return errs;
}

const strategy: Strategy = {
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  tracksGeneration: false,
  applyDefaults: () => undefined,
  prepareForCreate: (obj) => dropDisabledFields(obj),
  prepareForUpdate: (obj, old) => dropDisabledFields(obj, old),
  validate: validateSpec,
  validateUpdate: (obj) => validateSpec(obj),
};

export const leases: ResourceDef = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  kind: 'Lease',
  listKind: 'LeaseList',
  singularName: 'lease',
  shortNames: [],
  categories: [],
  namespaced: true,
  strategy,
  nameValidator: nameIsDNSSubdomain,
  returnDeletedObject: false,
  table: {
    columns: [
      NAME_COLUMN,
      column('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.'),
      AGE_COLUMN,
    ],
    cells: (obj, now) => [obj.metadata.name, (specOf(obj)?.holderIdentity as string | undefined) ?? '', age(obj, now)],
  },
};
