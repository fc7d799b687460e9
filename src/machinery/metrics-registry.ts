// The one Prometheus registry of the process (component-base's legacyregistry): every layer
// defines its own metrics under kube's names and registers them here; /metrics serves it. A
// private registry keeps tests and embedders from colliding with prom-client's global one.
//
// Kube's metric life cycle (component-base/metrics): every help text starts with the metric's
// stability level ("[STABLE] ..."), a deprecated metric's with "(Deprecated since x.y.z)" too,
// and a metric deprecated before the current minor release is hidden: it is registered in
// `hiddenRegistry` and served only with --show-hidden-metrics-for-version.

import { Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Metrics deprecated before 1.33.0: off /metrics unless --show-hidden-metrics-for-version. */
export const hiddenRegistry = new Registry();

export type Stability = 'ALPHA' | 'BETA' | 'STABLE';

/** The release kapi answers as (its /version). */
const CURRENT = { major: 1, minor: 33 };

/** kube's annotated help: "[STABLE] help", "[ALPHA] (Deprecated since 1.27.0) help". */
export function kubeHelp(stability: Stability, help: string, deprecatedVersion?: string): string {
  return deprecatedVersion ? `[${stability}] (Deprecated since ${deprecatedVersion}) ${help}` : `[${stability}] ${help}`;
}

/** Where a metric deprecated in `deprecatedVersion` registers: hidden once a release has passed. */
export function registryFor(deprecatedVersion?: string): Registry {
  if (!deprecatedVersion) return registry;
  const [major, minor] = deprecatedVersion.split('.').map(Number);
  const hidden = major < CURRENT.major || (major === CURRENT.major && minor < CURRENT.minor);
  return hidden ? hiddenRegistry : registry;
}

let showHidden = false;
let hiddenLog: { warn(msg: string): void } | undefined;

function warnShown(name: string): void {
  hiddenLog?.warn(`Hidden metrics (${name}) have been manually overridden, showing this very deprecated metric.`);
}

// The server's modules (and the metrics they define) load after the command line is read: a
// hidden metric registered once the flag is set is announced as it comes.
const registerHidden = hiddenRegistry.registerMetric.bind(hiddenRegistry);
hiddenRegistry.registerMetric = (metric) => {
  registerHidden(metric);
  if (showHidden) warnShown((metric as unknown as { name: string }).name);
};

/**
 * --show-hidden-metrics-for-version's check: only the previous minor release is accepted.
 * Returns kube's error text, or undefined.
 */
export function validateShowHiddenMetricsVersion(v: string): string | undefined {
  if (v === '') return undefined;
  const valid = `${CURRENT.major}.${CURRENT.minor - 1}`;
  if (v !== valid) return `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
  return undefined;
}

/** Serves the hidden metrics from now on, warning for each as kube does. */
export function setShowHiddenMetrics(log: { warn(msg: string): void }): void {
  showHidden = true;
  hiddenLog = log;
  for (const m of hiddenRegistry.getMetricsAsArray()) warnShown((m as unknown as { name: string }).name);
}

/** The Prometheus text of everything /metrics shows. */
export async function exposition(): Promise<string> {
  if (!showHidden) return registry.metrics();
  return Registry.merge([registry, hiddenRegistry]).metrics();
}
