// Raw storage ceiling: ~1 KB puts straight into LevelDB (level) or etcd (etcd3),
// `concurrency` writers each awaiting its own put (no batching).
import path from 'node:path';
import { runClosedLoop, type LoadResult } from '../load.js';
import { statefulSetBody } from '../manifest.js';
import { makeTempDir, removeTempDir } from '../proc.js';
import { num, resultOf, type PhaseContext, type StandalonePhase } from './types.js';
import type { CreateGetResult } from './create-get.js';
import type { Outcome } from './types.js';

export interface RawStorageResult {
  backend: 'leveldb' | 'etcd3';
  valueBytes: number;
  puts: LoadResult;
}

async function rawLevel(ctx: PhaseContext): Promise<LoadResult> {
  const { Level } = await import('level');
  const dir = makeTempDir('raw-level');
  const db = new Level<string, Buffer>(path.join(dir, 'db'), { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  await db.open();
  try {
    const put = (prefix: string) => async (i: number) => {
      const name = `${prefix}${i}`;
      await db.put(`/registry/statefulsets/default/${name}`, statefulSetBody(name));
      return { ok: true, label: 'put' };
    };
    await runClosedLoop({ concurrency: ctx.cfg.concurrency, maxOps: ctx.cfg.warmupOps, durationMs: ctx.cfg.phaseMs, op: put('bench-warmup-') });
    return await runClosedLoop({ concurrency: ctx.cfg.concurrency, maxOps: ctx.cfg.maxOpsPerPhase, durationMs: ctx.cfg.phaseMs, op: put('bench-') });
  } finally {
    await db.close();
    removeTempDir(dir);
  }
}

async function rawEtcd(ctx: PhaseContext): Promise<LoadResult> {
  if (!ctx.etcd) throw new Error('etcd not started');
  const { Etcd3 } = await import('etcd3');
  const client = new Etcd3({ hosts: ctx.etcd.clientUrl });
  const prefix = '/kapi-bench-raw/';
  try {
    const put = (p: string) => async (i: number) => {
      const name = `${p}${i}`;
      await client.put(`${prefix}statefulsets/default/${name}`).value(statefulSetBody(name));
      return { ok: true, label: 'put' };
    };
    await runClosedLoop({ concurrency: ctx.cfg.concurrency, maxOps: ctx.cfg.warmupOps, durationMs: ctx.cfg.phaseMs, op: put('bench-warmup-') });
    return await runClosedLoop({ concurrency: ctx.cfg.concurrency, maxOps: ctx.cfg.maxOpsPerPhase, durationMs: ctx.cfg.phaseMs, op: put('bench-') });
  } finally {
    try {
      await client.delete().prefix(prefix);
    } catch {
      /* etcd is thrown away anyway */
    }
    client.close();
  }
}

export const rawStoragePhase: StandalonePhase<RawStorageResult> = {
  kind: 'standalone',
  id: 'raw-storage',
  title: 'raw storage puts/s',
  async run(ctx) {
    const backend = ctx.cfg.storage;
    ctx.log(`  raw ${backend} puts for ${ctx.cfg.phaseMs / 1000}s, ${ctx.cfg.concurrency} writers ...`);
    const puts = backend === 'etcd3' ? await rawEtcd(ctx) : await rawLevel(ctx);
    ctx.log(`  raw ${backend}: ${puts.okPerSec.toFixed(0)} puts/s, ${puts.errors} errors`);
    return { backend, valueBytes: statefulSetBody('bench-00000').length, puts };
  },
  metrics(res, all, ctx) {
    const r = res.ok ? res.result : undefined;
    const cg = all['create-get'] as Partial<Record<'kapi', Outcome<CreateGetResult>>> | undefined;
    const kapiCreates = num(resultOf(cg?.kapi)?.create.okPerSec);
    return [
      {
        id: 'raw.puts_per_sec',
        label: `kapi creates/s vs raw ${ctx.cfg.storage} puts/s`,
        unit: '/s',
        kapi: kapiCreates,
        baseline: num(r?.puts.okPerSec),
        better: 'higher',
      },
      {
        id: 'raw.put_p50_ms',
        label: `raw ${ctx.cfg.storage} put latency p50 (baseline col)`,
        unit: 'ms',
        kapi: null,
        baseline: num(r?.puts.latencyMs.p50),
        better: 'none',
      },
    ];
  },
};
