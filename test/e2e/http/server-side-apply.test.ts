// Server-Side Apply over HTTP: every row of the field-ownership table, the request errors,
// and the managedFields kube keeps on create, update, merge patch, /status and /scale.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi, type KapiProcess } from '../../support/server.js';
import { expectCode, expectFailure, expectInvalid, http, uniq, MERGE, type Obj } from './helpers.js';

const NSP = '/apis/apps/v1/namespaces/default/statefulsets';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** A minimal valid StatefulSet apply configuration. */
function cfg(name: string, spec: Obj = {}, metadata: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, ...metadata },
    spec: {
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      ...spec,
    },
  };
}

const BASE_FIELDS = {
  'f:selector': {},
  'f:serviceName': {},
  'f:template': {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
  },
};

/** managedFields without times, for exact comparison; times are checked for shape. */
function entries(o: Obj): Obj[] {
  const mf = (o.metadata?.managedFields ?? []) as Obj[];
  return mf.map((e) => {
    const { time, ...rest } = e;
    if (time !== undefined) expect(time).toMatch(RFC3339);
    return rest;
  });
}

const entry = (manager: string, operation: 'Apply' | 'Update', fieldsV1: Obj, subresource?: string): Obj => ({
  manager,
  operation,
  apiVersion: 'apps/v1',
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
});

describe('server-side apply', () => {
  let k: KapiProcess;
  const apply = (name: string, body: Obj | string, manager?: string, extra = '') =>
    http(k, 'PATCH', `${NSP}/${name}?${manager !== undefined ? `fieldManager=${manager}` : ''}${extra}`, body, APPLY);
  const get = async (name: string) => expectCode(await http(k, 'GET', `${NSP}/${name}`), 200);

  beforeAll(async () => {
    k = await startKapi();
  });
  afterAll(async () => {
    await stopKapi(k);
  });

  it('creates a missing object (201) owned by the applier only; defaults are not owned', async () => {
    const n = uniq('ssa');
    const o = expectCode(await apply(n, cfg(n, { replicas: 2 }), 'mgr'), 201);
    expect(o.spec.replicas).toBe(2);
    expect(o.spec.podManagementPolicy).toBe('OrderedReady');
    expect(o.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(entries(o)).toStrictEqual([entry('mgr', 'Apply', { 'f:spec': { 'f:replicas': {}, ...BASE_FIELDS } })]);
    expect(o.metadata.managedFields[0].time).toMatch(RFC3339);
    expect(Object.keys(o.metadata.managedFields[0])).toStrictEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    expect(entries(await get(n))).toStrictEqual(entries(o));
  }, 30_000);

  it('takes a YAML body, JSON being YAML', async () => {
    const n = uniq('yaml');
    const yaml = `apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: ${n}\n  labels:\n    team: a\nspec:\n  serviceName: ${n}\n  selector:\n    matchLabels: {app: ${n}}\n  template:\n    metadata:\n      labels: {app: ${n}}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`;
    const o = expectCode(await apply(n, yaml, 'y'), 201);
    expect(o.metadata.labels).toStrictEqual({ team: 'a' });
    expect(entries(o)[0].fieldsV1['f:metadata']).toStrictEqual({ 'f:labels': { 'f:team': {} } });
  });

  it('duplicate keys: Strict refuses them, Warn answers a warning', async () => {
    const n = uniq('dup');
    const body = JSON.stringify(cfg(n, { replicas: 2 })).replace('"replicas":2', '"replicas":2,"replicas":3');
    const strict = await apply(n, body, 'm', '&fieldValidation=Strict');
    expectFailure(strict, {
      code: 400,
      reason: 'BadRequest',
      message: 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key "replicas" already set in map',
    });
    const warn = await apply(n, body, 'm');
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toContain('already set in map');
    expect((warn.json as Obj).spec.replicas).toBe(3);
  });

  it('a no-op apply answers 200 without a new resourceVersion or time', async () => {
    const n = uniq('noop');
    const a = expectCode(await apply(n, cfg(n, { replicas: 2 }), 'm'), 201);
    const b = expectCode(await apply(n, cfg(n, { replicas: 2 }), 'm'), 200);
    expect(b.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect(b.metadata.managedFields).toStrictEqual(a.metadata.managedFields);
  });

  it('re-applying what only normalizes or defaults differently is a no-op, even a second later', async () => {
    const n = uniq('sem');
    const c = cfg(n);
    c.spec.template.metadata.annotations = {};
    c.spec.template.spec.containers[0].resources = { limits: { memory: '2048Mi' } };
    c.spec.template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
    c.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const a = expectCode(await apply(n, c, 'm'), 201);
    expect(a.spec.template.metadata.annotations).toBeUndefined();
    expect(a.spec.template.spec.containers[0].resources.limits.memory).toBe('2Gi');
    // managedFields times have one-second resolution: make sure a new time would differ.
    await new Promise((r) => setTimeout(r, 1100));
    const b = expectCode(await apply(n, c, 'm'), 200);
    expect(b.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect(b.metadata.managedFields).toStrictEqual(a.metadata.managedFields);
  });

  it('refuses bad apply requests as kube does', async () => {
    const n = uniq('bad');
    expectInvalid(await apply(n, cfg(n)), {
      kind: 'PatchOptions',
      group: 'meta.k8s.io',
      name: '',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      causes: [{ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' }],
    });
    expectFailure(await apply(n, { ...cfg(n), metadata: { name: n, managedFields: [] } }, 'm'), {
      code: 400,
      reason: 'BadRequest',
      message: 'metadata.managedFields must be nil',
    });
    expectFailure(await apply(n, { ...cfg(n), kind: 'Deployment' }, 'm'), { code: 400, reason: 'BadRequest', message: 'invalid object type: apps/v1, Kind=Deployment' });
    expectFailure(await apply(n, { ...cfg(n), apiVersion: 'apps/v1beta2' }, 'm'), {
      code: 400,
      reason: 'BadRequest',
      message: 'invalid object type: apps/v1beta2, Kind=StatefulSet',
    });
    // kube answers these unconverted errors as 500s; kapi never answers bad input with a 500.
    // The object is named as the configuration names it (no namespace in it here).
    expectFailure(await apply(n, cfg(n, { bogus: 1 }), 'm'), {
      code: 400,
      reason: 'BadRequest',
      message: `failed to create typed patch object (/${n}; apps/v1, Kind=StatefulSet): .spec.bogus: field not declared in schema`,
    });
    const deep = cfg(n);
    deep.spec.template.spec.containers[0].imagePolicy = 'x';
    expectFailure(await apply(n, deep, 'm'), {
      code: 400,
      reason: 'BadRequest',
      message: `failed to create typed patch object (/${n}; apps/v1, Kind=StatefulSet): .spec.template.spec.containers[name="c"].imagePolicy: field not declared in schema`,
    });
    expectInvalid(await http(k, 'PATCH', `${NSP}/${n}?force=true`, { spec: {} }, MERGE), {
      kind: 'PatchOptions',
      group: 'meta.k8s.io',
      name: '',
      message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      causes: [{ reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' }],
    });
    expectFailure(await apply(n, { ...cfg(n), metadata: { name: 'other' } }, 'm'), {
      code: 400,
      reason: 'BadRequest',
      message: `the name of the object (other) does not match the name on the URL (${n})`,
    });
    expect((await http(k, 'GET', `${NSP}/${n}`)).status).toBe(404);
  });

  describe('ownership table', () => {
    it('A owns, B applies a different value without force: 409 with one cause per field, nothing changes', async () => {
      const n = uniq('conf');
      const created = expectCode(await apply(n, cfg(n, { replicas: 2 }), 'alice'), 201);
      const r = await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, spec: { replicas: 3 } }, 'bob');
      expectFailure(r, {
        code: 409,
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }] },
      });
      const now = await get(n);
      expect(now.spec.replicas).toBe(2);
      expect(now.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    });

    it('several conflicts are listed per manager', async () => {
      const n = uniq('confs');
      expectCode(await apply(n, cfg(n, { replicas: 2 }, { labels: { x: '1' } }), 'alice'), 201);
      const r = await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n, labels: { x: '2' } }, spec: { replicas: 3 } }, 'bob');
      expectFailure(r, {
        code: 409,
        reason: 'Conflict',
        message: 'Apply failed with 2 conflicts: conflicts with "alice":\n- .metadata.labels.x\n- .spec.replicas',
        details: {
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.metadata.labels.x' },
            { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' },
          ],
        },
      });
    });

    it('force=true: B owns the field alone and the value changes', async () => {
      const n = uniq('force');
      expectCode(await apply(n, cfg(n, { replicas: 2 }), 'alice'), 201);
      const o = expectCode(await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, spec: { replicas: 3 } }, 'bob', '&force=true'), 200);
      expect(o.spec.replicas).toBe(3);
      expect(entries(o)).toStrictEqual([entry('alice', 'Apply', { 'f:spec': BASE_FIELDS }), entry('bob', 'Apply', { 'f:spec': { 'f:replicas': {} } })]);
    });

    it('B applies the live value: shared; a later change by either sharer conflicts with the other', async () => {
      const n = uniq('share');
      expectCode(await apply(n, cfg(n, { replicas: 2 }), 'alice'), 201);
      const o = expectCode(await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, spec: { replicas: 2 } }, 'bob'), 200);
      // bob changed nothing in the object: his entry has no time, which sorts it first.
      expect(entries(o)).toStrictEqual([
        entry('bob', 'Apply', { 'f:spec': { 'f:replicas': {} } }),
        entry('alice', 'Apply', { 'f:spec': { 'f:replicas': {}, ...BASE_FIELDS } }),
      ]);
      expect(o.metadata.managedFields[0].time).toBeUndefined();
      expectFailure(await apply(n, cfg(n, { replicas: 5 }), 'alice'), {
        code: 409,
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "bob": .spec.replicas',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "bob"', field: '.spec.replicas' }] },
      });
    });

    it('A and B share; B omits the field: A alone owns it and the value stays', async () => {
      const n = uniq('omit');
      expectCode(await apply(n, cfg(n, { replicas: 2 }), 'alice'), 201);
      expectCode(await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, spec: { replicas: 2 } }, 'bob'), 200);
      const o = expectCode(await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n, labels: { b: 'x' } } }, 'bob'), 200);
      expect(o.spec.replicas).toBe(2);
      expect(entries(o)).toStrictEqual([
        entry('alice', 'Apply', { 'f:spec': { 'f:replicas': {}, ...BASE_FIELDS } }),
        entry('bob', 'Apply', { 'f:metadata': { 'f:labels': { 'f:b': {} } } }),
      ]);
    });

    it('A alone owns; A omits the field: it is reset to its default, or deleted when it has none', async () => {
      const n = uniq('drop');
      expectCode(await apply(n, cfg(n, { replicas: 4, minReadySeconds: 5 }, { labels: { a: '1', b: '2' } }), 'alice'), 201);
      const o = expectCode(await apply(n, cfg(n, {}, { labels: { a: '1' } }), 'alice'), 200);
      expect(o.spec.replicas).toBe(1);
      expect(o.spec.minReadySeconds).toBeUndefined();
      expect(o.metadata.labels).toStrictEqual({ a: '1' });
      expect(entries(o)).toStrictEqual([entry('alice', 'Apply', { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': BASE_FIELDS })]);
    });

    it('an update (PUT) or non-apply patch by C takes ownership and never conflicts', async () => {
      const n = uniq('upd');
      expectCode(await apply(n, cfg(n, { replicas: 2 }), 'alice'), 201);
      const p = expectCode(await http(k, 'PATCH', `${NSP}/${n}?fieldManager=carol`, { spec: { replicas: 6 } }, MERGE), 200);
      expect(p.spec.replicas).toBe(6);
      expect(entries(p)).toStrictEqual([entry('alice', 'Apply', { 'f:spec': BASE_FIELDS }), entry('carol', 'Update', { 'f:spec': { 'f:replicas': {} } })]);
      const live = await get(n);
      live.spec.template.spec.containers[0].image = 'nginx:1.28';
      const u = expectCode(await http(k, 'PUT', `${NSP}/${n}?fieldManager=dave`, live), 200);
      const fields = entries(u);
      expect(fields.map((e) => `${e.manager}/${e.operation}`)).toStrictEqual(['alice/Apply', 'carol/Update', 'dave/Update']);
      expect(fields[2].fieldsV1).toStrictEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:image': {} } } } } } });
      expect(fields[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"c"}']).toStrictEqual({ '.': {}, 'f:name': {} });
      // The Update owner is named with its apiVersion in a conflict.
      expectFailure(await apply(n, cfg(n, { replicas: 2 }), 'alice'), {
        code: 409,
        reason: 'Conflict',
        message: 'Apply failed with 2 conflicts: conflicts with "carol" using apps/v1:\n- .spec.replicas\nconflicts with "dave" using apps/v1:\n- .spec.template.spec.containers[name="c"].image',
        details: {
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "carol" using apps/v1', field: '.spec.replicas' },
            { reason: 'FieldManagerConflict', message: 'conflict with "dave" using apps/v1', field: '.spec.template.spec.containers[name="c"].image' },
          ],
        },
      });
    });
  });

  describe('managedFields on non-apply writes', () => {
    const create = (body: Obj, query = '', headers: Record<string, string> = {}) => http(k, 'POST', `${NSP}${query}`, body, headers);

    it('a create is an Update entry by fieldManager that owns what it set, defaults included', async () => {
      const n = uniq('cr');
      const o = expectCode(await create(cfg(n, { replicas: 1 }, { labels: { app: n } }), '?fieldManager=kubectl-create'), 201);
      expect(entries(o)).toStrictEqual([
        entry('kubectl-create', 'Update', {
          'f:metadata': { 'f:labels': { '.': {}, [`f:app`]: {} } },
          'f:spec': {
            'f:persistentVolumeClaimRetentionPolicy': { '.': {}, 'f:whenDeleted': {}, 'f:whenScaled': {} },
            'f:podManagementPolicy': {},
            'f:replicas': {},
            'f:revisionHistoryLimit': {},
            'f:selector': {},
            'f:serviceName': {},
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"c"}': {
                    '.': {},
                    'f:image': {},
                    'f:imagePullPolicy': {},
                    'f:name': {},
                    'f:resources': {},
                    'f:terminationMessagePath': {},
                    'f:terminationMessagePolicy': {},
                  },
                },
                'f:dnsPolicy': {},
                'f:restartPolicy': {},
                'f:schedulerName': {},
                'f:securityContext': {},
                'f:terminationGracePeriodSeconds': {},
              },
            },
            'f:updateStrategy': { 'f:rollingUpdate': { '.': {}, 'f:partition': {} }, 'f:type': {} },
          },
        }),
      ]);
    });

    it('without fieldManager the manager is the User-Agent up to its first "/"', async () => {
      const n = uniq('ua');
      const o = expectCode(await create(cfg(n), '', { 'user-agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/8adc0f0' }), 201);
      expect(o.metadata.managedFields[0].manager).toBe('kubectl');
      const n2 = uniq('ua');
      const o2 = expectCode(await create(cfg(n2), '', { 'user-agent': 'my-controller' }), 201);
      expect(o2.metadata.managedFields[0].manager).toBe('my-controller');
    });

    it('an update that changes nothing keeps the entry and its time; a change moves the time and the fields', async () => {
      const n = uniq('time');
      const o = expectCode(await create(cfg(n), '?fieldManager=a'), 201);
      const same = expectCode(await http(k, 'PUT', `${NSP}/${n}?fieldManager=b`, o), 200);
      expect(same.metadata.resourceVersion).toBe(o.metadata.resourceVersion);
      expect(same.metadata.managedFields).toStrictEqual(o.metadata.managedFields);
      const p = expectCode(await http(k, 'PATCH', `${NSP}/${n}?fieldManager=a`, { metadata: { labels: { z: '1' } } }, MERGE), 200);
      expect(p.metadata.managedFields).toHaveLength(1);
      expect(p.metadata.managedFields[0].fieldsV1['f:metadata']).toStrictEqual({ 'f:labels': { '.': {}, 'f:z': {} } });
    });

    it('/status writes are tracked apart, with subresource status, and never own spec', async () => {
      const n = uniq('st');
      const o = expectCode(await create(cfg(n), '?fieldManager=a'), 201);
      const s = expectCode(
        await http(k, 'PUT', `${NSP}/${n}/status?fieldManager=ctl`, { ...o, spec: { ...o.spec, replicas: 9 }, status: { replicas: 1, readyReplicas: 1 } }),
        200,
      );
      expect(s.spec.replicas).toBe(1);
      const e = entries(s);
      expect(e[1]).toStrictEqual(entry('ctl', 'Update', { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } }, 'status'));
      const ap = expectCode(
        await http(
          k,
          'PATCH',
          `${NSP}/${n}/status?fieldManager=ctl2`,
          { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, status: { replicas: 1, readyReplicas: 1, availableReplicas: 1 } },
          APPLY,
        ),
        200,
      );
      expect(entries(ap)[0]).toStrictEqual(entry('ctl2', 'Apply', { 'f:status': { 'f:availableReplicas': {}, 'f:readyReplicas': {}, 'f:replicas': {} } }, 'status'));
    });

    it('/scale writes own spec.replicas with subresource scale, in an entry without a time', async () => {
      const n = uniq('sc');
      expectCode(await create(cfg(n), '?fieldManager=a'), 201);
      expectCode(await http(k, 'PATCH', `${NSP}/${n}/scale?fieldManager=scaler`, { spec: { replicas: 3 } }, MERGE), 200);
      const mf = (await get(n)).metadata.managedFields as Obj[];
      // kube folds the Scale's entries back without a time: such an entry sorts first.
      expect(mf[0]).toStrictEqual(entry('scaler', 'Update', { 'f:spec': { 'f:replicas': {} } }, 'scale'));
      expect(mf[1].manager).toBe('a');
      expect(mf[1].fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    });

    it('managedFields [] or [{}] resets: the object is untracked afterwards, and a later write does not track it', async () => {
      const n = uniq('rs');
      const o = expectCode(await create(cfg(n), '?fieldManager=a'), 201);
      const reset = expectCode(await http(k, 'PATCH', `${NSP}/${n}?fieldManager=b`, { metadata: { managedFields: [] } }, MERGE), 200);
      expect(reset.metadata.managedFields).toBeUndefined();
      expect(reset.metadata.resourceVersion).not.toBe(o.metadata.resourceVersion);
      // Nobody tracked now: a plain update stays untracked.
      const plain = expectCode(await http(k, 'PATCH', `${NSP}/${n}?fieldManager=b`, { spec: { replicas: 2 } }, MERGE), 200);
      expect(plain.metadata.managedFields).toBeUndefined();
      const n2 = uniq('rs');
      expectCode(await create(cfg(n2), '?fieldManager=a'), 201);
      // A reset with other changes: still nothing tracked (kube's skipNonApplied on an update).
      const both = expectCode(await http(k, 'PATCH', `${NSP}/${n2}?fieldManager=b`, { metadata: { managedFields: [{}] }, spec: { replicas: 3 } }, MERGE), 200);
      expect(both.metadata.managedFields).toBeUndefined();
      expect(both.spec.replicas).toBe(3);
    });

    it('managedFields sent on update replace the stored set', async () => {
      const n = uniq('own');
      const o = expectCode(await create(cfg(n), '?fieldManager=a'), 201);
      const mine = [{ manager: 'someone', operation: 'Apply', apiVersion: 'apps/v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }];
      const u = expectCode(await http(k, 'PUT', `${NSP}/${n}?fieldManager=b`, { ...o, metadata: { ...o.metadata, managedFields: mine } }), 200);
      expect(u.metadata.managedFields).toStrictEqual(mine);
      expectFailure(await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, spec: { replicas: 4 } }, 'x'), {
        code: 409,
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "someone": .spec.replicas',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "someone"', field: '.spec.replicas' }] },
      });
    });

    it('entries sort Apply before Update, then by time, then by manager', async () => {
      const n = uniq('sort');
      expectCode(await create(cfg(n), '?fieldManager=zed'), 201);
      expectCode(await http(k, 'PATCH', `${NSP}/${n}?fieldManager=amy`, { metadata: { labels: { l: '1' } } }, MERGE), 200);
      const o = expectCode(await apply(n, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n, annotations: { x: 'y' } } }, 'mia'), 200);
      const order = entries(o).map((e) => `${e.operation}:${e.manager}`);
      expect(order[0]).toBe('Apply:mia');
      expect(new Set(order.slice(1))).toStrictEqual(new Set(['Update:zed', 'Update:amy']));
      const times = (o.metadata.managedFields as Obj[]).slice(1).map((e) => Date.parse(e.time));
      expect(times[0]).toBeLessThanOrEqual(times[1]);
    });
  });

  describe('merge markers', () => {
    it('map lists merge by key; atomic structs are one field; granular maps merge by key', async () => {
      const n = uniq('mk');
      expectCode(await apply(n, cfg(n, {}, { labels: { a: '1' } }), 'alice'), 201);
      const b = {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: n, labels: { b: '2' } },
        spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox' }] } } },
      };
      const o = expectCode(await apply(n, b, 'bob'), 200);
      expect(o.metadata.labels).toStrictEqual({ a: '1', b: '2' });
      expect(o.spec.template.spec.containers.map((c: Obj) => c.name)).toStrictEqual(['c', 'side']);
      const sel = { ...cfg(n), spec: { selector: { matchLabels: { app: n, extra: 'x' } } } };
      expectFailure(await apply(n, sel, 'carl'), {
        code: 409,
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "alice": .spec.selector',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.selector' }] },
      });
      // alice drops her container: it goes; bob's stays.
      const a2 = cfg(n, {}, { labels: { a: '1' } });
      a2.spec.template.spec.containers = [{ name: 'side', image: 'busybox' }];
      const o2 = expectCode(await apply(n, a2, 'alice'), 200);
      expect(o2.spec.template.spec.containers.map((c: Obj) => c.name)).toStrictEqual(['side']);
    });
  });

  it('upgrades from client-side apply: the "kubectl" applier takes fields the last-applied annotation owns', async () => {
    const n = uniq('csa');
    const last = cfg(n, { replicas: 2 });
    const body = { ...last, metadata: { name: n, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(last)}\n` } } };
    expectCode(await http(k, 'POST', `${NSP}?fieldManager=kubectl-client-side-apply`, body), 201);
    // Another applier conflicts with the client-side applier's Update entry.
    expectFailure(await apply(n, cfg(n, { replicas: 3 }), 'other'), {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }] },
    });
    const o = expectCode(await apply(n, cfg(n, { replicas: 3 }), 'kubectl'), 200);
    expect(o.spec.replicas).toBe(3);
    const ann = o.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'];
    expect(ann.endsWith('\n')).toBe(true);
    expect(JSON.parse(ann)).toStrictEqual(cfg(n, { replicas: 3 }));
    expect(ann.startsWith('{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":')).toBe(true);
    const e = entries(o);
    expect(e[0].manager).toBe('kubectl');
    expect(e[0].fieldsV1['f:spec']['f:replicas']).toStrictEqual({});
    expect(e[1].fieldsV1['f:spec']['f:replicas']).toBeUndefined();
  });

  it('apply of a Scale to /scale owns spec.replicas with subresource scale', async () => {
    const n = uniq('scale');
    expectCode(await apply(n, cfg(n, { replicas: 2 }), 'owner'), 201);
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: n }, spec: { replicas: 4 } };
    expectFailure(await http(k, 'PATCH', `${NSP}/${n}/scale?fieldManager=hpa`, scale, APPLY), {
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "owner": .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "owner"', field: '.spec.replicas' }] },
    });
    const r = expectCode(await http(k, 'PATCH', `${NSP}/${n}/scale?fieldManager=hpa&force=true`, scale, APPLY), 200);
    expect(r).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 4 } });
    const o = await get(n);
    expect(o.spec.replicas).toBe(4);
    // Both are Apply entries from the same second or so: their order is by time, then name.
    expect(new Set(entries(o).map((e) => JSON.stringify(e)))).toStrictEqual(
      new Set([entry('owner', 'Apply', { 'f:spec': BASE_FIELDS }), entry('hpa', 'Apply', { 'f:spec': { 'f:replicas': {} } }, 'scale')].map((e) => JSON.stringify(e))),
    );
    expectFailure(await http(k, 'PATCH', `${NSP}/${n}/scale?fieldManager=hpa`, { ...scale, kind: 'StatefulSet' }, APPLY), {
      code: 400,
      reason: 'BadRequest',
      message: 'invalid object type: autoscaling/v1, Kind=StatefulSet',
    });
  });

  it('objects kube-apiserver creates at start are its Update entries', async () => {
    const o = expectCode(await http(k, 'GET', '/api/v1/namespaces/default'), 200);
    expect(o.metadata.managedFields).toHaveLength(1);
    const { time, ...e } = o.metadata.managedFields[0];
    expect(time).toMatch(RFC3339);
    expect(e).toStrictEqual({
      manager: 'kube-apiserver',
      operation: 'Update',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } },
    });
  });

  it('a resourceVersion in the config is a precondition', async () => {
    const n = uniq('rv');
    const o = expectCode(await apply(n, cfg(n), 'm'), 201);
    const stale = await apply(n, { ...cfg(n, { replicas: 3 }), metadata: { name: n, resourceVersion: '1' } }, 'm');
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ reason: 'Conflict', message: `Operation cannot be fulfilled on statefulsets.apps "${n}": the object has been modified; please apply your changes to the latest version and try again` });
    const fresh = expectCode(await apply(n, { ...cfg(n, { replicas: 3 }), metadata: { name: n, resourceVersion: o.metadata.resourceVersion } }, 'm'), 200);
    expect(fresh.spec.replicas).toBe(3);
  });

  it('dryRun=All apply answers the result without storing it', async () => {
    const n = uniq('dry');
    const r = expectCode(await apply(n, cfg(n), 'm', '&dryRun=All'), 201);
    expect(r.metadata.managedFields[0].manager).toBe('m');
    expect((await http(k, 'GET', `${NSP}/${n}`)).status).toBe(404);
  });
});
