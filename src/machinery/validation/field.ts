// Field error constructors, after k8s.io/apimachinery/pkg/util/validation/field (Required,
// Invalid, Forbidden, ...): one place for the shapes every type's validation returns.

import type { FieldError } from '../errors.js';

export const required = (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail });
export const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail });
export const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
export const duplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' });
export const notFound = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue, detail: '' });
export const notSupported = (field: string, badValue: unknown, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  badValue,
  detail: '',
  supported,
});
export const tooLong = (field: string, max: number): FieldError => ({ type: 'FieldValueTooLong', field, detail: `may not be more than ${max} bytes` });

/** path.Key(k): `path[k]`. */
export const key = (path: string, k: string): string => `${path}[${k}]`;

export const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;
export const NON_NEGATIVE = 'must be greater than or equal to 0';

/** ValidateNonnegativeField: a number below 0 is invalid (absent values are not checked). */
export const nonNegative = (value: unknown, field: string): FieldError[] => (typeof value === 'number' && value < 0 ? [invalid(field, value, NON_NEGATIVE)] : []);

/**
 * A bad value Go renders with its String() method (resource names, quantities, IntOrString):
 * printed bare, without quotes (fieldErrorMessage reads `goString`).
 */
export class GoStringer {
  constructor(readonly goString: string) {}
  toJSON(): string {
    return this.goString;
  }
}
