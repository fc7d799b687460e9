// The audit log backend (--audit-log-path, kube's log backend over lumberjack): one JSON line
// per event, to a file or to stdout (`-`). The file rotates as lumberjack rotates it: when a
// write would take it past --audit-log-maxsize megabytes (0: lumberjack's 100), it is renamed
// to `<name>-<UTC time 2006-01-02T15-04-05.000><ext>` beside it and a new one is started;
// backups beyond --audit-log-maxbackup (0: all kept) or older than --audit-log-maxage days (by
// the time in their name; 0: kept) are removed.

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export interface LogBackendOptions {
  path: string;
  /** Megabytes; 0 means 100. */
  maxSizeMB: number;
  maxBackups: number;
  maxAgeDays: number;
}

export interface AuditSink {
  write(line: string): void;
  close(): void;
}

const MB = 1024 * 1024;

function backupTime(d: Date): string {
  return d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
}

/** Parses the time out of a backup name made by `backupTime`. */
function timeOfBackup(name: string, prefix: string, ext: string): number | undefined {
  if (!name.startsWith(prefix) || !name.endsWith(ext)) return undefined;
  const t = name.slice(prefix.length, name.length - ext.length);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(t);
  if (!m) return undefined;
  return Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
}

/**
 * Writes synchronously (kube's default --audit-log-mode is blocking: the event is on disk, as
 * far as the OS goes, before the request's answer completes), rotating by size.
 */
export class FileAuditSink implements AuditSink {
  private fd = -1;
  private size = 0;
  private readonly max: number;
  private readonly prefix: string;
  private readonly ext: string;
  private readonly dir: string;

  constructor(private readonly o: LogBackendOptions) {
    this.max = (o.maxSizeMB > 0 ? o.maxSizeMB : 100) * MB;
    this.dir = dirname(o.path);
    this.ext = extname(o.path);
    this.prefix = `${basename(o.path, this.ext)}-`;
    this.open();
  }

  private open(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    this.fd = openSync(this.o.path, 'a', 0o600);
    this.size = existsSync(this.o.path) ? statSync(this.o.path).size : 0;
  }

  private rotate(): void {
    closeSync(this.fd);
    renameSync(this.o.path, join(this.dir, `${this.prefix}${backupTime(new Date())}${this.ext}`));
    this.open();
    this.prune();
  }

  /** lumberjack's millRunOnce: drop backups past the count and the age. */
  private prune(): void {
    if (this.o.maxBackups <= 0 && this.o.maxAgeDays <= 0) return;
    const backups = readdirSync(this.dir)
      .map((name) => ({ name, t: timeOfBackup(name, this.prefix, this.ext) }))
      .filter((b): b is { name: string; t: number } => b.t !== undefined)
      .sort((a, b) => b.t - a.t);
    const cutoff = Date.now() - this.o.maxAgeDays * 24 * 3600 * 1000;
    backups.forEach((b, i) => {
      const tooMany = this.o.maxBackups > 0 && i >= this.o.maxBackups;
      const tooOld = this.o.maxAgeDays > 0 && b.t < cutoff;
      if (tooMany || tooOld) {
        try {
          unlinkSync(join(this.dir, b.name));
        } catch {
          // Gone already.
        }
      }
    });
  }

  write(line: string): void {
    const buf = Buffer.from(line + '\n', 'utf8');
    if (this.size > 0 && this.size + buf.length > this.max) this.rotate();
    writeSync(this.fd, buf);
    this.size += buf.length;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

export class StdoutAuditSink implements AuditSink {
  write(line: string): void {
    process.stdout.write(line + '\n');
  }
  close(): void {}
}

export function openAuditSink(o: LogBackendOptions): AuditSink {
  return o.path === '-' ? new StdoutAuditSink() : new FileAuditSink(o);
}
