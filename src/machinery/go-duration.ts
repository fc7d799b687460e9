// Go's time.ParseDuration and Duration.String, for flags that take kube's durations
// ("1m0s", "500ms", "1h30m") and print them back as kube's --help does.

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** time.ParseDuration, in milliseconds; throws an Error with Go's text. */
export function parseGoDuration(s: string): number {
  const orig = s;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new Error(`time: invalid duration ${JSON.stringify(orig)}`);
  let total = 0;
  while (s !== '') {
    const num = /^([0-9]*)(\.[0-9]*)?/.exec(s)!;
    if (num[0] === '' || num[0] === '.') throw new Error(`time: invalid duration ${JSON.stringify(orig)}`);
    s = s.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const scale = UNITS[unit];
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(orig)}`);
    s = s.slice(unit.length);
    total += Number(num[0]) * scale;
  }
  return neg ? -total : total;
}

/** Duration.String of a whole number of milliseconds: "0s", "500ms", "1m0s", "1h0m0s". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  ms = Math.abs(ms);
  if (ms < 1000) return `${sign}${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = (ms % 60_000) / 1000;
  if (h > 0) return `${sign}${h}h${m}m${sec}s`;
  if (m > 0) return `${sign}${m}m${sec}s`;
  return `${sign}${sec}s`;
}
