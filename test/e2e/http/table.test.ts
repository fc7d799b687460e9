// Server-side printing: Accept application/json;as=Table;v=v1;g=meta.k8s.io answers a
// meta.k8s.io/v1 Table with kube's column definitions and cells for each type, on list
// and on get, with includeObject None|Metadata|Object.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, PC, PDB, STS, expectCode, http, ns, pc, pdb, sts, uniq, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;
let NSA: string;

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const AGE = /^[0-9]+s$/;

beforeAll(async () => {
  k = await startKapi();
  NSA = uniq('tbl');
  expectCode(await http(k, 'POST', NS(), ns(NSA)), 201);
});

afterAll(() => stopKapi(k));

const table = async (path: string, accept = TABLE): Promise<Obj> => {
  const r = await http(k, 'GET', path, undefined, { accept });
  const t = expectCode(r, 200);
  expect(t.kind).toBe('Table');
  expect(t.apiVersion).toBe('meta.k8s.io/v1');
  return t;
};

const columns = (t: Obj): [string, string, number][] => (t.columnDefinitions as Obj[]).map((c) => [c.name, c.type, c.priority]);

describe('StatefulSet table', () => {
  it('columns Name, Ready, Age, Containers (priority 1), Images (priority 1); cells like "0/3"', async () => {
    const name = uniq('web');
    const body = sts(name, { replicas: 3 });
    body.spec.template.spec.containers.push({ name: 'side', image: 'busybox:1.36' });
    expectCode(await http(k, 'POST', STS(NSA), body), 201);
    const t = await table(STS(NSA));
    expect(columns(t)).toStrictEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
    ]);
    expect(t.columnDefinitions[0].format).toBe('name');
    expect(t.metadata.resourceVersion).toMatch(/^[0-9]+$/);
    const row = (t.rows as Obj[]).find((r) => r.cells[0] === name)!;
    expect(row.cells[1]).toBe('0/3');
    expect(row.cells[2]).toMatch(AGE);
    expect(row.cells.slice(3)).toStrictEqual(['nginx,side', 'nginx:1.27,busybox:1.36']);
  });

  it('a Table for one object (GET) has one row; kubectl\'s Accept list also gets a Table', async () => {
    const name = uniq('one');
    expectCode(await http(k, 'POST', STS(NSA), sts(name, { replicas: 2 })), 201);
    const t = await table(STS(NSA, name), KUBECTL_GET);
    expect(t.rows).toHaveLength(1);
    expect(t.rows[0].cells[0]).toBe(name);
    expect(t.rows[0].cells[1]).toBe('0/2');
  });

  it('includeObject defaults to Metadata: each row carries a PartialObjectMetadata', async () => {
    const name = uniq('meta');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const t = await table(STS(NSA, name));
    expect(t.rows[0].object).toStrictEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata });
  });

  it('includeObject=Object carries the whole object; includeObject=None carries none', async () => {
    const name = uniq('obj');
    const o = expectCode(await http(k, 'POST', STS(NSA), sts(name)), 201);
    const full = await table(`${STS(NSA, name)}?includeObject=Object`);
    expect(full.rows[0].object).toStrictEqual(o);
    const none = await table(`${STS(NSA, name)}?includeObject=None`);
    expect(none.rows[0].object ?? null).toBeNull();
    expect(none.rows[0].cells[0]).toBe(name);
  });

  it('rows follow the list order (by name) and selectors apply', async () => {
    const n = uniq('order');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    for (const x of ['c', 'a', 'b']) expectCode(await http(k, 'POST', STS(n), sts(x, { labels: { keep: x === 'c' ? 'no' : 'yes' } })), 201);
    const t = await table(STS(n));
    expect((t.rows as Obj[]).map((r) => r.cells[0])).toStrictEqual(['a', 'b', 'c']);
    const sel = await table(`${STS(n)}?labelSelector=keep%3Dyes`);
    expect((sel.rows as Obj[]).map((r) => r.cells[0])).toStrictEqual(['a', 'b']);
  });
});

describe('other tables', () => {
  it('PodDisruptionBudget: Name, Min Available, Max Unavailable, Allowed Disruptions (integer), Age', async () => {
    const name = uniq('pdb');
    expectCode(await http(k, 'POST', PDB(NSA), pdb(name, { minAvailable: '50%', selector: { matchLabels: { app: 'x' } } })), 201);
    const t = await table(PDB(NSA, name));
    expect(columns(t)).toStrictEqual([
      ['Name', 'string', 0],
      ['Min Available', 'string', 0],
      ['Max Unavailable', 'string', 0],
      ['Allowed Disruptions', 'integer', 0],
      ['Age', 'string', 0],
    ]);
    const cells = t.rows[0].cells;
    expect(cells.slice(0, 4)).toStrictEqual([name, '50%', 'N/A', 0]);
    expect(cells[4]).toMatch(AGE);
  });

  it('PriorityClass: Name, Value (integer), Global-Default (boolean), Age, PreemptionPolicy', async () => {
    const name = uniq('pc');
    expectCode(await http(k, 'POST', PC(), pc(name, 42, { preemptionPolicy: 'Never' })), 201);
    const t = await table(PC(name));
    expect(columns(t)).toStrictEqual([
      ['Name', 'string', 0],
      ['Value', 'integer', 0],
      ['Global-Default', 'boolean', 0],
      ['Age', 'string', 0],
      ['PreemptionPolicy', 'string', 0],
    ]);
    const cells = t.rows[0].cells;
    expect([cells[0], cells[1], cells[2], cells[4]]).toStrictEqual([name, 42, false, 'Never']);
    expect(cells[3]).toMatch(AGE);
  });

  it('Namespace: Name, Status, Age', async () => {
    const t = await table(NS('default'));
    expect(columns(t)).toStrictEqual([
      ['Name', 'string', 0],
      ['Status', 'string', 0],
      ['Age', 'string', 0],
    ]);
    expect(t.rows[0].cells.slice(0, 2)).toStrictEqual(['default', 'Active']);
    expect(t.rows[0].cells[2]).toMatch(AGE);
  });

  it('an invalid includeObject is 400 BadRequest', async () => {
    const r = await http(k, 'GET', `${STS(NSA)}?includeObject=Everything`, undefined, { accept: TABLE });
    expect(r.status).toBe(400);
    expect(r.json).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`,
      reason: 'BadRequest',
      code: 400,
    });
  });
});
