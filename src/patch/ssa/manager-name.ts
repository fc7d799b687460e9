// The name of a writer that gives no fieldManager, as kube infers it from the User-Agent
// (endpoints/handlers/rest.go managerOrUserAgent / prefixFromUserAgent).

/** kube's prefixFromUserAgent: the part before the first '/', printable, at most 128 bytes. */
export function managerFromUserAgent(ua: string | undefined): string {
  const head = (ua ?? '').split('/')[0];
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    // Go's unicode.IsPrint: no control, format or separator characters but the ASCII space.
    if (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > 128) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The name of a non-apply writer: fieldManager, else the User-Agent's prefix (managerOrUserAgent). */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : managerFromUserAgent(userAgent);
}
