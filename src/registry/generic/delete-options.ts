// DeleteOptions as kube validates them (ValidateDeleteOptions: 422 on DeleteOptions.meta.k8s.io),
// from their decoded fields to what the store's delete takes: the DELETE verb reads them from
// its body or query, pods/eviction from the Eviction's deleteOptions.

import { invalid, type FieldError } from '../../machinery/errors.js';
import type { DeleteOptions } from './delete.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'];

type Raw = Record<string, unknown>;

/** ValidateDeleteOptions. */
export function validateDeleteOptions(raw: Raw): void {
  const errs: FieldError[] = [];
  const policy = raw.propagationPolicy as string | undefined;
  if (raw.orphanDependents !== undefined && policy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', badValue: policy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (policy !== undefined && !POLICIES.includes(policy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', badValue: policy, detail: '', supported: [...POLICIES, 'nil'] });
  }
  const dry = raw.dryRun as string[] | undefined;
  if (dry?.some((v) => v !== 'All')) {
    errs.push({ type: 'FieldValueNotSupported', field: 'dryRun', badValue: dry, detail: '', supported: ['All'] });
  }
  // ValidateIgnoreStoreReadError: the force delete takes no other option.
  if (raw.ignoreStoreReadError === true) {
    const field = 'ignoreStoreReadErrorWithClusterBreakingPotential';
    for (const [opt, set] of [
      ['dryRun', (dry ?? []).length > 0],
      ['propagationPolicy', policy !== undefined],
      ['orphanDependents', raw.orphanDependents !== undefined],
      ['gracePeriodSeconds', raw.gracePeriodSeconds !== undefined],
      ['preconditions', raw.preconditions !== undefined],
    ] as const) {
      if (set) errs.push({ type: 'FieldValueInvalid', field, badValue: true, detail: `cannot be set together with .${opt}` });
    }
  }
  if (errs.length) throw invalid('DeleteOptions', 'meta.k8s.io', '', errs);
}

/** Validated decoded DeleteOptions fields as the store's DeleteOptions. */
export function deleteOptionsOf(raw: Raw): DeleteOptions {
  validateDeleteOptions(raw);
  const opts: DeleteOptions = { dryRun: ((raw.dryRun as string[] | undefined) ?? []).length > 0 };
  if (raw.propagationPolicy !== undefined && raw.propagationPolicy !== null) opts.propagationPolicy = raw.propagationPolicy as DeleteOptions['propagationPolicy'];
  if (raw.orphanDependents !== undefined && raw.orphanDependents !== null) opts.orphanDependents = raw.orphanDependents as boolean;
  if (raw.gracePeriodSeconds !== undefined && raw.gracePeriodSeconds !== null) opts.gracePeriodSeconds = raw.gracePeriodSeconds as number;
  if (raw.preconditions !== undefined && raw.preconditions !== null) opts.preconditions = raw.preconditions as DeleteOptions['preconditions'];
  return opts;
}
