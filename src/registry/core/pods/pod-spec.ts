// ValidatePodSpec and ValidatePodTemplateSpec with kube-apiserver 1.33's field paths and
// messages, over the sections in this folder (volumes, containers, resources, security
// contexts, scheduling). Feature gates are taken at their 1.33 defaults: relaxed env var
// names, relaxed DNS search paths and zero-second sleep actions are allowed; pod-level
// resources and image volumes are off.

import type { FieldError } from '../../../machinery/errors.js';
import { duplicate, forbidden, inclusiveRange, invalid, notSupported, required } from '../../../machinery/validation/field.js';
import { regexError, validateDNS1123Label, validateDNS1123Subdomain, validateQualifiedName } from '../../../machinery/validation/names.js';
import { IP_MSG, isIP } from '../../../machinery/validation/network.js';
import { validateAnnotations, validateLabels } from '../../../machinery/validation/object-meta.js';
import { asArr, asObj, isObj, str } from '../../../machinery/json-view.js';
import { validatePodSpecificAnnotations } from './annotations.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers, type SpecContext } from './containers.js';
import { validatePodResourceClaims, validateResourceRequirements } from './resources.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling.js';
import { validateOS, validatePodSecurityContext } from './security-context.js';
import { validateVolumes } from './volumes.js';

export interface PodValidationOptions {
  /** The object is a Pod (not a template embedded in another resource). */
  resourceIsPod?: boolean;
  /** The pod's metadata, for the names of generic ephemeral volume claims (pods only). */
  podName?: string;
  /** The old pod already had an invalid pod-deletion-cost annotation (update ratcheting). */
  allowInvalidPodDeletionCost?: boolean;
}

const MAX_INT32 = 2147483647;
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

const ipErrors = (v: string, field: string): FieldError[] => (isIP(v) ? [] : [invalid(field, v, IP_MSG)]);

function validateDNSConfig(cfg: unknown, dnsPolicy: unknown, path: string): FieldError[] {
  const c = asObj(cfg);
  if (dnsPolicy === 'None') {
    if (!c) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (asArr(c.nameservers).length === 0) return [required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!c) return [];
  const errs: FieldError[] = [];
  const ns = asArr(c.nameservers).map(str);
  if (ns.length > 3) errs.push(invalid(`${path}.nameservers`, ns, 'must not have more than 3 nameservers'));
  ns.forEach((n, i) => errs.push(...ipErrors(n, `${path}.nameservers[${i}]`)));
  const searches = asArr(c.searches).map(str);
  if (searches.length > 32) errs.push(invalid(`${path}.searches`, searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) errs.push(invalid(`${path}.searches`, searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => {
    if (s === '.') return;
    const v = s.endsWith('.') ? s.slice(0, -1) : s;
    const msgs: string[] = [];
    if (v.length > 253) msgs.push('must be no more than 253 characters');
    if (!/^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$/.test(v)) {
      msgs.push(
        regexError(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
          '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*',
          'example.com',
        ),
      );
    }
    errs.push(...msgs.map((m) => invalid(`${path}.searches[${i}]`, v, m)));
  });
  asArr(c.options).forEach((o, i) => {
    if (!str(asObj(o)?.name)) errs.push(required(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

function validateImagePullSecrets(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArr(list).forEach((raw, i) => {
    const s = asObj(raw) ?? {};
    if (Object.keys(s).some((k) => k !== 'name' && s[k] !== undefined)) errs.push(invalid(`${path}[${i}]`, s, 'only name may be set'));
  });
  return errs;
}

/**
 * ValidatePodSpec. `path` is the spec's own path ("spec" for a pod,
 * "spec.template.spec" for a template).
 */
export function validatePodSpec(specIn: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const spec = asObj(specIn) ?? {};
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    errs.push(required(`${path}.terminationGracePeriodSeconds`));
  }
  const grace = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : undefined;
  const hostUsers = spec.hostUsers !== false;
  const { vols, errs: volErrs } = validateVolumes(spec.volumes, `${path}.volumes`, opts.podName);
  errs.push(...volErrs);
  const claims = new Set(asArr(spec.resourceClaims).map((c) => str(asObj(c)?.name)).filter(Boolean));
  errs.push(...validatePodResourceClaims(spec.resourceClaims, `${path}.resourceClaims`));
  const ctx: SpecContext = { vols, claims, grace, restartPolicy: str(spec.restartPolicy), hostUsers };
  errs.push(...validateContainers(spec.containers, `${path}.containers`, ctx));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, `${path}.initContainers`, ctx));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, `${path}.ephemeralContainers`, ctx));
  if (spec.hostNetwork === true) {
    asArr(spec.containers).forEach((raw, i) => {
      asArr(asObj(raw)?.ports).forEach((pr, j) => {
        const port = asObj(pr) ?? {};
        const hp = typeof port.hostPort === 'number' ? port.hostPort : 0;
        const cp = typeof port.containerPort === 'number' ? port.containerPort : 0;
        if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
          errs.push(invalid(`${path}.containers[${i}].ports[${j}].hostPort`, hp, 'must match `containerPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  const rp = spec.restartPolicy;
  if (rp === undefined || rp === null || rp === '') errs.push(required(`${path}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(str(rp))) errs.push(notSupported(`${path}.restartPolicy`, rp, RESTART_POLICIES));
  const dp = spec.dnsPolicy;
  if (dp === undefined || dp === null || dp === '') errs.push(required(`${path}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(str(dp))) errs.push(notSupported(`${path}.dnsPolicy`, dp, DNS_POLICIES));
  errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  errs.push(...validatePodSecurityContext(spec, `${path}.securityContext`));
  errs.push(...validateImagePullSecrets(spec.imagePullSecrets, `${path}.imagePullSecrets`));
  errs.push(...validateAffinity(spec.affinity, `${path}.affinity`));
  errs.push(...validateDNSConfig(spec.dnsConfig, spec.dnsPolicy, `${path}.dnsConfig`));
  asArr(spec.readinessGates).forEach((g, i) => errs.push(...validateQualifiedName(str(asObj(g)?.conditionType), `${path}.readinessGates[${i}].conditionType`)));
  const gates = new Set<string>();
  asArr(spec.schedulingGates).forEach((g, i) => {
    const name = str(asObj(g)?.name);
    errs.push(...validateQualifiedName(name, `${path}.schedulingGates[${i}]`));
    if (gates.has(name)) errs.push(duplicate(`${path}.schedulingGates[${i}]`, name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${path}.topologySpreadConstraints`));
  if (spec.hostUsers === false) {
    if (spec.hostNetwork === true) errs.push(forbidden(`${path}.hostNetwork`, 'when `pod.Spec.HostUsers` is false'));
    if (spec.hostPID === true) errs.push(forbidden(`${path}.HostPID`, 'when `pod.Spec.HostUsers` is false'));
    if (spec.hostIPC === true) errs.push(forbidden(`${path}.HostIPC`, 'when `pod.Spec.HostUsers` is false'));
  }
  const sa = str(spec.serviceAccountName);
  if (sa) errs.push(...validateDNS1123Subdomain(sa, `${path}.serviceAccountName`));
  const node = str(spec.nodeName);
  if (node) errs.push(...validateDNS1123Subdomain(node, `${path}.nodeName`));
  const ads = spec.activeDeadlineSeconds;
  if (typeof ads === 'number' && (ads < 1 || ads > MAX_INT32)) errs.push(invalid(`${path}.activeDeadlineSeconds`, ads, inclusiveRange(1, MAX_INT32)));
  if (str(spec.hostname)) errs.push(...validateDNS1123Label(str(spec.hostname), `${path}.hostname`));
  if (str(spec.subdomain)) errs.push(...validateDNS1123Label(str(spec.subdomain), `${path}.subdomain`));
  if (asArr(spec.tolerations).length > 0) errs.push(...validateTolerations(spec.tolerations, `${path}.tolerations`));
  asArr(spec.hostAliases).forEach((raw, i) => {
    const ha = asObj(raw) ?? {};
    errs.push(...ipErrors(str(ha.ip), `${path}.hostAliases[${i}].ip`));
    asArr(ha.hostnames).forEach((h, j) => errs.push(...validateDNS1123Subdomain(str(h), `${path}.hostAliases[${i}].hostnames[${j}]`)));
  });
  if (str(spec.priorityClassName)) errs.push(...validateDNS1123Subdomain(str(spec.priorityClassName), `${path}.priorityClassName`));
  if (spec.runtimeClassName !== undefined && spec.runtimeClassName !== null) errs.push(...validateDNS1123Subdomain(str(spec.runtimeClassName), `${path}.runtimeClassName`));
  const pp = spec.preemptionPolicy;
  if (pp !== undefined && pp !== null) {
    if (pp === '') errs.push(required(`${path}.preemptionPolicy`));
    else if (pp !== 'PreemptLowerPriority' && pp !== 'Never') errs.push(notSupported(`${path}.preemptionPolicy`, pp, ['PreemptLowerPriority', 'Never']));
  }
  if (isObj(spec.overhead)) errs.push(...validateResourceRequirements({ limits: spec.overhead }, new Set(), `${path}.overhead`));
  errs.push(...validateOS(spec, path));
  return errs;
}

// ---- templates ----

/**
 * The metadata rules of ValidatePodTemplateSpec at `path` (e.g. "spec.template"): labels and
 * annotations at `<path>.labels` / `<path>.annotations` (kube's paths), and the annotations
 * a pod gives meaning. What kube 1.33 checks of a StatefulSet's template.
 */
export function validatePodTemplateMeta(template: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const t = asObj(template) ?? {};
  const meta = asObj(t.metadata) ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateLabels(meta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errs.push(...validatePodSpecificAnnotations(meta.annotations, t.spec, `${path}.annotations`, opts));
  return errs;
}

/** ValidatePodTemplateSpec at `path`: the template's metadata, then the pod spec at `<path>.spec`. */
export function validatePodTemplateSpec(template: unknown, path: string, opts: PodValidationOptions = {}): FieldError[] {
  const t = asObj(template) ?? {};
  const errs = validatePodTemplateMeta(t, path, opts);
  errs.push(...validatePodSpec(t.spec, `${path}.spec`, { ...opts, podName: undefined }));
  if (asArr(asObj(t.spec)?.ephemeralContainers).length > 0) {
    errs.push(forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
