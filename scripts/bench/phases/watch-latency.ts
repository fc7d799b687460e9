// Watch fan-out latency (kapi only; the Koa baseline has no watch): W concurrent watches
// on PriorityClasses from the resourceVersion of a list, then an open-loop writer creates
// RATE PriorityClasses per second for S seconds. Every create carries its send time in an
// annotation; every watcher parses its newline-delimited JSON stream and records, per
// write, when it first saw it and how many times. Reported: delivery latency from the
// request start and from the 201 acknowledgement (p50/p99; "from ack" is negative when
// an event reaches the watcher before the 201 reaches the writer), and missed/duplicate
// deliveries, which must both be 0.
import type net from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { connectRaw, request, type Target } from '../http.js';
import { percentiles, type Percentiles } from '../load.js';
import { PRIORITY_CLASSES_PATH, priorityClassBody } from '../manifest.js';
import { sleep } from '../proc.js';
import { readCpuSeconds } from '../procstat.js';
import { check, num, resultOf, type MetricRow, type PhaseContext, type ServerPhase } from './types.js';

export const WATCH_TARGET_P99_MS = 50;

/** Memory bound: one receive time (8 B) + one count (1 B) per watcher × write. */
const MAX_PAIRS = 40_000_000;
/** Watch requests being opened at once. */
const CONNECT_PARALLELISM = 50;
/** A line longer than this means the stream is not what we expect. */
const MAX_LINE = 4 * 1024 * 1024;

const NAME_PREFIX = 'bench-watch-';
const ANNOTATION = 'kapi.dev/bench-sent';
const ADDED_HEAD = '{"type":"ADDED"';
const ANN_KEY = `"${ANNOTATION}":"`;

export interface WatchLatencyResult {
  watchers: number;
  watchersConnected: number;
  /** Failed to open, or ended/errored before the phase closed them. */
  watcherFailures: number;
  connectMs: number;
  listResourceVersion: string;
  writes: {
    planned: number;
    issued: number;
    ok: number;
    failed: number;
    ratePlanned: number;
    /** ok / (last ack - first send). */
    rateAchieved: number;
    /** Worst lateness of a send vs its open-loop schedule, ms (client event-loop pressure). */
    maxScheduleLagMs: number;
    ackLatencyMs: Percentiles;
  };
  /** (watcher, acknowledged write) pairs expected / delivered at least once. */
  expectedDeliveries: number;
  delivered: number;
  missed: number;
  duplicates: number;
  /** ADDED events for bench writes that did not carry the expected annotation, or for unknown/failed writes; non-ADDED events for them. */
  badEvents: number;
  /** Events for other objects (ignored). */
  foreignEvents: number;
  /** Non-ADDED, non-BOOKMARK events (e.g. ERROR), with the first few for diagnosis. */
  otherEvents: number;
  latencyFromStartMs: Percentiles;
  latencyFromAckMs: Percentiles;
  /** Share of deliveries that reached the watcher before the writer had the 201. */
  deliveredBeforeAckShare: number;
  /** Last write's 201 -> every watcher has every write, ms (NaN if never complete). */
  drainMs: number;
  /** CPU used during writes + drain, as a share of one core: the client (this process) and kapi. */
  clientCpuShare: number;
  serverCpuShare: number | null;
  /** Server CPU (user + system) per delivered event (one write to one watcher), µs. */
  serverCpuPerDeliveryUs: number | null;
  /** Client event-loop delay during writes + drain (if high, the client adds latency). */
  clientLoopDelayMs: { p50: number; p99: number; max: number };
  samples: string[];
}

interface WatcherState {
  sock?: net.Socket;
  rem: string;
  connected: boolean;
  /** Set once the stream ends or errors (before we closed it). */
  failed: boolean;
}

const nowMs = (): number => performance.timeOrigin + performance.now();

/**
 * The phase's measurement against one server, with the writes named `<namePrefix><i>` (the
 * cluster phase runs it more than once against one etcd).
 */
export async function measureWatchLatency(target: Target, ctx: PhaseContext, namePrefix = NAME_PREFIX): Promise<WatchLatencyResult> {
  const NAME_KEY = `"name":"${namePrefix}`;
  const { cfg } = ctx;
  const W = cfg.watchers;
  const T = Math.max(1, Math.round((cfg.watchRate * cfg.watchMs) / 1000));
  if (W * T > MAX_PAIRS) {
    throw new Error(`BENCH_WATCHERS x writes = ${W} x ${T} exceeds ${MAX_PAIRS} (memory bound); lower BENCH_WATCHERS, BENCH_WATCH_RATE or BENCH_WATCH_SECONDS`);
  }
  const samples: string[] = [];
  const note = (msg: string): void => {
    if (samples.length < 10) samples.push(msg.slice(0, 300));
  };

  // 1. The list's resourceVersion: the watches start right after it.
  const listRes = await request(target, { method: 'GET', path: `${PRIORITY_CLASSES_PATH}?limit=1` }, { timeoutMs: cfg.requestTimeoutMs, collectBody: true });
  if (listRes.status !== 200) throw new Error(`GET ${PRIORITY_CLASSES_PATH}?limit=1 -> ${listRes.status}: ${listRes.body?.toString('utf8').slice(0, 300)}`);
  const rv = String((JSON.parse(listRes.body!.toString('utf8')) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? '');
  if (!rv) throw new Error('list returned no metadata.resourceVersion');

  // Per (watcher, write): first receive time and delivery count.
  const recv = new Float64Array(W * T);
  const count = new Uint8Array(W * T);
  const sentAt = new Float64Array(T); // the annotation value (epoch ms, µs precision)
  const ackAt = new Float64Array(T);
  const okWrite = new Uint8Array(T);
  let delivered = 0;
  let badEvents = 0;
  let foreignEvents = 0;
  let otherEvents = 0;

  const onLine = (s: string, start: number, end: number, w: number, now: number): void => {
    if (!s.startsWith(ADDED_HEAD, start)) {
      const type = /^\{"type":"([A-Z]+)"/.exec(s.slice(start, Math.min(end, start + 32)))?.[1];
      if (type === 'BOOKMARK') return;
      const k = s.indexOf(NAME_KEY, start);
      const ours = k >= 0 && k < end;
      if (type === undefined || type === 'ERROR') otherEvents++; // unparseable, or an ERROR event
      else if (!ours) foreignEvents++; // a change to some other PriorityClass
      else badEvents++; // MODIFIED/DELETED of a bench write: only creates happen here
      if (type === undefined || type === 'ERROR' || ours) note(`watcher ${w}: ${s.slice(start, Math.min(end, start + 200))}`);
      return;
    }
    const k = s.indexOf(NAME_KEY, start);
    if (k < 0 || k > end) {
      foreignEvents++;
      return;
    }
    let p = k + NAME_KEY.length;
    let i = 0;
    let digits = 0;
    for (let c = s.charCodeAt(p); c >= 48 && c <= 57; c = s.charCodeAt(++p)) {
      i = i * 10 + (c - 48);
      digits++;
    }
    if (digits === 0 || s.charCodeAt(p) !== 34 || i >= T || sentAt[i] === 0) {
      badEvents++;
      note(`watcher ${w}: unexpected object ${s.slice(k, Math.min(end, k + 60))}`);
      return;
    }
    const a = s.indexOf(ANN_KEY, start);
    const aEnd = a < 0 || a > end ? -1 : s.indexOf('"', a + ANN_KEY.length);
    if (aEnd < 0 || Number(s.slice(a + ANN_KEY.length, aEnd)) !== sentAt[i]) {
      badEvents++;
      note(`watcher ${w}: write ${i} without the matching ${ANNOTATION} annotation`);
      return;
    }
    const idx = w * T + i;
    if (count[idx] === 0) {
      recv[idx] = now;
      delivered++;
    }
    if (count[idx]! < 255) count[idx]!++;
  };

  // 2. Open the watches (bounded parallelism); each resolves once the 200 headers arrive.
  const state: WatcherState[] = Array.from({ length: W }, () => ({ rem: '', connected: false, failed: false }));
  let closing = false;
  // The server ends each watch by itself a minute after the phase should be over.
  const timeoutSeconds = Math.ceil((cfg.watchMs + cfg.watchDrainMs + 2 * cfg.requestTimeoutMs) / 1000) + 60;
  const watchPath = `${PRIORITY_CLASSES_PATH}?watch=true&resourceVersion=${encodeURIComponent(rv)}&timeoutSeconds=${timeoutSeconds}`;

  // Each watch is read off a raw socket: the client must not be what limits the figure, and
  // Node's HTTP client costs a stream push per chunk where a socket costs one callback per
  // read. Lines that do not start with '{' are the chunked encoding's framing.
  const openOne = (w: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const st = state[w]!;
      let settled = false;
      const fail = (why: string): void => {
        if (closing) return;
        if (!st.failed) note(`watcher ${w}: ${why}`);
        st.failed = true;
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      const auth = target.token ? `Authorization: Bearer ${target.token}\r\n` : '';
      const sock = connectRaw(target, () => {
        sock.write(`GET ${watchPath} HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\nAccept: application/json\r\n${auth}\r\n`);
      });
      st.sock = sock;
      sock.setNoDelay(true);
      const connectTimer = setTimeout(() => sock.destroy(new Error(`no response headers after ${cfg.requestTimeoutMs} ms`)), cfg.requestTimeoutMs);
      let head: string | null = '';
      sock.on('data', (chunk: Buffer) => {
        const now = nowMs();
        // latin1 is a cheap, lossless byte view; '\n' never occurs inside a UTF-8 sequence.
        let s = chunk.toString('latin1');
        if (head !== null) {
          head += s;
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) {
            if (head.length > MAX_LINE) sock.destroy(new Error('response headers too long'));
            return;
          }
          clearTimeout(connectTimer);
          const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
          if (status !== '200' || !/\r\ntransfer-encoding: chunked\r\n/i.test(head.slice(0, end + 2))) {
            fail(`HTTP ${status ?? '?'}: ${head.slice(0, 300)}`);
            sock.destroy();
            return;
          }
          s = head.slice(end + 4);
          head = null;
          st.connected = true;
          settled = true;
          resolve();
        }
        if (st.rem) {
          s = st.rem + s;
          st.rem = '';
        }
        let start = 0;
        for (let nl = s.indexOf('\n'); nl >= 0; nl = s.indexOf('\n', start)) {
          if (nl > start && s.charCodeAt(start) === 123) onLine(s, start, nl, w, now);
          // The last chunk ("0" alone): the server ended this watch while keeping the
          // connection alive (kube-apiserver does so to a watcher it finds too slow).
          else if (nl === start + 2 && s.charCodeAt(start) === 48 && s.charCodeAt(start + 1) === 13) fail('the server ended the watch (last chunk)');
          start = nl + 1;
        }
        if (start < s.length) {
          st.rem = s.slice(start);
          if (st.rem.length > MAX_LINE) {
            fail(`line longer than ${MAX_LINE} bytes`);
            sock.destroy();
          }
        }
      });
      sock.on('error', (err) => {
        clearTimeout(connectTimer);
        fail(head !== null ? err.message : `stream error: ${err.message}`);
      });
      sock.on('end', () => fail('stream ended early'));
      sock.on('close', () => fail('connection closed'));
    });

  ctx.log(`  ${target.name}: opening ${W} watches from resourceVersion ${rv} ...`);
  const tConnect = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONNECT_PARALLELISM, W) }, async () => {
      while (next < W) await openOne(next++);
    }),
  );
  const connectMs = performance.now() - tConnect;
  const connected = state.filter((s) => s.connected).length;
  ctx.log(`  ${target.name}: ${connected}/${W} watches open in ${connectMs.toFixed(0)} ms`);

  const result = await (async (): Promise<WatchLatencyResult> => {
    if (connected === 0) throw new Error(`no watch could be opened: ${samples.join('; ')}`);
    await sleep(200); // let the server finish registering the last watchers

    // 3. Open-loop writer: write i is sent at t0 + i/rate, whatever the earlier writes are doing.
    ctx.log(`  ${target.name}: ${T} creates at ${cfg.watchRate}/s over ${cfg.watchMs / 1000}s ...`);
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const cpu0 = process.cpuUsage();
    const srvCpu0 = serverCpuSeconds(target);
    const wall0 = performance.now();
    let issued = 0;
    let ok = 0;
    let failed = 0;
    let maxLag = 0;
    const ackLat: number[] = [];
    const inflight: Array<Promise<void>> = [];
    const t0 = performance.now();
    for (let i = 0; i < T; i++) {
      const due = t0 + (i * 1000) / cfg.watchRate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      maxLag = Math.max(maxLag, performance.now() - due);
      const sent = Number(nowMs().toFixed(3));
      sentAt[i] = sent;
      issued++;
      const body = priorityClassBody(`${namePrefix}${i}`, { [ANNOTATION]: sent.toFixed(3) }, 'watch latency probe');
      inflight.push(
        request(target, { method: 'POST', path: PRIORITY_CLASSES_PATH, body }, { timeoutMs: cfg.requestTimeoutMs, expect: 201 }).then(
          (res) => {
            const at = nowMs();
            if (res.status === 201) {
              ackAt[i] = at;
              okWrite[i] = 1;
              ok++;
              ackLat.push(at - sent);
            } else {
              failed++;
              note(`create ${i} -> ${res.status}: ${res.body?.toString('utf8').slice(0, 200)}`);
            }
          },
          (err: Error) => {
            failed++;
            note(`create ${i}: ${err.message}`);
          },
        ),
      );
    }
    await Promise.all(inflight);
    let lastAck = 0;
    let firstSent = Infinity;
    for (let i = 0; i < T; i++) {
      if (okWrite[i]) lastAck = Math.max(lastAck, ackAt[i]!);
      if (sentAt[i]) firstSent = Math.min(firstSent, sentAt[i]!);
    }
    ctx.log(`  ${target.name}: ${ok}/${T} creates acknowledged (${failed} failed); waiting for delivery ...`);

    // 4. Wait (bounded) until every open watcher has every acknowledged write.
    const live = (): number => state.filter((s) => s.connected && !s.failed).length;
    const drainDeadline = performance.now() + cfg.watchDrainMs;
    let nextLog = performance.now() + 5000;
    while (delivered < connected * ok && performance.now() < drainDeadline && live() > 0) {
      await sleep(5);
      if (performance.now() >= nextLog) {
        nextLog += 5000;
        ctx.log(`  ${target.name}: still draining: ${delivered}/${connected * ok} deliveries`);
      }
    }
    const complete = delivered >= connected * ok;
    const drainMs = complete ? Math.max(0, nowMs() - lastAck) : NaN;
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - wall0;
    const srvCpu1 = serverCpuSeconds(target);
    loopDelay.disable();

    // 5. Tally. Only watchers that connected count; each must see each acknowledged write once.
    let expected = 0;
    let missed = 0;
    let duplicates = 0;
    let beforeAck = 0;
    const fromStart = new Float64Array(connected * ok);
    const fromAck = new Float64Array(connected * ok);
    let n = 0;
    for (let w = 0; w < W; w++) {
      if (!state[w]!.connected) continue;
      const base = w * T;
      for (let i = 0; i < T; i++) {
        const c = count[base + i]!;
        if (!okWrite[i]) {
          if (c > 0) badEvents++; // an event for a write that was not acknowledged
          continue;
        }
        expected++;
        if (c === 0) {
          missed++;
          continue;
        }
        if (c > 1) duplicates += c - 1;
        const r = recv[base + i]!;
        fromStart[n] = r - sentAt[i]!;
        fromAck[n] = r - ackAt[i]!;
        if (fromAck[n]! < 0) beforeAck++;
        n++;
      }
    }
    const ns = 1e-6;
    return {
      watchers: W,
      watchersConnected: connected,
      watcherFailures: state.filter((s) => !s.connected || s.failed).length,
      connectMs,
      listResourceVersion: rv,
      writes: {
        planned: T,
        issued,
        ok,
        failed,
        ratePlanned: cfg.watchRate,
        rateAchieved: ok > 0 && lastAck > firstSent ? (ok * 1000) / (lastAck - firstSent) : 0,
        maxScheduleLagMs: maxLag,
        ackLatencyMs: percentiles(ackLat),
      },
      expectedDeliveries: expected,
      delivered: n,
      missed,
      duplicates,
      badEvents,
      foreignEvents,
      otherEvents,
      latencyFromStartMs: percentiles(fromStart.subarray(0, n)),
      latencyFromAckMs: percentiles(fromAck.subarray(0, n)),
      deliveredBeforeAckShare: n > 0 ? beforeAck / n : 0,
      drainMs,
      clientCpuShare: (cpu.user + cpu.system) / 1000 / wall,
      serverCpuShare: srvCpu0 !== undefined && srvCpu1 !== undefined ? ((srvCpu1 - srvCpu0) * 1000) / wall : null,
      serverCpuPerDeliveryUs: srvCpu0 !== undefined && srvCpu1 !== undefined && n > 0 ? ((srvCpu1 - srvCpu0) * 1e6) / n : null,
      clientLoopDelayMs: {
        p50: loopDelay.percentile(50) * ns,
        p99: loopDelay.percentile(99) * ns,
        max: loopDelay.max * ns,
      },
      samples,
    };
  })().finally(() => {
    closing = true;
    for (const s of state) s.sock?.destroy();
  });

  const r = result;
  ctx.log(
    `  ${target.name}: delivery from start p50 ${r.latencyFromStartMs.p50.toFixed(2)} / p99 ${r.latencyFromStartMs.p99.toFixed(2)} ms, ` +
      `from ack p50 ${r.latencyFromAckMs.p50.toFixed(2)} / p99 ${r.latencyFromAckMs.p99.toFixed(2)} ms; ` +
      `missed ${r.missed}, duplicates ${r.duplicates}, bad ${r.badEvents}, watcher failures ${r.watcherFailures}; ` +
      `CPU client ${(r.clientCpuShare * 100).toFixed(0)}% kapi ${r.serverCpuShare === null ? '?' : (r.serverCpuShare * 100).toFixed(0)}% ` +
      `(${r.serverCpuPerDeliveryUs === null ? '?' : r.serverCpuPerDeliveryUs.toFixed(2)} µs per delivered event), ` +
      `client loop delay p99 ${r.clientLoopDelayMs.p99.toFixed(1)} ms`,
  );
  return r;

}

/** CPU seconds of the server behind the target: its one process, or the sum over a cluster's nodes. */
function serverCpuSeconds(target: Target): number | undefined {
  if (!target.pids) return readCpuSeconds(target.pid);
  let sum = 0;
  for (const pid of target.pids) {
    const s = readCpuSeconds(pid);
    if (s === undefined) return undefined;
    sum += s;
  }
  return sum;
}

export const watchLatencyPhase: ServerPhase<WatchLatencyResult> = {
  kind: 'server',
  id: 'watch-latency',
  title: 'watch delivery latency',
  targets: ['kapi'],
  run(target, ctx) {
    return measureWatchLatency(target, ctx);
  },
  metrics(res, _all, ctx) {
    const k = resultOf(res.kapi);
    const { watchers, watchRate } = ctx.cfg;
    const p99s = num(k?.latencyFromStartMs.p99);
    const p99a = num(k?.latencyFromAckMs.p99);
    const missed = num(k?.missed);
    const dups = num(k?.duplicates);
    const fails = k ? k.writes.failed + k.watcherFailures + k.badEvents + k.otherEvents : null;
    const row = (id: string, label: string, v: number | null, extra: Partial<MetricRow> = {}): MetricRow => ({
      id,
      label,
      unit: 'ms',
      kapi: v,
      baseline: null,
      better: 'lower',
      ...extra,
    });
    return [
      row('watch.from_start_p50_ms', `watch delivery p50 from request start (${watchers} watchers, ${watchRate}/s)`, num(k?.latencyFromStartMs.p50)),
      row('watch.from_start_p99_ms', 'watch delivery p99 from request start', p99s, {
        target: `< ${WATCH_TARGET_P99_MS} ms`,
        pass: check(p99s, () => p99s! < WATCH_TARGET_P99_MS),
        gate: 'perf',
      }),
      row('watch.from_ack_p50_ms', 'watch delivery p50 from 201 ack', num(k?.latencyFromAckMs.p50)),
      row('watch.from_ack_p99_ms', 'watch delivery p99 from 201 ack', p99a, {
        target: `< ${WATCH_TARGET_P99_MS} ms`,
        pass: check(p99a, () => p99a! < WATCH_TARGET_P99_MS),
        gate: 'perf',
      }),
      {
        id: 'watch.server_cpu_per_delivery_us',
        label: 'server CPU per delivered event (one write to one watcher)',
        unit: 'µs',
        kapi: k?.serverCpuPerDeliveryUs ?? null,
        baseline: null,
        better: 'lower',
      },
      { id: 'watch.writes_per_sec', label: 'watch phase creates/s (201 only)', unit: '/s', kapi: num(k?.writes.rateAchieved), baseline: null, better: 'higher' },
      {
        id: 'watch.client_cpu',
        label: 'watch client CPU, % of a core (near 100 = client-bound)',
        unit: '%',
        kapi: k ? Math.round(k.clientCpuShare * 100) : null,
        baseline: null,
        better: 'none',
      },
      { id: 'watch.missed', label: `watch deliveries missing after ${ctx.cfg.watchDrainMs / 1000}s drain`, unit: '', kapi: missed, baseline: null, better: 'none', target: '= 0', pass: check(missed, () => missed === 0), gate: 'correctness' },
      { id: 'watch.duplicates', label: 'watch deliveries duplicated', unit: '', kapi: dups, baseline: null, better: 'none', target: '= 0', pass: check(dups, () => dups === 0), gate: 'correctness' },
      {
        id: 'watch.failures',
        label: 'watch create failures + broken watches + bad events',
        unit: '',
        kapi: fails,
        baseline: null,
        better: 'none',
        target: '= 0',
        pass: check(fails, () => fails === 0),
        gate: 'correctness',
      },
    ];
  },
};
