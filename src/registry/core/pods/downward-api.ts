// The downward API's references (fieldRef, resourceFieldRef), shared by container env
// values and downwardAPI volume files, with kube 1.33's accepted paths and divisors.

import type { FieldError } from '../../../machinery/errors.js';
import { invalid, notSupported, required } from '../../../machinery/validation/field.js';
import { validateQualifiedName } from '../../../machinery/validation/names.js';
import { qty } from '../../../schema/quantity.js';
import { asObj, str, type Obj } from '../../../machinery/json-view.js';
import { fileMode, localNonReservedPath } from './paths.js';

const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
const DOWNWARD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);
const CONTAINER_RESOURCE_FIELDS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function splitSubscripted(p: string): [string, string] | undefined {
  if (!p.endsWith("']")) return undefined;
  const s = p.slice(0, -2);
  const i = s.indexOf("['");
  if (i <= 0) return undefined;
  return [s.slice(0, i), s.slice(i + 2)];
}

export function validateObjectFieldSelector(fs: Obj, expressions: string[], path: string): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (!apiVersion) return [required(`${path}.apiVersion`)];
  if (!fieldPath) return [required(`${path}.fieldPath`)];
  let internal = fieldPath;
  let convErr: string | undefined;
  if (apiVersion !== 'v1') convErr = `unsupported pod version: ${apiVersion}`;
  else {
    const sub = splitSubscripted(fieldPath);
    if (sub) {
      if (sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') convErr = `field label does not support subscript: ${fieldPath}`;
    } else if (fieldPath === 'spec.host') internal = 'spec.nodeName';
    else if (!DOWNWARD_LABELS.has(fieldPath)) convErr = `field label not supported: ${fieldPath}`;
  }
  if (convErr) return [invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${convErr}`)];
  const sub = splitSubscripted(internal);
  if (sub) {
    if (sub[0] === 'metadata.annotations') return validateQualifiedName(sub[1].toLowerCase(), path);
    return validateQualifiedName(sub[1], path);
  }
  if (!expressions.includes(internal)) return [notSupported(`${path}.fieldPath`, internal, expressions)];
  return [];
}

const DIVISORS_CPU = new Set(['1m', '1']);
const DIVISORS_MEM = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);

export function validateContainerResourceFieldSelector(fs: Obj, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && !str(fs.containerName)) errs.push(required(`${path}.containerName`));
  else if (!resource) errs.push(required(`${path}.resource`));
  else if (!CONTAINER_RESOURCE_FIELDS.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    errs.push(notSupported(`${path}.resource`, resource, CONTAINER_RESOURCE_FIELDS));
  }
  const d = fs.divisor === undefined || fs.divisor === null ? undefined : qty(fs.divisor);
  if (d && !d.isZero) {
    const ds = d.canonical;
    if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !DIVISORS_CPU.has(ds)) {
      errs.push(invalid(`${path}.divisor`, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
    } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !DIVISORS_MEM.has(ds)) {
      errs.push(invalid(`${path}.divisor`, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"));
    } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !DIVISORS_MEM.has(ds)) {
      errs.push(
        invalid(`${path}.divisor`, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"),
      );
    }
    if ((resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) && !DIVISORS_MEM.has(ds)) {
      errs.push(invalid(`${path}.divisor`, resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"));
    }
  }
  return errs;
}

export function validateDownwardAPIFile(file: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(file.path)) errs.push(required(`${path}.path`));
  errs.push(...localNonReservedPath(str(file.path), `${path}.path`));
  const fr = asObj(file.fieldRef);
  const rr = asObj(file.resourceFieldRef);
  if (fr) {
    errs.push(...validateObjectFieldSelector(fr, VOLUME_FIELD_PATHS, `${path}.fieldRef`));
    if (rr) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (rr) {
    errs.push(...validateContainerResourceFieldSelector(rr, `${path}.resourceFieldRef`, true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...fileMode(file.mode, `${path}.mode`));
  return errs;
}

