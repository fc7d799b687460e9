// etcd's own log of lease changes, the ground truth the chaos checks compare clients and
// watchers with: every put and delete under the leases prefix in (from, to], read with one
// watch from `from + 1` over etcd's JSON gateway. It is read after a run, once the cluster is
// whole again; the nodes compact etcd no sooner than every 5 minutes and the harness lengthens
// that to outlast its runs.

import { request } from 'node:http';
import type { LogEvent } from './history.js';

const PREFIX = '/registry/coordination.k8s.io/leases/';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const prefixEnd = (p: string): string => p.slice(0, -1) + String.fromCharCode(p.charCodeAt(p.length - 1) + 1);

function post(endpoint: string, path: string, body: unknown, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(`${endpoint}${path}`, { method: 'POST', agent: false, timeout: timeoutMs, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('etcd did not answer')));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** etcd's current revision, from the first member in `endpoints` that answers a linearizable read. */
export async function etcdRevision(endpoints: string[]): Promise<number> {
  let last: unknown;
  for (let round = 0; round < 20; round++) {
    for (const e of endpoints) {
      try {
        const r = (await post(e, '/v3/kv/range', { key: b64(PREFIX), range_end: b64(prefixEnd(PREFIX)), count_only: true }, 3000)) as { header?: { revision?: string } };
        const rev = Number(r.header?.revision);
        if (rev > 0) return rev;
      } catch (err) {
        last = err;
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no etcd member answered: ${String(last)}`);
}

interface GatewayKv {
  key: string;
  create_revision?: string;
  mod_revision?: string;
  value?: string;
}

function toEvent(type: string | undefined, kv: GatewayKv): LogEvent {
  const key = Buffer.from(kv.key, 'base64').toString('utf8').slice(PREFIX.length);
  const rv = Number(kv.mod_revision);
  if (type === 'DELETE') return { rv, key, type: 'DELETED', value: '' };
  let value = '';
  try {
    value = String((JSON.parse(Buffer.from(kv.value ?? '', 'base64').toString('utf8')) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '');
  } catch {
    value = '<undecodable>';
  }
  return { rv, key, type: kv.create_revision === kv.mod_revision ? 'ADDED' : 'MODIFIED', value };
}

/**
 * Every lease change with from < revision <= to. The nodes renew their leases every few
 * seconds, so an event past `to` always comes and ends the read.
 */
export async function readLog(endpoint: string, from: number, to: number, timeoutMs = 30_000): Promise<LogEvent[]> {
  return new Promise((resolve, reject) => {
    const events: LogEvent[] = [];
    let buf = '';
    let settled = false;
    const finish = (err?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      if (err) reject(err);
      else resolve(events);
    };
    const timer = setTimeout(() => finish(new Error(`etcd's log reached only revision ${events.at(-1)?.rv ?? from} of ${to} in ${timeoutMs} ms`)), timeoutMs);
    const req = request(`${endpoint}/v3/watch`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (!line) continue;
          const msg = JSON.parse(line) as { result?: { compact_revision?: string; events?: { type?: string; kv: GatewayKv }[] }; error?: unknown };
          if (msg.error) return finish(new Error(`etcd watch: ${JSON.stringify(msg.error)}`));
          if (Number(msg.result?.compact_revision ?? 0) > 0) return finish(new Error(`etcd compacted past revision ${from}`));
          for (const e of msg.result?.events ?? []) {
            const ev = toEvent(e.type, e.kv);
            if (ev.rv > to) return finish();
            events.push(ev);
          }
          if ((events.at(-1)?.rv ?? 0) >= to) return finish();
        }
      });
      res.on('error', (e) => finish(e));
      res.on('end', () => finish(new Error('etcd closed the watch')));
    });
    req.on('error', (e) => finish(e));
    req.end(JSON.stringify({ create_request: { key: b64(PREFIX), range_end: b64(prefixEnd(PREFIX)), start_revision: String(from + 1) } }));
  });
}
