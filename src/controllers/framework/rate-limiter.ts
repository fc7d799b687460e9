// Rate limiters of the work queue, after client-go's util/workqueue: how long an item waits
// before it is retried. kube's controllers use DefaultControllerRateLimiter, the larger of a
// per-item exponential backoff (5 ms doubling up to 1000 s, reset by forget) and an overall
// token bucket (10 retries a second, bursts of 100) so a storm of failures cannot spin.

export interface RateLimiter<K> {
  /** How long `item` should wait now (ms); each call counts as one more failure. */
  when(item: K): number;
  /** The item succeeded: its backoff starts again from the base. */
  forget(item: K): void;
  /** How many times the item has been retried since it was last forgotten. */
  numRequeues(item: K): number;
}

/** Per item: base * 2^failures, capped at max (client-go's ItemExponentialFailureRateLimiter). */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  when(item: K): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseMs * 2 ** exp;
    return backoff > this.maxMs || !Number.isFinite(backoff) ? this.maxMs : backoff;
  }

  forget(item: K): void {
    this.failures.delete(item);
  }

  numRequeues(item: K): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * A token bucket shared by every item (golang.org/x/time/rate's Limiter as client-go's
 * BucketRateLimiter uses it): each retry reserves a token; when the bucket is empty the
 * reservation is still taken and the retry waits until its token would have been refilled.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  when(_item: K): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.perSecond) * 1000;
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

/** The longest wait any of the limiters asks for (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(item: K): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: K): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: K): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** client-go's DefaultControllerRateLimiter: 5 ms..1000 s per item, 10 qps / 100 burst overall. */
export function defaultControllerRateLimiter<K>(): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ItemExponentialFailureRateLimiter<K>(5, 1_000_000), new BucketRateLimiter<K>(10, 100));
}
