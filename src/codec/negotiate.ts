// Accept negotiation for object responses: JSON (default), YAML, protobuf, CBOR (with the
// CBORServingAndStorage gate), and the Table representation
// (as=Table;g=meta.k8s.io;v=v1|v1beta1) that kubectl asks for.

import { notAcceptable } from '../machinery/errors.js';
import { CBOR_MEDIA_TYPE, cborEnabled } from './cbor/index.js';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export interface OutputFormat {
  mediaType: 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf' | 'application/cbor';
  /** Set when the client asked for a Table; the meta.k8s.io version it asked for. */
  table?: 'v1' | 'v1beta1';
}

/** The media types kube lists in a 406, in its order, without the gated ones. */
export const ACCEPTED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** The media types kube lists in a 406 now: the CBOR gate appends application/cbor. */
export const acceptedMediaTypes = (): string[] => (cborEnabled() ? [...ACCEPTED_MEDIA_TYPES, CBOR_MEDIA_TYPE] : ACCEPTED_MEDIA_TYPES);

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mt, ...ps] = part.trim().split(';');
    if (!mt) continue;
    const [type, subtype = ''] = mt.trim().toLowerCase().split('/');
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of ps) {
      const i = p.indexOf('=');
      if (i < 0) continue;
      const k = p.slice(0, i).trim().toLowerCase();
      const v = p.slice(i + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    if (Number.isNaN(q)) q = 0;
    out.push({ type, subtype, params, q });
  }
  // Stable sort by q, so equal q keeps the client's order.
  return out.map((r, i) => ({ r, i })).sort((a, b) => b.r.q - a.r.q || a.i - b.i).map((x) => x.r);
}

function asFormat(r: MediaRange, allowTable: boolean): OutputFormat | undefined {
  if (r.q <= 0) return undefined;
  const full = `${r.type}/${r.subtype}`;
  const as = r.params.as;
  if (as) {
    if (as === 'Table' && allowTable && r.params.g === 'meta.k8s.io' && (r.params.v === 'v1' || r.params.v === 'v1beta1')) {
      if (full === 'application/json' || full === 'application/yaml') return { mediaType: full, table: r.params.v };
      if (full === CBOR_MEDIA_TYPE && cborEnabled()) return { mediaType: full, table: r.params.v };
    }
    // Other transformations (PartialObjectMetadata...) are not served yet.
    return undefined;
  }
  if (full === 'application/json' || full === 'application/*' || full === '*/*') return { mediaType: 'application/json' };
  if (full === 'application/yaml') return { mediaType: 'application/yaml' };
  if (full === 'application/vnd.kubernetes.protobuf') return { mediaType: full };
  if (full === CBOR_MEDIA_TYPE && cborEnabled()) return { mediaType: full };
  return undefined;
}

/** Picks the response format, or throws 406 NotAcceptable. */
export function negotiateOutput(accept: string | undefined, allowTable = true): OutputFormat {
  for (const r of parseAccept(accept)) {
    const f = asFormat(r, allowTable);
    if (f) return f;
  }
  throw notAcceptable(acceptedMediaTypes());
}
