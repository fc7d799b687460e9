// A small seeded generator (mulberry32): the same seed gives the same suite on every
// machine, so a recording can be regenerated and checked.

export class Rand {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  /** A random subset, in a random order. */
  some<T>(xs: readonly T[], p = 0.5): T[] {
    return this.shuffle(xs.filter(() => this.chance(p)));
  }

  shuffle<T>(xs: readonly T[]): T[] {
    const out = xs.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(choices: readonly [number, T][]): T {
    const total = choices.reduce((s, [w]) => s + w, 0);
    let x = this.next() * total;
    for (const [w, v] of choices) {
      x -= w;
      if (x < 0) return v;
    }
    return choices[choices.length - 1][1];
  }
}
