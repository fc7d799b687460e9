// The token bucket the event recorders and the controllers' client limit their writes with
// (client-go's flowcontrol token bucket): `burst` tokens at first, refilled at `perSecond`.

import { setTimeout as sleep } from 'node:timers/promises';

export class TokenBucket {
  private tokens: number;
  private last = Date.now();
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }
  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }
  /** Takes a token if there is one, at once (flowcontrol's passive limiter). */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
  /** Waits for a token and takes it (flowcontrol's blocking Wait); the wait keeps no process alive. */
  async acquire(): Promise<void> {
    while (!this.take()) await sleep(Math.max(1, this.wait()), undefined, { ref: false });
  }
  /** ms until a token is there. */
  wait(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}
