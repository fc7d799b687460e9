// Objects through the merge markers: field sets, comparison, merge, removal and the
// ownership the field manager derives from them, on the real StatefulSet schema.

import { describe, expect, it } from 'vitest';
import { FieldManager } from '../../../../src/patch/ssa/field-manager.js';
import { managerFromUserAgent, managerOrUserAgent } from '../../../../src/patch/ssa/manager-name.js';
import { StatusError } from '../../../../src/machinery/errors.js';
import { SCHEMAS } from '../../../../src/schema/types/index.js';
import { TypeResolver, compare, merge, removeItems, toFieldSet, zeroObject } from '../../../../src/patch/ssa/typed.js';
import { FieldSet } from '../../../../src/patch/ssa/fieldpath.js';
import type { KObject } from '../../../../src/machinery/object.js';

const DEF = 'io.k8s.api.apps.v1.StatefulSet';
const r = new TypeResolver(SCHEMAS);
const root = r.root(DEF);
type O = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sts = (spec: O = {}, metadata: O = {}): O => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x', ...metadata }, spec });

describe('toFieldSet', () => {
  it('items of map lists are members with their fields; atomic structs and lists are leaves; empty maps are members', () => {
    const v = sts({
      selector: { matchLabels: { a: 'b' } },
      template: { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }], command: ['a', 'b'], resources: {} }] } },
    });
    expect(toFieldSet(r, root, v).toFieldsV1()).toStrictEqual({
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': { 'f:name': {} },
      'f:spec': {
        'f:selector': {},
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"c"}': {
                '.': {},
                'f:command': {},
                'f:image': {},
                'f:name': {},
                // protocol has a default, so the key is complete without it
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
                'f:resources': {},
              },
            },
          },
        },
      },
    });
  });

  it('sets (finalizers) are keyed by value; a granular map owns each key', () => {
    const v = { metadata: { finalizers: ['a', 'b'], labels: { x: '1' } } };
    expect(toFieldSet(r, root, v).toFieldsV1()).toStrictEqual({
      'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} }, 'f:labels': { 'f:x': {} } },
    });
  });

  it('nodeSelector (atomic map) and tolerations (atomic list) are single fields', () => {
    const v = { spec: { template: { spec: { nodeSelector: { a: 'b' }, tolerations: [{ key: 'k' }] } } } };
    expect(toFieldSet(r, root, v).toFieldsV1()).toStrictEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:nodeSelector': {}, 'f:tolerations': {} } } } });
  });

  it('a map-list item without its key takes the key\'s zero value, as kube\'s OpenAPI defaults it', () => {
    const s = toFieldSet(r, root, { spec: { template: { spec: { containers: [{ image: 'x' }] } } } });
    expect(s.toFieldsV1()).toStrictEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":""}': { '.': {}, 'f:image': {} } } } } } });
  });
});

describe('compare', () => {
  it('reports added, removed and modified leaves, and added or removed items and maps as members', () => {
    const a = sts({ replicas: 1, template: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } } });
    const b = sts({ replicas: 2, template: { metadata: { labels: { x: 'y' } }, spec: { containers: [{ name: 'a', image: '2' }, { name: 'c', image: '1' }] } } });
    const c = compare(r, root, a, b);
    expect(c.modified.toFieldsV1()).toStrictEqual({
      'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:image': {} } } } } },
    });
    expect(c.added.toFieldsV1()).toStrictEqual({
      'f:spec': {
        'f:template': {
          'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:x': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
    expect(c.removed.toFieldsV1()).toStrictEqual({
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
    });
  });

  it('list order of a map list does not matter; of an atomic list it does', () => {
    const a = { spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'b' }], tolerations: [{ key: '1' }, { key: '2' }] } } } };
    const b = { spec: { template: { spec: { containers: [{ name: 'b' }, { name: 'a' }], tolerations: [{ key: '2' }, { key: '1' }] } } } };
    const c = compare(r, root, a, b);
    expect(c.modified.toFieldsV1()).toStrictEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:tolerations': {} } } } });
    expect(c.added.isEmpty() && c.removed.isEmpty()).toBe(true);
  });
});

describe('merge and removeItems', () => {
  it('merges map lists by key, keeps live order, config value wins at leaves, atomic lists replaced', () => {
    const live = { spec: { template: { spec: { containers: [{ name: 'a', image: '1', args: ['x'] }, { name: 'b', image: '1' }] } } } };
    const cfg = { spec: { template: { spec: { containers: [{ name: 'b', image: '2' }, { name: 'new', image: 'n' }, { name: 'a', args: ['y'] }] } } } };
    const m = merge(r, root, live, cfg) as O;
    expect(m.spec.template.spec.containers).toStrictEqual([
      { name: 'b', image: '2' },
      { name: 'new', image: 'n' },
      { name: 'a', image: '1', args: ['y'] },
    ]);
  });

  it('new config items are placed by the config relative to the shared items', () => {
    const live = { metadata: { finalizers: ['a', 'b', 'c'] } };
    expect((merge(r, root, live, { metadata: { finalizers: ['x', 'b'] } }) as O).metadata.finalizers).toStrictEqual(['a', 'x', 'b', 'c']);
    expect((merge(r, root, live, { metadata: { finalizers: ['b', 'x'] } }) as O).metadata.finalizers).toStrictEqual(['a', 'b', 'c', 'x']);
  });

  it('removes member paths whole; emptied maps become null', () => {
    const v = { metadata: { labels: { a: '1' } }, spec: { replicas: 3, template: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b' }] } } } };
    const s = new FieldSet();
    s.insert(['f:metadata', 'f:labels', 'f:a']);
    s.insert(['f:spec', 'f:replicas']);
    s.insert(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"a"}']);
    expect(removeItems(r, root, v, s)).toStrictEqual({ metadata: { labels: null }, spec: { template: { spec: { containers: [{ name: 'b' }] } } } });
  });

  it('the zero StatefulSet is what Go encodes for an empty object', () => {
    const z = zeroObject(SCHEMAS, DEF);
    expect(z.metadata).toStrictEqual({ creationTimestamp: null });
    expect((z.spec as O).template).toStrictEqual({ metadata: { creationTimestamp: null }, spec: { containers: null } });
    expect((z.spec as O).serviceName).toBe('');
    expect((z.spec as O).updateStrategy).toStrictEqual({});
    expect(z.status).toStrictEqual({ replicas: 0, availableReplicas: 0 });
  });
});

describe('FieldManager', () => {
  const fm = new FieldManager({ group: 'apps', version: 'v1', kind: 'StatefulSet', definition: DEF, hasStatus: true }, SCHEMAS);
  const own = (o: KObject) => Object.fromEntries((o.metadata.managedFields as O[]).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));

  it('an apply owns exactly its config, minus metadata identity fields and status', () => {
    const o = fm.apply(null, sts({ replicas: 2 }, { namespace: 'ns', labels: { a: 'b' } }) as O, { manager: 'm', subresource: '' }, false);
    expect(own(o)).toStrictEqual({ 'm/Apply': { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:replicas': {} } } });
    const withStatus = fm.apply(null, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x' }, status: { replicas: 3 } }, { manager: 'm', subresource: '' }, false);
    expect(withStatus.metadata.managedFields).toBeUndefined();
    // An empty struct in a config is a field of its own.
    expect(own(fm.apply(null, sts({}), { manager: 'm', subresource: '' }, false))).toStrictEqual({ 'm/Apply': { 'f:spec': {} } });
  });

  it('conflicts name Update managers with their apiVersion, and force takes the field', () => {
    const live = sts({ replicas: 1 }) as KObject;
    const created = structuredClone(live);
    fm.update(null, created, { manager: 'ed', subresource: '' });
    let err: unknown;
    try {
      fm.apply(created, sts({ replicas: 5 }) as O, { manager: 'm', subresource: '' }, false);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status.message).toBe('Apply failed with 1 conflict: conflict with "ed" using apps/v1: .spec.replicas');
    const forced = fm.apply(created, sts({ replicas: 5 }) as O, { manager: 'm', subresource: '' }, true);
    expect(own(forced)).toStrictEqual({ 'm/Apply': { 'f:spec': { 'f:replicas': {} } } });
  });

  it('an update by the same manager keeps what it owned and adds what it changed', () => {
    const o = sts({ replicas: 1 }) as KObject;
    fm.update(null, o, { manager: 'u', subresource: '' });
    const next = structuredClone(o);
    next.metadata.labels = { l: 'v' };
    fm.update(o, next, { manager: 'u', subresource: '' });
    expect(own(next)).toStrictEqual({ 'u/Update': { 'f:metadata': { 'f:labels': { '.': {}, 'f:l': {} } }, 'f:spec': { 'f:replicas': {} } } });
  });

  it('names a writer from fieldManager, else the printable User-Agent before its first "/", else unknown', () => {
    expect(managerOrUserAgent('mine', 'kubectl/v1.33.0')).toBe('mine');
    expect(managerOrUserAgent(undefined, 'kubectl/v1.33.0 (linux/amd64) kubernetes/8adc0f0')).toBe('kubectl');
    expect(managerFromUserAgent('my app\u00a0x\u0007/1')).toBe('my appx');
    expect(managerFromUserAgent('é'.repeat(100))).toHaveLength(64);
    const o = sts({ replicas: 1 }) as KObject;
    fm.update(null, o, { manager: managerOrUserAgent(undefined, ''), subresource: '' });
    expect((o.metadata.managedFields as O[])[0].manager).toBe('unknown');
  });

  it('more than ten Update managers fold the oldest into ancient-changes', () => {
    let o = sts({ replicas: 1 }) as KObject;
    fm.update(null, o, { manager: 'm0', subresource: '' });
    for (let i = 1; i <= 11; i++) {
      const n = structuredClone(o);
      n.metadata.labels = { ...(n.metadata.labels ?? {}), [`l${i}`]: 'x' };
      fm.update(o, n, { manager: `m${i}`, subresource: '' });
      o = n;
    }
    const names = (o.metadata.managedFields as O[]).map((e) => e.manager);
    expect(names).toHaveLength(10);
    expect(names).toContain('ancient-changes');
  });
});
