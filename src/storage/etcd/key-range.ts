/** etcd's [key, range_end) for every key starting with `prefix` ('\0' means "no upper bound"). */
export function prefixRange(prefix: string, fromKey?: string): { key: Buffer; range_end: Buffer } {
  const p = Buffer.from(prefix, 'utf8');
  const start = fromKey !== undefined && fromKey > prefix ? Buffer.from(fromKey, 'utf8') : p;
  return {
    // An empty key is not a valid range start in etcd; '\0' is the smallest key.
    key: start.length > 0 ? start : Buffer.from([0]),
    range_end: prefixEnd(p),
  };
}

function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}
