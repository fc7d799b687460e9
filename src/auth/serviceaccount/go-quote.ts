// Go's %q of a []string: `["a" "b"]`, each element quoted as strconv.Quote does (JSON's
// quoting agrees with it for the printable text audiences are made of).

export function goQuoteList(xs: readonly string[]): string {
  return `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
}
