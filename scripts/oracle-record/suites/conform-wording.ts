// Issue 16's three left-over wording classes, as kube-apiserver 1.33 answers them:
//
// - YAML bodies goyaml.v2 cannot read: its scanner's and parser's words and lines, as create,
//   update and apply wrap them (`yaml-*`), with the decoder's own refusals (unknown and
//   self-referencing aliases, keys JSON cannot carry);
// - a resource.Quantity printed with %#v in validation messages: the mantissa and scale the
//   request's text parsed to, the string it kept, the format (`quantity-*`);
// - integers beyond 2^53 in int64 fields and in raw JSON, through every way of writing them,
//   and beyond int64 or int32 refused with encoding/json's words (`int64-*`).
//
// Bodies are sent as text, so that the numbers are the bytes written here.

import type { Sequence, Suite } from '../format.js';
import { CT, PROTO, Seq, TYPES, podSpec, type Obj } from './kit.js';

const T = TYPES;
const PCS = T.priorityclasses.collection();
const PODS = T.pods.collection();
const CRS = T.controllerrevisions.collection();
const PVS = '/api/v1/persistentvolumes';
const NODES = '/api/v1/nodes';

const fm = (m: string) => `?fieldManager=${m}`;

/** A path removed at the end whatever happened (types the kit does not list). */
function cleanupPath(seq: Seq, path: string): Seq {
  seq.steps.push({ note: 'clean up', req: { method: 'DELETE', path, body: { gracePeriodSeconds: 0 } }, cleanup: true });
  return seq;
}

const PC_HEAD = 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: wy-x\n';

/** YAML texts goyaml.v2 refuses (or reads), each a class of its errors. */
const YAML_CASES: [string, string][] = [
  ['tab indentation', PC_HEAD.replace('  name', '\tname') + 'value: 1\n'],
  ['tab on the first line', '\tapiVersion: v1\n'],
  ['tab indentation, CRLF', (PC_HEAD.replace('  name', '\tname') + 'value: 1\n').replace(/\n/g, '\r\n')],
  ['unclosed double quote', 'apiVersion: "scheduling.k8s.io/v1\nkind: PriorityClass\n'],
  ['unclosed single quote', "apiVersion: 'scheduling.k8s.io/v1\nkind: PriorityClass\n"],
  ['document indicator in a quoted scalar', 'a: "x\n---\n"\n'],
  ['mapping value on the first line', 'a: b: c\n'],
  ['mapping value later', PC_HEAD + 'value: b: c\n'],
  ['a multi-line plain key', 'abc\ndef: 1\n'],
  ['flow mapping not closed', '{apiVersion: v1, kind: [\n'],
  ['flow sequence not closed', PC_HEAD + 'value: [1, 2\n'],
  ['flow mapping not closed later', PC_HEAD + 'metadata2: {a: 1\n'],
  ['flow sequence closed by a brace', PC_HEAD + 'x: [a, b}\n'],
  ['flow mapping closed by a bracket', PC_HEAD + 'x: {a: 1]\n'],
  ['stray closing bracket', PC_HEAD + 'x: ]\n'],
  ['block entry in a flow sequence', PC_HEAD + 'x: [a, - b]\n'],
  ['colon pairs in a flow sequence', PC_HEAD + 'x: [a: b: c]\n'],
  ['less indented key', PC_HEAD + '  labels: x\n bad: 1\n'],
  ['less indented sequence entry', PC_HEAD + 'x:\n  - a\n - b\n'],
  ['sequence entry after a mapping', PC_HEAD + 'value: 1\n- b\n'],
  ['key without a colon', PC_HEAD + 'x\ny: 1\n'],
  ['key without a colon at the end', PC_HEAD + 'value: 1\nb\n'],
  ['multi-line quoted key', PC_HEAD + '"a\n b": 1\n'],
  ['at sign', PC_HEAD + 'value: @x\n'],
  ['backtick', PC_HEAD + 'value: `x\n'],
  ['percent in a value', PC_HEAD + 'value: %x\n'],
  ['unknown escape', PC_HEAD + 'x: "\\q"\n'],
  ['short hex escape', PC_HEAD + 'x: "\\x4"\n'],
  ['block scalar less indented', PC_HEAD + 'x: |\n  a\n b\n'],
  ['block scalar header', PC_HEAD + 'x: |x\n  a\n'],
  ['block scalar indentation 0', PC_HEAD + 'x: |0\n  a\n'],
  ['tab in a block scalar indentation', PC_HEAD + 'x: |\n\ta\n'],
  ['empty anchor', PC_HEAD + 'x: &\n'],
  ['unknown directive', '%FOO bar\n' + PC_HEAD],
  ['%YAML twice', '%YAML 1.1\n%YAML 1.1\n---\n' + PC_HEAD],
  ['%YAML 1.2', '%YAML 1.2\n---\n' + PC_HEAD],
  ['directive without a document start', '%YAML 1.1\n' + PC_HEAD],
  ['undefined tag handle', PC_HEAD + 'x: !foo!bar 1\n'],
  ['tag without a URI', PC_HEAD + 'x: !! 1\n'],
  ['unknown alias', PC_HEAD + 'value: *foo\n'],
  ['alias inside its anchor', PC_HEAD + 'x: &a [1, *a]\n'],
  ['null key', PC_HEAD + '~: 1\n'],
  ['only a document end', '...\n'],
  ['second document broken', PC_HEAD + 'value: 1\n---\na: b: c\n'],
  ['control character', PC_HEAD + 'x: "a\u0001b"\n'],
  ['collection as a key', PC_HEAD + '[a, b]: c\n'],
  ['repeated key', PC_HEAD + 'value: 1\nvalue: 2\n'],
  ['float label key', PC_HEAD + '  labels:\n    3.14159265: x\n    1e3: y\nvalue: 1\n'],
  ['boolean and null-like values', PC_HEAD + '  labels:\n    a: yes\nvalue: 1\n'],
  [
    'alias expansion',
    PC_HEAD +
      'x:\n  a: &a ["x","x","x","x","x","x","x","x","x"]\n  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n',
  ],
];

function yamlSyntax(): Sequence[] {
  const seqs: Sequence[] = [];
  // Bytes the YAML reader refuses before parsing, and repeated keys under Strict.
  const bytes = new Seq('yaml-reader-and-strict').post(PCS, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'wy-r' }, value: 5 });
  for (const [note, body] of [
    ['invalid UTF-8', Buffer.concat([Buffer.from(PC_HEAD + 'x: '), Buffer.from([0xff, 0x0a])])],
    ['a lone continuation byte', Buffer.concat([Buffer.from(PC_HEAD + 'x: '), Buffer.from([0x80, 0x0a])])],
    ['a truncated sequence', Buffer.concat([Buffer.from(PC_HEAD + 'x: '), Buffer.from([0xe2, 0x82])])],
    ['UTF-16 byte order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: 1\n', 'utf16le')])],
    ['UTF-16 big-endian, a whole PriorityClass', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(PC_HEAD.replace('wy-x', 'wy-u') + 'value: 1\n', 'utf16le').swap16()])],
    ['UTF-16, a lone low surrogate', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: ', 'utf16le'), Buffer.from([0x00, 0xdc])])],
    ['UTF-16, an odd byte', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: 1', 'utf16le'), Buffer.from([0x0a])])],
  ] as const) {
    bytes.raw(`${note}: create`, 'POST', PCS, { headers: { ...CT.yaml }, body });
    bytes.raw(`${note}: apply`, 'PATCH', `${PCS}/wy-r${fm('m')}`, { headers: { ...CT.apply }, body });
  }
  // The reader decodes 512 bytes at a time: a syntax error before the chunk of a bad byte comes
  // first, and a first document that ends before it is read without it.
  const pad = '# ' + 'x'.repeat(600) + '\n';
  for (const [note, text] of [
    ['a syntax error before a late bad byte', PC_HEAD + 'value: b: c\n' + pad + 'd: 1\n'],
    ['a first document ending before a late bad byte', PC_HEAD.replace('wy-x', 'wy-l') + 'value: 1\n---\n' + pad],
    ['only a late bad byte', PC_HEAD + 'value: 1\n' + pad + 'd: 1\n'],
    ['a syntax error just before the bad byte\'s chunk', PC_HEAD + 'value: 1\n' + '#'.repeat(400) + '\nx: y: z\n' + '#'.repeat(60) + '\n'],
  ] as const) {
    const body = Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0x0a])]);
    bytes.raw(`${note}: create`, 'POST', PCS, { headers: { ...CT.yaml }, body });
    bytes.raw(`${note}: apply`, 'PATCH', `${PCS}/wy-r${fm('m')}`, { headers: { ...CT.apply }, body });
  }
  bytes.cleanup(T.priorityclasses, 'wy-l');
  const dup = PC_HEAD.replace('wy-x', 'wy-r') + 'value: 1\nvalue: 2\ndescription: a\ndescription: b\n';
  bytes
    .raw('repeated keys, Strict: create', 'POST', `${PCS}?fieldValidation=Strict`, { headers: { ...CT.yaml }, body: dup.replace('wy-r', 'wy-x') })
    .raw('repeated keys, Strict: update', 'PUT', `${PCS}/wy-r?fieldValidation=Strict`, { headers: { ...CT.yaml }, body: dup })
    .raw('repeated keys, Strict: apply', 'PATCH', `${PCS}/wy-r${fm('m')}&fieldValidation=Strict&force=true`, { headers: { ...CT.apply }, body: dup })
    .raw('repeated keys, Warn: apply', 'PATCH', `${PCS}/wy-r${fm('m')}&fieldValidation=Warn&force=true`, { headers: { ...CT.apply }, body: dup })
    .cleanup(T.priorityclasses, 'wy-x')
    .cleanup(T.priorityclasses, 'wy-u');
  seqs.push(bytes.done());
  YAML_CASES.forEach(([note, body], i) => {
    const name = `wy-${i}`;
    const s = new Seq(`yaml-${note.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`)
      .post(PCS, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value: 5 })
      .raw(`${note}: create`, 'POST', PCS, { headers: { ...CT.yaml }, body })
      .raw(`${note}: update`, 'PUT', `${PCS}/${name}`, { headers: { ...CT.yaml }, body })
      .raw(`${note}: apply`, 'PATCH', `${PCS}/${name}${fm('m')}`, { headers: { ...CT.apply }, body })
      .cleanup(T.priorityclasses, 'wy-x');
    seqs.push(s.done());
  });
  return seqs;
}

const pod = (name: string, resources: Obj): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: podSpec({ containers: [{ name: 'c', image: 'nginx:1.27', resources }] }),
});

function quantities(): Sequence[] {
  const seqs: Sequence[] = [];
  // An extended resource must be whole: kube prints the Quantity it parsed, rounded up to milli.
  const texts: unknown[] = ['1.5', '1500m', '1.5555', '0.5', '15e-1', '1.50', 1.5, '0.0001', '1.5e0', '100m', '1.23456789012345678901'];
  texts.forEach((v, i) => {
    seqs.push(new Seq(`quantity-extended-resource-${i}`).post(PODS, pod(`wq-${i}`, { requests: { 'example.com/foo': v }, limits: { 'example.com/foo': v } })).done());
  });
  // A claim-less PersistentVolume capacity of anything but storage: the list with %#v.
  ['1', '1.5', '1500m', '2Gi', '1000Mi', '0.5Gi', '1k'].forEach((v, i) => {
    const name = `wq-pv-${i}`;
    const s = new Seq(`quantity-pv-capacity-${i}`).post(PVS, {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { capacity: { cpu: v }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp' } },
    });
    seqs.push(cleanupPath(s, `${PVS}/${name}`).done());
  });
  // A node's capacity (and the allocatable defaulted from it).
  ['1.5', '2.5m', '3'].forEach((v, i) => {
    const name = `wq-node-${i}`;
    const s = new Seq(`quantity-node-capacity-${i}`).post(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { capacity: { 'example.com/foo': v } } });
    seqs.push(cleanupPath(s, `${NODES}/${name}`).done());
  });
  // A patch writes the text the validation then parses.
  const patched = new Seq('quantity-node-capacity-patched')
    .post(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'wq-np' }, status: { capacity: { cpu: '1' } } })
    .patch(`${NODES}/wq-np/status`, 'merge', { status: { capacity: { 'example.com/foo': '2.50' } } })
    .patch(`${NODES}/wq-np/status`, 'smp', { status: { allocatable: { 'example.com/bar': '1.5' } } });
  seqs.push(cleanupPath(patched, `${NODES}/wq-np`).done());
  return seqs;
}

const CR_TEXT = (name: string, revision: string, data = '{"a":1}'): string =>
  `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"${name}"},"revision":${revision},"data":${data}}`;

function int64(): Sequence[] {
  const seqs: Sequence[] = [];
  const json = (note: string, method: string, path: string, body: string, ct: Record<string, string> = CT.json) => [note, method, path, body, ct] as const;
  const cr = (name: string, steps: ReturnType<typeof json>[]) => {
    const s = new Seq(`int64-${name}`);
    for (const [note, method, path, body, ct] of steps) s.raw(note, method, path, { headers: { ...ct }, body });
    s.get(`${CRS}/${name}`).get(`${CRS}/${name}`, { accept: PROTO }).cleanup(T.controllerrevisions, name);
    return s.done();
  };
  seqs.push(cr('cr-2p53', [json('revision 2^53+1', 'POST', CRS, CR_TEXT('cr-2p53', '9007199254740993'))]));
  seqs.push(cr('cr-max', [json('revision int64 max', 'POST', CRS, CR_TEXT('cr-max', '9223372036854775807'))]));
  seqs.push(cr('cr-min', [json('revision int64 min', 'POST', CRS, CR_TEXT('cr-min', '-9223372036854775808'))]));
  seqs.push(
    cr('cr-raw', [json('raw data keeps its numbers', 'POST', CRS, CR_TEXT('cr-raw', '1', '{"a":9007199254740993,"b":12345678901234567890123,"c":1.0,"d":1e3,"e":-0,"f":[1.50]}'))]),
  );
  seqs.push(
    new Seq('int64-cr-over')
      .raw('revision int64 max + 1', 'POST', CRS, { headers: { ...CT.json }, body: CR_TEXT('cr-over', '9223372036854775808') })
      .raw('revision int64 min - 1', 'POST', CRS, { headers: { ...CT.json }, body: CR_TEXT('cr-over', '-9223372036854775809') })
      .raw('revision 1e19', 'POST', CRS, { headers: { ...CT.json }, body: CR_TEXT('cr-over', '1e19') })
      .raw('revision 2^53+1 as YAML', 'POST', CRS, { headers: { ...CT.yaml }, body: 'apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: cr-over\nrevision: 9223372036854775808\ndata: {}\n' })
      .cleanup(T.controllerrevisions, 'cr-over')
      .done(),
  );
  seqs.push(
    cr('cr-yaml', [json('revision 2^53+1 as YAML', 'POST', CRS, 'apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: cr-yaml\nrevision: 9007199254740993\ndata:\n  a: 9007199254740993\n', CT.yaml)]),
  );
  const P = `${CRS}/cr-patch`;
  seqs.push(
    cr('cr-patch', [
      json('create', 'POST', CRS, CR_TEXT('cr-patch', '1')),
      json('merge patch 2^53+1', 'PATCH', P, '{"revision":9007199254740993}', CT.merge),
      json('merge patch int64 max', 'PATCH', P, '{"revision":9223372036854775807}', CT.merge),
      json('merge patch beyond int64', 'PATCH', P, '{"revision":9223372036854775808}', CT.merge),
      json('strategic merge patch 2^53+3', 'PATCH', P, '{"revision":9007199254740995}', CT.smp),
      json('JSON patch 2^53+5', 'PATCH', P, '[{"op":"replace","path":"/revision","value":9007199254740997}]', CT.json6902),
      json('JSON patch test of 2^53+5', 'PATCH', P, '[{"op":"test","path":"/revision","value":9007199254740997}]', CT.json6902),
      json('JSON patch test of 2^53+4', 'PATCH', P, '[{"op":"test","path":"/revision","value":9007199254740996}]', CT.json6902),
      json('apply 2^53+7', 'PATCH', `${P}${fm('m')}`, 'apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: cr-patch\nrevision: 9007199254740999\n', CT.apply),
      json('apply beyond int64', 'PATCH', `${P}${fm('m')}`, '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cr-patch"},"revision":9223372036854775808}', CT.apply),
      json('forced apply of 2^53+7 in YAML', 'PATCH', `${P}${fm('m')}&force=true`, 'apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: cr-patch\nrevision: 9007199254740999\n', CT.apply),
      json('forced apply of 2^53+9 in JSON', 'PATCH', `${P}${fm('m')}&force=true`, '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cr-patch"},"revision":9007199254741001}', CT.apply),
      json('forced apply of int64 max + 1', 'PATCH', `${P}${fm('m')}&force=true`, '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cr-patch"},"revision":9223372036854775808}', CT.apply),
    ]),
  );
  // Writes that leave the exact integer alone keep it.
  const U = `${CRS}/cr-kept`;
  seqs.push(
    cr('cr-kept', [
      json('create with revision 2^53+1', 'POST', CRS, CR_TEXT('cr-kept', '9007199254740993')),
      json('merge patch of a label', 'PATCH', U, '{"metadata":{"labels":{"a":"b"}}}', CT.merge),
      json('strategic merge patch of a label', 'PATCH', U, '{"metadata":{"labels":{"c":"d"}}}', CT.smp),
      json('JSON patch of a label', 'PATCH', U, '[{"op":"add","path":"/metadata/labels/e","value":"f"}]', CT.json6902),
      json('apply of a label', 'PATCH', `${U}${fm('m')}`, '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cr-kept","labels":{"g":"h"}}}', CT.apply),
      json('update to 2^53+3', 'PUT', U, CR_TEXT('cr-kept', '9007199254740995')),
      json('update to the same rounding, 2^53+4', 'PUT', U, CR_TEXT('cr-kept', '9007199254740996')),
    ]),
  );
  // A status field of int64.
  seqs.push(
    new Seq('int64-pdb-observed-generation')
      .post(T.poddisruptionbudgets.collection(), { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'wi-pdb' }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } })
      .raw('status observedGeneration 2^53+1', 'PATCH', `${T.poddisruptionbudgets.collection()}/wi-pdb/status`, { headers: { ...CT.merge }, body: '{"status":{"observedGeneration":9007199254740993}}' })
      .raw('status observedGeneration int64 max + 1', 'PATCH', `${T.poddisruptionbudgets.collection()}/wi-pdb/status`, { headers: { ...CT.merge }, body: '{"status":{"observedGeneration":9223372036854775808}}' })
      .get(`${T.poddisruptionbudgets.collection()}/wi-pdb`)
      .done(),
  );
  // Typed int64 and int32 fields of a Pod.
  const podText = (name: string, spec: string) => `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}"},"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]${spec}}}`;
  const podSeq = (name: string, spec: string) => {
    const s = new Seq(`int64-pod-${name}`).raw(spec, 'POST', PODS, { headers: { ...CT.json }, body: podText(`wi-${name}`, spec) });
    return s.get(`${PODS}/wi-${name}`).cleanup(T.pods, `wi-${name}`).done();
  };
  seqs.push(podSeq('deadline', ',"activeDeadlineSeconds":9007199254740993'));
  seqs.push(podSeq('grace', ',"terminationGracePeriodSeconds":9223372036854775807'));
  seqs.push(podSeq('grace-over', ',"terminationGracePeriodSeconds":9223372036854775808'));
  seqs.push(podSeq('priority-over', ',"priority":2147483648'));
  seqs.push(podSeq('priority-min', ',"priority":-2147483649'));
  seqs.push(podSeq('run-as-user', ',"securityContext":{"runAsUser":9007199254740993}'));
  seqs.push(
    new Seq('int64-pod-deadline-patched')
      .post(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'wi-dp' }, spec: podSpec({ activeDeadlineSeconds: 10 }) })
      .raw('merge patch raises it to 2^53+1 (it may only decrease)', 'PATCH', `${PODS}/wi-dp`, { headers: { ...CT.merge }, body: '{"spec":{"activeDeadlineSeconds":9007199254740993}}' })
      .raw('merge patch to 5', 'PATCH', `${PODS}/wi-dp`, { headers: { ...CT.merge }, body: '{"spec":{"activeDeadlineSeconds":5}}' })
      .raw('strategic merge patch to int64 max + 1', 'PATCH', `${PODS}/wi-dp`, { headers: { ...CT.smp }, body: '{"spec":{"activeDeadlineSeconds":9223372036854775808}}' })
      .cleanup(T.pods, 'wi-dp')
      .done(),
  );
  // int32 fields of other kinds.
  seqs.push(
    new Seq('int64-int32-fields')
      .raw('PriorityClass value 2^31', 'POST', PCS, { headers: { ...CT.json }, body: '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"wi-pc"},"value":2147483648}' })
      .raw('PriorityClass value 2^53+1', 'POST', PCS, { headers: { ...CT.json }, body: '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"wi-pc"},"value":9007199254740993}' })
      .raw('PriorityClass value 2^31 as YAML', 'POST', PCS, { headers: { ...CT.yaml }, body: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: wi-pc\nvalue: 2147483648\n' })
      .raw('StatefulSet replicas 2^31', 'POST', T.statefulsets.collection(), {
        headers: { ...CT.json },
        body: `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"wi-sts"},"spec":{"replicas":2147483648,"serviceName":"x","selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`,
      })
      .cleanup(T.priorityclasses, 'wi-pc')
      .cleanup(T.statefulsets, 'wi-sts')
      .done(),
  );
  return seqs;
}

export const conformWording: Suite = {
  name: 'conform-wording',
  sequences: (): Sequence[] => [...yamlSyntax(), ...quantities(), ...int64()],
};
