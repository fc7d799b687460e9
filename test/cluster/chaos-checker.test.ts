// The chaos harness's checks catch what they are for: a history that is not linearizable, an
// acknowledged write etcd lacks, a stale read, a list that mixes snapshots, a watch with a gap,
// a duplicate or a reordered event. Each bad history is a good one with one fault put in, and
// the good one passes, so no check can pass (or fail) vacuously.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChecker, checkRun, type RunCheck } from '../../cluster/chaos/check.js';
import type { LogEvent, Operation, RunHistory, WatcherHistory } from '../../cluster/chaos/history.js';
import { runReport } from '../../cluster/chaos/report.js';

let dir: string;
let checker: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaos-checker-'));
  checker = await buildChecker(dir);
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NS = 'chaos-t';
const ms = (n: number): number => n * 1e6;

/** etcd's log: k0 created at 11, updated at 12 and 14; k1 created at 13, deleted at 15; a node's lease renewed at 16. */
const LOG: LogEvent[] = [
  { rv: 11, key: `${NS}/k0`, type: 'ADDED', value: 'a' },
  { rv: 12, key: `${NS}/k0`, type: 'MODIFIED', value: 'b' },
  { rv: 13, key: `${NS}/k1`, type: 'ADDED', value: 'x' },
  { rv: 14, key: `${NS}/k0`, type: 'MODIFIED', value: 'c' },
  { rv: 15, key: `${NS}/k1`, type: 'DELETED', value: '' },
  { rv: 16, key: 'kube-system/kube-controller-manager', type: 'MODIFIED', value: 'node-1' },
];

/** A linearizable history over that log, with one write whose answer was lost (it happened). */
function goodOps(): Operation[] {
  return [
    { id: 1, client: 0, kind: 'create', key: 'k0', value: 'a', call: ms(0), ret: ms(10), status: 201, outRv: 11, outValue: 'a', conn: 1 },
    { id: 2, client: 0, kind: 'update', key: 'k0', value: 'b', precondition: 11, call: ms(11), ret: ms(20), status: 200, outRv: 12, outValue: 'b', conn: 1 },
    { id: 3, client: 1, kind: 'get', key: 'k0', mode: 'consistent', call: ms(21), ret: ms(25), status: 200, outRv: 12, outValue: 'b', conn: 2 },
    { id: 4, client: 1, kind: 'create', key: 'k1', value: 'x', call: ms(26), ret: ms(30), status: 201, outRv: 13, outValue: 'x', conn: 2 },
    // The answer was lost; etcd's log shows it applied at 14.
    { id: 5, client: 2, kind: 'update', key: 'k0', value: 'c', call: ms(31), status: undefined, error: 'socket hang up', conn: undefined },
    { id: 6, client: 0, kind: 'update', key: 'k0', value: 'd', precondition: 12, call: ms(41), ret: ms(45), status: 409, error: 'Conflict', conn: 1 },
    { id: 7, client: 1, kind: 'delete', key: 'k1', call: ms(46), ret: ms(50), status: 200, conn: 2 },
    { id: 8, client: 1, kind: 'get', key: 'k1', mode: 'notOlderThan', rv: 15, call: ms(51), ret: ms(52), status: 404, error: 'NotFound', conn: 2 },
    { id: 9, client: 0, kind: 'get', key: 'k0', mode: 'any', rv: 0, call: ms(53), ret: ms(54), status: 200, outRv: 14, outValue: 'c', conn: 1 },
    {
      id: 10, client: 1, kind: 'list', mode: 'consistent', limit: 1, call: ms(55), firstRet: ms(57), ret: ms(60), status: 200, listRv: 15, pages: 1,
      items: [{ name: 'k0', value: 'c', rv: 14 }], conn: 2,
    },
    {
      id: 11, client: 0, kind: 'list', mode: 'exact', rv: 13, call: ms(61), firstRet: ms(62), ret: ms(64), status: 200, listRv: 13, pages: 2, limit: 1, continuedElsewhere: true,
      items: [{ name: 'k0', value: 'b', rv: 12 }, { name: 'k1', value: 'x', rv: 13 }], conn: 1,
    },
  ];
}

function goodWatchers(): WatcherHistory[] {
  const ev = (rv: number, at: number, conn: number): WatcherHistory['segments'][0]['events'][0] => {
    const l = LOG.find((e) => e.rv === rv)!;
    return { type: l.type, key: l.key, value: l.value, rv, at, conn };
  };
  return [
    {
      id: 0,
      namespace: NS,
      errors: [],
      segments: [
        {
          from: 10,
          cause: 'start',
          // A reconnect (to another node) after 12, resumed from 12.
          events: [ev(11, 10, 7), ev(12, 20, 7), ev(13, 30, 8), ev(14, 40, 8), ev(15, 50, 8)],
          bookmarks: [{ rv: 15, afterEvents: 5 }],
          connects: [{ from: 10, at: 0, conn: 7 }, { from: 12, at: 25, conn: 8, previousEnd: 'closed' }],
          reached: 15,
        },
      ],
    },
    {
      id: 1,
      namespace: '',
      errors: [],
      segments: [
        { from: 10, cause: 'start', events: [ev(11, 10, 9), ev(12, 20, 9)], bookmarks: [], connects: [{ from: 10, at: 0, conn: 9 }], reached: 12 },
        // A 410 on reconnect and a relist at 14: a new stretch.
        // The last event came after the run's end (16): outside the log read, not held against it.
        { from: 14, cause: 'relist-after-410', events: [ev(15, 50, 10), ev(16, 60, 10), { type: 'MODIFIED', key: 'kube-system/kube-controller-manager', value: 'node-2', rv: 17, at: 70, conn: 10 }], bookmarks: [], connects: [{ from: 14, at: 45, conn: 10 }], reached: 17 },
      ],
    },
  ];
}

function history(ops = goodOps(), watchers = goodWatchers(), log = LOG): RunHistory {
  const finalOp: Operation = { id: 100, client: 1000, kind: 'list', mode: 'consistent', call: ms(70), firstRet: ms(71), ret: ms(71), status: 200, listRv: 16, pages: 1, items: [{ name: 'k0', value: 'c', rv: 14 }], conn: 20 };
  return {
    run: 1,
    namespace: NS,
    keys: ['k0', 'k1'],
    fault: { kind: 'kill-node', target: 'node-1', start: 20, healed: 40, steps: [] },
    startRev: 10,
    endRev: 16,
    ops,
    watchers,
    log,
    finalReads: [{ via: 'node-1', op: finalOp }],
  };
}

async function check(h: RunHistory, name: string): Promise<RunCheck> {
  return checkRun(h, checker, join(dir, name));
}

describe('the chaos checks', () => {
  it('pass a good history (an ambiguous write settled from etcd, a reconnect, a relist after 410)', async () => {
    const c = await check(history(), 'good');
    expect(c.violations).toEqual([]);
    expect(c.linearizability.result).toBe('ok');
    expect(c.stats).toMatchObject({ ambiguous: 1, ambiguousApplied: 1, watchReconnects: 1, watchRelists: 1 });
  });

  it('catch a stale consistent read (not linearizable): porcupine says illegal, the report shows the operations and the visualization is saved', async () => {
    const ops = goodOps();
    // After the update to b at 12 was acknowledged, a consistent get returns a@11.
    ops[2] = { ...ops[2]!, outRv: 11, outValue: 'a' };
    const h = history(ops);
    const c = await check(h, 'stale-consistent');
    expect(c.linearizability.result).toBe('illegal');
    const k0 = c.linearizability.keys.find((k) => k.key === 'k0')!;
    expect(k0.result).toBe('illegal');
    expect(k0.stuck).toContain(3);
    expect(existsSync(k0.html!)).toBe(true);
    expect(await readFile(k0.html!, 'utf8')).toContain('<html');
    const report = runReport(h, c, 0, 20);
    expect(report).toContain('FAIL');
    expect(report).toMatch(/> \[21\.0 \.\. 25\.0 ms\] client 1 conn 2 #3: get k0 \(consistent\) -> 200 a@11/);
  });

  it('catch a lost update: a CAS that succeeded on a version already replaced', async () => {
    const ops = goodOps();
    // Two updates both conditional on 11 both succeed.
    ops.push({ id: 12, client: 2, kind: 'update', key: 'k0', value: 'e', precondition: 11, call: ms(65), ret: ms(66), status: 200, outRv: 16, outValue: 'e', conn: 3 });
    const log = [...LOG.slice(0, 5), { rv: 16, key: `${NS}/k0`, type: 'MODIFIED' as const, value: 'e' }];
    const c = await check(history(ops, goodWatchers(), log), 'lost-update');
    expect(c.linearizability.result).toBe('illegal');
  });

  it('catch an acknowledged write that etcd does not have', async () => {
    const ops = goodOps();
    ops[3] = { ...ops[3]!, outRv: 17 };
    const c = await check(history(ops), 'lost-ack');
    expect(c.violations.map((v) => v.check)).toContain('acknowledged-write');
  });

  it('catch reads that break their weaker rules: NotOlderThan older than asked, rv=0 going back on one connection, a version etcd never had', async () => {
    const ops = goodOps();
    ops.push({ id: 12, client: 0, kind: 'get', key: 'k0', mode: 'notOlderThan', rv: 14, call: ms(65), ret: ms(66), status: 200, outRv: 12, outValue: 'b', conn: 1 });
    ops.push({ id: 13, client: 1, kind: 'list', mode: 'any', rv: 0, call: ms(67), ret: ms(68), firstRet: ms(68), status: 200, listRv: 12, pages: 1, items: [{ name: 'k0', value: 'b', rv: 12 }], conn: 2 });
    ops.push({ id: 14, client: 1, kind: 'get', key: 'k0', mode: 'any', rv: 0, call: ms(69), ret: ms(69), status: 200, outRv: 12, outValue: 'z', conn: 5 });
    const c = await check(history(ops), 'weak-reads');
    const msgs = c.violations.map((v) => `${v.check}: ${v.message}`);
    expect(msgs.some((m) => m.startsWith('stale-read: a get of k0 not older than 14'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('stale-read: a resourceVersion=0 list on connection 2'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('phantom-read'))).toBe(true);
  });

  it('catch a paged list that mixes two snapshots', async () => {
    const ops = goodOps();
    ops[10] = { ...ops[10]!, items: [{ name: 'k0', value: 'c', rv: 14 }, { name: 'k1', value: 'x', rv: 13 }] };
    const c = await check(history(ops), 'mixed-pages');
    expect(c.violations.map((v) => v.check)).toContain('list-snapshot');
  });

  it('catch a watch with a gap across a reconnect', async () => {
    const w = goodWatchers();
    // The stream resumed from 13 instead of 12: the event at 13 is never delivered.
    w[0]!.segments[0]!.events.splice(2, 1);
    const c = await check(history(goodOps(), w), 'watch-gap');
    const gap = c.violations.find((v) => v.check === 'watch')!;
    expect(gap.message).toMatch(/watcher 0 \(namespace chaos-t\): 1 of etcd's changes between 10 and 15 never delivered \(a gap\), first ADDED chaos-t\/k1=x at 13/);
  });

  it('catch a watch that repeats or reorders events, or sends one etcd never had, or one behind a bookmark', async () => {
    for (const [name, change, want] of [
      ['dup', (e: WatcherHistory['segments'][0]['events']) => e.splice(3, 0, { ...e[2]! }), /delivered twice/],
      ['reorder', (e: WatcherHistory['segments'][0]['events']) => e.splice(2, 2, e[3]!, e[2]!), /out of order/],
      ['phantom', (e: WatcherHistory['segments'][0]['events']) => (e[1] = { ...e[1]!, value: 'q' }), /etcd's is MODIFIED chaos-t\/k0=b/],
    ] as const) {
      const w = goodWatchers();
      change(w[0]!.segments[0]!.events);
      const c = await check(history(goodOps(), w), `watch-${name}`);
      expect(c.violations.some((v) => v.check === 'watch' && want.test(v.message)), `${name}: ${JSON.stringify(c.violations)}`).toBe(true);
    }
    const w = goodWatchers();
    w[0]!.segments[0]!.bookmarks = [{ rv: 15, afterEvents: 3 }];
    const c = await check(history(goodOps(), w), 'watch-bookmark');
    expect(c.violations.some((v) => /came after a bookmark at 15/.test(v.message))).toBe(true);
  });

  it('catch a watcher that never caught up, and a final read behind an acknowledged write', async () => {
    const w = goodWatchers();
    w[1]!.segments[1]!.events.splice(1);
    w[1]!.segments[1]!.reached = 15;
    const h = history(goodOps(), w);
    h.finalReads[0]!.op.listRv = 12;
    h.finalReads[0]!.op.items = [{ name: 'k0', value: 'b', rv: 12 }];
    const c = await check(h, 'final');
    expect(c.violations.some((v) => v.check === 'watch' && /never caught up/.test(v.message))).toBe(true);
    expect(c.violations.some((v) => v.check === 'final-state' && /before the last acknowledged write at 13/.test(v.message))).toBe(true);
    // Porcupine sees it too: the final read is one of its reads.
    expect(c.linearizability.result).toBe('illegal');
  });
});
