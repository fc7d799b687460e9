// Go's time.ParseDuration, as the flags of kube's binaries read durations ("5m0s", "300ms",
// "1h"); a bare number is seconds, as kapi's flags have always taken it.

/** Milliseconds of a Go duration; throws on anything else. */
export function parseDuration(s: string): number {
  if (/^[0-9]+$/.test(s)) return Number(s) * 1000;
  const re = /([0-9.]+)(ms|h|m|s)/g;
  let total = 0;
  let matched = '';
  for (const m of s.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3_600_000 : m[2] === 'm' ? n * 60_000 : m[2] === 's' ? n * 1000 : n;
    matched += m[0];
  }
  if (matched !== s) throw new Error(`invalid duration ${JSON.stringify(s)}`);
  return total;
}
