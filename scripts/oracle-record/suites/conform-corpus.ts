// A generated side-by-side corpus (seeded): for every served type, a life cycle whose each
// request takes a randomly chosen body media type (JSON, YAML, protobuf), answer media type
// (JSON, YAML, protobuf, Table v1 and v1beta1, PartialObjectMetadata v1 and v1beta1, pretty)
// and options (dryRun, fieldManager, fieldValidation, list limits and selectors,
// resourceVersion, propagation policy), then the same type's bad input: malformed and
// truncated bodies, invalid UTF-8, deep nesting, type swaps, numbers out of range, unknown
// and repeated fields, wrong kinds, versions, names and namespaces, stale and missing
// resourceVersions, failed preconditions, unsupported media types and methods, bad options.
// Every sequence cleans up after itself.

import { encodeProtobufObject } from '../../../src/codec/protobuf/index.js';
import type { Sequence } from '../format.js';
import { Rand } from '../random.js';
import { ALL_TYPES, PROTO, Seq, objectPath, type Obj, type TypeInfo } from './kit.js';

const SEED = 20_250_116;

const ACCEPTS = [
  'application/json',
  'application/yaml',
  PROTO,
  'application/json;as=Table;g=meta.k8s.io;v=v1',
  'application/json;as=Table;g=meta.k8s.io;v=v1beta1',
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1',
  'application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
  'application/json;pretty=1',
  '*/*',
];
const LIST_ACCEPTS = [
  'application/json',
  'application/yaml',
  PROTO,
  'application/json;as=Table;g=meta.k8s.io;v=v1',
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1',
  `${PROTO};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`,
];

type Media = 'json' | 'yaml' | 'protobuf';

/** An object as a body of the chosen media type. */
function body(doc: Obj, media: Media): { headers: Record<string, string>; body: Buffer | string } {
  if (media === 'protobuf') return { headers: { 'content-type': PROTO }, body: encodeProtobufObject(doc) };
  if (media === 'yaml') return { headers: { 'content-type': 'application/yaml' }, body: toYaml(doc) };
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) };
}

/** Block YAML of a JSON value (plain enough for every YAML parser; strings quoted). */
function toYaml(v: unknown, indent = ''): string {
  if (v === null || typeof v !== 'object') return `${JSON.stringify(v)}\n`;
  const entries: [string, unknown][] = Array.isArray(v) ? v.map((x) => ['-', x]) : Object.entries(v);
  if (entries.length === 0) return Array.isArray(v) ? '[]\n' : '{}\n';
  let out = '';
  for (const [k, x] of entries) {
    const head = Array.isArray(v) ? `${indent}-` : `${indent}${JSON.stringify(k)}:`;
    if (x !== null && typeof x === 'object' && Object.keys(x).length > 0) out += `${head}\n${toYaml(x, `${indent}  `)}`;
    else out += `${head} ${toYaml(x)}`;
  }
  return out;
}

const withLabels = (doc: Obj, labels: Record<string, string>): Obj => ({ ...doc, metadata: { ...(doc.metadata as Obj), labels } });

function nameFor(t: TypeInfo, tag: string): string {
  return `cc-${t.key.slice(0, 5)}-${tag}`;
}

export function lifecycle(t: TypeInfo, r: Rand): Sequence {
  const name = nameFor(t, 'life');
  const path = objectPath(t, name);
  const s = new Seq(`corpus-${t.key}-lifecycle`);
  const media = r.pick<Media>(['json', 'yaml', 'protobuf']);
  const created = body(withLabels(t.make(name), { corpus: 'yes', tier: r.pick(['a', 'b']) }), media);
  s.raw(`create (${media})`, 'POST', `${t.collection()}${r.chance(0.3) ? '?fieldManager=corpus' : ''}`, created);
  s.cleanup(t, name);
  for (let i = 0; i < 3; i++) s.get(path, { accept: r.pick(ACCEPTS) }, 'get');
  const listQ = r.pick([
    'limit=1',
    'labelSelector=corpus%3Dyes',
    `fieldSelector=metadata.name%3D${name}`,
    'labelSelector=corpus%3Dyes&resourceVersion=0',
    'labelSelector=tier%20in%20(a%2Cb)',
    'labelSelector=!nothing%2Ccorpus',
  ]);
  // A list of what the corpus made (the namespaces list holds other namespaces too).
  const sel = t.key === 'namespaces' ? `labelSelector=corpus%3Dyes&${listQ.replace(/labelSelector=[^&]*&?/, '')}` : listQ;
  s.get(`${t.collection()}?${sel}`, { accept: r.pick(LIST_ACCEPTS) }, 'list');
  s.req('merge patch', { method: 'PATCH', path: `${path}${r.pick(['', '?dryRun=All', '?fieldManager=m1'])}`, headers: { 'content-type': 'application/merge-patch+json', accept: r.pick(['application/json', 'application/yaml']) }, body: t.change });
  s.req('json patch', { method: 'PATCH', path, headers: { 'content-type': 'application/json-patch+json' }, body: [{ op: 'add', path: '/metadata/labels/jp', value: 'x' }, { op: 'test', path: '/metadata/labels/jp', value: 'x' }] });
  s.req('strategic merge patch', { method: 'PATCH', path, headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { metadata: { labels: { smp: 'y', jp: null } } } });
  s.req('apply', { method: 'PATCH', path: `${path}?fieldManager=corpus-apply${r.chance(0.5) ? '&force=true' : ''}`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name, labels: { applied: 'yes' } } }) });
  const read = s.get(path, undefined, 'read').last;
  s.putFrom(path, read, { metadata: { annotations: { put: 'yes' } } });
  s.get(`${path}`, { accept: r.pick(ACCEPTS) }, 'read after the update');
  if (t.subresources.includes('status')) s.get(`${path}/status`, { accept: r.pick(['application/json', 'application/yaml', PROTO]) }, 'get status');
  if (t.subresources.includes('scale')) s.get(`${path}/scale`, { accept: r.pick(['application/json', 'application/yaml', PROTO]) }, 'get scale');
  s.delete(`${path}?dryRun=All`, undefined, 'dry-run delete');
  s.get(path, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' }, 'still there');
  // Namespaces and claims keep a finalizer (no controller in kube's test server empties them).
  const policy = r.pick(['Background', 'Foreground', 'Orphan']);
  if (t.key !== 'namespaces' && t.key !== 'persistentvolumeclaims') s.delete(path, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy, gracePeriodSeconds: 0 }, `delete (${policy})`);
  return s.done();
}

/** A body with a value put at a path of the type's object. */
function put(doc: Obj, path: string[], value: unknown): Obj {
  const out = JSON.parse(JSON.stringify(doc)) as Obj;
  let at = out;
  for (const k of path.slice(0, -1)) {
    if (typeof at[k] !== 'object' || at[k] === null) at[k] = {};
    at = at[k] as Obj;
  }
  at[path[path.length - 1]] = value;
  return out;
}

/** An integer field of the type (in its own object), for type swaps and ranges. */
function intField(t: TypeInfo): string[] {
  switch (t.key) {
    case 'pods':
      return ['spec', 'activeDeadlineSeconds'];
    case 'statefulsets':
      return ['spec', 'replicas'];
    case 'priorityclasses':
      return ['value'];
    case 'controllerrevisions':
      return ['revision'];
    case 'leases':
      return ['spec', 'leaseDurationSeconds'];
    default:
      return ['metadata', 'generation'];
  }
}

export function badInput(t: TypeInfo, r: Rand): Sequence[] {
  const seqs: Sequence[] = [];
  const base = nameFor(t, 'bad');
  const coll = t.collection();
  const json = (doc: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) });

  // Creates that must fail (nothing is stored: each is followed by nothing to clean up but the name).
  const creates = new Seq(`corpus-${t.key}-bad-create`);
  const good = t.make(base);
  const text = JSON.stringify(good);
  creates.cleanup(t, base);
  creates.raw('truncated JSON', 'POST', coll, { headers: { 'content-type': 'application/json' }, body: text.slice(0, r.int(10, text.length - 2)) });
  creates.raw('trailing garbage', 'POST', coll, { headers: { 'content-type': 'application/json' }, body: `${text} x` });
  creates.raw('not an object', 'POST', coll, json(r.pick([[1, 2], 'x', 42, null])));
  creates.raw('invalid UTF-8 in a label', 'POST', coll, { headers: { 'content-type': 'application/json' }, body: Buffer.concat([Buffer.from(text.slice(0, -1) + ',"x":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]) });
  creates.raw('wrong kind', 'POST', coll, json({ ...good, kind: r.pick(['Secret', 'Nope', 'Service']) }));
  creates.raw('wrong apiVersion', 'POST', coll, json({ ...good, apiVersion: r.pick(['v2', 'apps/v1beta9', 'nope.io/v1']) }));
  creates.raw('name not a DNS name', 'POST', coll, json(put(good, ['metadata', 'name'], r.pick(['Upper', 'a_b', '-x', 'a'.repeat(260)]))));
  creates.raw('no name', 'POST', coll, json(put(good, ['metadata'], {})));
  creates.raw('type swap: labels a string', 'POST', coll, json(put(good, ['metadata', 'labels'], 'x')));
  creates.raw('type swap: an integer as a string', 'POST', coll, json(put(good, intField(t), '5')));
  creates.raw('integer out of range', 'POST', coll, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(put(good, intField(t), 0)).replace(`"${intField(t).at(-1)}":0`, `"${intField(t).at(-1)}":${r.pick(['99999999999999999999', '1e400', '2.5', '-9223372036854775809'])}`) });
  creates.raw('unknown field, strict', 'POST', `${coll}?fieldValidation=Strict`, json({ ...good, bogus: 1 }));
  creates.raw('repeated field, strict', 'POST', `${coll}?fieldValidation=Strict`, { headers: { 'content-type': 'application/json' }, body: text.replace('{', '{"kind":"x",') });
  creates.raw('unknown field, warn, dry run', 'POST', `${coll}?fieldValidation=Warn&dryRun=All`, json({ ...good, bogus: 1, metadata: { ...(good.metadata as Obj), bogus: 2 } }));
  creates.raw('deep nesting', 'POST', coll, { headers: { 'content-type': 'application/json' }, body: `${text.slice(0, -1)},"deep":${'['.repeat(10_001)}${']'.repeat(10_001)}}` });
  creates.raw('unsupported media type', 'POST', coll, { headers: { 'content-type': r.pick(['text/plain', 'application/xml', 'application/json-patch+json']) }, body: text });
  creates.raw('protobuf garbage', 'POST', coll, { headers: { 'content-type': PROTO }, body: Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x05, 0x01, 0x02]) });
  creates.raw('YAML not a mapping', 'POST', coll, { headers: { 'content-type': 'application/yaml' }, body: r.pick(['- a\n- b\n', '"just a string"\n', '42\n']) });
  creates.raw('bad dryRun', 'POST', `${coll}?dryRun=${r.pick(['bogus', 'true'])}`, json(good));
  creates.raw('bad fieldValidation', 'POST', `${coll}?fieldValidation=${r.pick(['strict', 'Bogus'])}`, json(good));
  creates.raw('bad fieldManager', 'POST', `${coll}?fieldManager=${'m'.repeat(129)}`, json(good));
  if (t.namespaced) {
    creates.raw('namespace mismatch', 'POST', coll, json(put(good, ['metadata', 'namespace'], 'kube-system')));
    creates.raw('namespace missing', 'POST', t.collection('corpus-no-such-ns'), json(good));
  }
  creates.raw('Accept nobody serves', 'POST', coll, { headers: { 'content-type': 'application/json', accept: r.pick(['text/html', 'application/xml', 'application/json;as=Nope;g=meta.k8s.io;v=v1']) }, body: text });
  seqs.push(creates.done());

  // Reads and options that must fail.
  const reads = new Seq(`corpus-${t.key}-bad-read`);
  reads.get(objectPath(t, `${base}-none`), { accept: r.pick(ACCEPTS) }, 'missing object');
  reads.get(`${coll}?labelSelector=${r.pick(['%3D%3D%3D', 'a%20in%20(', 'a%3D%3Db', '!'])}`, undefined, 'bad label selector');
  reads.get(`${coll}?fieldSelector=${r.pick(['bogus%3D1', 'spec.nope%3Dx', '%3D'])}`, undefined, 'bad field selector');
  reads.get(`${coll}?limit=${r.pick(['abc', '1.5'])}`, undefined, 'bad limit');
  reads.get(`${coll}?continue=${r.pick(['abc', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLiJ9'])}`, undefined, 'bad continue');
  reads.get(`${coll}?resourceVersion=${r.pick(['abc', '-1'])}`, undefined, 'bad resourceVersion');
  reads.get(`${coll}?resourceVersionMatch=${r.pick(['Exact', 'Bogus'])}`, undefined, 'resourceVersionMatch alone');
  reads.get(`${coll}?watch=1&resourceVersion=abc`, undefined, 'watch from a bad resourceVersion');
  reads.get(`${coll}?timeoutSeconds=abc`, undefined, 'bad timeoutSeconds');
  reads.get(`${objectPath(t, base)}/${r.pick(['nope', 'status/x', 'scale/x'])}`, undefined, 'unknown subresource');
  reads.get(objectPath(t, base), { accept: r.pick(['text/html', 'application/json;as=Table;g=meta.k8s.io;v=v2', 'application/xml']) }, 'unacceptable Accept');
  reads.raw('OPTIONS', 'OPTIONS', objectPath(t, base), {}, { headers: ['allow'] });
  reads.raw('HEAD on a watch path', 'HEAD', `${coll}?watch=1`);
  reads.raw('PUT on the collection', 'PUT', coll, json(good));
  reads.raw('POST on an object', 'POST', objectPath(t, base), json(good));
  seqs.push(reads.done());

  // Writes to an existing object that must fail and leave it as it was.
  const name = `${base}-x`;
  const path = objectPath(t, name);
  const writes = new Seq(`corpus-${t.key}-bad-write`);
  const obj = t.make(name);
  writes.post(coll, obj);
  const created = writes.last;
  writes.put(path, obj, undefined, 'PUT without resourceVersion');
  writes.putFrom(path, created, { metadata: { name: `${name}-other` } }, 'PUT with another name');
  writes.putFrom(path, created, { metadata: { resourceVersion: '1' } }, 'PUT with a stale resourceVersion');
  writes.putFrom(path, created, { metadata: { resourceVersion: 'abc' } }, 'PUT with a resourceVersion that is no number');
  writes.putFrom(path, created, { metadata: { uid: '00000000-0000-0000-0000-000000000000' } }, 'PUT changing the uid');
  writes.raw('PUT truncated', 'PUT', path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(obj).slice(0, 20) });
  writes.req('merge patch not an object', { method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: r.pick([[1], 'x', 3]) });
  writes.req('merge patch type swap', { method: 'PATCH', path, headers: { 'content-type': 'application/merge-patch+json' }, body: put({}, intField(t), r.pick(['x', true, { a: 1 }])) });
  writes.raw('merge patch number out of range', 'PATCH', path, { headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(put({}, intField(t), 0)).replace(/:0}/, `:${r.pick(['1e400', '99999999999999999999'])}}`) });
  writes.req('json patch failing test', { method: 'PATCH', path, headers: { 'content-type': 'application/json-patch+json' }, body: [{ op: 'test', path: '/metadata/name', value: 'other' }] });
  writes.req('json patch bad op', { method: 'PATCH', path, headers: { 'content-type': 'application/json-patch+json' }, body: [{ op: r.pick(['bogus', 'move']), path: '/metadata/labels/x' }] });
  writes.req('json patch missing path', { method: 'PATCH', path, headers: { 'content-type': 'application/json-patch+json' }, body: [{ op: 'remove', path: '/metadata/nope/x' }] });
  writes.req('json patch not a list', { method: 'PATCH', path, headers: { 'content-type': 'application/json-patch+json' }, body: { op: 'add' } });
  writes.req('strategic patch bad directive', { method: 'PATCH', path, headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { metadata: { $patch: r.pick(['bogus', 'delete']) } } });
  writes.req('strategic patch type swap', { method: 'PATCH', path, headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: { metadata: { labels: r.pick(['x', [1]]) } } });
  writes.req('apply without fieldManager', { method: 'PATCH', path, headers: { 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name } }) });
  writes.req('apply of another kind', { method: 'PATCH', path: `${path}?fieldManager=corpus`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: t.apiVersion, kind: 'Other', metadata: { name } }) });
  writes.req('apply of another name', { method: 'PATCH', path: `${path}?fieldManager=corpus`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name: `${name}-other` } }) });
  writes.req('apply bad YAML', { method: 'PATCH', path: `${path}?fieldManager=corpus`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: r.pick(['a: [1\n', 'a: b\n\tc: d\n', '{"a": }']) });
  writes.req('apply with managedFields', { method: 'PATCH', path: `${path}?fieldManager=corpus`, headers: { 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name, managedFields: [{ manager: 'x' }] } }) });
  writes.raw('patch with an unsupported type', 'PATCH', path, { headers: { 'content-type': r.pick(['application/json', 'text/plain']) }, body: '{}' });
  writes.delete(path, { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } }, 'delete with a failing uid precondition');
  writes.delete(path, { preconditions: { resourceVersion: '1' } }, 'delete with a failing resourceVersion precondition');
  writes.delete(path, { propagationPolicy: 'Bogus' }, 'delete with a bad propagationPolicy');
  writes.delete(`${path}?gracePeriodSeconds=abc`, undefined, 'delete with a bad gracePeriodSeconds');
  writes.raw('delete with a malformed body', 'DELETE', path, { headers: { 'content-type': 'application/json' }, body: '{"gracePeriodSeconds": "x"}' });
  writes.get(path, undefined, 'unchanged by the failed writes');
  seqs.push(writes.done());
  return seqs;
}

export const conformCorpus = {
  name: 'conform-corpus',
  generator: { seed: SEED },
  gzip: true,
  sequences(): Sequence[] {
    const r = new Rand(SEED);
    const out: Sequence[] = [];
    for (const t of ALL_TYPES) {
      out.push(lifecycle(t, r));
      out.push(...badInput(t, r));
    }
    return out;
  },
};

