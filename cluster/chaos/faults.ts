// The fault schedule: one fault per run, each through the launcher's process controls. A kill
// is kill -9; a pause is SIGSTOP, held, then SIGCONT; a restart is a clean stop and start; the
// rolling restart stops and starts every node, then every etcd member, one at a time. Each
// fault ends healed: every process running and ready again.

import type { Cluster, ClusterProcess, EtcdMember } from '../launcher.js';
import type { FaultRecord } from './history.js';

export const FAULTS = [
  'kill-node',
  'pause-etcd-leader',
  'rolling-restart',
  'pause-node',
  'kill-etcd-leader',
  'restart-node',
  'kill-etcd-follower',
  'pause-etcd-follower',
  'restart-etcd-member',
] as const;
export type FaultKind = (typeof FAULTS)[number];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function etcdTarget(c: Cluster, leader: boolean, run: number): Promise<EtcdMember> {
  for (let i = 0; i < 50; i++) {
    const l = await c.etcdLeader();
    if (l) {
      if (leader) return l;
      const others = c.etcd.filter((m) => m !== l);
      return others[run % others.length]!;
    }
    await sleep(200);
  }
  throw new Error('no etcd leader found');
}

/**
 * Injects `kind`, holds it for `holdMs` (kills and pauses), heals it, and returns what was done
 * when (milliseconds since `t0`).
 */
export async function injectFault(c: Cluster, kind: FaultKind, run: number, holdMs: number, t0: number, startTimeoutMs: number): Promise<FaultRecord> {
  const at = (): number => Math.round(performance.now() - t0);
  const rec: FaultRecord = { kind, target: '', start: at(), healed: 0, steps: [] };
  const step = (what: string): void => {
    rec.steps.push({ at: at(), what });
  };
  const node = c.nodes[run % c.nodes.length]!;
  const hold = async (p: ClusterProcess, how: 'kill' | 'pause'): Promise<void> => {
    rec.target = p.name;
    if (how === 'kill') {
      await p.kill();
      step(`killed ${p.name} (-9)`);
    } else {
      p.pause();
      step(`paused ${p.name} (SIGSTOP)`);
    }
    await sleep(holdMs);
    if (how === 'pause') {
      p.resume();
      step(`resumed ${p.name} (SIGCONT)`);
    } else {
      await (p as EtcdMember | typeof node).start(startTimeoutMs);
      step(`started ${p.name} again; ready`);
    }
  };
  switch (kind) {
    case 'kill-node':
      await hold(node, 'kill');
      break;
    case 'pause-node':
      await hold(node, 'pause');
      break;
    case 'restart-node':
      rec.target = node.name;
      await node.stop();
      step(`stopped ${node.name} (SIGTERM)`);
      await node.start(startTimeoutMs);
      step(`started ${node.name}; ready`);
      break;
    case 'kill-etcd-leader':
    case 'kill-etcd-follower':
      await hold(await etcdTarget(c, kind === 'kill-etcd-leader', run), 'kill');
      break;
    case 'pause-etcd-leader':
    case 'pause-etcd-follower':
      await hold(await etcdTarget(c, kind === 'pause-etcd-leader', run), 'pause');
      break;
    case 'restart-etcd-member': {
      const m = c.etcd[run % c.etcd.length]!;
      rec.target = m.name;
      await m.stop(3000);
      step(`stopped ${m.name} (SIGTERM)`);
      await m.start(startTimeoutMs);
      step(`started ${m.name}; healthy`);
      break;
    }
    case 'rolling-restart':
      rec.target = 'every node, then every etcd member';
      for (const n of c.nodes) {
        await n.stop();
        step(`stopped ${n.name}`);
        await n.start(startTimeoutMs);
        step(`started ${n.name}; ready`);
      }
      for (const m of c.etcd) {
        await m.stop(3000);
        step(`stopped ${m.name}`);
        await m.start(startTimeoutMs);
        step(`started ${m.name}; healthy`);
      }
      break;
  }
  rec.healed = at();
  return rec;
}
