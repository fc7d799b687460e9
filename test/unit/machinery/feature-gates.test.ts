// Feature gates as kube-apiserver 1.33 parses them; every message here was checked against
// kube-apiserver v1.33.13 started with the same --feature-gates.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FeatureGateError,
  applyFeatureGates,
  featureEnabled,
  gateSpec,
  knownFeatures,
  parseFeatureGates,
  setFeatureGates,
} from '../../../src/machinery/feature-gates.js';
import { exposition } from '../../../src/machinery/metrics-registry.js';

afterEach(() => setFeatureGates(''));

const errorOf = (...flags: string[]): string => {
  try {
    parseFeatureGates(flags);
  } catch (e) {
    expect(e).toBeInstanceOf(FeatureGateError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('the gates kube 1.33 knows, at their 1.33 level and default', () => {
  it.each([
    ['APIResponseCompression', 'BETA', true, false],
    ['CBORServingAndStorage', 'ALPHA', false, false],
    ['WatchList', 'BETA', false, false],
    ['MaxUnavailableStatefulSet', 'ALPHA', false, false],
    ['AllowUnsafeMalformedObjectDeletion', 'ALPHA', false, false],
    ['ListFromCacheSnapshot', 'ALPHA', false, false],
    ['DeclarativeValidation', 'BETA', true, false],
    ['DeclarativeValidationTakeover', 'BETA', false, false],
    ['ConsistentListFromCache', 'BETA', true, false],
    ['ServiceAccountTokenJTI', 'GA', true, true],
    ['RetryGenerateName', 'GA', true, true],
    ['ExecProbeTimeout', 'GA', true, false],
    ['WatchFromStorageWithoutResourceVersion', 'DEPRECATED', false, true],
    ['AllowDNSOnlyNodeCSR', 'DEPRECATED', false, false],
  ])('%s: %s, default %s, locked %s', (name, stage, def, locked) => {
    expect(gateSpec(name)).toEqual({ name, stage, default: def, lockToDefault: locked });
  });

  it('has no removed gate (APIListChunking went GA in 1.29 and was removed in 1.32)', () => {
    expect(gateSpec('APIListChunking')).toBeUndefined();
  });
});

describe('--feature-gates parsing', () => {
  it('takes strconv.ParseBool values, spaces and the kube: prefix', () => {
    const p = parseFeatureGates(['WatchList=1, kube:CBORServingAndStorage = T', 'APIResponseCompression=FALSE']);
    expect([...p.values]).toEqual([
      ['WatchList', true],
      ['CBORServingAndStorage', true],
      ['APIResponseCompression', false],
    ]);
    applyFeatureGates(p);
    expect(featureEnabled('WatchList')).toBe(true);
    expect(featureEnabled('CBORServingAndStorage')).toBe(true);
    expect(featureEnabled('APIResponseCompression')).toBe(false);
    expect(featureEnabled('DeclarativeValidation')).toBe(true);
  });

  it.each([
    [['WatchList=yes'], 'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
    [['WatchList'], 'missing bool value for WatchList'],
    [['Foo=true'], 'unrecognized feature gate: Foo'],
    [['kube:Foo=true'], 'unrecognized feature gate: Foo'],
    [['wardle:X=true'], 'component not registered: wardle'],
    [['ServiceAccountTokenJTI=false'], 'cannot set feature gate ServiceAccountTokenJTI to false, feature is locked to true'],
    [['WatchFromStorageWithoutResourceVersion=true'], 'cannot set feature gate WatchFromStorageWithoutResourceVersion to true, feature is locked to false'],
    [
      ['AllAlpha=true,ServiceAccountTokenJTI=false,APIListChunking=false'],
      '[cannot set feature gate ServiceAccountTokenJTI to false, feature is locked to true, unrecognized feature gate: APIListChunking]',
    ],
    [['WatchList=true', 'Foo=1'], 'unrecognized feature gate: Foo'],
  ])('%j: %s', (flags, message) => {
    expect(errorOf(...flags)).toBe(message);
  });

  it('warns for deprecated and GA gates, as kube logs it', () => {
    const p = parseFeatureGates(['AllowDNSOnlyNodeCSR=true,ExecProbeTimeout=false,ServiceAccountTokenJTI=true,WatchList=true']);
    expect(p.warnings).toEqual([
      'Setting deprecated feature gate AllowDNSOnlyNodeCSR=true. It will be removed in a future release.',
      'Setting GA feature gate ExecProbeTimeout=false. It will be removed in a future release.',
      'Setting GA feature gate ServiceAccountTokenJTI=true. It will be removed in a future release.',
    ]);
  });

  it('AllAlpha and AllBeta set every gate of their level that is not set explicitly', () => {
    setFeatureGates('AllAlpha=true,CBORServingAndStorage=false,AllBeta=false');
    expect(featureEnabled('AllowUnsafeMalformedObjectDeletion')).toBe(true);
    expect(featureEnabled('ListFromCacheSnapshot')).toBe(true);
    expect(featureEnabled('CBORServingAndStorage')).toBe(false);
    expect(featureEnabled('DeclarativeValidation')).toBe(false);
    expect(featureEnabled('APIResponseCompression')).toBe(false);
    // GA gates stay as they are.
    expect(featureEnabled('RetryGenerateName')).toBe(true);
  });

  it('an empty value resets every gate to its default', () => {
    setFeatureGates('WatchList=true');
    setFeatureGates('');
    expect(featureEnabled('WatchList')).toBe(false);
  });
});

describe('the help list', () => {
  it('lists the settable gates as kube-apiserver --help does: sorted, GA and deprecated hidden', () => {
    const list = knownFeatures();
    expect(list).toHaveLength(136);
    expect(list.slice(0, 7)).toEqual([
      'kube:APIResponseCompression=true|false (BETA - default=true)',
      'kube:APIServerIdentity=true|false (BETA - default=true)',
      'kube:APIServerTracing=true|false (BETA - default=true)',
      'kube:APIServingWithRoutine=true|false (ALPHA - default=false)',
      'kube:AllAlpha=true|false (ALPHA - default=false)',
      'kube:AllBeta=true|false (BETA - default=false)',
      'kube:AllowParsingUserUIDFromCertAuth=true|false (BETA - default=true)',
    ]);
    expect(list).toContain('kube:AllowUnsafeMalformedObjectDeletion=true|false (ALPHA - default=false)');
    expect(list).toContain('kube:WatchList=true|false (BETA - default=false)');
    expect(list.at(-1)).toBe('kube:WindowsGracefulNodeShutdown=true|false (ALPHA - default=false)');
    expect(list.some((l) => l.includes('ServiceAccountTokenJTI') || l.includes('AllowDNSOnlyNodeCSR'))).toBe(false);
  });
});

describe('kubernetes_feature_enabled', () => {
  it('reports every gate with its stage ("" for GA) and whether it is on', async () => {
    setFeatureGates('WatchList=true');
    const text = await exposition();
    expect(text).toContain('# HELP kubernetes_feature_enabled [BETA] This metric records the data about the stage and enablement of a k8s feature.');
    expect(text).toContain('kubernetes_feature_enabled{name="WatchList",stage="BETA"} 1');
    expect(text).toContain('kubernetes_feature_enabled{name="CBORServingAndStorage",stage="ALPHA"} 0');
    expect(text).toContain('kubernetes_feature_enabled{name="ServiceAccountTokenJTI",stage=""} 1');
    expect(text).toContain('kubernetes_feature_enabled{name="AllowDNSOnlyNodeCSR",stage="DEPRECATED"} 0');
  });
});
