// Child-process and temp-dir bookkeeping. Every child is spawned in its own
// process group and is killed (group-wide) on normal exit, on errors, on
// SIGINT/SIGTERM and on the global timeout; every temp dir is removed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  logFile: string;
  /** Resolves with the exit code/signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited: () => boolean;
}

const children = new Set<Child>();
const tempDirs = new Set<string>();
let logDir: string | undefined;

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kapi-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    /* best effort */
  }
  tempDirs.delete(dir);
}

function getLogDir(): string {
  if (!logDir) logDir = makeTempDir('logs');
  return logDir;
}

let logSeq = 0;

/** Spawns `argv` in its own process group; stdout+stderr go to a log file (cheap for the harness). */
export function spawnChild(name: string, argv: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Child {
  const logFile = path.join(getLogDir(), `${String(++logSeq).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '_')}.log`);
  const fd = fs.openSync(logFile, 'w');
  let proc: ChildProcess;
  try {
    proc = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', fd, fd],
      detached: true,
    });
  } finally {
    fs.closeSync(fd);
  }
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
    proc.once('error', (err) => {
      done = true;
      fs.appendFileSync(logFile, `\n[bench] spawn error: ${err.message}\n`);
      resolve({ code: -1, signal: null });
    });
  });
  const child: Child = { name, proc, pid: proc.pid ?? -1, logFile, exited, hasExited: () => done };
  children.add(child);
  void exited.then(() => children.delete(child));
  return child;
}

function signalGroup(child: Child, sig: NodeJS.Signals): void {
  if (child.pid <= 0 || child.hasExited()) return;
  try {
    process.kill(-child.pid, sig); // whole process group
  } catch {
    try {
      process.kill(child.pid, sig);
    } catch {
      /* already gone */
    }
  }
}

/** SIGTERM, then SIGKILL after graceMs; resolves when the child has exited. */
export async function stopChild(child: Child, graceMs = 3000): Promise<void> {
  if (child.hasExited()) return;
  signalGroup(child, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      signalGroup(child, 'SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([child.exited.then(() => undefined), killed]);
  clearTimeout(timer);
  if (!child.hasExited()) {
    // SIGKILL sent; give the kernel a moment to reap.
    await Promise.race([child.exited, new Promise((r) => setTimeout(r, 2000))]);
  }
}

export function tailLog(child: Child, maxBytes = 4000): string {
  try {
    const buf = fs.readFileSync(child.logFile);
    return buf.subarray(Math.max(0, buf.length - maxBytes)).toString('utf8');
  } catch {
    return '';
  }
}

/** Async cleanup: stop all children gracefully, remove temp dirs. */
export async function cleanupAll(): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, 2000)));
  for (const d of [...tempDirs]) removeTempDir(d);
}

/** Synchronous last-resort cleanup (process 'exit' handler). */
export function cleanupSync(): void {
  for (const c of children) signalGroup(c, 'SIGKILL');
  children.clear();
  for (const d of [...tempDirs]) removeTempDir(d);
}


export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
