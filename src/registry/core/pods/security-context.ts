// Security contexts, of containers and of the pod (seccomp and AppArmor profiles, ids,
// sysctls, policies), and what a pod's OS allows of them (validateOS).

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, inclusiveRange, invalid, notSupported, required, tooLong } from '../../../machinery/validation/field.js';
import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { localDescendingPath } from './paths.js';

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function validateSeccompProfileField(sp: unknown, path: string): FieldError[] {
  const s = asObj(sp);
  if (!s) return [];
  const errs: FieldError[] = [];
  const t = str(s.type);
  if (!t) errs.push(required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(t)) errs.push(notSupported(`${path}.type`, t, SECCOMP_TYPES));
  if (t === 'Localhost') {
    if (s.localhostProfile === undefined || s.localhostProfile === null) errs.push(required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPath(str(s.localhostProfile), `${path}.localhostProfile`));
  } else if (s.localhostProfile !== undefined && s.localhostProfile !== null) {
    errs.push(invalid(`${path}.localhostProfile`, s, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateAppArmorProfileField(ap: unknown, path: string): FieldError[] {
  const a = asObj(ap);
  if (!a) return [];
  const errs: FieldError[] = [];
  const t = str(a.type);
  const lp = a.localhostProfile;
  if (t === 'Localhost') {
    if (lp === undefined || lp === null) errs.push(required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
    else {
      const s = str(lp);
      if (s.trim() !== s) errs.push(invalid(`${path}.localhostProfile`, s, 'must not be padded with whitespace'));
      else if (s === '') errs.push(required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
      if (s.length > 4095) errs.push(tooLong(`${path}.localhostProfile`, 4095));
    }
  } else if (t === 'RuntimeDefault' || t === 'Unconfined') {
    if (lp !== undefined && lp !== null) errs.push(invalid(`${path}.localhostProfile`, lp, 'can only be set when AppArmor type is Localhost'));
  } else if (t === '') errs.push(required(`${path}.type`, 'type is required when appArmorProfile is set'));
  else errs.push(notSupported(`${path}.type`, t, APPARMOR_TYPES));
  return errs;
}

// IsValidUserID and IsValidGroupID: 0 to math.MaxInt32.
const ID_RANGE = inclusiveRange(0, 2147483647);
const validId = (v: unknown, field: string): FieldError[] =>
  typeof v === 'number' && (v < 0 || v > 2147483647) ? [invalid(field, v, ID_RANGE)] : [];

export function validateSecurityContext(sc: unknown, path: string, hostUsers: boolean): FieldError[] {
  const s = asObj(sc);
  if (!s) return [];
  const errs: FieldError[] = [];
  errs.push(...validId(s.runAsUser, `${path}.runAsUser`));
  errs.push(...validId(s.runAsGroup, `${path}.runAsGroup`));
  if (s.procMount !== undefined && s.procMount !== null) {
    if (s.procMount !== 'Default' && s.procMount !== 'Unmasked') errs.push(notSupported(`${path}.procMount`, s.procMount, ['Default', 'Unmasked']));
    if (hostUsers && s.procMount === 'Unmasked') errs.push(invalid(`${path}.procMount`, s.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfileField(s.seccompProfile, `${path}.seccompProfile`));
  if (s.allowPrivilegeEscalation === false) {
    if (s.privileged === true) errs.push(invalid(path, s, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const c of asArr(asObj(s.capabilities)?.add)) {
      if (c === 'CAP_SYS_ADMIN') errs.push(invalid(path, s, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateAppArmorProfileField(s.appArmorProfile, `${path}.appArmorProfile`));
  return errs;
}

const SYSCTL_REGEX = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const SYSCTL_REGEX_TEXT = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';

function sysctlNamespace(name: string): 'net' | 'ipc' | 'uts' | '' {
  const n = name.replaceAll('/', '.');
  if (n === 'kernel.sem') return 'ipc';
  if (n === 'kernel.domainname' || n === 'kernel.hostname') return 'uts';
  if (n.startsWith('kernel.shm') || n.startsWith('kernel.msg') || n.startsWith('fs.mqueue.')) return 'ipc';
  if (n.startsWith('net.')) return 'net';
  return '';
}

const FS_GROUP_POLICIES = ['Always', 'OnRootMismatch'];
const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict'];
const SELINUX_CHANGE_POLICIES = ['MountOption', 'Recursive'];

export function validatePodSecurityContext(spec: Obj, path: string): FieldError[] {
  const sc = asObj(spec.securityContext);
  const errs: FieldError[] = [];
  // hostPID/hostIPC/shareProcessNamespace live in the internal PodSecurityContext: kube's paths say so.
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(`${path}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (!sc) return errs;
  const out: FieldError[] = [];
  out.push(...validId(sc.fsGroup, `${path}.fsGroup`));
  out.push(...validId(sc.runAsUser, `${path}.runAsUser`));
  out.push(...validId(sc.runAsGroup, `${path}.runAsGroup`));
  asArr(sc.supplementalGroups).forEach((g, i) => out.push(...validId(g, `${path}.supplementalGroups[${i}]`)));
  out.push(...errs);
  const names = new Set<string>();
  asArr(sc.sysctls).forEach((raw, i) => {
    const s = asObj(raw) ?? {};
    const name = str(s.name);
    const p = `${path}.sysctls[${i}].name`;
    if (!name) out.push(required(p));
    else if (name.length > 253 || !SYSCTL_REGEX.test(name)) out.push(invalid(p, name, `must have at most 253 characters and match regex ${SYSCTL_REGEX_TEXT}`));
    else if (names.has(name)) out.push(duplicate(p, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') out.push(invalid(p, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') out.push(invalid(p, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  if (sc.fsGroupChangePolicy !== undefined && sc.fsGroupChangePolicy !== null && !FS_GROUP_POLICIES.includes(str(sc.fsGroupChangePolicy))) {
    out.push(notSupported(`${path}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, FS_GROUP_POLICIES));
  }
  out.push(...validateSeccompProfileField(sc.seccompProfile, `${path}.seccompProfile`));
  out.push(...validateAppArmorProfileField(sc.appArmorProfile, `${path}.appArmorProfile`));
  if (sc.supplementalGroupsPolicy !== undefined && sc.supplementalGroupsPolicy !== null && !SUPPLEMENTAL_GROUPS_POLICIES.includes(str(sc.supplementalGroupsPolicy))) {
    out.push(notSupported(`${path}.supplementalGroupsPolicy`, sc.supplementalGroupsPolicy, SUPPLEMENTAL_GROUPS_POLICIES));
  }
  if (sc.seLinuxChangePolicy !== undefined && sc.seLinuxChangePolicy !== null && !SELINUX_CHANGE_POLICIES.includes(str(sc.seLinuxChangePolicy))) {
    out.push(notSupported(`${path}.seLinuxChangePolicy`, sc.seLinuxChangePolicy, SELINUX_CHANGE_POLICIES));
  }
  return out;
}

export function validateOS(spec: Obj, path: string): FieldError[] {
  const os = asObj(spec.os);
  if (!os) return [];
  const name = str(os.name);
  if (!name) return [required(`${path}.os.name`, 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [notSupported(`${path}.os`, name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const containers = (['containers', 'initContainers', 'ephemeralContainers'] as const).flatMap((k) =>
    asArr(spec[k]).map((c, i) => [asObj(c) ?? {}, `${path}.${k}[${i}]`] as const),
  );
  const psc = asObj(spec.securityContext);
  if (name === 'linux') {
    if (psc && isObj(psc.windowsOptions)) errs.push(forbidden(`${path}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    for (const [c, p] of containers) {
      if (isObj(asObj(c.securityContext)?.windowsOptions)) errs.push(forbidden(`${p}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    }
    return errs;
  }
  const set = (v: unknown): boolean => v !== undefined && v !== null;
  const win = (p: string): FieldError => forbidden(p, 'cannot be set for a windows pod');
  if (psc) {
    if (set(psc.appArmorProfile)) errs.push(win(`${path}.securityContext.appArmorProfile`));
    if (set(psc.seLinuxOptions)) errs.push(win(`${path}.securityContext.seLinuxOptions`));
  }
  if (set(spec.hostUsers)) errs.push(win(`${path}.hostUsers`));
  if (spec.hostPID === true) errs.push(win(`${path}.hostPID`));
  if (spec.hostIPC === true) errs.push(win(`${path}.hostIPC`));
  if (psc) {
    if (set(psc.seccompProfile)) errs.push(win(`${path}.securityContext.seccompProfile`));
    if (set(psc.fsGroup)) errs.push(win(`${path}.securityContext.fsGroup`));
    if (set(psc.fsGroupChangePolicy)) errs.push(win(`${path}.securityContext.fsGroupChangePolicy`));
    if (asArr(psc.sysctls).length > 0) errs.push(win(`${path}.securityContext.sysctls`));
  }
  if (set(spec.shareProcessNamespace)) errs.push(win(`${path}.shareProcessNamespace`));
  if (psc) {
    if (set(psc.runAsUser)) errs.push(win(`${path}.securityContext.runAsUser`));
    if (set(psc.runAsGroup)) errs.push(win(`${path}.securityContext.runAsGroup`));
    if (set(psc.supplementalGroups)) errs.push(win(`${path}.securityContext.supplementalGroups`));
    if (set(psc.supplementalGroupsPolicy)) errs.push(win(`${path}.securityContext.supplementalGroupsPolicy`));
    if (set(psc.seLinuxChangePolicy)) errs.push(win(`${path}.securityContext.seLinuxChangePolicy`));
  }
  for (const [c, p] of containers) {
    const sc = asObj(c.securityContext);
    if (!sc) continue;
    for (const f of ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      if (set(sc[f])) errs.push(win(`${p}.securityContext.${f}`));
    }
  }
  return errs;
}
