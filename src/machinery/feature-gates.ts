// Feature gates, as kube-apiserver's --feature-gates takes them (Name=true|false,...),
// with the 1.33 defaults of the gates kapi's behaviour depends on.

export type GateName =
  | 'APIResponseCompression'
  | 'CBORServingAndStorage'
  | 'WatchList'
  | 'MaxUnavailableStatefulSet'
  | 'DeclarativeValidation'
  | 'DeclarativeValidationTakeover'
  | 'CoordinatedLeaderElection'
  | 'ServiceAccountNodeAudienceRestriction';

interface GateSpec {
  default: boolean;
  stage: 'ALPHA' | 'BETA' | 'GA';
}

const KNOWN: Record<GateName, GateSpec> = {
  APIResponseCompression: { default: true, stage: 'BETA' },
  CBORServingAndStorage: { default: false, stage: 'ALPHA' },
  WatchList: { default: false, stage: 'BETA' },
  MaxUnavailableStatefulSet: { default: false, stage: 'ALPHA' },
  DeclarativeValidation: { default: true, stage: 'BETA' },
  DeclarativeValidationTakeover: { default: false, stage: 'BETA' },
  CoordinatedLeaderElection: { default: false, stage: 'ALPHA' },
  ServiceAccountNodeAudienceRestriction: { default: true, stage: 'BETA' },
};

const enabled = new Map<GateName, boolean>();

export class FeatureGateError extends Error {}

/** Parses a --feature-gates value and applies it; throws FeatureGateError on a bad one. */
export function setFeatureGates(spec: string): void {
  const next = new Map<GateName, boolean>();
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value, ...rest] = part.split('=');
    if (value === undefined || rest.length) throw new FeatureGateError(`missing bool value for ${name}`);
    if (!(name in KNOWN)) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
    const v = value.toLowerCase();
    if (v !== 'true' && v !== 'false') throw new FeatureGateError(`invalid value of ${name}=${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    next.set(name as GateName, v === 'true');
  }
  enabled.clear();
  for (const [k, v] of next) enabled.set(k, v);
}

export function featureEnabled(name: GateName): boolean {
  return enabled.get(name) ?? KNOWN[name].default;
}
