// Bare Koa JSON baseline: StatefulSets and PriorityClasses in Maps, no validation, no
// storage, no watch. PriorityClass lists page with limit/continue (an offset token).
// Accepts kapi-style flags (--secure-port/--port, --bind-address; others ignored) so it
// can stand in for kapi via BENCH_KAPI_CMD. With --tls-cert-file and --tls-private-key-file
// it serves HTTPS (HTTP/1.1), asking for client certificates and checking them against
// --client-ca-file as kapi does, so the bench compares TLS with TLS.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';

function flag(name: string): string | undefined {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

const port = Number(flag('secure-port') ?? flag('port') ?? 8080);
const host = flag('bind-address') ?? '127.0.0.1';
const MAX_BODY = 3 * 1024 * 1024;

type Obj = { metadata?: Record<string, unknown> } & Record<string, unknown>;

const namespaces = new Map<string, Obj>();
const statefulSets = new Map<string, Map<string, Obj>>();
const priorityClasses = new Map<string, Obj>();
/** PriorityClass names in creation order; a continue token is an offset into it (nothing is deleted). */
const priorityClassOrder: string[] = [];
let rv = 1;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

const app = new Koa();
const router = new Router();

router.get(['/readyz', '/healthz', '/livez'], (ctx) => {
  ctx.type = 'text/plain';
  ctx.body = 'ok';
});

/** The JSON body, with the response typed as JSON; undefined after answering 400 for bad JSON. */
async function readJsonObject(ctx: Koa.Context): Promise<Obj | undefined> {
  ctx.type = 'application/json';
  try {
    return JSON.parse(await readBody(ctx.req)) as Obj;
  } catch {
    ctx.status = 400;
    ctx.body = status(400, 'BadRequest', 'invalid JSON');
    return undefined;
  }
}

/** metadata.name; undefined after answering 422 when it is missing. */
function requiredName(ctx: Koa.Context, obj: Obj): string | undefined {
  const name = obj.metadata?.name;
  if (typeof name === 'string' && name !== '') return name;
  ctx.status = 422;
  ctx.body = status(422, 'Invalid', 'metadata.name: Required value');
  return undefined;
}

router.post('/api/v1/namespaces', async (ctx) => {
  const obj = await readJsonObject(ctx);
  if (!obj) return;
  const name = String(obj.metadata?.name ?? '');
  if (namespaces.has(name)) {
    ctx.status = 409;
    ctx.body = status(409, 'AlreadyExists', `namespaces "${name}" already exists`);
    return;
  }
  obj.metadata = { ...obj.metadata, uid: randomUUID(), resourceVersion: String(++rv), creationTimestamp: new Date().toISOString() };
  namespaces.set(name, obj);
  ctx.status = 201;
  ctx.body = JSON.stringify(obj);
});

router.post('/apis/apps/v1/namespaces/:ns/statefulsets', async (ctx) => {
  const ns = ctx.params.ns!;
  const obj = await readJsonObject(ctx);
  if (!obj) return;
  const name = requiredName(ctx, obj);
  if (name === undefined) return;
  let bucket = statefulSets.get(ns);
  if (!bucket) statefulSets.set(ns, (bucket = new Map()));
  if (bucket.has(name)) {
    ctx.status = 409;
    ctx.body = status(409, 'AlreadyExists', `statefulsets.apps "${name}" already exists`);
    return;
  }
  obj.metadata = {
    ...obj.metadata,
    namespace: ns,
    uid: randomUUID(),
    resourceVersion: String(++rv),
    generation: 1,
    creationTimestamp: new Date().toISOString(),
  };
  bucket.set(name, obj);
  ctx.status = 201;
  ctx.body = JSON.stringify(obj);
});

router.get('/apis/apps/v1/namespaces/:ns/statefulsets/:name', (ctx) => {
  const obj = statefulSets.get(ctx.params.ns!)?.get(ctx.params.name!);
  ctx.type = 'application/json';
  if (!obj) {
    ctx.status = 404;
    ctx.body = status(404, 'NotFound', `statefulsets.apps "${ctx.params.name}" not found`);
    return;
  }
  ctx.body = JSON.stringify(obj);
});

router.get('/apis/apps/v1/namespaces/:ns/statefulsets', (ctx) => {
  const bucket = statefulSets.get(ctx.params.ns!);
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({
    kind: 'StatefulSetList',
    apiVersion: 'apps/v1',
    metadata: { resourceVersion: '1' },
    items: bucket ? [...bucket.values()] : [],
  });
});

router.post('/apis/scheduling.k8s.io/v1/priorityclasses', async (ctx) => {
  const obj = await readJsonObject(ctx);
  if (!obj) return;
  const name = requiredName(ctx, obj);
  if (name === undefined) return;
  if (priorityClasses.has(name)) {
    ctx.status = 409;
    ctx.body = status(409, 'AlreadyExists', `priorityclasses.scheduling.k8s.io "${name}" already exists`);
    return;
  }
  obj.metadata = { ...obj.metadata, uid: randomUUID(), resourceVersion: String(++rv), generation: 1, creationTimestamp: new Date().toISOString() };
  priorityClasses.set(name, obj);
  priorityClassOrder.push(name);
  ctx.status = 201;
  ctx.body = JSON.stringify(obj);
});

router.get('/apis/scheduling.k8s.io/v1/priorityclasses', (ctx) => {
  ctx.type = 'application/json';
  const limit = Number(ctx.query.limit ?? 0);
  const token = typeof ctx.query.continue === 'string' ? ctx.query.continue : '';
  const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(start) || start < 0) {
    ctx.status = 400;
    ctx.body = status(400, 'BadRequest', 'invalid continue token');
    return;
  }
  const end = limit > 0 ? Math.min(priorityClassOrder.length, start + limit) : priorityClassOrder.length;
  const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
  if (end < priorityClassOrder.length) {
    metadata.continue = Buffer.from(String(end)).toString('base64url');
    metadata.remainingItemCount = priorityClassOrder.length - end;
  }
  ctx.body = JSON.stringify({
    kind: 'PriorityClassList',
    apiVersion: 'scheduling.k8s.io/v1',
    metadata,
    items: priorityClassOrder.slice(start, end).map((n) => priorityClasses.get(n)),
  });
});

app.use(router.routes());
app.use(router.allowedMethods());

const certFile = flag('tls-cert-file');
const keyFile = flag('tls-private-key-file');
const clientCAFile = flag('client-ca-file');
const server =
  certFile && keyFile
    ? createHttpsServer(
        {
          cert: readFileSync(certFile),
          key: readFileSync(keyFile),
          ca: clientCAFile ? readFileSync(clientCAFile) : undefined,
          requestCert: clientCAFile !== undefined,
          rejectUnauthorized: false,
        },
        app.callback(),
      ).listen(port, host)
    : app.listen(port, host);
server.keepAliveTimeout = 65_000;

function shutdown(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 1000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
