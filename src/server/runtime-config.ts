// --runtime-config as kube-apiserver 1.33 reads it (k8s.io/apiserver's resourceconfig and
// api_enablement options): `<group>/<version>[/<resource>][=bool]`, `v1` for the core group,
// and the api/all, api/ga, api/beta, api/alpha switches. The keys are checked against the
// group versions kube 1.33 registers, so a flag kube accepts is accepted here (enabling a
// version kapi does not implement serves nothing, as enabling policy/v1beta1 serves nothing in
// kube 1.33) and a flag kube refuses is refused with kube's message.

import { parseBool } from '../machinery/go-format.js';

/**
 * The group versions kube-apiserver 1.33 registers (its scheme, apiextensions' and the
 * aggregator's), with whether each is on by default: GA versions are, the others are not.
 */
const KUBE_GROUP_VERSIONS: Record<string, Record<string, boolean>> = {
  '': { v1: true },
  'admissionregistration.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  'admission.k8s.io': { v1: false, v1beta1: false },
  'authentication.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  'networking.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  policy: { v1: true, v1beta1: false },
  'rbac.authorization.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  'events.k8s.io': { v1: true, v1beta1: false },
  autoscaling: { v2: true, v1: true, v2beta1: false, v2beta2: false },
  'certificates.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  'discovery.k8s.io': { v1: true, v1beta1: false },
  'scheduling.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  apps: { v1: true, v1beta2: false, v1beta1: false },
  batch: { v1: true, v1beta1: false },
  'storage.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  'authorization.k8s.io': { v1: true, v1beta1: false },
  'flowcontrol.apiserver.k8s.io': { v1: true, v1beta3: false, v1beta2: false, v1beta1: false },
  'imagepolicy.k8s.io': { v1alpha1: false },
  'resource.k8s.io': { v1beta1: false, v1beta2: false, v1alpha3: false },
  'storagemigration.k8s.io': { v1alpha1: false },
  extensions: { v1beta1: false },
  'internal.apiserver.k8s.io': { v1alpha1: false },
  'coordination.k8s.io': { v1: true, v1beta1: false, v1alpha2: false },
  'node.k8s.io': { v1: true, v1beta1: false, v1alpha1: false },
  'apiextensions.k8s.io': { v1: true, v1beta1: false },
  'apiregistration.k8s.io': { v1: true, v1beta1: false },
};

const MATCHERS: Array<[string, (version: string) => boolean]> = [
  ['api/all', () => true],
  ['api/ga', (v) => /^v\d+$/.test(v)],
  ['api/beta', (v) => /^v\d+beta\d+$/.test(v)],
  ['api/alpha', (v) => /^v\d+alpha\d+$/.test(v)],
];

export class RuntimeConfigError extends Error {}

/** Parses the values of the `--runtime-config` flags (cliflag.ConfigurationMap: later keys win). */
export function parseRuntimeConfig(flags: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const flag of flags) {
    for (const s of flag.split(',')) {
      if (s.length === 0) continue;
      const eq = s.indexOf('=');
      if (eq < 0) m.set(s.trim(), '');
      else m.set(s.slice(0, eq).trim(), s.slice(eq + 1).trim());
    }
  }
  // Kube's completion step: every spelling of the core group becomes "/v1" (a resource named
  // after it is dropped with it), and the deprecated api/legacy is ignored.
  for (const [key, value] of [...m]) {
    if (key === 'v1' || key.startsWith('v1/') || key === 'api/v1' || key.startsWith('api/v1/')) {
      m.delete(key);
      m.set('/v1', value);
    }
    if (key === 'api/legacy') m.delete(key);
  }
  return m;
}

/** schema.ParseGroupVersion of "<group>/<version>": [group, version]. */
function groupVersionOf(tokens: string[]): [string, string] {
  return [tokens[0], tokens[1]];
}

/** Which group versions and resources are served, after the flags. */
export interface APIEnablement {
  resourceEnabled(group: string, version: string, resource: string): boolean;
}

/**
 * Validates the parsed flags as kube does and resolves them against kube's defaults. Throws
 * RuntimeConfigError with kube's text.
 */
export function resolveRuntimeConfig(m: Map<string, string>): APIEnablement {
  if (m.get('api/all') === 'false' && m.size === 1) {
    throw new RuntimeConfigError('invalid key with only api/all=false');
  }
  // Validate: every key names a group kube knows.
  const unknown: string[] = [];
  for (const key of m.keys()) {
    if (MATCHERS.some(([k]) => k === key)) continue;
    const tokens = key.split('/');
    if (tokens.length !== 2 && tokens.length !== 3) throw new RuntimeConfigError(`runtime-config invalid key ${key}`);
    const [group] = groupVersionOf(tokens);
    if (!(group in KUBE_GROUP_VERSIONS)) unknown.push(group);
  }
  if (unknown.length) throw new RuntimeConfigError(`unknown api groups ${unknown.join(',')}`);

  const versions = new Map<string, boolean>();
  for (const [group, vs] of Object.entries(KUBE_GROUP_VERSIONS)) {
    for (const [v, on] of Object.entries(vs)) versions.set(`${group}/${v}`, on);
  }
  const resources = new Map<string, boolean>();
  const dropResources = (gv: string) => {
    for (const k of [...resources.keys()]) if (k.startsWith(`${gv}/`)) resources.delete(k);
  };
  for (const [flag, matches] of MATCHERS) {
    const value = m.get(flag);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new RuntimeConfigError(`invalid value ${flag}=${value}`);
    for (const gv of versions.keys()) {
      if (!matches(gv.slice(gv.lastIndexOf('/') + 1))) continue;
      versions.set(gv, value === 'true');
      dropResources(gv);
    }
  }
  const versionPrefs: Array<[string, boolean]> = [];
  const resourcePrefs: Array<[string, boolean]> = [];
  for (const [key, value] of m) {
    if (MATCHERS.some(([k]) => k === key)) continue;
    const tokens = key.split('/');
    const [group, version] = groupVersionOf(tokens);
    const gv = `${group}/${version}`;
    if (!versions.has(gv)) throw new RuntimeConfigError(`group version ${group ? gv : version} that has not been registered`);
    let enabled = true;
    if (value !== '') {
      const b = parseBool(value);
      if (b === undefined) {
        throw new RuntimeConfigError(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
      }
      enabled = b;
    }
    if (tokens.length === 2) {
      versionPrefs.push([gv, enabled]);
    } else {
      if (tokens[2].toLowerCase() !== tokens[2]) {
        throw new RuntimeConfigError(
          `invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(tokens[2])}`,
        );
      }
      resourcePrefs.push([`${gv}/${tokens[2]}`, enabled]);
    }
  }
  for (const [gv, on] of versionPrefs) {
    versions.set(gv, on);
    dropResources(gv);
  }
  for (const [gvr, on] of resourcePrefs) resources.set(gvr, on);

  return {
    resourceEnabled(group, version, resource) {
      const explicit = resources.get(`${group}/${version}/${resource}`);
      if (explicit !== undefined) return explicit;
      // A version kube does not register is one kapi adds of its own: served.
      return versions.get(`${group}/${version}`) ?? true;
    },
  };
}

/** Everything served as by default (no --runtime-config). */
export const DEFAULT_ENABLEMENT: APIEnablement = resolveRuntimeConfig(new Map());
