// The annotations kube gives meaning on pods and pod templates (mirror pods, deletion cost,
// the deprecated seccomp and AppArmor annotations): ValidatePodSpecificAnnotations and
// ValidatePodSpecificAnnotationUpdates.

import type { FieldError } from '../../../machinery/errors.js';
import { forbidden, invalid, key } from '../../../machinery/validation/field.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';
import { localDescendingPath } from './paths.js';

const MAX_INT32 = 2147483647;

const MIRROR_POD = 'kubernetes.io/config.mirror';
export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** GetDeletionCostFromPodAnnotations accepts it: a 32-bit integer without '+' or leading zeros. */
export function validDeletionCost(v: string): boolean {
  if (!(v.startsWith('-') || v === '0' || /^[1-9]/.test(v))) return false;
  if (!/^[-+]?\d+$/.test(v)) return false;
  const n = Number(v);
  return n >= -2147483648 && n <= MAX_INT32;
}

function validateSeccompAnnotationValue(p: string, path: string): FieldError[] {
  if (p === 'runtime/default' || p === 'docker/default' || p === 'unconfined') return [];
  if (p.startsWith('localhost/')) return localDescendingPath(p.slice('localhost/'.length), path);
  return [invalid(path, p, 'must be a valid seccomp profile')];
}

function specHasContainer(spec: Obj, name: string): boolean {
  return (['containers', 'initContainers', 'ephemeralContainers'] as const).some((k) => asArr(spec[k]).some((c) => asObj(c)?.name === name));
}

/** ValidatePodSpecificAnnotations at `path` (metadata.annotations or template.annotations). */
export function validatePodSpecificAnnotations(annotations: unknown, specIn: unknown, path: string, opts: { allowInvalidPodDeletionCost?: boolean } = {}): FieldError[] {
  const a = (asObj(annotations) ?? {}) as Record<string, string>;
  const spec = asObj(specIn) ?? {};
  const errs: FieldError[] = [];
  if (Object.hasOwn(a, MIRROR_POD) && !str(spec.nodeName)) {
    errs.push(invalid(key(path, MIRROR_POD), a[MIRROR_POD], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  if (!opts.allowInvalidPodDeletionCost && Object.hasOwn(a, DELETION_COST) && !validDeletionCost(a[DELETION_COST])) {
    errs.push(invalid(key(path, DELETION_COST), a[DELETION_COST], 'must be a 32bit integer'));
  }
  if (Object.hasOwn(a, SECCOMP_POD)) errs.push(...validateSeccompAnnotationValue(a[SECCOMP_POD], `${path}.${SECCOMP_POD}`));
  for (const [k, v] of Object.entries(a)) {
    if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...validateSeccompAnnotationValue(v, `${path}.${k}`));
  }
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(APPARMOR_PREFIX)) continue;
    const c = k.slice(APPARMOR_PREFIX.length);
    if (!specHasContainer(spec, c)) errs.push(invalid(key(path, k), c, 'container not found'));
    if (!(v === '' || v === 'runtime/default' || v === 'unconfined' || v.startsWith('localhost/'))) {
      errs.push(invalid(key(path, k), v, `invalid AppArmor profile name: ${JSON.stringify(v)}`));
    }
  }
  return errs;
}

/** ValidatePodSpecificAnnotationUpdates' own rules (AppArmor and mirror-pod annotations may not change). */
export function validatePodSpecificAnnotationUpdates(newAnn: unknown, oldAnn: unknown, path: string): FieldError[] {
  const n = (asObj(newAnn) ?? {}) as Record<string, string>;
  const o = (asObj(oldAnn) ?? {}) as Record<string, string>;
  const errs: FieldError[] = [];
  for (const [k, ov] of Object.entries(o)) {
    if (Object.hasOwn(n, k) && n[k] === ov) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(key(path, k), 'may not remove or update AppArmor annotations'));
    if (k === MIRROR_POD) errs.push(forbidden(key(path, k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(n)) {
    if (Object.hasOwn(o, k)) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(key(path, k), 'may not add AppArmor annotations'));
    if (k === MIRROR_POD) errs.push(forbidden(key(path, k), 'may not add mirror pod annotation'));
  }
  return errs;
}
