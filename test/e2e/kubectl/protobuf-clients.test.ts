// kubectl 1.33 speaks protobuf to its typed clients: what it sends decodes with kapi's codec, and
// it reads kapi's protobuf answers. Fake servers capture the requests.

import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOBUF_MEDIA_TYPE, decodeProtobufObject, encodeProtobufObject } from '../../../src/codec/protobuf/index.js';
import { kubectlPath } from '../../support/kubectl-bin.js';

type Obj = Record<string, unknown>;

const KUBECTL = kubectlPath();

interface Captured {
  method: string;
  url: string;
  contentType: string | undefined;
  accept: string | undefined;
  body: Buffer;
}

describe('protobuf codec: live interop with kubectl 1.33', () => {
  const captured: Captured[] = [];
  let server: Server;
  let port = 0;
  const run = promisify(execFile);

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        captured.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], accept: req.headers.accept, body });
        if (req.method !== 'POST') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","code":404}');
          return;
        }
        // Answer with the decoded object, re-encoded as JSON.
        let obj: Obj = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'foo' } };
        try {
          obj = decodeProtobufObject(body).object;
        } catch {
          /* the assertions below report it */
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify(obj));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function kubectl(...args: string[]): Promise<Captured> {
    const before = captured.length;
    const { stdout } = await run(KUBECTL, ['--server', `http://127.0.0.1:${port}`, ...args], { timeout: 20_000 });
    expect(stdout).toMatch(/created/);
    const posts = captured.slice(before).filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    return posts[0];
  }

  it('kubectl create namespace foo sends protobuf', async () => {
    const c = await kubectl('create', 'namespace', 'foo');
    expect(c.url).toMatch(/^\/api\/v1\/namespaces\?/);
    expect(c.contentType).toBe(PROTOBUF_MEDIA_TYPE);
    expect(c.accept).toContain(PROTOBUF_MEDIA_TYPE);
    const d = decodeProtobufObject(c.body);
    expect(d.unknownFields).toEqual([]);
    expect(d.object).toEqual({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'foo' }, spec: {}, status: {} });
  });

  it('kubectl create priorityclass sends protobuf', async () => {
    const c = await kubectl('create', 'priorityclass', 'pc1', '--value=10', '--description=x', '--preemption-policy=Never');
    expect(c.url).toMatch(/^\/apis\/scheduling\.k8s\.io\/v1\/priorityclasses\?/);
    expect(c.contentType).toBe(PROTOBUF_MEDIA_TYPE);
    const d = decodeProtobufObject(c.body);
    expect(d.unknownFields).toEqual([]);
    expect(d.object).toEqual({
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'pc1' },
      value: 10,
      description: 'x',
      preemptionPolicy: 'Never',
    });
  });

  it('kubectl create pdb sends protobuf', async () => {
    const c = await kubectl('-n', 'default', 'create', 'pdb', 'p1', '--selector=app=x', '--min-available=1');
    expect(c.url).toMatch(/^\/apis\/policy\/v1\/namespaces\/default\/poddisruptionbudgets\?/);
    expect(c.contentType).toBe(PROTOBUF_MEDIA_TYPE);
    const d = decodeProtobufObject(c.body);
    expect(d.unknownFields).toEqual([]);
    expect(d.object).toEqual({
      kind: 'PodDisruptionBudget',
      apiVersion: 'policy/v1',
      metadata: { name: 'p1', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    });
  });

  it('kubectl reads a protobuf response body', async () => {
    // Serve the next POST response as protobuf and check kubectl understands it.
    const s2 = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(201, { 'content-type': PROTOBUF_MEDIA_TYPE });
        res.end(
          encodeProtobufObject({
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: { name: 'from-protobuf', uid: 'u-1', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' },
            spec: { finalizers: ['kubernetes'] },
            status: { phase: 'Active' },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => s2.listen(0, '127.0.0.1', resolve));
    try {
      const p2 = (s2.address() as AddressInfo).port;
      const { stdout } = await run(
        KUBECTL,
        ['--server', `http://127.0.0.1:${p2}`, 'create', 'namespace', 'x', '-o', 'json'],
        { timeout: 20_000 },
      );
      expect(JSON.parse(stdout)).toEqual({
        kind: 'Namespace',
        apiVersion: 'v1',
        metadata: { name: 'from-protobuf', uid: 'u-1', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
    } finally {
      await new Promise<void>((resolve) => s2.close(() => resolve()));
    }
  });
});
