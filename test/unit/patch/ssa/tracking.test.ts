// Field tracking on varied objects: the managedFields every write and apply produces are pinned
// (recorded from the straightforward implementation before the fast one), the one-pass
// changes() agrees with compare(), and the set algebra, which shares subtrees between sets,
// agrees with plain path lists and leaves its operands as they were.

import { describe, expect, it } from 'vitest';
import { FieldManager } from '../../../../src/patch/ssa/field-manager.js';
import { type StatusError } from '../../../../src/machinery/errors.js';
import { SCHEMAS } from '../../../../src/schema/types/index.js';
import { TypeResolver, changes, compare, toFieldSet } from '../../../../src/patch/ssa/typed.js';
import { FieldSet, comparePE, keyPE, pathString, type PathElement } from '../../../../src/patch/ssa/fieldpath.js';
import type { KObject } from '../../../../src/machinery/object.js';

const DEF = 'io.k8s.api.apps.v1.StatefulSet';
const r = new TypeResolver(SCHEMAS);
const root = r.root(DEF);
type O = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const fm = () => new FieldManager({ group: 'apps', version: 'v1', kind: 'StatefulSet', definition: DEF, hasStatus: true }, SCHEMAS);
/** managedFields as JSON text (key order included), times blanked. */
const mf = (o: O): string => JSON.stringify(o.metadata.managedFields ?? null, (k, v: unknown) => (k === 'time' ? 'T' : v));

/** A StatefulSet using lists of every kind, maps, atomic maps, empty objects and nulls. */
function rich(): O {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: 'rich',
      namespace: 'ns',
      labels: { app: 'x', 'app.kubernetes.io/name': 'x', z: '' },
      annotations: { a: '1' },
      finalizers: ['example.com/b', 'example.com/a'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u1' }],
    },
    spec: {
      replicas: 2,
      serviceName: 'svc',
      selector: { matchLabels: { app: 'x' } },
      template: {
        metadata: { labels: { app: 'x' }, annotations: {} },
        spec: {
          nodeSelector: { disk: 'ssd' },
          tolerations: [{ key: 'k', operator: 'Exists' }],
          containers: [
            {
              name: 'app',
              image: 'nginx:1',
              args: ['--a', '--b'],
              ports: [
                { containerPort: 80, protocol: 'TCP', name: 'web' },
                { containerPort: 80, protocol: 'UDP', name: 'webu' },
                { containerPort: 81 },
              ],
              env: [
                { name: 'A', value: '1' },
                { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ],
              resources: {},
              volumeMounts: [{ name: 'data', mountPath: '/d' }],
              securityContext: null,
            },
            { name: 'side', image: 'busybox', command: [] },
          ],
          volumes: [{ name: 'data', emptyDir: {} }],
          imagePullSecrets: [{ name: 's1' }, { name: 's2' }],
        },
      },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    },
  };
}

describe('managedFields of writes and applies', () => {
  it('create, updates through the main resource and /status, reset and ownership hand-over', () => {
    const m = fm();
    const out: string[] = [];
    const a = rich();
    m.update(null, a as KObject, { manager: 'creator', subresource: '' });
    out.push(mf(a));

    const b = clone(a);
    b.spec.replicas = 5;
    b.metadata.labels.z = 'changed';
    delete b.metadata.annotations;
    b.metadata.finalizers.push('example.com/c');
    b.spec.template.spec.containers[0].ports.splice(1, 1);
    b.spec.template.spec.containers[0].env[0].value = '2';
    b.spec.template.spec.containers.push({ name: 'third', image: 'x', ports: [{ containerPort: 9 }] });
    b.spec.template.spec.nodeSelector = null;
    b.spec.template.spec.tolerations = [];
    m.update(a as KObject, b as KObject, { manager: 'editor', subresource: '' });
    out.push(mf(b));

    const c = clone(b);
    c.status = { replicas: 3, readyReplicas: 1, conditions: [{ type: 'A', status: 'True' }] };
    c.spec.replicas = 9; // /status never owns spec
    m.update(b as KObject, c as KObject, { manager: 'ctl', subresource: 'status' });
    out.push(mf(c));

    const d = clone(c);
    d.metadata.managedFields = [{}];
    d.metadata.labels.reset = 'y';
    m.update(c as KObject, d as KObject, { manager: 'resetter', subresource: '' });
    out.push(mf(d));

    const e = clone(c);
    e.spec.template.spec.containers = [{ name: 'only', image: 'y' }];
    m.update(c as KObject, e as KObject, { manager: 'creator', subresource: '' });
    out.push(mf(e));

    // An untracked object stays untracked on update.
    const f = clone(a);
    delete f.metadata.managedFields;
    const g = clone(f);
    g.spec.replicas = 1;
    m.update(f as KObject, g as KObject, { manager: 'x', subresource: '' });
    out.push(mf(g));
    expect(out).toMatchInlineSnapshot(`
      [
        "[{"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:a":{}},"f:finalizers":{".":{},"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/name":{},"f:z":{}},"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{".":{},"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:command":{},"f:image":{},"f:name":{}}},"f:imagePullSecrets":{".":{},"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:nodeSelector":{},"f:tolerations":{},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}}]",
        "[{"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{".":{},"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/name":{}},"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{".":{},"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:command":{},"f:image":{},"f:name":{}}},"f:imagePullSecrets":{".":{},"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"editor","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{"v:\\"example.com/c\\"":{}},"f:labels":{"f:z":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{"f:env":{"k:{\\"name\\":\\"A\\"}":{"f:value":{}}}},"k:{\\"name\\":\\"third\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":9,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}},"f:nodeSelector":{},"f:tolerations":{}}}}}}]",
        "[{"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{".":{},"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/name":{}},"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{".":{},"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:command":{},"f:image":{},"f:name":{}}},"f:imagePullSecrets":{".":{},"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"ctl","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:conditions":{".":{},"k:{\\"type\\":\\"A\\"}":{".":{},"f:status":{},"f:type":{}}},"f:readyReplicas":{},"f:replicas":{}}},"subresource":"status"},{"manager":"editor","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{"v:\\"example.com/c\\"":{}},"f:labels":{"f:z":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{"f:env":{"k:{\\"name\\":\\"A\\"}":{"f:value":{}}}},"k:{\\"name\\":\\"third\\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":9,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}},"f:nodeSelector":{},"f:tolerations":{}}}}}}]",
        "null",
        "[{"manager":"creator","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{".":{},"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/name":{}},"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"only\\"}":{".":{},"f:image":{},"f:name":{}}},"f:imagePullSecrets":{".":{},"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"ctl","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:conditions":{".":{},"k:{\\"type\\":\\"A\\"}":{".":{},"f:status":{},"f:type":{}}},"f:readyReplicas":{},"f:replicas":{}}},"subresource":"status"},{"manager":"editor","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:finalizers":{"v:\\"example.com/c\\"":{}},"f:labels":{"f:z":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:nodeSelector":{},"f:tolerations":{}}}}}}]",
        "null",
      ]
    `);
  });

  it('creates of odd shapes: empty objects, nulls, empty lists, sets of numbers', () => {
    const m = fm();
    const shapes: O[] = [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'e' }, spec: {} },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'e', labels: {}, annotations: null, finalizers: [] }, spec: { template: { spec: { containers: [] } } } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'e' }, spec: { template: { spec: { containers: [{ name: 'c', args: null, env: [], ports: [{ containerPort: 1 }, { containerPort: 1 }] }] } } } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'e' }, spec: { template: { spec: { securityContext: { supplementalGroups: [3, 1, 2] } } } }, status: { replicas: 1 } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'e' }, spec: { selector: null, template: null, updateStrategy: { rollingUpdate: {} } } },
      // a long map list with repeated keys (a repeated element is one leaf, as structured-merge-diff compares it)
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'e' }, spec: { template: { spec: { containers: [{ name: 'c', env: Array.from({ length: 14 }, (_, i) => (i % 3 ? { name: `E${i % 11}`, value: `${i}` } : { name: `E${i % 11}` })) }] } } } },
    ];
    const out = shapes.map((s) => {
      const o = clone(s);
      m.update(null, o as KObject, { manager: 'm', subresource: '' });
      return mf(o);
    });
    expect(out).toMatchInlineSnapshot(`
      [
        "null",
        "[{"manager":"m","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{},"f:finalizers":{},"f:labels":{}},"f:spec":{"f:template":{"f:spec":{"f:containers":{}}}}}}]",
        "[{"manager":"m","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:args":{},"f:env":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":1,\\"protocol\\":\\"TCP\\"}":{}}}}}}}}}]",
        "[{"manager":"m","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:securityContext":{".":{},"f:supplementalGroups":{}}}}}}}]",
        "[{"manager":"m","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:updateStrategy":{"f:rollingUpdate":{}}}}}]",
        "[{"manager":"m","operation":"Update","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:env":{".":{},"k:{\\"name\\":\\"E0\\"}":{},"k:{\\"name\\":\\"E1\\"}":{},"k:{\\"name\\":\\"E10\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"E2\\"}":{},"k:{\\"name\\":\\"E3\\"}":{".":{},"f:name":{}},"k:{\\"name\\":\\"E4\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"E5\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"E6\\"}":{".":{},"f:name":{}},"k:{\\"name\\":\\"E7\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"E8\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"E9\\"}":{".":{},"f:name":{}}},"f:name":{}}}}}}}}]",
      ]
    `);
  });

  it('two appliers: shared fields, conflicts, force, dropped fields pruned', () => {
    const m = fm();
    const out: string[] = [];
    const conf = (x: O) => ({ ...clone(x) });
    const a0 = rich();
    delete a0.metadata.namespace;
    let live = m.apply(null, conf(a0), { manager: 'a', subresource: '' }, false);
    out.push(mf(live));
    const b0 = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'rich', labels: { b: '1' } }, spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox', args: ['x'] }, { name: 'bside', image: 'b' }] } } } };
    live = m.apply(live, conf(b0), { manager: 'b', subresource: '' }, false);
    out.push(mf(live));
    const b1 = clone(b0);
    b1.spec.template.spec.containers[0].image = 'other';
    try {
      m.apply(live, conf(b1), { manager: 'b', subresource: '' }, false);
      out.push('no conflict');
    } catch (e) {
      out.push((e as StatusError).message);
    }
    live = m.apply(live, conf(b1), { manager: 'b', subresource: '' }, true);
    out.push(mf(live));
    // a drops its second container and a label: what only a owned goes, what b shares stays
    const a1 = rich();
    a1.spec.template.spec.containers.pop();
    delete a1.metadata.labels.z;
    live = m.apply(live, conf(a1), { manager: 'a', subresource: '' }, false);
    out.push(mf(live));
    out.push(JSON.stringify(live.spec));
    // the same apply again changes nothing
    const again = m.apply(live, conf(a1), { manager: 'a', subresource: '' }, false);
    out.push(mf(again));
    expect(out).toMatchInlineSnapshot(`
      [
        "[{"manager":"a","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:a":{}},"f:finalizers":{"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{"f:app":{},"f:app.kubernetes.io/name":{},"f:z":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:command":{},"f:image":{},"f:name":{}}},"f:imagePullSecrets":{"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:nodeSelector":{},"f:tolerations":{},"f:volumes":{"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}}]",
        "[{"manager":"a","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:a":{}},"f:finalizers":{"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{"f:app":{},"f:app.kubernetes.io/name":{},"f:z":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:command":{},"f:image":{},"f:name":{}}},"f:imagePullSecrets":{"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:nodeSelector":{},"f:tolerations":{},"f:volumes":{"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"b","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:b":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"bside\\"}":{".":{},"f:image":{},"f:name":{}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}}}}}]",
        "Apply failed with 1 conflict: conflict with "a": .spec.template.spec.containers[name="side"].image",
        "[{"manager":"a","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:a":{}},"f:finalizers":{"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{"f:app":{},"f:app.kubernetes.io/name":{},"f:z":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:command":{},"f:name":{}}},"f:imagePullSecrets":{"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:nodeSelector":{},"f:tolerations":{},"f:volumes":{"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"b","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:b":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"bside\\"}":{".":{},"f:image":{},"f:name":{}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}}}}}]",
        "[{"manager":"a","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:a":{}},"f:finalizers":{"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{"f:app":{},"f:app.kubernetes.io/name":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}}},"f:imagePullSecrets":{"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:nodeSelector":{},"f:tolerations":{},"f:volumes":{"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"b","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:b":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"bside\\"}":{".":{},"f:image":{},"f:name":{}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}}}}}]",
        "{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"x"},"annotations":{}},"spec":{"containers":[{"name":"app","image":"nginx:1","args":["--a","--b"],"ports":[{"containerPort":80,"protocol":"TCP","name":"web"},{"containerPort":80,"protocol":"UDP","name":"webu"},{"containerPort":81}],"env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"resources":{},"volumeMounts":[{"name":"data","mountPath":"/d"}],"securityContext":null},{"name":"side","image":"other","args":["x"]},{"name":"bside","image":"b"}],"nodeSelector":{"disk":"ssd"},"tolerations":[{"key":"k","operator":"Exists"}],"volumes":[{"name":"data","emptyDir":{}}],"imagePullSecrets":[{"name":"s1"},{"name":"s2"}]}},"serviceName":"svc","updateStrategy":{},"replicas":2,"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"]}}]}",
        "[{"manager":"a","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{"f:a":{}},"f:finalizers":{"v:\\"example.com/a\\"":{},"v:\\"example.com/b\\"":{}},"f:labels":{"f:app":{},"f:app.kubernetes.io/name":{}},"f:ownerReferences":{"k:{\\"uid\\":\\"u1\\"}":{}}},"f:spec":{"f:replicas":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:annotations":{},"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}}},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":81,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}},"f:resources":{},"f:securityContext":{},"f:volumeMounts":{"k:{\\"mountPath\\":\\"/d\\"}":{".":{},"f:mountPath":{},"f:name":{}}}}},"f:imagePullSecrets":{"k:{\\"name\\":\\"s1\\"}":{},"k:{\\"name\\":\\"s2\\"}":{}},"f:nodeSelector":{},"f:tolerations":{},"f:volumes":{"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}}}}},"f:volumeClaimTemplates":{}}}},{"manager":"b","operation":"Apply","apiVersion":"apps/v1","time":"T","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:b":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"bside\\"}":{".":{},"f:image":{},"f:name":{}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}}}}}]",
      ]
    `);
  });
});

// ---- changes() against compare(), and the set algebra against plain path lists ----

/** A small seeded generator of StatefulSet variants. */
function variants(seed: number, n: number): O[] {
  let x = seed;
  const rnd = (k: number) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % k;
  };
  const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
  const out: O[] = [];
  for (let i = 0; i < n; i++) {
    const o = rich();
    const c0 = o.spec.template.spec.containers[0];
    if (rnd(2)) o.spec.replicas = pick([0, 1, 2, 7]);
    if (rnd(3) === 0) delete o.metadata.labels;
    if (rnd(3) === 0) o.metadata.labels = pick([{}, null, { a: 'b' }, { app: 'x', q: '1' }]);
    if (rnd(3) === 0) o.metadata.finalizers = pick([[], ['example.com/a'], ['z', 'y', 'z']]);
    if (rnd(2)) c0.ports = pick([[], null, [{ containerPort: 80 }], [{ containerPort: 80, protocol: 'UDP' }, { containerPort: 80 }], c0.ports.slice().reverse()]);
    if (rnd(2)) c0.args = pick([[], null, ['--b', '--a'], ['--a']]);
    if (rnd(3) === 0) c0.env = pick([[], [{ name: 'A', value: '9' }], [{ name: 'B' }, { name: 'A', value: '1' }]]);
    if (rnd(3) === 0) c0.resources = pick([{}, null, { limits: { cpu: '1' } }]);
    if (rnd(4) === 0) c0.env = Array.from({ length: 9 + rnd(6) }, (_, j) => ({ name: `E${(j * 7) % (8 + rnd(4))}`, value: `${rnd(3)}` }));
    if (rnd(3) === 0) o.spec.template.spec.containers.reverse();
    if (rnd(4) === 0) o.spec.template.spec.containers = pick([[], null, [{ name: 'n' }]]);
    if (rnd(3) === 0) o.spec.template.spec.nodeSelector = pick([{}, null, { disk: 'hdd' }]);
    if (rnd(3) === 0) o.spec.template.spec.tolerations = pick([[], null, [{ key: 'other' }]]);
    if (rnd(3) === 0) o.spec.selector = pick([{}, null, { matchLabels: {} }]);
    if (rnd(4) === 0) o.spec.template.metadata = pick([{}, null]);
    if (rnd(4) === 0) o.status = pick([{}, { replicas: 1 }, null]);
    if (rnd(5) === 0) delete o.spec;
    out.push(o);
  }
  return out;
}

/** Every path of a set, as text, members and paths through children alike. */
function paths(s: FieldSet): string[] {
  const out: string[] = [];
  const walk = (t: FieldSet, prefix: PathElement[]) => {
    for (const m of t.members) out.push(`${JSON.stringify([...prefix, m])}`);
    for (const [pe, c] of t.children) walk(c, [...prefix, pe]);
  };
  walk(s, []);
  return out.sort();
}

describe('changes() and the set algebra', () => {
  const vs = variants(7, 24);

  it('changes() is compare() with added and modified as one set', () => {
    for (const a of vs) {
      for (const b of vs) {
        const c = compare(r, root, a, b);
        const ch = changes(r, root, a, b);
        expect(paths(ch.changed)).toStrictEqual(paths(c.added.union(c.modified)));
        expect(paths(ch.removed)).toStrictEqual(paths(c.removed));
        expect(ch.changed.toFieldsV1Json()).toBe(c.added.union(c.modified).toFieldsV1Json());
      }
    }
  });

  it('union, difference, intersection and withoutTopLevel agree with path lists and leave their operands alone', () => {
    const sets = vs.map((v) => toFieldSet(r, root, v));
    for (const a of sets) {
      for (const b of sets.slice(0, 8)) {
        const pa = paths(a);
        const pb = paths(b);
        const ja = a.toFieldsV1Json();
        const jb = b.toFieldsV1Json();
        const inB = new Set(pb);
        // members only: a path through children is not a member
        const members = (s: FieldSet) => {
          const out: string[] = [];
          s.iterate((p) => out.push(JSON.stringify(p)));
          return out.sort();
        };
        const ma = members(a);
        const mb = new Set(members(b));
        expect(members(a.union(b))).toStrictEqual([...new Set([...ma, ...mb])].sort());
        expect(members(a.difference(b))).toStrictEqual(ma.filter((p) => !mb.has(p)));
        expect(members(a.intersection(b))).toStrictEqual(ma.filter((p) => mb.has(p)));
        expect(members(a.withoutTopLevel(['f:spec']))).toStrictEqual(ma.filter((p) => !p.startsWith('["f:spec"')));
        expect(a.overlaps(b)).toBe(ma.some((p) => mb.has(p)));
        expect(a.subsetOf(b)).toBe(ma.every((p) => mb.has(p)));
        const c = sets[(sets.indexOf(b) + 3) % sets.length];
        expect(a.subsetOfUnion([b, c])).toBe(a.subsetOf(b.union(c)));
        expect(a.difference(b).subsetOfUnion([b, c])).toBe(a.difference(b).subsetOf(b.union(c)));
        expect(a.subsetOfUnion([a.difference(b), a.intersection(b)])).toBe(true);
        // no empty subtrees left behind by a difference
        const d = a.difference(b);
        expect(paths(d).every((p) => inB.has(p) || pa.includes(p))).toBe(true);
        expect(a.toFieldsV1Json()).toBe(ja);
        expect(b.toFieldsV1Json()).toBe(jb);
      }
    }
  });

  it('FieldsV1 objects and text agree, and decode back to the same set', () => {
    for (const v of vs) {
      const s = toFieldSet(r, root, v);
      const obj = s.toFieldsV1();
      expect(JSON.stringify(obj)).toBe(s.toFieldsV1Json());
      const back = FieldSet.fromFieldsV1(obj);
      expect(back.equals(s)).toBe(true);
      expect(back.toFieldsV1Json()).toBe(s.toFieldsV1Json());
    }
  });

  it('orders large and mixed levels as comparePE does', () => {
    const s = new FieldSet();
    const names = Array.from({ length: 40 }, (_, i) => `f:${String.fromCharCode(122 - (i % 26))}${i}`);
    for (const n of names) s.addMember(n);
    expect(Object.keys(s.toFieldsV1())).toStrictEqual([...names].sort(comparePE));
    const mixed = ['i:10', 'i:2', 'v:"b"', 'v:1', 'k:{"a":2}', 'k:{"a":10}', 'f:Z', 'f:a', 'f:é', 'f:_'];
    const t = new FieldSet();
    for (const n of mixed) t.addMember(n);
    expect(Object.keys(t.toFieldsV1())).toStrictEqual([...mixed].sort(comparePE));
  });

  it('map-list items are spelled as keyPE spells them, defaults filled in', () => {
    const v = { spec: { template: { spec: { containers: [{ name: 'c', ports: [{ protocol: 'UDP', containerPort: 5 }, { containerPort: 6 }] }] } } } };
    const s = toFieldSet(r, root, v);
    const ports: string[] = [];
    s.iterate((p) => {
      if (p.length === 7) ports.push(pathString(p));
    });
    const c = keyPE([['name', 'c']]);
    expect(s.has(['f:spec', 'f:template', 'f:spec', 'f:containers', c, 'f:ports', keyPE([['protocol', 'UDP'], ['containerPort', 5]])])).toBe(true);
    expect(s.has(['f:spec', 'f:template', 'f:spec', 'f:containers', c, 'f:ports', keyPE([['containerPort', 6], ['protocol', 'TCP']])])).toBe(true);
    expect(ports).toStrictEqual(['.spec.template.spec.containers[name="c"].ports[containerPort=5,protocol="UDP"]', '.spec.template.spec.containers[name="c"].ports[containerPort=6,protocol="TCP"]']);
    // A key Go always writes defaults to its zero value in kube's OpenAPI: a nameless container is name "".
    const nameless = toFieldSet(r, root, { spec: { template: { spec: { containers: [{ image: 'x' }] } } } });
    expect(nameless.has(['f:spec', 'f:template', 'f:spec', 'f:containers', keyPE([['name', '']]), 'f:image'])).toBe(true);
  });
});
