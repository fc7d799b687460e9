// Buffers for object-sized byte strings. Buffer.from and Buffer.concat take anything under
// 4 KiB from Node's shared 8 KiB pool, so objects of a few KiB need a new pool ArrayBuffer
// every second allocation; under load that allocation (and the GC bookkeeping of each
// ArrayBuffer) costs more than the copy. Object-sized buffers get an ArrayBuffer of their
// own and exact size instead; small ones still come from the pool, where they are cheap.

/** Below this, the pool's slices win. */
const OWN_BUFFER_MIN = 1024;

export function allocBytes(n: number): Buffer {
  return n >= OWN_BUFFER_MIN ? Buffer.allocUnsafeSlow(n) : Buffer.allocUnsafe(n);
}

/** The UTF-8 bytes of `s`. */
export function utf8Bytes(s: string): Buffer {
  if (s.length < OWN_BUFFER_MIN / 3) return Buffer.from(s);
  const n = Buffer.byteLength(s);
  const b = allocBytes(n);
  b.write(s, 0, n, 'utf8');
  return b;
}

/** `parts` copied into one buffer. */
export function joinBytes(parts: readonly Buffer[]): Buffer {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = allocBytes(n);
  let at = 0;
  for (const p of parts) at += p.copy(out, at);
  return out;
}

/** The UTF-8 bytes of the concatenation of `parts`, without building the joined string. */
export function utf8JoinBytes(parts: readonly string[]): Buffer {
  let n = 0;
  for (const p of parts) n += Buffer.byteLength(p);
  const out = allocBytes(n);
  let at = 0;
  for (const p of parts) at += out.write(p, at, 'utf8');
  return out;
}
