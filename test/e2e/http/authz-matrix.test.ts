// The authorization matrix: every verb of every served resource (and subresource), as the
// server's own discovery lists them, for a user bound by a RoleBinding in a namespace to each
// of the bootstrap roles admin, edit and view, and for a user bound to nothing. Each cell is a
// real request in that namespace: allowed means anything but 403 (and never a 5xx), denied
// means kube's 403 word for word. The expected table (authz-matrix.table.ts) is kube 1.33's
// bootstrap policy written down; a served resource missing from it fails the test.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, http, removeDir, startKapi, type KapiProcess, type KubeClient } from '../../support/server.js';
import { NS, expectCode, json, ns, type Obj } from './helpers.js';
import { MATRIX, MATRIX_ROLES, allowed, type MatrixRole } from './authz-matrix.table.js';

interface Served {
  key: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespaced: boolean;
  verbs: string[];
}

let k: KapiProcess;
const clients = new Map<MatrixRole, KubeClient>();
let served: Served[] = [];

/** Every resource and subresource discovery lists, with its verbs. */
async function discover(): Promise<Served[]> {
  const out: Served[] = [];
  const lists: { group: string; version: string; path: string }[] = [{ group: '', version: 'v1', path: '/api/v1' }];
  for (const g of json(await http(k, 'GET', '/apis')).groups as Obj[]) {
    for (const v of g.versions as Obj[]) lists.push({ group: g.name, version: v.version, path: `/apis/${v.groupVersion}` });
  }
  for (const l of lists) {
    for (const r of json(await http(k, 'GET', l.path)).resources as Obj[]) {
      const [resource, subresource = ''] = (r.name as string).split('/');
      out.push({ key: l.group ? `${r.name}.${l.group}` : r.name, group: l.group, version: l.version, resource: resource!, subresource, namespaced: r.namespaced, verbs: r.verbs });
    }
  }
  return out;
}

interface Cell {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** What the 403 names: the object, and where. */
  name: string;
  namespace: string;
}

/** The request that exercises `verb` on `s` in namespace `n`. */
function cell(s: Served, verb: string, n: string): Cell {
  const base = s.group ? `/apis/${s.group}/${s.version}` : `/api/${s.version}`;
  const collection = s.namespaced ? `${base}/namespaces/${n}/${s.resource}` : `${base}/${s.resource}`;
  // A namespace-bound role reaches the namespace itself, by its name.
  const isNamespace = s.group === '' && s.resource === 'namespaces';
  const name = isNamespace ? n : 'x';
  const object = `${collection}/${name}${s.subresource ? '/' + s.subresource : ''}`;
  const objectNamespace = s.namespaced || isNamespace ? n : '';
  const collectionNamespace = s.namespaced ? n : '';
  switch (verb) {
    case 'get':
      return { method: 'GET', path: object, name, namespace: objectNamespace };
    case 'list':
      return { method: 'GET', path: collection, name: '', namespace: collectionNamespace };
    case 'watch':
      return { method: 'GET', path: `${collection}?watch=1&timeoutSeconds=1`, name: '', namespace: collectionNamespace };
    case 'create':
      return s.subresource
        ? { method: 'POST', path: object, body: {}, name, namespace: objectNamespace }
        : { method: 'POST', path: collection, body: {}, name: '', namespace: collectionNamespace };
    case 'update':
      return { method: 'PUT', path: object, body: { metadata: { name } }, name, namespace: objectNamespace };
    case 'patch':
      return { method: 'PATCH', path: object, body: {}, headers: { 'content-type': 'application/merge-patch+json' }, name, namespace: objectNamespace };
    case 'delete':
      return { method: 'DELETE', path: object, name, namespace: objectNamespace };
    case 'deletecollection':
      return { method: 'DELETE', path: collection, name: '', namespace: collectionNamespace };
    default:
      throw new Error(`no request for verb ${verb}`);
  }
}

/** The status and body of a request; a watch's stream is dropped once its headers are in. */
async function send(c: KubeClient, x: Cell): Promise<{ status: number; json?: Obj }> {
  const res = await c.fetch(x.path, {
    method: x.method,
    headers: { 'content-type': 'application/json', ...(x.headers ?? {}) },
    body: x.body === undefined ? undefined : JSON.stringify(x.body),
  });
  if (res.status === 200 && x.path.includes('watch=1')) {
    await res.body?.cancel();
    return { status: 200 };
  }
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) as Obj };
  } catch {
    return { status: res.status };
  }
}

function forbiddenMessage(s: Served, verb: string, x: Cell, user: string): string {
  const qualified = s.group ? `${s.resource}.${s.group}` : s.resource;
  const what = x.name ? `${qualified} "${x.name}"` : qualified;
  const resource = s.subresource ? `${s.resource}/${s.subresource}` : s.resource;
  const where = x.namespace ? `in the namespace "${x.namespace}"` : 'at the cluster scope';
  return `${what} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${s.group}" ${where}`;
}

beforeAll(async () => {
  k = await startKapi();
  for (const role of MATRIX_ROLES) {
    const n = `matrix-${role}`;
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    if (role !== 'none') {
      expectCode(
        await http(k, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${n}/rolebindings`, {
          metadata: { name: role },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
          subjects: [{ kind: 'User', name: n }],
        }),
        201,
      );
    }
    clients.set(role, await asUser(k, n));
  }
  served = await discover();
});

afterAll(async () => {
  for (const c of clients.values()) await c.close();
  await k?.stop();
  if (k) await removeDir(k.dataDir);
});

describe('every verb x every served resource x admin, edit, view and none', () => {
  it('the table has a row for every served resource and subresource, and no other', () => {
    expect(served.map((s) => s.key).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const role of MATRIX_ROLES) {
    it(`a user bound to ${role === 'none' ? 'nothing' : `ClusterRole ${role}`} in a namespace`, { timeout: 60_000 }, async () => {
      const c = clients.get(role)!;
      const n = `matrix-${role}`;
      const user = n;
      const wrong: string[] = [];
      let cells = 0;
      const check = async (s: Served, verb: string): Promise<void> => {
        const x = cell(s, verb, n);
        const r = await send(c, x);
        cells++;
        const want = allowed(s.key, role, verb);
        const label = `${verb} ${s.key} (${x.method} ${x.path})`;
        if (r.status >= 500) wrong.push(`${label}: ${r.status}`);
        else if (want && r.status === 403) wrong.push(`${label}: denied, kube allows it: ${String(r.json?.message)}`);
        else if (!want && r.status !== 403) wrong.push(`${label}: ${r.status}, kube denies it`);
        else if (!want && r.json?.message !== forbiddenMessage(s, verb, x, user)) wrong.push(`${label}: 403 says ${JSON.stringify(r.json?.message)}`);
      };
      const work = served.flatMap((s) => s.verbs.map((v) => [s, v] as const));
      // deletecollection last: an allowed one empties the namespace of its kind.
      await Promise.all(work.filter(([, v]) => v !== 'deletecollection').map(([s, v]) => check(s, v)));
      await Promise.all(work.filter(([, v]) => v === 'deletecollection').map(([s, v]) => check(s, v)));
      expect(wrong).toEqual([]);
      expect(cells).toBeGreaterThan(80);
    });
  }
});
