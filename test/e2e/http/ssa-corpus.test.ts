// A corpus of apply and patch scenarios on StatefulSets. Each scenario is a sequence of
// writes by named managers; the expected objects, answers and managedFields are written by
// hand from kube's documented Server-Side Apply behaviour and the upstream tests
// (structured-merge-diff merge tests, test/integration/apiserver/apply), not taken from kapi.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { http, MERGE, type Obj } from './helpers.js';

const NSP = '/apis/apps/v1/namespaces/default/statefulsets';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

type Cfg = (name: string) => Obj;

type Step =
  | { apply: Cfg; by?: string; force?: boolean; sub?: 'status'; dry?: boolean; code: number; message?: string | ((name: string) => string) }
  | { merge: Obj; by?: string; ua?: string; sub?: 'status' | 'scale'; code: number; message?: string }
  | { put: (o: Obj) => void; by: string; code: number }
  | { create: Cfg; by: string; code: number };

interface Scenario {
  name: string;
  steps: Step[];
  /** Compared with toMatchObject against the final object. */
  object?: Obj;
  /** Dotted paths that must be absent from the final object. */
  absent?: string[];
  /** The exact managedFields, by `manager/Operation[/subresource]` → fieldsV1. */
  managed?: Record<string, Obj>;
  /** The final object does not exist. */
  missing?: boolean;
  /** Checks of the final managedFields list, in order. */
  entries?: (mf: Obj[]) => void;
  /** Indexes of steps whose answer carries the same resourceVersion as the previous step. */
  unchangedAt?: number[];
}

// ---- configurations ----

const TM = (name: string, containers: Obj[] = [{ name: 'c', image: 'nginx:1.27' }]) => ({
  metadata: { labels: { app: name } },
  spec: { containers },
});

/** The full config a primary applier owns. */
const full =
  (spec: Obj = {}, metadata: Obj = {}, containers?: Obj[]): Cfg =>
  (name) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, ...metadata },
    spec: { serviceName: name, selector: { matchLabels: { app: name } }, template: TM(name, containers), ...spec },
  });

/** A partial config: only what a second applier cares about. */
const part =
  (spec?: Obj, metadata: Obj = {}, extra: Obj = {}): Cfg =>
  (name) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, ...metadata }, ...(spec ? { spec } : {}), ...extra });

const containers = (cs: Obj[]) => ({ template: { spec: { containers: cs } } });

// ---- expected field sets ----

const C = (extra: Obj = {}) => ({ '.': {}, 'f:image': {}, 'f:name': {}, ...extra });
const TPL = (items: Obj = { 'k:{"name":"c"}': C() }, specExtra: Obj = {}) => ({
  'f:metadata': { 'f:labels': { 'f:app': {} } },
  'f:spec': { 'f:containers': items, ...specExtra },
});
/** fieldsV1 of full(spec) with the spec fields in `extra`. */
const FULL = (extra: Obj = {}, meta?: Obj, tpl: Obj = TPL()) => ({
  ...(meta ? { 'f:metadata': meta } : {}),
  'f:spec': { 'f:selector': {}, 'f:serviceName': {}, 'f:template': tpl, ...extra },
});
const SPEC = (fields: Obj) => ({ 'f:spec': fields });
const LABELS = (...keys: string[]) => ({ 'f:metadata': { 'f:labels': Object.fromEntries(keys.map((k) => [`f:${k}`, {}])) } });
const IMG = (name = 'c') => SPEC({ 'f:template': { 'f:spec': { 'f:containers': { [`k:{"name":"${name}"}`]: { 'f:image': {} } } } } });
const REPL = SPEC({ 'f:replicas': {} });

const conflict1 = (mgr: string, path: string) => `Apply failed with 1 conflict: conflict with ${mgr}: ${path}`;

const SCENARIOS: Scenario[] = [
  // -- one applier --
  { name: 'apply creates; the applier owns exactly its config', steps: [{ apply: full({ replicas: 2 }), code: 201 }], object: { spec: { replicas: 2 } }, managed: { 'a/Apply': FULL({ 'f:replicas': {} }) } },
  { name: 'apply without replicas: defaulted to 1, owned by nobody', steps: [{ apply: full(), code: 201 }], object: { spec: { replicas: 1, podManagementPolicy: 'OrderedReady' } }, managed: { 'a/Apply': FULL() } },
  { name: 'the same apply twice is a no-op', steps: [{ apply: full({ replicas: 2 }), code: 201 }, { apply: full({ replicas: 2 }), code: 200 }], unchangedAt: [1], managed: { 'a/Apply': FULL({ 'f:replicas': {} }) } },
  { name: 'adding a label', steps: [{ apply: full(), code: 201 }, { apply: full({}, { labels: { tier: 'db' } }), code: 200 }], object: { metadata: { labels: { tier: 'db' } } }, managed: { 'a/Apply': FULL({}, { 'f:labels': { 'f:tier': {} } }) } },
  {
    name: 'dropping an owned label deletes it',
    steps: [{ apply: full({}, { labels: { tier: 'db', keep: 'y' } }), code: 201 }, { apply: full({}, { labels: { keep: 'y' } }), code: 200 }],
    object: { metadata: { labels: { keep: 'y' } } },
    absent: ['metadata.labels.tier'],
    managed: { 'a/Apply': FULL({}, { 'f:labels': { 'f:keep': {} } }) },
  },
  { name: 'dropping the last label removes the labels map', steps: [{ apply: full({}, { labels: { tier: 'db' } }), code: 201 }, { apply: full(), code: 200 }], absent: ['metadata.labels'], managed: { 'a/Apply': FULL() } },
  { name: 'changing an image the applier owns', steps: [{ apply: full(), code: 201 }, { apply: full({}, {}, [{ name: 'c', image: 'nginx:1.28' }]), code: 200 }], object: { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } } } }, managed: { 'a/Apply': FULL() } },
  {
    name: 'adding a second container',
    steps: [{ apply: full(), code: 201 }, { apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }]), code: 200 }],
    object: { spec: { template: { spec: { containers: [{ name: 'c' }, { name: 'side', image: 'busybox' }] } } } },
    managed: { 'a/Apply': FULL({}, undefined, TPL({ 'k:{"name":"c"}': C(), 'k:{"name":"side"}': C() })) },
  },
  {
    name: 'dropping an owned container removes it',
    steps: [{ apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }]), code: 201 }, { apply: full(), code: 200 }],
    object: { spec: { template: { spec: { containers: [{ name: 'c' }] } } } },
    managed: { 'a/Apply': FULL() },
  },
  {
    name: 'dropping an owned replicas resets it to the default',
    steps: [{ apply: full({ replicas: 4 }), code: 201 }, { apply: full(), code: 200 }],
    object: { spec: { replicas: 1 } },
    managed: { 'a/Apply': FULL() },
  },
  {
    name: 'dropping an owned field without default deletes it',
    steps: [{ apply: full({ minReadySeconds: 10 }), code: 201 }, { apply: full(), code: 200 }],
    absent: ['spec.minReadySeconds'],
    managed: { 'a/Apply': FULL() },
  },
  {
    name: 'env is a map list keyed by name',
    steps: [{ apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }] }]), code: 201 }],
    managed: { 'a/Apply': FULL({}, undefined, TPL({ 'k:{"name":"c"}': C({ 'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } } }) })) },
  },
  {
    name: 'ports are keyed by containerPort and the defaulted protocol',
    steps: [{ apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80, name: 'web' }] }]), code: 201 }],
    object: { spec: { template: { spec: { containers: [{ ports: [{ containerPort: 80, protocol: 'TCP', name: 'web' }] }] } } } },
    managed: {
      'a/Apply': FULL({}, undefined, TPL({ 'k:{"name":"c"}': C({ 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } } }) })),
    },
  },
  {
    name: 'volumeClaimTemplates is atomic',
    steps: [
      {
        apply: full(
          { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] },
          {},
          [{ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
        ),
        code: 201,
      },
    ],
    managed: {
      'a/Apply': FULL(
        { 'f:volumeClaimTemplates': {} },
        undefined,
        TPL({ 'k:{"name":"c"}': C({ 'f:volumeMounts': { 'k:{"mountPath":"/data"}': { '.': {}, 'f:mountPath': {}, 'f:name': {} } } }) }),
      ),
    },
  },
  {
    name: 'updateStrategy is a granular struct',
    steps: [{ apply: full({ updateStrategy: { type: 'OnDelete' } }), code: 201 }],
    object: { spec: { updateStrategy: { type: 'OnDelete' } } },
    managed: { 'a/Apply': FULL({ 'f:updateStrategy': { 'f:type': {} } }) },
  },
  {
    name: 'persistentVolumeClaimRetentionPolicy: the defaulted half is not owned',
    steps: [{ apply: full({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' } }), code: 201 }],
    object: { spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } } },
    managed: { 'a/Apply': FULL({ 'f:persistentVolumeClaimRetentionPolicy': { 'f:whenDeleted': {} } }) },
  },
  {
    name: 'nodeSelector is an atomic map',
    steps: [{ apply: full({}, {}, undefined), code: 201 }, { apply: part({ template: { spec: { nodeSelector: { disk: 'ssd' } } } }), by: 'b', code: 200 }],
    object: { spec: { template: { spec: { nodeSelector: { disk: 'ssd' } } } } },
    managed: { 'a/Apply': FULL(), 'b/Apply': SPEC({ 'f:template': { 'f:spec': { 'f:nodeSelector': {} } } }) },
  },
  {
    name: 'finalizers are a set keyed by value',
    steps: [{ apply: full({}, { finalizers: ['example.com/keep'] }), code: 201 }],
    object: { metadata: { finalizers: ['example.com/keep'] } },
    managed: { 'a/Apply': FULL({}, { 'f:finalizers': { 'v:"example.com/keep"': {} } }) },
  },
  {
    name: 'annotations are a granular map',
    steps: [{ apply: full({}, { annotations: { note: 'x' } }), code: 201 }, { apply: part(undefined, { annotations: { other: 'y' } }), by: 'b', code: 200 }],
    object: { metadata: { annotations: { note: 'x', other: 'y' } } },
    managed: { 'a/Apply': FULL({}, { 'f:annotations': { 'f:note': {} } }), 'b/Apply': { 'f:metadata': { 'f:annotations': { 'f:other': {} } } } },
  },
  {
    name: 'status in a main-resource apply is neither applied nor owned',
    steps: [{ apply: (n) => ({ ...full()(n), status: { replicas: 5 } }), code: 201 }],
    object: { status: { replicas: 0 } },
    managed: { 'a/Apply': FULL() },
  },
  {
    name: 'an empty struct in a config is owned as a field',
    steps: [{ apply: full({ ordinals: {} }), code: 201 }],
    managed: { 'a/Apply': FULL({ 'f:ordinals': {} }) },
  },

  // -- two appliers --
  {
    name: 'disjoint labels from two appliers',
    steps: [{ apply: full({}, { labels: { a: '1' } }), code: 201 }, { apply: part(undefined, { labels: { b: '2' } }), by: 'b', code: 200 }],
    object: { metadata: { labels: { a: '1', b: '2' } } },
    managed: { 'a/Apply': FULL({}, { 'f:labels': { 'f:a': {} } }), 'b/Apply': LABELS('b') },
  },
  {
    name: 'a second applier adds a container after the first one',
    steps: [{ apply: full(), code: 201 }, { apply: part(containers([{ name: 'side', image: 'busybox' }])), by: 'b', code: 200 }],
    object: { spec: { template: { spec: { containers: [{ name: 'c' }, { name: 'side' }] } } } },
    managed: { 'a/Apply': FULL(), 'b/Apply': SPEC({ 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': C() } } } }) },
  },
  {
    // The object is the same, but its managedFields are not: that is a write.
    name: 'the same value from a second applier is shared',
    steps: [{ apply: full({ replicas: 3 }), code: 201 }, { apply: part({ replicas: 3 }), by: 'b', code: 200 }],
    object: { spec: { replicas: 3 } },
    managed: { 'a/Apply': FULL({ 'f:replicas': {} }), 'b/Apply': REPL },
  },
  {
    name: 'sharer b omits the field: a alone owns it, value kept',
    steps: [{ apply: full({ replicas: 3 }), code: 201 }, { apply: part({ replicas: 3 }), by: 'b', code: 200 }, { apply: part(undefined, { labels: { b: '1' } }), by: 'b', code: 200 }],
    object: { spec: { replicas: 3 } },
    managed: { 'a/Apply': FULL({ 'f:replicas': {} }), 'b/Apply': LABELS('b') },
  },
  {
    name: 'sharer a omits the field: b alone owns it, value kept',
    steps: [{ apply: full({ replicas: 3 }), code: 201 }, { apply: part({ replicas: 3 }), by: 'b', code: 200 }, { apply: full(), code: 200 }],
    object: { spec: { replicas: 3 } },
    managed: { 'a/Apply': FULL(), 'b/Apply': REPL },
  },
  {
    name: 'both sharers omit the field: reset to its default',
    steps: [
      { apply: full({ replicas: 3 }), code: 201 },
      { apply: part({ replicas: 3 }), by: 'b', code: 200 },
      { apply: full(), code: 200 },
      { apply: part(undefined, { labels: { b: '1' } }), by: 'b', code: 200 },
    ],
    object: { spec: { replicas: 1 } },
    managed: { 'a/Apply': FULL(), 'b/Apply': LABELS('b') },
  },
  {
    name: 'a different value from a second applier conflicts',
    steps: [{ apply: full({ replicas: 3 }), code: 201 }, { apply: part({ replicas: 4 }), by: 'b', code: 409, message: conflict1('"a"', '.spec.replicas') }],
    object: { spec: { replicas: 3 } },
    managed: { 'a/Apply': FULL({ 'f:replicas': {} }) },
  },
  {
    name: 'a conflict on a list item field names the item by key',
    steps: [
      { apply: full(), code: 201 },
      { apply: part(containers([{ name: 'c', image: 'nginx:2' }])), by: 'b', code: 409, message: conflict1('"a"', '.spec.template.spec.containers[name="c"].image') },
    ],
    object: { spec: { template: { spec: { containers: [{ image: 'nginx:1.27' }] } } } },
  },
  {
    name: 'force on a list item field: b owns the image, a keeps the item',
    steps: [{ apply: full(), code: 201 }, { apply: part(containers([{ name: 'c', image: 'nginx:2' }])), by: 'b', force: true, code: 200 }],
    object: { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
    managed: {
      'a/Apply': FULL({}, undefined, TPL({ 'k:{"name":"c"}': { '.': {}, 'f:name': {} } })),
      'b/Apply': SPEC({ 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': C() } } } }),
    },
  },
  {
    name: 'after a force, the previous owner conflicts when it re-applies its value',
    steps: [
      { apply: full({ replicas: 2 }), code: 201 },
      { apply: part({ replicas: 5 }), by: 'b', force: true, code: 200 },
      { apply: full({ replicas: 2 }), code: 409, message: conflict1('"b"', '.spec.replicas') },
    ],
    object: { spec: { replicas: 5 } },
    managed: { 'a/Apply': FULL(), 'b/Apply': REPL },
  },
  {
    name: 'a conflict on a label value',
    steps: [{ apply: full({}, { labels: { x: '1' } }), code: 201 }, { apply: part(undefined, { labels: { x: '2' } }), by: 'b', code: 409, message: conflict1('"a"', '.metadata.labels.x') }],
  },
  {
    name: 'a field shared by two managers conflicts with both',
    steps: [
      { apply: full({ replicas: 3 }), code: 201 },
      { apply: part({ replicas: 3 }), by: 'c', code: 200 },
      { apply: part({ replicas: 4 }), by: 'b', code: 409, message: 'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.replicas\nconflicts with "c":\n- .spec.replicas' },
    ],
  },
  {
    name: 'force takes a shared field from every sharer',
    steps: [{ apply: full({ replicas: 3 }), code: 201 }, { apply: part({ replicas: 3 }), by: 'c', code: 200 }, { apply: part({ replicas: 4 }), by: 'b', force: true, code: 200 }],
    object: { spec: { replicas: 4 } },
    managed: { 'a/Apply': FULL(), 'b/Apply': REPL },
  },
  {
    name: 'the atomic selector conflicts as one field',
    steps: [{ apply: full(), code: 201 }, { apply: part({ selector: { matchLabels: { other: 'x' } } }), by: 'b', code: 409, message: conflict1('"a"', '.spec.selector') }],
  },
  {
    name: 'the atomic nodeSelector conflicts as one field',
    steps: [
      { apply: (n) => full({ template: { ...TM(n), spec: { ...TM(n).spec, nodeSelector: { a: '1' } } } })(n), code: 201 },
      { apply: part({ template: { spec: { nodeSelector: { b: '2' } } } }), by: 'b', code: 409, message: conflict1('"a"', '.spec.template.spec.nodeSelector') },
    ],
  },
  {
    name: 'env entries from two appliers merge by name',
    steps: [
      { apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }] }]), code: 201 },
      { apply: part(containers([{ name: 'c', env: [{ name: 'B', value: '2' }] }])), by: 'b', code: 200 },
    ],
    object: { spec: { template: { spec: { containers: [{ env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] } } } },
    managed: {
      'a/Apply': FULL({}, undefined, TPL({ 'k:{"name":"c"}': C({ 'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } } }) })),
      'b/Apply': SPEC({ 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:env': { 'k:{"name":"B"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:name': {} } } } } }),
    },
  },
  {
    name: 'an applier dropping its env entry leaves the other applier’s',
    steps: [
      { apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27', env: [{ name: 'A', value: '1' }] }]), code: 201 },
      { apply: part(containers([{ name: 'c', env: [{ name: 'B', value: '2' }] }])), by: 'b', code: 200 },
      { apply: full(), code: 200 },
    ],
    object: { spec: { template: { spec: { containers: [{ env: [{ name: 'B', value: '2' }] }] } } } },
  },
  {
    name: 'a container owned by another applier survives its first owner dropping it',
    steps: [
      { apply: full({}, {}, [{ name: 'c', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }]), code: 201 },
      { apply: part(containers([{ name: 'side', image: 'busybox' }])), by: 'b', code: 200 },
      { apply: full(), code: 200 },
    ],
    object: { spec: { template: { spec: { containers: [{ name: 'c' }, { name: 'side', image: 'busybox' }] } } } },
    managed: { 'a/Apply': FULL(), 'b/Apply': SPEC({ 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"side"}': C() } } } }) },
  },
  {
    name: 'force without a conflict is an ordinary apply',
    steps: [{ apply: full(), code: 201 }, { apply: part(undefined, { labels: { b: '1' } }), by: 'b', force: true, code: 200 }],
    managed: { 'a/Apply': FULL(), 'b/Apply': LABELS('b') },
  },

  // -- appliers and updaters --
  {
    name: 'a merge patch takes a field from an applier without conflict',
    steps: [{ apply: full({ replicas: 2 }), code: 201 }, { merge: { spec: { replicas: 6 } }, by: 'ed', code: 200 }],
    object: { spec: { replicas: 6 } },
    managed: { 'a/Apply': FULL(), 'ed/Update': REPL },
  },
  {
    name: 'the applier then conflicts with the updater, named with its apiVersion',
    steps: [{ apply: full({ replicas: 2 }), code: 201 }, { merge: { spec: { replicas: 6 } }, by: 'ed', code: 200 }, { apply: full({ replicas: 2 }), code: 409, message: conflict1('"ed" using apps/v1', '.spec.replicas') }],
  },
  {
    name: 'force back from an updater empties and drops its entry',
    steps: [{ apply: full({ replicas: 2 }), code: 201 }, { merge: { spec: { replicas: 6 } }, by: 'ed', code: 200 }, { apply: full({ replicas: 2 }), force: true, code: 200 }],
    object: { spec: { replicas: 2 } },
    managed: { 'a/Apply': FULL({ 'f:replicas': {} }) },
  },
  {
    name: 'a PUT by an updater owns what it changed',
    steps: [
      { apply: full(), code: 201 },
      {
        put: (o) => {
          o.spec.template.spec.containers[0].image = 'nginx:9';
        },
        by: 'editor',
        code: 200,
      },
    ],
    object: { spec: { template: { spec: { containers: [{ image: 'nginx:9' }] } } } },
    managed: { 'a/Apply': FULL({}, undefined, TPL({ 'k:{"name":"c"}': { '.': {}, 'f:name': {} } })), 'editor/Update': IMG() },
  },
  {
    name: 'an applier dropping a field an updater also set still removes it',
    steps: [{ apply: full({}, { labels: { x: '1' } }), code: 201 }, { merge: { metadata: { labels: { x: '1', y: '2' } } }, by: 'ed', code: 200 }, { apply: full(), code: 200 }],
    object: { metadata: { labels: { y: '2' } } },
    absent: ['metadata.labels.x'],
    managed: { 'a/Apply': FULL(), 'ed/Update': LABELS('y') },
  },
  {
    name: 'an updater changing nothing gets no entry',
    steps: [{ apply: full({ replicas: 2 }), code: 201 }, { merge: { spec: { replicas: 2 } }, by: 'ed', code: 200 }],
    unchangedAt: [1],
    managed: { 'a/Apply': FULL({ 'f:replicas': {} }) },
  },
  {
    name: 'the same updater accumulates its fields',
    steps: [{ apply: full(), code: 201 }, { merge: { spec: { replicas: 2 } }, by: 'ed', code: 200 }, { merge: { metadata: { labels: { z: '1' } } }, by: 'ed', code: 200 }],
    managed: { 'a/Apply': FULL(), 'ed/Update': { 'f:metadata': { 'f:labels': { '.': {}, 'f:z': {} } }, 'f:spec': { 'f:replicas': {} } } },
  },
  {
    name: 'an updater without fieldManager is named from its User-Agent',
    steps: [{ apply: full(), code: 201 }, { merge: { spec: { replicas: 2 } }, ua: 'rollout-operator/v2.1 (linux)', code: 200 }],
    managed: { 'a/Apply': FULL(), 'rollout-operator/Update': REPL },
  },
  {
    name: 'a create by POST, then an apply of the same values shares them',
    steps: [{ create: full({ replicas: 1 }), by: 'creator', code: 201 }, { apply: part({ replicas: 1 }), by: 'b', code: 200 }],
    object: { spec: { replicas: 1 } },
  },
  {
    name: 'the same apply again after sharing is a no-op',
    steps: [{ create: full({ replicas: 1 }), by: 'creator', code: 201 }, { apply: part({ replicas: 1 }), by: 'b', code: 200 }, { apply: part({ replicas: 1 }), by: 'b', code: 200 }],
    unchangedAt: [2],
  },
  {
    name: 'a create by POST, then an apply of another value conflicts with the creator',
    steps: [{ create: full({ replicas: 1 }), by: 'creator', code: 201 }, { apply: part({ replicas: 2 }), by: 'b', code: 409, message: conflict1('"creator" using apps/v1', '.spec.replicas') }],
  },
  {
    name: 'a defaulted field owned by the creator conflicts too',
    steps: [{ create: full(), by: 'creator', code: 201 }, { apply: part({ podManagementPolicy: 'Parallel' }), by: 'b', code: 409, message: conflict1('"creator" using apps/v1', '.spec.podManagementPolicy') }],
  },
  {
    // A reset leaves the object untracked; the first apply then finds its fields owned by
    // before-first-apply (kube's skipNonApplied), and conflicts with it.
    name: 'a reset through merge patch then an apply: conflicts with before-first-apply',
    steps: [
      { create: full(), by: 'creator', code: 201 },
      { merge: { metadata: { managedFields: [{}] } }, by: 'ed', code: 200 },
      { apply: part({ replicas: 2 }), by: 'b', code: 409, message: conflict1('"before-first-apply" using apps/v1', '.spec.replicas') },
      { apply: part({ replicas: 2 }), by: 'b', force: true, code: 200 },
    ],
    object: { spec: { replicas: 2 } },
    entries: (mf) => {
      expect(mf.map((e) => `${e.manager}/${e.operation}`)).toStrictEqual(['b/Apply', 'before-first-apply/Update']);
      expect(mf[0].fieldsV1).toStrictEqual(REPL);
      expect(mf[1].fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    },
  },
  {
    name: 'an empty managedFields list resets too: nothing is tracked afterwards',
    steps: [
      { apply: full(), code: 201 },
      { merge: { metadata: { managedFields: [] } }, by: 'ed', code: 200 },
      { merge: { metadata: { labels: { x: 'y' } } }, by: 'ed', code: 200 },
    ],
    entries: (mf) => expect(mf).toBeUndefined(),
  },

  // -- subresources --
  {
    name: 'an apply to /status is tracked with subresource status',
    steps: [{ apply: full(), code: 201 }, { apply: part(undefined, {}, { status: { replicas: 1 } }), by: 'ctl', sub: 'status', code: 200 }],
    object: { status: { replicas: 1 } },
    managed: { 'a/Apply': FULL(), 'ctl/Apply/status': { 'f:status': { 'f:replicas': {} } } },
  },
  {
    name: 'a /status apply ignores spec',
    steps: [{ apply: full({ replicas: 2 }), code: 201 }, { apply: part({ replicas: 7 }, {}, { status: { replicas: 1 } }), by: 'ctl', sub: 'status', code: 200 }],
    object: { spec: { replicas: 2 }, status: { replicas: 1 } },
    managed: { 'a/Apply': FULL({ 'f:replicas': {} }), 'ctl/Apply/status': { 'f:status': { 'f:replicas': {} } } },
  },
  {
    name: 'two /status appliers conflict, named with their subresource',
    steps: [
      { apply: full(), code: 201 },
      { apply: part(undefined, {}, { status: { replicas: 1 } }), by: 'ctl', sub: 'status', code: 200 },
      { apply: part(undefined, {}, { status: { replicas: 2 } }), by: 'other', sub: 'status', code: 409, message: conflict1('"ctl" with subresource "status"', '.status.replicas') },
    ],
  },
  {
    name: 'a /status merge patch is an Update with subresource status',
    steps: [{ apply: full(), code: 201 }, { merge: { status: { replicas: 1 } }, by: 'kubelet', sub: 'status', code: 200 }],
    managed: { 'a/Apply': FULL(), 'kubelet/Update/status': { 'f:status': { 'f:replicas': {} } } },
  },
  {
    name: 'a /scale patch owns replicas with subresource scale; an applier then conflicts',
    steps: [
      { apply: full({ replicas: 2 }), code: 201 },
      { merge: { spec: { replicas: 4 } }, by: 'hpa', sub: 'scale', code: 200 },
      { apply: full({ replicas: 2 }), code: 409, message: conflict1('"hpa" with subresource "scale" using apps/v1', '.spec.replicas') },
    ],
    object: { spec: { replicas: 4 } },
    managed: { 'a/Apply': FULL(), 'hpa/Update/scale': REPL },
  },

  // -- errors and dry run --
  {
    // kube 1.33 does not validate a StatefulSet's pod template beyond its labels, restart
    // policy and deadline: a container without an image is accepted (the pods then fail).
    name: 'an apply that leaves a container without image is accepted, as kube 1.33 accepts it',
    steps: [{ apply: full(), code: 201 }, { apply: full({}, {}, [{ name: 'c' }]), code: 200 }],
    absent: ['spec.template.spec.containers.0.image'],
  },
  {
    name: 'an apply whose result is invalid fails (template labels that miss the selector)',
    steps: [
      { apply: full(), code: 201 },
      { apply: (n) => ({ ...full()(n), spec: { ...(full()(n).spec as Obj), template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } }), code: 422 },
    ],
    managed: { 'a/Apply': FULL() },
  },
  { name: 'a dry-run apply creates nothing', steps: [{ apply: full(), dry: true, code: 201 }], missing: true },
  {
    name: 'an apply that would create with a uid conflicts',
    steps: [
      {
        apply: (n) => ({ ...full()(n), metadata: { name: n, uid: '88e00824-7f0e-11e8-94a1-c8d3ffb15800' } }),
        code: 409,
        message: (n) => `Operation cannot be fulfilled on statefulsets.apps "${n}": uid mismatch: the provided object specified uid 88e00824-7f0e-11e8-94a1-c8d3ffb15800, and no existing object was found`,
      },
    ],
    missing: true,
  },
  {
    name: 'twenty updaters fold into ten Update entries, the oldest as ancient-changes',
    steps: [
      { apply: full({}, { labels: { applier: 'true' } }), code: 201 },
      ...Array.from({ length: 20 }, (_, i) => ({ merge: { metadata: { labels: { [`updater${i}`]: 'new' } } }, by: `updater${i}`, code: 200 })),
    ],
    entries: (mf) => {
      expect(mf).toHaveLength(11);
      expect(mf[0].manager).toBe('a');
      expect(mf[1].manager).toBe('ancient-changes');
    },
  },
  {
    name: 'a dry-run apply still conflicts',
    steps: [{ apply: full({ replicas: 1 }), code: 201 }, { apply: part({ replicas: 3 }), by: 'b', dry: true, code: 409, message: conflict1('"a"', '.spec.replicas') }],
  },
  {
    name: 'a dry-run change leaves the stored object alone',
    steps: [{ apply: full({ replicas: 1 }), code: 201 }, { apply: full({ replicas: 3 }), dry: true, code: 200 }],
    object: { spec: { replicas: 1 } },
  },
  {
    name: 'kubectl upgrading from client-side apply takes the fields the annotation describes',
    steps: [
      {
        create: (n) => ({ ...full({ replicas: 2 })(n), metadata: { name: n, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(full({ replicas: 2 })(n)) } } }),
        by: 'kubectl-client-side-apply',
        code: 201,
      },
      { apply: full({ replicas: 3 }), by: 'kubectl', code: 200 },
    ],
    object: { spec: { replicas: 3 } },
  },
  {
    name: 'any other applier conflicts with the client-side applier',
    steps: [
      {
        create: (n) => ({ ...full({ replicas: 2 })(n), metadata: { name: n, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(full({ replicas: 2 })(n)) } } }),
        by: 'kubectl-client-side-apply',
        code: 201,
      },
      { apply: full({ replicas: 3 }), by: 'helm', code: 409, message: conflict1('"kubectl-client-side-apply" using apps/v1', '.spec.replicas') },
    ],
  },
];

function dig(o: Obj, path: string): unknown {
  let v: unknown = o;
  for (const p of path.split('.')) v = v && typeof v === 'object' ? (v as Obj)[p] : undefined;
  return v;
}

describe('server-side apply corpus (StatefulSets)', () => {
  let k: KapiProcess;
  beforeAll(async () => {
    k = await startKapi();
  });
  afterAll(async () => {
    await stopKapi(k);
  });

  it('has at least 50 scenarios', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(50);
  });

  SCENARIOS.forEach((sc, idx) => {
    it(sc.name, async () => {
      const name = `corpus-${idx}`;
      const path = `${NSP}/${name}`;
      let prevRv: string | undefined;
      for (const [i, step] of sc.steps.entries()) {
        let r;
        if ('apply' in step) {
          const q = new URLSearchParams({ fieldManager: step.by ?? 'a' });
          if (step.force) q.set('force', 'true');
          if (step.dry) q.set('dryRun', 'All');
          r = await http(k, 'PATCH', `${path}${step.sub ? `/${step.sub}` : ''}?${q}`, step.apply(name), APPLY);
        } else if ('merge' in step) {
          const q = step.by ? `?fieldManager=${step.by}` : '';
          r = await http(k, 'PATCH', `${path}${step.sub ? `/${step.sub}` : ''}${q}`, step.merge, { ...MERGE, ...(step.ua ? { 'user-agent': step.ua } : {}) });
        } else if ('put' in step) {
          const cur = (await http(k, 'GET', path)).json as Obj;
          step.put(cur);
          r = await http(k, 'PUT', `${path}?fieldManager=${step.by}`, cur);
        } else {
          r = await http(k, 'POST', `${NSP}?fieldManager=${step.by}`, step.create(name));
        }
        expect(r.status, `step ${i}: ${r.text.slice(0, 1500)}`).toBe(step.code);
        const body = r.json as Obj;
        if ('message' in step && step.message !== undefined) {
          expect(body.message).toBe(typeof step.message === 'function' ? step.message(name) : step.message);
          if (step.code === 409) expect(body.reason).toBe('Conflict');
          if (String(body.message).startsWith('Apply failed')) {
            expect(body.details.causes.every((c: Obj) => c.reason === 'FieldManagerConflict')).toBe(true);
          }
        }
        if (r.status < 300) {
          const rv = body.metadata?.resourceVersion as string | undefined;
          if (sc.unchangedAt?.includes(i)) expect(rv, `step ${i} should not write`).toBe(prevRv);
          prevRv = rv;
        }
      }
      const got = await http(k, 'GET', path);
      if (sc.missing) {
        expect(got.status).toBe(404);
        return;
      }
      expect(got.status).toBe(200);
      const o = got.json as Obj;
      if (sc.object) expect(o).toMatchObject(sc.object);
      for (const p of sc.absent ?? []) expect(dig(o, p), p).toBeUndefined();
      sc.entries?.(o.metadata.managedFields as Obj[]);
      if (sc.managed) {
        const actual: Record<string, Obj> = {};
        for (const e of (o.metadata.managedFields ?? []) as Obj[]) {
          expect(e.fieldsType).toBe('FieldsV1');
          expect(e.apiVersion).toBe('apps/v1');
          actual[`${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`] = e.fieldsV1;
        }
        expect(actual).toStrictEqual(sc.managed);
      }
    });
  });
});
