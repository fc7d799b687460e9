// metav1 Condition lists, as apimachinery's ValidateConditions checks them (used by status
// subresources that carry []metav1.Condition, a PodDisruptionBudget's among them).

import type { FieldError } from '../errors.js';
import { duplicate, invalid, notSupported, required, tooLong } from './field.js';
import { isQualifiedName, regexError } from './names.js';

const STATUSES = ['False', 'True', 'Unknown'];
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);
const REASON_ERROR = regexError(
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
  REASON_FMT,
  'my_name',
  'MY_NAME',
  'MyName',
  'ReasonA,ReasonB',
  'ReasonA:ReasonB',
);
const MAX_REASON = 1024;
const MAX_MESSAGE = 32 * 1024;

interface Condition {
  type?: unknown;
  status?: unknown;
  observedGeneration?: unknown;
  lastTransitionTime?: unknown;
  reason?: unknown;
  message?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function validateConditions(conditions: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(conditions)) return errs;
  const seen = new Set<string>();
  conditions.forEach((raw, i) => {
    const c = (raw ?? {}) as Condition;
    const p = `${path}[${i}]`;
    const type = text(c.type);
    if (seen.has(type)) errs.push(duplicate(`${p}.type`, type));
    else seen.add(type);
    for (const m of isQualifiedName(type)) errs.push(invalid(`${p}.type`, type, m));
    if (!STATUSES.includes(text(c.status))) errs.push(notSupported(`${p}.status`, text(c.status), STATUSES));
    if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) {
      errs.push(invalid(`${p}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'));
    }
    if (!c.lastTransitionTime) errs.push(required(`${p}.lastTransitionTime`, 'must be set'));
    const reason = text(c.reason);
    if (reason === '') errs.push(required(`${p}.reason`, 'must be set'));
    else {
      if (!REASON_RE.test(reason)) errs.push(invalid(`${p}.reason`, reason, REASON_ERROR));
      if (Buffer.byteLength(reason) > MAX_REASON) errs.push(tooLong(`${p}.reason`, MAX_REASON));
    }
    if (Buffer.byteLength(text(c.message)) > MAX_MESSAGE) errs.push(tooLong(`${p}.message`, MAX_MESSAGE));
  });
  return errs;
}
