// Overload: a kapi with small in-flight limits (--max-mutating-requests-inflight L) is
// flooded by one client holding 10 x L writes in flight as its own user, while ten light
// clients (each a user of its own) write at 5 requests/s. The users are outside
// system:masters (whose requests kube never refuses), with certificates from the server's CA
// (a plain-HTTP kapi: each client on a local address of its own instead). Measured: the light
// clients' success and latency, what the flood got (429s, each with Retry-After: 1), that
// nothing got a 5xx, and the server's peak RSS (memory stays bounded under the flood).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { issueCert } from '../../../src/auth/pki/certs.js';
import type { RunningServer } from '../servers.js';
import { PRIORITY_CLASSES_PATH, priorityClassBody } from '../manifest.js';
import { readProcStatus, MiB } from '../procstat.js';
import { startKapi } from '../servers.js';
import { percentiles, type Percentiles } from '../load.js';
import { check, num, resultOf, type StandalonePhase } from './types.js';

const LIMIT = 20;
const FLOOD = 10 * LIMIT;
const LIGHT_CLIENTS = 10;
const LIGHT_RATE = 5;

export interface OverloadResult {
  limit: number;
  flooders: number;
  seconds: number;
  light: { sent: number; ok: number; failed: number; latencyMs: Percentiles };
  flood: { ok: number; tooMany: number; tooManyWithRetryAfter: number; serverErrors: number; other: number };
  rssBeforeMiB: number | null;
  peakRssMiB: number | null;
}

interface Answer {
  status: number;
  retryAfter?: string;
}

/**
 * A keep-alive agent for one client: over TLS with a certificate for `user` from the server's
 * CA, else (plain HTTP) from `localAddress`, which is then what tells the clients apart.
 */
async function clientAgent(srv: RunningServer, maxSockets: number, user: string, localAddress: string): Promise<http.Agent> {
  if (!srv.tls) return new http.Agent({ keepAlive: true, maxSockets, localAddress });
  if (!srv.dataDir) throw new Error('the overload phase needs a kapi it started (its CA issues the clients\' certificates)');
  const pki = path.join(srv.dataDir, 'pki');
  const ca = { cert: fs.readFileSync(path.join(pki, 'ca.crt'), 'utf8'), key: fs.readFileSync(path.join(pki, 'ca.key'), 'utf8') };
  const pair = await issueCert(ca, { commonName: user, organizations: [], usages: ['client'] });
  return new https.Agent({ keepAlive: true, maxSockets, ca: srv.tls.ca, cert: pair.cert, key: pair.key });
}

function post(srv: RunningServer, agent: http.Agent, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = srv.tls ? https.request : http.request;
    const req = request(
      { host: srv.host, port: srv.port, method: 'POST', path: PRIORITY_CLASSES_PATH, agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
      },
    );
    req.setTimeout(70_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

export const overloadPhase: StandalonePhase<OverloadResult> = {
  kind: 'standalone',
  id: 'overload',
  title: `overload: 10x the in-flight limit from one client, ${LIGHT_CLIENTS} light clients at ${LIGHT_RATE}/s`,
  async run(ctx) {
    const seconds = Math.max(10, ctx.cfg.phaseMs / 1000);
    const srv = await startKapi(ctx.cfg, ctx.etcd, {
      etcdPrefix: '/overload',
      extraArgs: ['--max-mutating-requests-inflight', String(LIMIT), '--max-requests-inflight', String(2 * LIMIT)],
    });
    try {
      const pid = srv.child?.pid;
      const rssBefore = readProcStatus(pid)?.vmRssBytes;
      let peak = rssBefore ?? 0;
      const sampler = setInterval(() => {
        const r = readProcStatus(pid)?.vmRssBytes;
        if (r && r > peak) peak = r;
      }, 100);
      let stop = false;
      const flood = { ok: 0, tooMany: 0, tooManyWithRetryAfter: 0, serverErrors: 0, other: 0 };
      const floodAgent = await clientAgent(srv, FLOOD, 'bench-flooder', '127.0.0.2');
      const lightAgents = await Promise.all(Array.from({ length: LIGHT_CLIENTS }, (_, c) => clientAgent(srv, 1, `bench-light-${c}`, `127.0.0.${10 + c}`)));
      let n = 0;
      const flooders = Array.from({ length: FLOOD }, async () => {
        while (!stop) {
          const a = await post(srv, floodAgent, priorityClassBody(`flood-${n++}`)).catch(() => undefined);
          if (!a) flood.other++;
          else if (a.status === 201) flood.ok++;
          else if (a.status === 429) {
            flood.tooMany++;
            if (a.retryAfter === '1') flood.tooManyWithRetryAfter++;
          } else if (a.status >= 500) flood.serverErrors++;
          else flood.other++;
        }
      });
      // Let the flood fill the server before the light clients start.
      await new Promise((r) => setTimeout(r, 1000));
      const light = { sent: 0, ok: 0, failed: 0 };
      const latencies: number[] = [];
      const clients = Array.from({ length: LIGHT_CLIENTS }, async (_, c) => {
        const agent = lightAgents[c]!;
        const end = performance.now() + seconds * 1000;
        let i = 0;
        while (performance.now() < end) {
          const t0 = performance.now();
          light.sent++;
          const a = await post(srv, agent, priorityClassBody(`light-${c}-${i++}`)).catch(() => undefined);
          latencies.push(performance.now() - t0);
          if (a?.status === 201) light.ok++;
          else light.failed++;
          const wait = 1000 / LIGHT_RATE - (performance.now() - t0);
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        agent.destroy();
      });
      await Promise.all(clients);
      stop = true;
      await Promise.all(flooders);
      clearInterval(sampler);
      floodAgent.destroy();
      return {
        limit: LIMIT,
        flooders: FLOOD,
        seconds,
        light: { ...light, latencyMs: percentiles(latencies) },
        flood,
        rssBeforeMiB: rssBefore ? rssBefore / MiB : null,
        peakRssMiB: peak ? peak / MiB : null,
      };
    } finally {
      await srv.stop();
    }
  },
  metrics(res) {
    const r = resultOf(res);
    const success = r ? r.light.ok / Math.max(1, r.light.sent) : undefined;
    return [
      { id: 'overload.light.success', label: `overload: light clients' success (${LIGHT_CLIENTS} x ${LIGHT_RATE}/s)`, unit: '%', kapi: num(success === undefined ? undefined : success * 100), baseline: null, better: 'higher', target: '>= 99%', pass: check(success, () => success! >= 0.99), gate: 'correctness' },
      { id: 'overload.light.p99', label: "overload: light clients' p99 latency", unit: 'ms', kapi: num(r?.light.latencyMs.p99), baseline: null, better: 'lower' },
      { id: 'overload.flood.429', label: `overload: flood answered 429 (${FLOOD} writes in flight, limit ${LIMIT})`, unit: 'count', kapi: num(r?.flood.tooMany), baseline: null, better: 'none', target: '> 0, all with Retry-After: 1', pass: check(r?.flood.tooMany, () => r!.flood.tooMany > 0 && r!.flood.tooManyWithRetryAfter === r!.flood.tooMany), gate: 'correctness' },
      { id: 'overload.flood.ok', label: 'overload: flood writes accepted', unit: 'count', kapi: num(r?.flood.ok), baseline: null, better: 'none' },
      { id: 'overload.5xx', label: 'overload: 5xx answers', unit: 'count', kapi: num(r?.flood.serverErrors), baseline: null, better: 'lower', target: '0', pass: check(r?.flood.serverErrors, () => r!.flood.serverErrors === 0), gate: 'correctness' },
      { id: 'overload.rss.peak', label: 'overload: kapi peak RSS', unit: 'MiB', kapi: num(r?.peakRssMiB), baseline: null, better: 'lower', target: '<= 600 MiB', pass: check(r?.peakRssMiB, () => r!.peakRssMiB! <= 600), gate: 'perf' },
    ];
  },
};
