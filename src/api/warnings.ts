// Warning headers as kube-apiserver writes them (endpoints/filters/warning.go and
// apimachinery's NewWarningHeader): `299 - "<text>"` with only `"` and `\` escaped and every
// other character as its UTF-8 bytes; a repeated text once; a text that is not valid UTF-8 or
// holds a control character dropped; past 4,096 characters in all, every warning cut to 256
// characters. A header value is sent as bytes (Node takes them as a Latin-1 string), so
// request text copied into a warning can never make writing the headers fail.

const TOTAL_RUNES = 4 * 1024;
const ITEM_RUNES = 256;

/** Go's unicode.IsControl: C0, DEL and C1. Lone surrogates are not valid UTF-8. */
function droppable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

const runes = (s: string): string[] => Array.from(s);

/** The header value of one warning text, as the bytes kube writes (a Latin-1 string for Node). */
export function warningHeaderValue(text: string): string {
  const quoted = `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(quoted, 'utf8').toString('latin1');
}

/** One request's warnings, in kube's recorder's order and limits. */
export class WarningRecorder {
  private readonly recorded = new Set<string>();
  private readonly ordered: string[] = [];
  private written = 0;
  private truncating = false;
  private values: string[] = [];

  add(text: string): void {
    if (text === '') return;
    if (this.written >= TOTAL_RUNES && this.truncating) return;
    if (this.recorded.has(text)) return;
    this.recorded.add(text);
    this.ordered.push(text);
    let r = runes(text);
    if (this.truncating && r.length > ITEM_RUNES) r = r.slice(0, ITEM_RUNES);
    const t = r.join('');
    if (droppable(t)) return;
    if (this.written + r.length <= TOTAL_RUNES || this.truncating) {
      this.written += r.length;
      this.values.push(warningHeaderValue(t));
      return;
    }
    // Over the limit: start again, every warning so far cut to its first 256 characters.
    this.truncating = true;
    this.written = 0;
    this.values = [];
    for (const w of this.ordered) {
      const wr = runes(w).slice(0, ITEM_RUNES);
      const wt = wr.join('');
      if (droppable(wt)) continue;
      this.written += wr.length;
      this.values.push(warningHeaderValue(wt));
    }
  }

  /** The Warning header values so far. */
  headers(): string[] {
    return this.values;
  }
}
