// Pods, PersistentVolumeClaims and ControllerRevisions over HTTP: create with kube's
// defaults, what an update may change, /status, deletion answers, admission effects
// (Priority, DefaultTolerationSeconds), Tables and discovery, as kube-apiserver 1.33 does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, PC, expectCode, expectFailure, expectInvalid, http, ns, pc, uniq, type HttpResult, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;
let NSA: string;

const POD = (ns: string, name = '', sub = ''): string => `/api/v1/namespaces/${ns}/pods${name ? '/' + name : ''}${sub ? '/' + sub : ''}`;
const PVC = (ns: string, name = '', sub = ''): string => `/api/v1/namespaces/${ns}/persistentvolumeclaims${name ? '/' + name : ''}${sub ? '/' + sub : ''}`;
const CR = (ns: string, name = ''): string => `/apis/apps/v1/namespaces/${ns}/controllerrevisions${name ? '/' + name : ''}`;
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('pods');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

function pod(name: string, spec: Obj = { containers: [{ name: 'web', image: 'nginx:1.27' }] }, metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec };
}

function pvc(name: string, spec: Obj = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }): Obj {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec };
}

function cr(name: string, extra: Obj = { data: { spec: { replicas: 1 } }, revision: 1 }, metadata: Obj = {}): Obj {
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, ...metadata }, ...extra };
}

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** A 422 with one Forbidden cause whose message starts with `prefix` (kube appends a spec diff). */
function expectForbiddenUpdate(r: HttpResult, field: string, prefix: string): void {
  expect(r.status, r.text).toBe(422);
  const body = r.json as Obj;
  expect(body.reason).toBe('Invalid');
  expect(body.details.causes).toHaveLength(1);
  expect(body.details.causes[0].field).toBe(field);
  expect(body.details.causes[0].reason).toBe('FieldValueForbidden');
  expect(body.details.causes[0].message.startsWith(`Forbidden: ${prefix}`), body.details.causes[0].message).toBe(true);
}

describe('Pod create and defaults', () => {
  it('fills in kube defaults, admission defaults, status Pending/BestEffort and generation 1', async () => {
    const name = uniq('p');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    expect(created.apiVersion).toBe('v1');
    expect(created.kind).toBe('Pod');
    expect(created.metadata.generation).toBe(1);
    // The ServiceAccount plugin's API access volume (its name's 5 characters are random).
    const volume = String(created.spec.volumes?.[0]?.name);
    expect(volume).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(created.spec).toEqual({
      volumes: [
        {
          name: volume,
          projected: {
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
            ],
            defaultMode: 420,
          },
        },
      ],
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          resources: {},
          volumeMounts: [{ name: volume, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
      tolerations: DEFAULT_TOLERATIONS,
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
    });
    expect(created.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    const got = expectCode(await http(k, 'GET', POD(NSA, name)), 200);
    expect(got.spec).toEqual(created.spec);
  });

  it('a status in the create body is replaced', async () => {
    const name = uniq('p');
    const body = pod(name);
    body.status = { phase: 'Running', podIP: '10.0.0.1' };
    const created = expectCode(await http(k, 'POST', POD(NSA), body), 201);
    expect(created.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('requests default to limits; qosClass is Guaranteed, Burstable or BestEffort', async () => {
    const g = expectCode(
      await http(k, 'POST', POD(NSA), pod(uniq('g'), { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '0.5', memory: '128Mi' } } }] })),
      201,
    );
    expect(g.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } });
    expect(g.spec.containers[0].imagePullPolicy).toBe('Always');
    expect(g.status.qosClass).toBe('Guaranteed');
    const b = expectCode(await http(k, 'POST', POD(NSA), pod(uniq('b'), { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' } } }] })), 201);
    expect(b.status.qosClass).toBe('Burstable');
  });

  it('an existing not-ready/unreachable toleration is kept, not duplicated', async () => {
    const tol = { operator: 'Exists' };
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(uniq('t'), { tolerations: [tol], containers: [{ name: 'c', image: 'busybox' }] })), 201);
    expect(created.spec.tolerations).toEqual([tol]);
  });

  it('priorityClassName resolves through the Priority admission plugin; an unknown class is 403', async () => {
    const pcName = uniq('pc');
    expectCode(await http(k, 'POST', PC(), pc(pcName, 1000, { preemptionPolicy: 'Never' })), 201);
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(uniq('prio'), { priorityClassName: pcName, containers: [{ name: 'c', image: 'busybox' }] })), 201);
    expect(created.spec.priority).toBe(1000);
    expect(created.spec.preemptionPolicy).toBe('Never');
    const name = uniq('noprio');
    expectFailure(await http(k, 'POST', POD(NSA), pod(name, { priorityClassName: 'nope', containers: [{ name: 'c', image: 'busybox' }] })), {
      code: 403,
      reason: 'Forbidden',
      message: `pods "${name}" is forbidden: no PriorityClass with name nope was found`,
      details: { name, kind: 'pods' },
    });
  });

  it('the pod name is a DNS subdomain', async () => {
    expectCode(await http(k, 'POST', POD(NSA), pod(`${uniq('dot')}.example`)), 201);
  });
});

describe('Pod update', () => {
  it('the image may change (generation moves); other spec fields may not', async () => {
    const name = uniq('u');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    created.spec.containers[0].image = 'nginx:1.28';
    const updated = expectCode(await http(k, 'PUT', POD(NSA, name), created), 200);
    expect(updated.spec.containers[0].image).toBe('nginx:1.28');
    expect(updated.metadata.generation).toBe(2);
    updated.spec.containers[0].name = 'renamed';
    expectForbiddenUpdate(
      await http(k, 'PUT', POD(NSA, name), updated),
      'spec',
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
    );
  });

  it('metadata-only updates keep the generation', async () => {
    const name = uniq('m');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    created.metadata.labels = { tier: 'web' };
    const updated = expectCode(await http(k, 'PUT', POD(NSA, name), created), 200);
    expect(updated.metadata.labels).toEqual({ tier: 'web' });
    expect(updated.metadata.generation).toBe(1);
  });

  it('containers may not be added or removed', async () => {
    const name = uniq('add');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    created.spec.containers.push({ name: 'side', image: 'busybox', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' });
    expectInvalid(await http(k, 'PUT', POD(NSA, name), created), {
      kind: 'Pod',
      group: '',
      name,
      message: `Pod "${name}" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers`,
      causes: [{ field: 'spec.containers', reason: 'FieldValueForbidden', message: 'Forbidden: pod updates may not add or remove containers' }],
    });
  });

  it('activeDeadlineSeconds may be set, then only lowered', async () => {
    const name = uniq('ads');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    created.spec.activeDeadlineSeconds = 100;
    const updated = expectCode(await http(k, 'PUT', POD(NSA, name), created), 200);
    updated.spec.activeDeadlineSeconds = 200;
    const msg = 'Invalid value: 200: must be less than or equal to previous value';
    expectInvalid(await http(k, 'PUT', POD(NSA, name), updated), {
      kind: 'Pod',
      group: '',
      name,
      message: `Pod "${name}" is invalid: spec.activeDeadlineSeconds: ${msg}`,
      causes: [{ field: 'spec.activeDeadlineSeconds', reason: 'FieldValueInvalid', message: msg }],
    });
  });

  it('tolerations may be added, not removed; the default ones come back (DefaultTolerationSeconds)', async () => {
    const name = uniq('tol');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    const extra = { key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' };
    created.spec.tolerations = [...created.spec.tolerations, extra];
    const updated = expectCode(await http(k, 'PUT', POD(NSA, name), created), 200);
    expect(updated.spec.tolerations).toEqual([...DEFAULT_TOLERATIONS, extra]);
    updated.spec.tolerations = [...DEFAULT_TOLERATIONS];
    expectForbiddenUpdate(await http(k, 'PUT', POD(NSA, name), updated), 'spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds');
    updated.spec.tolerations = [extra];
    const again = expectCode(await http(k, 'PUT', POD(NSA, name), updated), 200);
    expect(again.spec.tolerations).toEqual([extra, ...DEFAULT_TOLERATIONS]);
  });

  it('a PUT carries status over from the stored pod', async () => {
    const name = uniq('st');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    created.status = { phase: 'Running' };
    const updated = expectCode(await http(k, 'PUT', POD(NSA, name), created), 200);
    expect(updated.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });
});

describe('Pod /status', () => {
  it('sets status, keeps spec; qosClass is immutable', async () => {
    const name = uniq('s');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    const body = { ...created, spec: { ...created.spec, nodeName: 'elsewhere' }, status: { phase: 'Running', podIP: '10.1.2.3', podIPs: [{ ip: '10.1.2.3' }] } };
    const updated = expectCode(await http(k, 'PUT', POD(NSA, name, 'status'), body), 200);
    expect(updated.status).toEqual({ phase: 'Running', podIP: '10.1.2.3', podIPs: [{ ip: '10.1.2.3' }], qosClass: 'BestEffort' });
    expect(updated.spec.nodeName).toBeUndefined();
    updated.status.qosClass = 'Burstable';
    const msg = 'Invalid value: "Burstable": field is immutable';
    expectInvalid(await http(k, 'PUT', POD(NSA, name, 'status'), updated), {
      kind: 'Pod',
      group: '',
      name,
      message: `Pod "${name}" is invalid: status.qosClass: ${msg}`,
      causes: [{ field: 'status.qosClass', reason: 'FieldValueInvalid', message: msg }],
    });
  });

  it('podIPs must be IPs, at most one per family', async () => {
    const name = uniq('ips');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    created.status = { phase: 'Running', podIPs: [{ ip: 'not-an-ip' }] };
    const msg = 'Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
    expectInvalid(await http(k, 'PUT', POD(NSA, name, 'status'), created), {
      kind: 'Pod',
      group: '',
      name,
      message: `Pod "${name}" is invalid: status.podIPs[0].ip: ${msg}`,
      causes: [{ field: 'status.podIPs[0].ip', reason: 'FieldValueInvalid', message: msg }],
    });
  });
});

describe('Pod delete', () => {
  it('an unscheduled pod goes at once and DELETE answers the pod', async () => {
    const name = uniq('d');
    const created = expectCode(await http(k, 'POST', POD(NSA), pod(name)), 201);
    const deleted = expectCode(await http(k, 'DELETE', POD(NSA, name)), 200);
    expect(deleted.kind).toBe('Pod');
    expect(deleted.metadata.uid).toBe(created.metadata.uid);
    expectCode(await http(k, 'GET', POD(NSA, name)), 404);
  });

  it('gracePeriodSeconds=0 deletes at once', async () => {
    const name = uniq('d0');
    expectCode(await http(k, 'POST', POD(NSA), pod(name, { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] })), 201);
    expectCode(await http(k, 'DELETE', `${POD(NSA, name)}?gracePeriodSeconds=0`), 200);
    expectCode(await http(k, 'GET', POD(NSA, name)), 404);
  });
});

describe('Pod table', () => {
  it('Name, Ready, Status, Restarts, Age, then IP, Node, Nominated Node, Readiness Gates (priority 1)', async () => {
    const name = uniq('tab');
    const created = expectCode(
      await http(k, 'POST', POD(NSA), pod(name, { readinessGates: [{ conditionType: 'example.com/ready' }], containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] })),
      201,
    );
    const t = expectCode(await http(k, 'GET', POD(NSA, name), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Status', 'string', 0],
      ['Restarts', 'string', 0],
      ['Age', 'string', 0],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ]);
    expect(t.rows[0].cells).toEqual([name, '0/2', 'Pending', '0', expect.any(String), '<none>', '<none>', '<none>', '0/1']);
    const status = {
      phase: 'Running',
      podIPs: [{ ip: '10.0.0.7' }],
      conditions: [{ type: 'example.com/ready', status: 'True' }],
      containerStatuses: [
        { name: 'a', ready: true, restartCount: 0, state: { running: {} } },
        { name: 'b', ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    };
    expectCode(await http(k, 'PUT', POD(NSA, name, 'status'), { ...created, status }), 200);
    const t2 = expectCode(await http(k, 'GET', POD(NSA, name), undefined, TABLE), 200);
    expect(t2.rows[0].cells).toEqual([name, '1/2', 'CrashLoopBackOff', '2', expect.any(String), '10.0.0.7', '<none>', '<none>', '1/1']);
  });
});

describe('PersistentVolumeClaim', () => {
  it('create: volumeMode Filesystem, status Pending, canonical quantities', async () => {
    const name = uniq('c');
    const created = expectCode(await http(k, 'POST', PVC(NSA), pvc(name, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } })), 201);
    // The DefaultStorageClass admission gives a claim without a class the default one (standard).
    expect(created.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard', volumeMode: 'Filesystem' });
    expect(created.status).toEqual({ phase: 'Pending' });
    expect(created.metadata.generation).toBeUndefined();
  });

  it('accessModes and resources.requests.storage are required', async () => {
    const name = uniq('c');
    expectInvalid(await http(k, 'POST', PVC(NSA), pvc(name, {})), {
      kind: 'PersistentVolumeClaim',
      group: '',
      name,
      message: `PersistentVolumeClaim "${name}" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]`,
      causes: [
        { field: 'spec.accessModes', reason: 'FieldValueRequired', message: 'Required value: at least 1 access mode is required' },
        { field: 'spec.resources[storage]', reason: 'FieldValueRequired', message: 'Required value' },
      ],
    });
  });

  it('access modes are from the four, storage is positive', async () => {
    const name = uniq('c');
    expectInvalid(await http(k, 'POST', PVC(NSA), pvc(name, { accessModes: ['ReadWriteSometimes'], resources: { requests: { storage: '0' } } })), {
      kind: 'PersistentVolumeClaim',
      group: '',
      name,
      message: `PersistentVolumeClaim "${name}" is invalid: [spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.resources[storage]: Invalid value: "0": must be greater than zero]`,
      causes: [
        {
          field: 'spec.accessModes',
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
        },
        { field: 'spec.resources[storage]', reason: 'FieldValueInvalid', message: 'Invalid value: "0": must be greater than zero' },
      ],
    });
  });

  it('volumeAttributesClassName is dropped (VolumeAttributesClass is off in 1.33)', async () => {
    const name = uniq('c');
    const body = pvc(name);
    body.spec.volumeAttributesClassName = 'gold';
    const created = expectCode(await http(k, 'POST', PVC(NSA), body), 201);
    expect(created.spec.volumeAttributesClassName).toBeUndefined();
  });

  it('the spec is immutable except volumeName once and, for bound claims, resources.requests', async () => {
    const name = uniq('c');
    const created = expectCode(await http(k, 'POST', PVC(NSA), pvc(name)), 201);
    const grown = structuredClone(created);
    grown.spec.resources.requests.storage = '2Gi';
    expectForbiddenUpdate(
      await http(k, 'PUT', PVC(NSA, name), grown),
      'spec',
      'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n',
    );
    created.spec.volumeName = 'pv-1';
    const bound = expectCode(await http(k, 'PUT', PVC(NSA, name), created), 200);
    expect(bound.spec.volumeName).toBe('pv-1');
    bound.status = { phase: 'Bound', accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], capacity: { storage: '1Gi' } };
    const withStatus = expectCode(await http(k, 'PUT', PVC(NSA, name, 'status'), bound), 200);
    expect(withStatus.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], capacity: { storage: '1Gi' } });
    withStatus.spec.resources.requests.storage = '2Gi';
    const expanded = expectCode(await http(k, 'PUT', PVC(NSA, name), withStatus), 200);
    expect(expanded.spec.resources.requests.storage).toBe('2Gi');
    expanded.spec.resources.requests.storage = '1Gi';
    expectForbiddenUpdate(await http(k, 'PUT', PVC(NSA, name), expanded), 'spec.resources.requests.storage', 'field can not be less than status.capacity');

    const t = expectCode(await http(k, 'GET', PVC(NSA, name), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Status', 0],
      ['Volume', 0],
      ['Capacity', 0],
      ['Access Modes', 0],
      ['StorageClass', 0],
      ['VolumeAttributesClass', 0],
      ['Age', 0],
      ['VolumeMode', 1],
    ]);
    expect(t.rows[0].cells).toEqual([name, 'Bound', 'pv-1', '1Gi', 'RWO,ROX', 'standard', '<unset>', expect.any(String), 'Filesystem']);
  });

  it('an unbound claim prints no capacity or access modes; DELETE answers the claim', async () => {
    const name = uniq('c');
    const body = pvc(name);
    body.spec.storageClassName = 'fast';
    expectCode(await http(k, 'POST', PVC(NSA), body), 201);
    const t = expectCode(await http(k, 'GET', PVC(NSA, name), undefined, TABLE), 200);
    expect(t.rows[0].cells).toEqual([name, 'Pending', '', '', '', 'fast', '<unset>', expect.any(String), 'Filesystem']);
    const deleted = expectCode(await http(k, 'DELETE', PVC(NSA, name)), 200);
    expect(deleted.kind).toBe('PersistentVolumeClaim');
  });
});

describe('ControllerRevision', () => {
  it('create, Table with the controller, data immutable, revision may change', async () => {
    const name = uniq('r');
    const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: '00000000-0000-0000-0000-000000000001', controller: true };
    const created = expectCode(await http(k, 'POST', CR(NSA), cr(name, { data: { spec: { replicas: 1 } }, revision: 3 }, { ownerReferences: [owner] })), 201);
    expect(created.data).toEqual({ spec: { replicas: 1 } });
    expect(created.revision).toBe(3);
    expect(created.metadata.generation).toBeUndefined();
    const t = expectCode(await http(k, 'GET', CR(NSA, name), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Controller', 'string'],
      ['Revision', 'string'],
      ['Age', 'string'],
    ]);
    expect(t.rows[0].cells).toEqual([name, 'statefulset.apps/web', 3, expect.any(String)]);

    created.revision = 4;
    const updated = expectCode(await http(k, 'PUT', CR(NSA, name), created), 200);
    expect(updated.revision).toBe(4);
    updated.data = { spec: { replicas: 2 } };
    const r = await http(k, 'PUT', CR(NSA, name), updated);
    expect(r.status).toBe(422);
    expect((r.json as Obj).details.causes).toEqual([{ field: 'data', reason: 'FieldValueInvalid', message: expect.stringMatching(/: field is immutable$/) }]);
  });

  it('data is mandatory and revision non-negative; no controller prints <none>', async () => {
    const name = uniq('r');
    expectInvalid(await http(k, 'POST', CR(NSA), cr(name, { revision: -1 })), {
      kind: 'ControllerRevision',
      group: 'apps',
      name,
      message: `ControllerRevision.apps "${name}" is invalid: [revision: Invalid value: -1: must be greater than or equal to 0, data: Required value: data is mandatory]`,
      causes: [
        { field: 'data', reason: 'FieldValueRequired', message: 'Required value: data is mandatory' },
        { field: 'revision', reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0' },
      ],
    });
    const plain = uniq('r');
    const created = expectCode(await http(k, 'POST', CR(NSA), cr(plain, { data: {} })), 201);
    expect(created.revision).toBe(0);
    const t = expectCode(await http(k, 'GET', CR(NSA, plain), undefined, TABLE), 200);
    expect(t.rows[0].cells.slice(0, 3)).toEqual([plain, '<none>', 0]);
    const deleted = expectCode(await http(k, 'DELETE', CR(NSA, plain)), 200);
    expect(deleted.kind).toBe('Status');
  });
});

describe('discovery', () => {
  it('pods (po, category all), persistentvolumeclaims (pvc), apps/v1 controllerrevisions', async () => {
    const core = expectCode(await http(k, 'GET', '/api/v1'), 200);
    const byName = (list: Obj[], n: string): Obj | undefined => list.find((r) => r.name === n);
    const pods = byName(core.resources, 'pods')!;
    expect(pods).toMatchObject({ kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'], singularName: 'pod' });
    expect(byName(core.resources, 'pods/status')).toMatchObject({ kind: 'Pod' });
    const claims = byName(core.resources, 'persistentvolumeclaims')!;
    expect(claims).toMatchObject({ kind: 'PersistentVolumeClaim', shortNames: ['pvc'] });
    expect(claims.categories).toBeUndefined();
    const apps = expectCode(await http(k, 'GET', '/apis/apps/v1'), 200);
    const revs = byName(apps.resources, 'controllerrevisions')!;
    expect(revs).toMatchObject({ kind: 'ControllerRevision', namespaced: true });
    expect(revs.shortNames).toBeUndefined();
    expect(byName(apps.resources, 'controllerrevisions/status')).toBeUndefined();
  });
});
