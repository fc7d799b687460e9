// Query options of writes (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions),
// validated as kube validates them: a bad value is 422 Invalid on the options kind.

import { invalid, type FieldError } from './status-error.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  fieldManager?: string;
}

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

const FIELD_VALIDATION = ['Ignore', 'Warn', 'Strict'];

export function parseWriteOptions(q: URLSearchParams, kind: OptionsKind): WriteOptions {
  const errs: FieldError[] = [];
  const dry = q.getAll('dryRun');
  if (dry.some((v) => v !== 'All')) {
    // kube prints the whole []string, as Go's %#v renders it.
    errs.push({ type: 'FieldValueNotSupported', field: 'dryRun', badValue: dry, detail: '', supported: ['All'] });
  }
  let fieldValidation: FieldValidation = 'Warn';
  if (kind !== 'DeleteOptions') {
    const fv = q.get('fieldValidation');
    if (fv !== null && fv !== '') {
      if (FIELD_VALIDATION.includes(fv)) fieldValidation = fv as FieldValidation;
      else errs.push({ type: 'FieldValueNotSupported', field: 'fieldValidation', badValue: fv, detail: '', supported: ['', ...FIELD_VALIDATION.slice().sort()] });
    }
  }
  const fieldManager = q.get('fieldManager') ?? undefined;
  if (fieldManager !== undefined && fieldManager.length > 128) {
    errs.push({ type: 'FieldValueTooLong', field: 'fieldManager', detail: 'may not be more than 128 characters' });
  }
  if (errs.length) throw invalid(kind, 'meta.k8s.io', '', errs);
  return { dryRun: dry.length > 0, fieldValidation, fieldManager };
}
