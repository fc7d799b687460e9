import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { RESOURCE_DEFS } from '../../../src/registry/all.js';
import { PROTOBUF_MAGIC, PROTOBUF_MEDIA_TYPE, ProtobufDecodeError, PROTOBUF_WATCH_MEDIA_TYPE, ProtobufEncodeError, decodeProtobufObject, decodeProtobufWatchFrames, encodeProtobufList, encodeProtobufObject, encodeProtobufRaw, encodeProtobufWatchEvent, protobufUnrepresentableFields, supportsProtobuf } from '../../../src/codec/protobuf/index.js';

type Obj = Record<string, unknown>;


/** Objects encoded by kube's Go protobuf serializer + Go JSON (k8s.io/api v0.33.0), see test/clients/go/protobuf-fixtures. */
const GO = JSON.parse(readFileSync(new URL('../../fixtures/protobuf-go-fixtures.json', import.meta.url), 'utf8')) as {
  fixtures: Record<string, { pb: string; json: Obj }>;
  /** A watch stream written by kube's Go stream encoder: one event per entry, each a fixture. */
  watch: { events: Array<{ Type: string; Fixture: string }>; stream: string };
};
const GO_FIXTURES = GO.fixtures;

/** Bodies captured from kubectl 1.33 (Content-Type application/vnd.kubernetes.protobuf). */
const KUBECTL_BODIES = {
  namespace:
    '6b3873000a0f0a02763112094e616d657370616365121b0a130a03666f6f12001a0022002a0032003800420012001a020a001a002200',
  priorityClass:
    '6b3873000a250a147363686564756c696e672e6b38732e696f2f7631120d5072696f72697479436c61737312230a130a0370633112001a0022002a00320038004200100a18002201782a054e657665721a002200',
  pdb:
    '6b3873000a200a09706f6c6963792f76311213506f6444697372757074696f6e427564676574123d0a190a02703112001a0764656661756c7422002a0032003800420012140a06080010011a00120a0a080a036170701201781a0a080018002000280030001a002200',
};

const roundTrip = (obj: Obj): Obj => decodeProtobufObject(encodeProtobufObject(obj)).object;

function expectDecodeError(body: Buffer | Uint8Array, message?: string | RegExp): void {
  let err: unknown;
  try {
    decodeProtobufObject(body);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ProtobufDecodeError);
  if (message !== undefined) expect((err as Error).message).toMatch(message);
}

/** Hand-encodes magic + runtime.Unknown{typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3, contentType=4}. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const tm = protobuf.Writer.create().uint32((1 << 3) | 2).string(apiVersion).uint32((2 << 3) | 2).string(kind).finish();
  const unk = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .bytes(tm)
    .uint32((2 << 3) | 2)
    .bytes(raw)
    .uint32((3 << 3) | 2)
    .string('')
    .uint32((4 << 3) | 2)
    .string('')
    .finish();
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), unk]);
}

/** A small deterministic PRNG for the fuzz tests. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('protobuf codec: basics', () => {
  it('exports the media type and magic', () => {
    expect(PROTOBUF_MEDIA_TYPE).toBe('application/vnd.kubernetes.protobuf');
    expect([...PROTOBUF_MAGIC]).toEqual([107, 56, 115, 0]);
  });

  it('supportsProtobuf knows the supported kinds', () => {
    expect(supportsProtobuf('v1', 'Namespace')).toBe(true);
    expect(supportsProtobuf('v1', 'NamespaceList')).toBe(true);
    expect(supportsProtobuf('v1', 'PersistentVolumeClaim')).toBe(true);
    expect(supportsProtobuf('scheduling.k8s.io/v1', 'PriorityClass')).toBe(true);
    expect(supportsProtobuf('scheduling.k8s.io/v1', 'PriorityClassList')).toBe(true);
    expect(supportsProtobuf('policy/v1', 'PodDisruptionBudget')).toBe(true);
    expect(supportsProtobuf('policy/v1', 'PodDisruptionBudgetList')).toBe(true);
    expect(supportsProtobuf('apps/v1', 'StatefulSet')).toBe(true);
    expect(supportsProtobuf('apps/v1', 'StatefulSetList')).toBe(true);
    expect(supportsProtobuf('v1', 'Status')).toBe(true);
    expect(supportsProtobuf('meta.k8s.io/v1', 'Status')).toBe(true);
    expect(supportsProtobuf('v1', 'DeleteOptions')).toBe(true);
    expect(supportsProtobuf('apps/v1', 'DeleteOptions')).toBe(true);
    expect(supportsProtobuf('v1', 'Pod')).toBe(true);
    expect(supportsProtobuf('v1', 'PodList')).toBe(true);
    expect(supportsProtobuf('apps/v1', 'ControllerRevision')).toBe(true);
    expect(supportsProtobuf('apps/v1', 'ControllerRevisionList')).toBe(true);
    expect(supportsProtobuf('autoscaling/v1', 'Scale')).toBe(true);
    expect(supportsProtobuf('apps/v1', 'Deployment')).toBe(false);
    expect(supportsProtobuf('v1', 'Service')).toBe(true);
    expect(supportsProtobuf('v1', 'Binding')).toBe(true);
    expect(supportsProtobuf('events.k8s.io/v1', 'EventList')).toBe(true);
    expect(supportsProtobuf('v1', 'ConfigMap')).toBe(false);
    expect(supportsProtobuf('meta.k8s.io/v1', 'Table')).toBe(false);
    expect(supportsProtobuf('v2', 'Namespace')).toBe(false);
    expect(supportsProtobuf('apps/v1', 'Status')).toBe(false);
  });
});

describe('protobuf codec: framing and malformed input', () => {
  const valid = Buffer.from(KUBECTL_BODIES.pdb, 'hex');

  it('rejects a body without the k8s magic, with kube\'s message', () => {
    const msg = 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]';
    expectDecodeError(Buffer.from('{"kind":"Namespace","apiVersion":"v1"}'), msg);
    expectDecodeError(Buffer.alloc(0), 'empty data');
    expectDecodeError(Buffer.from([0x6b, 0x38, 0x73]), msg);
    expectDecodeError(Buffer.from([0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00]), msg);
    expectDecodeError(valid.subarray(1), msg);
  });

  it('rejects an envelope without a kind, or an unknown kind', () => {
    expectDecodeError(Buffer.from([0x6b, 0x38, 0x73, 0x00]), 'empty body');
    expectDecodeError(envelope('v1', '', new Uint8Array(0)), "Object 'Kind' is missing in protobuf envelope");
    expectDecodeError(envelope('v1', 'Nope', new Uint8Array(0)), 'no kind "Nope" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"');
    expectDecodeError(envelope('v2', 'Namespace', new Uint8Array(0)), /no kind "Namespace" is registered for version "v2"/);
  });

  it('rejects truncated bodies with ProtobufDecodeError (never another error)', () => {
    // Every prefix either decodes (a cut on an envelope field boundary is a valid
    // shorter message) or fails with ProtobufDecodeError.
    let rejected = 0;
    for (let n = 0; n < valid.length; n++) {
      try {
        decodeProtobufObject(valid.subarray(0, n));
      } catch (e) {
        expect(e).toBeInstanceOf(ProtobufDecodeError);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(valid.length - 8);
    // Cuts inside the raw object (or its length prefix) are always rejected.
    const rawEnd = valid.length - 4; // last 4 bytes: contentEncoding "", contentType ""
    for (let n = 40; n < rawEnd; n++) expectDecodeError(valid.subarray(0, n));
  });

  it('rejects truncated raw objects inside a complete envelope', () => {
    const raw = Buffer.from(encodeProtobufObject(GO_FIXTURES.statefulSet.json)).subarray(4);
    const unk = protobuf.Reader.create(raw);
    // Find the raw bytes inside the envelope and re-wrap a truncated copy of them.
    let inner: Uint8Array | undefined;
    while (unk.pos < unk.len) {
      const tag = unk.uint32();
      if (tag >>> 3 === 2) inner = unk.bytes();
      else unk.skipType(tag & 7);
    }
    expect(inner).toBeDefined();
    for (const cut of [1, 2, 10, 100, inner!.length - 1]) {
      expectDecodeError(envelope('apps/v1', 'StatefulSet', inner!.subarray(0, cut)));
    }
  });

  it('never crashes on garbage (random bytes and bit flips)', () => {
    const rnd = prng(42);
    const bodies: Buffer[] = [];
    for (let i = 0; i < 1000; i++) {
      const len = Math.floor(rnd() * 64);
      const b = Buffer.alloc(len + 4);
      PROTOBUF_MAGIC.copy(b);
      for (let j = 4; j < b.length; j++) b[j] = Math.floor(rnd() * 256);
      bodies.push(b);
    }
    const sts = encodeProtobufObject(GO_FIXTURES.statefulSet.json);
    for (let i = 0; i < 1000; i++) {
      const b = Buffer.from(sts);
      const at = 4 + Math.floor(rnd() * (b.length - 4));
      b[at] ^= 1 << Math.floor(rnd() * 8);
      bodies.push(b);
    }
    for (const b of bodies) {
      try {
        const d = decodeProtobufObject(b);
        expect(typeof d.object).toBe('object');
      } catch (e) {
        expect(e).toBeInstanceOf(ProtobufDecodeError);
      }
    }
  });

  it('rejects a content encoding it does not implement', () => {
    const tm = protobuf.Writer.create().uint32(10).string('v1').uint32(18).string('Namespace').finish();
    const unk = protobuf.Writer.create().uint32(10).bytes(tm).uint32(26).string('gzip').finish();
    expectDecodeError(Buffer.concat([PROTOBUF_MAGIC, unk]), /content encoding/);
  });
});

describe('protobuf codec: golden bytes (hand-built with protobufjs Writer, independent of the schema)', () => {
  /** ObjectMeta as Go writes it with only a name set: every non-pointer field, zeros included. */
  function goMeta(name: string): Uint8Array {
    const w = protobuf.Writer.create().uint32((1 << 3) | 2).string(name);
    for (const n of [2, 3, 4, 5, 6]) w.uint32((n << 3) | 2).string(''); // generateName, namespace, selfLink, uid, resourceVersion
    return w.uint32((7 << 3) | 0).int64(0).uint32((8 << 3) | 2).bytes(new Uint8Array(0)).finish(); // generation, creationTimestamp (zero Time)
  }

  it('Namespace{metadata{name:"foo"}}', () => {
    const meta = protobuf.Writer.create().uint32((1 << 3) | 2).string('foo').finish(); // ObjectMeta.name = 1
    const ns = protobuf.Writer.create().uint32((1 << 3) | 2).bytes(meta).finish(); // Namespace.metadata = 1
    expect(decodeProtobufObject(envelope('v1', 'Namespace', ns))).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      object: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'foo' }, spec: {}, status: {} },
      unknownFields: [],
    });
    // Go writes every non-pointer field: spec (empty), status{phase: ""} (= what kubectl sends).
    const status = protobuf.Writer.create().uint32((1 << 3) | 2).string('').finish();
    const goNs = protobuf.Writer.create().uint32(10).bytes(goMeta('foo')).uint32(18).bytes(new Uint8Array(0)).uint32(26).bytes(status).finish();
    const goBody = envelope('v1', 'Namespace', goNs);
    expect(encodeProtobufObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'foo' } })).toEqual(goBody);
    expect(goBody.toString('hex')).toBe(KUBECTL_BODIES.namespace);
  });

  it('PriorityClass{metadata{name}, value, globalDefault, description, preemptionPolicy}', () => {
    const fields = (meta: Uint8Array) =>
      protobuf.Writer.create()
        .uint32((1 << 3) | 2)
        .bytes(meta)
        .uint32((2 << 3) | 0)
        .int32(-7) // value = 2 (a negative int32 is sign-extended to 10 bytes)
        .uint32((3 << 3) | 0)
        .bool(true) // globalDefault = 3
        .uint32((4 << 3) | 2)
        .string('d') // description = 4
        .uint32((5 << 3) | 2)
        .string('Never') // preemptionPolicy = 5
        .finish();
    const obj = {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'pc' },
      value: -7,
      globalDefault: true,
      description: 'd',
      preemptionPolicy: 'Never',
    };
    const meta = protobuf.Writer.create().uint32(10).string('pc').finish();
    expect(decodeProtobufObject(envelope('scheduling.k8s.io/v1', 'PriorityClass', fields(meta))).object).toEqual(obj);
    expect(encodeProtobufObject(obj)).toEqual(envelope('scheduling.k8s.io/v1', 'PriorityClass', fields(goMeta('pc'))));
  });

  it('PodDisruptionBudget spec{minAvailable IntOrString, selector matchLabels map} + Time in status', () => {
    const ios = protobuf.Writer.create().uint32(8).int64(1).uint32(26).string('50%').finish(); // type=1 (string), strVal=3
    const entry = protobuf.Writer.create().uint32(10).string('app').uint32(18).string('x').finish(); // map entry key=1 value=2
    const sel = protobuf.Writer.create().uint32(10).bytes(entry).finish(); // matchLabels = 1
    const spec = protobuf.Writer.create().uint32(10).bytes(ios).uint32(18).bytes(sel).finish(); // minAvailable=1 selector=2
    const time = protobuf.Writer.create().uint32(8).int64(1704067200).finish(); // seconds=1: 2024-01-01T00:00:00Z
    const dpEntry = protobuf.Writer.create().uint32(10).string('pod-a').uint32(18).bytes(time).finish();
    const status = protobuf.Writer.create().uint32(8).int64(3).uint32(18).bytes(dpEntry).uint32(24).int32(2).finish();
    const pdb = protobuf.Writer.create().uint32(18).bytes(spec).uint32(26).bytes(status).finish(); // spec=2 status=3
    const d = decodeProtobufObject(envelope('policy/v1', 'PodDisruptionBudget', pdb));
    expect(d.object).toEqual({
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: {},
      spec: { minAvailable: '50%', selector: { matchLabels: { app: 'x' } } },
      status: {
        observedGeneration: 3,
        disruptedPods: { 'pod-a': '2024-01-01T00:00:00Z' },
        disruptionsAllowed: 2,
        currentHealthy: 0,
        desiredHealthy: 0,
        expectedPods: 0,
      },
    });
  });

  it('StatefulSet spec.template.spec.containers[0] (3 levels of nesting) and status', () => {
    const port = protobuf.Writer.create().uint32(24).int32(8080).finish(); // ContainerPort.containerPort = 3
    const ctr = protobuf.Writer.create().uint32(10).string('c').uint32(18).string('img').uint32(50).bytes(port).finish();
    const podSpec = protobuf.Writer.create().uint32(18).bytes(ctr).finish(); // PodSpec.containers = 2
    const tpl = protobuf.Writer.create().uint32(18).bytes(podSpec).finish(); // PodTemplateSpec.spec = 2
    const spec = protobuf.Writer.create().uint32(8).int32(0).uint32(26).bytes(tpl).uint32(42).string('svc').finish();
    const status = protobuf.Writer.create().uint32(8).int64(0).uint32(24).int32(1).finish(); // observedGeneration=1, readyReplicas=3
    const sts = protobuf.Writer.create().uint32(18).bytes(spec).uint32(26).bytes(status).finish();
    const d = decodeProtobufObject(envelope('apps/v1', 'StatefulSet', sts));
    expect(d.object).toEqual({
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      metadata: {},
      spec: {
        replicas: 0, // *int32: present zero is kept
        template: { metadata: {}, spec: { containers: [{ name: 'c', image: 'img', ports: [{ containerPort: 8080 }], resources: {} }] } },
        serviceName: 'svc',
        updateStrategy: {},
      },
      // replicas / availableReplicas are not omitempty in kube's JSON; observedGeneration 0 is.
      status: { replicas: 0, readyReplicas: 1, availableReplicas: 0 },
    });
  });
});

describe('protobuf codec: reading as Go\'s generated Unmarshal does', () => {
  const W = () => protobuf.Writer.create();

  it('merges a repeated non-repeated message field, lets the last scalar win, appends lists', () => {
    const meta1 = W().uint32(10).string('a').uint32((11 << 3) | 2).bytes(W().uint32(10).string('x').uint32(18).string('1').finish()).finish();
    const meta2 = W().uint32(10).string('b').uint32((11 << 3) | 2).bytes(W().uint32(10).string('y').uint32(18).string('2').finish()).finish();
    const spec = W().uint32(10).string('kubernetes').finish();
    const ns = W().uint32(10).bytes(meta1).uint32(18).bytes(spec).uint32(10).bytes(meta2).uint32(18).bytes(spec).finish();
    expect(decodeProtobufObject(envelope('v1', 'Namespace', ns)).object).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'b', labels: { x: '1', y: '2' } },
      spec: { finalizers: ['kubernetes', 'kubernetes'] },
      status: {},
    });
  });

  it('takes repeated varints packed or not, and negative int64s', () => {
    const packed = W().uint32((4 << 3) | 2).fork().int64(1).int64(-2).int64(2 ** 40).ldelim().uint32(4 << 3).int64(7).finish(); // supplementalGroups = 4
    const podSpec = W().uint32((14 << 3) | 2).bytes(packed).finish(); // securityContext = 14
    const pod = W().uint32(18).bytes(podSpec).finish();
    const d = decodeProtobufObject(envelope('v1', 'Pod', pod));
    expect((d.object.spec as Obj).securityContext).toEqual({ supplementalGroups: [1, -2, 2 ** 40, 7] });
    expect(encodeProtobufObject(d.object).length).toBeGreaterThan(0);
  });

  it('rejects a known field with the wrong wire type, as Go does', () => {
    const meta = W().uint32((1 << 3) | 0).uint32(5).finish(); // name as a varint
    expectDecodeError(envelope('v1', 'Namespace', W().uint32(10).bytes(meta).finish()), /wrong wireType = 0 for field name/);
    expectDecodeError(envelope('v1', 'Namespace', W().uint32((1 << 3) | 5).fixed32(1).finish()), /wrong wireType = 5 for field metadata/);
  });

  it('reports unknown fields inside embedded structs at the parent\'s path', () => {
    // Volume{name=1, volumeSource=2{emptyDir=2{}, <field 999>}}
    const source = W().uint32((2 << 3) | 2).bytes(new Uint8Array(0)).uint32((999 << 3) | 0).uint32(1).finish();
    const volume = W().uint32(10).string('v').uint32(18).bytes(source).finish();
    const pod = W().uint32(18).bytes(W().uint32(10).bytes(volume).finish()).finish();
    const d = decodeProtobufObject(envelope('v1', 'Pod', pod));
    expect((d.object.spec as Obj).volumes).toEqual([{ name: 'v', emptyDir: {} }]);
    expect(d.unknownFields).toEqual(['spec.volumes[0].<field 999>']);
  });

  it('reads quantities as Go does: canonical form, errors for bad ones', () => {
    const q = (s: string) => W().uint32(10).string(s).finish();
    const entry = (k: string, v: string) => W().uint32(10).string(k).uint32(18).bytes(q(v)).finish();
    const pvc = (v: string) => {
      const resources = W().uint32(18).bytes(entry('storage', v)).finish(); // requests = 2
      return envelope('v1', 'PersistentVolumeClaim', W().uint32(18).bytes(W().uint32(18).bytes(resources).finish()).finish());
    };
    const requests = (v: string) => (((decodeProtobufObject(pvc(v)).object.spec as Obj).resources as Obj).requests as Obj).storage;
    expect(requests('1024Mi')).toBe('1Gi');
    expect(requests('0.5')).toBe('500m');
    expectDecodeError(pvc('lots'), /quantities must match/);
  });
});

describe('protobuf codec: Go interop fixtures (k8s.io/api v0.33.0 serializer output)', () => {
  for (const [name, fx] of Object.entries(GO_FIXTURES)) {
    it(`${name}: decodes to kube's JSON`, () => {
      const d = decodeProtobufObject(Buffer.from(fx.pb, 'base64'));
      expect(d.unknownFields).toEqual([]);
      expect(d.apiVersion).toBe(fx.json.apiVersion);
      expect(d.kind).toBe(fx.json.kind);
      expect(d.object).toEqual(fx.json);
    });

    it(`${name}: encodes kube's JSON to Go's bytes, byte for byte`, () => {
      expect(protobufUnrepresentableFields(fx.json)).toEqual([]);
      expect(encodeProtobufObject(fx.json, { strict: true }).toString('base64')).toBe(fx.pb);
    });
  }

  it('has Go bytes for every served kind and its list, Scale, Status and DeleteOptions', () => {
    const kinds = new Set(Object.values(GO_FIXTURES).map((f) => `${f.json.apiVersion}/${f.json.kind}`));
    const want = ['autoscaling/v1/Scale', 'v1/Status', 'v1/DeleteOptions', 'apps/v1/DeleteOptions'];
    for (const def of RESOURCE_DEFS) {
      const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
      expect(supportsProtobuf(apiVersion, def.kind), def.kind).toBe(true);
      expect(supportsProtobuf(apiVersion, def.listKind), def.listKind).toBe(true);
      want.push(`${apiVersion}/${def.kind}`, `${apiVersion}/${def.listKind}`);
    }
    expect(want.filter((k) => !kinds.has(k))).toEqual([]);
  });

  it('builds list bodies from the items\' message bytes, byte for byte', () => {
    const lists = Object.entries(GO_FIXTURES).filter(([, fx]) => String(fx.json.kind).endsWith('List'));
    expect(lists.length).toBeGreaterThanOrEqual(7);
    for (const [name, fx] of lists) {
      const apiVersion = String(fx.json.apiVersion);
      const itemKind = String(fx.json.kind).slice(0, -'List'.length);
      const items = (fx.json.items as Obj[]).map((item) => encodeProtobufRaw({ ...item, apiVersion, kind: itemKind }));
      const body = encodeProtobufList(apiVersion, String(fx.json.kind), (fx.json.metadata ?? {}) as Obj, items);
      expect(body.toString('base64'), name).toBe(fx.pb);
    }
  });

  it('re-encodes what kubectl 1.33 sent, byte for byte', () => {
    for (const hex of Object.values(KUBECTL_BODIES)) {
      expect(encodeProtobufObject(decodeProtobufObject(Buffer.from(hex, 'hex')).object).toString('hex')).toBe(hex);
    }
  });
});

describe('protobuf codec: JSON semantics', () => {
  it('round-trips hand-written objects of each kind', () => {
    const objs: Obj[] = [
      { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'a', labels: { x: 'y' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } },
      { kind: 'NamespaceList', apiVersion: 'v1', metadata: { resourceVersion: '3' }, items: [] },
      {
        kind: 'PriorityClass',
        apiVersion: 'scheduling.k8s.io/v1',
        metadata: { name: 'high', creationTimestamp: '2024-01-01T00:00:00Z' },
        value: 1000000,
        description: 'x',
        preemptionPolicy: 'PreemptLowerPriority',
      },
      {
        kind: 'PodDisruptionBudget',
        apiVersion: 'policy/v1',
        metadata: { name: 'p', namespace: 'default' },
        spec: { maxUnavailable: 1, selector: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } },
        status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
      },
      {
        kind: 'PersistentVolumeClaim',
        apiVersion: 'v1',
        metadata: { name: 'c', namespace: 'default' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'boom',
        reason: 'Conflict',
        details: { name: 'x', kind: 'namespaces' },
        code: 409,
      },
    ];
    for (const o of objs) {
      const clean = JSON.parse(JSON.stringify(o)) as Obj;
      expect(roundTrip(clean)).toEqual(clean);
    }
  });

  it('fills non-omitempty fields with zero values and keeps pointer zeros', () => {
    expect(roundTrip({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'x' } })).toEqual({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'x' },
      value: 0,
    });
    const sts = roundTrip({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's', generation: 0 },
      spec: { replicas: 0, minReadySeconds: 0, revisionHistoryLimit: 0, serviceName: '' },
    });
    expect(sts.metadata).toEqual({ name: 's' }); // generation is omitempty
    expect(sts.spec).toEqual({
      replicas: 0, // *int32
      revisionHistoryLimit: 0, // *int32
      serviceName: '', // not omitempty
      template: { metadata: {}, spec: {} }, // non-pointer structs are always present in kube's JSON
      updateStrategy: {},
    });
    expect(sts.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('drops zero values of omitempty fields sent by Go clients (as kube does)', () => {
    // kubectl's Namespace body carries generateName="", namespace="", generation=0, status.phase="" ...
    const d = decodeProtobufObject(Buffer.from(KUBECTL_BODIES.namespace, 'hex'));
    expect(d.object).toEqual({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'foo' }, spec: {}, status: {} });
  });

  it('converts Time: RFC3339 seconds, offsets normalized to UTC, fractions dropped', () => {
    const ns = (ts: string) =>
      roundTrip({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', creationTimestamp: ts, deletionTimestamp: ts } })
        .metadata as Obj;
    expect(ns('2024-01-01T00:00:00Z').creationTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(ns('2024-01-01T01:00:00+01:00').creationTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(ns('2024-01-01T00:00:00.999Z').deletionTimestamp).toBe('2024-01-01T00:00:00Z');
    expect(ns('1970-01-01T00:00:00Z').creationTimestamp).toBe('1970-01-01T00:00:00Z');
    expect(() =>
      encodeProtobufObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: 'yesterday' } }),
    ).toThrow(ProtobufEncodeError);
  });

  it('converts IntOrString, Quantity, FieldsV1 and maps', () => {
    const pdb = (v: unknown) =>
      (roundTrip({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: {}, spec: { minAvailable: v } }).spec as Obj)
        .minAvailable;
    expect(pdb(0)).toBe(0);
    expect(pdb(3)).toBe(3);
    expect(pdb('30%')).toBe('30%');
    expect(pdb('')).toBe('');

    const fields = { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:spec': { 'f:finalizers': {} } };
    const ns = roundTrip({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'n',
        annotations: { 'a/b': '', c: 'd' },
        managedFields: [
          { manager: 'm', operation: 'Update', apiVersion: 'v1', time: '2024-02-03T04:05:06Z', fieldsType: 'FieldsV1', fieldsV1: fields },
        ],
      },
    });
    expect((ns.metadata as Obj).annotations).toEqual({ 'a/b': '', c: 'd' });
    expect((ns.metadata as Obj).managedFields).toEqual([
      { manager: 'm', operation: 'Update', apiVersion: 'v1', time: '2024-02-03T04:05:06Z', fieldsType: 'FieldsV1', fieldsV1: fields },
    ]);

    const pvc = roundTrip({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {},
      spec: { resources: { requests: { storage: '10Gi', 'example.com/x': '1500m' }, limits: {} } },
    });
    expect((pvc.spec as Obj).resources).toEqual({ requests: { storage: '10Gi', 'example.com/x': '1500m' } });
  });

  it('inlines embedded structs (Volume.volumeSource, Probe.handler, *KeySelector.localObjectReference)', () => {
    const container = {
      name: 'c',
      resources: {},
      env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: false } } }],
      livenessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 3 },
    };
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: {
        template: {
          metadata: {},
          spec: { volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }, { name: 'e', emptyDir: {} }], containers: [container] },
        },
        serviceName: 'svc',
        updateStrategy: { type: 'RollingUpdate' },
      },
      status: { replicas: 0, availableReplicas: 0 },
    };
    expect(protobufUnrepresentableFields(sts)).toEqual([]);
    expect(roundTrip(sts)).toEqual(sts);
  });

  it('ignores TypeMeta on embedded objects (volumeClaimTemplates), as kube protobuf does', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: {
        serviceName: 'svc',
        template: { metadata: {}, spec: { containers: [{ name: 'c', resources: {} }] } },
        volumeClaimTemplates: [
          { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { resources: {} }, status: {} },
        ],
        updateStrategy: {},
      },
      status: { replicas: 0, availableReplicas: 0 },
    };
    expect(protobufUnrepresentableFields(sts)).toEqual([]);
    const back = roundTrip(sts);
    expect((back.spec as Obj).volumeClaimTemplates).toEqual([{ metadata: { name: 'data' }, spec: { resources: {} }, status: {} }]);
  });

  it('reports fields it cannot represent (encode) and fields it does not know (decode)', () => {
    const obj = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x', bogus: 1 }, spec: {}, extra: { a: 1 } };
    expect(protobufUnrepresentableFields(obj)).toEqual(['metadata.bogus', 'extra']);
    expect(() => encodeProtobufObject(obj, { strict: true })).toThrow(/metadata\.bogus, extra/);
    expect(decodeProtobufObject(encodeProtobufObject(obj)).object.metadata).toEqual({ name: 'x' });

    // ObjectMeta with an unknown field 99 and a Namespace with unknown field 7.
    const meta = protobuf.Writer.create().uint32(10).string('x').uint32((99 << 3) | 0).uint32(1).finish();
    const ns = protobuf.Writer.create().uint32(10).bytes(meta).uint32((7 << 3) | 2).string('?').finish();
    const d = decodeProtobufObject(envelope('v1', 'Namespace', ns));
    expect(d.object.metadata).toEqual({ name: 'x' });
    expect(d.unknownFields).toEqual(['metadata.<field 99>', '<field 7>']);
  });

  it('rejects JSON values of the wrong type when encoding', () => {
    const bad: Obj[] = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 5 } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { labels: ['a'] } },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: {}, value: 1.5 },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: {}, value: 2 ** 31 },
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: {}, spec: { minAvailable: true } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} },
      { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } },
      { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1 core' } } }] } },
      { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { creationTimestamp: 'yesterday' } },
      { kind: 'Namespace' },
    ];
    for (const o of bad) expect(() => encodeProtobufObject(o)).toThrow(ProtobufEncodeError);
  });

  it('encodes Status and DeleteOptions under the requested apiVersion', () => {
    const st = decodeProtobufObject(
      encodeProtobufObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 }),
    );
    expect(st).toMatchObject({ apiVersion: 'v1', kind: 'Status', object: { metadata: {}, status: 'Success', code: 200 } });
    const dopt = decodeProtobufObject(
      encodeProtobufObject({ kind: 'DeleteOptions', apiVersion: 'policy/v1', propagationPolicy: 'Background', gracePeriodSeconds: 0 }),
    );
    expect(dopt.object).toEqual({ kind: 'DeleteOptions', apiVersion: 'policy/v1', gracePeriodSeconds: 0, propagationPolicy: 'Background' });
  });
});

describe('protobuf codec: watch streams', () => {
  const stream = Buffer.from(GO.watch.stream, 'base64');

  it('decodes a watch stream written by kube\'s Go encoder', () => {
    expect(PROTOBUF_WATCH_MEDIA_TYPE).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const { events, rest } = decodeProtobufWatchFrames(stream);
    expect(rest.length).toBe(0);
    expect(events.map((e) => e.type)).toEqual(GO.watch.events.map((e) => e.Type));
    events.forEach((e, i) => expect(e.object.object).toEqual(GO_FIXTURES[GO.watch.events[i]!.Fixture]!.json));
  });

  it('encodes each event as kube\'s Go encoder frames it, byte for byte', () => {
    const frames = GO.watch.events.map((e) => encodeProtobufWatchEvent(e.Type, GO_FIXTURES[e.Fixture]!.json));
    expect(Buffer.concat(frames).toString('base64')).toBe(GO.watch.stream);
  });

  it('decodes frames incrementally, whatever the chunking', () => {
    const frames = [
      encodeProtobufWatchEvent('ADDED', GO_FIXTURES.statefulSet!.json),
      encodeProtobufWatchEvent('DELETED', GO_FIXTURES.pvc!.json),
      encodeProtobufWatchEvent('BOOKMARK', { apiVersion: 'v1', kind: 'Namespace', metadata: { resourceVersion: '12' } }),
    ];
    // frame = 4-byte big-endian length + WatchEvent{type=1, object=2{raw=1}} (no magic), raw = magic + Unknown
    expect(frames[0]!.readUInt32BE(0)).toBe(frames[0]!.length - 4);
    expect(frames[0]![4]).toBe(0x0a);
    const all3 = Buffer.concat(frames);
    for (const cut of [0, 3, 4, 50, frames[0]!.length, frames[0]!.length + 1, all3.length - 1]) {
      const first = decodeProtobufWatchFrames(all3.subarray(0, cut));
      const second = decodeProtobufWatchFrames(Buffer.concat([first.rest, all3.subarray(cut)]));
      const all = [...first.events, ...second.events];
      expect(second.rest.length).toBe(0);
      expect(all.map((e) => e.type)).toEqual(['ADDED', 'DELETED', 'BOOKMARK']);
      expect(all[0]!.object.object).toEqual(GO_FIXTURES.statefulSet!.json);
      expect(all[1]!.object.object).toEqual(GO_FIXTURES.pvc!.json);
      expect(all[2]!.object.object.metadata).toEqual({ resourceVersion: '12' });
    }
    const bad = Buffer.from(frames[0]!);
    bad.writeUInt32BE(0xffffffff, 0);
    expect(() => decodeProtobufWatchFrames(bad)).toThrow(ProtobufDecodeError);
  });
});

describe('protobuf codec: captured kubectl 1.33 bodies', () => {
  it('decodes kubectl create namespace / priorityclass / pdb', () => {
    expect(decodeProtobufObject(Buffer.from(KUBECTL_BODIES.namespace, 'hex')).object).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'foo' },
      spec: {},
      status: {},
    });
    expect(decodeProtobufObject(Buffer.from(KUBECTL_BODIES.priorityClass, 'hex')).object).toEqual({
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'pc1' },
      value: 10,
      description: 'x',
      preemptionPolicy: 'Never',
    });
    expect(decodeProtobufObject(Buffer.from(KUBECTL_BODIES.pdb, 'hex')).object).toEqual({
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'p1', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    });
  });
});
