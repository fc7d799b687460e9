// Accept negotiation, one way for every endpoint, as kube-apiserver 1.33 negotiates:
//
//   1. go-restful picks the route (resources, /api, /api/<v>, /apis/<g>/<v>): some clause's
//      bare media type must be `*/*` or exactly one the route produces, else its own 406.
//   2. The Accept header is parsed as github.com/munnerz/goautoneg parses it (its ordering
//      quirks included), and the first (clause, serializer) pair that matches and whose
//      parameters the endpoint allows wins (apiserver's handlers/negotiation). q orders the
//      clauses but refuses nothing: `application/json;q=0` still gets JSON.
//   3. Each endpoint says which transformations (as/g/v) and server versions (sv) it allows.
//
// The OpenAPI documents are negotiated by kube-openapi over the same parsed clauses
// (src/api/openapi.ts), discovery by the same negotiation with its own restrictions.

import type { GroupVersionKind } from '../machinery/api-resource.js';
import { StatusError, notAcceptable } from '../machinery/errors.js';
import { strconvParseBool } from '../machinery/go-format.js';
import { CBOR_MEDIA_TYPE, cborEnabled } from './cbor/index.js';

// ---------------------------------------------------------------------------------------------
// The Accept header, as goautoneg parses it.

/** One clause of an Accept header. */
export interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Map<string, string>;
}

/** strings.TrimFunc with ' ' as the only cut character: tabs and other blanks stay. */
const trimSpaces = (s: string): string => {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) === 0x20) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
};

const DECIMAL_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * strconv.ParseFloat(s, 32) as goautoneg reads q: rounded to float32, ±Inf past its range, and
 * 0 for anything Go refuses (blanks around the number included). Underscores, which Go allows
 * only after a base prefix, are refused.
 */
export function goParseFloat32(s: string): number {
  if (DECIMAL_FLOAT.test(s)) return Math.fround(Number(s));
  const hex = HEX_FLOAT.exec(s);
  if (hex && (hex[2] !== '' || (hex[3] ?? '') !== '')) {
    const digits = `${hex[2]}${hex[3] ?? ''}`;
    let mantissa = 0;
    for (const d of digits) mantissa = mantissa * 16 + parseInt(d, 16);
    const v = mantissa * 2 ** (Number(hex[4]) - 4 * (hex[3] ?? '').length);
    return Math.fround(hex[1] === '-' ? -v : v);
  }
  const special = SPECIAL_FLOAT.exec(s);
  if (special) return special[2].toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  return 0;
}

/** goautoneg's ordering: not a strict weak order, so only its own sort gives its answers. */
const before = (a: AcceptClause, b: AcceptClause): boolean =>
  a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');

/**
 * Parses an Accept header as goautoneg.ParseAccept: clauses split on ',', a media range split
 * on its first ';', then `type/subtype` (a lone star, or a star and a slash, is the full
 * wildcard; no subtype, or a second '/', drops the clause), `key=value` parameters (one '='
 * exactly, else dropped), q as Go parses a float32. Go's sort.Sort is an insertion sort for up
 * to 12 elements, which this replays; longer headers (no client sends them) may order their
 * equal clauses differently.
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = trimSpaces(rawPart);
    const semi = part.indexOf(';');
    const range = semi < 0 ? part : part.slice(0, semi);
    const slash = range.indexOf('/');
    const type = trimSpaces(slash < 0 ? range : range.slice(0, slash));
    const rest = slash < 0 ? '' : range.slice(slash + 1);
    let subType: string;
    if (rest === '') {
      if (type !== '*') continue;
      subType = '*';
    } else {
      if (rest.includes('/')) continue;
      subType = trimSpaces(rest);
    }
    const clause: AcceptClause = { type, subType, q: 1, params: new Map() };
    if (semi >= 0) {
      for (const param of part.slice(semi + 1).split(';')) {
        const kv = param.split('=');
        if (kv.length !== 2) continue;
        const token = trimSpaces(kv[0]);
        if (token === 'q') clause.q = goParseFloat32(kv[1]);
        else clause.params.set(token, trimSpaces(kv[1]));
      }
    }
    clauses.push(clause);
  }
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && before(clauses[j], clauses[j - 1]); j--) {
      [clauses[j], clauses[j - 1]] = [clauses[j - 1], clauses[j]];
    }
  }
  return clauses;
}

// ---------------------------------------------------------------------------------------------
// The route: go-restful's Accept check, made before any handler runs.

/**
 * Whether go-restful lets a request with this Accept header reach a route producing `produces`:
 * some clause, its parameters cut off and its spaces trimmed, is the full wildcard or one of
 * them exactly (no wildcard subtype, no case folding). No header counts as the full wildcard.
 */
export function routeAccepts(header: string | undefined, produces: readonly string[]): boolean {
  if (!header) return true;
  for (const clause of header.split(',')) {
    const semi = clause.indexOf(';');
    const mt = trimSpaces(semi < 0 ? clause : clause.slice(0, semi));
    if (mt === '*/*' || produces.includes(mt)) return true;
  }
  return false;
}

/** go-restful's 406: its own text, with an empty details object. */
export function routeNotAcceptable(produces: readonly string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`, {});
}

// ---------------------------------------------------------------------------------------------
// The negotiation (apiserver's NegotiateMediaTypeOptions).

export interface Serializer {
  /** e.g. application/json */
  mediaType: string;
  type: string;
  subType: string;
  /** Whether it has a stream framing, so that a `stream=watch` parameter may be honoured. */
  streaming: boolean;
}

export interface NegotiatedMediaType {
  serializer: Serializer;
  /** The clause's `pretty=1`. */
  pretty: boolean;
  stream: string;
  /** Set when the client asked for a transformed type through as/g/v parameters. */
  convert?: GroupVersionKind;
}

/** What an endpoint can serve beyond the plain object in a serializer's media type. */
export interface EndpointRestrictions {
  /** Whether `convert` (undefined: the plain object) can be produced in `serializer`. */
  allowsTransform(serializer: Serializer, convert: GroupVersionKind | undefined): boolean;
  /** The one `sv` (server version) a client may pick; none when unset. */
  serverVersion?: string;
}

/** The plain object only (DefaultEndpointRestrictions). */
export const DEFAULT_RESTRICTIONS: EndpointRestrictions = { allowsTransform: (_s, convert) => convert === undefined };

const serializer = (mediaType: string, streaming: boolean): Serializer => {
  const [type, subType] = mediaType.split('/');
  return { mediaType, type, subType, streaming };
};

function acceptOptions(params: Map<string, string>, s: Serializer, allows: EndpointRestrictions): NegotiatedMediaType | undefined {
  let convert: GroupVersionKind | undefined;
  let pretty = false;
  let stream = '';
  for (const [k, v] of params) {
    switch (k) {
      case 'as':
        (convert ??= { group: '', version: '', kind: '' }).kind = v;
        break;
      case 'g':
        (convert ??= { group: '', version: '', kind: '' }).group = v;
        break;
      case 'v':
        (convert ??= { group: '', version: '', kind: '' }).version = v;
        break;
      case 'stream':
        if (v !== '' && (!s.streaming || v !== 'watch')) return undefined;
        stream = v;
        break;
      case 'sv':
        if (v !== '' && v !== allows.serverVersion) return undefined;
        break;
      case 'pretty':
        pretty = v === '1';
        break;
      default:
        // Unknown parameters (export among them) change nothing.
        break;
    }
  }
  if (!allows.allowsTransform(s, convert)) return undefined;
  return { serializer: s, pretty, stream, convert };
}

/**
 * The media type to answer with, or undefined when nothing acceptable can be produced (the
 * caller's 406). No header (or an empty one) means the first serializer.
 */
export function negotiateMediaType(
  header: string | undefined,
  serializers: readonly Serializer[],
  allows: EndpointRestrictions = DEFAULT_RESTRICTIONS,
): NegotiatedMediaType | undefined {
  if (!header) return serializers.length ? { serializer: serializers[0], pretty: false, stream: '' } : undefined;
  for (const clause of parseAccept(header)) {
    for (const s of serializers) {
      const matches = clause.type === '*' ? clause.subType === '*' : clause.type === s.type && (clause.subType === '*' || clause.subType === s.subType);
      if (!matches) continue;
      const opts = acceptOptions(clause.params, s, allows);
      if (opts) return opts;
    }
  }
  return undefined;
}

/** kube pretty-prints for ?pretty=<true> and for humans' tools (curl, wget, browsers). */
export function isPrettyPrint(query: string, userAgent: string): boolean {
  if (query.includes('pretty')) {
    const pp = new URLSearchParams(query).get('pretty');
    if (pp) {
      try {
        return strconvParseBool(pp);
      } catch {
        return false;
      }
    }
  }
  return userAgent.startsWith('curl') || userAgent.startsWith('Wget') || userAgent.startsWith('Mozilla/5.0');
}

// ---------------------------------------------------------------------------------------------
// Objects: the resource endpoints.

export interface OutputFormat {
  mediaType: 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf' | 'application/cbor';
  /** Set when the client asked for a Table; the meta.k8s.io version it asked for. */
  table?: 'v1' | 'v1beta1';
  /** Set when the client asked for the metadata-only view of an object or a list. */
  partial?: { kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList'; version: 'v1' | 'v1beta1' };
  /** The clause asked for pretty output (`pretty=1`). */
  pretty?: boolean;
}

const OBJECT_SERIALIZERS: readonly Serializer[] = [
  serializer('application/json', true),
  serializer('application/yaml', false),
  serializer('application/vnd.kubernetes.protobuf', true),
];
const OBJECT_SERIALIZERS_CBOR: readonly Serializer[] = [...OBJECT_SERIALIZERS, serializer(CBOR_MEDIA_TYPE, true)];

/** The media types kube lists in a 406, in its order, without the gated ones. */
export const ACCEPTED_MEDIA_TYPES = OBJECT_SERIALIZERS.map((s) => s.mediaType);

/** The media types kube lists in a 406 now: the CBOR gate appends application/cbor. */
export const acceptedMediaTypes = (): string[] => (cborEnabled() ? [...ACCEPTED_MEDIA_TYPES, CBOR_MEDIA_TYPE] : ACCEPTED_MEDIA_TYPES);

const objectSerializers = (): readonly Serializer[] => (cborEnabled() ? OBJECT_SERIALIZERS_CBOR : OBJECT_SERIALIZERS);

const STREAM_PRODUCES = ['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const ROUTE_PRODUCES = {
  objects: ACCEPTED_MEDIA_TYPES,
  streams: [...ACCEPTED_MEDIA_TYPES, ...STREAM_PRODUCES],
  objectsCbor: [...ACCEPTED_MEDIA_TYPES, CBOR_MEDIA_TYPE],
  streamsCbor: [...ACCEPTED_MEDIA_TYPES, CBOR_MEDIA_TYPE, ...STREAM_PRODUCES, 'application/cbor-seq'],
};

/**
 * What a resource route produces, in go-restful's order: the object media types, and for the
 * list/watch route the stream types too (application/cbor-seq last, with the CBOR gate).
 */
export function resourceRouteProduces(streams: boolean): readonly string[] {
  if (cborEnabled()) return streams ? ROUTE_PRODUCES.streamsCbor : ROUTE_PRODUCES.objectsCbor;
  return streams ? ROUTE_PRODUCES.streams : ROUTE_PRODUCES.objects;
}

const META_GROUP = 'meta.k8s.io';

/**
 * A resource endpoint's restrictions (RequestScope.AllowsMediaTypeTransform): any serializer
 * for the object itself, a meta.k8s.io v1/v1beta1 Table in JSON or YAML, the metadata-only
 * PartialObjectMetadata(List) of v1/v1beta1 in any serializer, `sv=v1`. Whether the view
 * fits the answer (a list or not) is found out only when answering, as in kube.
 */
const RESOURCE_RESTRICTIONS: EndpointRestrictions = {
  serverVersion: 'v1',
  allowsTransform: (s, c) => {
    if (c === undefined) return true;
    if (c.group !== META_GROUP || (c.version !== 'v1' && c.version !== 'v1beta1')) return false;
    if (c.kind === 'PartialObjectMetadata' || c.kind === 'PartialObjectMetadataList') return true;
    if (c.kind !== 'Table') return false;
    return s.type === 'application' && (s.subType === 'json' || s.subType === 'yaml');
  },
};

const JSON_OUTPUT: OutputFormat = Object.freeze({ mediaType: 'application/json' });

/**
 * The response format of a resource endpoint, or 406 NotAcceptable. `allowTable` false
 * negotiates as kube does for a Status (DefaultEndpointRestrictions: the plain object only).
 */
export function negotiateOutput(accept: string | undefined, allowTable = true): OutputFormat {
  // The header almost every client sends: no need to parse it.
  if (!accept || accept === 'application/json') return JSON_OUTPUT;
  const m = negotiateMediaType(accept, objectSerializers(), allowTable ? RESOURCE_RESTRICTIONS : DEFAULT_RESTRICTIONS);
  if (!m) throw notAcceptable(acceptedMediaTypes());
  const out: OutputFormat = { mediaType: m.serializer.mediaType as OutputFormat['mediaType'] };
  if (m.convert?.kind === 'Table') out.table = m.convert.version as 'v1' | 'v1beta1';
  else if (m.convert) out.partial = { kind: m.convert.kind as 'PartialObjectMetadata' | 'PartialObjectMetadataList', version: m.convert.version as 'v1' | 'v1beta1' };
  if (m.pretty) out.pretty = true;
  return out;
}
