// The path and file mode rules of pod fields (subPath, key-to-path items, downward API
// files, seccomp profiles): relative, without backsteps; modes within 0777.

import type { FieldError } from '../../../machinery/errors.js';
import { invalid } from '../../../machinery/validation/field.js';

/** validateLocalDescendingPath: relative (not path.IsAbs), no `..` elements. */
export function localDescendingPath(p: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.startsWith('/')) errs.push(invalid(field, p, 'must be a relative path'));
  errs.push(...noBacksteps(p, field));
  return errs;
}

export function noBacksteps(p: string, field: string): FieldError[] {
  return p.split('/').includes('..') ? [invalid(field, p, "must not contain '..'")] : [];
}

/** validateLocalNonReservedPath: a local descending path that does not start with `..`. */
export function localNonReservedPath(p: string, field: string): FieldError[] {
  const errs = localDescendingPath(p, field);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(invalid(field, p, "must not start with '..'"));
  return errs;
}

const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';

/** validateFileMode (the mode bits of a projected file). */
export const fileMode = (v: unknown, field: string): FieldError[] =>
  typeof v === 'number' && (v > 0o777 || v < 0) ? [invalid(field, v, FILE_MODE_MSG)] : [];
