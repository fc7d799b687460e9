// CBOR (application/cbor) behind the CBORServingAndStorage gate, as kube-apiserver 1.33
// serves it: every object, list, Table and Status in kube's self-described form (tag 55799,
// strings as byte strings), decoded here by an independent decoder (cbor-x); CBOR bodies
// through the same typed decoding as JSON, with kube's CBOR rules for repeated keys and
// unknown fields; watch as an application/cbor-seq stream of WatchEvent items; and with the
// gate off, 406 and 415 as kube answers them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decoder, Encoder } from 'cbor-x';
import { removeDir, startKapi } from '../../support/server.js';
import { NS, PC, PDB, STS, expectCode, expectFailure, expiredWatchEvent, http, ns, pc, pdb, sts, uniq, type KapiProcess, type Obj } from './helpers.js';

const CBOR = 'application/cbor';
const TAG = Buffer.from([0xd9, 0xd9, 0xf7]);

let k: KapiProcess;
let off: KapiProcess;
let NSA: string;

beforeAll(async () => {
  [k, off] = await Promise.all([startKapi({ args: ['--feature-gates', 'CBORServingAndStorage=true', '--watch-history', '1s'] }), startKapi()]);
  NSA = uniq('cbor');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
}, 60_000);

afterAll(async () => {
  for (const p of [k, off]) {
    await p?.stop();
    if (p) await removeDir(p.dataDir);
  }
});

// ---- an independent CBOR decoder and encoder (cbor-x) ----

const cborx = new Decoder({ mapsAsObjects: false, useRecords: false });
const encoderx = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });

/**
 * cbor-x's view of kapi's bytes as a JSON-like value. kube writes every string as a byte
 * string, so a text string anywhere is a failure.
 */
function plain(v: unknown, path = '$'): unknown {
  if (typeof v === 'string') throw new Error(`text string at ${path}: kube encodes strings as byte strings`);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map((e, i) => plain(e, `${path}[${i}]`));
  if (v instanceof Map) {
    const out: Obj = {};
    for (const [key, val] of v) {
      if (!(key instanceof Uint8Array)) throw new Error(`non-byte-string key at ${path}`);
      const name = Buffer.from(key).toString('utf8');
      out[name] = plain(val, `${path}.${name}`);
    }
    return out;
  }
  return v;
}

function fromCbor(body: Buffer): Obj {
  expect(body.subarray(0, 3)).toEqual(TAG);
  return plain(cborx.decode(body)) as Obj;
}

const toCbor = (v: unknown): Buffer => Buffer.concat([TAG, encoderx.encode(v)]);

interface Raw {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function req(p: KapiProcess, method: string, path: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Raw> {
  const h: Record<string, string> = { accept: CBOR, ...headers };
  if (body && !h['content-type']) h['content-type'] = CBOR;
  const res = await p.fetch(path, { method, headers: h, body });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function expectCbor(r: Raw, code: number): Obj {
  expect(r.status, `HTTP ${r.status}: ${r.body.toString('hex').slice(0, 200)} ${r.body.toString('utf8').slice(0, 400)}`).toBe(code);
  expect(r.headers.get('content-type')).toBe(CBOR);
  return fromCbor(r.body);
}

function expectCborFailure(r: Raw, code: number, reason: string, message: string): void {
  const s = expectCbor(r, code);
  expect(s).toStrictEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

const getJson = async (path: string): Promise<Obj> => expectCode(await http(k, 'GET', path), 200);

// ---- CBOR bodies with repeated keys, written by hand (no library writes those) ----

type Entry = [string, Item];
type Item = string | number | boolean | null | Item[] | { entries: Entry[] };

function hand(v: Item): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (v === null) return Buffer.from([0xf6]);
  if (typeof v === 'boolean') return Buffer.from([v ? 0xf5 : 0xf4]);
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Array.isArray(v)) return Buffer.concat([head(4, v.length), ...v.map(hand)]);
  return Buffer.concat([head(5, v.entries.length), ...v.entries.flatMap(([key, val]) => [hand(key), hand(val)])]);
}

// ---- objects of every served type ----

function pod(name: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: name }, annotations: { note: 'ünïcode ✓' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { limits: { cpu: '500m', memory: '64Mi' } } }], terminationGracePeriodSeconds: 5 },
  };
}

function pvc(name: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
}

function controllerRevision(name: string): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name },
    data: { spec: { template: { metadata: { labels: { app: 'x' } } } }, nested: [1, 2.5, 'three', true, null] },
    revision: 3,
  };
}

const CR = (ns: string, name = ''): string => `/apis/apps/v1/namespaces/${ns}/controllerrevisions${name ? '/' + name : ''}`;
const PODS = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/pods${name ? '/' + name : ''}`;
const PVCS = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/persistentvolumeclaims${name ? '/' + name : ''}`;

interface TypeCase {
  kind: string;
  path: (name?: string) => string;
  build: (name: string) => Obj;
  change: (o: Obj) => void;
}

const TYPES: TypeCase[] = [
  { kind: 'Namespace', path: (n) => NS(n), build: (n) => ns(n), change: (o) => (o.metadata.labels = { changed: 'yes' }) },
  { kind: 'Pod', path: (n) => PODS(NSA, n), build: pod, change: (o) => (o.metadata.labels.changed = 'yes') },
  { kind: 'PersistentVolumeClaim', path: (n) => PVCS(NSA, n), build: pvc, change: (o) => (o.metadata.labels = { changed: 'yes' }) },
  { kind: 'StatefulSet', path: (n) => STS(NSA, n), build: (n) => sts(n, { replicas: 2 }), change: (o) => (o.spec.replicas = 4) },
  { kind: 'ControllerRevision', path: (n) => CR(NSA, n), build: controllerRevision, change: (o) => (o.metadata.labels = { changed: 'yes' }) },
  { kind: 'PodDisruptionBudget', path: (n) => PDB(NSA, n), build: (n) => pdb(n), change: (o) => (o.spec.minAvailable = 2) },
  { kind: 'PriorityClass', path: (n) => PC(n), build: (n) => pc(n, 4242, { description: 'cbor ✓' }), change: (o) => (o.description = 'changed') },
];

describe('round trip for each served type', () => {
  for (const t of TYPES) {
    it(`${t.kind}: created from CBOR, read back in CBOR equal to JSON, kapi's bytes accepted back`, async () => {
      const name = uniq(t.kind.toLowerCase());
      const created = expectCbor(await req(k, 'POST', t.path(), toCbor(t.build(name))), 201);
      expect(created.kind).toBe(t.kind);
      expect(created.metadata.name).toBe(name);

      // The object in CBOR is the object in JSON, value for value.
      const asJson = await getJson(t.path(name));
      expect(created).toStrictEqual(asJson);
      const got = await req(k, 'GET', t.path(name));
      expect(expectCbor(got, 200)).toStrictEqual(asJson);

      // kapi's own bytes go back as an update body unchanged...
      const same = expectCbor(await req(k, 'PUT', t.path(name), got.body), 200);
      expect(same.metadata.resourceVersion).toBe(asJson.metadata.resourceVersion);
      // ...and a change made on the decoded value sticks.
      const edited = fromCbor(got.body);
      t.change(edited);
      const updated = expectCbor(await req(k, 'PUT', t.path(name), toCbor(edited)), 200);
      expect(updated).toStrictEqual(await getJson(t.path(name)));
      expect(updated.metadata.resourceVersion).not.toBe(asJson.metadata.resourceVersion);
    });
  }

  it('numbers are CBOR integers, strings byte strings, time an RFC 3339 string', async () => {
    const name = uniq('pc');
    await req(k, 'POST', PC(), toCbor(pc(name, 70000)));
    const r = await req(k, 'GET', PC(name));
    const raw = cborx.decode(r.body) as Map<Uint8Array, unknown>;
    const entries = new Map([...raw].map(([key, v]) => [Buffer.from(key).toString(), v]));
    expect(entries.get('value')).toBe(70000);
    expect(entries.get('kind')).toBeInstanceOf(Uint8Array);
    // value 70000 is a 4-byte unsigned integer right after its byte-string key.
    expect(r.body.includes(Buffer.concat([Buffer.from('4576616c7565', 'hex'), Buffer.from([0x1a, 0x00, 0x01, 0x11, 0x70])]))).toBe(true);
    const meta = plain(entries.get('metadata')) as Obj;
    expect(meta.creationTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('a body without the self-described tag is accepted too', async () => {
    const name = uniq('pc');
    const created = expectCbor(await req(k, 'POST', PC(), encoderx.encode(pc(name))), 201);
    expect(created.metadata.name).toBe(name);
  });
});

describe('subresources and deletes', () => {
  it('/scale reads and writes a Scale in CBOR', async () => {
    const name = uniq('web');
    expectCbor(await req(k, 'POST', STS(NSA), toCbor(sts(name, { replicas: 1 }))), 201);
    const scale = expectCbor(await req(k, 'GET', `${STS(NSA, name)}/scale`), 200);
    expect(scale).toStrictEqual(expectCode(await http(k, 'GET', `${STS(NSA, name)}/scale`), 200));
    scale.spec.replicas = 5;
    const put = expectCbor(await req(k, 'PUT', `${STS(NSA, name)}/scale`, toCbor(scale)), 200);
    expect(put.spec.replicas).toBe(5);
    expect((await getJson(STS(NSA, name))).spec.replicas).toBe(5);
  });

  it('DELETE takes DeleteOptions in CBOR and answers in CBOR', async () => {
    const name = uniq('pc');
    expectCbor(await req(k, 'POST', PC(), toCbor(pc(name))), 201);
    const opts = toCbor({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } });
    const conflict = expectCbor(await req(k, 'DELETE', PC(name), opts), 409);
    expect(conflict.reason).toBe('Conflict');
    const gone = expectCbor(await req(k, 'DELETE', PC(name), toCbor({ kind: 'DeleteOptions', apiVersion: 'v1' })), 200);
    // The same answer a JSON client gets for the same delete.
    const other = uniq('pc');
    expectCode(await http(k, 'POST', PC(), pc(other)), 201);
    const viaJson = expectCode(await http(k, 'DELETE', PC(other)), 200);
    expect(gone.kind).toBe(viaJson.kind);
    expect(gone.details?.name ?? gone.metadata?.name).toBe(name);
    expect((await http(k, 'GET', PC(name))).status).toBe(404);
  });
});

describe('lists and tables', () => {
  it('a list in CBOR is the JSON list', async () => {
    const r = await req(k, 'GET', PODS(NSA));
    const list = expectCbor(r, 200);
    expect(list.kind).toBe('PodList');
    expect(list).toStrictEqual(await getJson(PODS(NSA)));
    expect(list.items.length).toBeGreaterThan(0);
  });

  it('no Table in CBOR: kube converts to a Table in JSON and YAML only, so the clause is passed over', async () => {
    const accept = `${CBOR};as=Table;v=v1;g=meta.k8s.io`;
    expectFailure(await http(k, 'GET', STS(NSA), undefined, { accept }), {
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor',
    });
    expect(expectCbor(await req(k, 'GET', STS(NSA), undefined, { accept: `${accept}, ${CBOR}` }), 200).kind).toBe('StatefulSetList');
  });
});

describe('errors', () => {
  it('a Status is written in CBOR to a CBOR client', async () => {
    const s = expectCbor(await req(k, 'GET', PC('nope-none')), 404);
    expect(s).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'priorityclasses.scheduling.k8s.io "nope-none" not found',
      reason: 'NotFound',
      details: { name: 'nope-none', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
      code: 404,
    });
    expect(s).toStrictEqual(expectCode(await http(k, 'GET', PC('nope-none')), 404));
  });

  it('a truncated body is 400 with kube\'s message', async () => {
    const full = toCbor(pc(uniq('pc')));
    const cut = full.subarray(0, full.length - 5);
    expectCborFailure(
      await req(k, 'POST', PC(), cut),
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type PriorityClass): unable to determine group/version/kind: unexpected EOF (${cut.subarray(0, 30).toString('hex')} ...)`,
    );
  });

  it('malformed CBOR (reserved additional information, trailing bytes, empty) is 400', async () => {
    const bad = Buffer.from([0xd9, 0xd9, 0xf7, 0xbc]);
    expectCborFailure(
      await req(k, 'POST', PC(), bad),
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type PriorityClass): unable to determine group/version/kind: cbor: invalid additional information 28 for type map (${bad.toString('hex')})`,
    );
    const extra = Buffer.concat([toCbor(pc(uniq('pc'))), Buffer.from([0x00])]);
    const r = expectCbor(await req(k, 'POST', PC(), extra), 400);
    expect(r.message).toContain(`unable to determine group/version/kind: cbor: 1 bytes of extraneous data starting at index ${extra.length - 1}`);
    const empty = expectCbor(await req(k, 'POST', PC(), Buffer.alloc(0)), 400);
    expect(empty.message).toBe('the object provided is unrecognized (must be of type PriorityClass): unable to determine group/version/kind: EOF (<empty>)');
  });

  it('a map key repeated inside the object rejects the body whatever fieldValidation says', async () => {
    const name = uniq('pc');
    const body = hand({
      entries: [
        ['apiVersion', 'scheduling.k8s.io/v1'],
        ['kind', 'PriorityClass'],
        ['metadata', { entries: [['name', name], ['labels', { entries: [['a', 'x'], ['a', 'y']] }]] }],
        ['value', 10],
      ],
    });
    for (const fv of ['Ignore', 'Warn', 'Strict']) {
      expectCborFailure(
        await req(k, 'POST', `${PC()}?fieldValidation=${fv}`, body),
        400,
        'BadRequest',
        'PriorityClass in version "v1" cannot be handled as a PriorityClass: cbor: found duplicate map key "a" at map element index 1',
      );
    }
    expect((await http(k, 'GET', PC(name))).status).toBe(404);
  });

  it('a repeated top-level key fails before the kind is known', async () => {
    const body = hand({ entries: [['apiVersion', 'scheduling.k8s.io/v1'], ['kind', 'PriorityClass'], ['value', 1], ['value', 2]] });
    expectCborFailure(
      await req(k, 'POST', PC(), body),
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type PriorityClass): unable to determine group/version/kind: cbor: found duplicate map key "value" at map element index 3 (${body.subarray(0, 30).toString('hex')} ...)`,
    );
  });

  it('a repeated key inside an unknown field is never looked at', async () => {
    const name = uniq('pc');
    const body = hand({
      entries: [
        ['apiVersion', 'scheduling.k8s.io/v1'],
        ['kind', 'PriorityClass'],
        ['metadata', { entries: [['name', name]] }],
        ['bogus', { entries: [['x', 1], ['x', 2]] }],
        ['value', 10],
      ],
    });
    const r = await req(k, 'POST', `${PC()}?fieldValidation=Ignore`, body);
    expectCbor(r, 201);
  });

  it('unknown fields: Warn warns with the map element index, Strict rejects, Ignore drops', async () => {
    const body = (name: string): Buffer =>
      hand({
        entries: [
          ['apiVersion', 'apps/v1'],
          ['kind', 'StatefulSet'],
          ['metadata', { entries: [['name', name]] }],
          [
            'spec',
            {
              entries: [
                ['serviceName', name],
                ['selector', { entries: [['matchLabels', { entries: [['app', name]] }]] }],
                ['bogusField', 1],
                [
                  'template',
                  {
                    entries: [
                      ['metadata', { entries: [['labels', { entries: [['app', name]] }]] }],
                      ['spec', { entries: [['containers', [{ entries: [['name', 'c'], ['image', 'nginx'], ['alsoBogus', true]] }]]] }],
                    ],
                  },
                ],
              ],
            },
          ],
        ],
      });
    const warned = uniq('web');
    const r = await req(k, 'POST', STS(NSA), body(warned));
    const obj = expectCbor(r, 201);
    // kube's CBOR decoder reports the first unknown field only, by its index in its map.
    expect(r.headers.get('warning')).toBe('299 - "cbor: found unknown field at map element index 2"');
    expect(obj.spec.bogusField).toBeUndefined();
    expect((await getJson(STS(NSA, warned))).spec.template.spec.containers[0].alsoBogus).toBeUndefined();

    const strict = uniq('web');
    expectCborFailure(
      await req(k, 'POST', `${STS(NSA)}?fieldValidation=Strict`, body(strict)),
      400,
      'BadRequest',
      'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: cbor: found unknown field at map element index 2',
    );
    expect((await http(k, 'GET', STS(NSA, strict))).status).toBe(404);

    const ignored = await req(k, 'POST', `${STS(NSA)}?fieldValidation=Ignore`, body(uniq('web')));
    expectCbor(ignored, 201);
    expect(ignored.headers.get('warning')).toBeNull();
  });

  it('the index is the unknown field\'s place in its own map, however deep (a list element here)', async () => {
    const name = uniq('p');
    const body = hand({
      entries: [
        ['kind', 'Pod'],
        ['apiVersion', 'v1'],
        ['metadata', { entries: [['name', name]] }],
        ['spec', { entries: [['containers', [{ entries: [['image', 'nginx'], ['name', 'c'], ['ports', []], ['extra', 'x']] }]]] }],
      ],
    });
    expectCborFailure(
      await req(k, 'POST', `${PODS(NSA)}?fieldValidation=Strict`, body),
      400,
      'BadRequest',
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: cbor: found unknown field at map element index 3',
    );
  });

  it('schema-typed decoding: a wrong type is 400 in fxamacker/cbor\'s words, a mismatched kind is 400', async () => {
    // cbor-x writes text strings; fxamacker names the outermost struct and its field.
    expectCborFailure(
      await req(k, 'POST', PC(), toCbor({ ...pc(uniq('pc')), value: 'high' })),
      400,
      'BadRequest',
      'PriorityClass in version "v1" cannot be handled as a PriorityClass: cbor: cannot unmarshal UTF-8 text string into Go struct field v1.PriorityClass.value of type int32',
    );
    const s = sts(uniq('web'));
    s.spec.replicas = Buffer.from('three');
    expectCborFailure(
      await req(k, 'POST', STS(NSA), toCbor(s)),
      400,
      'BadRequest',
      'StatefulSet in version "v1" cannot be handled as a StatefulSet: cbor: cannot unmarshal byte string into Go struct field v1.StatefulSet.spec of type int32',
    );
    expectCborFailure(
      await req(k, 'POST', PC(), toCbor({ ...pc(uniq('pc')), kind: 'Pod' })),
      400,
      'BadRequest',
      'Pod in version "v1" cannot be handled as a PriorityClass: no kind "Pod" is registered for version "scheduling.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110"',
    );
  });

  it('406 and 415 list application/cbor with the gate on', async () => {
    const na = await http(k, 'GET', PC(), undefined, { accept: 'text/plain' });
    expectFailure(na, {
      code: 406,
      reason: 'NotAcceptable',
      message:
        '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch, application/cbor-seq',
      details: {},
    });
    expectFailure(await http(k, 'GET', PC(), undefined, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v2' }), {
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor',
    });
    const um = await http(k, 'POST', PC(), 'x', { 'content-type': 'text/plain' });
    expectFailure(um, {
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor',
    });
  });

  it('discovery is not served in CBOR', async () => {
    const r = await req(k, 'GET', '/apis');
    expect(r.status).toBe(406);
    expect((await http(k, 'GET', '/apis')).status).toBe(200);
  });
});

describe('watch', () => {
  /** The events of a finished application/cbor-seq stream, each checked for kube's framing. */
  function events(body: Buffer): Obj[] {
    const out: Obj[] = [];
    const items = cborx.decodeMultiple(body) as unknown[];
    let at = 0;
    for (const item of items) {
      // Every event is tagged, and so is its embedded object (kube's RawExtension bytes).
      expect(body.subarray(at, at + 3)).toEqual(TAG);
      const ev = plain(item) as Obj;
      const reencoded = Buffer.concat([TAG, Buffer.from([0xa2])]);
      expect(body.subarray(at, at + 4)).toEqual(reencoded);
      out.push(ev);
      const objAt = body.indexOf(Buffer.from('466f626a656374', 'hex'), at) + 7;
      expect(body.subarray(objAt, objAt + 3)).toEqual(TAG);
      at = nextItem(body, at);
    }
    expect(at).toBe(body.length);
    return out;
  }

  /** Where the CBOR item starting at `at` ends (a definite-length walk). */
  function nextItem(b: Buffer, at: number): number {
    const ib = b[at++];
    const major = ib >> 5;
    const ai = ib & 0x1f;
    let n = ai;
    if (ai === 24) n = b[at++];
    else if (ai === 25) {
      n = b.readUInt16BE(at);
      at += 2;
    } else if (ai === 26) {
      n = b.readUInt32BE(at);
      at += 4;
    } else if (ai === 27) {
      n = Number(b.readBigUInt64BE(at));
      at += 8;
    }
    if (major === 2 || major === 3) return at + n;
    if (major === 4) for (let i = 0; i < n; i++) at = nextItem(b, at);
    if (major === 5) for (let i = 0; i < 2 * n; i++) at = nextItem(b, at);
    if (major === 6) return nextItem(b, at);
    return at;
  }

  it('application/cbor asks for a CBOR sequence of WatchEvents: initial ADDED, then live changes', async () => {
    const name = uniq('pdb');
    expectCbor(await req(k, 'POST', PDB(NSA), toCbor(pdb(name))), 201);
    const watching = req(k, 'GET', `${PDB(NSA)}?watch=1&timeoutSeconds=2&fieldSelector=metadata.name=${name}`);
    await new Promise((r) => setTimeout(r, 500));
    const cur = await getJson(PDB(NSA, name));
    cur.spec.minAvailable = 3;
    expectCode(await http(k, 'PUT', PDB(NSA, name), cur), 200);
    const r = await watching;
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/cbor-seq');
    const evs = events(r.body);
    expect(evs.map((e) => e.type)).toStrictEqual(['ADDED', 'MODIFIED']);
    expect(evs[0].object.kind).toBe('PodDisruptionBudget');
    expect(evs[1].object).toStrictEqual(await getJson(PDB(NSA, name)));
  });

  it('a resourceVersion older than the history: one ERROR event holding the 410 Status, in CBOR', async () => {
    const a = expectCbor(await req(k, 'POST', PDB(NSA), toCbor(pdb(uniq('old')))), 201);
    const b = expectCbor(await req(k, 'POST', PDB(NSA), toCbor(pdb(uniq('old')))), 201);
    await new Promise((r) => setTimeout(r, 2600));
    const r = await req(k, 'GET', `${PDB(NSA)}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/cbor-seq');
    expect(events(r.body)).toStrictEqual([
      expiredWatchEvent(a.metadata.resourceVersion, b.metadata.resourceVersion),
    ]);
  });

  it('a Table watch Accepting CBOR or JSON gets the JSON Table stream (no CBOR Table in kube)', async () => {
    const name = uniq('web');
    expectCbor(await req(k, 'POST', STS(NSA), toCbor(sts(name))), 201);
    const accept = `${CBOR};as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.k8s.io`;
    const r = await http(k, 'GET', `${STS(NSA)}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name=${name}`, undefined, { accept });
    expect(r.headers.get('content-type')).toBe('application/json');
    const ev = JSON.parse(r.text.split('\n')[0]) as Obj;
    expect(ev.type).toBe('ADDED');
    expect(ev.object.kind).toBe('Table');
    expect(ev.object.rows).toHaveLength(1);
    expect(ev.object.rows[0].cells[0]).toBe(name);
  });

  it('over a WebSocket each event is one binary message holding one tagged WatchEvent', async () => {
    const name = uniq('pdb');
    expectCbor(await req(k, 'POST', PDB(NSA), toCbor(pdb(name))), 201);
    const ws = k.webSocket(`${PDB(NSA)}?watch=1&fieldSelector=metadata.name=${name}`, [], {
      headers: { Origin: 'http://localhost', Accept: CBOR },
    });
    try {
      const [data, binary] = await new Promise<[Buffer, boolean]>((resolve, reject) => {
        ws.once('message', (d: Buffer, b: boolean) => resolve([Buffer.from(d), b]));
        ws.once('error', reject);
      });
      expect(binary).toBe(true);
      const [ev] = events(data);
      expect(ev.type).toBe('ADDED');
      expect(ev.object).toStrictEqual(await getJson(PDB(NSA, name)));
    } finally {
      ws.terminate();
    }
  });

  it('a watch Accepting only application/cbor-seq is 406, as kube negotiates the stream by application/cbor', async () => {
    const r = await http(k, 'GET', `${PDB(NSA)}?watch=1`, undefined, { accept: 'application/cbor-seq' });
    expect(r.status).toBe(406);
  });
});

describe('Server-Side Apply in CBOR', () => {
  const APPLY_CBOR = 'application/apply-patch+cbor';

  it('application/apply-patch+cbor creates, then merges, with managedFields for the manager', async () => {
    const name = uniq('apc');
    const cfg = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name, labels: { a: '1' } }, value: 10 };
    const created = expectCbor(await req(k, 'PATCH', `${PC(name)}?fieldManager=cbor-mgr`, toCbor(cfg), { 'content-type': APPLY_CBOR }), 201);
    expect(created.value).toBe(10);
    const entry = (created.metadata as Obj).managedFields[0] as Obj;
    expect(entry.manager).toBe('cbor-mgr');
    expect(entry.operation).toBe('Apply');
    expect(entry.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:value': {} });
    const again = expectCbor(
      await req(k, 'PATCH', `${PC(name)}?fieldManager=cbor-mgr`, toCbor({ ...cfg, metadata: { name, labels: { b: '2' } } }), { 'content-type': APPLY_CBOR }),
      200,
    );
    // Dropping a label from the configuration releases and removes it.
    expect((again.metadata as Obj).labels).toEqual({ b: '2' });
    expect((await getJson(PC(name))).metadata.labels).toEqual({ b: '2' });
  });

  it('a malformed apply-patch+cbor body is 400, and a patch list offers it', async () => {
    const name = uniq('apc');
    const bad = await http(k, 'PATCH', `${PC(name)}?fieldManager=m`, Buffer.from([0xd9, 0xd9, 0xf7, 0xa1]), { 'content-type': APPLY_CBOR });
    expect(bad.status).toBe(400);
    expect((bad.json as Obj).reason).toBe('BadRequest');
    expect((bad.json as Obj).message).toMatch(/^error decoding patch: /);
    expect((await http(k, 'GET', PC(name))).status).toBe(404);
    // Another content type is go-restful's route 415 (the PATCH route consumes the patch types).
    const um = await http(k, 'PATCH', PC(name), 'x', { 'content-type': 'text/plain' });
    expect(um.status).toBe(415);
    expect((um.json as Obj).message).toBe('415: Unsupported Media Type');
  });

  it('with the gate off, application/apply-patch+cbor is 415', async () => {
    const name = uniq('apc');
    const r = await http(off, 'PATCH', `${PC(name)}?fieldManager=m`, toCbor(pc(name)), { 'content-type': APPLY_CBOR });
    expect(r.status).toBe(415);
    expect((r.json as Obj).message).toBe('415: Unsupported Media Type');
  });
});

describe('gate off (the default)', () => {
  it('406 when only CBOR is acceptable, with the JSON Status kube sends: no route produces it', async () => {
    expectFailure(await http(off, 'GET', PC(), undefined, { accept: CBOR }), {
      code: 406,
      reason: 'NotAcceptable',
      message:
        '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
      details: {},
    });
    expectFailure(await http(off, 'GET', PC('system-node-critical'), undefined, { accept: CBOR }), {
      code: 406,
      reason: 'NotAcceptable',
      message: '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      details: {},
    });
  });

  it('415 for a CBOR body', async () => {
    const r = await off.fetch(PC(), { method: 'POST', headers: { 'content-type': CBOR }, body: toCbor(pc(uniq('pc'))) });
    const body = (await r.json()) as Obj;
    expect(r.status).toBe(415);
    expect(body).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      reason: 'UnsupportedMediaType',
      code: 415,
    });
  });

  it('a client that also accepts JSON gets JSON', async () => {
    const r = await http(off, 'GET', NS('default'), undefined, { accept: `${CBOR}, application/json;q=0.5` });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
  });
});
