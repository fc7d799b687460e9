// The fuzzer's requests: a valid request of a random kind (any verb, any served type, any body
// media type: JSON, YAML, protobuf, CBOR, each patch type, apply), then zero or more mutations
// of its document (type swaps, deep nesting, odd numbers and strings, unknown and repeated
// fields), of its bytes (flips, invalid UTF-8, truncation, insertion), of its method, path,
// query and headers. Seeded: the same seed gives the same requests.

import { stringify as toYaml } from 'yaml';
import type { Rand } from '../oracle-record/random.js';
import { ALL_TYPES, objectPath, type TypeInfo } from '../oracle-record/suites/kit.js';
import { encodeProtobufObject } from '../../src/codec/protobuf/index.js';
import { encodeCbor } from '../../src/codec/cbor/index.js';

export const FUZZ_NS = 'fuzz';

export interface FuzzRequest {
  /** What was generated, for reports. */
  note: string;
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
  /** The object a write aims at (checked for partial writes when the write fails). */
  object?: { path: string };
  /** A watch: the response streams until timeoutSeconds. */
  watch?: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const NAMES = ['f0', 'f1', 'f2', 'f3'];

const MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor'];
const PATCH_TYPES = ['application/merge-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor'];
const ODD_CONTENT_TYPES = [
  '',
  'text/plain',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/*',
  '*/*',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/merge-patch+json; x="\\"',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/cbor-seq',
  'application/json-patch+json; version=2',
  'APPLICATION/JSON',
];
const ACCEPTS = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/cbor',
  'application/json;as=Table;g=meta.k8s.io;v=v1',
  'application/json;as=Table;g=meta.k8s.io;v=v1beta1',
  'application/yaml;as=Table;g=meta.k8s.io;v=v1',
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1',
  'application/cbor;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/*',
  '*/*',
  'text/html',
  'application/json;q=0, application/yaml;q=0.5',
  'application/json;pretty=1',
  'application/json;as=Table;g=meta.k8s.io;v=v2',
  ';;;',
  'application/json;q=abc',
  '*/*;q=1e-400',
];
const QUERY: [string, string[]][] = [
  ['dryRun', ['All', 'all', '', 'None', 'All&dryRun=All']],
  ['fieldManager', ['m', 'x'.repeat(129), 'a\tb', '\u0001', 'é', '']],
  ['fieldValidation', ['Strict', 'Warn', 'Ignore', 'strict', '']],
  ['force', ['true', 'false', 'maybe', '']],
  ['pretty', ['true', '1', 'x']],
  ['limit', ['1', '0', '-1', 'abc', '99999999999999999999', '2']],
  ['continue', ['abc', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLiJ9', '']],
  ['resourceVersion', ['0', '1', 'abc', '', '-1', '1e3']],
  ['resourceVersionMatch', ['Exact', 'NotOlderThan', 'Bogus', '']],
  ['labelSelector', ['a=b', 'a in (x,y)', '!a', 'a=', '===', 'a notin ()', '%zz', 'x'.repeat(300)]],
  ['fieldSelector', ['metadata.name=f0', 'status.phase=Running', 'spec.nodeName=', 'bogus=1', 'metadata.name==a,metadata.namespace!=b', '=', 'a']],
  ['gracePeriodSeconds', ['0', '-1', '5', 'abc', '99999999999999999999']],
  ['propagationPolicy', ['Orphan', 'Foreground', 'Background', 'Bogus']],
  ['orphanDependents', ['true', 'false', 'x']],
  ['timeoutSeconds', ['1', '0', '-1', 'abc']],
  ['allowWatchBookmarks', ['true', 'x']],
  ['sendInitialEvents', ['true', 'false']],
  ['includeObject', ['None', 'Metadata', 'Object', 'Bogus']],
  ['watch', ['true', '1', 'false', '0', '']],
];

/** JSON text without recursion (documents here may nest 10,000 levels). */
function deepJson(doc: Json): string {
  const out: string[] = [];
  const stack: (Json | { close: string } | { sep: string })[] = [doc];
  while (stack.length) {
    const v = stack.pop()!;
    if (v !== null && typeof v === 'object' && 'close' in v && Object.keys(v).length === 1 && typeof (v as { close: unknown }).close === 'string') {
      out.push((v as { close: string }).close);
      continue;
    }
    if (v !== null && typeof v === 'object' && 'sep' in v && Object.keys(v).length === 1 && typeof (v as { sep: unknown }).sep === 'string') {
      out.push((v as { sep: string }).sep);
      continue;
    }
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ close: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]);
        if (i > 0) stack.push({ sep: ',' });
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      out.push('{');
      stack.push({ close: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i][1]);
        stack.push({ sep: `${JSON.stringify(entries[i][0])}:` });
        if (i > 0) stack.push({ sep: ',' });
      }
    } else out.push(JSON.stringify(v));
  }
  return out.join('');
}

/** Nesting depth, without recursion. */
function depthOf(doc: Json): number {
  let max = 0;
  const stack: [Json, number][] = [[doc, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    if (Array.isArray(v)) for (const x of v) stack.push([x, d + 1]);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}

function encodeYaml(doc: Json): Buffer {
  return Buffer.from(toYaml(doc, { lineWidth: 0 }));
}

/** A document with kind/apiVersion set, in a media type. */
function encode(r: Rand, doc: Json, mediaType: string): Buffer {
  // Very deep documents go as JSON text whatever the media type (the encoders recurse).
  if (depthOf(doc) > 200) return Buffer.from(deepJson(doc));
  try {
    if (mediaType === 'application/yaml' || mediaType === 'application/apply-patch+yaml') {
      return r.chance(0.5) ? encodeYaml(doc) : Buffer.from(JSON.stringify(doc));
    }
    if (mediaType === 'application/vnd.kubernetes.protobuf') return encodeProtobufObject(doc as Record<string, unknown>);
    if (mediaType === 'application/cbor' || mediaType === 'application/apply-patch+cbor') return encodeCbor(doc);
  } catch {
    // A document the encoder cannot write (mutated out of its schema) goes as JSON.
  }
  return Buffer.from(deepJson(doc));
}

// ---- document mutations ----

const leaves = (doc: Json): { parent: Json[] | { [k: string]: Json }; key: string | number }[] => {
  const out: { parent: Json[] | { [k: string]: Json }; key: string | number }[] = [];
  const stack: Json[] = [doc];
  while (stack.length && out.length < 400) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({ parent: v, key: i });
        stack.push(x);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.push({ parent: v, key: k });
        stack.push(x);
      }
    }
  }
  return out;
};

function nest(r: Rand, leaf: Json): Json {
  const depth = r.weighted<number>([
    [4, r.int(2, 64)],
    [2, r.int(65, 2000)],
    [2, r.int(2000, 9990)],
    [1, 10001],
  ]);
  let v = leaf;
  const asArray = r.chance(0.5);
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

const ODD_VALUES = (r: Rand): Json =>
  r.pick<Json>([
    null,
    true,
    '',
    'x'.repeat(r.int(1, 300)),
    -1,
    0,
    1.5,
    2147483648,
    -2147483649,
    // 2^53 + 1 rounds to 2^53 in a JS number; the literal form of such numbers comes from mutateBytes.
    9007199254740992,
    [],
    {},
    [1, 'a', null],
    { a: { b: 'c' } },
    '\ud800',
    '\u0000\u0001',
    'é\u2028',
    '1e3',
    '2024-01-01T00:00:00Z',
    'not-a-time',
    '100Mi',
    '1.5',
    '-1',
    { $patch: 'delete' },
    { $patch: 'bogus' },
    { $retainKeys: ['x'] },
  ]);

function mutateDoc(r: Rand, doc: Json): string {
  const spots = leaves(doc);
  if (spots.length === 0) return 'none';
  const s = r.pick(spots);
  const cur = (s.parent as Record<string | number, Json>)[s.key];
  switch (r.int(0, 5)) {
    case 0:
      (s.parent as Record<string | number, Json>)[s.key] = ODD_VALUES(r);
      return `type swap at ${String(s.key)}`;
    case 1:
      (s.parent as Record<string | number, Json>)[s.key] = nest(r, cur);
      return `deep nesting at ${String(s.key)}`;
    case 2:
      if (!Array.isArray(s.parent)) {
        (s.parent as Record<string, Json>)[r.pick(['x', 'unknownField', '\u00ff\u00fe', '$patch', '$setElementOrder/containers', 'metadata', ''])] = ODD_VALUES(r);
        return 'extra field';
      }
      (s.parent as Json[]).push(ODD_VALUES(r));
      return 'extra item';
    case 3:
      if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
      else delete s.parent[s.key as string];
      return `removed ${String(s.key)}`;
    case 4:
      (s.parent as Record<string | number, Json>)[s.key] = Array.isArray(cur) ? [...cur, ...cur] : cur;
      return 'duplicated list';
    default:
      (s.parent as Record<string | number, Json>)[s.key] = r.pick<Json>([2147483647, -1, 0, 1000000001, 4294967297]);
      return 'edge number';
  }
}

// ---- byte mutations ----

const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x80]];

function mutateBytes(r: Rand, body: Buffer): { body: Buffer; note: string } {
  if (body.length === 0) return { body: Buffer.from(r.pick(INVALID_UTF8)), note: 'invalid utf-8 body' };
  const at = r.int(0, body.length - 1);
  switch (r.int(0, 8)) {
    case 0: {
      const b = Buffer.from(body);
      b[at] ^= 1 << r.int(0, 7);
      return { body: b, note: `bit flip at ${at}` };
    }
    case 1: {
      const b = Buffer.from(body);
      b[at] = r.pick([0x00, 0xff, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c, 0x0a, 0x09]);
      return { body: b, note: `byte set at ${at}` };
    }
    case 2:
      return { body: Buffer.concat([body.subarray(0, at), Buffer.from(r.pick(INVALID_UTF8)), body.subarray(at)]), note: `invalid utf-8 at ${at}` };
    case 3:
      return { body: body.subarray(0, at), note: `truncated at ${at}` };
    case 4: {
      const len = r.int(1, Math.min(64, body.length - at));
      return { body: Buffer.concat([body.subarray(0, at), body.subarray(at + len)]), note: `deleted ${len} at ${at}` };
    }
    case 5: {
      const len = r.int(1, Math.min(64, body.length - at));
      return { body: Buffer.concat([body.subarray(0, at + len), body.subarray(at, at + len), body.subarray(at + len)]), note: `repeated ${len} at ${at}` };
    }
    case 6: {
      const num = r.pick(['1e400', '-1e400', '1e-400', '99999999999999999999', '-0', '0x10', '1.', '.5', 'NaN', 'Infinity', '01', '1e', '--1', '9007199254740993', '9223372036854775807', '9223372036854775808', '-9223372036854775809', '2147483648', '3.0']);
      const text = body.toString('latin1');
      const m = /-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(at));
      if (!m) return { body: Buffer.concat([body, Buffer.from(num)]), note: `appended ${num}` };
      const i = at + m.index;
      return { body: Buffer.concat([body.subarray(0, i), Buffer.from(num), body.subarray(i + m[0].length)]), note: `number ${num}` };
    }
    case 7: {
      const depth = r.pick([100, 5000, 10001, 20000]);
      return { body: Buffer.concat([body.subarray(0, at), Buffer.from('['.repeat(depth) + ']'.repeat(depth)), body.subarray(at)]), note: `nested ${depth} at ${at}` };
    }
    default: {
      const bytes = Buffer.alloc(r.int(1, 16));
      for (let i = 0; i < bytes.length; i++) bytes[i] = r.int(0, 255);
      return { body: Buffer.concat([body.subarray(0, at), bytes, body.subarray(at)]), note: `random bytes at ${at}` };
    }
  }
}

// ---- requests ----

function baseObject(t: TypeInfo, name: string, r: Rand): Json {
  const obj = t.make(name) as Json;
  if (r.chance(0.3)) (obj as { metadata: { labels?: Json } }).metadata.labels = { a: r.pick(['b', 'c']) };
  if (t.namespaced && r.chance(0.2)) (obj as { metadata: { namespace?: Json } }).metadata.namespace = FUZZ_NS;
  return obj;
}

function patchBody(t: TypeInfo, name: string, type: string, r: Rand): Json {
  if (type === 'application/json-patch+json') {
    return r.pick<Json>([
      [{ op: 'replace', path: '/metadata/labels', value: { a: 'x' } }],
      [{ op: 'add', path: '/metadata/annotations', value: { n: '1' } }, { op: 'test', path: '/metadata/name', value: name }],
      [{ op: 'remove', path: '/spec' }],
      [{ op: 'move', from: '/metadata/labels', path: '/metadata/annotations' }],
      [{ op: 'copy', from: '/metadata/name', path: '/metadata/generateName' }],
      [{ op: 'add', path: '/spec/replicas', value: 3 }],
      [{ op: 'bogus', path: '/x' }],
      [],
    ]);
  }
  if (type.startsWith('application/apply-patch')) return baseObject(t, name, r);
  return r.pick<Json>([t.change as Json, { metadata: { labels: { a: 'y', b: null } } }, { spec: null }, { status: { phase: 'Running' } }, { metadata: { finalizers: ['example.com/f'] } }, { metadata: { finalizers: null } }]);
}

function query(r: Rand, base: string[]): string {
  const parts = [...base];
  const n = r.weighted<number>([
    [6, 0],
    [3, 1],
    [1, 3],
  ]);
  for (let i = 0; i < n; i++) {
    const [k, vs] = r.pick(QUERY);
    parts.push(`${k}=${encodeURIComponent(r.pick(vs))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const SUBRESOURCES = ['', '', '', 'status', 'scale', 'finalize', 'bogus', 'status/extra'];

function mutatePath(r: Rand, path: string): { path: string; note: string } {
  const segs = path.split('/');
  switch (r.int(0, 9)) {
    case 0:
      segs[r.int(1, segs.length - 1)] = r.pick(['', '..', '.', '%2F', '%zz', 'x'.repeat(300), 'watch', 'namespaces', '%00', 'é', 'A_B', '%E2%80%A8']);
      return { path: segs.join('/'), note: 'path segment' };
    case 1:
      return { path: `${path}/${r.pick(['x', 'status', 'scale', '', 'finalize', 'watch'])}`, note: 'extra segment' };
    case 2:
      return { path: path.replace(/^\/(api|apis)\//, (m) => `${m}${r.pick(['', '/'])}`), note: 'double slash' };
    case 3:
      return { path: path.replace(/\/(v1)\//, '/watch/$1/').replace('/v1/namespaces', '/v1/watch/namespaces'), note: 'watch path' };
    case 4:
      return { path: r.pick(['/', '/api', '/apis', '/apis/apps', '/apis/foo/v1/x', '/version', '/healthz/etcd', '/readyz?verbose', '/livez/x', '/metrics', '/openapi/v2', '/openapi/v3/apis/apps/v1', '/openapi/v3/nope', '/api/v1/namespaces/fuzz/pods//status']), note: 'fixed path' };
    default:
      return { path, note: 'path kept' };
  }
}

export interface GenerateOptions {
  /** Chance that a request is mutated at all. */
  mutate?: number;
}

/** One request, from the seeded generator. */
export function generate(r: Rand): FuzzRequest {
  const t = r.pick(ALL_TYPES);
  const name = r.pick(NAMES);
  const ns = t.namespaced ? r.pick([FUZZ_NS, FUZZ_NS, 'default', 'nope']) : '';
  const coll = t.collection(ns);
  const opath = objectPath(t, name, ns);
  const verb = r.weighted<string>([
    [4, 'create'],
    [3, 'update'],
    [6, 'patch'],
    [2, 'get'],
    [2, 'list'],
    [1, 'watch'],
    [2, 'delete'],
    [1, 'deletecollection'],
  ]);
  const notes: string[] = [`${verb} ${t.key}`];
  let method = { create: 'POST', update: 'PUT', patch: 'PATCH', get: 'GET', list: 'GET', watch: 'GET', delete: 'DELETE', deletecollection: 'DELETE' }[verb]!;
  let path = verb === 'create' || verb === 'list' || verb === 'watch' || verb === 'deletecollection' ? coll : opath;
  if ((verb === 'update' || verb === 'patch' || verb === 'get') && r.chance(0.25)) {
    const sub = r.pick(SUBRESOURCES);
    if (sub) path = `${path}/${sub}`;
  }
  const headers: [string, string][] = [['user-agent', 'kapi-fuzz/1']];
  let doc: Json | undefined;
  let contentType = '';
  if (verb === 'create' || verb === 'update') {
    doc = baseObject(t, name, r);
    if (path.endsWith('/scale')) doc = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name }, spec: { replicas: r.int(0, 3) } };
    contentType = r.pick(MEDIA);
  } else if (verb === 'patch') {
    contentType = r.pick(PATCH_TYPES);
    doc = path.endsWith('/scale') && r.chance(0.5) ? { spec: { replicas: r.pick([1, 2, 2147483648, -1, 1.5]) } } : patchBody(t, name, contentType, r);
  } else if ((verb === 'delete' || verb === 'deletecollection') && r.chance(0.4)) {
    doc = r.pick<Json>([{ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 }, { propagationPolicy: 'Foreground' }, { preconditions: { uid: 'x' } }, { kind: 'Pod' }, {}]);
    contentType = r.pick(MEDIA);
  }
  const qbase: string[] = [];
  if (verb === 'watch') qbase.push('watch=true', `timeoutSeconds=${r.pick(['1', '1', '0'])}`);
  if (contentType.startsWith('application/apply-patch')) qbase.push(`fieldManager=${r.pick(['m', 'n'])}`);
  if (r.chance(0.15)) qbase.push('dryRun=All');
  let q = query(r, qbase);
  // Watches must end: every watch asks for a 1 s timeout (a 0 means the server's default).
  if (verb === 'watch' || /[?&]watch=(true|1|)(&|$)/.test(q)) q = q.replace(/timeoutSeconds=[^&]*/g, '') + '&timeoutSeconds=1';

  const mutating = r.chance(0.85);
  if (doc !== undefined && mutating && r.chance(0.5)) notes.push(mutateDoc(r, doc));
  let body = doc !== undefined ? encode(r, doc, contentType) : undefined;
  if (mutating && body !== undefined && r.chance(0.45)) {
    const m = mutateBytes(r, body);
    body = m.body;
    notes.push(m.note);
  }
  if (mutating && r.chance(0.12)) {
    const m = mutatePath(r, path);
    path = m.path;
    notes.push(m.note);
  }
  if (mutating && r.chance(0.08)) {
    method = r.pick(['HEAD', 'OPTIONS', 'TRACE', 'PUT', 'POST', 'PATCH', 'DELETE', 'GET', 'CONNECTX']);
    notes.push(`method ${method}`);
  }
  if (mutating && r.chance(0.15)) {
    contentType = r.pick(ODD_CONTENT_TYPES);
    notes.push(`content-type ${JSON.stringify(contentType)}`);
  }
  if (contentType) headers.push(['content-type', contentType]);
  if (r.chance(0.35)) headers.push(['accept', r.pick(ACCEPTS)]);
  if (mutating && r.chance(0.05)) {
    // Header bytes outside what Node's client would send (high Latin-1 bytes, a raw UTF-8 value).
    headers.push([r.pick(['accept', 'x-odd', 'user-agent', 'content-type']), r.pick(['\u00ff\u00fe', 'é', 'a\u0080b', '\t', ' ', 'application/json\u00a0'])]);
    notes.push('odd header');
  }
  if (mutating && r.chance(0.03)) {
    headers.push(['connection', 'upgrade'], ['upgrade', 'websocket'], ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='], ['sec-websocket-version', '13']);
    notes.push('websocket upgrade');
  }
  const isWatch = method === 'GET' && (verb === 'watch' || /[?&]watch=(true|1)(&|$)/.test(q) || path.includes('/watch/'));
  const write = ['PUT', 'PATCH', 'DELETE', 'POST'].includes(method);
  return {
    note: notes.join('; '),
    method,
    path: path + q,
    headers,
    body,
    object: write ? { path: opath } : undefined,
    watch: isWatch,
  };
}

/** The request's bytes: an HTTP/1.1 request with a Content-Length body. */
export function requestBytes(req: FuzzRequest, host: string, token?: string): Buffer {
  const lines = [`${req.method} ${req.path} HTTP/1.1`, `host: ${host}`, 'connection: close'];
  if (token) lines.push(`authorization: Bearer ${token}`);
  for (const [k, v] of req.headers) lines.push(`${k}: ${v}`);
  if (req.body !== undefined) lines.push(`content-length: ${req.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), req.body ?? Buffer.alloc(0)]);
}

/** The fixtures the fuzz starts from: its namespace and a few objects of every type in it. */
export function seedRequests(): FuzzRequest[] {
  const out: FuzzRequest[] = [
    { note: 'seed namespace', method: 'POST', path: '/api/v1/namespaces', headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify({ metadata: { name: FUZZ_NS } })) },
  ];
  for (const t of ALL_TYPES) {
    if (t.key === 'namespaces') continue;
    for (const name of NAMES.slice(0, 2)) {
      out.push({ note: `seed ${t.key}/${name}`, method: 'POST', path: t.collection(FUZZ_NS), headers: [['content-type', 'application/json']], body: Buffer.from(JSON.stringify(t.make(name))) });
    }
  }
  return out;
}
