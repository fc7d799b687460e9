// Warnings kube gives for a pod, or a pod template, that it accepts (pkg/api/pod's
// warningsForPodSpecAndMeta, in its order): deprecated node labels in selectors, affinity and
// spread constraints, deprecated annotations and volume plugins, overlapping volume paths,
// repeated host aliases and image pull secrets, fractional byte quantities, seccomp and
// AppArmor annotations without their fields, env entries that hide earlier ones, repeated or
// overlapping ports and port names, a negative grace period, null affinity selectors and
// non-standard IP addresses. Also the claim warnings (pkg/api/persistentvolumeclaim).

import { asArr, asObj, isObj, str, type Obj } from '../../../machinery/json-view.js';
import { goQuote } from '../../../machinery/go-format.js';
import { isValidLabelValue } from '../../../machinery/validation/names.js';
import { milliIsWhole, qty } from '../../../schema/quantity.js';

/** Node labels kube deprecates (pkg/api/node's deprecatedNodeLabels). */
const DEPRECATED_NODE_LABELS: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
};

const DEPRECATED_ANNOTATIONS: [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** Deprecated and removed volume plugins, in kube's order. */
const DEPRECATED_VOLUMES: [string, string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11, and disabled by default in v1.33+'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['ephemeral', ''],
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** path.Key(k): `path[k]`. */
const keyed = (path: string, k: string): string => `${path}[${k}]`;

/** The containers in kube's visiting order (init containers, containers, ephemeral ones), each with its path. */
function containersWithPaths(spec: Obj, path: string): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers']) {
    asArr(spec[kind]).forEach((c, i) => {
      if (isObj(c)) out.push([c, `${path}.${kind}[${i}]`]);
    });
  }
  return out;
}

/** "fractional byte value" warnings of one quantity map entry. */
function fractional(list: unknown, name: string, path: string): string[] {
  const v = asObj(list)?.[name];
  if (v === undefined) return [];
  const q = qty(v);
  if (!q || milliIsWhole(q)) return [];
  return [`${keyed(path, name)}: fractional byte value ${goQuote(q.canonical)} is invalid, must be an integer`];
}

/** GetWarningsForPersistentVolumeClaimSpec at `path`. */
export function claimSpecWarnings(spec: unknown, path: string): string[] {
  const r = asObj(asObj(spec)?.resources);
  return [...fractional(r?.requests, 'storage', `${path}.resources.requests`), ...fractional(r?.limits, 'storage', `${path}.resources.limits`)];
}

/** GetWarningsForPersistentVolumeClaim. */
export function claimWarnings(obj: { metadata?: { annotations?: Record<string, string> }; spec?: unknown }): string[] {
  const out: string[] = [];
  if (obj.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) {
    out.push('metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead');
  }
  out.push(...claimSpecWarnings(obj.spec, 'spec'));
  return out;
}

/** Deprecated volume plugins of a PersistentVolume (a volume has one source, so their order does not show). */
const DEPRECATED_PV_SOURCES: [string, string][] = [
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** GetWarningsForPersistentVolume (warningsForPersistentVolumeSpecAndMeta with no parent path). */
export function persistentVolumeWarnings(obj: { metadata?: { annotations?: Record<string, string> }; spec?: unknown }): string[] {
  const out: string[] = [];
  const spec = asObj(obj.spec) ?? {};
  if (obj.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) {
    out.push('metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead');
  }
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    out.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  }
  asArr(asObj(asObj(spec.nodeAffinity)?.required)?.nodeSelectorTerms).forEach((term, i) => {
    out.push(...nodeSelectorTermWarnings(term, false, `spec.nodeAffinity.required.nodeSelectorTerms[${i}]`));
  });
  for (const [k, msg] of DEPRECATED_PV_SOURCES) if (isObj(spec[k])) out.push(`spec.${k}: ${msg}`);
  return out;
}

function nodeSelectorTermWarnings(term: unknown, checkValues: boolean, path: string): string[] {
  const out: string[] = [];
  asArr(asObj(term)?.matchExpressions).forEach((raw, i) => {
    const e = asObj(raw) ?? {};
    const key = str(e.key);
    const msg = DEPRECATED_NODE_LABELS[key];
    if (msg) out.push(`${path}.matchExpressions[${i}].key: ${key} is ${msg}`);
    if (checkValues) {
      asArr(e.values).forEach((v, j) => {
        for (const m of isValidLabelValue(str(v))) out.push(`${path}.matchExpressions[${i}].values[${j}]: ${str(v)} is invalid, ${m}`);
      });
    }
  });
  return out;
}

/** Overlapping item paths within one volume (warningsForOverlappingVirtualPaths). */
function overlappingPaths(volumes: unknown[]): string[] {
  const out: string[] = [];
  type PS = { path: string; source: string };
  const show = (ps: PS) => (ps.source ? `${goQuote(ps.path)} (${ps.source})` : goQuote(ps.path));
  const collide = (hay: PS[], needle: PS): PS[] => {
    if (needle.path === '') return [];
    return hay.filter((item) => item.path !== '' && ((item.path === needle.path && item.source === needle.source) || `${item.path}/`.startsWith(`${needle.path}/`) || `${needle.path}/`.startsWith(`${item.path}/`)));
  };
  const check = (paths: PS[]): string[] => {
    const all: PS[] = [];
    const found: string[] = [];
    for (const p0 of paths) {
      const ps = { ...p0, path: p0.path.replace(/\/+$/, '') };
      for (const c of collide(all, ps)) found.push(`${show(ps)} with ${show(c)}`);
      all.push(ps);
    }
    return found;
  };
  const pathsOf = (items: unknown, source: string): PS[] => asArr(items).map((i) => ({ path: str(asObj(i)?.path), source }));
  const warn = (name: string, desc: string, body: string) => `volume ${goQuote(name)} (${desc}): overlapping paths: ${body}`;
  for (const raw of volumes) {
    const v = asObj(raw) ?? {};
    const name = str(v.name);
    const cm = asObj(v.configMap);
    if (cm && Array.isArray(cm.items)) for (const ol of check(pathsOf(cm.items, ''))) out.push(warn(name, `ConfigMap ${goQuote(str(cm.name))}`, ol));
    const secret = asObj(v.secret);
    if (secret && Array.isArray(secret.items)) for (const ol of check(pathsOf(secret.items, ''))) out.push(warn(name, `Secret ${goQuote(str(secret.secretName))}`, ol));
    const dapi = asObj(v.downwardAPI);
    if (dapi && Array.isArray(dapi.items)) for (const ol of check(pathsOf(dapi.items, ''))) out.push(warn(name, 'DownwardAPI', ol));
    const projected = asObj(v.projected);
    if (projected) {
      const all: PS[] = [];
      for (const srcRaw of asArr(projected.sources)) {
        const src = asObj(srcRaw) ?? {};
        if (Object.keys(src).length === 0) {
          out.push(`volume ${goQuote(name)} (Projected) has no sources provided`);
          continue;
        }
        let paths: PS[] = [];
        const scm = asObj(src.configMap);
        const ssec = asObj(src.secret);
        const sdapi = asObj(src.downwardAPI);
        const ssat = asObj(src.serviceAccountToken);
        const sctb = asObj(src.clusterTrustBundle);
        if (scm && Array.isArray(scm.items)) paths = pathsOf(scm.items, `ConfigMap ${goQuote(str(scm.name))}`);
        else if (ssec && Array.isArray(ssec.items)) paths = pathsOf(ssec.items, `Secret ${goQuote(str(ssec.name))}`);
        else if (sdapi && Array.isArray(sdapi.items)) paths = pathsOf(sdapi.items, 'DownwardAPI');
        else if (ssat) paths = [{ path: str(ssat.path), source: 'ServiceAccountToken' }];
        else if (sctb) paths = [{ path: str(sctb.path), source: `ClusterTrustBundle ${goQuote(str(sctb.name ?? sctb.signerName))}` }];
        for (const p0 of paths) {
          const ps = { ...p0, path: p0.path.replace(/\/+$/, '') };
          for (const c of collide(all, ps)) out.push(warn(name, 'Projected', `${show(ps)} with ${show(c)}`));
          all.push(ps);
        }
      }
    }
  }
  return out;
}

/** GetWarningsForIP: a non-standard address form. */
function ipWarnings(path: string, value: string): string[] {
  // Leading zeros in an IPv4 octet (ParseIPSloppy reads them, ParseAddr does not).
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (v4 && v4.slice(1).some((o) => o.length > 1 && o.startsWith('0'))) {
    return [`${path}: non-standard IP address ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(v4.slice(1).map((o) => String(Number(o))).join('.'))}`];
  }
  return [];
}

/**
 * warningsForPodSpecAndMeta: `prefix` is '' for a pod (paths `spec...`, `metadata...`) or the
 * template's path (`spec.template`).
 */
export function podWarnings(specRaw: unknown, metaRaw: unknown, prefix = ''): string[] {
  const spec = asObj(specRaw);
  if (!spec) return [];
  const meta = asObj(metaRaw) ?? {};
  const annotations = (asObj(meta.annotations) ?? {}) as Record<string, unknown>;
  const p = (rest: string) => (prefix ? `${prefix}.${rest}` : rest);
  const specPath = p('spec');
  const annPath = p('metadata.annotations');
  const w: string[] = [];

  for (const k of Object.keys(asObj(spec.nodeSelector) ?? {})) {
    const msg = DEPRECATED_NODE_LABELS[k];
    if (msg) w.push(`${keyed(`${specPath}.nodeSelector`, k)}: ${msg}`);
  }
  const nodeAffinity = asObj(asObj(spec.affinity)?.nodeAffinity);
  if (nodeAffinity) {
    const req = asObj(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution);
    if (req) {
      asArr(req.nodeSelectorTerms).forEach((t, i) =>
        w.push(...nodeSelectorTermWarnings(t, false, `${specPath}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`)),
      );
    }
    asArr(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
      w.push(...nodeSelectorTermWarnings(asObj(t)?.preference, true, `${specPath}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`)),
    );
  }
  asArr(spec.topologySpreadConstraints).forEach((raw, i) => {
    const t = asObj(raw) ?? {};
    const key = str(t.topologyKey);
    const msg = DEPRECATED_NODE_LABELS[key];
    if (msg) w.push(`${specPath}.topologySpreadConstraints[${i}].topologyKey: ${key} is ${msg}`);
    if (t.labelSelector === undefined || t.labelSelector === null) w.push(`${specPath}.topologySpreadConstraints[${i}].labelSelector: a null labelSelector results in matching no pod`);
  });

  for (const [key, message] of DEPRECATED_ANNOTATIONS) if (Object.hasOwn(annotations, key)) w.push(`${keyed(annPath, key)}: ${message}`);

  const volumes = asArr(spec.volumes);
  volumes.forEach((raw, i) => {
    const v = asObj(raw) ?? {};
    for (const [plugin, message] of DEPRECATED_VOLUMES) {
      if (v[plugin] === undefined || v[plugin] === null) continue;
      const field = plugin === 'storageos' ? 'storageOS' : plugin;
      if (plugin === 'ephemeral') {
        const tpl = asObj(asObj(v.ephemeral)?.volumeClaimTemplate);
        if (tpl) w.push(...claimSpecWarnings(tpl.spec, `${specPath}.volumes[${i}].ephemeral.volumeClaimTemplate.spec`));
        continue;
      }
      w.push(`${specPath}.volumes[${i}].${field}: ${message}`);
    }
  });
  w.push(...overlappingPaths(volumes));

  const aliases = asArr(spec.hostAliases);
  if (aliases.length > 1) {
    const seen = new Set<string>();
    aliases.forEach((a, i) => {
      const ip = str(asObj(a)?.ip);
      if (seen.has(ip)) w.push(`${specPath}.hostAliases[${i}].ip: duplicate ip ${goQuote(ip)}`);
      else seen.add(ip);
    });
  }
  const secrets = asArr(spec.imagePullSecrets);
  if (secrets.length > 1) {
    const seen = new Set<string>();
    secrets.forEach((s, i) => {
      const name = str(asObj(s)?.name);
      if (seen.has(name)) w.push(`${specPath}.imagePullSecrets[${i}].name: duplicate name ${goQuote(name)}`);
      else seen.add(name);
    });
  }
  secrets.forEach((s, i) => {
    const name = str(asObj(s)?.name);
    if (name === '') w.push(`${specPath}.imagePullSecrets[${i}].name: invalid empty name ""`);
  });
  w.push(...fractional(spec.overhead, 'memory', `${specPath}.overhead`), ...fractional(spec.overhead, 'ephemeral-storage', `${specPath}.overhead`));

  const podSc = asObj(spec.securityContext);
  if (!podSc?.seccompProfile && Object.hasOwn(annotations, SECCOMP_POD)) w.push(`${keyed(annPath, SECCOMP_POD)}: non-functional in v1.27+; use the "seccompProfile" field instead`);
  const podAppArmor = podSc?.appArmorProfile !== undefined && podSc?.appArmorProfile !== null;

  const containers = containersWithPaths(spec, specPath);
  for (const [c, cpath] of containers) {
    const name = str(c.name);
    const sc = asObj(c.securityContext);
    if (!sc?.seccompProfile && Object.hasOwn(annotations, SECCOMP_CONTAINER_PREFIX + name)) {
      w.push(`${keyed(annPath, SECCOMP_CONTAINER_PREFIX + name)}: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    // Pods report their AppArmor annotations elsewhere; templates here.
    if (prefix && !podAppArmor && !(sc?.appArmorProfile !== undefined && sc?.appArmorProfile !== null) && Object.hasOwn(annotations, APPARMOR_CONTAINER_PREFIX + name)) {
      w.push(`${keyed(annPath, APPARMOR_CONTAINER_PREFIX + name)}: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    const res = asObj(c.resources);
    w.push(
      ...fractional(res?.limits, 'memory', `${cpath}.resources.limits`),
      ...fractional(res?.requests, 'memory', `${cpath}.resources.requests`),
      ...fractional(res?.limits, 'ephemeral-storage', `${cpath}.resources.limits`),
      ...fractional(res?.requests, 'ephemeral-storage', `${cpath}.resources.requests`),
    );
    const env = asArr(c.env);
    if (env.length > 1) {
      const seen = new Set<string>();
      env.forEach((raw, i) => {
        const e = asObj(raw) ?? {};
        const ename = str(e.name);
        if (!seen.has(ename)) {
          seen.add(ename);
          return;
        }
        const ref = `$(${ename})`;
        const value = str(e.value);
        const bad = (e.valueFrom !== undefined && e.valueFrom !== null) || value === ref || !value.includes(ref);
        if (bad) w.push(`${cpath}.env[${i}]: hides previous definition of ${goQuote(ename)}, which may be dropped when using apply`);
      });
    }
  }

  // Ports across all containers, then port names.
  interface Seen {
    field: string;
    hostIP: string;
    hostPort: number;
  }
  const ports = new Map<string, Seen[]>();
  for (const [c, cpath] of containers) {
    asArr(c.ports).forEach((raw, i) => {
      const port = asObj(raw) ?? {};
      const field = `${cpath}.ports[${i}]`;
      const hostIP = str(port.hostIP);
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if (hostIP !== '' && hostPort === 0) {
        w.push(`${field}: hostIP set without hostPort: {Name:${str(port.name)} HostPort:${hostPort} ContainerPort:${String(port.containerPort ?? 0)} Protocol:${str(port.protocol)} HostIP:${hostIP}}`);
      }
      const key = `${String(port.containerPort ?? 0)}/${str(port.protocol)}`;
      const others = ports.get(key);
      if (others) {
        for (const o of others) {
          if (hostIP === o.hostIP && hostPort === o.hostPort) w.push(`${field}: duplicate port definition with ${o.field}`);
          else if (hostPort === 0 || o.hostPort === 0) w.push(`${field}: overlapping port definition with ${o.field}`);
          else if (hostPort === o.hostPort && (hostIP === '') !== (o.hostIP === '')) w.push(`${field}: dangerously ambiguous port definition with ${o.field}`);
        }
        others.push({ field, hostIP, hostPort });
      } else ports.set(key, [{ field, hostIP, hostPort }]);
    });
  }
  const names = new Map<string, string>();
  for (const [c, cpath] of containers) {
    asArr(c.ports).forEach((raw, i) => {
      const name = str(asObj(raw)?.name);
      if (name === '') return;
      const field = `${cpath}.ports[${i}]`;
      const other = names.get(name);
      if (other) w.push(`${field}: duplicate port name ${goQuote(name)} with ${other}, services and probes that select ports by name will use ${other}`);
      else names.set(name, field);
    });
  }

  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) w.push(`${specPath}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);

  const affinity = asObj(spec.affinity);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = asObj(affinity?.[kind]);
    if (!a) continue;
    const base = `${specPath}.affinity.${kind}`;
    asArr(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const ls = asObj(t)?.labelSelector;
      if (ls === undefined || ls === null) w.push(`${base}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector: a null labelSelector results in matching no pod`);
    });
    asArr(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const ls = asObj(asObj(t)?.podAffinityTerm)?.labelSelector;
      if (ls === undefined || ls === null) w.push(`${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod`);
    });
  }

  asArr(asObj(spec.dnsConfig)?.nameservers).forEach((ns, i) => w.push(...ipWarnings(`${specPath}.dnsConfig.nameservers[${i}]`, str(ns))));
  aliases.forEach((a, i) => w.push(...ipWarnings(`${specPath}.hostAliases[${i}].ip`, str(asObj(a)?.ip))));
  return w;
}

/** What kube warns about a pod it creates: a name that is no DNS label, then the pod's spec and metadata. */
export function podCreateWarnings(obj: { metadata?: { name?: string }; spec?: unknown }, nameErrors: (n: string) => string[]): string[] {
  const out: string[] = [];
  const msgs = nameErrors(obj.metadata?.name ?? '');
  if (msgs.length) out.push(`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`);
  out.push(...podWarnings(obj.spec, obj.metadata));
  return out;
}
