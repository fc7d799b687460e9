// The single-server benches (pods-ready, statefulset-ready) each time a fresh `kapi serve` of
// the built CLI on a throwaway data dir, so that nothing of an earlier run is in its numbers.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = resolve(import.meta.dirname, '..', '..', 'src', 'cli.js');

export interface FreshKapi {
  proc: ChildProcess;
  dataDir: string;
  /** Its URL, as its "kapi ready" log line says. */
  url: string;
  /** SIGTERM, wait for the exit, remove the data dir. */
  stop(): Promise<void>;
}

/** Starts `kapi serve` on a new temp dir (named after `prefix`) and a free port, with `args`; resolves once it is ready. */
export async function startFreshKapi(prefix: string, args: string[]): Promise<FreshKapi> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const proc = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir, '--secure-port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      // Whole lines only: a chunk may end inside one.
      const line = out.split('\n').slice(0, -1).find((l) => l.includes('"kapi ready"'));
      if (line) res((JSON.parse(line) as { url: string }).url);
    });
    proc.once('exit', (c) => rej(new Error(`kapi exited with ${c}:\n${out.slice(-2000)}`)));
  });
  return {
    proc,
    dataDir,
    url,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
