// Pod spec and pod template validation, worded as kube-apiserver 1.33 words it.
//
// kube 1.33 does not validate a StatefulSet's pod template beyond its labels and
// annotations (ValidatePodTemplateSpecForStatefulSet leaves ValidatePodSpec as a TODO; the
// controller's pod creation is where a bad template fails), so the pod spec rules are
// exercised here through POSTs of Pods, each with one accepted and one rejected case, and
// the template form (paths under spec.template) through validatePodTemplateSpec directly.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { DNS1123_LABEL_MSG, NS, QUALIFIED_NAME_MSG, STS, expectCode, expectInvalid, http, ns, sts, uniq, type KapiProcess, type Obj } from './helpers.js';
import { validatePodTemplateSpec } from '../../../src/registry/core/pods/pod-spec.js';

let k: KapiProcess;
let NSA: string;

const POD = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/pods${name ? '/' + name : ''}`;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('podval');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

const container = (extra: Obj = {}): Obj => ({ name: 'c', image: 'nginx:1.27', ...extra });

function pod(name: string, spec: Obj, metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec };
}

type Cause = [field: string, reason: string, message: string];

async function accepted(spec: Obj, metadata: Obj = {}): Promise<Obj> {
  const name = uniq('ok');
  return expectCode(await http(k, 'POST', POD(NSA), pod(name, spec, metadata)), 201);
}

async function rejected(spec: Obj, causes: Cause[], metadata: Obj = {}): Promise<void> {
  const name = uniq('bad');
  const texts = causes.map(([f, , m]) => `${f}: ${m}`);
  expectInvalid(await http(k, 'POST', POD(NSA), pod(name, spec, metadata)), {
    kind: 'Pod',
    group: '',
    name,
    message: `Pod "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`,
    causes: causes.map(([field, reason, message]) => ({ field, reason, message })),
  });
}

const C0 = 'spec.containers[0]';

describe('containers', () => {
  it('at least one container is required', async () => {
    await accepted({ containers: [container()] });
    await rejected({ containers: [] }, [['spec.containers', 'FieldValueRequired', 'Required value']]);
  });

  it('container names are DNS-1123 labels', async () => {
    await accepted({ containers: [container({ name: 'web-1' })] });
    await rejected({ containers: [container({ name: 'Web_1' })] }, [[`${C0}.name`, 'FieldValueInvalid', `Invalid value: "Web_1": ${DNS1123_LABEL_MSG}`]]);
  });

  it('container names are unique', async () => {
    await accepted({ containers: [container({ name: 'a' }), container({ name: 'b' })] });
    await rejected({ containers: [container({ name: 'a' }), container({ name: 'a' })] }, [
      ['spec.containers[1].name', 'FieldValueDuplicate', 'Duplicate value: "a"'],
    ]);
  });

  it('a container needs an image', async () => {
    await rejected({ containers: [{ name: 'c' }] }, [[`${C0}.image`, 'FieldValueRequired', 'Required value']]);
  });

  it('imagePullPolicy is one of Always, IfNotPresent, Never', async () => {
    await accepted({ containers: [container({ imagePullPolicy: 'Never' })] });
    await rejected({ containers: [container({ imagePullPolicy: 'Sometimes' })] }, [
      [`${C0}.imagePullPolicy`, 'FieldValueNotSupported', 'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
    ]);
  });

  it('terminationMessagePolicy is File or FallbackToLogsOnError', async () => {
    await accepted({ containers: [container({ terminationMessagePolicy: 'FallbackToLogsOnError' })] });
    await rejected({ containers: [container({ terminationMessagePolicy: 'Always' })] }, [
      [`${C0}.terminationMessagePolicy`, 'FieldValueNotSupported', 'Unsupported value: "Always": supported values: "File", "FallbackToLogsOnError"'],
    ]);
  });

  it('an image with surrounding whitespace is refused for pods', async () => {
    await rejected({ containers: [container({ image: ' nginx' })] }, [
      [`${C0}.image`, 'FieldValueInvalid', 'Invalid value: " nginx": must not have leading or trailing whitespace'],
    ]);
  });

  it('restartPolicy may only be set on init containers', async () => {
    await accepted({ containers: [container()], initContainers: [container({ name: 'side', restartPolicy: 'Always' })] });
    await rejected({ containers: [container({ restartPolicy: 'Always' })] }, [
      [`${C0}.restartPolicy`, 'FieldValueForbidden', 'Forbidden: may not be set for non-init containers'],
    ]);
  });

  it('init containers without restartPolicy=Always may not have probes; their names must not collide', async () => {
    await rejected(
      {
        containers: [container()],
        initContainers: [container({ name: 'c', readinessProbe: { exec: { command: ['true'] } } })],
      },
      [
        ['spec.initContainers[0].name', 'FieldValueDuplicate', 'Duplicate value: "c"'],
        ['spec.initContainers[0].readinessProbe', 'FieldValueForbidden', 'Forbidden: may not be set for init containers without restartPolicy=Always'],
      ],
    );
  });
});

describe('ports', () => {
  it('containerPort is required and between 1 and 65535', async () => {
    await accepted({ containers: [container({ ports: [{ containerPort: 8080 }] })] });
    await rejected({ containers: [container({ ports: [{ containerPort: 70000 }] })] }, [
      [`${C0}.ports[0].containerPort`, 'FieldValueInvalid', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ]);
    await rejected({ containers: [container({ ports: [{ name: 'http' }] })] }, [[`${C0}.ports[0].containerPort`, 'FieldValueRequired', 'Required value']]);
  });

  it('hostPort, when set, is between 1 and 65535', async () => {
    await accepted({ containers: [container({ ports: [{ containerPort: 80, hostPort: 8080 }] })] });
    await rejected({ containers: [container({ ports: [{ containerPort: 80, hostPort: 65536 }] })] }, [
      [`${C0}.ports[0].hostPort`, 'FieldValueInvalid', 'Invalid value: 65536: must be between 1 and 65535, inclusive'],
    ]);
  });

  it('port names are IANA service names, unique within the container', async () => {
    await accepted({ containers: [container({ ports: [{ name: 'http', containerPort: 80 }, { name: 'metrics-2', containerPort: 9090 }] })] });
    await rejected({ containers: [container({ ports: [{ name: 'HTTP', containerPort: 80 }] })] }, [
      [`${C0}.ports[0].name`, 'FieldValueInvalid', 'Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
      [`${C0}.ports[0].name`, 'FieldValueInvalid', 'Invalid value: "HTTP": must contain at least one letter (a-z)'],
    ]);
    await rejected({ containers: [container({ ports: [{ name: 'a-very-long-port-name', containerPort: 80 }] })] }, [
      [`${C0}.ports[0].name`, 'FieldValueInvalid', 'Invalid value: "a-very-long-port-name": must be no more than 15 characters'],
    ]);
    await rejected({ containers: [container({ ports: [{ name: 'web', containerPort: 80 }, { name: 'web', containerPort: 81 }] })] }, [
      [`${C0}.ports[1].name`, 'FieldValueDuplicate', 'Duplicate value: "web"'],
    ]);
  });

  it('protocol is TCP, UDP or SCTP', async () => {
    await accepted({ containers: [container({ ports: [{ containerPort: 53, protocol: 'UDP' }] })] });
    await rejected({ containers: [container({ ports: [{ containerPort: 80, protocol: 'HTTP' }] })] }, [
      [`${C0}.ports[0].protocol`, 'FieldValueNotSupported', 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'],
    ]);
  });

  it('host ports may not collide across containers', async () => {
    await accepted({ containers: [container({ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }] }), container({ name: 'b', ports: [{ containerPort: 80, hostPort: 8081 }] })] });
    await rejected(
      { containers: [container({ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }] }), container({ name: 'b', ports: [{ containerPort: 81, hostPort: 8080 }] })] },
      [['spec.containers[1].ports[0].hostPort', 'FieldValueDuplicate', 'Duplicate value: "TCP//8080"']],
    );
  });

  it('with hostNetwork, a pod host port must equal its container port (and defaults to it)', async () => {
    const created = await accepted({ hostNetwork: true, containers: [container({ ports: [{ containerPort: 8080 }] })] });
    expect(created.spec.containers[0].ports[0]).toEqual({ containerPort: 8080, hostPort: 8080, protocol: 'TCP' });
    await rejected({ hostNetwork: true, containers: [container({ ports: [{ containerPort: 8080, hostPort: 9090 }] })] }, [
      [`${C0}.ports[0].hostPort`, 'FieldValueInvalid', 'Invalid value: 9090: must match `containerPort` when `hostNetwork` is true'],
    ]);
  });
});

describe('env', () => {
  it('names are relaxed in 1.33: any printable ASCII but "="', async () => {
    await accepted({ containers: [container({ env: [{ name: '1-weird.name with spaces', value: 'x' }] })] });
    await rejected({ containers: [container({ env: [{ name: 'A=B', value: 'x' }] })] }, [
      [`${C0}.env[0].name`, 'FieldValueInvalid', 'Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\''],
    ]);
    await rejected({ containers: [container({ env: [{ value: 'x' }] })] }, [[`${C0}.env[0].name`, 'FieldValueRequired', 'Required value']]);
  });

  it('valueFrom takes exactly one source and excludes value', async () => {
    await accepted({ containers: [container({ env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] })] });
    await rejected({ containers: [container({ env: [{ name: 'POD', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] })] }, [
      [`${C0}.env[0].valueFrom`, 'FieldValueInvalid', 'Invalid value: "": may not be specified when `value` is not empty'],
    ]);
    await rejected(
      {
        containers: [
          container({
            env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }],
          }),
        ],
      },
      [[`${C0}.env[0].valueFrom`, 'FieldValueInvalid', 'Invalid value: "": may not have more than one field specified at a time']],
    );
    await rejected({ containers: [container({ env: [{ name: 'POD', valueFrom: {} }] })] }, [
      [`${C0}.env[0].valueFrom`, 'FieldValueInvalid', 'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'],
    ]);
  });

  it('fieldRef paths are the downward API ones (apiVersion defaults to v1)', async () => {
    const created = await accepted({ containers: [container({ env: [{ name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] })] });
    expect(created.spec.containers[0].env[0].valueFrom.fieldRef).toEqual({ apiVersion: 'v1', fieldPath: 'status.podIP' });
    await rejected({ containers: [container({ env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }] })] }, [
      [
        `${C0}.env[0].valueFrom.fieldRef.fieldPath`,
        'FieldValueNotSupported',
        'Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      ],
    ]);
    await rejected({ containers: [container({ env: [{ name: 'P', valueFrom: { fieldRef: { fieldPath: 'metadata.foo' } } }] })] }, [
      [`${C0}.env[0].valueFrom.fieldRef.fieldPath`, 'FieldValueInvalid', 'Invalid value: "metadata.foo": error converting fieldPath: field label not supported: metadata.foo'],
    ]);
  });
});

describe('resources', () => {
  it('quantities may not be negative (requests default to limits)', async () => {
    await accepted({ containers: [container({ resources: { limits: { cpu: '1' } } })] });
    await rejected({ containers: [container({ resources: { requests: { cpu: '-1' } } })] }, [
      [`${C0}.resources.requests[cpu]`, 'FieldValueInvalid', 'Invalid value: "-1": must be greater than or equal to 0'],
    ]);
    await rejected({ containers: [container({ resources: { limits: { cpu: '-1' } } })] }, [
      [`${C0}.resources.limits[cpu]`, 'FieldValueInvalid', 'Invalid value: "-1": must be greater than or equal to 0'],
      [`${C0}.resources.requests[cpu]`, 'FieldValueInvalid', 'Invalid value: "-1": must be greater than or equal to 0'],
    ]);
  });

  it('requests may not exceed limits', async () => {
    await accepted({ containers: [container({ resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } })] });
    await rejected({ containers: [container({ resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } } })] }, [
      [`${C0}.resources.requests`, 'FieldValueInvalid', 'Invalid value: "2": must be less than or equal to cpu limit of 1500m'],
    ]);
  });

  it('extended resources need a limit equal to the request', async () => {
    await accepted({ containers: [container({ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } })] });
    await rejected({ containers: [container({ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } } })] }, [
      [`${C0}.resources.requests`, 'FieldValueInvalid', 'Invalid value: "1": must be equal to example.com/gpu limit of 2'],
    ]);
  });

  it('resource names are standard or fully qualified (Go prints the name bare; requests default to limits)', async () => {
    await rejected({ containers: [container({ resources: { limits: { gpu: '1' } } })] }, [
      [`${C0}.resources.limits[gpu]`, 'FieldValueInvalid', 'Invalid value: gpu: must be a standard resource type or fully qualified'],
      [`${C0}.resources.limits[gpu]`, 'FieldValueInvalid', 'Invalid value: gpu: must be a standard resource for containers'],
      [`${C0}.resources.requests[gpu]`, 'FieldValueInvalid', 'Invalid value: gpu: must be a standard resource type or fully qualified'],
      [`${C0}.resources.requests[gpu]`, 'FieldValueInvalid', 'Invalid value: gpu: must be a standard resource for containers'],
    ]);
  });
});

describe('volumes and mounts', () => {
  it('a mount must name a volume of the pod (Not found)', async () => {
    await accepted({ volumes: [{ name: 'data', emptyDir: {} }], containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] });
    await rejected({ containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] }, [
      [`${C0}.volumeMounts[0].name`, 'FieldValueNotFound', 'Not found: "data"'],
    ]);
  });

  it('mountPath is required and unique within a container', async () => {
    const volumes = [
      { name: 'a', emptyDir: {} },
      { name: 'b', emptyDir: {} },
    ];
    await rejected({ volumes, containers: [container({ volumeMounts: [{ name: 'a' }] })] }, [[`${C0}.volumeMounts[0].mountPath`, 'FieldValueRequired', 'Required value']]);
    await rejected(
      {
        volumes,
        containers: [
          container({
            volumeMounts: [
              { name: 'a', mountPath: '/x' },
              { name: 'b', mountPath: '/x' },
            ],
          }),
        ],
      },
      [[`${C0}.volumeMounts[1].mountPath`, 'FieldValueInvalid', 'Invalid value: "/x": must be unique']],
    );
  });

  it('volume names are DNS labels and unique', async () => {
    await rejected({ volumes: [{ name: 'Data', emptyDir: {} }], containers: [container()] }, [
      ['spec.volumes[0].name', 'FieldValueInvalid', `Invalid value: "Data": ${DNS1123_LABEL_MSG}`],
    ]);
    await rejected(
      {
        volumes: [
          { name: 'v', emptyDir: {} },
          { name: 'v', emptyDir: {} },
        ],
        containers: [container()],
      },
      [['spec.volumes[1].name', 'FieldValueDuplicate', 'Duplicate value: "v"']],
    );
  });

  it('a volume has exactly one source (none defaults to emptyDir)', async () => {
    // (No API access volume from the ServiceAccount plugin beside it.)
    const created = await accepted({ automountServiceAccountToken: false, volumes: [{ name: 'scratch' }], containers: [container()] });
    expect(created.spec.volumes).toEqual([{ name: 'scratch', emptyDir: {} }]);
    await rejected({ volumes: [{ name: 'v', emptyDir: {}, configMap: { name: 'cm' } }], containers: [container()] }, [
      ['spec.volumes[0].configMap', 'FieldValueForbidden', 'Forbidden: may not specify more than 1 volume type'],
    ]);
  });

  it('source fields are checked (secretName required, defaultMode in range)', async () => {
    const created = await accepted({ volumes: [{ name: 's', secret: { secretName: 'tls' } }], containers: [container()] });
    expect(created.spec.volumes[0].secret).toEqual({ secretName: 'tls', defaultMode: 420 });
    await rejected({ volumes: [{ name: 's', secret: { defaultMode: 1000 } }], containers: [container()] }, [
      ['spec.volumes[0].secret.secretName', 'FieldValueRequired', 'Required value'],
      ['spec.volumes[0].secret.defaultMode', 'FieldValueInvalid', 'Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive'],
    ]);
  });
});

describe('probes', () => {
  it('exactly one handler', async () => {
    const created = await accepted({ containers: [container({ livenessProbe: { httpGet: { port: 8080 } } })] });
    expect(created.spec.containers[0].livenessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    await rejected({ containers: [container({ livenessProbe: { httpGet: { port: 80 }, tcpSocket: { port: 80 } } })] }, [
      [`${C0}.livenessProbe.tcpSocket`, 'FieldValueForbidden', 'Forbidden: may not specify more than 1 handler type'],
    ]);
    await rejected({ containers: [container({ readinessProbe: { periodSeconds: 5 } })] }, [
      [`${C0}.readinessProbe`, 'FieldValueRequired', 'Required value: must specify a handler type'],
    ]);
  });

  it('periods are non-negative; liveness successThreshold is 1; readiness has no terminationGracePeriodSeconds', async () => {
    await rejected({ containers: [container({ livenessProbe: { exec: { command: ['true'] }, periodSeconds: -1, successThreshold: 2 } })] }, [
      [`${C0}.livenessProbe.periodSeconds`, 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0'],
      [`${C0}.livenessProbe.successThreshold`, 'FieldValueInvalid', 'Invalid value: 2: must be 1'],
    ]);
    await rejected({ containers: [container({ readinessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 } })] }, [
      [`${C0}.readinessProbe.terminationGracePeriodSeconds`, 'FieldValueInvalid', 'Invalid value: 5: must not be set for readinessProbes'],
    ]);
  });

  it('a named port must be an IANA service name', async () => {
    await accepted({ containers: [container({ ports: [{ name: 'http', containerPort: 80 }], readinessProbe: { tcpSocket: { port: 'http' } } })] });
    await rejected({ containers: [container({ readinessProbe: { tcpSocket: { port: '8080' } } })] }, [
      [`${C0}.readinessProbe.tcpSocket.port`, 'FieldValueInvalid', 'Invalid value: "8080": must contain at least one letter (a-z)'],
    ]);
  });
});

describe('pod-level fields', () => {
  it('restartPolicy is Always, OnFailure or Never', async () => {
    await accepted({ restartPolicy: 'Never', containers: [container()] });
    await rejected({ restartPolicy: 'Sometimes', containers: [container()] }, [
      ['spec.restartPolicy', 'FieldValueNotSupported', 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
    ]);
  });

  it('dnsPolicy is one of the four policies; None needs dnsConfig', async () => {
    await accepted({ dnsPolicy: 'None', dnsConfig: { nameservers: ['10.0.0.10'] }, containers: [container()] });
    await rejected({ dnsPolicy: 'Cluster', containers: [container()] }, [
      ['spec.dnsPolicy', 'FieldValueNotSupported', 'Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"'],
    ]);
    await rejected({ dnsPolicy: 'None', containers: [container()] }, [['spec.dnsConfig', 'FieldValueRequired', 'Required value: must provide `dnsConfig` when `dnsPolicy` is None']]);
  });

  it('terminationGracePeriodSeconds is not range-checked by kube: a negative value becomes 1 (kube\'s Pod conversion)', async () => {
    const created = await accepted({ terminationGracePeriodSeconds: -5, containers: [container()] });
    expect(created.spec.terminationGracePeriodSeconds).toBe(1);
  });

  it('activeDeadlineSeconds is between 1 and 2147483647', async () => {
    await accepted({ activeDeadlineSeconds: 60, containers: [container()] });
    await rejected({ activeDeadlineSeconds: 0, containers: [container()] }, [
      ['spec.activeDeadlineSeconds', 'FieldValueInvalid', 'Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ]);
  });

  it('nodeSelector keys and values are label keys and values', async () => {
    await accepted({ nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [container()] });
    await rejected({ nodeSelector: { 'bad key': 'linux' }, containers: [container()] }, [['spec.nodeSelector', 'FieldValueInvalid', `Invalid value: "bad key": ${QUALIFIED_NAME_MSG}`]]);
  });

  it('tolerations: operator Equal/Exists, effect enum, tolerationSeconds only with NoExecute', async () => {
    await accepted({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }], containers: [container()] });
    await rejected({ tolerations: [{ key: 'k', operator: 'In', effect: 'NoSchedule' }], containers: [container()] }, [
      ['spec.tolerations[0].operator', 'FieldValueNotSupported', 'Unsupported value: "In": supported values: "Equal", "Exists"'],
    ]);
    await rejected({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'Never' }], containers: [container()] }, [
      ['spec.tolerations[0].effect', 'FieldValueNotSupported', 'Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'],
    ]);
    await rejected({ tolerations: [{ operator: 'Equal', effect: 'NoSchedule', tolerationSeconds: 5 }], containers: [container()] }, [
      ['spec.tolerations[0].operator', 'FieldValueInvalid', 'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"'],
      ['spec.tolerations[0].effect', 'FieldValueInvalid', 'Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set'],
    ]);
  });

  it('hostname and subdomain are DNS labels', async () => {
    await accepted({ hostname: 'web-0', subdomain: 'web', containers: [container()] });
    await rejected({ hostname: 'Web.0', containers: [container()] }, [['spec.hostname', 'FieldValueInvalid', `Invalid value: "Web.0": ${DNS1123_LABEL_MSG}`]]);
  });

  it('securityContext ids are 0..2147483647 (IsValidUserID, as kube 1.33 answers); procMount needs hostUsers=false for Unmasked', async () => {
    await accepted({ securityContext: { runAsUser: 1000, fsGroup: 2000 }, containers: [container({ securityContext: { runAsGroup: 3000 } })] });
    await rejected({ securityContext: { fsGroup: -1 }, containers: [container({ securityContext: { runAsUser: -1 } })] }, [
      [`${C0}.securityContext.runAsUser`, 'FieldValueInvalid', 'Invalid value: -1: must be between 0 and 2147483647, inclusive'],
      ['spec.securityContext.fsGroup', 'FieldValueInvalid', 'Invalid value: -1: must be between 0 and 2147483647, inclusive'],
    ]);
    await rejected({ containers: [container({ securityContext: { procMount: 'Unmasked' } })] }, [
      [`${C0}.securityContext.procMount`, 'FieldValueInvalid', 'Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`'],
    ]);
  });

  it('the pod-deletion-cost annotation is a 32-bit integer', async () => {
    await accepted({ containers: [container()] }, { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } });
    await rejected({ containers: [container()] }, [
      ['metadata.annotations[controller.kubernetes.io/pod-deletion-cost]', 'FieldValueInvalid', 'Invalid value: "010": must be a 32bit integer'],
    ], { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '010' } });
  });
});

describe('pod templates (validatePodTemplateSpec)', () => {
  it('paths are under the template: spec.template.spec..., labels at spec.template.labels', () => {
    const errs = validatePodTemplateSpec(
      {
        metadata: { labels: { 'bad key': 'x' } },
        spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, containers: [{ name: 'c', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }] },
      },
      'spec.template',
    );
    expect(errs.map((e) => [e.field, e.type])).toEqual([
      ['spec.template.labels', 'FieldValueInvalid'],
      ['spec.template.spec.containers[0].image', 'FieldValueRequired'],
    ]);
  });

  it('a template may not carry ephemeral containers; surrounding whitespace in images is only refused for pods', () => {
    const spec = {
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'c', image: ' nginx', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
      ephemeralContainers: [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }],
    };
    const errs = validatePodTemplateSpec({ spec }, 'spec.template');
    expect(errs).toEqual([{ type: 'FieldValueForbidden', field: 'spec.template.spec.ephemeralContainers', detail: 'ephemeral containers not allowed in pod template' }]);
  });
});

describe('StatefulSet templates', () => {
  // kube 1.33 leaves a StatefulSet's pod spec and claim templates unchecked, and so does
  // kapi; the template's metadata (labels, annotations) is checked.
  it('a StatefulSet template is not validated as a pod template (kube 1.33 checks only labels, restartPolicy, deadline)', async () => {
    const name = uniq('lax');
    const body = sts(name);
    body.spec.template.spec.containers = [{ name: 'Bad_Name', image: 'nginx', volumeMounts: [{ name: 'nowhere', mountPath: '/x' }] }];
    body.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } }];
    const created = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(created.spec.template.spec.containers[0].name).toBe('Bad_Name');
    const empty = sts(uniq('lax'));
    empty.spec.template.spec.containers = [];
    expectCode(await http(k, 'POST', STS(NSA), empty), 201);
    const restart = sts(uniq('lax'));
    restart.spec.template.spec.restartPolicy = 'Never';
    const r = await http(k, 'POST', STS(NSA), restart);
    expect(r.status, r.text).toBe(422);
    expect(r.text).toContain('spec.template.spec.restartPolicy: Unsupported value: \\"Never\\": supported values: \\"Always\\"');
  });

  it('a claim template mounted by a container is a volume of the template', async () => {
    const name = uniq('claims');
    const body = sts(name);
    body.spec.template.spec.containers = [{ name: 'c', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/data' }] }];
    body.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const created = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    expect(created.spec.volumeClaimTemplates[0]).toMatchObject({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' } });
  });

  it('template defaults include the probe defaults and canonical quantities', async () => {
    const name = uniq('tdef');
    const body = sts(name);
    body.spec.template.spec.containers[0].readinessProbe = { tcpSocket: { port: 80 } };
    body.spec.template.spec.containers[0].resources = { requests: { memory: '1024Mi', cpu: '0.5' } };
    const created = expectCode(await http(k, 'POST', STS(NSA), body), 201);
    const c = created.spec.template.spec.containers[0];
    expect(c.readinessProbe).toEqual({ tcpSocket: { port: 80 }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.resources).toEqual({ requests: { memory: '1Gi', cpu: '500m' } });
  });

  it('the template annotations follow the pod annotation rules (spec.template.annotations[...])', async () => {
    const name = uniq('tann');
    const body = sts(name);
    body.spec.template.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': 'lots' };
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "lots": must be a 32bit integer`,
      causes: [
        {
          field: 'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]',
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "lots": must be a 32bit integer',
        },
      ],
    });
    body.spec.template.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/other': 'runtime/default' };
    const detail = 'Invalid value: "other": container not found';
    expectInvalid(await http(k, 'POST', STS(NSA), body), {
      kind: 'StatefulSet',
      group: 'apps',
      name,
      message: `StatefulSet.apps "${name}" is invalid: spec.template.annotations[container.apparmor.security.beta.kubernetes.io/other]: ${detail}`,
      causes: [{ field: 'spec.template.annotations[container.apparmor.security.beta.kubernetes.io/other]', reason: 'FieldValueInvalid', message: detail }],
    });
  });
});
