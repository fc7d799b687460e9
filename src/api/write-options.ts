// Query options of writes (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions),
// validated as kube validates them: a bad value is 422 Invalid on the options kind.

import { badRequest, invalid, type FieldError } from '../machinery/errors.js';
import { validateFieldManager } from '../machinery/validation/object-meta.js';
import { managerOrUserAgent } from '../patch/ssa/manager-name.js';
import type { WriteOwner } from '../registry/generic/store.js';
import type { FieldValidation } from '../machinery/options.js';


export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  fieldManager?: string;
}

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

const FIELD_VALIDATION = ['Ignore', 'Warn', 'Strict'];

/**
 * `patchType` is given for PATCH: ValidatePatchOptions first requires fieldManager of an
 * apply patch and forbids force on any other patch.
 */
export function parseWriteOptions(q: URLSearchParams, kind: OptionsKind, patchType?: 'apply' | 'other'): WriteOptions {
  const errs: FieldError[] = [];
  if (patchType === 'other' && q.has('force')) {
    errs.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
  }
  if (patchType === 'apply' && !q.get('fieldManager')) {
    errs.push({ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' });
  }
  const fieldManager = q.get('fieldManager') ?? undefined;
  errs.push(...validateFieldManager(fieldManager ?? '', 'fieldManager'));
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
  if (errs.length) throw invalid(kind, 'meta.k8s.io', '', errs);
  return { dryRun: dry.length > 0, fieldValidation, fieldManager };
}

/** The field owner of a write: fieldManager, or the User-Agent's product name as kube infers it. */
export function writeOwner(opts: WriteOptions, userAgent: string | undefined, subresource = ''): WriteOwner {
  return { manager: managerOrUserAgent(opts.fieldManager, userAgent), subresource };
}

/**
 * An optional query parameter as kube's parameter codec converts it (strconv): unset or empty is
 * undefined, a value strconv refuses is 400 with strconv's text.
 */
export function strconvParam<T>(q: URLSearchParams, name: string, parse: (v: string) => T): T | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  try {
    return parse(v);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
}
