// Container environment (env and envFrom) with kube 1.33's rules; RelaxedEnvironment-
// VariableValidation is on, so any printable ASCII name but '=' is allowed.

import type { FieldError } from '../../../machinery/errors.js';
import { invalid, required } from '../../../machinery/validation/field.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain, regexError } from '../../../machinery/validation/names.js';
import { asArr, asObj, str, type Obj } from '../../../machinery/json-view.js';
import { ENV_FIELD_PATHS, validateContainerResourceFieldSelector, validateObjectFieldSelector } from './downward-api.js';

function hasChDirPrefix(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  if (v.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation is on in 1.33). */
function isRelaxedEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (v.length === 0) errs.push('environment variable name must be non-empty');
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (c > 127 || c < 32 || c === 127 || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

/** IsConfigMapKey. */
function isConfigMapKey(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!/^[-._a-zA-Z0-9]+$/.test(v)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", '[-._a-zA-Z0-9]+', 'key.name', 'KEY_NAME', 'key-name'));
  }
  errs.push(...hasChDirPrefix(v));
  return errs;
}

export function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(env).forEach((raw, i) => {
    const ev = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(ev.name);
    if (!name) errs.push(required(`${p}.name`));
    else errs.push(...isRelaxedEnvVarName(name).map((m) => invalid(`${p}.name`, name, m)));
    errs.push(...validateEnvVarValueFrom(ev, `${p}.valueFrom`));
  });
  return errs;
}

function validateKeySelector(s: Obj, path: string): FieldError[] {
  const errs = isDNS1123Subdomain(str(s.name)).map((m) => invalid(`${path}.name`, str(s.name), m));
  const k = str(s.key);
  if (!k) errs.push(required(`${path}.key`));
  else errs.push(...isConfigMapKey(k).map((m) => invalid(`${path}.key`, k, m)));
  return errs;
}

function validateEnvVarValueFrom(ev: Obj, path: string): FieldError[] {
  const vf = asObj(ev.valueFrom);
  if (!vf) return [];
  const errs: FieldError[] = [];
  let n = 0;
  const fr = asObj(vf.fieldRef);
  if (fr) {
    n++;
    errs.push(...validateObjectFieldSelector(fr, ENV_FIELD_PATHS, `${path}.fieldRef`));
  }
  const rr = asObj(vf.resourceFieldRef);
  if (rr) {
    n++;
    errs.push(...validateContainerResourceFieldSelector(rr, `${path}.resourceFieldRef`, false));
  }
  const cm = asObj(vf.configMapKeyRef);
  if (cm) {
    n++;
    errs.push(...validateKeySelector(cm, `${path}.configMapKeyRef`));
  }
  const sk = asObj(vf.secretKeyRef);
  if (sk) {
    n++;
    errs.push(...validateKeySelector(sk, `${path}.secretKeyRef`));
  }
  if (n === 0) errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value)) errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (n > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

export function validateEnvFrom(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(envFrom).forEach((raw, i) => {
    const ev = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix) errs.push(...isRelaxedEnvVarName(prefix).map((m) => invalid(`${p}.prefix`, prefix, m)));
    let n = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = asObj(ev[kind]);
      if (!ref) continue;
      n++;
      const name = str(ref.name);
      if (!name) errs.push(required(`${p}.${kind}.name`));
      else errs.push(...nameIsDNSSubdomain(name, true).map((m) => invalid(`${p}.${kind}.name`, name, m)));
    }
    if (n === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
