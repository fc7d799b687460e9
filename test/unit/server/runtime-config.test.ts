// --runtime-config as kube-apiserver 1.33 reads it; the messages were checked against
// kube-apiserver v1.33.13 started with the same flags.

import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig, resolveRuntimeConfig, RuntimeConfigError } from '../../../src/server/runtime-config.js';

const resolve = (...flags: string[]) => resolveRuntimeConfig(parseRuntimeConfig(flags));

const errorOf = (...flags: string[]): string => {
  try {
    resolve(...flags);
  } catch (e) {
    expect(e).toBeInstanceOf(RuntimeConfigError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

describe('--runtime-config', () => {
  it('serves every GA version by default and no alpha or beta one', () => {
    const e = resolve();
    expect(e.resourceEnabled('apps', 'v1', 'statefulsets')).toBe(true);
    expect(e.resourceEnabled('', 'v1', 'pods')).toBe(true);
    expect(e.resourceEnabled('policy', 'v1beta1', 'poddisruptionbudgets')).toBe(false);
    expect(e.resourceEnabled('scheduling.k8s.io', 'v1alpha1', 'priorityclasses')).toBe(false);
  });

  it('turns versions and single resources off and on, the resource setting winning', () => {
    const e = resolve('apps/v1=false,scheduling.k8s.io/v1/priorityclasses=false', 'policy/v1beta1,batch/v1/jobs=true');
    expect(e.resourceEnabled('apps', 'v1', 'statefulsets')).toBe(false);
    expect(e.resourceEnabled('scheduling.k8s.io', 'v1', 'priorityclasses')).toBe(false);
    expect(e.resourceEnabled('scheduling.k8s.io', 'v1', 'other')).toBe(true);
    expect(e.resourceEnabled('policy', 'v1beta1', 'poddisruptionbudgets')).toBe(true);
    expect(e.resourceEnabled('policy', 'v1', 'poddisruptionbudgets')).toBe(true);
  });

  it('reads every spelling of the core group as "/v1"', () => {
    for (const key of ['v1=false', 'api/v1=false', 'v1/pods=false', 'api/v1/pods=false']) {
      const e = resolve(`${key},apps/v1=true`);
      expect(e.resourceEnabled('', 'v1', 'pods')).toBe(false);
      expect(e.resourceEnabled('', 'v1', 'namespaces')).toBe(false);
    }
  });

  it('api/all, api/ga, api/beta and api/alpha switch whole levels; explicit versions apply after them', () => {
    const e = resolve('api/all=false,v1=true,apps/v1=true');
    expect(e.resourceEnabled('', 'v1', 'pods')).toBe(true);
    expect(e.resourceEnabled('apps', 'v1', 'statefulsets')).toBe(true);
    expect(e.resourceEnabled('policy', 'v1', 'poddisruptionbudgets')).toBe(false);
    const beta = resolve('api/beta=true');
    expect(beta.resourceEnabled('policy', 'v1beta1', 'poddisruptionbudgets')).toBe(true);
    expect(beta.resourceEnabled('scheduling.k8s.io', 'v1alpha1', 'priorityclasses')).toBe(false);
    const ga = resolve('api/ga=false,policy/v1=true');
    expect(ga.resourceEnabled('apps', 'v1', 'statefulsets')).toBe(false);
    expect(ga.resourceEnabled('policy', 'v1', 'poddisruptionbudgets')).toBe(true);
  });

  it('ignores the deprecated api/legacy', () => {
    expect(resolve('api/legacy=false').resourceEnabled('', 'v1', 'pods')).toBe(true);
  });

  it.each([
    ['foo.example/v1=true', 'unknown api groups foo.example'],
    ['apps/v7=true', 'group version apps/v7 that has not been registered'],
    ['apps/v1=maybe', 'invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['api/all=false', 'invalid key with only api/all=false'],
    ['api/all=maybe', 'invalid value api/all=maybe'],
    ['apps/v1/StatefulSets=false', 'invalid key apps/v1/StatefulSets: group/version/resource and resource is always lowercase plural, not "StatefulSets"'],
    ['a/b/c/d=true', 'runtime-config invalid key a/b/c/d'],
  ])('%s: %s', (flag, message) => {
    expect(errorOf(flag)).toBe(message);
  });
});
