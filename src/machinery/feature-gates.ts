// Feature gates as kube-apiserver 1.33 takes them (k8s.io/component-base/featuregate): every
// gate kube knows (feature-gates-table.ts), `--feature-gates` parsed with strconv.ParseBool
// values and an optional `kube:` component prefix, the life cycle's rules (a gate locked to
// its default cannot be changed, an unknown or removed gate is refused, deprecated and GA
// gates warn when set), AllAlpha/AllBeta, and the help text that lists the settable gates.

import { Gauge } from 'prom-client';
import { KUBE_FEATURE_GATES, type GateStage } from './feature-gates-table.js';
import { aggregate, strconvParseBool } from './go-format.js';
import { registry } from './metrics-registry.js';

export type { GateStage } from './feature-gates-table.js';
export type GateName = keyof typeof KUBE_FEATURE_GATES;

export interface GateSpec {
  name: GateName;
  stage: GateStage;
  default: boolean;
  /** GA and deprecated gates past their window: setting the other value fails. */
  lockToDefault: boolean;
}

const SPECS = new Map<string, GateSpec>(
  Object.entries(KUBE_FEATURE_GATES).map(([name, [stage, def, lock]]) => [
    name,
    { name: name as GateName, stage, default: def, lockToDefault: lock },
  ]),
);

export function gateSpec(name: string): GateSpec | undefined {
  return SPECS.get(name);
}

/** The explicit settings in force (absent: the gate's default). */
let enabled = new Map<string, boolean>();

export class FeatureGateError extends Error {}

export interface ParsedGates {
  /** name -> value, in the order given (a later value of the same gate wins). */
  values: Map<string, boolean>;
  /** The warnings kube logs for what was set (deprecated and GA gates). */
  warnings: string[];
}

/**
 * Parses the values of one or more `--feature-gates` flags (each "Name=bool,...", names
 * optionally prefixed with `kube:`) and checks them against the gates kube 1.33 knows.
 * Throws FeatureGateError with kube's message.
 */
export function parseFeatureGates(flags: string[]): ParsedGates {
  const values = new Map<string, boolean>();
  for (const flag of flags) {
    for (const part of flag.split(',')) {
      if (part.length === 0) continue;
      const eq = part.indexOf('=');
      let key = (eq < 0 ? part : part.slice(0, eq)).trim();
      // kube 1.33 registers its gates under the component "kube".
      const colon = key.indexOf(':');
      if (colon >= 0) {
        const component = key.slice(0, colon).trim();
        if (component !== 'kube') throw new FeatureGateError(`component not registered: ${component}`);
        key = key.slice(colon + 1).trim();
      }
      if (eq < 0) throw new FeatureGateError(`missing bool value for ${key}`);
      const raw = part.slice(eq + 1).trim();
      let v: boolean;
      try {
        v = strconvParseBool(raw);
      } catch (e) {
        throw new FeatureGateError(`invalid value of ${key}=${raw}, err: ${(e as Error).message}`);
      }
      values.set(key, v);
    }
  }
  const errs: string[] = [];
  const warnings: string[] = [];
  for (const [k, v] of values) {
    const spec = SPECS.get(k);
    // Kube stops at the first unknown gate.
    if (!spec) {
      errs.push(`unrecognized feature gate: ${k}`);
      break;
    }
    if (spec.lockToDefault && spec.default !== v) {
      errs.push(`cannot set feature gate ${k} to ${v}, feature is locked to ${spec.default}`);
      continue;
    }
    if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${k}=${v}. It will be removed in a future release.`);
    else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${k}=${v}. It will be removed in a future release.`);
  }
  if (errs.length) throw new FeatureGateError(aggregate(errs));
  return { values, warnings };
}

/**
 * Applies parsed settings: AllAlpha and AllBeta set every alpha (beta) gate that is not set
 * explicitly; explicit settings always win (kube lets Go's map order decide when both are
 * given, which is no rule to copy).
 */
export function applyFeatureGates(parsed: ParsedGates): void {
  const next = new Map<string, boolean>();
  for (const [special, stage] of [['AllAlpha', 'ALPHA'], ['AllBeta', 'BETA']] as const) {
    const v = parsed.values.get(special);
    if (v === undefined) continue;
    for (const spec of SPECS.values()) {
      if (spec.stage === stage && spec.name !== 'AllAlpha' && spec.name !== 'AllBeta') next.set(spec.name, v);
    }
  }
  for (const [k, v] of parsed.values) next.set(k, v);
  enabled = next;
}

/** Parses and applies one `--feature-gates` value ('' resets every gate to its default). */
export function setFeatureGates(spec: string): ParsedGates {
  const parsed = parseFeatureGates([spec]);
  applyFeatureGates(parsed);
  return parsed;
}

export function featureEnabled(name: GateName): boolean {
  return enabled.get(name) ?? SPECS.get(name)!.default;
}

/**
 * The settable gates as kube-apiserver's --help lists them ("kube:Name=true|false (STAGE -
 * default=x)", sorted): GA and deprecated gates are hidden, AllAlpha and AllBeta shown.
 */
export function knownFeatures(): string[] {
  const out: string[] = [];
  for (const s of SPECS.values()) {
    if (s.stage === 'GA' || s.stage === 'DEPRECATED') continue;
    out.push(`kube:${s.name}=true|false (${s.stage} - default=${s.default})`);
  }
  return out.sort();
}

// kubernetes_feature_enabled, as component-base reports every known gate.
new Gauge({
  name: 'kubernetes_feature_enabled',
  help: '[BETA] This metric records the data about the stage and enablement of a k8s feature.',
  labelNames: ['name', 'stage'] as const,
  registers: [registry],
  collect() {
    for (const s of SPECS.values()) {
      this.set({ name: s.name, stage: s.stage === 'GA' ? '' : s.stage }, featureEnabled(s.name) ? 1 : 0);
    }
  },
});
