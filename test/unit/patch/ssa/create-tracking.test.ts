// A create's managedFields are written straight as FieldsV1 text (changedFieldsV1Json and the
// field manager's create path), not through field sets. Both must give exactly what the set
// algebra gives: the same paths, the same key order, the same entry, the same stored bytes.

import { describe, expect, it } from 'vitest';
import { FieldManager } from '../../../../src/patch/ssa/field-manager.js';
import { SCHEMAS, rootDefinition } from '../../../../src/schema/types/index.js';
import { TypeResolver, changedFieldsV1Json, changes, zeroObject } from '../../../../src/patch/ssa/typed.js';
import { FieldSet } from '../../../../src/patch/ssa/fieldpath.js';
import { RawJson } from '../../../../src/machinery/raw-json.js';
import { encodeForStorage } from '../../../../src/machinery/stored-bytes.js';
import { applySchemaDefaults } from '../../../../src/schema/types/defaults.js';
import type { KObject } from '../../../../src/machinery/object.js';

type O = Record<string, unknown>;
const r = new TypeResolver(SCHEMAS);

/** kube's stripMeta paths, written out here independently of the field manager's copy. */
const STRIP = new FieldSet();
for (const p of ['f:apiVersion', 'f:kind', 'f:metadata']) STRIP.addMember(p);
for (const f of ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']) {
  STRIP.child('f:metadata').addMember(`f:${f}`);
}

/** The set algebra's answer, serialized; undefined when empty. */
function viaSets(root: ReturnType<TypeResolver['root']>, l: unknown, rv: unknown, strip?: FieldSet, drop: string[] = []): string | undefined {
  let set = changes(r, root, l, rv).changed.withoutTopLevel(drop);
  if (strip) set = set.difference(strip);
  return set.isEmpty() ? undefined : set.toFieldsV1Json();
}

const container = (name: string, extra: O = {}): O => ({
  name,
  image: 'nginx:1.25',
  ports: [
    { name: 'web', containerPort: 80, protocol: 'TCP' },
    { containerPort: 80, protocol: 'UDP' },
    { containerPort: 9113 },
  ],
  env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'A', value: 'dup' }],
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: {} },
  command: ['sh', '-c', 'sleep 1'],
  volumeMounts: [{ name: 'www', mountPath: '/a' }, { name: 'www', mountPath: '/b' }],
  readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
  securityContext: null,
  ...extra,
});

const podSpec = (): O => ({
  containers: [container('a'), container('b', { args: [] })],
  initContainers: [container('init')],
  volumes: [{ name: 'www', emptyDir: {} }, { name: 'cfg', configMap: { name: 'c', items: [{ key: 'k', path: 'p' }] } }],
  tolerations: [{ key: 'k', operator: 'Exists' }, { key: 'k', operator: 'Exists' }],
  nodeSelector: { disk: 'ssd' },
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['x', 'y'] }] }] } } },
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
  hostAliases: [{ ip: '1.2.3.4', hostnames: ['a'] }],
  readinessGates: [],
  dnsConfig: { options: [{ name: 'ndots', value: '2' }] },
});

const meta = (name: string): O => ({
  name,
  namespace: 'default',
  uid: 'u',
  creationTimestamp: '2026-01-01T00:00:00Z',
  generation: 1,
  labels: { app: 'x', 'app.kubernetes.io/name': 'x' },
  annotations: { note: 'n' },
  finalizers: ['a.io/f', 'b.io/f', 'a.io/f'],
  ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'o', uid: 'ou', controller: true }],
});

const CASES: { kind: string; group: string; hasStatus: boolean; obj: O }[] = [
  {
    kind: 'StatefulSet',
    group: 'apps',
    hasStatus: true,
    obj: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta('web'),
      spec: {
        replicas: 3,
        serviceName: 'web',
        selector: { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] },
        template: { metadata: { labels: { app: 'x' }, creationTimestamp: null }, spec: podSpec() },
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      },
      status: { replicas: 0 },
    },
  },
  { kind: 'Pod', group: '', hasStatus: true, obj: { apiVersion: 'v1', kind: 'Pod', metadata: meta('p'), spec: podSpec(), status: { phase: 'Pending', conditions: [] } } },
  {
    kind: 'PersistentVolumeClaim',
    group: '',
    hasStatus: true,
    obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta('c'), spec: { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], resources: { requests: { storage: '1Gi' } }, selector: null } },
  },
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    hasStatus: true,
    obj: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta('b'), spec: { minAvailable: '50%', selector: { matchLabels: {} } } },
  },
  {
    kind: 'PriorityClass',
    group: 'scheduling.k8s.io',
    hasStatus: false,
    obj: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, globalDefault: false, description: '' },
  },
  { kind: 'Namespace', group: '', hasStatus: true, obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: {} }, spec: { finalizers: ['kubernetes'] } } },
  {
    kind: 'ControllerRevision',
    group: 'apps',
    hasStatus: false,
    obj: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: meta('rev'), revision: 2, data: { spec: { template: { x: [1, { y: null }], z: {} } } } },
  },
];

const versionOf = (group: string): string => (group === 'policy' || group === 'apps' || group === 'scheduling.k8s.io' ? 'v1' : 'v1');

describe('FieldsV1 straight from the comparison', () => {
  for (const c of CASES) {
    const def = rootDefinition(c.group, versionOf(c.group), c.kind);
    const root = r.root(def);
    const defaulted = structuredClone(c.obj);
    applySchemaDefaults(defaulted, def, SCHEMAS);

    it(`${c.kind}: against the empty object, as written and defaulted`, () => {
      const zero = zeroObject(SCHEMAS, def);
      for (const obj of [c.obj, defaulted]) {
        const text = changedFieldsV1Json(r, root, zero, obj);
        expect(text).toBe(viaSets(root, zero, obj));
        expect(JSON.parse(text!)).toStrictEqual(changes(r, root, zero, obj).changed.toFieldsV1());
        expect(changedFieldsV1Json(r, root, zero, obj, STRIP, ['f:status'])).toBe(viaSets(root, zero, obj, STRIP, ['f:status']));
      }
    });

    it(`${c.kind}: against a live object that differs (changes, additions and removals)`, () => {
      const live = structuredClone(defaulted);
      const m = live.metadata as O;
      m.labels = { app: 'old', gone: 'x' };
      delete m.annotations;
      const spec = live.spec as O | undefined;
      if (spec && Array.isArray((spec.template as O | undefined)?.spec && ((spec.template as O).spec as O).containers)) {
        (((spec.template as O).spec as O).containers as O[]).reverse();
      }
      for (const [l, rv] of [
        [live, defaulted],
        [defaulted, live],
        [defaulted, defaulted],
      ]) {
        expect(changedFieldsV1Json(r, root, l, rv)).toBe(viaSets(root, l, rv));
        expect(changedFieldsV1Json(r, root, l, rv, STRIP, ['f:spec'])).toBe(viaSets(root, l, rv, STRIP, ['f:spec']));
      }
    });

    it(`${c.kind}: a create's managedFields entry equals the general update path's`, () => {
      const info = { group: c.group, version: versionOf(c.group), kind: c.kind, definition: def, hasStatus: c.hasStatus };
      const fast = structuredClone(defaulted) as KObject;
      new FieldManager(info, SCHEMAS).update(null, fast, { manager: 'creator', subresource: '' }, { rawFields: true });
      // A foreign entry owning a path the object does not set sends the write down the
      // general path, and leaves the creator's own entry as the fast path should write it.
      const general = structuredClone(defaulted) as KObject;
      const foreign = { manager: 'other', operation: 'Update', apiVersion: 'v9', time: '2020-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:unset-by-anyone': {} } } } };
      general.metadata.managedFields = [foreign];
      new FieldManager(info, SCHEMAS).update(null, general, { manager: 'creator', subresource: '' });
      const mine = (general.metadata.managedFields as O[]).filter((e) => e.manager === 'creator');
      expect(mine).toHaveLength(1);
      const fastEntries = fast.metadata.managedFields as O[];
      expect(fastEntries).toHaveLength(1);
      const raw = fastEntries[0].fieldsV1;
      expect(raw).toBeInstanceOf(RawJson);
      expect((raw as RawJson).json).toBe(JSON.stringify(mine[0].fieldsV1));
      expect({ ...fastEntries[0], time: 't', fieldsV1: 0 }).toStrictEqual({ ...mine[0], time: 't', fieldsV1: 0 });
      // Without rawFields the entry is plain JSON, the same one.
      const plain = structuredClone(defaulted) as KObject;
      new FieldManager(info, SCHEMAS).update(null, plain, { manager: 'creator', subresource: '' });
      expect({ ...(plain.metadata.managedFields as O[])[0], time: 't' }).toStrictEqual({ ...mine[0], time: 't' });
      // Stored, the text stands where the object would be.
      const asObject = structuredClone({ ...fast, metadata: { ...fast.metadata, managedFields: [{ ...fastEntries[0], fieldsV1: JSON.parse((raw as RawJson).json) }] } });
      expect(encodeForStorage(fast).toString()).toBe(encodeForStorage(asObject as KObject).toString());
    });
  }

  it('an object that sets nothing a manager may own gets no managedFields', () => {
    const def = rootDefinition('scheduling.k8s.io', 'v1', 'PriorityClass');
    const obj = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'x', uid: 'u' } } as unknown as KObject;
    new FieldManager({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', definition: def, hasStatus: false }, SCHEMAS).update(null, obj, { manager: 'm', subresource: '' });
    expect(obj.metadata.managedFields).toBeUndefined();
  });
});
