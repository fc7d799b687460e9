// protobuf vs JSON responses (kapi only): GET of one StatefulSet (closed loop, BENCH_CONCURRENCY
// clients for BENCH_SECONDS each way) and LIST of BENCH_LIST_SIZE (1,000) StatefulSets
// (sequential, BENCH_PROTOBUF_LIST_ITERATIONS (30) timed runs per format, JSON and protobuf
// interleaved), with Accept: application/json vs Accept: application/vnd.kubernetes.protobuf.
// Reports rates, latencies, response sizes and the protobuf/JSON ratio of each.
//
// Checks: every GET's status, Content-Type and size (inside the timed op, cheap), and the first
// GET's body; every LIST's status, Content-Type and body, outside the timed window. JSON is
// parsed; protobuf is walked with a minimal wire reader (independent of kapi's codec): the
// `k8s\0` magic, runtime.Unknown{typeMeta, raw}, the kind, and for a list the number of `items`
// (field 2 of the StatefulSetList), for a get the object's metadata.name. With 30 runs the list
// p99 is the slowest run.
import { performance } from 'node:perf_hooks';
import { httpLoad, percentiles, runClosedLoop, type LoadResult, type Percentiles } from '../load.js';
import { authHeaders, requestFn, type Target } from '../http.js';
import { statefulSetBody, stsCollectionPath, stsPath } from '../manifest.js';
import { ensureNamespace, failures, summarize } from './common.js';
import { check, num, resultOf, type MetricRow, type ServerPhase } from './types.js';

const NS = 'benchpb';
const GET_NAME = 'bench-0';
const JSON_MT = 'application/json';
const PROTOBUF_MT = 'application/vnd.kubernetes.protobuf';

type Format = 'json' | 'protobuf';
const ACCEPT: Record<Format, string> = { json: JSON_MT, protobuf: PROTOBUF_MT };

function listIterations(): number {
  const raw = process.env.BENCH_PROTOBUF_LIST_ITERATIONS;
  const n = raw === undefined || raw.trim() === '' ? 30 : Math.floor(Number(raw));
  return Number.isFinite(n) ? Math.min(10_000, Math.max(1, n)) : 30;
}

interface Got {
  status: number;
  contentType: string;
  body: Buffer;
}

/** GET with an explicit Accept header (http.ts's request() always asks for JSON); collects the body. */
function get(target: Target, path: string, accept: string, timeoutMs: number): Promise<Got> {
  return new Promise<Got>((resolve, reject) => {
    const req = requestFn(target)(
      { host: target.host, port: target.port, method: 'GET', path, headers: { accept, ...authHeaders(target) }, agent: target.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: GET ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

// ---- minimal protobuf wire reader (validation only) ----

function varint(b: Buffer, at: number): [value: number, next: number] {
  let v = 0;
  let mul = 1;
  for (let i = at; i < b.length && i < at + 10; i++) {
    const byte = b[i]!;
    v += (byte & 0x7f) * mul;
    if (byte < 0x80) return [v, i + 1];
    mul *= 128;
  }
  throw new Error(`bad varint at ${at}`);
}

/** Top-level fields of a message: field number -> list of length-delimited payloads (others skipped). */
function fields(b: Buffer): Map<number, Buffer[]> {
  const out = new Map<number, Buffer[]>();
  let at = 0;
  while (at < b.length) {
    const [tag, p] = varint(b, at);
    at = p;
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) at = varint(b, at)[1];
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const [len, q] = varint(b, at);
      if (q + len > b.length) throw new Error(`field ${field}: length ${len} past the end`);
      const list = out.get(field) ?? [];
      list.push(b.subarray(q, q + len));
      out.set(field, list);
      at = q + len;
    } else throw new Error(`unsupported wire type ${wire} (field ${field})`);
  }
  return out;
}

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

/** Unwraps kube's protobuf envelope: the kind and the raw message. */
function unwrap(body: Buffer): { kind: string; apiVersion: string; raw: Buffer } {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) throw new Error('missing k8s\\0 magic');
  const unknown = fields(body.subarray(4));
  const typeMeta = fields(unknown.get(1)?.[0] ?? Buffer.alloc(0));
  return {
    apiVersion: typeMeta.get(1)?.[0]?.toString('utf8') ?? '',
    kind: typeMeta.get(2)?.[0]?.toString('utf8') ?? '',
    raw: unknown.get(2)?.[0] ?? Buffer.alloc(0),
  };
}

/** Problem with a GET response body, or undefined. */
function checkGet(fmt: Format, r: Got): string | undefined {
  if (r.status !== 200) return `status ${r.status}: ${r.body.toString('utf8').slice(0, 200)}`;
  if (r.contentType.split(';')[0]!.trim() !== ACCEPT[fmt]) return `Content-Type ${r.contentType}, asked for ${ACCEPT[fmt]}`;
  try {
    if (fmt === 'json') {
      const o = JSON.parse(r.body.toString('utf8')) as { kind?: string; metadata?: { name?: string } };
      if (o.kind !== 'StatefulSet' || o.metadata?.name !== GET_NAME) return `JSON kind ${o.kind}, name ${o.metadata?.name}`;
      return undefined;
    }
    const u = unwrap(r.body);
    const meta = fields(fields(u.raw).get(1)?.[0] ?? Buffer.alloc(0));
    const name = meta.get(1)?.[0]?.toString('utf8');
    if (u.kind !== 'StatefulSet' || u.apiVersion !== 'apps/v1' || name !== GET_NAME) return `protobuf ${u.apiVersion} ${u.kind}, name ${name}`;
    return undefined;
  } catch (err) {
    return `bad ${fmt} body: ${(err as Error).message}`;
  }
}

/** Number of items in a list response (or a problem). */
function listItems(fmt: Format, r: Got): number | string {
  if (r.status !== 200) return `status ${r.status}: ${r.body.toString('utf8').slice(0, 200)}`;
  if (r.contentType.split(';')[0]!.trim() !== ACCEPT[fmt]) return `Content-Type ${r.contentType}, asked for ${ACCEPT[fmt]}`;
  try {
    if (fmt === 'json') {
      const o = JSON.parse(r.body.toString('utf8')) as { kind?: string; items?: unknown[] };
      if (o.kind !== 'StatefulSetList') return `JSON kind ${o.kind}`;
      return Array.isArray(o.items) ? o.items.length : 'no items array';
    }
    const u = unwrap(r.body);
    if (u.kind !== 'StatefulSetList') return `protobuf kind ${u.kind}`;
    return fields(u.raw).get(2)?.length ?? 0;
  } catch (err) {
    return `bad ${fmt} body: ${(err as Error).message}`;
  }
}

// ---- phase ----

export interface FormatGet {
  warmup: Record<string, unknown>;
  load: LoadResult;
  responseBytes: number;
}

export interface FormatList {
  latencyMs: Percentiles;
  responseBytes: number;
  /** Timed runs with status 200, the right Content-Type and exactly listSize items. */
  correct: number;
}

export interface ProtobufResult {
  namespace: string;
  listSize: number;
  listIterations: number;
  setup: Record<string, unknown>;
  setupFailures: number;
  get: Record<Format, FormatGet>;
  list: Record<Format, FormatList>;
  /** protobuf / JSON of each figure. */
  ratios: {
    getPerSec: number;
    getP50: number;
    getP99: number;
    getBytes: number;
    listP50: number;
    listP99: number;
    listBytes: number;
  };
  problems: string[];
}

const ratio = (a: number, b: number): number => (b > 0 && Number.isFinite(a) && Number.isFinite(b) ? a / b : NaN);

export const protobufPhase: ServerPhase<ProtobufResult> = {
  kind: 'server',
  id: 'protobuf',
  title: 'protobuf vs JSON get/list',
  targets: ['kapi'],
  async run(target, ctx) {
    const { cfg } = ctx;
    const problems: string[] = [];
    const note = (p: string): void => {
      if (problems.length < 10) problems.push(p);
    };
    const iterations = listIterations();
    await ensureNamespace(target, NS, cfg.requestTimeoutMs);
    const coll = stsCollectionPath(NS);
    ctx.log(`  ${target.name}: creating ${cfg.listSize} StatefulSets in ${NS} ...`);
    const setup = await httpLoad({
      target,
      concurrency: cfg.concurrency,
      timeoutMs: cfg.requestTimeoutMs,
      maxOps: cfg.listSize,
      makeRequest: (i) => ({ method: 'POST', path: coll, body: statefulSetBody(`bench-${i}`) }),
      expectStatus: 201,
    });
    if (failures(setup)) note(`setup: ${failures(setup)} creates failed: ${setup.samples.join('; ')}`);

    // GET one object: closed loop per format. The first body is fully checked; in the timed
    // loop only status, Content-Type and size (the object does not change).
    const getPath = stsPath(NS, GET_NAME);
    const gets = {} as Record<Format, FormatGet>;
    for (const fmt of ['json', 'protobuf'] as Format[]) {
      const first = await get(target, getPath, ACCEPT[fmt], cfg.requestTimeoutMs);
      const bad = checkGet(fmt, first);
      if (bad) note(`GET ${getPath} (${fmt}): ${bad}`);
      const op = async (): Promise<{ ok: boolean; label: string; detail?: string }> => {
        const r = await get(target, getPath, ACCEPT[fmt], cfg.requestTimeoutMs);
        if (r.status !== 200) return { ok: false, label: String(r.status), detail: r.body.toString('utf8').slice(0, 300) };
        if (!r.contentType.startsWith(ACCEPT[fmt])) return { ok: false, label: 'content-type', detail: r.contentType };
        if (r.body.length !== first.body.length) return { ok: false, label: 'size', detail: `${r.body.length} bytes, first was ${first.body.length}` };
        return { ok: true, label: '200' };
      };
      const warm = await runClosedLoop({ concurrency: cfg.concurrency, durationMs: cfg.phaseMs, maxOps: cfg.warmupOps, op });
      ctx.log(`  ${target.name}: GET (${fmt}) for ${cfg.phaseMs / 1000}s ...`);
      const load = await runClosedLoop({ concurrency: cfg.concurrency, durationMs: cfg.phaseMs, maxOps: cfg.maxOpsPerPhase, op });
      if (load.unexpected + load.errors) note(`GET ${fmt}: ${load.unexpected} unexpected, ${load.errors} errors: ${load.samples.join('; ')}`);
      ctx.log(
        `  ${target.name}: GET ${fmt} ${load.okPerSec.toFixed(0)}/s, p50 ${load.latencyMs.p50.toFixed(2)} ms, p99 ${load.latencyMs.p99.toFixed(2)} ms, ${first.body.length} B`,
      );
      gets[fmt] = { warmup: summarize(warm), load, responseBytes: first.body.length };
    }

    // LIST: sequential, formats interleaved so drift (GC, JIT) hits both alike.
    const lat: Record<Format, number[]> = { json: [], protobuf: [] };
    const bytes: Record<Format, number> = { json: 0, protobuf: 0 };
    const correct: Record<Format, number> = { json: 0, protobuf: 0 };
    const total = cfg.listWarmups + iterations;
    for (let i = 0; i < total; i++) {
      for (const fmt of (i % 2 ? ['protobuf', 'json'] : ['json', 'protobuf']) as Format[]) {
        const t0 = performance.now();
        let r: Got;
        try {
          r = await get(target, coll, ACCEPT[fmt], cfg.requestTimeoutMs);
        } catch (err) {
          note(`LIST ${fmt}: ${(err as Error).message}`);
          continue;
        }
        const dt = performance.now() - t0;
        const measured = i >= cfg.listWarmups;
        if (measured) lat[fmt].push(dt);
        // Verification outside the timed window.
        const n = listItems(fmt, r);
        bytes[fmt] = r.body.length;
        if (n === cfg.listSize) {
          if (measured) correct[fmt]++;
        } else note(`LIST ${fmt}: ${typeof n === 'number' ? `${n} items, expected ${cfg.listSize}` : n}`);
      }
    }
    const list = {} as Record<Format, FormatList>;
    for (const fmt of ['json', 'protobuf'] as Format[]) {
      list[fmt] = { latencyMs: percentiles(lat[fmt]), responseBytes: bytes[fmt], correct: correct[fmt] };
      ctx.log(
        `  ${target.name}: LIST ${cfg.listSize} ${fmt} p50 ${list[fmt].latencyMs.p50.toFixed(2)} ms, p99 ${list[fmt].latencyMs.p99.toFixed(2)} ms, ${bytes[fmt]} B (${correct[fmt]}/${iterations} correct)`,
      );
    }

    const ratios = {
      getPerSec: ratio(gets.protobuf.load.okPerSec, gets.json.load.okPerSec),
      getP50: ratio(gets.protobuf.load.latencyMs.p50, gets.json.load.latencyMs.p50),
      getP99: ratio(gets.protobuf.load.latencyMs.p99, gets.json.load.latencyMs.p99),
      getBytes: ratio(gets.protobuf.responseBytes, gets.json.responseBytes),
      listP50: ratio(list.protobuf.latencyMs.p50, list.json.latencyMs.p50),
      listP99: ratio(list.protobuf.latencyMs.p99, list.json.latencyMs.p99),
      listBytes: ratio(list.protobuf.responseBytes, list.json.responseBytes),
    };
    ctx.log(
      `  ${target.name}: protobuf/JSON: gets/s ${ratios.getPerSec.toFixed(2)}x, list p50 ${ratios.listP50.toFixed(2)}x, list bytes ${ratios.listBytes.toFixed(2)}x`,
    );
    return {
      namespace: NS,
      listSize: cfg.listSize,
      listIterations: iterations,
      setup: summarize(setup),
      setupFailures: failures(setup) ?? 0,
      get: gets,
      list,
      ratios,
      problems,
    };
  },
  metrics(res, _all, ctx) {
    const k = resultOf(res.kapi);
    const n = ctx.cfg.listSize;
    const row = (id: string, label: string, unit: string, v: number | undefined, better: MetricRow['better'] = 'none'): MetricRow => ({
      id: `protobuf.${id}`,
      label,
      unit,
      kapi: num(v),
      baseline: null,
      better,
    });
    const wrong = k
      ? k.setupFailures +
        failures(k.get.json.load)! +
        failures(k.get.protobuf.load)! +
        (k.listIterations - k.list.json.correct) +
        (k.listIterations - k.list.protobuf.correct) +
        k.problems.length
      : null;
    return [
      row('get_json.per_sec', 'GET sts JSON gets/s', '/s', k?.get.json.load.okPerSec, 'higher'),
      row('get_pb.per_sec', 'GET sts protobuf gets/s', '/s', k?.get.protobuf.load.okPerSec, 'higher'),
      row('get.per_sec_ratio', 'GET gets/s protobuf/JSON (>1: protobuf faster)', 'x', k?.ratios.getPerSec),
      row('get_json.p50_ms', 'GET sts JSON p50', 'ms', k?.get.json.load.latencyMs.p50, 'lower'),
      row('get_pb.p50_ms', 'GET sts protobuf p50', 'ms', k?.get.protobuf.load.latencyMs.p50, 'lower'),
      row('get_json.p99_ms', 'GET sts JSON p99', 'ms', k?.get.json.load.latencyMs.p99, 'lower'),
      row('get_pb.p99_ms', 'GET sts protobuf p99', 'ms', k?.get.protobuf.load.latencyMs.p99, 'lower'),
      row('get.p50_ratio', 'GET p50 protobuf/JSON (<1: protobuf faster)', 'x', k?.ratios.getP50),
      row('get_json.bytes', 'GET sts JSON response', 'B', k?.get.json.responseBytes),
      row('get_pb.bytes', 'GET sts protobuf response', 'B', k?.get.protobuf.responseBytes),
      row('get.bytes_ratio', 'GET size protobuf/JSON', 'x', k?.ratios.getBytes),
      row('list_json.p50_ms', `LIST ${n} sts JSON p50`, 'ms', k?.list.json.latencyMs.p50, 'lower'),
      row('list_pb.p50_ms', `LIST ${n} sts protobuf p50`, 'ms', k?.list.protobuf.latencyMs.p50, 'lower'),
      row('list_json.p99_ms', `LIST ${n} sts JSON p99`, 'ms', k?.list.json.latencyMs.p99, 'lower'),
      row('list_pb.p99_ms', `LIST ${n} sts protobuf p99`, 'ms', k?.list.protobuf.latencyMs.p99, 'lower'),
      row('list.p50_ratio', 'LIST p50 protobuf/JSON (<1: protobuf faster)', 'x', k?.ratios.listP50),
      row('list.p99_ratio', 'LIST p99 protobuf/JSON (<1: protobuf faster)', 'x', k?.ratios.listP99),
      row('list_json.bytes', `LIST ${n} sts JSON response`, 'B', k?.list.json.responseBytes),
      row('list_pb.bytes', `LIST ${n} sts protobuf response`, 'B', k?.list.protobuf.responseBytes),
      row('list.bytes_ratio', 'LIST size protobuf/JSON', 'x', k?.ratios.listBytes),
      {
        id: 'protobuf.wrong',
        label: 'protobuf/JSON setup failures + bad responses',
        unit: '',
        kapi: wrong,
        baseline: null,
        better: 'none',
        target: '= 0',
        pass: check(wrong, () => wrong === 0),
        gate: 'correctness',
      },
    ];
  },
};
