// The other kinds the controllers' workflow uses, over HTTP: nodes, events (core/v1 and
// events.k8s.io/v1 over the same objects), persistent volumes, storage classes (the default
// class and the DefaultStorageClass admission), IP addresses, pods/binding and the pod status
// fields agents write. Expected answers were recorded from kube-apiserver v1.33.13.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { WatchStream, expectCode, expectFailure, expectInvalid, http, uniq, MERGE, type Obj } from './helpers.js';

let k: KapiProcess;
const NODES = (name = ''): string => `/api/v1/nodes${name ? '/' + name : ''}`;
const EV = (ns: string, name = ''): string => `/api/v1/namespaces/${ns}/events${name ? '/' + name : ''}`;
const EV1 = (ns: string, name = ''): string => `/apis/events.k8s.io/v1/namespaces/${ns}/events${name ? '/' + name : ''}`;
const PV = (name = ''): string => `/api/v1/persistentvolumes${name ? '/' + name : ''}`;
const SC = (name = ''): string => `/apis/storage.k8s.io/v1/storageclasses${name ? '/' + name : ''}`;
const IP = (name = ''): string => `/apis/networking.k8s.io/v1/ipaddresses${name ? '/' + name : ''}`;
const PODS = (name = ''): string => `/api/v1/namespaces/default/pods${name ? '/' + name : ''}`;
const PVC = (name = ''): string => `/api/v1/namespaces/default/persistentvolumeclaims${name ? '/' + name : ''}`;
const TABLE = { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' };

const msg = (r: { json: unknown }): string => String((r.json as Obj).message);

beforeAll(async () => {
  k = await startKapi();
});

afterAll(() => stopKapi(k));

describe('nodes', () => {
  it('create keeps the status, adds the not-ready taint, defaults allocatable and syncs podCIDR', async () => {
    const name = uniq('n');
    const created = expectCode(
      await http(k, 'POST', NODES(), {
        metadata: { name, labels: { 'node-role.kubernetes.io/control-plane': '' } },
        spec: { podCIDRs: ['10.244.0.0/24'] },
        status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' }, addresses: [{ type: 'InternalIP', address: '10.0.0.5' }], nodeInfo: { kubeletVersion: 'v1.33.0' } },
      }),
      201,
    );
    expect(created.spec).toEqual({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    expect(created.status.allocatable).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
    // Go writes the non-omitempty structs of the status.
    expect(created.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(created.status.nodeInfo.machineID).toBe('');
    // The taint came from admission, after the field manager: not the client's field.
    expect(JSON.stringify(created.metadata.managedFields)).not.toContain('taints');
    // A later update of the node keeps its status; /status keeps its spec.
    const cordoned = expectCode(await http(k, 'PATCH', NODES(name), { spec: { unschedulable: true }, status: { capacity: { cpu: '1' } } }, MERGE), 200);
    expect(cordoned.spec.unschedulable).toBe(true);
    expect(cordoned.status.capacity.cpu).toBe('4');
    const st = expectCode(
      await http(k, 'PATCH', NODES(`${name}/status`), { spec: { unschedulable: false }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ok' }] } }, MERGE),
      200,
    );
    expect(st.spec.unschedulable).toBe(true);
    expect(st.status.conditions[0].type).toBe('Ready');
    const t = expectCode(await http(k, 'GET', NODES(name), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Status', 0],
      ['Roles', 0],
      ['Age', 0],
      ['Version', 0],
      ['Internal-IP', 1],
      ['External-IP', 1],
      ['OS-Image', 1],
      ['Kernel-Version', 1],
      ['Container-Runtime', 1],
    ]);
    expect(t.rows[0].cells).toEqual([name, 'Ready,SchedulingDisabled', 'control-plane', expect.any(String), 'v1.33.0', '10.0.0.5', '<none>', '<unknown>', '<unknown>', '<unknown>']);
    const sel = expectCode(await http(k, 'GET', `${NODES()}?fieldSelector=spec.unschedulable%3Dtrue`), 200);
    expect(sel.items.map((i: Obj) => i.metadata.name)).toEqual([name]);
    // A DELETE of a node answers a Status, as kube's node storage does.
    const del = expectCode(await http(k, 'DELETE', NODES(name)), 200);
    expect(del).toMatchObject({ kind: 'Status', status: 'Success', details: { name, kind: 'nodes' } });
    expect(del.details.group).toBeUndefined();
  });

  it("kube's validation answers", async () => {
    const r = await http(k, 'POST', NODES(), {
      metadata: { name: 'n2' },
      spec: { taints: [{ key: 'a', effect: 'NoSchedule' }, { key: 'a', effect: 'NoSchedule' }, { key: 'b!', value: 'x y', effect: 'Bad' }], podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] },
      status: { capacity: { cpu: '-1' } },
    });
    expect(msg(r)).toBe(
      "Node \"n2\" is invalid: [metadata.taints[1]: Duplicate value: core.Taint{Key:\"a\", Value:\"\", Effect:\"NoSchedule\", TimeAdded:<nil>}: taints must be unique by key and effect pair, metadata.taints[2].key: Invalid value: \"b!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), metadata.taints[2].value: Invalid value: \"x y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), metadata.taints[2].effect: Unsupported value: \"Bad\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\", status.capacity.cpu: Invalid value: \"-1\": must be greater than or equal to 0, status.allocatable.cpu: Invalid value: \"-1\": must be greater than or equal to 0, spec.podCIDRs: Invalid value: []string{\"10.0.0.0/24\", \"10.1.0.0/24\"}: may specify no more than one CIDR for each IP family]",
    );
    const name = uniq('n');
    expectCode(await http(k, 'POST', NODES(), { metadata: { name }, spec: { podCIDRs: ['10.244.3.0/24'] }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }] } }), 201);
    expectInvalid(await http(k, 'PATCH', NODES(name), { spec: { podCIDR: '10.245.0.0/24', podCIDRs: ['10.245.0.0/24'] } }, MERGE), {
      kind: 'Node',
      group: '',
      name,
      message: `Node "${name}" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid`,
      causes: [{ reason: 'FieldValueForbidden', field: 'spec.podCIDRs', message: 'Forbidden: node updates may not change podCIDR except from "" to valid' }],
    });
    expectInvalid(await http(k, 'PATCH', NODES(`${name}/status`), { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }, { type: 'InternalIP', address: '10.0.0.9' }] } }, MERGE), {
      kind: 'Node',
      group: '',
      name,
      message: `Node "${name}" is invalid: status.addresses[1]: Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"10.0.0.9"}`,
      causes: [{ reason: 'FieldValueDuplicate', field: 'status.addresses[1]', message: 'Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"10.0.0.9"}' }],
    });
    expectFailure(await http(k, 'GET', `${NODES()}?fieldSelector=spec.foo%3Dx`), { code: 400, reason: 'BadRequest', message: 'field label not supported: spec.foo' });
  });
});

describe('events: core/v1 and events.k8s.io/v1 over the same objects', () => {
  const core = (name: string, extra: Obj = {}): Obj => ({
    metadata: { name },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'default', uid: 'u-1' },
    reason: 'Started',
    message: 'hi',
    type: 'Normal',
    source: { component: 'kubelet' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:00:00Z',
    count: 1,
    ...extra,
  });

  it('an event written in one version reads in the other', async () => {
    const name = uniq('ev');
    const created = expectCode(await http(k, 'POST', EV('default'), core(name)), 201);
    // Go's non-omitempty fields of the core/v1 Event.
    expect([created.eventTime, created.reportingComponent, created.reportingInstance]).toEqual([null, '', '']);
    const v1 = expectCode(await http(k, 'GET', EV1('default', name)), 200);
    const { metadata, ...rest } = v1;
    expect(metadata.uid).toBe(created.metadata.uid);
    expect(rest).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      eventTime: null,
      reason: 'Started',
      regarding: { kind: 'Pod', namespace: 'default', name: 'p', uid: 'u-1' },
      note: 'hi',
      type: 'Normal',
      deprecatedSource: { component: 'kubelet' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T00:00:00Z',
      deprecatedCount: 1,
    });
    const newName = uniq('ev1');
    const ev1 = {
      metadata: { name: newName },
      eventTime: '2024-01-01T00:00:00.123456Z',
      reportingController: 'kapi.io/x',
      reportingInstance: 'i1',
      action: 'Bind',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
      note: 'bound',
      type: 'Normal',
    };
    const made = expectCode(await http(k, 'POST', EV1('default'), ev1), 201);
    expect(made.deprecatedSource).toEqual({});
    expect([made.deprecatedFirstTimestamp, made.deprecatedLastTimestamp]).toEqual([null, null]);
    const asCore = expectCode(await http(k, 'GET', EV('default', newName)), 200);
    expect(asCore).toMatchObject({
      apiVersion: 'v1',
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
      reason: 'Scheduled',
      message: 'bound',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Normal',
      eventTime: '2024-01-01T00:00:00.123456Z',
      action: 'Bind',
      reportingComponent: 'kapi.io/x',
      reportingInstance: 'i1',
    });
    // Deleting through either group removes the one object.
    expectCode(await http(k, 'DELETE', EV1('default', name)), 200);
    expect((await http(k, 'GET', EV('default', name))).status).toBe(404);
    expectFailure(await http(k, 'GET', EV1('default', name)), {
      code: 404,
      reason: 'NotFound',
      message: `events.events.k8s.io "${name}" not found`,
      details: { name, group: 'events.k8s.io', kind: 'events' },
    });
  });

  it('each version validates as kube does', async () => {
    // core/v1: only the legacy rules.
    const r1 = await http(k, 'POST', EV('default'), { metadata: { name: 'x1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } });
    expect(msg(r1)).toBe('Event "x1" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
    // events.k8s.io/v1: the strict rules, reported on the internal kind.
    const r2 = await http(k, 'POST', EV1('default'), {
      metadata: { name: 'ev5' },
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
      type: 'Odd',
      deprecatedCount: 3,
      deprecatedSource: { component: 'x' },
      series: { count: 1 },
    });
    expect(msg(r2)).toBe(
      'Event "ev5" is invalid: [series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value, eventTime: Required value, type: Invalid value: "": has invalid value: Odd, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
    );
    expect((r2.json as Obj).details).toMatchObject({ name: 'ev5', kind: 'Event' });
    expect((r2.json as Obj).details.group).toBeUndefined();
    // Updates through events.k8s.io/v1 may not change what happened; through core/v1 they may.
    const name = uniq('im');
    expectCode(
      await http(k, 'POST', EV1('default'), {
        metadata: { name },
        eventTime: '2024-01-01T00:00:00.000001Z',
        reportingController: 'kapi.io/x',
        reportingInstance: 'i',
        action: 'A',
        reason: 'R',
        regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
        note: 'n',
        type: 'Normal',
      }),
      201,
    );
    const r3 = await http(k, 'PATCH', EV1('default', name), { note: 'changed', reason: 'Other' }, MERGE);
    // kube repeats reason among the causes and says it once in the message.
    expect(msg(r3)).toBe(`Event "${name}" is invalid: [reason: Invalid value: "Other": field is immutable, message: Invalid value: "changed": field is immutable]`);
    expect((r3.json as Obj).details.causes).toHaveLength(3);
    expect(expectCode(await http(k, 'PATCH', EV('default', name), { message: 'changed via v1' }, MERGE), 200).message).toBe('changed via v1');
  });

  it("kube's field selectors in each version, the Table, and watches of the other version's writes", async () => {
    const ns = 'kube-system';
    const a = uniq('fa');
    const w = await WatchStream.open(k, `${EV1(ns)}?watch=true&fieldSelector=regarding.name%3Dsel-pod`);
    try {
      expectCode(await http(k, 'POST', EV(ns), { ...core(a), involvedObject: { kind: 'Pod', name: 'sel-pod', namespace: ns }, reason: 'Killing', type: 'Warning' }), 201);
      expectCode(await http(k, 'POST', EV(ns), { ...core(uniq('fb')), involvedObject: { kind: 'Pod', name: 'other', namespace: ns } }), 201);
      const byName = expectCode(await http(k, 'GET', `${EV(ns)}?fieldSelector=involvedObject.name%3Dsel-pod,reason%3DKilling,type%3DWarning,source%3Dkubelet`), 200);
      expect(byName.items.map((i: Obj) => i.metadata.name)).toEqual([a]);
      const byRegarding = expectCode(await http(k, 'GET', `${EV1(ns)}?fieldSelector=regarding.name%3Dsel-pod,regarding.kind%3DPod`), 200);
      expect(byRegarding.items.map((i: Obj) => [i.apiVersion ?? byRegarding.apiVersion, i.metadata.name])).toEqual([['events.k8s.io/v1', a]]);
      expectFailure(await http(k, 'GET', `${EV1(ns)}?fieldSelector=involvedObject.name%3Dp`), { code: 400, reason: 'BadRequest', message: 'field label not supported: involvedObject.name' });
      expectFailure(await http(k, 'GET', `${EV(ns)}?fieldSelector=note%3Dp`), { code: 400, reason: 'BadRequest', message: 'field label not supported: note' });
      const added = (await w.changes(1))[0]!;
      expect([added.type, added.object.apiVersion, added.object.metadata.name, added.object.note]).toEqual(['ADDED', 'events.k8s.io/v1', a, 'hi']);
    } finally {
      w.close();
    }
    const t = expectCode(await http(k, 'GET', EV1(ns, a), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => c.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    expect(t.rows[0].cells.slice(1)).toEqual(['Warning', 'Killing', 'pod/sel-pod', '', 'kubelet', 'hi', expect.any(String), 1, a]);
  });

  it('--event-ttl: an event not written for that long goes (watchers see it deleted); one written again stays', async () => {
    const short = await startKapi({ args: ['--event-ttl', '3s'] });
    try {
      const ns = 'default';
      const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      expectCode(await http(short, 'POST', EV(ns), core('old', { lastTimestamp: now() })), 201);
      expectCode(await http(short, 'POST', EV(ns), core('busy', { lastTimestamp: now() })), 201);
      const list = expectCode(await http(short, 'GET', EV1(ns)), 200);
      const w = await WatchStream.open(short, `${EV1(ns)}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
      try {
        // An event recorder counts repeats: count and lastTimestamp go up, the lease is renewed.
        for (let i = 2; i <= 9; i++) {
          await new Promise((r) => setTimeout(r, 700));
          expectCode(await http(short, 'PATCH', EV(ns, 'busy'), { count: i, lastTimestamp: now() }, MERGE), 200);
        }
        const changes = await w.changes(9);
        const deleted = changes.filter((c) => c.type === 'DELETED');
        expect(deleted.map((c) => [c.object.apiVersion, c.object.metadata.name])).toEqual([['events.k8s.io/v1', 'old']]);
        expectCode(await http(short, 'GET', EV(ns, 'old')), 404);
        expect(expectCode(await http(short, 'GET', EV(ns, 'busy')), 200).count).toBe(9);
      } finally {
        w.close();
      }
    } finally {
      await stopKapi(short);
    }
  });
});

describe('persistent volumes', () => {
  it('create sets Pending with its transition time; the source is fixed; /status stamps phase changes', async () => {
    const name = uniq('pv');
    const body = { metadata: { name }, spec: { capacity: { storage: '1024Mi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' }, storageClassName: 'standard' } };
    const created = expectCode(await http(k, 'POST', PV(), body), 201);
    expect(created.spec).toEqual({
      capacity: { storage: '1Gi' },
      hostPath: { path: '/tmp/x', type: '' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: 'standard',
      volumeMode: 'Filesystem',
    });
    expect(created.status.phase).toBe('Pending');
    expect(created.status.lastPhaseTransitionTime).toMatch(/Z$/);
    const moved = await http(k, 'PATCH', PV(name), { spec: { hostPath: { path: '/tmp/y' } } }, MERGE);
    expect(moved.status).toBe(422);
    expect(msg(moved)).toMatch(new RegExp(`^PersistentVolume "${name}" is invalid: spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n`));
    const avail = expectCode(await http(k, 'PATCH', PV(`${name}/status`), { status: { phase: 'Available' } }, MERGE), 200);
    expect(avail.status.phase).toBe('Available');
    expect(avail.status.lastPhaseTransitionTime).toMatch(/Z$/);
    const t = expectCode(await http(k, 'GET', PV(name), undefined, TABLE), 200);
    expect(t.rows[0].cells).toEqual([name, '1Gi', 'RWO', 'Retain', 'Available', '', 'standard', '<unset>', '', expect.any(String), 'Filesystem']);
    const deleted = expectCode(await http(k, 'DELETE', PV(name)), 200);
    expect(deleted.kind).toBe('PersistentVolume');
  });

  it("kube's validation answers", async () => {
    const r = await http(k, 'POST', PV(), {
      metadata: { name: 'pvx' },
      spec: { capacity: { cpu: '1' }, accessModes: ['Foo'], hostPath: { path: '/a/../b', type: 'Bad' }, nfs: { server: 's', path: 'p' }, persistentVolumeReclaimPolicy: 'X', volumeMode: 'Y' },
    });
    expect(msg(r)).toBe(
      'PersistentVolume "pvx" is invalid: [spec.accessModes: Unsupported value: "Foo": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.capacity: Unsupported value: core.ResourceList{"cpu":resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1", Format:"DecimalSI"}}: supported values: "storage", spec.persistentVolumeReclaimPolicy: Unsupported value: "X": supported values: "Delete", "Recycle", "Retain", spec.hostPath.path: Invalid value: "/a/../b": must not contain \'..\', spec.hostPath.type: Unsupported value: "Bad": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket", spec.nfs: Forbidden: may not specify more than 1 volume type, spec.volumeMode: Unsupported value: "Y": supported values: "Block", "Filesystem"]',
    );
    expect(msg(await http(k, 'POST', PV(), { metadata: { name: 'pvy' }, spec: {} }))).toBe(
      'PersistentVolume "pvy" is invalid: [spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage", spec: Required value: must specify a volume type]',
    );
    expect(msg(await http(k, 'POST', PV(), { metadata: { name: 'pvz' }, spec: { capacity: { storage: '0' }, accessModes: ['ReadWriteOnce'], local: { path: '/x' } } }))).toBe(
      'PersistentVolume "pvz" is invalid: [spec.capacity[storage]: Invalid value: "0": must be greater than zero, spec.nodeAffinity: Required value: Local volume requires node affinity]',
    );
  });
});

describe('storage classes and the default class', () => {
  it('the server starts with the default class standard', async () => {
    const sc = expectCode(await http(k, 'GET', SC('standard')), 200);
    expect(sc).toMatchObject({
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'kapi.io/simulated',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    const t = expectCode(await http(k, 'GET', SC('standard'), undefined, TABLE), 200);
    expect(t.rows[0].cells).toEqual(['standard (default)', 'kapi.io/simulated', 'Delete', 'WaitForFirstConsumer', false, expect.any(String)]);
  });

  it("defaults, kube's validation answers, and fields fixed at creation", async () => {
    const name = uniq('sc');
    const created = expectCode(await http(k, 'POST', SC(), { metadata: { name }, provisioner: 'a/b', parameters: { k: 'v' } }), 201);
    expect([created.reclaimPolicy, created.volumeBindingMode]).toEqual(['Delete', 'Immediate']);
    expect(msg(await http(k, 'POST', SC(), { metadata: { name: 'sc2' }, provisioner: 'Kapi.IO/x_' }))).toBe(
      'StorageClass.storage.k8s.io "sc2" is invalid: provisioner: Invalid value: "kapi.io/x_": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    );
    expect(msg(await http(k, 'PATCH', SC(name), { parameters: { k: 'w' }, provisioner: 'c/d', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }, MERGE))).toBe(
      `StorageClass.storage.k8s.io "${name}" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]`,
    );
    // kube's storage class storage answers a DELETE with the object.
    expect(expectCode(await http(k, 'DELETE', SC(name)), 200).kind).toBe('StorageClass');
  });

  it('DefaultStorageClass: a claim without a class gets the newest default; an empty class name stays', async () => {
    const c1 = expectCode(await http(k, 'POST', PVC(), { metadata: { name: uniq('c') }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }), 201);
    expect(c1.spec.storageClassName).toBe('standard');
    const c2 = expectCode(await http(k, 'POST', PVC(), { metadata: { name: uniq('c') }, spec: { storageClassName: '', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }), 201);
    expect(c2.spec.storageClassName).toBe('');
    // A second default created later is the newer one: it wins.
    await new Promise((r) => setTimeout(r, 1100));
    const fast = uniq('fast');
    expectCode(await http(k, 'POST', SC(), { metadata: { name: fast, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'kapi.io/simulated' }), 201);
    const c3 = expectCode(await http(k, 'POST', PVC(), { metadata: { name: uniq('c') }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }), 201);
    expect(c3.spec.storageClassName).toBe(fast);
    expectCode(await http(k, 'DELETE', SC(fast)), 200);
    // The default is the server's only at first start: deleted, it stays gone (kube has none of its own).
  });
});

describe('IP addresses', () => {
  it("kube's validation answers; the parent is fixed; one can reserve an address", async () => {
    expect(msg(await http(k, 'POST', IP(), { metadata: { name: '10.96.0.099' }, spec: {} }))).toBe(
      'IPAddress.networking.k8s.io "10.96.0.099" is invalid: [metadata.name: Invalid value: "10.96.0.099": must not have leading 0s, spec.parentRef: Required value]',
    );
    expect(msg(await http(k, 'POST', IP(), { metadata: { name: 'fd00:0::1' }, spec: { parentRef: { resource: 'services', name: 'x' } } }))).toBe(
      'IPAddress.networking.k8s.io "fd00:0::1" is invalid: metadata.name: Invalid value: "fd00:0::1": must be in canonical form ("fd00::1")',
    );
    expectCode(await http(k, 'POST', IP(), { metadata: { name: '10.96.0.99' }, spec: { parentRef: { resource: 'services', name: 'x', namespace: 'default' } } }), 201);
    expect(msg(await http(k, 'PATCH', IP('10.96.0.99'), { spec: { parentRef: { name: 'y' } } }, MERGE))).toBe(
      'IPAddress.networking.k8s.io "10.96.0.99" is invalid: spec.parentRef: Invalid value: networking.ParentReference{Group:"", Resource:"services", Namespace:"default", Name:"y"}: field is immutable',
    );
    // The reserved address cannot be a service's.
    const taken = await http(k, 'POST', '/api/v1/namespaces/default/services', { metadata: { name: 'wants99' }, spec: { clusterIP: '10.96.0.99', ports: [{ port: 80 }] } });
    expect(msg(taken)).toMatch(/provided IP is already allocated$/);
    const t = expectCode(await http(k, 'GET', IP('10.96.0.99'), undefined, TABLE), 200);
    expect(t.columnDefinitions.map((c: Obj) => c.name)).toEqual(['Name', 'ParentRef']);
    expect(t.rows[0].cells).toEqual(['10.96.0.99', 'services/default/x', expect.any(String)]);
  });
});

describe('pods/binding and the fields agents write', () => {
  it('binds once, as kube: 201 Status, then 409 on pods/binding', async () => {
    const name = uniq('b');
    expectCode(await http(k, 'POST', PODS(), { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }), 201);
    const before = expectCode(await http(k, 'GET', PODS(name)), 200);
    expectFailure(await http(k, 'POST', PODS(`${name}/binding`), { metadata: { name: 'other' }, target: { name: 'n1' } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'name in URL does not match name in Binding object',
    });
    // kube answers these as a bare 500; kapi answers bad input with 400 and kube's text.
    expectFailure(await http(k, 'POST', PODS(`${name}/binding`), { metadata: { name }, target: { kind: 'Pod' } }), {
      code: 400,
      reason: 'BadRequest',
      message: '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]',
    });
    expect(expectCode(await http(k, 'POST', `${PODS(`${name}/binding`)}?dryRun=All`, { metadata: { name }, target: { name: 'n9' } }), 201)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
    expect(expectCode(await http(k, 'GET', PODS(name)), 200).spec.nodeName).toBeUndefined();
    expectCode(await http(k, 'POST', PODS(`${name}/binding`), { metadata: { name, annotations: { a: 'b' } }, target: { name: 'n1' } }), 201);
    const bound = expectCode(await http(k, 'GET', PODS(name)), 200);
    expect(bound.spec.nodeName).toBe('n1');
    expect(bound.metadata.annotations).toEqual({ a: 'b' });
    expect(bound.status.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: expect.stringMatching(/Z$/) }]);
    // kube writes the pod straight to storage: managedFields stay as they were.
    expect(bound.metadata.managedFields).toEqual(before.metadata.managedFields);
    expectFailure(await http(k, 'POST', PODS(`${name}/binding`), { metadata: { name }, target: { name: 'n2' } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "n1"`,
      details: { name, kind: 'pods/binding' },
    });
    expectFailure(await http(k, 'GET', PODS(`${name}/binding`)), {
      code: 405,
      reason: 'MethodNotAllowed',
      message: 'the server does not allow this method on the requested resource',
      details: {},
    });
    expectFailure(await http(k, 'POST', PODS('nope/binding'), { metadata: { name: 'nope' }, target: { name: 'n1' } }), {
      code: 404,
      reason: 'NotFound',
      message: 'pods "nope" not found',
      details: { name: 'nope', kind: 'pods' },
    });
  });

  it('pod status fields round-trip; podIP and podIPs follow kube\'s conversion', async () => {
    const name = uniq('st');
    expectCode(await http(k, 'POST', PODS(), { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], readinessGates: [{ conditionType: 'example.com/ready' }] } }), 201);
    const status = {
      phase: 'Running',
      podIP: '10.244.1.5',
      hostIP: '10.0.0.7',
      startTime: '2024-01-01T00:00:00Z',
      nominatedNodeName: 'n2',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        { type: 'example.com/ready', status: 'False' },
      ],
      containerStatuses: [
        { name: 'c', ready: true, restartCount: 0, image: 'nginx', imageID: 'docker.io/library/nginx@sha256:1', containerID: 'containerd://abc', started: true, state: { running: { startedAt: '2024-01-01T00:00:01Z' } } },
      ],
    };
    const st = expectCode(await http(k, 'PATCH', PODS(`${name}/status`), { status }, MERGE), 200);
    expect(st.spec.readinessGates).toEqual([{ conditionType: 'example.com/ready' }]);
    expect(st.status).toEqual({
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-01-01T00:00:00Z' },
        { type: 'example.com/ready', status: 'False', lastProbeTime: null, lastTransitionTime: null },
      ],
      nominatedNodeName: 'n2',
      hostIP: '10.0.0.7',
      podIP: '10.244.1.5',
      podIPs: [{ ip: '10.244.1.5' }],
      startTime: '2024-01-01T00:00:00Z',
      containerStatuses: [
        {
          name: 'c',
          state: { running: { startedAt: '2024-01-01T00:00:01Z' } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image: 'nginx',
          imageID: 'docker.io/library/nginx@sha256:1',
          containerID: 'containerd://abc',
          started: true,
        },
      ],
      qosClass: 'BestEffort',
    });
    // Only the list sent: the singular field (kept) wins over it, as kube's conversion does.
    const ips = expectCode(await http(k, 'PATCH', PODS(`${name}/status`), { status: { podIPs: [{ ip: '10.244.1.6' }], hostIPs: [{ ip: '10.0.0.7' }] } }, MERGE), 200);
    expect([ips.status.podIP, ips.status.podIPs, ips.status.hostIPs]).toEqual(['10.244.1.5', [{ ip: '10.244.1.5' }], [{ ip: '10.0.0.7' }]]);
    const moved = expectCode(await http(k, 'PATCH', PODS(`${name}/status`), { status: { podIP: '10.244.1.9' } }, MERGE), 200);
    expect([moved.status.podIP, moved.status.podIPs]).toEqual(['10.244.1.9', [{ ip: '10.244.1.9' }]]);
    const t = expectCode(await http(k, 'GET', PODS(name), undefined, TABLE), 200);
    expect(t.rows[0].cells.slice(5)).toEqual(['10.244.1.9', '<none>', 'n2', '0/1']);
  });
});
