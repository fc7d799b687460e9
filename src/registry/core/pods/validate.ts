// A pod's validation on create and on update (ValidatePodCreate, ValidatePodUpdate): the
// pod spec with the pod-only rules, then on update what may change (images, active
// deadline, added tolerations, removed scheduling gates) and nothing else.

import { specDiff } from '../../generic/spec-diff.js';
import type { FieldError } from '../../../machinery/errors.js';
import { forbidden, invalid, required } from '../../../machinery/validation/field.js';
import type { KObject } from '../../../machinery/object.js';
import { asArr, asObj, deepEqual, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { DELETION_COST, validDeletionCost, validatePodSpecificAnnotationUpdates, validatePodSpecificAnnotations } from './annotations.js';
import { validateContainersOnlyForPod } from './containers.js';
import { validatePodSpec } from './pod-spec.js';

const spec = (o: KObject): Obj => (o.spec ??= {}) as Obj;

export function validatePodCreate(obj: KObject): FieldError[] {
  const s = spec(obj);
  const errs = validatePodMetadataAndSpec(obj);
  if (asArr(s.ephemeralContainers).length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (str(s.nodeName) && asArr(s.schedulingGates).length > 0) {
    errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** validatePodMetadataAndSpec without ValidateObjectMeta (the store runs that first). */
function validatePodMetadataAndSpec(obj: KObject, opts: { allowInvalidPodDeletionCost?: boolean } = {}): FieldError[] {
  const s = spec(obj);
  const errs = validatePodSpecificAnnotations(obj.metadata.annotations, s, 'metadata.annotations', opts);
  errs.push(...validatePodSpec(s, 'spec', { resourceIsPod: true, podName: obj.metadata.name }));
  if (!str(s.serviceAccountName)) {
    asArr(s.volumes).forEach((v, vi) => {
      asArr(asObj(asObj(v)?.projected)?.sources).forEach((src, si) => {
        if (asObj(src)?.serviceAccountToken !== undefined) {
          errs.push(forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(s.containers, 'spec.containers'));
  errs.push(...validateContainersOnlyForPod(s.initContainers, 'spec.initContainers'));
  return errs;
}

const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function containerUpdateErrors(next: unknown, prev: unknown, path: string): { errs: FieldError[]; stop: boolean } {
  const n = asArr(next);
  if (n.length !== asArr(prev).length) {
    return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  }
  const errs: FieldError[] = [];
  n.forEach((c, i) => {
    const image = str(asObj(c)?.image);
    if (!image) errs.push(required(`${path}[${i}].image`));
    if (image.trim().length !== image.length) {
      errs.push(invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    }
  });
  return { errs, stop: false };
}

function tolerationEqualIgnoringSeconds(a: Obj, b: Obj): boolean {
  const { tolerationSeconds: _a, ...ra } = a;
  const { tolerationSeconds: _b, ...rb } = b;
  void _a;
  void _b;
  return deepEqual(ra, rb);
}

export function validatePodUpdate(obj: KObject, old: KObject): FieldError[] {
  const s = spec(obj);
  const o = (old.spec ?? {}) as Obj;
  const oldCost = (old.metadata.annotations ?? {})[DELETION_COST];
  const allowInvalidPodDeletionCost = oldCost !== undefined && !validDeletionCost(oldCost);
  // kube runs some of these twice (ValidateObjectMeta, the pod annotations, the tolerations)
  // and its aggregated message drops the repeats; kapi runs each once.
  const errs = validatePodMetadataAndSpec(obj, { allowInvalidPodDeletionCost });
  errs.push(...validatePodSpecificAnnotationUpdates(obj.metadata.annotations, old.metadata.annotations, 'metadata.annotations'));

  for (const list of ['containers', 'initContainers'] as const) {
    const r = containerUpdateErrors(s[list], o[list], `spec.${list}`);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }

  const nads = s.activeDeadlineSeconds;
  const oads = o.activeDeadlineSeconds;
  if (typeof nads === 'number') {
    if (nads < 0 || nads > 2147483647) {
      errs.push(invalid('spec.activeDeadlineSeconds', nads, 'must be between 0 and 2147483647, inclusive'));
      return errs;
    }
    if (typeof oads === 'number' && oads < nads) {
      errs.push(invalid('spec.activeDeadlineSeconds', nads, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oads === 'number') {
    errs.push(invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }

  // Only additions to tolerations (tolerationSeconds of existing ones may change).
  const newTols = asArr(s.tolerations).filter(isObj);
  const allKept = asArr(o.tolerations)
    .filter(isObj)
    .every((ot) => newTols.some((nt) => tolerationEqualIgnoringSeconds(ot, nt)));
  if (!allKept) errs.push(forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));

  // Only deletions from schedulingGates.
  const oldGates = new Set(asArr(o.schedulingGates).map((g) => str(asObj(g)?.name)));
  asArr(s.schedulingGates).forEach((g, i) => {
    const name = str(asObj(g)?.name);
    if (!oldGates.has(name)) {
      errs.push(forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
    }
  });

  if (deepEqual(s, o)) return errs;

  const munged: Obj = structuredClone(s);
  for (const list of ['containers', 'initContainers'] as const) {
    const prev = asArr(o[list]);
    asArr(munged[list]).forEach((c, i) => {
      const mc = asObj(c);
      if (!mc) return;
      const pi = asObj(prev[i])?.image;
      if (pi === undefined) delete mc.image;
      else mc.image = pi;
    });
  }
  for (const f of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (o[f] === undefined) delete munged[f];
    else munged[f] = o[f];
  }
  if (typeof o.terminationGracePeriodSeconds === 'number' && o.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds;
  }
  if (!deepEqual(munged, o)) {
    errs.push(forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${specDiff('core.PodSpec', o, munged)}`));
  }
  return errs;
}
