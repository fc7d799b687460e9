import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { FieldSchema, StructSchema, TypeRef } from '../../../src/schema/model.js';
import { DEFAULTS, applySchemaDefaults, imagePullPolicyFor } from '../../../src/schema/types/defaults.js';
import { roundQuantityUpToMilli } from '../../../src/schema/quantity.js';
import { EMBEDDED, GENERATED, GENERATED_ROOTS, INLINED } from '../../../src/schema/types/generated.js';
import { goRoundTrip } from '../../../src/schema/types/go-json.js';
import { SCHEMAS, rootDefinition } from '../../../src/schema/types/index.js';

const CORE = 'io.k8s.api.core.v1';
const APPS = 'io.k8s.api.apps.v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

function def(name: string): StructSchema {
  const s = GENERATED[name];
  if (!s) throw new Error(`no definition ${name}`);
  return s;
}

function field(defName: string, name: string): FieldSchema {
  const f = def(defName).fields.find((x) => x.name === name);
  if (!f) throw new Error(`no field ${defName}.${name}`);
  return f;
}

function refsOf(t: TypeRef): string[] {
  switch (t.kind) {
    case 'ref':
      return [t.name];
    case 'array':
      return refsOf(t.items);
    case 'map':
      return refsOf(t.values);
    default:
      return [];
  }
}

/** Default, then write the way kube's Go encoder would: what kube-apiserver stores. */
function stored<T>(obj: T, definition: string): T {
  const copy = structuredClone(obj);
  applySchemaDefaults(copy, definition, SCHEMAS);
  goRoundTrip(copy, definition, SCHEMAS);
  return copy;
}

describe('generated schema registry', () => {
  it('holds every root and every definition reachable from them', () => {
    for (const r of GENERATED_ROOTS) expect(GENERATED[r], r).toBeDefined();
    expect(GENERATED_ROOTS).toContain(`${APPS}.StatefulSet`);
    expect(GENERATED_ROOTS).toContain(`${META}.DeleteOptions`);
    expect(GENERATED[`${META}.Table`]).toBeUndefined();
    for (const [name, s] of Object.entries({ ...GENERATED, ...EMBEDDED })) {
      expect(s.name).toBe(name);
      for (const f of s.fields) for (const r of refsOf(f.type)) expect(GENERATED[r], `${name}.${f.name} -> ${r}`).toBeDefined();
    }
    expect(Object.keys(GENERATED).length).toBeGreaterThan(150);
  });

  it('carries no documentation text', () => {
    for (const s of [...Object.values(GENERATED), ...Object.values(EMBEDDED)]) {
      expect(s.description, s.name).toBeUndefined();
      for (const f of s.fields) expect(f.description, `${s.name}.${f.name}`).toBeUndefined();
    }
    const text = readFileSync(new URL('../../../src/schema/types/generated.ts', import.meta.url), 'utf8');
    for (const phrase of ['More info', 'Standard object', 'https://', 'Defaults to', 'Deprecated']) expect(text).not.toContain(phrase);
  });

  it('records field facts from the Go types', () => {
    expect(field(`${APPS}.StatefulSetSpec`, 'replicas')).toEqual({ name: 'replicas', type: { kind: 'int32' }, omitempty: true, pointer: true, protobuf: 1 });
    expect(field(`${APPS}.StatefulSetSpec`, 'selector')).toMatchObject({ required: true, pointer: true, type: { kind: 'ref', name: `${META}.LabelSelector` } });
    // +optional without omitempty: not required, and Go always writes it.
    expect(field(`${APPS}.StatefulSetSpec`, 'serviceName')).toEqual({ name: 'serviceName', type: { kind: 'string' }, protobuf: 5 });
    expect(field(`${APPS}.StatefulSetSpec`, 'volumeClaimTemplates')).toMatchObject({ listType: 'atomic', type: { kind: 'array', items: { kind: 'ref', name: `${CORE}.PersistentVolumeClaim` } } });
    expect(field(`${APPS}.StatefulSetStatus`, 'replicas')).toMatchObject({ required: true, type: { kind: 'int32' } });
    expect(field(`${APPS}.StatefulSetStatus`, 'availableReplicas').omitempty).toBeUndefined();
    expect(field(`${META}.Condition`, 'lastTransitionTime')).toMatchObject({ required: true, type: { kind: 'time' } });
    expect(field(`${CORE}.Container`, 'name').required).toBe(true);
    expect(field(`${CORE}.Container`, 'image').required).toBeUndefined();
  });

  it('records list, map and patch markers as kube declares them', () => {
    expect(field(`${CORE}.PodSpec`, 'containers')).toMatchObject({
      required: true,
      listType: 'map',
      listMapKeys: ['name'],
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      protobuf: 2,
    });
    expect(field(`${CORE}.PodSpec`, 'volumes')).toMatchObject({ listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' });
    expect(field(`${CORE}.PodSpec`, 'tolerations').listType).toBe('atomic');
    expect(field(`${CORE}.PodSpec`, 'nodeSelector').mapType).toBe('atomic');
    expect(field(`${CORE}.Container`, 'ports')).toMatchObject({
      listType: 'map',
      listMapKeys: ['containerPort', 'protocol'],
      patchStrategy: 'merge',
      patchMergeKey: 'containerPort',
    });
    const finalizers = field(`${META}.ObjectMeta`, 'finalizers');
    expect(finalizers).toMatchObject({ listType: 'set', patchStrategy: 'merge', type: { kind: 'array', items: { kind: 'string' } } });
    expect(finalizers.patchMergeKey).toBeUndefined();
    expect(field(`${META}.ObjectMeta`, 'ownerReferences')).toMatchObject({ listType: 'map', listMapKeys: ['uid'], patchMergeKey: 'uid' });
    expect(def(`${META}.LabelSelector`).structType).toBe('atomic');
    expect(def(`${CORE}.NodeSelectorTerm`).structType).toBe('atomic');
    expect(def(`${CORE}.Toleration`).structType).toBeUndefined();
    expect(field(`${CORE}.Toleration`, 'operator').type).toEqual({ kind: 'string', enum: ['Equal', 'Exists'] });
    expect(field(`${CORE}.Toleration`, 'tolerationSeconds')).toMatchObject({ pointer: true, type: { kind: 'int64' } });
  });

  it('maps kube special types', () => {
    expect(field('io.k8s.api.policy.v1.PodDisruptionBudgetSpec', 'minAvailable')).toMatchObject({ type: { kind: 'intOrString' }, pointer: true });
    expect(field(`${CORE}.HTTPGetAction`, 'port')).toMatchObject({ type: { kind: 'intOrString' }, required: true });
    expect(field(`${APPS}.RollingUpdateStatefulSetStrategy`, 'maxUnavailable').type).toEqual({ kind: 'intOrString' });
    expect(field(`${CORE}.ResourceRequirements`, 'limits').type).toEqual({ kind: 'map', values: { kind: 'quantity' } });
    expect(field(`${META}.ObjectMeta`, 'creationTimestamp')).toMatchObject({ type: { kind: 'time' }, omitempty: true });
    expect(field(`${META}.ObjectMeta`, 'deletionTimestamp')).toMatchObject({ type: { kind: 'time' }, pointer: true });
    expect(field(`${META}.ObjectMeta`, 'uid').type).toEqual({ kind: 'string' });
    expect(field(`${META}.ManagedFieldsEntry`, 'fieldsV1').type).toEqual({ kind: 'fieldsV1' });
    expect(field(`${APPS}.ControllerRevision`, 'data').type).toEqual({ kind: 'any' });
    expect(field(`${CORE}.PodCondition`, 'lastProbeTime').type).toEqual({ kind: 'time' });
    for (const s of Object.values(GENERATED)) {
      for (const name of ['IntOrString', 'Quantity', 'Time', 'MicroTime', 'FieldsV1', 'RawExtension', 'TypeMeta']) expect(s.name.endsWith(`.${name}`), s.name).toBe(false);
    }
  });

  it('publishes enum values of +enum string types', () => {
    expect(field(`${CORE}.PodSpec`, 'restartPolicy').type).toEqual({ kind: 'string', enum: ['Always', 'Never', 'OnFailure'] });
    expect(field(`${CORE}.PodSpec`, 'preemptionPolicy')).toMatchObject({ pointer: true, type: { kind: 'string', enum: ['Never', 'PreemptLowerPriority'] } });
    expect(field(`${CORE}.Container`, 'imagePullPolicy').type).toEqual({ kind: 'string', enum: ['Always', 'IfNotPresent', 'Never'] });
    expect(field(`${APPS}.StatefulSetSpec`, 'podManagementPolicy').type).toEqual({ kind: 'string', enum: ['OrderedReady', 'Parallel'] });
    // not +enum: a plain string
    expect(field(`${CORE}.PodCondition`, 'type').type).toEqual({ kind: 'string' });
    // slice items do not carry the enum (as in kube's OpenAPI)
    expect(field(`${CORE}.PersistentVolumeClaimSpec`, 'accessModes').type).toEqual({ kind: 'array', items: { kind: 'string' } });
  });

  it('records +default values, resolving ref(...) constants', () => {
    expect(field(`${CORE}.ContainerPort`, 'protocol').default).toBe('TCP');
    expect(field(`${CORE}.AzureDiskVolumeSource`, 'cachingMode').default).toBe('ReadWrite');
    expect(field(`${CORE}.AzureDiskVolumeSource`, 'readOnly').default).toBe(false);
    expect(field(`${CORE}.GRPCAction`, 'service')).toMatchObject({ default: '', pointer: true });
    expect(field(`${CORE}.RBDVolumeSource`, 'pool').default).toBe('rbd');
  });

  it('flattens inline embeds into the parent and records where they came from', () => {
    for (const s of Object.values(GENERATED)) {
      for (const f of s.fields) {
        expect(f.name, s.name).not.toBe('');
        expect(f.inline, `${s.name}.${f.name}`).toBeUndefined();
      }
      const names = s.fields.map((f) => f.name);
      expect(new Set(names).size, s.name).toBe(names.length);
      const pb = s.fields.flatMap((f) => (f.protobuf === undefined ? [] : [f.protobuf]));
      expect(new Set(pb).size, s.name).toBe(pb.length);
    }
    expect(def(`${APPS}.StatefulSet`).fields.map((f) => f.name)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    const volume = def(`${CORE}.Volume`).fields.map((f) => f.name);
    expect(volume).toEqual(expect.arrayContaining(['name', 'hostPath', 'emptyDir', 'configMap', 'secret', 'persistentVolumeClaim', 'projected', 'ephemeral', 'image']));
    expect(field(`${CORE}.Volume`, 'configMap').protobuf).toBeUndefined();
    expect(INLINED[`${CORE}.Volume`]).toEqual([expect.objectContaining({ definition: `${CORE}.VolumeSource`, protobuf: 2 })]);
    expect(EMBEDDED[`${CORE}.VolumeSource`]!.fields.find((f) => f.name === 'configMap')!.protobuf).toBe(19);
    expect(def(`${CORE}.Probe`).fields.map((f) => f.name)).toEqual(expect.arrayContaining(['exec', 'httpGet', 'tcpSocket', 'grpc', 'timeoutSeconds']));
    const eph = def(`${CORE}.EphemeralContainer`).fields.map((f) => f.name);
    expect(eph).toEqual([...def(`${CORE}.Container`).fields.map((f) => f.name), 'targetContainerName']);
    expect(def(`${CORE}.ConfigMapKeySelector`).fields.map((f) => f.name)).toEqual(['name', 'key', 'optional']);
  });

  it('marks the top-level kinds with their group/version/kind', () => {
    expect(def(`${APPS}.StatefulSet`).gvk).toEqual({ group: 'apps', version: 'v1', kind: 'StatefulSet' });
    expect(def(`${APPS}.StatefulSetList`).gvk).toEqual({ group: 'apps', version: 'v1', kind: 'StatefulSetList' });
    expect(def(`${CORE}.Namespace`).gvk).toEqual({ group: '', version: 'v1', kind: 'Namespace' });
    expect(def('io.k8s.api.scheduling.v1.PriorityClass').gvk).toEqual({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass' });
    expect(def('io.k8s.api.policy.v1.PodDisruptionBudget').gvk).toEqual({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' });
    expect(def('io.k8s.api.autoscaling.v1.Scale').gvk).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(def(`${META}.Status`).gvk).toEqual({ group: '', version: 'v1', kind: 'Status' });
    expect(def(`${CORE}.PodTemplateSpec`).gvk).toBeUndefined();
    expect(def(`${APPS}.StatefulSetSpec`).gvk).toBeUndefined();
    for (const s of Object.values(GENERATED)) {
      if (!s.gvk) continue;
      expect(s.fields.slice(0, 2).map((f) => f.name), s.name).toEqual(['kind', 'apiVersion']);
    }
  });

  it('records union markers as kube publishes them', () => {
    expect(def(`${CORE}.SeccompProfile`).extensions).toEqual({
      'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { localhostProfile: 'LocalhostProfile' } }],
    });
  });

  it('finds definitions by kind', () => {
    expect(rootDefinition('apps', 'v1', 'StatefulSet')).toBe(`${APPS}.StatefulSet`);
    expect(rootDefinition('', 'v1', 'Pod')).toBe(`${CORE}.Pod`);
    expect(rootDefinition('scheduling.k8s.io', 'v1', 'PriorityClass')).toBe('io.k8s.api.scheduling.v1.PriorityClass');
    expect(rootDefinition('policy', 'v1', 'PodDisruptionBudgetList')).toBe('io.k8s.api.policy.v1.PodDisruptionBudgetList');
    expect(rootDefinition('', 'v1', 'Status')).toBe(`${META}.Status`);
    expect(rootDefinition('apps', 'v1', 'Deployment')).toBe(`${APPS}.Deployment`);
  });

  it('SCHEMAS is GENERATED with descriptions added', () => {
    expect(Object.keys(SCHEMAS)).toEqual(Object.keys(GENERATED));
    for (const [name, s] of Object.entries(SCHEMAS)) {
      const g = GENERATED[name]!;
      expect(s.fields.map(({ description: _d, ...rest }) => rest)).toEqual(g.fields);
    }
  });
});

describe('defaults table', () => {
  it('names only definitions and fields that exist', () => {
    for (const [name, d] of Object.entries(DEFAULTS)) {
      expect(GENERATED[name], name).toBeDefined();
      for (const key of Object.keys(d.fields ?? {})) {
        let cur = name;
        const path = key.split('.');
        for (const [i, seg] of path.entries()) {
          const f = field(cur, seg);
          if (i < path.length - 1) {
            expect(f.type.kind).toBe('ref');
            if (f.type.kind === 'ref') cur = f.type.name;
          }
        }
      }
    }
  });

  it('rounds every ResourceList', () => {
    for (const s of Object.values(GENERATED)) {
      for (const f of s.fields) {
        if (f.type.kind === 'map' && f.type.values.kind === 'quantity') {
          expect(DEFAULTS[s.name]?.fields?.[f.name], `${s.name}.${f.name}`).toEqual({ rule: 'resourceListRoundUpMilli' });
        }
      }
    }
  });

  it('picks the image pull policy from the image tag', () => {
    expect(imagePullPolicyFor('nginx')).toBe('Always');
    expect(imagePullPolicyFor('nginx:latest')).toBe('Always');
    expect(imagePullPolicyFor('nginx:1.27')).toBe('IfNotPresent');
    expect(imagePullPolicyFor(`nginx@sha256:${'a'.repeat(64)}`)).toBe('IfNotPresent');
    expect(imagePullPolicyFor(`nginx:latest@sha256:${'a'.repeat(64)}`)).toBe('Always');
    expect(imagePullPolicyFor('registry.example.com:5000/team/app')).toBe('Always');
    expect(imagePullPolicyFor('localhost:5000/app:v2')).toBe('IfNotPresent');
    expect(imagePullPolicyFor('Nginx')).toBe('IfNotPresent'); // does not parse
    expect(imagePullPolicyFor('')).toBe('IfNotPresent');
    expect(imagePullPolicyFor(undefined)).toBe('IfNotPresent');
  });

  it('rounds quantities up to milli precision', () => {
    expect(roundQuantityUpToMilli('100m')).toBe('100m');
    expect(roundQuantityUpToMilli('1Gi')).toBe('1Gi');
    expect(roundQuantityUpToMilli('0.5')).toBe('0.5');
    expect(roundQuantityUpToMilli('0.0001')).toBe('1m');
    expect(roundQuantityUpToMilli('1.0001')).toBe('1001m');
    expect(roundQuantityUpToMilli('0.9999')).toBe('1');
    expect(roundQuantityUpToMilli('100u')).toBe('1m');
    expect(roundQuantityUpToMilli('1e-4')).toBe('1e-3');
    expect(roundQuantityUpToMilli('1.9999999Ki')).toBe('2Ki');
  });
});

describe('applySchemaDefaults', () => {
  it('gives a minimal StatefulSet the form kube stores', () => {
    const input = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        serviceName: 'web',
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'nginx',
                image: 'nginx:1.27',
                ports: [{ containerPort: 80, name: 'web' }],
                volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }],
              },
            ],
          },
        },
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    };
    // As kube-apiserver 1.33 stores it (before the strategy sets uid, creationTimestamp,
    // generation and resourceVersion in the top-level metadata).
    const expected = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default', creationTimestamp: null },
      spec: {
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        podManagementPolicy: 'OrderedReady',
        replicas: 1,
        revisionHistoryLimit: 10,
        selector: { matchLabels: { app: 'web' } },
        serviceName: 'web',
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: {
            containers: [
              {
                image: 'nginx:1.27',
                imagePullPolicy: 'IfNotPresent',
                name: 'nginx',
                ports: [{ containerPort: 80, name: 'web', protocol: 'TCP' }],
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                volumeMounts: [{ mountPath: '/usr/share/nginx/html', name: 'www' }],
              },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
        updateStrategy: { rollingUpdate: { partition: 0 }, type: 'RollingUpdate' },
        volumeClaimTemplates: [
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { creationTimestamp: null, name: 'www' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
            status: { phase: 'Pending' },
          },
        ],
      },
      status: { availableReplicas: 0, replicas: 0 },
    };
    expect(stored(input, `${APPS}.StatefulSet`)).toEqual(expected);
    // Defaulting alone adds no Go zero values.
    const defaulted = structuredClone(input);
    applySchemaDefaults(defaulted, `${APPS}.StatefulSet`, SCHEMAS);
    expect(defaulted).not.toHaveProperty('status');
    expect(defaulted.spec.template.spec.containers[0]).not.toHaveProperty('resources');
    // Idempotent.
    const again = structuredClone(defaulted);
    applySchemaDefaults(again, `${APPS}.StatefulSet`, SCHEMAS);
    expect(again).toEqual(defaulted);
  });

  it('keeps values that are set, and replaces Go zero values of plain fields', () => {
    const sts = {
      spec: {
        replicas: 0,
        revisionHistoryLimit: 0,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'OnDelete' },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' },
        template: {
          spec: {
            containers: [{ name: 'c', image: 'busybox', livenessProbe: { exec: { command: ['true'] }, timeoutSeconds: 0, periodSeconds: 5 } }],
          },
        },
      },
    };
    applySchemaDefaults(sts, `${APPS}.StatefulSet`, SCHEMAS);
    expect(sts.spec).toMatchObject({
      replicas: 0,
      revisionHistoryLimit: 0,
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'OnDelete' },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    });
    expect(sts.spec.updateStrategy).not.toHaveProperty('rollingUpdate');
    const c = sts.spec.template.spec.containers[0]!;
    expect(c).toMatchObject({ imagePullPolicy: 'Always' });
    expect(c.livenessProbe).toEqual({ exec: { command: ['true'] }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 });
    // enableServiceLinks is a Pod default, not a pod template one.
    expect(sts.spec.template.spec).not.toHaveProperty('enableServiceLinks');
    // An explicit RollingUpdate without rollingUpdate gets no partition.
    const ru = { spec: { template: { spec: { containers: [] } }, updateStrategy: { type: 'RollingUpdate' } } };
    applySchemaDefaults(ru, `${APPS}.StatefulSet`, SCHEMAS);
    expect(ru.spec.updateStrategy).toEqual({ type: 'RollingUpdate' });
    const ru2 = { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: {} } } };
    applySchemaDefaults(ru2, `${APPS}.StatefulSet`, SCHEMAS);
    expect(ru2.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  });

  it('applies the Pod-only rules', () => {
    const pod = {
      metadata: { name: 'p' },
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'a',
            image: 'app:v1',
            ports: [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 9999 }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m' } },
          },
        ],
        initContainers: [{ name: 'i', image: 'init', resources: { limits: { cpu: '0.00001' } } }],
        volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cfg' } }, { name: 'sec', secret: { secretName: 's' } }],
      },
    };
    applySchemaDefaults(pod, `${CORE}.Pod`, SCHEMAS);
    const spec = pod.spec as Record<string, unknown> & typeof pod.spec;
    expect(spec.enableServiceLinks).toBe(true);
    expect(spec.containers[0]!.ports).toEqual([
      { containerPort: 8080, hostPort: 8080, protocol: 'TCP' },
      { containerPort: 9090, hostPort: 9999, protocol: 'TCP' },
    ]);
    expect(spec.containers[0]!.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(spec.initContainers[0]!.resources).toEqual({ limits: { cpu: '1m' }, requests: { cpu: '1m' } });
    expect(spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'sec', secret: { secretName: 's', defaultMode: 420 } },
    ]);
    expect(spec).toMatchObject({ dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
  });

  it('defaults probes, handlers and projected sources wherever they appear', () => {
    const tmpl = {
      spec: {
        containers: [
          {
            name: 'a',
            image: 'a:1',
            readinessProbe: { httpGet: { port: 80 } },
            startupProbe: { grpc: { port: 9000 } },
            lifecycle: { preStop: { httpGet: { port: 'http', scheme: 'HTTPS' } } },
            env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          },
        ],
        volumes: [
          {
            name: 'proj',
            projected: {
              sources: [
                { serviceAccountToken: { path: 'token' } },
                { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
              ],
            },
          },
          { name: 'host', hostPath: { path: '/var/log' } },
        ],
      },
    };
    applySchemaDefaults(tmpl, `${CORE}.PodTemplateSpec`, SCHEMAS);
    const c = tmpl.spec.containers[0]!;
    expect(c.readinessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.startupProbe).toMatchObject({ grpc: { port: 9000, service: '' } });
    expect(c.lifecycle).toEqual({ preStop: { httpGet: { port: 'http', scheme: 'HTTPS', path: '/' } } });
    expect(c.env[0]!.valueFrom.fieldRef).toEqual({ fieldPath: 'spec.nodeName', apiVersion: 'v1' });
    expect(tmpl.spec.volumes[0]).toEqual({
      name: 'proj',
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
          { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }] } },
        ],
      },
    });
    expect(tmpl.spec.volumes[1]).toEqual({ name: 'host', hostPath: { path: '/var/log', type: '' } });
  });

  it('defaults Namespaces, PersistentVolumeClaims, PriorityClasses; leaves PDBs alone', () => {
    const ns = { metadata: { name: 'team-a' } };
    expect(stored(ns, `${CORE}.Namespace`)).toEqual({
      metadata: { name: 'team-a', creationTimestamp: null, labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: {},
      status: { phase: 'Active' },
    });
    const nameless = { metadata: { generateName: 'x-' } };
    applySchemaDefaults(nameless, `${CORE}.Namespace`, SCHEMAS);
    expect(nameless).toEqual({ metadata: { generateName: 'x-' }, status: { phase: 'Active' } });

    const pvc = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    applySchemaDefaults(pvc, `${CORE}.PersistentVolumeClaim`, SCHEMAS);
    expect(pvc).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });

    const pc = { metadata: { name: 'high' }, value: 1000 };
    applySchemaDefaults(pc, 'io.k8s.api.scheduling.v1.PriorityClass', SCHEMAS);
    expect(pc).toEqual({ metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'PreemptLowerPriority' });

    const pdb = { metadata: { name: 'b' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } } };
    const before = structuredClone(pdb);
    applySchemaDefaults(pdb, 'io.k8s.api.policy.v1.PodDisruptionBudget', SCHEMAS);
    expect(pdb).toEqual(before);
  });

  it('ignores what it does not know', () => {
    expect(() => applySchemaDefaults(null, `${CORE}.Pod`, SCHEMAS)).not.toThrow();
    expect(() => applySchemaDefaults({ spec: 'nonsense' }, `${CORE}.Pod`, SCHEMAS)).not.toThrow();
    const x = { a: 1 };
    applySchemaDefaults(x, 'io.example.v1.Nothing', SCHEMAS);
    expect(x).toEqual({ a: 1 });
  });
});
