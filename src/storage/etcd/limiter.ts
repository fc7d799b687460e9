/**
 * FIFO bound on concurrent calls. etcd answers a burst of thousands of writes with
 * "too many requests" once its apply loop lags; queueing the excess here instead
 * keeps the burst flowing at etcd's pace.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` is unchanged.
      if (next) next();
      else this.active--;
    }
  }
}
