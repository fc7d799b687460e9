// Go's %#v of a resource.Quantity, as some of kube's validation messages print one: its int64
// mantissa and decimal scale, the cached string (set once String() was called, else empty) and
// the format. Built from the canonical form, so a value written as "1.5" prints as its
// canonical 1500m would.

const DECIMAL_SCALE: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_POWER: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

export function quantityGoString(canonical: string, cached: string): string {
  const m = /^(-?[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]?)$/.exec(canonical);
  let value = canonical;
  let scale = 0;
  let format = 'DecimalSI';
  if (m) {
    if (m[2]! in BINARY_POWER) {
      value = String(BigInt(m[1]!) << BigInt(BINARY_POWER[m[2]!]!));
      format = 'BinarySI';
    } else {
      value = m[1]!;
      scale = DECIMAL_SCALE[m[2]!]!;
    }
  }
  return `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${JSON.stringify(cached)}, Format:${JSON.stringify(format)}}`;
}
