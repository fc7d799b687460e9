// The controller framework's parts on their own: kube's default controller rate limiter
// (per item 5 ms doubling to 1000 s, overall 10 qps with a burst of 100), the work queue's
// once-per-key and one-worker-per-key rules, expectations, and --controllers as
// kube-controller-manager reads it.

import { describe, expect, it } from 'vitest';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter } from '../../../src/controllers/framework/rate-limiter.js';
import { RateLimitingQueue } from '../../../src/controllers/framework/workqueue.js';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS } from '../../../src/controllers/framework/expectations.js';
import { controllerEnabled, resolveControllers } from '../../../src/controllers/framework/names.js';
import { IMPLEMENTED_CONTROLLERS } from '../../../src/controllers/kube-controllers.js';

describe('rate limiters', () => {
  it('backs an item off exponentially from 5 ms to 1000 s, and forget starts it over', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const waits = Array.from({ length: 20 }, () => l.when('a'));
    expect(waits.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(waits[17]).toBe(655_360);
    expect(waits[18]).toBe(1_000_000);
    expect(l.numRequeues('a')).toBe(20);
    expect(l.when('b')).toBe(5);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a')).toBe(5);
  });

  it('lets a burst of 100 through at once, then 10 a second', () => {
    let now = 0;
    const l = new BucketRateLimiter<string>(10, 100, () => now);
    for (let i = 0; i < 100; i++) expect(l.when(`k${i}`)).toBe(0);
    expect(l.when('x')).toBeCloseTo(100);
    expect(l.when('y')).toBeCloseTo(200);
    now = 1000;
    // Ten tokens came back in the second; two were owed.
    expect(l.when('z')).toBeCloseTo(0 + 0, 5);
  });

  it('the default limiter waits the longer of the two', () => {
    let now = 0;
    const l = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(5, 1_000_000), new BucketRateLimiter<string>(10, 100, () => now));
    expect(l.when('a')).toBe(5);
    expect(l.when('a')).toBe(10);
    for (let i = 0; i < 98; i++) l.when(`k${i}`);
    expect(l.when('fresh')).toBeCloseTo(100);
    now = 10_000;
    expect(defaultControllerRateLimiter<string>().when('q')).toBe(5);
  });
});

describe('work queue', () => {
  it('queues a key once however often it is added, and in order', async () => {
    const q = new RateLimitingQueue<string>('t');
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.length).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    q.shutDown();
  });

  it('never hands a key to two workers: an add while it is processed queues it for after done', async () => {
    const q = new RateLimitingQueue<string>('t');
    q.add('a');
    const k = await q.get();
    q.add('a');
    expect(q.length).toBe(0);
    let second: string | undefined;
    const waiting = q.get().then((x) => (second = x));
    await new Promise((r) => setTimeout(r, 10));
    expect(second).toBeUndefined();
    q.done(k!);
    await waiting;
    expect(second).toBe('a');
    q.shutDown();
  });

  it('delays addAfter and rate-limited retries; the earlier of two delays wins; shutDown releases workers', async () => {
    const q = new RateLimitingQueue<string>('t', new ItemExponentialFailureRateLimiter<string>(20, 1000));
    const t0 = Date.now();
    q.addAfter('late', 400);
    q.addAfter('late', 30);
    expect(await q.get()).toBe('late');
    expect(Date.now() - t0).toBeLessThan(390);
    q.done('late');
    q.addRateLimited('r');
    q.addRateLimited('r');
    expect(q.numRequeues('r')).toBe(2);
    expect(await q.get()).toBe('r');
    q.forget('r');
    expect(q.numRequeues('r')).toBe(0);
    const blocked = q.get();
    q.shutDown();
    expect(await blocked).toBeUndefined();
    expect(await q.get()).toBeUndefined();
  });
});

describe('expectations', () => {
  it('holds a key until every expected create and delete is observed, or the record expires', () => {
    let now = 0;
    const e = new ControllerExpectations(() => now);
    expect(e.satisfied('ns/a')).toBe(true);
    e.expectCreations('ns/a', 2);
    expect(e.satisfied('ns/a')).toBe(false);
    e.creationObserved('ns/a');
    expect(e.satisfied('ns/a')).toBe(false);
    e.creationObserved('ns/a');
    expect(e.satisfied('ns/a')).toBe(true);
    e.raise('ns/a', 0, 1);
    expect(e.get('ns/a')).toEqual({ add: 0, del: 1 });
    expect(e.satisfied('ns/a')).toBe(false);
    now = EXPECTATIONS_TIMEOUT_MS + 1;
    expect(e.satisfied('ns/a')).toBe(true);
    e.delete('ns/a');
    expect(e.get('ns/a')).toBeUndefined();
  });
});

describe('--controllers', () => {
  it('resolves aliases and refuses unknown names with kube-controller-manager\'s message', () => {
    expect(resolveControllers(['*', '-statefulset', 'garbagecollector'])).toEqual(['*', '-statefulset-controller', 'garbage-collector-controller']);
    expect(() => resolveControllers(['nope', '-bad'])).toThrow('"nope" is not in the list of known controllers, "bad" is not in the list of known controllers');
  });

  it('enables by * unless named off; the first explicit mention wins; disabled-by-default ones need their name', () => {
    expect(controllerEnabled('statefulset-controller', ['*'])).toBe(true);
    expect(controllerEnabled('statefulset-controller', ['*', '-statefulset-controller'])).toBe(false);
    expect(controllerEnabled('statefulset-controller', ['namespace-controller'])).toBe(false);
    expect(controllerEnabled('statefulset-controller', ['statefulset-controller', '-statefulset-controller'])).toBe(true);
    expect(controllerEnabled('token-cleaner-controller', ['*'])).toBe(false);
    expect(controllerEnabled('token-cleaner-controller', ['*', 'token-cleaner-controller'])).toBe(true);
  });

  it('kapi implements its controllers under their kube names', () => {
    expect([...IMPLEMENTED_CONTROLLERS].sort()).toEqual([
      'clusterrole-aggregation-controller',
      'disruption-controller',
      'garbage-collector-controller',
      'namespace-controller',
      'persistentvolume-protection-controller',
      'persistentvolumeclaim-protection-controller',
      'serviceaccount-controller',
      'statefulset-controller',
    ]);
  });
});
