// Containers, init containers and ephemeral containers (validateContainers and friends):
// names, images, ports, volume mounts and devices, resize policies, and the pod-only image
// rule; probes, env, resources and security contexts have files of their own.

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, invalid, notFound, notSupported, required } from '../../../machinery/validation/field.js';
import { validateDNS1123Label } from '../../../machinery/validation/names.js';
import { isValidPortName, isValidPortNum } from '../../../machinery/validation/network.js';
import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { localDescendingPath } from './paths.js';
import { validateLifecycle, validateLivenessOrStartup, validateReadinessProbe } from './probes.js';
import { validateResourceRequirements } from './resources.js';
import { validateSecurityContext } from './security-context.js';

const has = (o: Obj | undefined, k: string): boolean => o !== undefined && o[k] !== undefined && o[k] !== null;

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RRO = ['Disabled', 'Enabled', 'IfPossible'];

function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArr(ports).forEach((raw, i) => {
    const port = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(port.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) errs.push(...msgs.map((m) => invalid(`${p}.name`, name, m)));
      else if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
      else names.add(name);
    }
    const cp = port.containerPort;
    if (cp === undefined || cp === null || cp === 0) errs.push(required(`${p}.containerPort`));
    else if (typeof cp === 'number') errs.push(...isValidPortNum(cp).map((m) => invalid(`${p}.containerPort`, cp, m)));
    const hp = port.hostPort;
    if (typeof hp === 'number' && hp !== 0) errs.push(...isValidPortNum(hp).map((m) => invalid(`${p}.hostPort`, hp, m)));
    const proto = port.protocol;
    if (proto === undefined || proto === null || proto === '') errs.push(required(`${p}.protocol`));
    else if (!PROTOCOLS.includes(str(proto))) errs.push(notSupported(`${p}.protocol`, proto, PROTOCOLS));
  });
  return errs;
}

function validateVolumeMounts(mounts: unknown, devices: Map<string, string>, vols: Map<string, Obj>, ctr: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountpoints = new Set<string>();
  const privileged = asObj(ctr.securityContext)?.privileged === true;
  asArr(mounts).forEach((raw, i) => {
    const m = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!name) errs.push(required(`${p}.name`));
    if (!vols.has(name)) errs.push(notFound(`${p}.name`, name));
    if (!mountPath) errs.push(required(`${p}.mountPath`));
    if (mountpoints.has(mountPath)) errs.push(invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountpoints.add(mountPath);
    if (devices.has(name)) errs.push(invalid(`${p}.name`, name, 'must not already exist in volumeDevices'));
    if ([...devices.values()].includes(mountPath)) errs.push(invalid(`${p}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (has(vols.get(name), 'image')) {
      if (subPath) errs.push(invalid(`${p}.subPath`, subPath, 'not allowed in image volume sources'));
      if (subPathExpr) errs.push(invalid(`${p}.subPathExpr`, subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath) errs.push(...localDescendingPath(subPath, `${path}.subPath`));
    if (subPathExpr) {
      if (subPath) errs.push(invalid(`${p}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    const mp = m.mountPropagation;
    if (mp !== undefined && mp !== null) {
      if (!MOUNT_PROPAGATIONS.includes(str(mp))) errs.push(notSupported(`${path}.mountPropagation`, mp, MOUNT_PROPAGATIONS));
      if (mp === 'Bidirectional' && !privileged) {
        errs.push(forbidden(`${path}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    const rro = m.recursiveReadOnly;
    if (rro !== undefined && rro !== null && rro !== 'Disabled') {
      if (rro === 'Enabled' || rro === 'IfPossible') {
        if (m.readOnly !== true) errs.push(forbidden(`${path}.recursiveReadOnly`, 'may only be specified when readOnly is true'));
        if (mp !== undefined && mp !== null && mp !== 'None') {
          errs.push(forbidden(`${path}.recursiveReadOnly`, 'may only be specified when mountPropagation is None or not specified'));
        }
      } else errs.push(notSupported(`${path}.recursiveReadOnly`, rro, RRO));
    }
  });
  return errs;
}

function validateVolumeDevices(devices: unknown, mounts: Map<string, string>, vols: Map<string, Obj>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const names = new Set<string>();
  asArr(devices).forEach((raw, i) => {
    const d = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    const name = str(d.name);
    const devPath = str(d.devicePath);
    const vol = vols.get(name);
    const isPVC = has(vol, 'persistentVolumeClaim') || has(vol, 'ephemeral');
    if (!name) errs.push(required(`${p}.name`));
    if (names.has(name)) errs.push(invalid(`${p}.name`, name, 'must be unique'));
    if (vol && !isPVC) errs.push(invalid(`${p}.name`, name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!vol) errs.push(notFound(`${p}.name`, name));
    if (!devPath) errs.push(required(`${p}.devicePath`));
    if (paths.has(devPath)) errs.push(invalid(`${p}.devicePath`, devPath, 'must be unique'));
    if (devPath && devPath.split('/').includes('..')) errs.push(invalid(`${p}.devicePath`, devPath, "can not contain backsteps ('..')"));
    else paths.add(devPath);
    if (mounts.has(name)) errs.push(invalid(`${p}.name`, name, 'must not already exist in volumeMounts'));
    if ([...mounts.values()].includes(devPath)) errs.push(invalid(`${p}.devicePath`, devPath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}

const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];

function validateResizePolicy(list: unknown, path: string, podRestartPolicy: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  asArr(list).forEach((raw, i) => {
    const p = asObj(raw) ?? {};
    const rn = str(p.resourceName);
    const rp = str(p.restartPolicy);
    if (seen.has(rn)) errs.push(duplicate(`${path}[${i}]`, rn));
    seen.add(rn);
    if (!rn) errs.push(required(path));
    else if (!RESIZE_RESOURCES.includes(rn)) errs.push(notSupported(path, rn, RESIZE_RESOURCES));
    if (!rp) errs.push(required(path));
    else if (!RESIZE_POLICIES.includes(rp)) errs.push(notSupported(path, rp, RESIZE_POLICIES));
    if (podRestartPolicy === 'Never' && rp !== 'NotRequired') errs.push(invalid(path, rp, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

export interface SpecContext {
  vols: Map<string, Obj>;
  claims: Set<string>;
  grace: number | undefined;
  restartPolicy: string;
  hostUsers: boolean;
}

function validateContainerCommon(c: Obj, path: string, ctx: SpecContext): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push(required(`${path}.name`));
  else errs.push(...validateDNS1123Label(name, `${path}.name`));
  if (!str(c.image)) errs.push(required(`${path}.image`));
  const tmp = c.terminationMessagePolicy;
  if (tmp === undefined || tmp === null || tmp === '') errs.push(required(`${path}.terminationMessagePolicy`));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(str(tmp))) errs.push(notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_MESSAGE_POLICIES));
  const mounts = new Map<string, string>();
  for (const m of asArr(c.volumeMounts)) mounts.set(str(asObj(m)?.name), str(asObj(m)?.mountPath));
  const devices = new Map<string, string>();
  for (const d of asArr(c.volumeDevices)) devices.set(str(asObj(d)?.name), str(asObj(d)?.devicePath));
  errs.push(...validateContainerPorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c.volumeMounts, devices, ctx.vols, c, `${path}.volumeMounts`));
  errs.push(...validateVolumeDevices(c.volumeDevices, mounts, ctx.vols, `${path}.volumeDevices`));
  const pp = c.imagePullPolicy;
  if (pp === undefined || pp === null || pp === '') errs.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(str(pp))) errs.push(notSupported(`${path}.imagePullPolicy`, pp, PULL_POLICIES));
  errs.push(...validateResourceRequirements(c.resources, ctx.claims, `${path}.resources`));
  errs.push(...validateResizePolicy(c.resizePolicy, `${path}.resizePolicy`, ctx.restartPolicy));
  errs.push(...validateSecurityContext(c.securityContext, `${path}.securityContext`, ctx.hostUsers));
  return errs;
}

/** Host ports must not collide across `containers` (keyed protocol/hostIP/port). */
function hostPortConflicts(containers: unknown[], path: string, acc = new Set<string>()): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((raw, ci) => {
    const c = asObj(raw) ?? {};
    asArr(c.ports).forEach((pr, pi) => {
      const port = asObj(pr) ?? {};
      const hp = port.hostPort;
      if (typeof hp !== 'number' || hp === 0) return;
      const k = `${str(port.protocol)}/${str(port.hostIP)}/${hp}`;
      if (acc.has(k)) errs.push(duplicate(`${path}[${ci}].ports[${pi}].hostPort`, k));
      else acc.add(k);
    });
  });
  return errs;
}

export function validateContainers(containers: unknown, path: string, ctx: SpecContext): FieldError[] {
  const list = asArr(containers);
  if (list.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p, ctx));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
    else names.add(name);
    const lc = asObj(c.lifecycle);
    if (lc) errs.push(...validateLifecycle(lc, ctx.grace, `${p}.lifecycle`));
    errs.push(...validateLivenessOrStartup(c.livenessProbe, ctx.grace, `${p}.livenessProbe`));
    errs.push(...validateReadinessProbe(c.readinessProbe, ctx.grace, `${p}.readinessProbe`));
    errs.push(...validateLivenessOrStartup(c.startupProbe, ctx.grace, `${p}.startupProbe`));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
  });
  errs.push(...hostPortConflicts(list, path));
  return errs;
}

export function validateInitContainers(init: unknown, regular: unknown, path: string, ctx: SpecContext): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>(asArr(regular).map((c) => str(asObj(c)?.name)));
  asArr(init).forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p, ctx));
    let restartAlways = false;
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      if (c.restartPolicy !== 'Always') errs.push(notSupported(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
      restartAlways = c.restartPolicy === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(`${p}.name`, name));
    else if (name) names.add(name);
    errs.push(...hostPortConflicts([c], path));
    if (restartAlways) {
      const lc = asObj(c.lifecycle);
      if (lc) errs.push(...validateLifecycle(lc, ctx.grace, `${p}.lifecycle`));
      errs.push(...validateLivenessOrStartup(c.livenessProbe, ctx.grace, `${p}.livenessProbe`));
      errs.push(...validateReadinessProbe(c.readinessProbe, ctx.grace, `${p}.readinessProbe`));
      errs.push(...validateLivenessOrStartup(c.startupProbe, ctx.grace, `${p}.startupProbe`));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[f] !== undefined && c[f] !== null) errs.push(forbidden(`${p}.${f}`, 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

const EPHEMERAL_FORBIDDEN: Record<string, string> = {
  ports: 'ports',
  resources: 'resources',
  livenessProbe: 'livenessProbe',
  readinessProbe: 'readinessProbe',
  startupProbe: 'startupProbe',
  lifecycle: 'lifecycle',
};

export function validateEphemeralContainers(list: unknown, containers: unknown, init: unknown, path: string, ctx: SpecContext): FieldError[] {
  const ecs = asArr(list);
  if (ecs.length === 0) return [];
  const errs: FieldError[] = [];
  const other = new Set<string>([...asArr(containers), ...asArr(init)].map((c) => str(asObj(c)?.name)));
  const all = new Set(other);
  ecs.forEach((raw, i) => {
    const c = asObj(raw) ?? {};
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p, ctx));
    errs.push(...validateContainerOnlyForPod(c, p));
    const name = str(c.name);
    if (all.has(name)) errs.push(duplicate(`${p}.name`, name));
    else all.add(name);
    const target = str(c.targetContainerName);
    if (target && !other.has(target)) errs.push(notFound(`${p}.targetContainerName`, target));
    for (const f of Object.keys(EPHEMERAL_FORBIDDEN)) {
      const v = c[f];
      const empty = v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
      if (!empty) errs.push(forbidden(`${p}.${f}`, 'cannot be set for an Ephemeral Container'));
    }
    if (c.resizePolicy !== undefined && asArr(c.resizePolicy).length > 0) errs.push(forbidden(`${p}.resizePolicy`, 'cannot be set for an Ephemeral Container'));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(`${p}.restartPolicy`, 'cannot be set for an Ephemeral Container'));
    asArr(c.volumeMounts).forEach((vm, j) => {
      const m = asObj(vm) ?? {};
      if (str(m.subPath)) errs.push(forbidden(`${p}.volumeMounts[${j}].subPath`, 'cannot be set for an Ephemeral Container'));
      if (str(m.subPathExpr)) errs.push(forbidden(`${p}.volumeMounts[${j}].subPathExpr`, 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** Pod-only container checks (not for templates). */
function validateContainerOnlyForPod(c: Obj, path: string): FieldError[] {
  const image = str(c.image);
  return image.length !== image.trim().length ? [invalid(`${path}.image`, image, 'must not have leading or trailing whitespace')] : [];
}

export function validateContainersOnlyForPod(containers: unknown, path: string): FieldError[] {
  return asArr(containers).flatMap((c, i) => validateContainerOnlyForPod(asObj(c) ?? {}, `${path}[${i}]`));
}
