// Process readings for server phases: /proc/<pid>/status (RSS), /proc/<pid>/stat (CPU
// time) and Prometheus gauges from a target's /metrics. Linux only; every reader returns
// undefined instead of throwing when the data is not there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { request, type Target } from './http.js';

export interface ProcStatus {
  /** `Name:` (the executable's comm), to show what was measured. */
  name?: string;
  vmRssBytes?: number;
  /** Peak RSS (high-water mark). */
  vmHwmBytes?: number;
}

export const MiB = 1024 * 1024;

/** VmRSS / VmHWM of `pid` from /proc/<pid>/status. */
export function readProcStatus(pid: number | undefined): ProcStatus | undefined {
  if (!pid || pid <= 0) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (key: string): number | undefined => {
    const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : undefined;
  };
  return { name: /^Name:\s+(.*)$/m.exec(text)?.[1], vmRssBytes: kb('VmRSS'), vmHwmBytes: kb('VmHWM') };
}

let clkTck: number | undefined;
function ticksPerSecond(): number {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2000 }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** User + system CPU seconds consumed so far by `pid` (its threads included). */
export function readCpuSeconds(pid: number | undefined): number | undefined {
  if (!pid || pid <= 0) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised comm (which may contain spaces); utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(rest[11]);
    const stime = Number(rest[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return (utime + stime) / ticksPerSecond();
  } catch {
    return undefined;
  }
}

/** Reads unlabelled gauges (e.g. process_resident_memory_bytes) from GET /metrics; missing ones are absent. */
export async function fetchMetrics(target: Target, names: string[], timeoutMs: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  let res;
  try {
    res = await request(target, { method: 'GET', path: '/metrics' }, { timeoutMs, collectBody: true });
  } catch {
    return out;
  }
  if (res.status !== 200 || !res.body) return out;
  const text = res.body.toString('utf8');
  for (const name of names) {
    const m = new RegExp(`^${name}(?:\\{\\})?\\s+([0-9.eE+-]+)`, 'm').exec(text);
    if (m) out[name] = Number(m[1]);
  }
  return out;
}
