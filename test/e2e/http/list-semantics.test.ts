// Consistency semantics of get and list over HTTP, one test per cell of the spec's table
// (resourceVersion x resourceVersionMatch x limit/continue), with kube-apiserver 1.33's
// answers for the invalid cells (ValidateListOptions in apimachinery's
// meta/internalversion/validation, storage.ValidateListOptions and DecodeContinue in
// apiserver/pkg/storage), the 504 "Too large resource version" paths, the query's integer
// parsing, and type-specific field selectors (pods).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKapi, stopKapi } from '../../support/server.js';
import { NS, expectCode, expectFailure, expectInvalid, http, ns, uniq, type KapiProcess, type Obj } from './helpers.js';

let k: KapiProcess;
let NSX: string;

const CR = (n: string, name = ''): string => `/apis/apps/v1/namespaces/${n}/controllerrevisions${name ? '/' + name : ''}`;
const POD = (n: string): string => `/api/v1/namespaces/${n}/pods`;
const cr = (name: string, labels?: Record<string, string>): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: labels ? { name, labels } : { name },
  data: {},
  revision: 1,
});

const names = (list: Obj): string[] => (list.items as Obj[]).map((o) => o.metadata.name as string);
const rvOf = (o: Obj): number => Number(o.metadata.resourceVersion);
const list = async (path: string): Promise<Obj> => expectCode(await http(k, 'GET', path), 200);
const create = async (n: string, name: string, labels?: Record<string, string>): Promise<Obj> =>
  expectCode(await http(k, 'POST', CR(n), cr(name, labels)), 201);

/** The ListOptions 422 kube answers for ValidateListOptions findings. */
function expectListOptionsInvalid(r: Awaited<ReturnType<typeof http>>, causes: { reason: string; field: string; message: string }[]): void {
  const texts = causes.map((c) => `${c.field}: ${c.message}`);
  expectInvalid(r, {
    kind: 'ListOptions',
    group: 'meta.k8s.io',
    name: '',
    causes,
    message: `ListOptions.meta.k8s.io "" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`,
  });
}

const FORBID_NO_RV = {
  reason: 'FieldValueForbidden',
  field: 'resourceVersionMatch',
  message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
};
const FORBID_EXACT_0 = {
  reason: 'FieldValueForbidden',
  field: 'resourceVersionMatch',
  message: 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
};
const FORBID_CONTINUE = {
  reason: 'FieldValueForbidden',
  field: 'resourceVersionMatch',
  message: 'Forbidden: resourceVersionMatch is forbidden when continue is provided',
};

// The state the Exact cells read back: five objects at revision `atRv`, then one more
// created and one deleted after it.
let atRv: number;
const base = ['a', 'b', 'c', 'd', 'e'];
let later: string;

beforeAll(async () => {
  k = await startKapi();
  NSX = uniq('lsem');
  expectCode(await http(k, 'POST', NS(), ns(NSX)), 201);
  let last: Obj | undefined;
  for (const n of base) last = await create(NSX, n);
  atRv = rvOf(last!);
  later = 'f';
  await create(NSX, later);
  expectCode(await http(k, 'DELETE', CR(NSX, 'a')), 200);
});

afterAll(() => stopKapi(k));

describe('list: resourceVersionMatch unset, limit unset', () => {
  it('resourceVersion unset is Most Recent: a write just acknowledged is listed, no continue', async () => {
    const n = uniq('mr');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    const o = await create(n, 'x');
    const l = await list(CR(n));
    expect(names(l)).toStrictEqual(['x']);
    expect(Number(l.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvOf(o));
    expect(l.metadata.continue).toBeUndefined();
    expect(l.metadata.remainingItemCount).toBeUndefined();
  });

  it('resourceVersion=0 is Any: served from the cache', async () => {
    const l = await list(`${CR(NSX)}?resourceVersion=0`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
    expect(Number(l.metadata.resourceVersion)).toBeGreaterThan(atRv);
  });

  it('resourceVersion=N is Not older than: current data, collection resourceVersion >= N', async () => {
    const l = await list(`${CR(NSX)}?resourceVersion=${atRv}`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
    expect(Number(l.metadata.resourceVersion)).toBeGreaterThan(atRv);
    expect(l.metadata.continue).toBeUndefined();
  });
});

describe('list: resourceVersionMatch unset, limit=n, continue unset', () => {
  it('resourceVersion unset is Most Recent, paged with a continue and remainingItemCount', async () => {
    const l = await list(`${CR(NSX)}?limit=2`);
    expect(names(l)).toStrictEqual(['b', 'c']);
    expect(l.metadata.continue).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(l.metadata.remainingItemCount).toBe(3);
  });

  it('resourceVersion=0 is Any: the watch cache ignores the limit, as kube does', async () => {
    const l = await list(`${CR(NSX)}?limit=2&resourceVersion=0`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
    expect(l.metadata.continue).toBeUndefined();
    expect(l.metadata.remainingItemCount).toBeUndefined();
  });

  it('resourceVersion=N is Exact: the state at N, collection resourceVersion N, all pages at N', async () => {
    const p1 = await list(`${CR(NSX)}?limit=3&resourceVersion=${atRv}`);
    expect(p1.metadata.resourceVersion).toBe(String(atRv));
    expect(names(p1)).toStrictEqual(['a', 'b', 'c']);
    expect(p1.metadata.remainingItemCount).toBe(2);
    const p2 = await list(`${CR(NSX)}?limit=3&continue=${p1.metadata.continue}`);
    expect(p2.metadata.resourceVersion).toBe(String(atRv));
    expect(names(p2)).toStrictEqual(['d', 'e']);
    expect(p2.metadata.continue).toBeUndefined();
    expect(p2.metadata.remainingItemCount).toBeUndefined();
  });
});

describe('list: resourceVersionMatch unset, limit=n, continue=<token>', () => {
  it('resourceVersion unset is Continuation: the next page at the first page\'s revision', async () => {
    const p1 = await list(`${CR(NSX)}?limit=2`);
    const p2 = await list(`${CR(NSX)}?limit=2&continue=${p1.metadata.continue}`);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
    expect(names(p2)).toStrictEqual(['d', 'e']);
    expect(p2.metadata.remainingItemCount).toBe(1);
    const p3 = await list(`${CR(NSX)}?limit=2&continue=${p2.metadata.continue}`);
    expect(names(p3)).toStrictEqual(['f']);
    expect(p3.metadata.continue).toBeUndefined();
  });

  it('resourceVersion=0 is Continuation too', async () => {
    const p1 = await list(`${CR(NSX)}?limit=4`);
    const p2 = await list(`${CR(NSX)}?limit=4&resourceVersion=0&continue=${p1.metadata.continue}`);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
    expect(names(p2)).toStrictEqual(['f']);
  });

  it('resourceVersion=N is invalid: 400 specifying resource version is not allowed when using continue', async () => {
    const p1 = await list(`${CR(NSX)}?limit=2`);
    const r = await http(k, 'GET', `${CR(NSX)}?limit=2&resourceVersion=${atRv}&continue=${p1.metadata.continue}`);
    expectFailure(r, { code: 400, reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' });
  });
});

describe('list: resourceVersionMatch=Exact', () => {
  it('limit unset, resourceVersion unset is invalid (422)', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=Exact`), [FORBID_NO_RV]);
  });

  it('limit unset, resourceVersion=0 is invalid (422)', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=Exact&resourceVersion=0`), [FORBID_EXACT_0]);
  });

  it('limit unset, resourceVersion=N is Exact: the whole collection as it was at N', async () => {
    const l = await list(`${CR(NSX)}?resourceVersionMatch=Exact&resourceVersion=${atRv}`);
    expect(l.metadata.resourceVersion).toBe(String(atRv));
    expect(names(l)).toStrictEqual(base);
    expect(l.items.every((o: Obj) => rvOf(o) <= atRv)).toBe(true);
    expect(l.metadata.continue).toBeUndefined();
  });

  it('limit=n, resourceVersion unset is invalid (422)', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=Exact&limit=2`), [FORBID_NO_RV]);
  });

  it('limit=n, resourceVersion=0 is invalid (422)', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=Exact&limit=2&resourceVersion=0`), [FORBID_EXACT_0]);
  });

  it('limit=n, resourceVersion=N is Exact, paged', async () => {
    const p1 = await list(`${CR(NSX)}?resourceVersionMatch=Exact&limit=4&resourceVersion=${atRv}`);
    expect(p1.metadata.resourceVersion).toBe(String(atRv));
    expect(names(p1)).toStrictEqual(['a', 'b', 'c', 'd']);
    expect(p1.metadata.remainingItemCount).toBe(1);
    const p2 = await list(`${CR(NSX)}?limit=4&continue=${p1.metadata.continue}`);
    expect(p2.metadata.resourceVersion).toBe(String(atRv));
    expect(names(p2)).toStrictEqual(['e']);
  });

  it('a revision ahead of the store is 504 Too large resource version at once (the etcd3 store\'s answer)', async () => {
    const far = atRv + 1_000_000;
    const t0 = Date.now();
    for (const q of [`resourceVersionMatch=Exact&resourceVersion=${far}`, `limit=2&resourceVersion=${far}`]) {
      const r = await http(k, 'GET', `${CR(NSX)}?${q}`);
      expect(r.status, r.text).toBe(504);
      const body = r.json as Obj;
      expect(body.reason).toBe('Timeout');
      expect(body.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${far}, current: [0-9]+$`));
      expect(body.details).toStrictEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] });
      expect(r.headers.get('retry-after')).toBeNull();
    }
    expect(Date.now() - t0).toBeLessThan(2500);
  });
});

describe('list: resourceVersionMatch=NotOlderThan', () => {
  it('limit unset, resourceVersion unset is invalid (422)', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=NotOlderThan`), [FORBID_NO_RV]);
  });

  it('limit unset, resourceVersion=0 is Any', async () => {
    const l = await list(`${CR(NSX)}?resourceVersionMatch=NotOlderThan&resourceVersion=0`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
  });

  it('limit unset, resourceVersion=N is Not older than', async () => {
    const l = await list(`${CR(NSX)}?resourceVersionMatch=NotOlderThan&resourceVersion=${atRv}`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
    expect(Number(l.metadata.resourceVersion)).toBeGreaterThan(atRv);
  });

  it('limit=n, resourceVersion unset is invalid (422)', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=NotOlderThan&limit=2`), [FORBID_NO_RV]);
  });

  it('limit=n, resourceVersion=0 is Any (limit ignored by the cache)', async () => {
    const l = await list(`${CR(NSX)}?resourceVersionMatch=NotOlderThan&limit=2&resourceVersion=0`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
    expect(l.metadata.continue).toBeUndefined();
  });

  it('limit=n, resourceVersion=N is Not older than, paged at the served revision', async () => {
    const p1 = await list(`${CR(NSX)}?resourceVersionMatch=NotOlderThan&limit=3&resourceVersion=${atRv}`);
    expect(Number(p1.metadata.resourceVersion)).toBeGreaterThan(atRv);
    expect(names(p1)).toStrictEqual(['b', 'c', 'd']);
    expect(p1.metadata.remainingItemCount).toBe(2);
    const p2 = await list(`${CR(NSX)}?limit=3&continue=${p1.metadata.continue}`);
    expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
    expect(names(p2)).toStrictEqual(['e', 'f']);
  });
});

describe('invalid list options', () => {
  it('an unknown resourceVersionMatch is 422 Unsupported value', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=exact&resourceVersion=5`), [
      {
        reason: 'FieldValueNotSupported',
        field: 'resourceVersionMatch',
        message: 'Unsupported value: "exact": supported values: "Exact", "NotOlderThan", ""',
      },
    ]);
  });

  it('resourceVersionMatch with continue is 422 on ListOptions, every finding reported', async () => {
    const p1 = await list(`${CR(NSX)}?limit=2`);
    const tok = p1.metadata.continue as string;
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=NotOlderThan&resourceVersion=9&continue=${tok}`), [FORBID_CONTINUE]);
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?resourceVersionMatch=Exact&continue=${tok}`), [FORBID_NO_RV, FORBID_CONTINUE]);
  });

  it('sendInitialEvents on a list is 422', async () => {
    expectListOptionsInvalid(await http(k, 'GET', `${CR(NSX)}?sendInitialEvents=false`), [
      { reason: 'FieldValueForbidden', field: 'sendInitialEvents', message: 'Forbidden: sendInitialEvents is forbidden for list' },
    ]);
  });

  it('a malformed continue token is 400, checked before the resourceVersion', async () => {
    const bad = async (token: string, why: string, extra = ''): Promise<void> => {
      const r = await http(k, 'GET', `${CR(NSX)}?limit=2&continue=${encodeURIComponent(token)}${extra}`);
      expectFailure(r, { code: 400, reason: 'BadRequest', message: `invalid continue token: continue key is not valid${why}` });
    };
    const b64 = (s: string): string => Buffer.from(s).toString('base64url');
    await bad('!!!', ': illegal base64 data at input byte 0');
    await bad('!!!', ': illegal base64 data at input byte 0', `&resourceVersion=${atRv}`);
    await bad('abcde', ': illegal base64 data at input byte 4');
    await bad(b64('{"v":"meta.k8s.io/v1","rv":0,"start":"b\\u0000"}'), ': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
    await bad(b64('{"v":"meta.k8s.io/v1","rv":5,"start":""}'), ': encoded start key empty (version meta.k8s.io/v1)');
    await bad(b64('{"v":"meta.k8s.io/v1","rv":5,"start":"../x"}'), ': ../x');
    await bad(b64('{"v":"v2","rv":5,"start":"b"}'), ': server does not recognize this encoded version v2');
    await bad(b64('{"v":"meta.k8s.io/v1","rv":"5","start":"b"}'), ': json: cannot unmarshal string into Go struct field continueToken.rv of type int64');
    await bad(b64('hello'), ": invalid character 'h' looking for beginning of value");
  });

  it('limit and timeoutSeconds must be integers (400 with strconv.ParseInt\'s text); a negative limit means none', async () => {
    expectFailure(await http(k, 'GET', `${CR(NSX)}?limit=abc`), { code: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "abc": invalid syntax' });
    expectFailure(await http(k, 'GET', `${CR(NSX)}?limit=`), { code: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "": invalid syntax' });
    expectFailure(await http(k, 'GET', `${CR(NSX)}?limit=99999999999999999999`), {
      code: 400,
      reason: 'BadRequest',
      message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    });
    expectFailure(await http(k, 'GET', `${CR(NSX)}?timeoutSeconds=1.5&limit=x`), {
      code: 400,
      reason: 'BadRequest',
      message: 'strconv.ParseInt: parsing "1.5": invalid syntax',
    });
    const l = await list(`${CR(NSX)}?limit=-1&timeoutSeconds=30`);
    expect(names(l)).toStrictEqual(['b', 'c', 'd', 'e', 'f']);
    expect(l.metadata.continue).toBeUndefined();
  });

  it('a malformed resourceVersion is 400 invalid resource version', async () => {
    expectFailure(await http(k, 'GET', `${CR(NSX)}?resourceVersion=abc`), {
      code: 400,
      reason: 'BadRequest',
      message: 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    });
  });
});

describe('get', () => {
  it('resourceVersion unset is Most Recent, 0 is Any, N is Not older than', async () => {
    const o = await create(NSX, uniq('g'));
    const name = o.metadata.name as string;
    expect(rvOf(await list(CR(NSX, name)))).toBe(rvOf(o));
    expect(rvOf(await list(`${CR(NSX, name)}?resourceVersion=0`))).toBe(rvOf(o));
    expect(rvOf(await list(`${CR(NSX, name)}?resourceVersion=${rvOf(o)}`))).toBe(rvOf(o));
    expect(rvOf(await list(`${CR(NSX, name)}?resourceVersion=1`))).toBe(rvOf(o));
    expectFailure(await http(k, 'GET', `${CR(NSX, name)}?resourceVersion=x1`), {
      code: 400,
      reason: 'BadRequest',
      message: 'resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax',
    });
  });
});

describe('a resourceVersion newer than the cache', () => {
  it('get and list wait 3 s, then 504 Timeout with cause ResourceVersionTooLarge and Retry-After: 1', async () => {
    const far = atRv + 5_000_000;
    const t0 = Date.now();
    const paths = [
      `${CR(NSX, 'b')}?resourceVersion=${far}`,
      `${CR(NSX)}?resourceVersion=${far}`,
      `${CR(NSX)}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan&limit=2`,
    ];
    const rs = await Promise.all(paths.map((p) => http(k, 'GET', p)));
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(2900);
    expect(took).toBeLessThan(8000);
    for (const r of rs) {
      expect(r.status, r.text).toBe(504);
      expect(r.headers.get('retry-after')).toBe('1');
      const body = r.json as Obj;
      expect(body).toStrictEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: expect.stringMatching(new RegExp(`^Timeout: Too large resource version: ${far}, current: [0-9]+$`)),
        reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        code: 504,
      });
    }
  });
});

describe('field selectors per type', () => {
  it('pods select on spec.nodeName (and its old name spec.host) and status.phase; unknown labels are 400', async () => {
    const n = uniq('fsel');
    expectCode(await http(k, 'POST', NS(), ns(n)), 201);
    const mk = (name: string, nodeName?: string): Obj => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx:1.27' }] },
    });
    for (const [name, node] of [['p1', 'n1'], ['p2', 'n2'], ['p3', 'n1'], ['p4', undefined]] as const) {
      expectCode(await http(k, 'POST', POD(n), mk(name, node)), 201);
    }
    expect(names(await list(`${POD(n)}?fieldSelector=spec.nodeName%3Dn1`))).toStrictEqual(['p1', 'p3']);
    expect(names(await list(`${POD(n)}?fieldSelector=spec.host%3Dn2`))).toStrictEqual(['p2']);
    expect(names(await list(`${POD(n)}?fieldSelector=spec.nodeName%3D`))).toStrictEqual(['p4']);
    expect(names(await list(`${POD(n)}?fieldSelector=spec.nodeName!%3Dn1,metadata.name!%3Dp4`))).toStrictEqual(['p2']);
    const pending = await list(`${POD(n)}?fieldSelector=status.phase%3DPending`);
    const all = await list(POD(n));
    expect(names(pending)).toStrictEqual(
      (all.items as Obj[]).filter((p) => (p.status?.phase ?? '') === 'Pending').map((p) => p.metadata.name),
    );
    // With a limit, pages fill by reading further; the count of later matches is not given.
    const p1 = await list(`${POD(n)}?fieldSelector=spec.nodeName%3Dn1&limit=1`);
    expect(names(p1)).toStrictEqual(['p1']);
    expect(p1.metadata.remainingItemCount).toBeUndefined();
    const p2 = await list(`${POD(n)}?fieldSelector=spec.nodeName%3Dn1&limit=1&continue=${p1.metadata.continue}`);
    expect(names(p2)).toStrictEqual(['p3']);
    expectFailure(await http(k, 'GET', `${POD(n)}?fieldSelector=spec.foo%3Dbar`), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.foo',
    });
    // Other types keep kube's default conversion.
    expectFailure(await http(k, 'GET', `${CR(n)}?fieldSelector=spec.nodeName%3Dx`), {
      code: 400,
      reason: 'BadRequest',
      message: '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
  });
});
