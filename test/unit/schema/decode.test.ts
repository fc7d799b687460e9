import { describe, expect, it } from 'vitest';
import type { SchemaRegistry, StructSchema } from '../../../src/schema/model.js';
import {
  DecodeError,
  MAX_STRICT_ERRORS,
  cannotBeHandledMessage,
  decodeJsonBody,
  decodeTyped,
  decodeYamlBody,
  fieldValidationMessage,
  fieldValidationWarnings,
  interpretTypeMeta,
  jsonSyntaxCause,
  strictDecodingErrors,
  strictDecodingMessage,
  unrecognizedObjectMessage,
} from '../../../src/schema/decode.js';
import { JsonNumber, JsonSyntaxError, goQuote, scanJson } from '../../../src/machinery/json-scan.js';
import {
  QUANTITY_FORMAT_MESSAGE,
  QUANTITY_NUMERIC_MESSAGE,
  QUANTITY_SUFFIX_MESSAGE,
  QuantityError,
  canonicalQuantity,
  parseQuantity,
} from '../../../src/schema/quantity.js';
import { YamlDecodeError, parseYamlWithDuplicates } from '../../../src/schema/yaml-dups.js';

// ---------------------------------------------------------------------------------------------
// A StatefulSet-like subset of the schema (model.ts format).

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const A = 'io.k8s.api.apps.v1';
const C = 'io.k8s.api.core.v1';
const W = 'io.k8s.api.test.v1';
const STS = `${A}.StatefulSet`;
const WIDGET = `${W}.Widget`;

const defs: StructSchema[] = [
  {
    name: `${M}.TypeMeta`,
    fields: [
      { name: 'kind', type: { kind: 'string' } },
      { name: 'apiVersion', type: { kind: 'string' } },
    ],
  },
  {
    name: STS,
    gvk: { group: 'apps', version: 'v1', kind: 'StatefulSet' },
    fields: [
      { name: 'TypeMeta', inline: true, type: { kind: 'ref', name: `${M}.TypeMeta` } },
      { name: 'metadata', type: { kind: 'ref', name: `${M}.ObjectMeta` } },
      { name: 'spec', type: { kind: 'ref', name: `${A}.StatefulSetSpec` } },
    ],
  },
  {
    name: `${M}.ObjectMeta`,
    fields: [
      { name: 'name', type: { kind: 'string' } },
      { name: 'namespace', type: { kind: 'string' } },
      { name: 'generation', type: { kind: 'int64' } },
      { name: 'creationTimestamp', type: { kind: 'time' } },
      { name: 'deletionTimestamp', type: { kind: 'time' }, pointer: true },
      { name: 'labels', type: { kind: 'map', values: { kind: 'string' } }, mapType: 'granular' },
      { name: 'annotations', type: { kind: 'map', values: { kind: 'string' } } },
      { name: 'managedFields', type: { kind: 'array', items: { kind: 'ref', name: `${M}.ManagedFieldsEntry` } } },
    ],
  },
  {
    name: `${M}.ManagedFieldsEntry`,
    fields: [
      { name: 'manager', type: { kind: 'string' } },
      { name: 'time', type: { kind: 'time' }, pointer: true },
      { name: 'fieldsV1', type: { kind: 'fieldsV1' }, pointer: true },
    ],
  },
  {
    name: `${A}.StatefulSetSpec`,
    fields: [
      { name: 'replicas', type: { kind: 'int32' }, pointer: true },
      { name: 'selector', type: { kind: 'ref', name: `${M}.LabelSelector` }, pointer: true },
      { name: 'template', type: { kind: 'ref', name: `${C}.PodTemplateSpec` } },
      { name: 'serviceName', type: { kind: 'string' } },
      { name: 'updateStrategy', type: { kind: 'ref', name: `${A}.StatefulSetUpdateStrategy` } },
      { name: 'minReadySeconds', type: { kind: 'int32' } },
      { name: 'paused', type: { kind: 'boolean' } },
    ],
  },
  {
    name: `${M}.LabelSelector`,
    fields: [{ name: 'matchLabels', type: { kind: 'map', values: { kind: 'string' } } }],
  },
  {
    name: `${A}.StatefulSetUpdateStrategy`,
    fields: [
      { name: 'type', type: { kind: 'string' } },
      { name: 'rollingUpdate', type: { kind: 'ref', name: `${A}.RollingUpdateStatefulSetStrategy` }, pointer: true },
    ],
  },
  {
    name: `${A}.RollingUpdateStatefulSetStrategy`,
    fields: [
      { name: 'partition', type: { kind: 'int32' }, pointer: true },
      { name: 'maxUnavailable', type: { kind: 'intOrString' }, pointer: true },
    ],
  },
  {
    name: `${C}.PodTemplateSpec`,
    fields: [
      { name: 'metadata', type: { kind: 'ref', name: `${M}.ObjectMeta` } },
      { name: 'spec', type: { kind: 'ref', name: `${C}.PodSpec` } },
    ],
  },
  {
    name: `${C}.PodSpec`,
    fields: [
      {
        name: 'containers',
        type: { kind: 'array', items: { kind: 'ref', name: `${C}.Container` } },
        listType: 'map',
        listMapKeys: ['name'],
      },
      { name: 'terminationGracePeriodSeconds', type: { kind: 'int64' }, pointer: true },
      { name: 'nodeSelector', type: { kind: 'map', values: { kind: 'string' } } },
    ],
  },
  {
    name: `${C}.Container`,
    fields: [
      { name: 'name', type: { kind: 'string' } },
      { name: 'image', type: { kind: 'string' } },
      { name: 'args', type: { kind: 'array', items: { kind: 'string' } }, listType: 'atomic' },
      {
        name: 'ports',
        type: { kind: 'array', items: { kind: 'ref', name: `${C}.ContainerPort` } },
        listType: 'map',
        listMapKeys: ['containerPort', 'protocol'],
      },
      { name: 'resources', type: { kind: 'ref', name: `${C}.ResourceRequirements` } },
      { name: 'imagePullPolicy', type: { kind: 'string', enum: ['Always', 'IfNotPresent', 'Never'] } },
    ],
  },
  {
    name: `${C}.ContainerPort`,
    fields: [
      { name: 'name', type: { kind: 'string' } },
      { name: 'containerPort', type: { kind: 'int32' } },
      { name: 'protocol', type: { kind: 'string' } },
    ],
  },
  {
    name: `${C}.ResourceRequirements`,
    fields: [
      { name: 'limits', type: { kind: 'map', values: { kind: 'quantity' } } },
      { name: 'requests', type: { kind: 'map', values: { kind: 'quantity' } } },
    ],
  },
  {
    name: WIDGET,
    fields: [
      { name: 'data', type: { kind: 'bytes' } },
      { name: 'raw', type: { kind: 'any' } },
      { name: 'ratio', type: { kind: 'number' } },
      { name: 'event', type: { kind: 'microTime' }, pointer: true },
      { name: 'port', type: { kind: 'intOrString' } },
      { name: 'size', type: { kind: 'quantity' } },
      { name: 'sizePtr', type: { kind: 'quantity' }, pointer: true },
      { name: 'when', type: { kind: 'time' } },
      { name: 'enabled', type: { kind: 'boolean' } },
      { name: 'counts', type: { kind: 'map', values: { kind: 'int32' } } },
      { name: 'matrix', type: { kind: 'array', items: { kind: 'array', items: { kind: 'int32' } } } },
    ],
  },
];
const registry: SchemaRegistry = Object.fromEntries(defs.map((d) => [d.name, d]));
const goTypes = { [`${C}.Container.imagePullPolicy`]: 'v1.PullPolicy' };

const decodeJson = (text: string) => decodeJsonBody(text, STS, registry, { goTypes });
const widget = (text: string) => decodeJsonBody(text, WIDGET, registry).object;

function decodeError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DecodeError);
    return (e as Error).message;
  }
  throw new Error('expected a DecodeError');
}

function syntaxError(text: string): string {
  try {
    scanJson(text);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonSyntaxError);
    return (e as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

// kube's test/integration/apiserver/field_validation_test.go bodies (Deployment there; the same
// shapes here on the StatefulSet fixture).
const invalidBodyJSON = `
	{
		"apiVersion": "apps/v1",
		"kind": "StatefulSet",
		"metadata": {
			"name": "dupename",
			"name": "test-sts",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
		`;

const invalidBodyYAML = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: dupename
  name: test-sts
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

const KUBE_JSON_STRICT =
  'strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].unknownNested", duplicate field "spec.template.spec.containers[0].imagePullPolicy"';
const KUBE_JSON_WARNINGS = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];
const KUBE_YAML_STRICT = `strict decoding error: yaml: unmarshal errors:
  line 5: key "name" already set in map
  line 12: key "unknownDupe" already set in map
  line 14: key "paused" already set in map
  line 28: key "imagePullPolicy" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.template.spec.containers[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe"`;
const KUBE_YAML_WARNINGS = [
  'line 5: key "name" already set in map',
  'line 12: key "unknownDupe" already set in map',
  'line 14: key "paused" already set in map',
  'line 28: key "imagePullPolicy" already set in map',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];

// ---------------------------------------------------------------------------------------------

describe('field validation (kube field_validation_test.go bodies)', () => {
  it('JSON: unknown and duplicate fields in document order, with full paths', () => {
    const r = decodeJson(invalidBodyJSON);
    expect(r.strictErrors).toEqual(KUBE_JSON_WARNINGS);
    expect(strictDecodingMessage(r)).toBe(KUBE_JSON_STRICT);
    expect(r.unknownFields).toEqual([
      'metadata.unknownMeta',
      'spec.unknown1',
      'spec.unknownDupe',
      'spec.template.spec.containers[0].unknownNested',
    ]);
    expect(r.duplicateFields).toEqual(['metadata.name', 'spec.paused', 'spec.template.spec.containers[0].imagePullPolicy']);
    // Unknown fields are dropped; the last duplicate wins.
    expect(r.object).toEqual({
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      metadata: { name: 'test-sts', labels: { app: 'nginx' } },
      spec: {
        selector: { matchLabels: { app: 'nginx' } },
        template: {
          metadata: { labels: { app: 'nginx' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:latest', imagePullPolicy: 'Never' }] },
        },
        paused: false,
      },
    });
  });

  it('JSON: Warn, Strict and Ignore', () => {
    const r = decodeJson(invalidBodyJSON);
    const target = { version: 'v1', targetKind: 'StatefulSet' };
    expect(fieldValidationMessage('Warn', target, r)).toEqual({ warnings: KUBE_JSON_WARNINGS });
    expect(fieldValidationMessage('Strict', target, r)).toEqual({
      warnings: [],
      error: `StatefulSet in version "v1" cannot be handled as a StatefulSet: ${KUBE_JSON_STRICT}`,
    });
    expect(fieldValidationMessage('Ignore', target, r)).toEqual({ warnings: [] });
    const clean = decodeJson('{"kind":"StatefulSet","apiVersion":"apps/v1","metadata":{"name":"a"}}');
    expect(fieldValidationMessage('Strict', target, clean)).toEqual({ warnings: [] });
    expect(fieldValidationMessage('Warn', target, clean)).toEqual({ warnings: [] });
  });

  it('YAML: goyaml.v2 duplicate lines first, then unknown fields in sorted-key order', () => {
    const r = decodeYamlBody(invalidBodyYAML, STS, registry);
    expect(strictDecodingMessage(r)).toBe(KUBE_YAML_STRICT);
    expect(fieldValidationWarnings(r)).toEqual(KUBE_YAML_WARNINGS);
    expect(strictDecodingErrors(r)).toHaveLength(5);
    expect(r.yamlDuplicates.map((d) => d.path)).toEqual([
      'metadata.name',
      'spec.unknownDupe',
      'spec.paused',
      'spec.template.spec.containers[0].imagePullPolicy',
    ]);
    expect(r.duplicateFields).toEqual([]);
    expect(r.object).toMatchObject({
      metadata: { name: 'test-sts' },
      spec: { paused: false, template: { spec: { containers: [{ imagePullPolicy: 'Never' }] } } },
    });
    const target = { kind: 'StatefulSet', version: 'v1', targetKind: 'StatefulSet' };
    expect(fieldValidationMessage('Strict', target, r).error).toBe(
      `StatefulSet in version "v1" cannot be handled as a StatefulSet: ${KUBE_YAML_STRICT}`,
    );
    expect(fieldValidationMessage('Warn', target, r).warnings).toEqual(KUBE_YAML_WARNINGS);
  });

  it('patch-style duplicates (plain paths) come first, as kube lists them for merge patches', () => {
    const r = decodeTyped(
      { spec: { unknown1: 'v', paused: false, template: { spec: { containers: [{ name: 'a', unknownNested: 1 }] } } } },
      STS,
      registry,
      { duplicates: ['spec.paused', 'spec.template.spec.containers[0].imagePullPolicy'], sortKeys: true },
    );
    expect(r.strictErrors).toEqual([
      'duplicate field "spec.paused"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
    ]);
  });

  it('a top-level duplicate is reported by its bare name', () => {
    const r = decodeJson('{"kind":"StatefulSet","kind":"StatefulSet","spec":{"replicas":1,"replicas":2}}');
    expect(r.strictErrors).toEqual(['duplicate field "kind"', 'duplicate field "spec.replicas"']);
    expect(r.object).toEqual({ kind: 'StatefulSet', spec: { replicas: 2 } });
  });
});

describe('unknown and duplicate fields', () => {
  it('matching is case-sensitive (sigs.k8s.io/json)', () => {
    const r = decodeJson('{"spec":{"Replicas":3,"replicas":1},"Metadata":{}}');
    expect(r.unknownFields).toEqual(['spec.Replicas', 'Metadata']);
    expect(r.object).toEqual({ spec: { replicas: 1 } });
  });

  it('nested: inside arrays of structs, maps and the template metadata', () => {
    const r = decodeJson(
      JSON.stringify({
        spec: {
          template: {
            metadata: { foo: 1, labels: { a: 'b' } },
            spec: { containers: [{ name: 'a' }, { name: 'b', ports: [{ containerPort: 80, bar: true }], resources: { x: {} } }] },
          },
        },
      }),
    );
    expect(r.unknownFields).toEqual([
      'spec.template.metadata.foo',
      'spec.template.spec.containers[1].ports[0].bar',
      'spec.template.spec.containers[1].resources.x',
    ]);
  });

  it('duplicates inside maps are reported with the key in the path', () => {
    const r = decodeJson('{"metadata":{"labels":{"app":"a","tier":"t","app":"b"}}}');
    expect(r.strictErrors).toEqual(['duplicate field "metadata.labels.app"']);
    expect(r.object).toEqual({ metadata: { labels: { app: 'b', tier: 't' } } });
  });

  it('nothing inside an unknown field is looked at; a repeated unknown field is only unknown', () => {
    const r = decodeJson('{"spec":{"foo":{"x":1,"x":2,"y":{"z":1}},"foo":2,"bar":1,"bar":1,"bar":1}}');
    expect(r.strictErrors).toEqual(['unknown field "spec.foo"', 'unknown field "spec.bar"']);
  });

  it('nothing inside any/RawExtension-like values is looked at', () => {
    const r = decodeJsonBody('{"raw":{"a":1,"a":2,"b":{"c":1.50}}}', WIDGET, registry);
    expect(r.strictErrors).toEqual([]);
    expect(r.object).toEqual({ raw: { a: 2, b: { c: 1.5 } } });
  });

  it('a key repeated three times is one strict error', () => {
    const r = decodeJson('{"spec":{"paused":true,"paused":false,"paused":true}}');
    expect(r.strictErrors).toEqual(['duplicate field "spec.paused"']);
    expect(r.object).toEqual({ spec: { paused: true } });
  });

  it('repeated objects are merged as Go decodes them into structs and maps', () => {
    const r = decodeJson(
      '{"spec":{"replicas":1,"selector":{"matchLabels":{"a":"1"}}},"spec":{"paused":true,"selector":{"matchLabels":{"b":"2"}}}}',
    );
    expect(r.strictErrors).toEqual(['duplicate field "spec"']);
    expect(r.object).toEqual({ spec: { replicas: 1, selector: { matchLabels: { a: '1', b: '2' } }, paused: true } });
  });

  it('at most 100 strict errors, as sigs.k8s.io/json', () => {
    const fields = Array.from({ length: 150 }, (_, i) => `"u${i}":1`).join(',');
    const r = decodeJson(`{"spec":{${fields}}}`);
    expect(r.strictErrors).toHaveLength(MAX_STRICT_ERRORS);
    expect(r.strictErrors[99]).toBe('unknown field "spec.u99"');
  });

  it('paths are quoted as Go does', () => {
    const r = decodeJson('{"metadata":{"x\\"y\\u0001é":1}}');
    expect(r.strictErrors).toEqual(['unknown field "metadata.x\\"y\\x01é"']);
    expect(goQuote('a\tb\\c')).toBe('"a\\tb\\\\c"');
  });
});

describe('output shape', () => {
  it('struct fields in schema order (inline fields in place), map keys sorted', () => {
    const r = decodeJson(
      '{"spec":{"paused":true,"replicas":2},"metadata":{"labels":{"b":"2","a":"1"},"name":"x"},"apiVersion":"apps/v1","kind":"StatefulSet"}',
    );
    expect(JSON.stringify(r.object)).toBe(
      '{"kind":"StatefulSet","apiVersion":"apps/v1","metadata":{"name":"x","labels":{"a":"1","b":"2"}},"spec":{"replicas":2,"paused":true}}',
    );
  });

  it('null: absent for struct fields, the zero value in arrays and maps', () => {
    const r = decodeJson(
      JSON.stringify({
        metadata: { name: null, labels: { a: null }, creationTimestamp: null, deletionTimestamp: null },
        spec: {
          replicas: null,
          selector: null,
          template: { spec: { containers: [null, { name: 'b', args: ['x', null], resources: { limits: { cpu: null } } }] } },
        },
      }),
    );
    expect(r.object).toEqual({
      metadata: { labels: { a: '' } },
      spec: { template: { spec: { containers: [{}, { name: 'b', args: ['x', ''], resources: { limits: { cpu: '0' } } }] } } },
    });
    // Unmarshalers of non-pointer fields: IntOrString null is 0, Quantity null is "0"; pointers are absent.
    expect(widget('{"port":null,"size":null,"sizePtr":null,"when":null,"event":null,"raw":null,"matrix":[null,[1]]}')).toEqual({
      port: 0,
      size: '0',
      matrix: [null, [1]],
    });
  });
});

describe('wrong types are fatal, with Go encoding/json messages', () => {
  const cases: [string, string][] = [
    ['{"spec":{"replicas":"3"}}', 'json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":3000000000}}', 'json: cannot unmarshal number 3000000000 into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":-2147483649}}', 'json: cannot unmarshal number -2147483649 into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":1.5}}', 'json: cannot unmarshal number 1.5 into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":1.0}}', 'json: cannot unmarshal number 1.0 into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":1e2}}', 'json: cannot unmarshal number 1e2 into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":true}}', 'json: cannot unmarshal bool into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"spec":{"replicas":{}}}', 'json: cannot unmarshal object into Go struct field StatefulSetSpec.spec.replicas of type int32'],
    ['{"metadata":{"generation":9223372036854775808}}', 'json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64'],
    ['{"metadata":{"name":5}}', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string'],
    ['{"metadata":{"name":{"a":1}}}', 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.name of type string'],
    ['{"metadata":{"name":["a"]}}', 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.name of type string'],
    ['{"metadata":{"labels":{"a":1}}}', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    ['{"metadata":{"labels":[]}}', 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['{"spec":{"paused":"true"}}', 'json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.paused of type bool'],
    ['{"spec":"x"}', 'json: cannot unmarshal string into Go struct field StatefulSet.spec of type v1.StatefulSetSpec'],
    ['{"spec":{"template":[]}}', 'json: cannot unmarshal array into Go struct field StatefulSetSpec.spec.template of type v1.PodTemplateSpec'],
    ['{"spec":{"template":{"spec":{"containers":{}}}}}', 'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container'],
    ['{"spec":{"template":{"spec":{"containers":["a"]}}}}', 'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container'],
    [
      '{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b","ports":[{"containerPort":"80"}]}]}}}}',
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    ],
    [
      '{"spec":{"template":{"spec":{"containers":[{"args":["a",1]}]}}}}',
      'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.args of type string',
    ],
    [
      '{"spec":{"template":{"spec":{"containers":[{"imagePullPolicy":1}]}}}}',
      'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.imagePullPolicy of type v1.PullPolicy',
    ],
    ['[]', 'json: cannot unmarshal array into Go value of type v1.StatefulSet'],
    ['"x"', 'json: cannot unmarshal string into Go value of type v1.StatefulSet'],
  ];
  it.each(cases)('%s', (body, message) => {
    expect(decodeError(() => decodeJson(body))).toBe(message);
  });

  it('the first saved type error wins, and unknown fields are not reported with it', () => {
    expect(decodeError(() => decodeJson('{"foo":1,"spec":{"replicas":"x"},"metadata":{"name":5}}'))).toBe(
      'json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32',
    );
  });

  it("an UnmarshalJSON error (Quantity, Time, IntOrString) stops at once and wins over an earlier saved one", () => {
    const body = JSON.stringify({
      metadata: { name: 5 },
      spec: { template: { spec: { containers: [{ resources: { limits: { cpu: 'abc' } } }] } } },
    });
    expect(decodeError(() => decodeJson(body))).toBe(QUANTITY_FORMAT_MESSAGE);
  });

  it('YAML numbers are checked as the JSON kube converts them to', () => {
    expect(decodeYamlBody('spec:\n  replicas: 3.0\n', STS, registry).object).toEqual({ spec: { replicas: 3 } });
    expect(decodeError(() => decodeYamlBody('spec:\n  replicas: 3.5\n', STS, registry))).toBe(
      'json: cannot unmarshal number 3.5 into Go struct field StatefulSetSpec.spec.replicas of type int32',
    );
    expect(decodeError(() => decodeYamlBody('spec:\n  replicas: "3"\n', STS, registry))).toBe(
      'json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of type int32',
    );
  });
});

describe('IntOrString', () => {
  const strategy = (v: string) => `{"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":${v}}}}}`;
  const get = (v: string) =>
    (decodeJson(strategy(v)).object as { spec: { updateStrategy: { rollingUpdate: Record<string, unknown> } } }).spec
      .updateStrategy.rollingUpdate;
  it('number or string', () => {
    expect(get('2')).toEqual({ maxUnavailable: 2 });
    expect(get('"50%"')).toEqual({ maxUnavailable: '50%' });
    expect(get('null')).toEqual({});
  });
  it('anything else is an int32 error with the field context', () => {
    const prefix = 'json: cannot unmarshal';
    const field = 'into Go struct field RollingUpdateStatefulSetStrategy.spec.updateStrategy.rollingUpdate.maxUnavailable of type int32';
    expect(decodeError(() => decodeJson(strategy('1.5')))).toBe(`${prefix} number 1.5 ${field}`);
    expect(decodeError(() => decodeJson(strategy('3000000000')))).toBe(`${prefix} number 3000000000 ${field}`);
    expect(decodeError(() => decodeJson(strategy('true')))).toBe(`${prefix} bool ${field}`);
    expect(decodeError(() => decodeJson(strategy('{}')))).toBe(`${prefix} object ${field}`);
    expect(decodeError(() => decodeJson(strategy('[]')))).toBe(`${prefix} array ${field}`);
  });
});

describe('Quantity', () => {
  it('canonical forms (Quantity.String())', () => {
    const table: [string, string][] = [
      ['1000m', '1'],
      ['0.5', '500m'],
      ['1.5', '1500m'],
      ['1Gi', '1Gi'],
      ['1024Mi', '1Gi'],
      ['2048Ki', '2Mi'],
      ['1.5Gi', '1536Mi'],
      ['1e3', '1e3'],
      ['1E3', '1E3'],
      ['100m', '100m'],
      ['128Mi', '128Mi'],
      ['1000M', '1G'],
      ['1000000', '1M'],
      ['0.1m', '100u'],
      ['.001Ki', '1024m'],
      ['.000000000001Ki', '2n'],
      ['0.0000000001', '1n'],
      ['3.001n', '4n'],
      ['1.1E-9', '2e-9'],
      ['9Ei', '9223372036854775807'],
      ['0', '0'],
      ['0Gi', '0'],
      ['-1.5Gi', '-1536Mi'],
      ['0.5Ki', '512'],
      ['1025Ki', '1025Ki'],
      ['1.0', '1'],
      ['+1', '+1'],
      // Kept verbatim when the fast path finds them canonical enough (Quantity.s).
      ['1.', '1.'],
      ['1.G', '1.G'],
      ['01', '01'],
      ['1.500', '1.500'],
      // Odd but accepted by ParseQuantity.
      ['.', '0'],
      ['Gi', '0'],
    ];
    for (const [input, canonical] of table) {
      const r = parseQuantity(input);
      expect(r, input).toMatchObject({ ok: true, canonical });
    }
    expect(parseQuantity('1.5Gi')).toMatchObject({ value: 1610612736, format: 'BinarySI' });
    expect(canonicalQuantity(1.5)).toBe('1500m');
  });

  it("kube's error messages", () => {
    expect(QUANTITY_FORMAT_MESSAGE).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    for (const bad of ['', 'abc', '1Gx', '1 Gi', '1.2.3']) expect(parseQuantity(bad), bad).toEqual({ ok: false, error: QUANTITY_FORMAT_MESSAGE });
    expect(parseQuantity('1e')).toEqual({ ok: false, error: QUANTITY_SUFFIX_MESSAGE });
    expect(parseQuantity('1Mi3')).toEqual({ ok: false, error: QUANTITY_SUFFIX_MESSAGE });
    expect(parseQuantity('--1')).toEqual({ ok: false, error: QUANTITY_SUFFIX_MESSAGE });
    expect(parseQuantity('.e-20')).toEqual({ ok: false, error: QUANTITY_NUMERIC_MESSAGE });
    expect(parseQuantity('+.Ki')).toMatchObject({ ok: true, canonical: '0' });
    expect(() => canonicalQuantity('x')).toThrow(QuantityError);
  });

  it('decoded into canonical form; strings (trimmed) and numbers accepted', () => {
    const r = decodeJson(
      JSON.stringify({
        spec: {
          template: {
            spec: { containers: [{ resources: { requests: { memory: '1024Mi', cpu: '1000m' }, limits: { cpu: ' 250m ', x: 2 } } }] },
          },
        },
      }),
    );
    expect(JSON.stringify(r.object)).toBe(
      '{"spec":{"template":{"spec":{"containers":[{"resources":{"limits":{"cpu":"250m","x":"2"},"requests":{"cpu":"1","memory":"1Gi"}}}]}}}}',
    );
    // The literal of a JSON number is what Quantity parses.
    expect(widget('{"size":1.5,"sizePtr":1e3}')).toEqual({ size: '1500m', sizePtr: '1e3' });
    expect(widget('{"size":0.10}')).toEqual({ size: '100m' });
  });

  it('invalid syntax and non-string/number values are fatal', () => {
    expect(decodeError(() => widget('{"size":"1Gx"}'))).toBe(QUANTITY_FORMAT_MESSAGE);
    expect(decodeError(() => widget('{"size":true}'))).toBe(QUANTITY_FORMAT_MESSAGE);
    expect(decodeError(() => widget('{"size":{}}'))).toBe(QUANTITY_FORMAT_MESSAGE);
    expect(decodeError(() => widget('{"size":"1e"}'))).toBe(QUANTITY_SUFFIX_MESSAGE);
  });
});

describe('Time and MicroTime', () => {
  const created = (v: string) => decodeJson(`{"metadata":{"creationTimestamp":${v}}}`);
  const layout = '"2006-01-02T15:04:05Z07:00"';
  it('RFC 3339, written back in UTC with second precision', () => {
    expect(created('"2024-05-06T07:08:09+02:00"').object).toEqual({ metadata: { creationTimestamp: '2024-05-06T05:08:09Z' } });
    expect(created('"2024-05-06T07:08:09.999999Z"').object).toEqual({ metadata: { creationTimestamp: '2024-05-06T07:08:09Z' } });
    expect(created('"2024-01-01T00:30:00-01:00"').object).toEqual({ metadata: { creationTimestamp: '2024-01-01T01:30:00Z' } });
    expect(created('"2024-02-29T23:59:59+00:00"').object).toEqual({ metadata: { creationTimestamp: '2024-02-29T23:59:59Z' } });
    expect(created('null').object).toEqual({ metadata: {} });
    // Go's zero time is written as null.
    expect(created('"0001-01-01T00:00:00Z"').object).toEqual({ metadata: {} });
  });
  it("Go's time.Parse errors", () => {
    const cases: [string, string][] = [
      ['"abc"', `parsing time "abc" as ${layout}: cannot parse "abc" as "2006"`],
      ['"2024-01-01"', `parsing time "2024-01-01" as ${layout}: cannot parse "" as "T"`],
      ['"2024-01-01 00:00:00Z"', `parsing time "2024-01-01 00:00:00Z" as ${layout}: cannot parse " 00:00:00Z" as "T"`],
      ['"2024-1-01T00:00:00Z"', `parsing time "2024-1-01T00:00:00Z" as ${layout}: cannot parse "1-01T00:00:00Z" as "01"`],
      ['"2024-01-01T00:00:00"', `parsing time "2024-01-01T00:00:00" as ${layout}: cannot parse "" as "Z07:00"`],
      ['"2024-01-01T00:00:00+0100"', `parsing time "2024-01-01T00:00:00+0100" as ${layout}: cannot parse "+0100" as "Z07:00"`],
      ['"2024-13-01T00:00:00Z"', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
      ['"2024-02-30T00:00:00Z"', 'parsing time "2024-02-30T00:00:00Z": day out of range'],
      ['"2024-01-01T24:00:00Z"', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
      ['"2024-01-01T00:60:00Z"', 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
      ['"2024-01-01T00:00:60Z"', 'parsing time "2024-01-01T00:00:60Z": second out of range'],
      ['"2024-01-01T00:00:00Zjunk"', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
      ['"é"', `parsing time "\\xc3\\xa9" as ${layout}: cannot parse "\\xc3\\xa9" as "2006"`],
      ['5', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
      ['{}', 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
    ];
    for (const [v, msg] of cases) expect(decodeError(() => created(v)), v).toBe(msg);
  });
  it('MicroTime keeps microseconds', () => {
    expect(decodeError(() => widget('{"event":"2024-01-01T10:00:00.1234567+10:00"}'))).toBe(
      'parsing time "2024-01-01T10:00:00.1234567+10:00" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7+10:00" as "Z07:00"',
    );
    expect(widget('{"event":"2024-01-01T10:00:00.123456+10:00"}')).toEqual({ event: '2024-01-01T00:00:00.123456Z' });
    expect(decodeError(() => widget('{"event":"2024-01-01T00:00:00Z"}'))).toBe(
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });
});

describe('other kinds', () => {
  it('bytes: base64 as Go decodes it, written back canonical', () => {
    expect(widget('{"data":"aGVsbG8="}')).toEqual({ data: 'aGVsbG8=' });
    expect(widget('{"data":"aGVs\\nbG8="}')).toEqual({ data: 'aGVsbG8=' });
    expect(widget('{"data":""}')).toEqual({ data: '' });
    expect(decodeError(() => widget('{"data":"aGVsbG8"}'))).toBe('illegal base64 data at input byte 4');
    expect(decodeError(() => widget('{"data":"aGV*"}'))).toBe('illegal base64 data at input byte 3');
    expect(decodeError(() => widget('{"data":"aGVsbG8=x"}'))).toBe('illegal base64 data at input byte 8');
    expect(decodeError(() => widget('{"data":1}'))).toBe(
      'json: cannot unmarshal number into Go struct field Widget.data of type []uint8',
    );
  });
  it('float64, bool, maps and nested arrays of ints', () => {
    expect(widget('{"ratio":0.25,"enabled":true,"counts":{"b":2,"a":1},"matrix":[[1,2],[]]}')).toEqual({
      ratio: 0.25,
      enabled: true,
      counts: { a: 1, b: 2 },
      matrix: [[1, 2], []],
    });
    expect(decodeError(() => widget('{"ratio":"x"}'))).toBe(
      'json: cannot unmarshal string into Go struct field Widget.ratio of type float64',
    );
    expect(decodeError(() => widget('{"ratio":1e400}'))).toBe(
      'json: cannot unmarshal number 1e400 into Go struct field Widget.ratio of type float64',
    );
    expect(decodeError(() => widget('{"counts":{"a":1.5}}'))).toBe(
      'json: cannot unmarshal number 1.5 into Go struct field Widget.counts of type int32',
    );
    expect(decodeError(() => widget('{"matrix":[[1],["x"]]}'))).toBe(
      'json: cannot unmarshal string into Go struct field Widget.matrix of type int32',
    );
  });
  it('any and fieldsV1 are kept as they are', () => {
    expect(widget('{"raw":[1,"a",{"z":null,"b":[true]}]}')).toEqual({ raw: [1, 'a', { z: null, b: [true] }] });
    const r = decodeJson('{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{"f:replicas":{}}},"time":"2024-01-01T00:00:00Z"}]}}');
    expect(r.object).toEqual({
      metadata: { managedFields: [{ manager: 'm', time: '2024-01-01T00:00:00Z', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }] },
    });
  });
  it('a null document decodes to an empty object, as Go leaves the struct alone', () => {
    expect(decodeTyped(null, STS, registry).object).toEqual({});
  });
  it('a missing definition is a programming error', () => {
    expect(() => decodeTyped({}, 'nope', registry)).toThrow('schema: no definition nope');
  });
});

describe('scanJson', () => {
  it('parses like JSON.parse', () => {
    const samples = [
      '{"a":[1,-2,3.5,-0.25e-3,1E+2,true,false,null,"x\\u00e9\\n\\"\\\\\\/"],"b":{},"c":[]}',
      ' [ 1 , { "k" : [ ] } ] ',
      '"plain"',
      '0',
      '-0',
      '123456789012345678901234567890',
      '{"":""}',
      '{"emoji":"😀\\ud83d\\ude00"}',
    ];
    for (const s of samples) expect(scanJson(s).value, s).toEqual(JSON.parse(s));
  });

  const errors: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":"b"\n', 'unexpected end of JSON input'],
    ['[1,', 'unexpected end of JSON input'],
    ['"abc', 'unexpected end of JSON input'],
    ['nul', 'unexpected end of JSON input'],
    ['-', 'unexpected end of JSON input'],
    ['1.', 'unexpected end of JSON input'],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{,}', "invalid character ',' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['[1 2]', "invalid character '2' after array element"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['nulx', "invalid character 'x' in literal null (expecting 'l')"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['fals', 'unexpected end of JSON input'],
    ['01', "invalid character '1' after top-level value"],
    ['[01]', "invalid character '1' after array element"],
    ['-a', "invalid character 'a' in numeric literal"],
    ['1.a', "invalid character 'a' after decimal point in numeric literal"],
    ['1ea', "invalid character 'a' in exponent of numeric literal"],
    ['1e+', 'unexpected end of JSON input'],
    ['"a\u0001"', "invalid character '\\x01' in string literal"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12x4"', "invalid character 'x' in \\u hexadecimal character escape"],
    ['{"a":1}}', "invalid character '}' after top-level value"],
    ['{"a":1} x', "invalid character 'x' after top-level value"],
    ['é', "invalid character 'Ã' looking for beginning of value"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['+1', "invalid character '+' looking for beginning of value"],
    ['NaN', "invalid character 'N' looking for beginning of value"],
  ];
  it.each(errors)('syntax error %j', (text, message) => {
    expect(syntaxError(text)).toBe(message);
  });

  it('nesting: 10,000 levels are fine, 10,001 are not (Go maxNestingDepth)', () => {
    const ok = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(scanJson(ok).value).toBeInstanceOf(Array);
    expect(syntaxError('['.repeat(10_001) + ']'.repeat(10_001))).toBe("invalid character '[' exceeded max depth");
    expect(syntaxError('{"a":'.repeat(10_000) + '{}' + '}'.repeat(10_000))).toBe("invalid character '{' exceeded max depth");
    const objects = '{"a":'.repeat(9_999) + '{}' + '}'.repeat(9_999);
    expect(() => scanJson(objects)).not.toThrow();
  });

  it('reports duplicates with kube paths and their position', () => {
    const r = scanJson('{"replicas":1,"replicas":2,"items":[{"a":1},{"a":1,"b":2,"a":3}],"m":{"x":{"y":1,"y":2}}}');
    expect(r.duplicates.map((d) => [d.path, d.index])).toEqual([
      ['replicas', 1],
      ['items[1].a', 2],
      ['m.x.y', 1],
    ]);
    expect(r.value).toEqual({ replicas: 2, items: [{ a: 1 }, { a: 3, b: 2 }], m: { x: { y: 2 } } });
    expect(scanJson('[{"a":1,"a":2}]').duplicates.map((d) => d.path)).toEqual(['[0].a']);
  });

  it('replace (default) or merge repeated objects', () => {
    const text = '{"o":{"a":1,"n":{"x":1}},"o":{"b":2,"n":{"y":2}}}';
    expect(scanJson(text).value).toEqual({ o: { b: 2, n: { y: 2 } } });
    const merged = scanJson(text, { duplicateObjects: 'merge' });
    expect(merged.value).toEqual({ o: { a: 1, n: { x: 1, y: 2 }, b: 2 } });
    // Only the repeat of "o" itself: the second object is a fresh occurrence, as in Go.
    expect(merged.duplicates.map((d) => d.path)).toEqual(['o']);
  });

  it('keeps the literal of numbers JS would change', () => {
    const r = scanJson('{"a":1.0,"b":1e3,"c":12345678901234567890,"d":5,"e":-7,"f":123456789012345}', { numbers: 'literal' });
    const v = r.value as Record<string, unknown>;
    expect(v.a).toEqual(new JsonNumber('1.0', 1));
    expect((v.b as JsonNumber).raw).toBe('1e3');
    expect((v.c as JsonNumber).raw).toBe('12345678901234567890');
    expect([v.d, v.e, v.f]).toEqual([5, -7, 123456789012345]);
    expect(r.hasNumberLiterals).toBe(true);
    expect(JSON.stringify(v.a)).toBe('1');
  });

  it('__proto__ and Object.prototype names are plain keys', () => {
    const r = scanJson('{"__proto__":{"polluted":1},"constructor":1,"toString":2}');
    const v = r.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(r.duplicates).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(scanJson('{"__proto__":1,"__proto__":2}').duplicates.map((d) => d.path)).toEqual(['__proto__']);
  });

  it('invalid surrogates become U+FFFD, as in Go', () => {
    expect(scanJson('"\\ud83d\\ude00"').value).toBe('😀');
    expect(scanJson('"\\ud83d"').value).toBe('\ufffd');
    expect(scanJson('"\\ude00x"').value).toBe('\ufffdx');
    expect(scanJson('"\\ud83dx"').value).toBe('\ufffdx');
  });
});

describe('parseYamlWithDuplicates', () => {
  it('lines of repeated keys (the value line), values before their keys, last one wins', () => {
    const r = parseYamlWithDuplicates('a:\n  x: 1\n  x: 2\na: 3\nb:\n  c: 1\nb:\n  c: 2\n');
    expect(r.duplicates.map((d) => d.message)).toEqual([
      'line 3: key "x" already set in map',
      'line 4: key "a" already set in map',
      'line 8: key "b" already set in map',
    ]);
    expect(r.duplicates.map((d) => d.path)).toEqual(['a.x', 'a', 'b']);
    expect(r.value).toEqual({ a: 3, b: { c: 2 } });
  });

  it('YAML 1.1 as goyaml.v2: yes/on booleans, timestamps kept as strings, merge keys', () => {
    const r = parseYamlWithDuplicates('yes: 1\ntrue: 2\nt: 2024-01-01T00:00:00Z\ns: 1:20\no: 0777\nm:\n  <<: {k: 1, j: 0}\n  k: 2\n');
    expect(r.value).toEqual({ true: 2, t: '2024-01-01T00:00:00Z', s: '1:20', o: 511, m: { k: 2, j: 0 } });
    expect(r.duplicates.map((d) => d.message)).toEqual(['line 2: key true already set in map']);
    // A quoted "<<" is a plain key, and can be repeated.
    expect(parseYamlWithDuplicates('m:\n  <<: {k: 1}\n  "<<": 2\n  "<<": 3\n').duplicates.map((d) => d.message)).toEqual([
      'line 4: key "<<" already set in map',
    ]);
  });

  it('alias limits and depth', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
      .concat(['b', 'c', 'd', 'e', 'f'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcde'[i]}`).join(',')}]`))
      .join('\n');
    expect(() => parseYamlWithDuplicates(laughs)).toThrow('yaml: document contains excessive aliasing');
    const flow = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(() => parseYamlWithDuplicates(flow(200))).not.toThrow();
    expect(() => parseYamlWithDuplicates('- '.repeat(199) + 'x\n')).not.toThrow();
    // Deeper documents are read on the server's thread, whose stack takes 10,000 levels
    // (test/e2e/http/deep-nesting.test.ts); past that is kube's limit.
    expect(() => parseYamlWithDuplicates(flow(10_001))).toThrow(YamlDecodeError);
    expect(() => parseYamlWithDuplicates(flow(10_001))).toThrow('yaml: exceeded max depth of 10000');
  });

  it('syntax errors carry the line', () => {
    expect(() => parseYamlWithDuplicates('a: 1\nb: [1, 2\n')).toThrow(/^yaml: line \d+: /);
    expect(parseYamlWithDuplicates('').value).toBeNull();
  });
});

describe('messages around decoding', () => {
  it('interpretTypeMeta: what kube reads before decoding (encoding/json, case-insensitive)', () => {
    expect(interpretTypeMeta({ apiVersion: 'apps/v1', kind: 'StatefulSet' })).toEqual({ group: 'apps', version: 'v1', kind: 'StatefulSet' });
    expect(interpretTypeMeta({ APIVERSION: 'v1', Kind: 'Pod', kind: null })).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(interpretTypeMeta({})).toEqual({ group: '', version: '', kind: '' });
    expect(decodeError(() => interpretTypeMeta([]))).toBe(
      'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
    expect(decodeError(() => interpretTypeMeta({ kind: 1 }))).toBe(
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string",
    );
    expect(decodeError(() => interpretTypeMeta({ apiVersion: 'a/b/c' }))).toBe('unexpected GroupVersion string: a/b/c');
  });

  it('transformDecodeError shapes', () => {
    expect(cannotBeHandledMessage('StatefulSet', 'v1', 'StatefulSet', 'x')).toBe(
      'StatefulSet in version "v1" cannot be handled as a StatefulSet: x',
    );
    const body = '{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":';
    expect(unrecognizedObjectMessage('StatefulSet', jsonSyntaxCause(syntaxError(body)), body)).toBe(
      'the object provided is unrecognized (must be of type StatefulSet): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"apps/v1","kind" ...)',
    );
    expect(unrecognizedObjectMessage('StatefulSet', 'x', 'a: b')).toBe(
      'the object provided is unrecognized (must be of type StatefulSet): x (613a2062)',
    );
    expect(unrecognizedObjectMessage('StatefulSet', 'x', '')).toContain('(<empty>)');
  });
});

describe('speed (informational)', () => {
  it('decode of a ~1.2 KB StatefulSet vs JSON.parse', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'nginx', tier: 'frontend' } },
      spec: {
        serviceName: 'nginx',
        replicas: 3,
        minReadySeconds: 10,
        selector: { matchLabels: { app: 'nginx' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '25%' } },
        template: {
          metadata: { labels: { app: 'nginx', tier: 'frontend' } },
          spec: {
            terminationGracePeriodSeconds: 10,
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [
              {
                name: 'nginx',
                image: 'registry.k8s.io/nginx-slim:0.8',
                imagePullPolicy: 'IfNotPresent',
                args: ['--port', '80', '--verbose'],
                ports: [
                  { containerPort: 80, name: 'web', protocol: 'TCP' },
                  { containerPort: 443, name: 'tls', protocol: 'TCP' },
                ],
                resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
              },
              {
                name: 'sidecar',
                image: 'busybox:1.36',
                imagePullPolicy: 'Always',
                args: ['sleep', '3600'],
                resources: { requests: { cpu: '10m', memory: '16Mi' } },
              },
            ],
          },
        },
      },
    };
    const text = JSON.stringify(sts);
    expect(decodeJsonBody(text, STS, registry).strictErrors).toEqual([]);
    const time = (fn: () => unknown): number => {
      for (let i = 0; i < 10_000; i++) fn();
      let best = Infinity;
      for (let round = 0; round < 3; round++) {
        const n = 20_000;
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < n; i++) fn();
        best = Math.min(best, Number(process.hrtime.bigint() - t0) / n / 1000);
      }
      return best;
    };
    const parse = time(() => JSON.parse(text));
    const scan = time(() => scanJson(text, { numbers: 'literal', duplicateObjects: 'merge' }));
    const full = time(() => decodeJsonBody(text, STS, registry));
    const parsed = JSON.parse(text);
    const typed = time(() => decodeTyped(parsed, STS, registry));
    console.log(
      `[decode bench] ${text.length} B: JSON.parse ${parse.toFixed(2)} µs; scanJson ${scan.toFixed(2)} µs (${(scan / parse).toFixed(2)}x); ` +
        `decodeTyped ${typed.toFixed(2)} µs; scanJson+decodeTyped ${full.toFixed(2)} µs (${(full / parse).toFixed(2)}x JSON.parse)`,
    );
  });
});
