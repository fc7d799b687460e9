// kubectl reads kapi's OpenAPI documents: 1.27 validates client-side from the v2 protobuf,
// 1.33 explains from the v3 documents. Fake servers serve the documents built from test fixtures.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenAPIV2, buildOpenAPIV3, encodeOpenAPIV2Protobuf, openapiHash, openapiV3Index } from '../../../src/schema/openapi/index.js';
import { apiResourceOf } from '../../../src/registry/types.js';
import { negotiateOpenAPIV2 } from '../../../src/api/openapi.js';
import { DEFS, REGISTRY } from '../../unit/schema/openapi-fixtures.js';
import { kubectlVersion } from '../../support/kubectl-bin.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI documents are read field by field
type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// kubectl 1.27 reads the protobuf: it fetches /openapi/v2 as gnostic protobuf for client-side
// validation (--validate=true) and for its server-side field validation support check.

const KUBECTL_127 = kubectlVersion(27);
const execFileP = promisify(execFile);

interface Recorded {
  path: string;
  accept: string;
}

/** A tiny API server: discovery documents, /openapi/v2 and (with `v3`) /openapi/v3; otherwise 404s. */
async function startFakeServer(v2: Json, v3 = false): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const pb = encodeOpenAPIV2Protobuf(v2);
  const json = JSON.stringify(v2);
  const v3Docs = new Map<string, { body: string; hash: string }>();
  if (v3) {
    for (const key of ['api/v1', 'apis/apps/v1', 'apis/scheduling.k8s.io/v1']) {
      const body = JSON.stringify(buildOpenAPIV3(DEFS.map(apiResourceOf), REGISTRY, key));
      v3Docs.set(key, { body, hash: openapiHash(body) });
    }
  }
  const v3Index = JSON.stringify(openapiV3Index([...v3Docs.keys()], Object.fromEntries([...v3Docs].map(([k, d]) => [k, d.hash]))));
  const requests: Recorded[] = [];
  // eslint-disable-next-line prefer-const -- assigned after the handler that closes over it
  let server: Server;
  const send = (res: import('node:http').ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const resources = (groupVersion: string, list: Json[]) => JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: list });
  const handler = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ path, accept: String(req.headers.accept ?? '') });
    const addr = (server.address() as AddressInfo).port;
    switch (path) {
      case '/api':
        return send(res, 200, 'application/json', JSON.stringify({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${addr}` }] }));
      case '/apis':
        return send(
          res,
          200,
          'application/json',
          JSON.stringify({
            kind: 'APIGroupList',
            apiVersion: 'v1',
            groups: ['apps', 'scheduling.k8s.io'].map((g) => ({ name: g, versions: [{ groupVersion: `${g}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${g}/v1`, version: 'v1' } })),
          }),
        );
      case '/api/v1':
        return send(res, 200, 'application/json', resources('v1', [
          { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'] },
        ]));
      case '/apis/apps/v1':
        return send(res, 200, 'application/json', resources('apps/v1', [
          { name: 'statefulsets', singularName: 'statefulset', namespaced: true, kind: 'StatefulSet', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['sts'], categories: ['all'] },
          { name: 'statefulsets/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
          { name: 'statefulsets/status', singularName: '', namespaced: true, kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] },
        ]));
      case '/apis/scheduling.k8s.io/v1':
        return send(res, 200, 'application/json', resources('scheduling.k8s.io/v1', [
          { name: 'priorityclasses', singularName: 'priorityclass', namespaced: false, kind: 'PriorityClass', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['pc'] },
        ]));
      case '/openapi/v2': {
        const rep = negotiateOpenAPIV2(req.headers.accept);
        if (!rep) return send(res, 406, 'text/plain', '');
        return send(res, 200, rep.contentType, rep.format === 'protobuf' ? pb : json);
      }
      case '/openapi/v3':
        if (v3) return send(res, 200, 'application/json', v3Index);
        break;
      default: {
        const d = path.startsWith('/openapi/v3/') ? v3Docs.get(path.slice('/openapi/v3/'.length)) : undefined;
        if (d) return send(res, 200, 'application/json', d.body);
      }
    }
    return send(res, 404, 'application/json', JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' }));
  };
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A server that predates field validation: PATCH operations without the fieldValidation parameter. */
function withoutFieldValidation(doc: Json): Json {
  const out = structuredClone(doc);
  for (const item of Object.values(out.paths as Record<string, Json>)) {
    for (const m of ['get', 'put', 'post', 'delete', 'patch']) {
      if (item[m]?.parameters) item[m].parameters = item[m].parameters.filter((p: Json) => p.name !== 'fieldValidation');
    }
  }
  return out;
}

const STS = (spec: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  serviceName: web
  selector:
    matchLabels: {app: web}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {partition: 0, maxUnavailable: 50%}
  template:
    metadata:
      labels: {app: web}
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: nginx:1.27
        args: ["-g", "daemon off;"]
        ports:
        - {containerPort: 80, name: http}
        resources:
          limits: {cpu: 500m, memory: 128Mi}
          requests: {cpu: 1}
${spec}`;

async function runKubectl(bin: string, home: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // A fresh discovery/OpenAPI cache per run, and no kubeconfig: --server says where to go.
  const cache = join(home, `cache-${Math.random().toString(36).slice(2)}`);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
  try {
    const { stdout, stderr } = await execFileP(bin, ['--cache-dir', cache, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

describe('kubectl 1.27 reads the v2 protobuf', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-openapi-'));
    await writeFile(join(dir, 'good.yaml'), STS(''));
    await writeFile(join(dir, 'unknown.yaml'), STS('  foo: bar\n'));
    await writeFile(join(dir, 'badtype.yaml'), STS('  minReadySeconds: soon\n'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const kubectl = (url: string, file: string) =>
    runKubectl(KUBECTL_127, dir, ['--server', url, 'create', '-f', join(dir, file), '--validate=true', '--dry-run=client', '-o', 'yaml']);

  it('validates client-side against the definitions when the server lacks field validation', async () => {
    const srv = await startFakeServer(withoutFieldValidation(buildOpenAPIV2(DEFS.map(apiResourceOf), REGISTRY) as Json));
    try {
      const unknown = await kubectl(srv.url, 'unknown.yaml');
      expect(unknown.code, unknown.stderr).not.toBe(0);
      expect(unknown.stderr).toContain('unknown field "foo" in io.k8s.api.apps.v1.StatefulSetSpec');
      expect(unknown.stderr).toContain('ValidationError(StatefulSet.spec)');
      expect(srv.requests.some((r) => r.path === '/openapi/v2' && r.accept.includes('application/com.github.proto-openapi.spec.v2@v1.0+protobuf'))).toBe(true);

      const badType = await kubectl(srv.url, 'badtype.yaml');
      expect(badType.code).not.toBe(0);
      expect(badType.stderr).toContain('invalid type for io.k8s.api.apps.v1.StatefulSetSpec.minReadySeconds: got "string", expected "integer"');

      // A valid manifest passes (IntOrString, quantities, maps, lists, nested refs).
      const good = await kubectl(srv.url, 'good.yaml');
      expect(good.stderr).toBe('');
      expect(good.code).toBe(0);
      expect(parseYaml(good.stdout)).toMatchObject({ kind: 'StatefulSet', metadata: { name: 'web' }, spec: { replicas: 2 } });
    } finally {
      await srv.close();
    }
  });

  it("finds the fieldValidation parameter on the PATCH operation and leaves validation to the server", async () => {
    const srv = await startFakeServer(buildOpenAPIV2(DEFS.map(apiResourceOf), REGISTRY) as Json);
    try {
      const res = await kubectl(srv.url, 'unknown.yaml');
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(parseYaml(res.stdout).spec.foo).toBe('bar');
      expect(srv.requests.some((r) => r.path === '/openapi/v2')).toBe(true);
    } finally {
      await srv.close();
    }
  });
});

const KUBECTL_133 = kubectlVersion(33);

describe('kubectl 1.33 explain reads the v3 documents', () => {
  let dir: string;
  let srv: Awaited<ReturnType<typeof startFakeServer>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-explain-'));
    srv = await startFakeServer(buildOpenAPIV2(DEFS.map(apiResourceOf), REGISTRY) as Json, true);
  });
  afterAll(async () => {
    await srv?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('explains a kind and nested fields through the /openapi/v3 index', async () => {
    const top = await runKubectl(KUBECTL_133, dir, ['--server', srv.url, 'explain', 'statefulsets']);
    expect(top.code, top.stderr).toBe(0);
    expect(top.stdout).toContain('KIND:       StatefulSet');
    expect(top.stdout).toContain('StatefulSet represents a set of pods with consistent identities.');
    expect(top.stdout).toMatch(/spec\s+<StatefulSetSpec>/);

    const nested = await runKubectl(KUBECTL_133, dir, ['--server', srv.url, 'explain', 'statefulsets.spec.updateStrategy.rollingUpdate']);
    expect(nested.code, nested.stderr).toBe(0);
    expect(nested.stdout).toContain('FIELD: rollingUpdate <RollingUpdateStatefulSetStrategy>');
    expect(nested.stdout).toMatch(/maxUnavailable\s+<IntOrString>/);

    const list = await runKubectl(KUBECTL_133, dir, ['--server', srv.url, 'explain', 'sts.spec.template.spec.containers']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('FIELD: containers <[]Container>');
    expect(list.stdout).toMatch(/name\s+<string> -required-/);

    const index = srv.requests.find((r) => r.path === '/openapi/v3');
    expect(index).toBeDefined();
    expect(srv.requests.some((r) => r.path === '/openapi/v3/apis/apps/v1')).toBe(true);
  });
});
